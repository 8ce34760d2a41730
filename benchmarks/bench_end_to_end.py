"""End to end: `bayesbench run` as a user runs it, beside Weka and a scikit-learn script.

For each size, a synthetic nominal ARFF file is generated (bench_discrete.py's tree-structured
sample: attributes of 2 to 5 values, each depending on the class and on one earlier attribute)
and a config is written for it: 10-fold stratified cross-validation of ``nb`` (alpha 1) and
``tan`` (alpha 0.5, as Weka's TAN estimator), discretization off, CSV summaries. Then each of
these runs as its own process on the same file, one after the other:

- ``bayesbench run -j 1`` and ``bayesbench run -j 2`` (the console script, a fresh result
  directory each time: reading, folds, both learners, records and summary tables);
- Weka's NaiveBayes and Weka's TAN (BayesNet, TAN search, SimpleEstimator alpha 0.5), each
  ``-t data.arff -x 10 -o -v`` (Weka also fits one model on all rows first);
- a scikit-learn script: the ARFF header read line by line, the data section by
  ``pandas.read_csv``, then ``CategoricalNB`` over ``StratifiedKFold(10)``;
- the floor the issue measures a run against: one read of the file by bayesbench's reader
  plus one counting pass (the sufficient statistics of all rows, every attribute pair by
  class, as the runner counts them), in a process of its own, start-up included.

Time is the process's wall-clock time; "x floor" is the row's time over the read-plus-count
process's; "peak MB" is the resident high-water mark of the
largest process of the command (``os.wait4``'s ``ru_maxrss``, the sample drawn in a process of its
own so that this one stays small: the JVM for Weka, the largest
worker for ``-j 2``). "x bayesbench" is the row's time over ``bayesbench run -j 1``'s (> 1:
bayesbench faster). With ``--repeats`` above 1 every method runs that many times, interleaved,
and the table gives the median time and the largest peak.

    python benchmarks/bench_end_to_end.py                          # 10^5 and 10^6 rows x 20, 50
    python benchmarks/bench_end_to_end.py --sizes 1000000x20,1000000x50
    python benchmarks/bench_end_to_end.py --large                  # adds 10^7 x 20 and x 50
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_discrete import WEKA_JAR, make_data  # noqa: E402

DEFAULT_SIZES = "100000x20,100000x50,1000000x20,1000000x50"
LARGE_SIZES = "10000000x20,10000000x50"

SKLEARN_SCRIPT = r"""
import sys
import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import CategoricalNB

path = sys.argv[1]
values, skip = [], 0
with open(path) as fh:
    for skip, line in enumerate(fh, 1):
        if line.lower().startswith("@attribute"):
            values.append(line[line.index("{") + 1:line.rindex("}")].split(","))
        if line.lower().startswith("@data"):
            break
frame = pd.read_csv(path, skiprows=skip, header=None, dtype=np.int16)
X, y = frame.iloc[:, :-1].to_numpy(), frame.iloc[:, -1].to_numpy()
cards = [len(v) for v in values[:-1]]
correct = 0
for train, test in StratifiedKFold(10, shuffle=True, random_state=1).split(X, y):
    model = CategoricalNB(alpha=1.0, min_categories=cards).fit(X[train], y[train])
    correct += int((model.predict(X[test]) == y[test]).sum())
print(correct / len(y))
"""

CONFIG = """name: e2e
seed: 1
datasets: [{data}]
preprocess: {{discretize: none}}
cv: {{folds: 10, repeats: 1, stratified: true}}
classifiers:
  - nb
  - name: tan
    params: {{alpha: 0.5}}
