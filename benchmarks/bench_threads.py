"""Worker hygiene: a parallel run's wall time against the same run with its BLAS and OpenMP
threads limited by hand.

    python3 benchmarks/bench_threads.py [--repeats 3] [--jobs 2]

Workload: scikit-learn's LogisticRegression (its defaults) under stratified 10-fold CV on the
bundled german-credit and vehicle, ``bayesbench run --jobs J`` as a user runs it, each run a
process of its own writing a fresh result directory. Rows:

- ``default``: the workers limit their own pools (each its share of the cores);
- ``by hand``: the same with ``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1`` in the environment,
  the workaround the issue measured against (the peer);
- ``unlimited``: ``--worker-threads`` set to every core, what each worker did before it was
  limited (every worker's numpy starting a thread per core).

The variants run interleaved, ``--repeats`` rounds, so that load from other processes on the
machine falls on all of them alike; "ratio" is the median wall time of a row over the median
of ``by hand`` (the acceptance asks for ``default`` within 1.3), and "paired" the median
over rounds of the row's time over ``by hand``'s in the same round (load from other
processes changes from round to round more than within one).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from bayesbench.evaluation.executors import default_jobs
from bayesbench.report.tables import render

CONFIG = {"name": "threads", "seed": 1, "datasets": ["german-credit", "vehicle"],
          "cv": {"folds": 10}, "preprocess": {"discretize": "none"},
          "classifiers": ["sklearn.linear_model:LogisticRegression"],
          "metrics": ["accuracy"], "format": ["csv"]}
LIMIT_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _run(config: Path, out: Path, jobs: int, env: dict, extra=()) -> float:
    command = [sys.executable, "-m", "bayesbench.cli", "run", str(config), "-o", str(out),
               "--jobs", str(jobs), "--quiet", *extra]
    t = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    clean = {k: v for k, v in os.environ.items() if k not in LIMIT_VARIABLES}
    variants = {
        "default": (clean, ()),
        "by hand (OPENBLAS/OMP_NUM_THREADS=1)": (
            {**clean, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}, ()),
        f"unlimited (--worker-threads {default_jobs()})": (
            clean, ("--worker-threads", str(default_jobs()))),
    }
    times = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        config = tmp / "threads.yaml"
        config.write_text(yaml.safe_dump(CONFIG))
        for round_ in range(args.repeats):
            for i, (name, (env, extra)) in enumerate(variants.items()):
                times[name].append(_run(config, tmp / f"r{round_}-{i}", args.jobs, env, extra))
    hand = times["by hand (OPENBLAS/OMP_NUM_THREADS=1)"]
    peer = statistics.median(hand)
    rows = [[name, statistics.median(t), min(t), max(t), statistics.median(t) / peer,
             statistics.median(a / b for a, b in zip(t, hand)),
             " ".join(f"{x:.1f}" for x in t)] for name, t in times.items()]
    print(render(rows, ["run", "median s", "min s", "max s", "ratio", "paired", "rounds (s)"],
                 "text", floatfmt=".2f"))
    print(f"LogisticRegression, german-credit + vehicle, 10-fold, --jobs {args.jobs}, "
          f"{args.repeats} interleaved rounds, {default_jobs()} cores")


if __name__ == "__main__":
    main()
