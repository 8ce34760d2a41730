"""A2DE, fit + predict over k folds: bayesbench's ``ande`` against Weka's A2DE in the same run.

Weka's A2DE is the AnDE package's (``weka.classifiers.bayes.AveragedNDependenceEstimators.
A2DE``), which is not in this repository: give the directory of its compiled classes with
``--a2de-classes`` and a Weka 3.9 ``weka.jar`` with ``--weka-jar``. The stored reference
``tests/reference/weka_a2de.json`` says which source and jar its figures came from (the
source of the AnDE package as published in github.com/ptorrijos99/mAnDE, commit af292c4,
compiled with ``javac`` against the ``weka.jar`` 3.9.7 of PyPI's python-weka-wrapper3 0.3.3
source distribution). Without them only bayesbench's rows are printed.

Both sides get the same ARFF files of ``datasets/`` and the same stratified folds, the data
already in memory, and use Weka's smoothing (m-estimates, m = 1, frequency limit 1), so
their errors agree:

- ``bayesbench ande (rows)``: ``ANDE(n=2, estimator="m").fit`` on the training folds plus
  ``predict_proba`` on the test fold, summed over the folds (the folds' rows cut before the
  clock starts, as on the Java side).
- ``bayesbench ande (counts)``: as the runner fits it: the whole data set's counts once,
  then per fold ``fit_statistics(total - test part)`` plus ``predict_proba``; the counting
  of the whole data set is timed too.
- ``weka A2DE (in JVM)``: a small Java harness (compiled here) loads the same ARFF file and
  fold numbers, runs every fold once untimed (the JIT warms up), then times
  ``buildClassifier`` plus ``distributionForInstance`` on every test row.

Each side runs ``--repeats`` times and the table gives the median; "x bayesbench" is the
row's time over ``bayesbench ande (rows)`` (> 1: bayesbench faster). The CPU columns (this
process; the JVM's timing thread, its compiler and collector threads left out) are steadier
than wall time on a machine that other work shares. Memory: for bayesbench
the peak of the allocations traced by ``tracemalloc`` (numpy's arrays included) during one
fold's fit and predict; for Weka the JVM process's peak resident set (its heap, code and
runtime together).

    python benchmarks/bench_ande.py --weka-jar /path/weka.jar --a2de-classes /path/classes
    python benchmarks/bench_ande.py --datasets car nursery --folds 10 --repeats 1
    python benchmarks/bench_ande.py --datasets synthetic --rows 100000 --attributes 20 --folds 10
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_discrete import (compile_fold_timer, make_data, run_fold_timer,
                            stratified_folds, write_arff)

ROOT = Path(__file__).resolve().parent.parent
A2DE = "weka.classifiers.bayes.AveragedNDependenceEstimators.A2DE"
# Weka's smoothing, as bayesbench's ande(estimator="m") has it: frequency limit 1, m = 1.
A2DE_OPTIONS = ("-F", "1", "-M", "1.0")



def run_ours(ds, fold, folds, counts: bool):
    """Fit and predict seconds and CPU seconds (this process) summed over the folds, and
    the error."""
    from bayesbench.models.core.sufficient import Statistics
    from bayesbench.models.learners.ande import ANDE

    X, y, cards, k = ds.codes(), ds.y, ds.cardinalities, ds.n_classes
    fit = predict = 0.0
    wrong = 0
    t0, c0 = time.perf_counter(), time.process_time()
    total = Statistics.from_codes(X, y, cards, k) if counts else None
    fit += time.perf_counter() - t0
    for f in range(folds):
        test = fold == f
        X_train, y_train, X_test = X[~test], y[~test], X[test]
        t0 = time.perf_counter()
        model = ANDE(n=2, estimator="m", m=1.0)
        if counts:
            model.fit_statistics(total - Statistics.from_codes(X_test, y[test], cards, k))
        else:
            model.fit(X_train, y_train, cardinalities=cards, n_classes=k)
        t1 = time.perf_counter()
        proba = model.predict_proba(X_test)
        predict += time.perf_counter() - t1
        fit += t1 - t0
        wrong += int((proba.argmax(axis=1) != y[test]).sum())
    return fit, predict, time.process_time() - c0, wrong / y.size


def traced_peak(ds, fold, counts: bool) -> float:
    """MiB at the peak of one fold's fit and predict (``tracemalloc``, numpy included)."""
    from bayesbench.models.core.sufficient import Statistics
    from bayesbench.models.learners.ande import ANDE

    X, y, cards, k = ds.codes(), ds.y, ds.cardinalities, ds.n_classes
    test = fold == 0
    tracemalloc.start()
    if counts:
        total = Statistics.from_codes(X, y, cards, k)
        model = ANDE(n=2, estimator="m").fit_statistics(
            total - Statistics.from_codes(X[test], y[test], cards, k))
    else:
        model = ANDE(n=2, estimator="m").fit(X[~test], y[~test], cardinalities=cards,
                                            n_classes=k)
    model.predict_proba(X[test])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2 ** 20


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="+", default=["kr-vs-kp", "mushroom", "car"],
                        help="files of datasets/ by name, or 'synthetic' (--rows x "
                             "--attributes of bench_discrete.py's tree-structured sample)")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--weka-jar", type=Path)
    parser.add_argument("--a2de-classes", type=Path)
    parser.add_argument("--java-heap", default="4g")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    # One thread each: BLAS (the pair counts) would otherwise add a second core's time to
    # bayesbench's CPU seconds, while the JVM's timing thread is one.
    with threadpool_limits(1):
        _bench(args)


