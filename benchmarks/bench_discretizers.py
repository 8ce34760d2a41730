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
``fold <f> fit <seconds> predict <seconds> correct <count>``. What happened when this
repository's developers built it is in ``docs/classifiers.md`` (local discretization).

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
                        "weka ms (in JVM)", "x bayesbench"], "text",
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["pki", "ld"], help="Only one of the two tables.")
    parser.add_argument("--datasets", nargs="+", help="Data sets of datasets/ (by name).")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference", metavar="PATH",
                        help="Write Weka's PKI cut points here as a reference JSON.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_discretizers_") as tmp:
        if args.only in (None, "pki"):
            pki_table(args, Path(tmp))


if __name__ == "__main__":
    main()
