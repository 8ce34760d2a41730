"""Discretizers and local discretization: bayesbench against Weka and the authors' library.

Two tables, each measured in one run:

1. **PKI**: bayesbench's ``pki`` against Weka 3.6's ``weka.filters.unsupervised.attribute.
   PKIDiscretize`` on the numeric data files of ``datasets/``. Both sides find the cut points
   of every numeric attribute of a whole file, the data already in memory: bayesbench's
   ``Discretizer("pki").fit``; on the Java side a small harness (compiled here with ``javac``)
   loads the file, runs the filter once untimed (the JIT warms up), then times
   ``setInputFormat`` plus ``Filter.useFilter`` with ``System.nanoTime`` (JVM start-up and ARFF
   parsing left out). The "same cuts" column counts the attributes whose cut points are equal
   to the last bit. ``--reference PATH`` writes the harness's cut points, with the command, the
   jar's and each file's SHA-256, as ``tests/reference/weka_pki_cuts.json`` holds them.
2. **Local discretization**: the cost of one fit (and predict) of ``tan_ld``, ``kdb_ld`` and
   ``aode_ld`` beside their global-discretization counterparts, ``tan``, ``kdb`` and ``aode``
   after MDL cut points found on the training folds (the discretization timed with them), over
   the same stratified folds; with the accuracy of each. ``--bayesnet-driver EXE`` adds the
   authors' C++ library (see below) on the same folds.

The authors' library (Montañana, Gámez and Puerta's BayesNet, with their ``mdlp``
discretizer) is not in this repository and no build recipe of it is: build it outside,
against libtorch, with a driver program of your own that reads ``data.csv`` (numeric
attributes, then the class code, no header), ``folds.txt`` (one fold number per row) and
the model name (``TANLd``, ``KDBLd``, ``AODELd``) from its command line and prints, per fold,
``fold <f> fit <seconds> predict <seconds> correct <count>``, ``pred <f> <class>...`` (the test
rows' predictions in row order) and ``cuts <f> <spode> a<j> <cut>...`` (each attribute's
``getCutPoints()`` without its first and last value; ``<spode>`` -1 but for AODELd). How it
was built here, and the figures, are in ``docs/benchmarks.md`` (discretizers and local
discretization).

    python benchmarks/bench_discretizers.py                      # both tables
    python benchmarks/bench_discretizers.py --only pki --repeats 5
    python benchmarks/bench_discretizers.py --reference tests/reference/weka_pki_cuts.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_discrete import WEKA_JAR, stratified_folds

ROOT = Path(__file__).resolve().parent.parent
# Every data file of datasets/ with a numeric attribute (the MDL reference's 22).
PKI_DATASETS = ("adult", "australian", "balance-scale", "breast-cancer-wisconsin", "cmc",
                "dermatology", "ecoli", "german-credit", "glass", "hepatitis", "imports-85",
                "ionosphere", "iris", "labor", "letter", "lymphography",
                "pima-indians-diabetes", "segment", "segment-challenge", "vehicle", "wdbc",
                "wine")
LD_DATASETS = ("iris", "glass", "ecoli", "pima-indians-diabetes", "vehicle", "segment")

# The Java side of table 1: per file, the cut points of every numeric attribute (full
# double precision, Double.toString) and the seconds of the timed filter runs.
PKI_HARNESS = r"""
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;
import weka.filters.Filter;
import weka.filters.unsupervised.attribute.PKIDiscretize;

