"""Paper 002's full config end to end: `bayesbench run configs/papers/mihaljevic2013.yaml --jobs 2`.

    python benchmarks/bench_paper002.py                       # this checkout, 3 runs
    python benchmarks/bench_paper002.py --against /tmp/main   # interleaved with another checkout
    python benchmarks/bench_paper002.py --figure-format svg,png   # the networks' PNGs too

Each run is the console command as a user types it, in a process of its own, into a fresh
result directory: reading the fourteen data sets, 5 x 5 stratified folds of the seven
learners (2,450 tasks) in ``--jobs`` worker processes, the records, the summary tables, the
figures (145 networks and consensus networks among them) and report.html. ``--against DIR``
times a second checkout (a worktree of another commit, run with this interpreter from that
directory, so that it imports its own ``bayesbench``) run for run, interleaved with this one,
so that both meet the same load on a shared machine, and compares the two runs' records
apart from timings and task ids (which hash the data files' paths, and so the checkout's).

Printed per run: the wall time, the CPU time of the command and its worker processes
(``os.wait4``), and the load average of the last minute before and after it; then each
checkout's median. On a machine shared with other jobs the wall time is at the mercy of the
load: a run under a load average of L on C cores gets about C / max(C, L + 1) of them, which
is why the CPU time is printed beside it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = "configs/papers/mihaljevic2013.yaml"
# Fields that measure the run rather than the model; a task id hashes the data file's path.
VARYING = {"fit_seconds", "predict_seconds", "tune_seconds", "cpu_seconds", "peak_bytes",
           "checksum", "task_id"}


def timed_run(checkout: Path, config: str, jobs: int, out: Path, extra=()) -> dict:
    """One `bayesbench run` of ``config`` from ``checkout`` (``extra``: more options): wall
    and CPU seconds, loads."""
    command = [sys.executable, "-m", "bayesbench.cli", "run", config, "--jobs", str(jobs), "-q",
               "-o", str(out), *extra]
    before = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=checkout, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{checkout}: bayesbench run failed: {err.strip()[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "load_before": before,
            "load_after": os.getloadavg()[0]}


def records(run_dir: Path) -> dict:
    """The run's records by task, without the fields that vary from run to run."""
    out = {}
    for line in (run_dir / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        key = tuple(record.get(k) for k in ("dataset", "classifier", "repetition", "fold"))
        record = {k: v for k, v in record.items() if k not in VARYING}
        record["metrics"] = {k: v for k, v in record["metrics"].items() if k not in VARYING}
        out[key] = record
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each checkout")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--config", default=CONFIG, help="relative to each checkout")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout, timed run for run beside this one")
    parser.add_argument("--figure-format", metavar="FORMATS",
                        help="passed to this checkout's runs (not to --against's)")
    args = parser.parse_args(argv)
    extra = ("--figure-format", args.figure_format) if args.figure_format else ()
    checkouts = {"this checkout": ROOT}
    if args.against is not None:
        checkouts[f"--against {args.against}"] = args.against.resolve()
    print(f"bayesbench run {args.config} --jobs {args.jobs} {' '.join(extra)}, on "
          f"{os.cpu_count()} cores")
    print(f"{'checkout':<40} {'run':>3} {'wall s':>8} {'CPU s':>8} {'load before':>12} "
          f"{'load after':>11}")
    times = {name: [] for name in checkouts}
    last = {}
    with tempfile.TemporaryDirectory(prefix="bench_paper002_") as tmp:
        for i in range(args.repeats):
            for n, (name, checkout) in enumerate(checkouts.items()):
                out = Path(tmp) / f"{n}-{i}"
                t = timed_run(checkout, args.config, args.jobs, out,
                              extra if checkout == ROOT else ())
                times[name].append(t)
                print(f"{name:<40} {i + 1:>3} {t['wall']:>8.2f} {t['cpu']:>8.2f} "
                      f"{t['load_before']:>12.2f} {t['load_after']:>11.2f}", flush=True)
                if name in last:
                    shutil.rmtree(last[name])
                last[name] = out
        print()
        first = None
        for name, runs in times.items():
            wall = statistics.median(r["wall"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            ratio = "" if first is None else f"  ({wall / first:.2f}x the first's wall time)"
            first = wall if first is None else first
            print(f"median {name}: wall {wall:.2f} s, CPU {cpu:.2f} s{ratio}")
        if len(last) == 2:
            a, b = (records(d) for d in last.values())
            same = a == b
            print(f"records of the two checkouts' last runs, timings and task ids aside: "
                  f"{'identical' if same else 'DIFFERENT'} ({len(a)} and {len(b)} records)")


if __name__ == "__main__":
    main()
