"""SKDB on a chunked data set (Parquet parts, docs/large-data.md): time and peak memory of
its fit from the files, against the fit of the same rows held in memory, same run.

The data: ``--rows`` rows of ``--attributes`` nominal attributes of four values and a class
of three, written as Parquet files of ``--file-rows`` rows each under ``--dir`` (generated
file by file from ``--seed``: attribute ``j`` copies a function of attributes ``j - 1``,
``j - 2`` and the class with probability 0.8, so that the selection keeps parents). Each
measurement runs in a process of its own, whose peak resident set
(``getrusage(RUSAGE_SELF).ru_maxrss``) is the figure, beside its wall and CPU seconds (on a
shared machine the wall time is mostly waiting):

- ``chunked``: :func:`bayesbench.data.chunks.scan` of the files, the sufficient statistics
  summed chunk by chunk (pass 1), then ``SKDB.fit_chunks`` (passes 2 and 3, reading the
  files again), each chunk at most 200,000 rows;
- ``memory``: the same rows read chunk by chunk and concatenated, then ``SKDB.fit``
  (only up to ``--memory-max`` rows).

    python benchmarks/bench_chunked_skdb.py --rows 1000000 --rows 10000000
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def write_parts(root: Path, rows: int, m: int, file_rows: int, seed: int) -> float:
    """Write the Parquet parts (unless a previous run left them); returns the seconds."""
    import pyarrow as pa  # lazy: only the writing side needs pyarrow's writer
    import pyarrow.parquet as pq  # lazy: as above

    done = root / "DONE"
    if done.exists():
        return 0.0
    t0 = time.perf_counter()
    root.mkdir(parents=True, exist_ok=True)
    values = pa.array([f"v{i}" for i in range(4)])
    classes = pa.array([f"c{i}" for i in range(3)])
    for f, start in enumerate(range(0, rows, file_rows)):
        n = min(file_rows, rows - start)
        rng = np.random.default_rng([seed, f])
        y = rng.integers(0, 3, n)
        X = np.empty((n, m), dtype=np.int8)
        X[:, 0] = np.where(rng.random(n) < 0.6, y, rng.integers(0, 4, n))
        for j in range(1, m):
            before = X[:, j - 2] if j >= 2 else 0
            copied = (X[:, j - 1] + 2 * before + y + j) % 4
            X[:, j] = np.where(rng.random(n) < 0.8, copied, rng.integers(0, 4, n))
        columns = {f"a{j}": pa.DictionaryArray.from_arrays(pa.array(X[:, j]), values)
                   for j in range(m)}
        columns["class"] = pa.DictionaryArray.from_arrays(pa.array(y.astype(np.int8)), classes)
        pq.write_table(pa.table(columns), root / f"part-{f:04d}.parquet",
                       row_group_size=200_000)
    done.write_text("")
    return time.perf_counter() - t0


def _source_chunks(root: Path):
    from bayesbench.data.chunks import chunks, scan  # lazy: the child processes' work

    t0 = time.perf_counter()
    source = scan(root)
    scanned = time.perf_counter() - t0

    def read():
        for i in range(len(source.files)):
            for _, X, y in chunks(source, i):
                yield X, y
    return source, read, scanned


def child(mode: str, root: Path, k_max: int) -> dict:
    """One measurement, in this process: seconds of each step, peak RSS, the selection."""
    from bayesbench.models.core.sufficient import Statistics  # lazy: the child's work
    from bayesbench.models.learners.skdb import SKDB  # lazy: as above

    source, read, scanned = _source_chunks(root)
    cards, k = source.cardinalities, source.n_classes
    out = {"scan": scanned}
    t0 = time.perf_counter()
    if mode == "chunked":
        stats = Statistics.empty(cards, k, source.attribute_names)
        for X, y in read():
            stats = stats + Statistics.from_codes(X, y, cards, k)
        out["counts"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        clf = SKDB(k_max=k_max).fit_chunks(stats, read)
        out["fit"] = time.perf_counter() - t1
        n = stats.n_rows
    else:
        parts = list(read())
        X = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        del parts
        out["counts"] = time.perf_counter() - t0  # here: reading the rows into memory
        t1 = time.perf_counter()
        clf = SKDB(k_max=k_max).fit(X, y, cardinalities=cards, n_classes=k)
        out["fit"] = time.perf_counter() - t1
        n = X.shape[0]
    member = clf.members_[0]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.update(rows=int(n), s=member.s, k=member.k, total=out["scan"] + out["counts"] + out["fit"],
               cpu=usage.ru_utime + usage.ru_stime, peak_mb=usage.ru_maxrss / 1024)
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, action="append", help="rows (repeatable)")
    p.add_argument("--attributes", type=int, default=20)
    p.add_argument("--file-rows", type=int, default=1_000_000)
    p.add_argument("--k-max", type=int, default=5)
    p.add_argument("--memory-max", type=int, default=1_000_000,
                   help="largest data set also fitted in memory")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dir", type=Path, default=Path("/tmp/bayesbench-chunked-skdb"))
    p.add_argument("--child", nargs=2, metavar=("MODE", "ROOT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), args.k_max)))
        return
    print("rows        mode     scan s  count s   fit s  total s    CPU s  peak MB  chosen")
    for rows in args.rows or [1_000_000]:
        root = args.dir / f"{rows}x{args.attributes}"
        wrote = write_parts(root, rows, args.attributes, args.file_rows, args.seed)
        if wrote:
            print(f"(wrote {root} in {wrote:.0f} s)")
        modes = ["chunked"] + (["memory"] if rows <= args.memory_max else [])
        for mode in modes:
            res = subprocess.run([sys.executable, __file__, "--child", mode, str(root),
                                  "--k-max", str(args.k_max)], capture_output=True, text=True)
            if res.returncode:
                print(f"{rows:<11d} {mode:<8s} failed: {res.stderr.strip().splitlines()[-1]}")
                continue
            r = json.loads(res.stdout)
            print(f"{r['rows']:<11d} {mode:<8s} {r['scan']:6.1f} {r['counts']:8.1f} "
                  f"{r['fit']:7.1f} {r['total']:8.1f} {r['cpu']:8.1f} {r['peak_mb']:8.0f}  "
                  f"s={r['s']} of {args.attributes}, k={r['k']}")


if __name__ == "__main__":
    main()