public class PKICuts {
    public static void main(String[] args) throws Exception {
        int repeats = Integer.parseInt(args[0]);
        for (int a = 1; a < args.length; a++) {
            Instances data = new DataSource(args[a]).getDataSet();
            data.setClassIndex(data.numAttributes() - 1);
            PKIDiscretize filter = null;
            double seconds = 0;
            for (int r = 0; r <= repeats; r++) {
                long t0 = System.nanoTime();
                filter = new PKIDiscretize();
                filter.setInputFormat(data);
                Filter.useFilter(data, filter);
                if (r > 0) seconds += (System.nanoTime() - t0) / 1e9;
            }
            System.out.println("file\t" + args[a] + "\t" + (seconds / Math.max(repeats, 1)));
            for (int i = 0; i < data.numAttributes(); i++) {
                if (i == data.classIndex() || !data.attribute(i).isNumeric()) continue;
                double[] cuts = filter.getCutPoints(i);
                StringBuilder line = new StringBuilder("cuts\t" + data.attribute(i).name() + "\t");
                for (int j = 0; cuts != null && j < cuts.length; j++) {
                    line.append(j == 0 ? "" : " ").append(Double.toString(cuts[j]));
                }
                System.out.println(line);
            }
        }
    }
}
"""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compile_harness(workdir: Path, name: str, source: str) -> bool:
    """Compile ``source`` (class ``name``) against Weka's jar; False when javac fails."""
    if shutil.which("javac") is None or not WEKA_JAR.exists():
        return False
    (workdir / f"{name}.java").write_text(source)
    proc = subprocess.run(["javac", "-nowarn", "-cp", str(WEKA_JAR), "-d", str(workdir),
                           str(workdir / f"{name}.java")], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"javac failed: {proc.stderr.strip()}", file=sys.stderr)
    return proc.returncode == 0


def weka_pki(workdir: Path, files: list[Path], repeats: int) -> dict:
    """``{file stem: (seconds per filter run, {attribute: [cuts]})}`` from the harness."""
    cmd = ["java", "-cp", f"{WEKA_JAR}{os.pathsep}{workdir}", "PKICuts", str(repeats),
           *map(str, files)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"Weka PKIDiscretize harness failed: {proc.stderr.strip()[-300:]}")
    out, current = {}, None
    for line in proc.stdout.splitlines():
        kind, name, value = line.split("\t")
        if kind == "file":
            current = {}
            out[Path(name).stem] = (float(value), current)
        else:
            current[name] = [float(v) for v in value.split()]
    return out


def ours_pki(ds, repeats: int):
    from bayesbench.preprocess.discretize import Discretizer

    Discretizer("pki").fit(ds)  # warm-up
    t0 = time.perf_counter()
    for _ in range(repeats):
        fitted = Discretizer("pki").fit(ds)
    return (time.perf_counter() - t0) / repeats, fitted.cuts_


def pki_table(args, workdir: Path) -> None:
    from bayesbench.data import load_dataset
    from bayesbench.report.tables import render

    files = [ROOT / "datasets" / f"{name}.arff" for name in args.datasets or PKI_DATASETS]
    if not compile_harness(workdir, "PKICuts", PKI_HARNESS):
        print("(Weka's PKIDiscretize needs java, javac and /usr/share/java/weka.jar)")
        return
    weka = weka_pki(workdir, files, args.repeats)
    rows, total_ours, total_weka = [], 0.0, 0.0
    for path in files:
        ds = load_dataset(path)
        seconds, cuts = ours_pki(ds, args.repeats)
        weka_seconds, weka_cuts = weka[path.stem]
        same = sum(np.array_equal(cuts[a], np.asarray(c)) for a, c in weka_cuts.items())
        total_ours += seconds
        total_weka += weka_seconds
        rows.append([path.stem, ds.n_rows, len(weka_cuts), f"{same}/{len(weka_cuts)}",
                     f"{1e3 * seconds:.2f}", f"{1e3 * weka_seconds:.2f}",
                     f"{weka_seconds / seconds:.2f}"])
    rows.append(["all", "", "", "", f"{1e3 * total_ours:.2f}", f"{1e3 * total_weka:.2f}",
                 f"{total_weka / total_ours:.2f}"])
    print(render(rows, ["data set", "rows", "numeric", "same cuts", "bayesbench ms",
                        "weka ms (in JVM)", "x bayesbench"], "text", floatfmt="",
                 caption=f"PKI cut points of every numeric attribute, mean of {args.repeats} "
                         f"fits; {os.cpu_count()} cores"))
    if args.reference:
        write_reference(Path(args.reference), files, weka)


def write_reference(path: Path, files: list[Path], weka: dict) -> None:
    about = {
        "tool": "Weka 3.6.14 (Debian bookworm package weka 3.6.14-3), "
                "weka.filters.unsupervised.attribute.PKIDiscretize with default options, "
                "class = last attribute",
        "command": "python benchmarks/bench_discretizers.py --only pki --repeats 1 "
                   "--reference tests/reference/weka_pki_cuts.json (its PKI_HARNESS: "
                   "PKIDiscretize.setInputFormat, Filter.useFilter on the whole file, then "
                   "getCutPoints(i) printed with Double.toString)",
        "jar": str(WEKA_JAR.resolve().name),
        "jar_sha256": sha256(WEKA_JAR.resolve()),
        "values": "full double precision; missing values excluded; [] = no cut (one bin)",
        "datasets": [f.stem for f in files],
        "data_sha256": {f.stem: sha256(f) for f in files},
    }
    cuts = {stem: dict(c) for stem, (_, c) in weka.items()}
    path.write_text(json.dumps({"about": about, "cuts": cuts}, indent=1) + "\n")
    print(f"wrote {path}", file=sys.stderr)