metrics: [accuracy]
format: [csv]
"""

WEKA = {
    "weka NaiveBayes": ["weka.classifiers.bayes.NaiveBayes"],
    "weka TAN": ["weka.classifiers.bayes.BayesNet", "-D",
                 "-Q", "weka.classifiers.bayes.net.search.local.TAN", "--", "-S", "ENTROPY",
                 "-E", "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"],
}


def write_arff(path: Path, X, y, cards, k: int) -> None:
    """The sample as an ARFF file, written in blocks of rows (values are single digits)."""
    with open(path, "w") as fh:
        fh.write("@relation e2e\n")
        for j, c in enumerate(cards):
            fh.write(f"@attribute x{j} {{{','.join(map(str, range(int(c))))}}}\n")
        fh.write(f"@attribute class {{{','.join(map(str, range(k)))}}}\n@data\n")
        digits = np.column_stack([X, y]).astype(np.uint8) + ord("0")
        for lo in range(0, digits.shape[0], 100_000):
            block = digits[lo:lo + 100_000]
            text = np.full((block.shape[0], 2 * block.shape[1]), ord(","), dtype=np.uint8)
            text[:, 0::2] = block
            text[:, -1] = ord("\n")
            fh.write(text.tobytes().decode("ascii"))


def write_sample(path: Path, rows: int, attributes: int, classes: int, seed: int) -> None:
    X, y, cards = make_data(rows, attributes, classes, seed)
    write_arff(path, X, y, cards, classes)


def timed(cmd, cwd: Path):
    """Wall seconds, peak resident MB of the command's largest process, and its stdout."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        out.seek(0)
        text = out.read().decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd[:4]))} ... failed: {err.strip()[-400:]}")
    return seconds, usage.ru_maxrss / 1024, text


def bayesbench_command() -> list[str]:
    script = Path(sys.executable).parent / "bayesbench"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from bayesbench.cli import main; main()"]


def run_bayesbench(workdir: Path, jobs: int):
    out = workdir / f"result-j{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    seconds, peak, _ = timed(bayesbench_command() + ["run", "config.yaml", "-o", str(out),
                                                     "-j", str(jobs), "-q"], workdir)
    return seconds, peak, _pooled_accuracy(out)


def _pooled_accuracy(run_dir: Path) -> str:
    """Each classifier's correct predictions over all test rows, from the run's records."""
    import json

    correct: dict[str, float] = {}
    tested: dict[str, int] = {}
    with open(run_dir / "records.jsonl") as fh:
        for line in fh:
            record = json.loads(line)
            if record.get("status") == "ok":
                name = record["classifier"]
                correct[name] = correct.get(name, 0.0) + record["metrics"]["accuracy"] * \
                    record["n_test"]
                tested[name] = tested.get(name, 0) + record["n_test"]
    return " / ".join(f"{name} {correct[name] / tested[name]:.4f}" for name in correct)


FLOOR_SCRIPT = r"""
import sys
from bayesbench.data.load import load_dataset
from bayesbench.models.core.sufficient import Statistics

ds = load_dataset(sys.argv[1])
stats = Statistics.from_codes(ds.codes(), ds.y, ds.cardinalities, ds.n_classes,
                              ds.attribute_names)
print(int(stats.n_rows))
"""


def run_floor(workdir: Path):
    """One read plus one counting pass of the whole file (what a run cannot do without)."""
    (workdir / "floor.py").write_text(FLOOR_SCRIPT)
    seconds, peak, text = timed([sys.executable, "floor.py", "data.arff"], workdir)
    return seconds, peak, f"{int(text.split()[-1])} rows counted"


def run_weka(workdir: Path, options, heap: str):
    cmd = ["java", f"-Xmx{heap}", "-cp", str(WEKA_JAR), options[0], "-t", "data.arff",
           "-x", "10", "-o", "-v", *options[1:]]
    seconds, peak, text = timed(cmd, workdir)
    section = text.split("=== Stratified cross-validation ===")[-1]
    for line in section.splitlines():
        if line.startswith("Correctly Classified Instances"):
            return seconds, peak, f"{float(line.split()[4]) / 100:.4f}"
    raise RuntimeError("could not read Weka's cross-validation accuracy")


def run_sklearn(workdir: Path):
    (workdir / "sklearn_nb.py").write_text(SKLEARN_SCRIPT)
    seconds, peak, text = timed([sys.executable, "sklearn_nb.py", "data.arff"], workdir)
    return seconds, peak, f"{float(text.split()[-1]):.4f}"


