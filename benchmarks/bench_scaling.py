"""Scaling: `bayesbench run` on chunked (out-of-core) data sets of 10^5 to 10^8 rows.

For each cell of the grid (rows x attributes) a synthetic nominal data set is generated
file by file straight to CSV on disk, one file of at most ``--file-rows`` rows at a time
(never all rows in memory): bench_discrete.py's tree-structured sample (each attribute
depends on the class and on one earlier attribute; 2 to 5 values, written as letters so
that the columns read as nominal; 3 classes), its structure and tables drawn once from
the seed and each file's rows from a generator seeded by (seed, file number). A config
is written for the directory: 10-fold ``nb`` and ``tan``, ``cv: {folds: 10, stratified:
false}``, accuracy, log loss and Brier score. Then ``bayesbench run --jobs W -q`` runs
as its own process for each ``--workers`` W.

Where the data fit in memory (``--in-memory-rows``, default up to 10^6 rows), the same
rows concatenated into one CSV file also run as an ordinary in-memory data set, for
comparison (same config, folds dealt by the in-memory runner).

"seconds" is the process's wall-clock time (scan, count and score passes, records and
summary); "rows/s" is rows over seconds (one cross-validation: each row is counted and
scored once per pass); "peak MB" is the resident high-water mark of the largest process
of the command (``os.wait4``'s ``ru_maxrss``: with ``--jobs 2``, the largest of the main
process and its workers, not their sum).

    python benchmarks/bench_scaling.py                         # 10^5, 10^6 x 20; workers 1, 2
    python benchmarks/bench_scaling.py --rows 100000,1000000,10000000 --attributes 20
    python benchmarks/bench_scaling.py --rows 1000000 --attributes 50,100,200 --markdown
    python benchmarks/bench_scaling.py --rows 100000000 --attributes 20 --workdir /big/disk
"""
from __future__ import annotations

import argparse
import itertools
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import bayesbench_command, timed  # noqa: E402

CONFIG = """name: scaling
seed: 1
datasets: [{data}]
cv: {{folds: 10, stratified: false}}
classifiers: [nb, tan]
metrics: [accuracy, log_loss, brier]
format: [csv]
"""


class TreeSample:
    """bench_discrete.make_data's tree-structured ANB sample, drawable file by file."""

    def __init__(self, attributes: int, n_classes: int, seed: int):
        rng = np.random.default_rng(seed)
        self.prior = rng.dirichlet(np.full(n_classes, 5.0))
        self.cards = rng.integers(2, 6, attributes)
        self.parents = [int(rng.integers(0, j)) if j else None for j in range(attributes)]
        self.cum = [np.cumsum(rng.dirichlet(np.full(int(c), 0.7), size=(
            n_classes, 1 if p is None else int(self.cards[p]))), axis=-1)
            for c, p in zip(self.cards, self.parents)]
        self.seed = seed

    def rows(self, n: int, part: int) -> np.ndarray:
        """``n`` rows of codes (attributes, then the class last) for file ``part``."""
        rng = np.random.default_rng([self.seed, part])
        y = rng.choice(len(self.prior), size=n, p=self.prior)
        out = np.empty((n, len(self.cards) + 1), dtype=np.uint8)
        for j, (parent, cum) in enumerate(zip(self.parents, self.cum)):
            pa = 0 if parent is None else out[:, parent]
            out[:, j] = (rng.random(n)[:, None] > cum[y, pa][:, :-1]).sum(axis=1)
        out[:, -1] = y
        return out


def write_csv(path: Path, codes: np.ndarray, header: bytes) -> None:
    """Codes as single letters (attributes a..e, class A..C), in blocks of rows."""
    letters = codes + np.uint8(ord("a"))
    letters[:, -1] = codes[:, -1] + ord("A")
    with open(path, "wb") as fh:
        fh.write(header)
        for lo in range(0, letters.shape[0], 100_000):
            block = letters[lo:lo + 100_000]
            text = np.full((block.shape[0], 2 * block.shape[1]), ord(","), dtype=np.uint8)
            text[:, 0::2] = block
            text[:, -1] = ord("\n")
            fh.write(text.tobytes())


def generate(directory: Path, rows: int, attributes: int, args) -> float:
    """Writes the chunked data set's files; returns its size in MB."""
    directory.mkdir(parents=True, exist_ok=True)
    sample = TreeSample(attributes, args.classes, args.seed)
    header = (",".join(f"x{j}" for j in range(attributes)) + ",class\n").encode()
    for part, lo in enumerate(range(0, rows, args.file_rows)):
        write_csv(directory / f"part-{part:05d}.csv",
                  sample.rows(min(args.file_rows, rows - lo), part), header)
    return sum(f.stat().st_size for f in directory.iterdir()) / 2 ** 20