# ------------------------------------------------------------- local discretization
LD_PAIRS = (("tan_ld", "tan", "TANLd"), ("kdb_ld", "kdb", "KDBLd"), ("aode_ld", "aode", "AODELd"))


def float32_data(path: Path):
    """The numeric attributes of a complete numeric data file rounded to float32 (as the
    library reads them, ``stof``), the class codes, and the CSV text both sides read."""
    from bayesbench.data import load_dataset

    ds = load_dataset(path)
    if any(a.is_nominal for a in ds.attributes):
        raise ValueError(f"{path.stem} has nominal attributes")
    X32 = ds.numeric_matrix().astype(np.float32)
    if np.isnan(X32).any():
        raise ValueError(f"{path.stem} has missing values")
    lines = [",".join([*(repr(float(v)) for v in row), str(int(c))])
             for row, c in zip(X32, ds.y)]
    return X32.astype(np.float64), np.asarray(ds.y), "\n".join(lines) + "\n"


def ours_ld(name: str, X, y, fold, folds: int):
    """Per fold: (fit + predict seconds, predictions, cut points) of a bayesbench learner;
    the global counterparts get MDL cut points found on the training folds (timed)."""
    from bayesbench import make_classifier
    from bayesbench.preprocess.mdl import mdl_cuts

    out = []
    for f in range(folds):
        test = fold == f
        t0 = time.perf_counter()
        if name.endswith("_ld"):
            model = make_classifier(name).fit(X[~test], y[~test])
            pred = model.predict(X[test])
            cuts = model.cuts_
        else:
            k = int(y.max()) + 1
            cuts = [mdl_cuts(X[~test, j], y[~test], k) for j in range(X.shape[1])]
            codes = np.column_stack([np.searchsorted(c, X[:, j], side="left")
                                     for j, c in enumerate(cuts)])
            model = make_classifier(name).fit(codes[~test], y[~test],
                                              cardinalities=[c.size + 1 for c in cuts],
                                              n_classes=k)
            pred = model.predict(codes[test])
        out.append((time.perf_counter() - t0, pred, cuts))
    return out