def methods(args, workdir: Path) -> dict:
    out = {"bayesbench run -j 1": lambda: run_bayesbench(workdir, 1),
           "bayesbench run -j 2": lambda: run_bayesbench(workdir, 2),
           "one read + one counting pass (floor)": lambda: run_floor(workdir)}
    if WEKA_JAR.exists() and shutil.which("java"):
        for name, options in WEKA.items():
            if name != "weka TAN" or not args.no_weka_tan:
                out[name] = lambda options=options: run_weka(workdir, options, args.java_heap)
    try:
        import sklearn  # noqa: F401
        out["scikit-learn CategoricalNB script"] = lambda: run_sklearn(workdir)
    except ImportError:
        pass
    if args.methods:
        wanted = [w.strip() for w in args.methods.split(",")]
        out = {name: run for name, run in out.items() if any(w in name for w in wanted)}
    return out


def one_size(rows: int, attributes: int, args, base: Path) -> list[list]:
    workdir = base / f"{rows}x{attributes}"
    workdir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    # The sample is drawn in a process of its own: a child started by this process
    # inherits its resident high-water mark at exec (Linux's ru_maxrss), so a parent that
    # once held the sample would lend every measured command its peak.
    import multiprocessing

    writer = multiprocessing.get_context("spawn").Process(
        target=write_sample, args=(workdir / "data.arff", rows, attributes, args.classes,
                                   args.seed))
    writer.start()
    writer.join()
    if writer.exitcode != 0:
        raise RuntimeError(f"writing the {rows} x {attributes} sample failed")
    (workdir / "config.yaml").write_text(CONFIG.format(data="data.arff"))
    size_mb = (workdir / "data.arff").stat().st_size / 2 ** 20
    print(f"{rows} x {attributes}: {size_mb:.0f} MB ARFF written in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    runs = methods(args, workdir)
    times: dict[str, list[float]] = {name: [] for name in runs}
    peaks: dict[str, float] = {name: 0.0 for name in runs}
    accuracy: dict[str, str] = {}
    for r in range(args.repeats):
        for name, run in runs.items():
            print(f"  {name} ({r + 1}/{args.repeats}) ...", file=sys.stderr)
            seconds, peak, accuracy[name] = run()
            times[name].append(seconds)
            peaks[name] = max(peaks[name], peak)
            print(f"    {seconds:.1f} s, {peak:.0f} MB", file=sys.stderr)
    ours = float(np.median(times.get("bayesbench run -j 1", [np.nan])))
    floor = float(np.median(times.get("one read + one counting pass (floor)", [np.nan])))
    if not args.keep:
        shutil.rmtree(workdir)
    return [[f"{rows} x {attributes}", name, float(np.median(ts)), round(peaks[name]),
             float(np.median(ts)) / ours, float(np.median(ts)) / floor, accuracy[name]]
            for name, ts in times.items()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=DEFAULT_SIZES,
                        help=f"comma-separated ROWSxATTRIBUTES (default {DEFAULT_SIZES})")
    parser.add_argument("--large", action="store_true", help=f"also run {LARGE_SIZES}")
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--java-heap", default="8g")
    parser.add_argument("--no-weka-tan", action="store_true",
                        help="skip Weka's TAN (minutes per size at 10^6 rows)")
    parser.add_argument("--methods", help="comma-separated parts of method names to run "
                                          "(e.g. 'bayesbench,weka NaiveBayes'; default all)")
    parser.add_argument("--workdir", help="where to write the data (default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep each size's data and results")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)

    sizes = args.sizes + ("," + LARGE_SIZES if args.large else "")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_e2e_", dir=args.workdir) as tmp:
        for size in [s.strip() for s in sizes.split(",") if s.strip()]:
            n, m = (int(v) for v in size.lower().split("x"))
            rows += one_size(n, m, args, Path(tmp))
    from bayesbench.report.tables import render
    print(render(rows, ["data", "method", "seconds", "peak MB", "x bayesbench -j 1",
                        "x floor", "accuracy"], "markdown" if args.markdown else "text", floatfmt=".3g",
                 caption=f"10-fold CV, nominal ARFF, {args.classes} classes, median of "
                         f"{args.repeats}; {os.cpu_count()} cores"))


if __name__ == "__main__":
    main()