def _bench(args):
    from bayesbench.data import load_dataset
    from bayesbench.report.tables import render

    peer = args.weka_jar is not None and args.a2de_classes is not None
    classpath = f"{args.weka_jar}{os.pathsep}{args.a2de_classes}" if peer else ""
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_ande_") as tmp:
        workdir = Path(tmp)
        harness = peer and compile_fold_timer(workdir, classpath)
        for name in args.datasets:
            arff = ROOT / "datasets" / f"{name}.arff"
            if name == "synthetic":
                arff = workdir / "synthetic.arff"
                write_arff(arff, *make_data(args.rows, args.attributes, args.classes,
                                            args.seed), args.classes)
                name = f"synthetic {args.rows} x {args.attributes}"
            ds = load_dataset(arff, None)
            fold = stratified_folds(ds.y, args.folds, args.seed)
            np.savetxt(workdir / "folds.txt", fold, fmt="%d")
            run_ours(ds, fold, args.folds, True)                  # imports, warm-up
            timed: dict[str, list] = {}
            for r in range(args.repeats):
                print(f"{name}: repeat {r + 1} of {args.repeats} ...", file=sys.stderr)
                for label, counts in (("bayesbench ande (rows)", False),
                                      ("bayesbench ande (counts)", True)):
                    timed.setdefault(label, []).append(run_ours(ds, fold, args.folds, counts))
                if harness:
                    timed.setdefault("weka A2DE (in JVM)", []).append(
                        run_fold_timer(workdir, classpath, arff, args.folds, args.java_heap,
                                       A2DE, A2DE_OPTIONS)[:4])
            peaks = {"bayesbench ande (rows)": traced_peak(ds, fold, False),
                     "bayesbench ande (counts)": traced_peak(ds, fold, True)}
            if harness:
                peaks["weka A2DE (in JVM)"] = run_fold_timer(workdir, classpath, arff, args.folds,
                                                             args.java_heap, A2DE,
                                                             A2DE_OPTIONS)[4]
            mine = timed["bayesbench ande (rows)"]
            ours = float(np.median([f + p for f, p, _, _ in mine]))
            ours_cpu = float(np.median([c for _, _, c, _ in mine]))
            for label, runs in timed.items():
                fit = float(np.median([f for f, _, _, _ in runs]))
                predict = float(np.median([p for _, p, _, _ in runs]))
                total = float(np.median([f + p for f, p, _, _ in runs]))
                cpu = float(np.median([c for _, _, c, _ in runs]))
                rows.append([name, label, f"{runs[-1][3]:.4f}", f"{fit:.3f}", f"{predict:.3f}",
                             f"{total:.3f}", f"{total / ours:.2f}", f"{cpu:.3f}",
                             f"{cpu / ours_cpu:.2f}", f"{peaks[label]:.0f}"])
    print(render(rows, ["data set", "method", "error", "fit s", "predict s", "total s",
                        "x bayesbench", "CPU s", "CPU x bayesbench", "peak MiB"], "text",
                 caption=f"A2DE (m-estimates, m = 1) fit + predict over {args.folds} "
                         f"stratified folds, median of {args.repeats}; {os.cpu_count()} cores"))
    if not peer:
        print("(Weka's A2DE needs --weka-jar and --a2de-classes: see the docstring)")


if __name__ == "__main__":
    main()
