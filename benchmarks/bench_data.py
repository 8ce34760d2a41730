"""Data-layer speed against peers run in the same process (and Weka's own filter).

    python3 benchmarks/bench_data.py [--repeat 3]

Reading: bayesbench.load_dataset vs liac-arff's arff.load (the parser underneath) and
scipy.io.arff.loadarff. MDL discretization: bayesbench vs Weka 3.6's supervised Discretize
(a java process: its time includes JVM start-up and ARFF parsing, reported as given).
Equal width / frequency: bayesbench vs scikit-learn's KBinsDiscretizer. Times are the best of
--repeat runs, in seconds; "ratio" is peer time / bayesbench time (> 1: bayesbench faster).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import time
from pathlib import Path


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
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