def concatenate(directory: Path, target: Path) -> None:
    """The files of a chunked data set as one CSV file (one header), copied by blocks."""
    with open(target, "wb") as out:
        for i, part in enumerate(sorted(directory.glob("*.csv"))):
            with open(part, "rb") as fh:
                if i:
                    fh.readline()
                shutil.copyfileobj(fh, out, 2 ** 24)


def run(workdir: Path, data: str, jobs: int) -> tuple[float, float]:
    """Wall seconds and peak MB of `bayesbench run` on ``data`` with ``jobs`` processes."""
    config = workdir / f"{Path(data).stem}.yaml"
    config.write_text(CONFIG.format(data=data))
    out = workdir / f"result-{Path(data).stem}-j{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    seconds, peak, _ = timed(bayesbench_command() + ["run", config.name, "-o", str(out),
                                                     "-j", str(jobs), "-q"], workdir)
    return seconds, peak


def one_cell(rows: int, attributes: int, args, base: Path) -> list[list]:
    workdir = base / f"{rows}x{attributes}"
    t0 = time.perf_counter()
    size = generate(workdir / "parts", rows, attributes, args)
    print(f"{rows} x {attributes}: {size:.0f} MB of CSV in {len(os.listdir(workdir / 'parts'))}"
          f" files written in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    kinds = [("chunked", "parts/")]
    if rows <= args.in_memory_rows:
        concatenate(workdir / "parts", workdir / "data.csv")
        kinds.append(("in memory", "data.csv"))
    out = []
    for (kind, data), jobs in itertools.product(kinds, args.workers):
        seconds, peak = run(workdir, data, jobs)
        print(f"  {kind} --jobs {jobs}: {seconds:.1f} s, {peak:.0f} MB", file=sys.stderr)
        out.append([power_of_ten(rows), attributes, kind, jobs,
                    round(size), seconds, rows / seconds, round(peak)])
    if not args.keep:
        shutil.rmtree(workdir)
    return out


def power_of_ten(n: int) -> str:
    """10^7 for 10000000 (a string that the table leaves as it is), else the number."""
    digits = str(n)
    return f"10^{len(digits) - 1}" if digits.strip("0") == "1" else digits


def integers(text: str) -> list[int]:
    return [int(float(v)) for v in text.split(",") if v.strip()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=integers, default=[100_000, 1_000_000],
                        help="comma-separated row counts (1e7 allowed; default 1e5,1e6)")
    parser.add_argument("--attributes", type=integers, default=[20],
                        help="comma-separated attribute counts (default 20)")
    parser.add_argument("--workers", type=integers, default=[1, 2],
                        help="comma-separated --jobs values (default 1,2)")
    parser.add_argument("--in-memory-rows", type=lambda v: int(float(v)), default=1_000_000,
                        help="also run one in-memory CSV file up to this many rows "
                             "(default 1e6; 0: never)")
    parser.add_argument("--file-rows", type=lambda v: int(float(v)), default=100_000,
                        help="rows per CSV file of the chunked data set (default 1e5: "
                             "--jobs shares out files)")
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", help="where to write the data (default: a temporary "
                                          "directory; 10^8 x 20 needs about 4 GB)")
    parser.add_argument("--keep", action="store_true",
                        help="keep each cell's data and results in WORKDIR/bench_scaling")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)

    table = []
    with tempfile.TemporaryDirectory(prefix="bench_scaling_", dir=args.workdir) as tmp:
        # --keep writes where it is kept, rather than copying gigabytes afterwards
        base = Path(args.workdir or ".") / "bench_scaling" if args.keep else Path(tmp)
        for rows, attributes in itertools.product(args.rows, args.attributes):
            table += one_cell(rows, attributes, args, base)
    from bayesbench.report.tables import render
    print(render(table, ["rows", "attributes", "data", "--jobs", "CSV MB", "seconds", "rows/s",
                         "peak MB"], "markdown" if args.markdown else "text", floatfmt=".3g",
                 caption=f"10-fold CV of nb and tan, {args.classes} classes, "
                         f"{args.file_rows} rows per file; peak MB of the largest process; "
                         f"{os.cpu_count()} cores"))


if __name__ == "__main__":
    main()