def library_ld(driver: str, workdir: Path, model: str, folds: int):
    """Per fold: (fit + predict seconds, predictions, cut points) from the library's driver."""
    proc = subprocess.run([driver, str(workdir / "data.csv"), str(workdir / "folds.txt"),
                           model], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{driver} {model} failed: {proc.stderr.strip()[-300:]}")
    seconds, preds, cuts = [0.0] * folds, [None] * folds, [dict() for _ in range(folds)]
    for line in proc.stdout.splitlines():
        kind, f, *rest = line.split()
        f = int(f)
        if kind == "fold":
            seconds[f] = float(rest[1]) + float(rest[3])
        elif kind == "pred":
            preds[f] = np.array([int(v) for v in rest])
        elif kind == "cuts":
            spode, att, values = int(rest[0]), int(rest[1][1:]), rest[2:]
            cuts[f].setdefault(spode, {})[att] = [float(np.float32(v)) for v in values]
    return [(s, p, c) for s, p, c in zip(seconds, preds, cuts)]


def same_cuts(ours, theirs, m: int) -> tuple[int, int]:
    """Attributes (of every SPODE for AODE) whose cut points are equal, and how many."""
    ours = {-1: ours} if isinstance(ours, dict) else dict(enumerate(ours))
    same = total = 0
    for spode, cuts in theirs.items():
        for j in range(m):
            total += 1
            same += ours[spode][f"x{j}"].tolist() == cuts.get(j, [])
    return same, total


def ld_table(args, workdir: Path) -> None:
    from bayesbench.report.tables import render

    rows, agreement, library_runs = [], [], {}
    for name in args.datasets or LD_DATASETS:
        path = ROOT / "datasets" / f"{name}.arff"
        X, y, text = float32_data(path)
        fold = stratified_folds(y, args.folds, args.seed)
        (workdir / "data.csv").write_text(text)
        np.savetxt(workdir / "folds.txt", fold, fmt="%d")
        for local, plain, library in LD_PAIRS:
            runs = {local: ours_ld(local, X, y, fold, args.folds),
                    plain: ours_ld(plain, X, y, fold, args.folds)}
            if args.bayesnet_driver:
                runs[f"BayesNet {library}"] = library_ld(args.bayesnet_driver, workdir, library,
                                                         args.folds)
                library_runs.setdefault(name, {"sha256": sha256(path), "fold": fold.tolist()})[
                    library] = [
                    {"cuts": {str(s): {str(j): c for j, c in cuts.items()}
                              for s, cuts in per_fold[2].items()},
                     "predictions": per_fold[1].tolist(),
                     "correct": int((per_fold[1] == y[fold == f]).sum())}
                    for f, per_fold in enumerate(runs[f"BayesNet {library}"])]
            base = sum(r[0] for r in runs[local]) / args.folds
            for label, per_fold in runs.items():
                correct = [int((p == y[fold == f]).sum()) for f, (_, p, _) in
                           enumerate(per_fold)]
                seconds = sum(r[0] for r in per_fold) / args.folds
                rows.append([name, label, f"{1e3 * seconds:.1f}", f"{seconds / base:.2f}",
                             f"{sum(correct) / y.size:.4f}"])
            if args.bayesnet_driver:
                theirs = runs[f"BayesNet {library}"]
                cut_same = [same_cuts(o[2], t[2], X.shape[1])
                            for o, t in zip(runs[local], theirs)]
                agreement.append([name, local, f"{sum(a for a, _ in cut_same)}/"
                                  f"{sum(b for _, b in cut_same)}",
                                  f"{sum(int((o[1] == t[1]).sum()) for o, t in zip(runs[local], theirs))}/{y.size}",
                                  " ".join(f"{int((o[1] == y[fold == f]).sum())}:"
                                           f"{int((t[1] == y[fold == f]).sum())}"
                                           for f, (o, t) in enumerate(zip(runs[local], theirs)))])
    if args.bayesnet_reference:
        write_bayesnet_reference(args, library_runs)
    print(render(rows, ["data set", "learner", "ms per fold (fit + predict)", "x " + "local",
                        "accuracy"], "text", floatfmt="",
                 caption=f"local discretization against global MDL, {args.folds} stratified "
                         f"folds (seed {args.seed}), mean per fold; x local: the row's time "
                         f"over the local learner's; {os.cpu_count()} cores"))
    if agreement:
        print(render(agreement, ["data set", "learner", "same cut points", "same predictions",
                                 "correct per fold (bayesbench:library)"], "text",
                     caption="bayesbench against the authors' library on the same folds"))


def write_bayesnet_reference(args, library_runs: dict) -> None:
    about = {
        "library": args.bayesnet_about,
        "command": f"python benchmarks/bench_discretizers.py --only ld --folds {args.folds} "
                   f"--seed {args.seed} --datasets {' '.join(library_runs)} "
                   "--bayesnet-driver EXE --bayesnet-reference PATH",
        "data": "each data file's numeric attributes rounded to float32 (float32_data), "
                "rows in file order; folds: bench_discrete.stratified_folds(y, folds, seed)",
        "folds": args.folds, "seed": args.seed,
        "cuts": "per fold, per SPODE ('-1': the one network of TANLd and KDBLd), per "
                "attribute index: the library's getCutPoints() without its first (minimum) "
                "and last (maximum), printed with 9 significant digits (float32 exactly)",
    }
    Path(args.bayesnet_reference).write_text(
        json.dumps({"about": about, "results": library_runs}) + "\n")
    print(f"wrote {args.bayesnet_reference}", file=sys.stderr)


def mdlp_cases(seed: int, count: int):
    """Random MDLP inputs that make the library's rules matter: values on small grids (runs of
    equal values) or with one or two decimals, up to 24 labels tied to the values with noise
    and numbered by first appearance (as local discretization's joint labels are)."""
    rng = np.random.default_rng(seed)
    cases = []
    for t in range(count):
        n = int(rng.integers(3, 150))
        if t % 3 == 0:
            x = rng.integers(0, rng.integers(2, 30), n).astype(np.float32)
        elif t % 3 == 1:
            x = np.round(rng.normal(0, 3, n), int(rng.integers(0, 3))).astype(np.float32)
        else:
            x = np.round(rng.random(n) * 100, 2).astype(np.float32)
        n_labels = int(rng.integers(2, 25))
        distinct = np.unique(x)
        edges = np.sort(rng.choice(distinct, size=min(n_labels, distinct.size), replace=False))
        noise = (rng.random(n) < rng.random() * 0.5) * rng.integers(0, n_labels, n)
        y = (np.searchsorted(edges, x) % n_labels + noise) % n_labels
        _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
        rank = np.empty(first.size, dtype=np.int64)
        rank[np.argsort(first)] = np.arange(first.size)
        cases.append((x, rank[inverse.reshape(-1)]))
    return cases


# The library's MDLP settings the reference covers: (min_length, max_depth, proposed_cuts).
MDLP_SETTINGS = ((3, None, 0.0), (5, 3, 0.0), (3, None, 3.0), (3, None, 0.05))


def mdlp_reference(tool: str, path: Path, about: str) -> None:
    """The library's cut points of :func:`mdlp_cases` under each of MDLP_SETTINGS, from
    ``tool`` (reads ``n`` then ``n`` lines ``value label`` per case, its arguments
    min_length, max_depth and proposed_cuts; prints each case's interior cut points)."""
    from bayesbench.models.learners.ld_mdlp import mdlp_cuts

    cases = mdlp_cases(0, 60)
    text = "".join(f"{x.size}\n" + "".join(f"{float(v)!r} {int(c)}\n" for v, c in zip(x, y))
                   for x, y in cases)
    results, same = [], 0
    for min_length, max_depth, proposed in MDLP_SETTINGS:
        depth = str(max_depth if max_depth is not None else 2 ** 31 - 1)
        proc = subprocess.run([tool, str(min_length), depth, repr(proposed)], input=text,
                              capture_output=True, text=True, check=True)
        cuts = [[float(np.float32(v)) for v in line.split()] for line in proc.stdout.splitlines()]
        for (x, y), theirs in zip(cases, cuts):
            same += mdlp_cuts(x, y, min_length=min_length, max_depth=max_depth,
                              proposed_cuts=proposed).tolist() == theirs
        results.append({"min_length": min_length, "max_depth": max_depth,
                        "proposed_cuts": proposed, "cuts": cuts})
    print(f"the library's MDLP: {same} of {len(cases) * len(MDLP_SETTINGS)} cases give the "
          f"same cut points in bayesbench")
    reference = {"about": {"library": about, "command": "python benchmarks/bench_discretizers.py "
                           "--only mdlp --mdlp-tool EXE --mdlp-reference PATH",
                           "cases": "bench_discretizers.mdlp_cases(0, 60): values (float32) "
                                    "and labels stored below"},
                 "cases": [{"x": [float(v) for v in x], "labels": y.tolist()} for x, y in cases],
                 "settings": results}
    path.write_text(json.dumps(reference) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["pki", "ld", "mdlp"],
                        help="Only one of the tables (mdlp: the library's discretizer alone).")
    parser.add_argument("--datasets", nargs="+", help="Data sets of datasets/ (by name).")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference", metavar="PATH",
                        help="Write Weka's PKI cut points here as a reference JSON.")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bayesnet-driver", metavar="EXE",
                        help="The authors' library's driver program (see above).")
    parser.add_argument("--bayesnet-reference", metavar="PATH",
                        help="Write the library's cut points and predictions here (JSON).")
    parser.add_argument("--bayesnet-about", default="",
                        help="What the library build was (stored in the reference).")
    parser.add_argument("--mdlp-tool", metavar="EXE",
                        help="A program running the library's CPPFImdlp (see mdlp_reference).")
    parser.add_argument("--mdlp-reference", metavar="PATH",
                        help="Write the library's MDLP cut points of random cases here.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_discretizers_") as tmp:
        if args.only in (None, "pki"):
            pki_table(args, Path(tmp))
        if args.only in (None, "ld"):
            ld_table(args, Path(tmp))
        if args.mdlp_tool:
            mdlp_reference(args.mdlp_tool, Path(args.mdlp_reference or os.devnull),
                           args.bayesnet_about)


if __name__ == "__main__":
    main()
