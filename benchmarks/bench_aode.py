"""AODE, fit + predict over 10 folds: bayesbench against Weka's AODE in the same run.

The data are bench_discrete.py's synthetic tree-structured sample (attributes of 2 to 5
values, ``--classes`` classes) and its stratified folds. Both sides are timed on the same
folds, the data already in memory:

- ``bayesbench aode``: ``AODE().fit`` on the nine training folds plus ``predict_proba`` on
  the test fold, summed over the folds, in this process (the folds' rows are cut before
  the clock starts, as on the Java side).
- ``weka AODE (in JVM)``: a small Java harness (compiled here with ``javac``) loads the same
  ARFF file and fold numbers, then times ``buildClassifier`` plus ``distributionForInstance``
  on every test row with ``System.nanoTime``, summed over the folds. Each JVM first runs the
  ten folds once untimed, so that its JIT compiler has warmed up.
- ``weka AODE -x 10 (process)``: the whole ``java weka.classifiers.bayes.AODE -t data.arff
  -x 10`` command, for context: JVM start-up, ARFF parsing and an eleventh fit on all rows
  included.

Each side runs ``--repeats`` times, interleaved, and the table gives the median; "x weka"
is the row's time over bayesbench's (> 1: bayesbench faster; not given for the process
row, which times more than fit and predict). The CPU columns (this process; the JVM's
timing thread, its compiler and collector threads left out) are steadier than wall time
on a machine that other work shares. Accuracies should agree:
both compute Webb et al.'s AODE with Laplace smoothing and frequency limit 1.

    python benchmarks/bench_aode.py                       # 100 000 x 50, 3 classes
    python benchmarks/bench_aode.py --rows 20000 --attributes 20 --repeats 1
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
from bench_discrete import (WEKA_JAR, compile_fold_timer, make_data, run_fold_timer,
                            stratified_folds, write_arff)



def run_ours(X, y, cards, k, fold, folds):
    from bayesbench.models.learners.aode import AODE

    seconds, cpu, correct = 0.0, 0.0, 0
    for f in range(folds):
        test = fold == f
        # The folds are cut before the clock starts, as the Java harness cuts its Instances.
        X_train, y_train, X_test = X[~test], y[~test], X[test]
        t0, c0 = time.perf_counter(), time.process_time()
        model = AODE().fit(X_train, y_train, cardinalities=cards, n_classes=k)
        proba = model.predict_proba(X_test)
        seconds += time.perf_counter() - t0
        cpu += time.process_time() - c0
        correct += int((proba.argmax(axis=1) == y[test]).sum())
    return seconds, cpu, correct / y.size


def run_weka_harness(workdir: Path, folds: int, heap: str):
    """Seconds, CPU seconds of the timing thread and accuracy of the harness's timed pass."""
    fit, predict, cpu, error, _ = run_fold_timer(workdir, str(WEKA_JAR), workdir / "data.arff",
                                                 folds, heap, "weka.classifiers.bayes.AODE")
    return fit + predict, cpu, 1.0 - error


def run_weka_process(workdir: Path, folds: int, heap: str):
    cmd = ["java", f"-Xmx{heap}", "-cp", str(WEKA_JAR), "weka.classifiers.bayes.AODE",
           "-t", str(workdir / "data.arff"), "-x", str(folds), "-o"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"Weka AODE failed: {proc.stderr.strip()[-300:]}")
    for line in proc.stdout.split("=== Stratified cross-validation ===")[-1].splitlines():
        if line.startswith("Correctly Classified Instances"):
            return seconds, None, float(line.split()[4]) / 100
    raise RuntimeError("could not read Weka's cross-validation accuracy")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--attributes", type=int, default=50)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--java-heap", default="4g")
    args = parser.parse_args(argv)

    X, y, cards = make_data(args.rows, args.attributes, args.classes, args.seed)
    fold = stratified_folds(y, args.folds, args.seed)
    run_ours(X[:200], y[:200], cards, args.classes, fold[:200], args.folds)  # imports, warm-up
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    accuracy: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench_aode_") as tmp:
        workdir = Path(tmp)
        write_arff(workdir / "data.arff", X, y, cards, args.classes)
        np.savetxt(workdir / "folds.txt", fold, fmt="%d")
        harness = WEKA_JAR.exists() and compile_fold_timer(workdir, str(WEKA_JAR))
        weka = WEKA_JAR.exists() and shutil.which("java") is not None
        for r in range(args.repeats):
            print(f"repeat {r + 1} of {args.repeats} ...", file=sys.stderr)
            runs = {"bayesbench aode": lambda: run_ours(X, y, cards, args.classes, fold,
                                                        args.folds)}
            if harness:
                runs["weka AODE (in JVM)"] = lambda: run_weka_harness(workdir, args.folds,
                                                                      args.java_heap)
            if weka:
                runs[f"weka AODE -x {args.folds} (process)"] = lambda: run_weka_process(
                    workdir, args.folds, args.java_heap)
            for name, run in runs.items():
                seconds, cpu_seconds, accuracy[name] = run()
                times.setdefault(name, []).append(seconds)
                cpu.setdefault(name, []).append(cpu_seconds)

    ours = float(np.median(times["bayesbench aode"]))
    ours_cpu = float(np.median(cpu["bayesbench aode"]))
    rows = []
    for name, ts in times.items():
        median = float(np.median(ts))
        if "process" in name:
            rows.append([name, f"{median:.3f}", "-", "-", "-", f"{accuracy[name]:.4f}"])
            continue
        median_cpu = float(np.median(cpu[name]))
        rows.append([name, f"{median:.3f}", f"{median / ours:.2f}", f"{median_cpu:.3f}",
                     f"{median_cpu / ours_cpu:.2f}", f"{accuracy[name]:.4f}"])
    from bayesbench.report.tables import render
    print(render(rows, ["method", f"s ({args.folds} folds)", "x bayesbench", "CPU s",
                        "CPU x bayesbench", "accuracy"], "text",
                 caption=f"AODE fit + predict, {args.rows} x {args.attributes}, "
                         f"{args.classes} classes, median of {args.repeats}; {os.cpu_count()} cores"))
    if "weka AODE (in JVM)" not in times:
        print("(Weka's in-JVM timing needs java, javac and /usr/share/java/weka.jar)")


if __name__ == "__main__":
    main()
