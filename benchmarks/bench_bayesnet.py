"""bayesnet, fit + predict over k folds: bayesbench against Weka 3.6's BayesNet in the same run.

Both sides learn the same networks: K2 and hill climbing from naive Bayes with at most two
parents per node (the class counted), the Bayes score, tables smoothed by 0.5 (Weka's
``BayesNet -D -Q weka.classifiers.bayes.net.search.local.K2 -- -P 2 -S BAYES -E
weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5``, and ``HillClimber`` in
place of ``K2``), so their errors agree. The data are files of ``datasets/`` and
``synthetic`` (bench_discrete.py's tree-structured sample, ``--rows`` x ``--attributes``),
on the same stratified folds, the data already in memory:

- ``bayesbench (rows)``: ``BayesNet(...).fit`` on the training folds plus ``predict_proba``
  on the test fold, summed over the folds (the folds' rows cut before both clocks start, as
  on the Java side; row-major, as numpy cuts them). What bayesbench keeps per cardinalities
  and structure (the pair counts' coding, a search's gather plans, the inference's digits)
  carries over from fold to fold and from the untimed warm-up, as in a run's worker.
- ``bayesbench (counts)``: as the runner fits it: the whole data set's counts once, then
  per fold ``fit_statistics(total - test part)`` plus ``predict_proba``; the counting of
  the whole data set is timed too.
- ``weka (in JVM)``: bench_discrete.py's Java harness (compiled here) loads the same ARFF
  file and fold numbers, runs every fold once untimed (the JIT warms up), then times
  ``buildClassifier`` plus ``distributionForInstance`` on every test row; JVM start-up and
  ARFF parsing are left out. ``-D`` (no ADTree) is the options Weka's Explorer gives
  ``BayesNet``; ``--adtree`` times Weka's command-line default (with the ADTree) as well.

Each side runs ``--repeats`` times and the table gives the median; "x bayesbench" is the
row's time over ``bayesbench (rows)`` of the same search (> 1: bayesbench faster). The
CPU columns (this process, one BLAS thread; the JVM's timing thread, its compiler and
collector threads left out) are steadier than wall time on a machine that other work shares.

    python benchmarks/bench_bayesnet.py                         # nursery and 10^5 x 20
    python benchmarks/bench_bayesnet.py --datasets nursery --adtree --repeats 7
    python benchmarks/bench_bayesnet.py --datasets car --folds 5 --repeats 1
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_discrete import (WEKA_JAR, compile_fold_timer, make_data, run_fold_timer,
                            stratified_folds, write_arff)

ROOT = Path(__file__).resolve().parent.parent
SEARCHES = {"k2": "K2", "hill_climbing": "HillClimber"}
MAX_PARENTS = 2


def weka_options(search: str, adtree: bool) -> list[str]:
    return [*([] if adtree else ["-D"]), "-Q",
            f"weka.classifiers.bayes.net.search.local.{SEARCHES[search]}", "--",
            "-P", str(MAX_PARENTS), "-S", "BAYES",
            "-E", "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"]


def run_ours(ds, fold, folds: int, search: str, counts: bool):
    """Fit and predict seconds, CPU seconds (this process) summed over the folds, and the
    error."""
    from bayesbench.models.core.sufficient import Statistics
    from bayesbench.models.search.bayesnet import BayesNet

    X, y, cards, k = ds.codes(), ds.y, ds.cardinalities, ds.n_classes
    fit = predict = 0.0
    wrong = 0
    # The folds' rows are cut before both clocks start, as the Java harness cuts them.
    parts = [(X[fold != f], y[fold != f], X[fold == f], y[fold == f]) for f in range(folds)]
    c0 = time.process_time()
    t0 = time.perf_counter()
    total = Statistics.from_codes(X, y, cards, k) if counts else None
    fit += time.perf_counter() - t0
    for X_train, y_train, X_test, y_test in parts:
        t0 = time.perf_counter()
        model = BayesNet(search=search, max_parents=MAX_PARENTS)
        if counts:
            model.fit_statistics(total - Statistics.from_codes(X_test, y_test, cards, k))
        else:
            model.fit(X_train, y_train, cardinalities=cards, n_classes=k)
        t1 = time.perf_counter()
        proba = model.predict_proba(X_test)
        predict += time.perf_counter() - t1
        fit += t1 - t0
        wrong += int((proba.argmax(axis=1) != y_test).sum())
    return fit, predict, time.process_time() - c0, wrong / y.size


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="+", default=["nursery", "synthetic"],
                        help="files of datasets/ by name, or 'synthetic'")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--adtree", action="store_true",
                        help="also time Weka with its ADTree (its command-line default)")
    parser.add_argument("--java-heap", default="4g")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits

    # One thread: BLAS (the pair counts) would otherwise add a second core's time to
    # bayesbench's CPU seconds, while the JVM's timing thread is one.
    with threadpool_limits(1):
        _bench(args)


def _weka_runs(args, workdir, arff, harness):
    """``{label: options}`` of the Weka rows to time."""
    if not harness:
        return {}
    out = {}
    for search in SEARCHES:
        out[f"weka BayesNet {search} (in JVM)"] = (search, weka_options(search, False))
        if args.adtree:
            out[f"weka BayesNet {search} ADTree (in JVM)"] = (search, weka_options(search, True))
    return out


def _bench(args):
    from bayesbench.data import load_dataset
    from bayesbench.report.tables import render

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_bayesnet_") as tmp:
        workdir = Path(tmp)
        java = WEKA_JAR.exists() and shutil.which("java") is not None
        harness = java and compile_fold_timer(workdir, str(WEKA_JAR))
        for name in args.datasets:
            if name == "synthetic":
                X, y, cards = make_data(args.rows, args.attributes, args.classes, args.seed)
                name = f"synthetic {args.rows} x {args.attributes}"
            else:
                source = load_dataset(ROOT / "datasets" / f"{name}.arff")
                X, y, cards = source.codes(), source.y, source.cardinalities
            # Both sides read the same file: attributes x0.., values and classes as codes.
            arff = workdir / "data.arff"
            write_arff(arff, X, y, cards, int(y.max()) + 1)
            ds = load_dataset(arff, None)
            fold = stratified_folds(ds.y, args.folds, args.seed)
            np.savetxt(workdir / "folds.txt", fold, fmt="%d")
            for search in SEARCHES:
                run_ours(ds, fold, args.folds, search, True)             # imports, warm-up
            timed: dict[str, list] = {}
            failed: dict[str, str] = {}
            weka = _weka_runs(args, workdir, arff, harness)
            for r in range(args.repeats):
                print(f"{name}: repeat {r + 1} of {args.repeats} ...", file=sys.stderr)
                for search in SEARCHES:
                    for how, counts in (("rows", False), ("counts", True)):
                        timed.setdefault(f"bayesbench {search} ({how})", []).append(
                            run_ours(ds, fold, args.folds, search, counts))
                for label, (search, options) in weka.items():
                    if label in failed:
                        continue
                    try:
                        timed.setdefault(label, []).append(run_fold_timer(
                            workdir, str(WEKA_JAR), arff, args.folds, args.java_heap,
                            "weka.classifiers.bayes.BayesNet", options)[:4])
                    except RuntimeError:  # Weka's ADTree can exhaust its heap
                        # The JVM's first line of error (the harness's message ends its trace).
                        lines = (workdir / "err.txt").read_text().splitlines() or ["?"]
                        failed[label] = lines[0].replace('Exception in thread "main" ', "")
                        timed.pop(label, None)
            rows += _rows(name, timed)
            rows += [[name, label, "failed", why[:80], "", "", "", "", ""]
                     for label, why in failed.items()]
    print(render(rows, ["data set", "method", "error", "fit s", "predict s", "total s",
                        "x bayesbench", "CPU s", "CPU x bayesbench"], "text",
                 caption=f"BayesNet (K2 and hill climbing, at most {MAX_PARENTS} parents, the "
                         f"Bayes score) fit + predict over {args.folds} stratified folds, "
                         f"median of {args.repeats}; {os.cpu_count()} cores"))
    if not harness:
        print("(Weka's in-JVM timing needs java, javac and /usr/share/java/weka.jar)")


def _rows(name, timed) -> list[list[str]]:
    """The table's rows of one data set, each against bayesbench (rows) of its search."""
    out = []
    for label, runs in timed.items():
        search = next(s for s in SEARCHES if f" {s} " in f" {label} ")
        mine = timed[f"bayesbench {search} (rows)"]
        ours = float(np.median([f + p for f, p, _, _ in mine]))
        ours_cpu = float(np.median([c for _, _, c, _ in mine]))
        fit = float(np.median([f for f, _, _, _ in runs]))
        predict = float(np.median([p for _, p, _, _ in runs]))
        total = float(np.median([f + p for f, p, _, _ in runs]))
        cpu = float(np.median([c for _, _, c, _ in runs]))
        out.append([name, label, f"{runs[-1][3]:.4f}", f"{fit:.4f}", f"{predict:.4f}",
                    f"{total:.4f}", f"{total / ours:.2f}", f"{cpu:.4f}", f"{cpu / ours_cpu:.2f}"])
    return out


if __name__ == "__main__":
    main()
