"""The runner's overhead and its executors, against scikit-learn's cross_validate in the same process.

    python3 benchmarks/bench_runner.py [--repeats 3] [--jobs 2]

Workload: Gaussian naive Bayes (``gnb``, which equals scikit-learn's GaussianNB) under
``--repeats`` x stratified 10-fold CV on the bundled iris, wine, glass and diabetes, so that
the learners cost the same and the difference is the machinery around them. Peers:
``sklearn.model_selection.cross_validate(GaussianNB(), ...)`` on the same folds with the same
metrics bayesbench records (accuracy, macro precision/recall/F1, log loss), serially and with
``n_jobs``. bayesbench rows: ``run_experiment`` serially, with ``--jobs`` processes and on a
Dask LocalCluster of ``--jobs`` worker processes, each writing a full result directory
(fsync per record, summary tables, statistical comparison). Then the quick-start experiment (five
learners) in each executor. "ratio" is the time of the row / the time of bayesbench serial
on the same workload (> 1: slower than bayesbench serial).
"""
from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from bayesbench.config import load_config, override, parse_config
from bayesbench.data import bundled_dir, load_dataset
from bayesbench.evaluation.splits import make_splits
from bayesbench.experiment import run_experiment
from bayesbench.evaluation.schemes import KFold
from bayesbench.report.tables import render

DATASETS = ["iris", "wine", "glass", "diabetes"]
QUICKSTART = Path(__file__).resolve().parents[1] / "configs" / "quickstart.yaml"


def _sklearn(repeats, n_jobs):
    from sklearn.model_selection import cross_validate
    from sklearn.naive_bayes import GaussianNB

    scoring = ["accuracy", "precision_macro", "recall_macro", "f1_macro", "neg_log_loss"]
    for name in DATASETS:
        path = next(bundled_dir().glob(f"{name}.*"))
        ds = load_dataset(path)
        X = ds.numeric_matrix()
        for rep in range(repeats):
            cv = [(s.train, s.test) for s in make_splits(ds.y, KFold.spec(folds=10), seed=1,
                                                         dataset=name, repetition=rep)]
            cross_validate(GaussianNB(), X, ds.y, cv=cv, scoring=scoring, n_jobs=n_jobs)


def _ours(config, out, **kw):
    # Each run owns its data cache, so every row reads its data sets afresh.
    config = override(config, output=out, quiet=True, **kw)
    run_experiment(config.experiment, config.options)


def _timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")  # scikit-learn's zero-division warnings on small folds
    gnb = parse_config({"name": "bench", "seed": 1, "datasets": DATASETS,
                        "cv": {"folds": 10, "repeats": args.repeats}, "classifiers": ["gnb"]},
                       base_dir=bundled_dir())
    quick = load_config(QUICKSTART)
    n_gnb = len(DATASETS) * 10 * args.repeats
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        from distributed import LocalCluster

        with LocalCluster(n_workers=args.jobs, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            for label, config, tasks in ((f"gnb, {n_gnb} tasks", gnb, n_gnb),
                                         ("quickstart, 200 tasks", quick, 200)):
                times = {
                    "bayesbench serial": _timed(lambda: _ours(config, tmp / f"s{tasks}", jobs=1)),
                    f"bayesbench --jobs {args.jobs}": _timed(
                        lambda: _ours(config, tmp / f"p{tasks}", jobs=args.jobs)),
                    f"bayesbench dask ({args.jobs} workers)": _timed(
                        lambda: _ours(config, tmp / f"d{tasks}",
                                      scheduler=cluster.scheduler_address)),
                }
                if config is gnb:
                    times["sklearn cross_validate"] = _timed(lambda: _sklearn(args.repeats, None))
                    times[f"sklearn cross_validate n_jobs={args.jobs}"] = _timed(
                        lambda: _sklearn(args.repeats, args.jobs))
                base = times["bayesbench serial"]
                rows += [[label, who, t, t / tasks * 1000, t / base] for who, t in times.items()]
    print(render(rows, ["workload", "runner", "seconds", "ms per task", "ratio"], "text",
                 floatfmt=".3f"))
    print(f"numpy {np.__version__}; times include writing and fsync-ing every record and the "
          "summary tables for bayesbench")


if __name__ == "__main__":
    main()
