"""What keeping predictions (``predictions: true``) costs: a run with it against the same run
without it, in the same session, interleaved.

Two workloads, each run as ``bayesbench run`` processes (the console script, a fresh result
directory each time, reading, folds, learners, records, summary tables, figures):

- the quick start (``configs/quickstart.yaml``: 4 bundled data sets, 5 classifiers, 10-fold
  cross-validation; 200 tasks, 200 prediction files);
- bench_end_to_end.py's nb + tan run (10-fold cross-validation, discretization off) on a
  synthetic tree-structured nominal sample of ``--rows`` rows (default 10^6) and
  ``--attributes`` attributes (default 20), written once.

Each pair runs ``--repeats`` times (default 3), alternating which goes first, so that the
load of a shared machine falls on both alike; the table gives every time, the medians and
"ratio" = median with predictions / median without (the cost is ratio - 1). "CPU ratio" is
the same ratio of the median CPU seconds (user + system) of each run's whole process tree,
workers included: on a machine that others load, the wall-clock ratio magnifies what runs
in one process (the figures, drawn after the folds ran on every core), the CPU seconds much
less. The size of the kept predictions is measured on the last run with them. Then one more run with predictions,
in a process of its own that times bayesbench's functions from inside, splits the cost:
seconds writing the prediction files (``evaluation.predictions.write``, checksum included),
computing their figures' curves (``report.figures.pages.prediction_curves``, in a thread while the
run's tables are written) and drawing every figure of the run, the prediction figures among the
others in the ``--jobs`` processes (``report.figures.pages.draw_figures``), beside the run's total.

    python benchmarks/bench_predictions.py
    python benchmarks/bench_predictions.py --rows 100000 --repeats 5 --jobs 1
"""
from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import CONFIG, bayesbench_command, timed, write_sample  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _configs(workdir: Path, rows: int, attributes: int) -> dict[str, Path]:
    """The two workloads' configs, each without and with predictions."""
    data = workdir / "data.arff"
    if not data.exists():
        write_sample(data, rows, attributes, 2, seed=1)
    quick = yaml.safe_load((ROOT / "configs" / "quickstart.yaml").read_text())
    large = yaml.safe_load(CONFIG.format(data=data))
    out = {}
    for name, raw in (("quickstart", quick), (f"nb+tan {rows:,}x{attributes}", large)):
        for kept in (False, True):
            path = workdir / f"{name.split()[0]}-{'kept' if kept else 'plain'}.yaml"
            path.write_text(yaml.safe_dump({**raw, "predictions": kept}, sort_keys=False))
            out[name, kept] = path
    return out


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(config: Path, workdir: Path, jobs: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (the run and its workers, which it waits for) and bytes
    of kept predictions of one run."""
    out = workdir / f"out-{config.stem}"
    shutil.rmtree(out, ignore_errors=True)
    before = _cpu_of_children()
    seconds, _, _ = timed(bayesbench_command() + ["run", str(config), "-o", str(out), "-j",
                                                  str(jobs), "-q"], workdir)
    cpu = _cpu_of_children() - before
    kept = out / "predictions"
    size = sum(p.stat().st_size for p in kept.iterdir()) if kept.is_dir() else 0
    return seconds, cpu, size


BREAKDOWN = r"""
import dataclasses, json, sys, time
from bayesbench.config import load_config
from bayesbench.evaluation import predictions
from bayesbench.experiment import run_experiment
from bayesbench.report.run import finalize

spent = {"write": 0.0, "curves": 0.0, "figures": 0.0}
def timed(module, name, key):
    inner = getattr(module, name)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[key] += time.perf_counter() - t0
    setattr(module, name, wrapper)
timed(predictions, "write", "write")
timed(finalize, "prediction_curves", "curves")
timed(finalize, "draw_figures", "figures")
cfg = load_config(sys.argv[1])
t0 = time.perf_counter()
run_experiment(cfg.experiment, dataclasses.replace(cfg.options, output=sys.argv[2],
                                                   jobs=int(sys.argv[3]), quiet=True))
print(json.dumps({"total": time.perf_counter() - t0, **spent}))
"""


def _breakdown(config: Path, workdir: Path, jobs: int) -> dict:
    import json

    out = workdir / "out-breakdown"
    shutil.rmtree(out, ignore_errors=True)
    _, _, text = timed([sys.executable, "-c", BREAKDOWN, str(config), str(out), str(jobs)],
                       workdir)
    return json.loads(text.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("quickstart", "large"), default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-predictions-") as tmp:
        workdir = Path(tmp)
        configs = _configs(workdir, args.rows, args.attributes)
        names = list(dict.fromkeys(name for name, _ in configs))
        if args.only is not None:
            names = [n for n in names if n.startswith(args.only) or args.only == "large"
                     and not n.startswith("quickstart")]
        rows = []
        for name in names:
            times, cpus, size = {False: [], True: []}, {False: [], True: []}, 0
            for i in range(args.repeats):
                for kept in ((False, True) if i % 2 == 0 else (True, False)):
                    seconds, cpu, measured = _run(configs[name, kept], workdir, args.jobs)
                    times[kept].append(seconds)
                    cpus[kept].append(cpu)
                    size = measured or size
            plain, kept = statistics.median(times[False]), statistics.median(times[True])
            cpu = statistics.median(cpus[True]) / statistics.median(cpus[False])
            parts = _breakdown(configs[name, True], workdir, args.jobs)
            rows.append((name, times[False], times[True], plain, kept, kept / plain, cpu, size,
                         parts))
    print(f"keeping predictions: {args.repeats} interleaved runs each, -j {args.jobs}")
    print(f"{'workload':<24} {'without (s)':<22} {'with (s)':<22} {'median w/o':>10} "
          f"{'median with':>11} {'ratio':>6} {'CPU ratio':>9} {'kept MB':>8}  in one more run "
          f"with predictions")
    for name, plain_t, kept_t, plain, kept, ratio, cpu, size, parts in rows:
        print(f"{name:<24} {' '.join(f'{t:.1f}' for t in plain_t):<22} "
              f"{' '.join(f'{t:.1f}' for t in kept_t):<22} {plain:>10.2f} {kept:>11.2f} "
              f"{ratio:>6.3f} {cpu:>9.3f} {size / 1e6:>8.1f}  total {parts['total']:.1f} s: writing "
              f"{parts['write']:.2f} s ({parts['write'] / parts['total']:.1%}), curves "
              f"{parts['curves']:.2f} s (in a thread, beside the tables), drawing every "
              f"figure {parts['figures']:.2f} s ({parts['figures'] / parts['total']:.1%})")


if __name__ == "__main__":
    main()
