"""A chunked run against reading its files: `bayesbench run` (10-fold `nb` + `tan`) on a
chunked CSV data set, beside two read passes over the same files, in the same run.

Issue 35, item 7: a chunked cross-validation should cost about two passes over the data.
For each size, bench_scaling.py's tree-structured nominal sample is written file by file
(``--file-rows`` rows per CSV file, never all rows in memory), then, each as its own
process:

- **read passes**: the files scanned (:func:`bayesbench.data.chunks.scan`, untimed), then
  two timed passes of :func:`bayesbench.data.chunks.chunks` over every file: each file
  parsed and coded chunk by chunk (200,000 rows at a time), nothing else done. "2 reads" is
  their sum.
- **run**: ``bayesbench run CONFIG --jobs W --quiet`` of the config below (scan, count and
  score passes, records, summary tables and figures), its wall time.

"ratio" is the run's seconds over the two read passes' (the goal: at most 2); "CPU ratio"
the same in CPU seconds (the read passes' ``time.process_time``, the run's user + system
CPU from ``os.wait4``: its process and the workers it waited for), which a machine shared
with other work disturbs less; "peak MB" the run's largest process's resident high-water
mark (``ru_maxrss``).

    python benchmarks/bench_chunked_run.py                            # 10^6 and 10^7 x 20
    python benchmarks/bench_chunked_run.py --rows 1e7 --workers 1,2
    python benchmarks/bench_chunked_run.py --rows 1e8 --workers 1 --workdir /big/disk
"""
from __future__ import annotations

import argparse
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import bayesbench_command  # noqa: E402
from bench_scaling import generate, integers, power_of_ten  # noqa: E402

CONFIG = """name: chunked-run
seed: 1
datasets: [parts/]
cv: {folds: 10}
classifiers: [nb, tan]
metrics: [accuracy, log_loss, brier, rmse]
format: [csv]
"""

READ = """
import sys, time
from bayesbench.data.chunks import chunks, scan
source = scan(sys.argv[1])
for _ in range(2):
    t0, cpu, rows = time.perf_counter(), time.process_time(), 0
    for i in range(len(source.files)):
        for _, X, y in chunks(source, i):
            rows += y.size
    print(time.perf_counter() - t0, time.process_time() - cpu, rows)
"""


def measured(cmd, cwd: Path) -> tuple[float, float, float, str]:
    """Wall seconds, user + system CPU seconds, peak resident MB and stdout of ``cmd``."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        out.seek(0)
        text = out.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd[:4]))} ... failed: {err.strip()[-400:]}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text


def read_passes(workdir: Path) -> list[tuple[float, float]]:
    """The wall and CPU seconds of each of two passes of ``chunks`` over the files (in one
    process)."""
    text = measured([sys.executable, "-c", READ, "parts"], workdir)[3]
    return [(float(line.split()[0]), float(line.split()[1]))
            for line in text.split("\n") if line.strip()]


def one_size(rows: int, attributes: int, args, base: Path) -> list[list]:
    workdir = base / f"{rows}x{attributes}"
    t0 = time.perf_counter()
    size = generate(workdir / "parts", rows, attributes, args)
    print(f"{rows} x {attributes}: {size:.0f} MB of CSV in "
          f"{len(os.listdir(workdir / 'parts'))} files written in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    (workdir / "config.yaml").write_text(CONFIG)
    out = []
    for jobs in args.workers:
        (first, cpu1), (second, cpu2) = read_passes(workdir)
        result = workdir / f"result-j{jobs}"
        shutil.rmtree(result, ignore_errors=True)
        seconds, cpu, peak, _ = measured(bayesbench_command() + [
            "run", "config.yaml", "-o", str(result), "-j", str(jobs), "-q"], workdir)
        print(f"  reads {first:.1f} + {second:.1f} s; run --jobs {jobs}: {seconds:.1f} s",
              file=sys.stderr)
        out.append([power_of_ten(rows), attributes, round(size), first, second,
                    first + second, jobs, seconds, seconds / (first + second),
                    cpu1 + cpu2, cpu, cpu / (cpu1 + cpu2), round(peak)])
    if not args.keep:
        shutil.rmtree(workdir)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=integers, default=[1_000_000, 10_000_000],
                        help="comma-separated row counts (default 1e6,1e7)")
    parser.add_argument("--attributes", type=integers, default=[20],
                        help="comma-separated attribute counts (default 20)")
    parser.add_argument("--workers", type=integers, default=[1],
                        help="comma-separated --jobs values (default 1)")
    parser.add_argument("--file-rows", type=lambda v: int(float(v)), default=1_000_000,
                        help="rows per CSV file (default 1e6)")
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", help="where to write the data (default: a temporary "
                                          "directory; 10^8 x 20 needs about 4 GB, and as "
                                          "much again free for the run's kept ids)")
    parser.add_argument("--keep", action="store_true", help="keep the data and results")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)

    table = []
    with tempfile.TemporaryDirectory(prefix="bench_chunked_run_", dir=args.workdir) as tmp:
        base = Path(args.workdir or ".") / "bench_chunked_run" if args.keep else Path(tmp)
        for rows, attributes in itertools.product(args.rows, args.attributes):
            table += one_size(rows, attributes, args, base)
    from bayesbench.report.tables import render
    print(render(table, ["rows", "attributes", "CSV MB", "read 1 s", "read 2 s", "2 reads s",
                         "--jobs", "run s", "ratio", "2 reads CPU s", "run CPU s",
                         "CPU ratio", "peak MB"],
                 "markdown" if args.markdown else "text", floatfmt=".3g",
                 caption=f"10-fold CV of nb and tan on chunked CSV ({args.classes} classes, "
                         f"{args.file_rows} rows per file) against two passes of chunks() "
                         f"over the same files, in the same run; ratio = run s / 2 reads s "
                         f"(wall), CPU ratio the same in CPU seconds; {os.cpu_count()} cores"))


if __name__ == "__main__":
    main()
