"""Data-layer speed against peers run in the same process (and Weka's own filter).

    python3 benchmarks/bench_data.py [--repeat 3] [--sizes 1e4x20,1e5x50,1e6x50] [--no-peers]

Reading: bayesbench.load_dataset vs liac-arff's arff.load (the parser underneath) and
scipy.io.arff.loadarff. MDL discretization: bayesbench vs Weka 3.6's supervised Discretize
(a java process: its time includes JVM start-up and ARFF parsing, reported as given).
Equal width / frequency: bayesbench vs scikit-learn's KBinsDiscretizer. Times are the best of
--repeat runs, in seconds; "ratio" is peer time / bayesbench time (> 1: bayesbench faster).

Scaling table: synthetic nominal data (2 to 5 categories per attribute, two classes) of each
--sizes ROWSxATTRIBUTES, written once as ARFF and CSV under --cache, read in a fresh process
per measurement by the row decoders ("old": engine='python', liac-arff or the csv module, as
before the C reader) and by pandas' C reader ("new": the default); seconds are wall-clock of
the read alone (best of --repeat; "old" once above 10^5 rows), cpu s its processor time (less
sensitive to a busy machine), peak MB the process's maximum resident set, python and imports
included.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


from bayesbench.data import load_dataset
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.report.tables import render

UCI = Path(__file__).resolve().parents[1] / "datasets"
WEKA = Path("/usr/share/java/weka.jar")


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def write_synthetic(rows: int, attributes: int, directory: Path) -> dict:
    """The ARFF and CSV files of a synthetic nominal data set, written once."""
    paths = {fmt: directory / f"nominal-{rows}x{attributes}.{fmt}" for fmt in ("arff", "csv")}
    if all(p.exists() for p in paths.values()):
        return paths
    rng = np.random.default_rng(rows + attributes)
    cards = rng.integers(2, 6, attributes)
    names = [f"a{j}" for j in range(attributes)] + ["class"]
    labels = [np.array([f"v{k}" for k in range(c)]) for c in cards] + [np.array(["c0", "c1"])]
    with open(paths["arff"], "w") as arff_fh, open(paths["csv"], "w") as csv_fh:
        arff_fh.write("@relation synthetic\n")
        for name, lab in zip(names, labels):
            arff_fh.write(f"@attribute {name} {{{','.join(lab)}}}\n")
        arff_fh.write("@data\n")
        csv_fh.write(",".join(names) + "\n")
        for start in range(0, rows, 100_000):
            n = min(100_000, rows - start)
            cols = [lab[rng.integers(0, lab.size, n)] for lab in labels]
            block = "\n".join(",".join(r) for r in zip(*cols)) + "\n"
            arff_fh.write(block)
            csv_fh.write(block)
    return paths


def read_once(path: str, engine: str) -> None:
    """Child process: read ``path`` once and print the seconds and the peak MB as JSON."""
    import pandas  # noqa: F401 - imported by both engines; its start-up is not reading time

    from bayesbench.data.arff_format import read_arff
    from bayesbench.data.csv_format import read_csv

    reader = read_arff if path.endswith(".arff") else read_csv
    start, cpu = time.perf_counter(), time.process_time()
    ds = reader(path, engine=engine)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak, "rows": ds.n_rows}))


def measure(path: Path, engine: str, repeat: int) -> dict:
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--read-once", str(path), engine],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    return min(runs, key=lambda r: r["seconds"])


def scaling_table(sizes: list[tuple[int, int]], cache: Path, repeat: int) -> str:
    table = []
    for rows, attributes in sizes:
        for fmt, path in write_synthetic(rows, attributes, cache).items():
            old = measure(path, "python", repeat if rows <= 100_000 else 1)
            new = measure(path, "c", repeat)
            table.append([fmt, rows, attributes, f"{old['seconds']:.2f}", f"{new['seconds']:.2f}",
                          f"{old['seconds'] / new['seconds']:.1f}", f"{old['cpu']:.2f}",
                          f"{new['cpu']:.2f}", f"{old['peak_mb']:.0f}", f"{new['peak_mb']:.0f}"])
    return render(table, ["format", "rows", "attrs", "old s", "new s", "ratio", "old cpu s",
                          "new cpu s", "old peak MB", "new peak MB"], floatfmt="")


def parse_size(text: str) -> tuple[int, int]:
    rows, attributes = text.lower().split("x")
    return int(float(rows)), int(attributes)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--read-once":
        return read_once(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="1e4x20,1e5x50,1e6x50",
                    help="comma-separated ROWSxATTRIBUTES of the scaling table ('' for none)")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "bayesbench-bench",
                    help="where the synthetic files are written (kept for later runs)")
    ap.add_argument("--no-peers", action="store_true", help="only the scaling table")
    args = ap.parse_args()
    if args.sizes:
        args.cache.mkdir(parents=True, exist_ok=True)
        print(scaling_table([parse_size(s) for s in args.sizes.split(",")], args.cache,
                            args.repeat))
    if args.no_peers:
        return
    import arff
    from scipy.io import arff as scipy_arff

    rows = []
    for name in ("adult", "letter", "segment"):
        path = UCI / f"{name}.arff"
        ours = best(lambda: load_dataset(path), args.repeat)

        def liac():
            with open(path) as fh:
                arff.load(fh)
        rows.append([f"read {name}", "liac-arff arff.load", ours, best(liac, args.repeat)])
        rows.append([f"read {name}", "scipy.io.arff", ours,
                     best(lambda: scipy_arff.loadarff(path), args.repeat)])

    for name in ("letter", "adult", "segment"):
        path = UCI / f"{name}.arff"
        ds = load_dataset(path)
        ours = best(lambda: Discretizer("mdl").fit(ds), args.repeat)
        if shutil.which("java") and WEKA.exists():
            cmd = ["java", "-cp", str(WEKA), "weka.filters.supervised.attribute.Discretize",
                   "-c", "last", "-i", str(path), "-o", "/dev/null"]
            weka = best(lambda: subprocess.run(cmd, check=True, capture_output=True), 1)
            rows.append([f"MDL fit {name}", "Weka 3.6 (java process)", ours, weka])

    from sklearn.preprocessing import KBinsDiscretizer
    ds = load_dataset(UCI / "letter.arff")
    X = ds.numeric_matrix()
    for method, strategy in (("width", "uniform"), ("frequency", "quantile")):
        ours = best(lambda: Discretizer(method, 10).fit_transform(ds), args.repeat)
        kb = KBinsDiscretizer(n_bins=10, encode="ordinal", strategy=strategy,
                              quantile_method="averaged_inverted_cdf") \
            if strategy == "quantile" else KBinsDiscretizer(n_bins=10, encode="ordinal",
                                                           strategy=strategy)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            peer = best(lambda: kb.fit_transform(X), args.repeat)
        rows.append([f"{method} fit+transform letter", "sklearn KBinsDiscretizer", ours, peer])

    table = [[task, peer, f"{o:.4f}", f"{p:.4f}", f"{p / o:.2f}"] for task, peer, o, p in rows]
    print(render(table, ["task", "peer", "bayesbench s", "peer s", "ratio"]))


if __name__ == "__main__":
    main()
