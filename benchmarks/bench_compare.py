"""`bayesbench compare` at scale: time and peak memory per stage on a large result directory.

    python3 benchmarks/bench_compare.py [--classifiers 50] [--datasets 200] [--folds 10]
                                        [--tests corrected-t wilcoxon] [--dir DIR]

Workload: one result directory of classifiers x data sets x folds records (100,000 with the
defaults, as issue 15 asks), written once with the store's own encoder (three classes, the
twelve metrics, per-class scores and confusion matrices, as a real run writes them). Fold
accuracies are multiples of 1/n_test, so that fold scores tie and the Wilcoxon test meets
ties and zero differences as it does on real runs. Each test is measured in a fresh process
(so that peak memory is its own): "read" is ``read_runs`` on the directory (the records'
fields that compare reads), "analyse" the comparison, "render" the text tables, in CPU seconds
of the process (steadier than wall time on a shared machine), then all three as ``bayesbench
compare`` does them, in CPU and in wall-clock seconds; "peak MB" is the process's maximum
resident set size (``ru_maxrss``, imports included: about 168 MB of it are numpy, pandas and
scipy).

Measured with ``python benchmarks/bench_compare.py --samples 0`` on the 2-core build machine
(shared with other jobs, load 2-3.5), the code before issue 15's last items (main at ac8f044)
and after them run back to back on one directory, three times (total CPU s, corrected-t /
wilcoxon; the other columns of the first pair):

    code     read s  analyse s  render s  total CPU s (3 pairs)                 peak MB
    before     2.64       0.83      4.03  7.50/7.78  7.23/6.82  6.21/6.86         317
    after      2.10       0.41      1.20  3.70/5.24  4.65/4.40  4.03/4.12     252-255

The median is 4.3 s and 253 MB, against 7.0 s and 317 MB before; under load one run of six
went over 5 s (its render stage took 2.05 s instead of 1.2).

Before, the reader built one dictionary per record and a frame of every field, the
per-data-set table rebuilt its label lists for each of its 9,800 rows, and the all-pairs
Wilcoxon test ran 1,225 single tests; now the reader keeps the fields compare reads, column
by column, the labels are looked up once, and the pairs are one ``wilcoxon_rows`` call (each
null distribution once per pattern of ranks). What remains is mostly stdlib ``json`` parsing
the records (about 1.4 s) and tabulate laying out the 9,800-row table (about 1.1 s).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from bayesbench.evaluation.store import RECORDS, encode_record
from bayesbench.report.analysis import compare
from bayesbench.report.compare.inputs import read_runs, run_directories
from bayesbench.report.render import render_comparison
from bayesbench.report.tables import render
from bayesbench.spec import CompareSpec


def write_run(run_dir: Path, n_classifiers: int, n_datasets: int, n_folds: int) -> int:
    """Write a result directory of synthetic records; return the number of records."""
    rng = np.random.default_rng(7)
    run_dir.mkdir(parents=True, exist_ok=True)
    skill = rng.normal(0.0, 0.03, n_classifiers)
    names = [f"clf{j:02d}" for j in range(n_classifiers)]
    classes = ["a", "b", "c"]
    n = 0
    with open(run_dir / RECORDS, "wb") as fh:
        for d in range(n_datasets):
            n_test = int(rng.integers(15, 60))
            base = rng.uniform(0.6, 0.9)
            for fold in range(n_folds):
                lines = []
                for j, name in enumerate(names):
                    p = float(np.clip(base + skill[j], 0.05, 0.99))
                    correct = int(rng.binomial(n_test, p))
                    lines.append(encode_record(_record(f"ds{d:03d}", name, fold, n_test, correct,
                                                       classes)))
                fh.write(b"".join(lines))
                n += len(lines)
    return n


def _record(dataset, name, fold, n_test, correct, classes) -> dict:
    acc = correct / n_test
    metrics = {m: acc for m in ("accuracy", "f1_macro", "f1_weighted", "precision_macro",
                                "precision_weighted", "recall_macro", "recall_weighted",
                                "specificity_macro", "auc_ovr")}
    metrics.update(error=1.0 - acc, log_loss=1.0 - acc, brier=(1.0 - acc) / 2)
    wrong = n_test - correct
    confusion = [[correct // 3, wrong, 0], [0, correct // 3, 0], [0, 0, correct - 2 * (correct // 3)]]
    return {"dataset": dataset, "classifier": name, "learner": name, "params": {}, "repetition": 0,
            "fold": fold, "fold_id": f"{dataset}-{fold}", "seed": 1, "status": "ok",
            "task_id": f"{dataset}-{name}-{fold}", "n_train": 9 * n_test, "n_test": n_test,
            "classes": classes, "confusion": confusion, "metrics": metrics,
            "per_class": {s: [acc] * 3 for s in ("f1", "precision", "recall", "specificity")},
            "fit_seconds": 0.01, "predict_seconds": 0.01, "structure": "4 nodes; 0 arcs"}


@contextmanager
def _cpu(seconds: dict, stage: str):
    """Add the process time spent inside the block to ``seconds[stage]``."""
    start = time.process_time()
    yield
    seconds[stage] = time.process_time() - start


def measure(run_dir: Path, test: str, samples: int) -> dict:
    """CPU seconds of each stage of comparing ``run_dir`` with ``test``, their sum, the wall
    time of all three, and the peak memory of this process."""
    seconds, wall = {}, time.perf_counter()
    with _cpu(seconds, "read"):
        frame, declared = read_runs(run_directories([run_dir]), "accuracy")
    with _cpu(seconds, "analyse"):
        result = compare(frame, CompareSpec(metric="accuracy", test=test), datasets=declared, samples=samples)
    with _cpu(seconds, "render"):
        render_comparison(result, "text")
    seconds["cpu"] = sum(seconds.values())
    seconds["wall"] = time.perf_counter() - wall
    seconds["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classifiers", type=int, default=50)
    ap.add_argument("--datasets", type=int, default=200)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--tests", nargs="+", default=["corrected-t", "wilcoxon"])
    ap.add_argument("--dir", type=Path, help="where to write the run (default: a temporary directory)")
    ap.add_argument("--samples", type=int, default=50000,
                    help="draws of the Bayesian signed-rank test, as compare --samples (0: none)")
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process's job
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.tests[0], args.samples)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = args.dir or Path(tmp) / "run"
        n = write_run(run_dir, args.classifiers, args.datasets, args.folds)
        rows = []
        for test in args.tests:
            out = subprocess.run([sys.executable, __file__, "--measure", str(run_dir), "--tests", test,
                                  "--samples", str(args.samples)],
                                 check=True, capture_output=True, text=True).stdout
            m = json.loads(out)
            rows.append([n, test, m["read"], m["analyse"], m["render"], m["cpu"], m["wall"], m["peak_mb"]])
    print(render(rows, ["records", "fold test", "read CPU s", "analyse CPU s", "render CPU s",
                        "total CPU s", "total wall s", "peak MB"], "text", floatfmt=".2f"))
    print(f"{args.classifiers} classifiers x {args.datasets} data sets x {args.folds} folds; "
          f"{args.samples} signed-rank draws; numpy {np.__version__}")


if __name__ == "__main__":
    main()
