"""SKDB and ESKDB against the Monash group's Java code (HerrmannM/BNC), same folds, same run.

The protocol is ``tests/monash_protocol.py``'s (the one of ``tests/reference/
monash_skdb.json``): complete cases of ``datasets/NAME.arff``, MDL-discretized when numeric,
5 rounds of unstratified 2-fold cross-validation on bayesbench's fold assignment, the error
rate and the evaluator's RMSE per round. Both sides fit and predict every fold:

- ``bayesbench``: ``SKDB``/``ESKDB`` in this process, fit + ``predict_proba`` timed; memory
  the peak of ``tracemalloc`` (numpy's arrays included) over the fit and predict of the
  first fold, in a second run of it (tracing slows allocation, so it is not timed);
- ``monash``: one JVM per fold running an entry point (``FoldRunner``, see below) that
  times ``model.train`` and ``distributionForInstance`` on every test row with
  ``System.nanoTime`` (JVM start-up and ARFF writing left out), memory its process's
  maximum resident set (``/usr/bin/time``).

Likewise the start-up of bayesbench's compiled HDP sampler (numba's import and the loading
of the sampler's machine code from numba's cache, or its compilation on the first run after
a change: once per process) is left out of the times: a tiny HDP fit runs first, and its
seconds are printed above the table.

The peer is built outside the repository (``--peer DIR`` or ``$MONASH_PEER``): ``DIR/classes``
holds the compiled sources of HerrmannM/BNC, HerrmannM/HDP and HerrmannM/MLTools and a class
``FoldRunner`` whose ``main(model, train.arff, test.arff, probs.txt, seed, model args...)``
seeds ``Math.random()`` and the model's ``MersenneTwister``, trains, writes one line of class
probabilities per test row and prints ``fit_seconds X predict_seconds Y``; ``DIR/weka.jar``
is Weka 3.9.7's (PyPI's python-weka-wrapper3 0.3.3 sdist), and BNC's ``lib/`` jars
(commons-cli 1.4, commons-math3 3.6.1) are under ``DIR/lib``. Without a peer only
bayesbench's side runs. "x monash" is the peer's fit+predict time over ours (> 1: ours
faster).

    python benchmarks/bench_skdb.py --peer /tmp/peers/monash --datasets car,kr-vs-kp
    python benchmarks/bench_skdb.py --configs skdb_m --rounds 1
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from monash_protocol import folds, prepare, round_metrics  # noqa: E402

from bayesbench.data.arff_format import write_arff  # noqa: E402
from bayesbench.models.learners.skdb import ESKDB, SKDB  # noqa: E402

CONFIGS = {
    "skdb_m": (lambda seed: SKDB(k_max=5, estimator="m"),
               ["SKDB", "-K", "5", "-I", "1000", "-L", "2", "-M"]),
    "skdb_hdp": (lambda seed: SKDB(k_max=5, estimator="hdp", random_state=seed),
                 ["SKDB", "-K", "5", "-I", "1000", "-L", "2"]),
    "eskdb": (lambda seed: ESKDB(n_estimators=5, k_max=5, random_state=seed),
              ["ESKDB", "-E", "5", "-K", "5", "-I", "1000", "-L", "2"]),
}


def _fit_predict(make, X, y, tr, te, ds, seed):
    clf = make(seed).fit(X[tr], y[tr], cardinalities=ds.cardinalities,
                         n_classes=ds.n_classes)
    return clf.predict_proba(X[te])


def _ours(make, X, y, tr, te, ds, seed, traced):
    t0 = time.perf_counter()
    proba = _fit_predict(make, X, y, tr, te, ds, seed)
    seconds = time.perf_counter() - t0
    if not traced:
        return proba, seconds, 0.0
    tracemalloc.start()
    _fit_predict(make, X, y, tr, te, ds, seed)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return proba, seconds, peak / 2 ** 20


def _classpath(peer: Path) -> str:
    jars = [peer / "weka.jar", *sorted((peer / "lib").rglob("*.jar"))]
    return ":".join(str(p) for p in [peer / "classes", *jars])


def _theirs(peer, args, ds, tr, te, seed, work):
    train, test, out = work / "train.arff", work / "test.arff", work / "p.txt"
    write_arff(ds.take(tr), train)
    write_arff(ds.take(te), test)
    cmd = ["/usr/bin/time", "-f", "maxrss %M", "java", "-Xmx4g",
           "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", _classpath(peer),
           "FoldRunner", args[0], str(train), str(test), str(out), str(seed), *args[1:]]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    words = run.stdout.split()
    seconds = (float(words[words.index("fit_seconds") + 1])
               + float(words[words.index("predict_seconds") + 1]))
    rss = int(run.stderr.split("maxrss")[-1].split()[0]) / 1024
    return np.loadtxt(out, ndmin=2), seconds, rss


def bench(name, config, seeds, rounds, peer):
    ds = prepare(name)
    X, y = ds.codes(), ds.y
    make, args = CONFIGS[config]
    sides = {"bayesbench": [], "monash": []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            for rnd in range(rounds):
                f = folds(ds, name, seed, rnd)
                probas = {side: np.zeros((len(y), ds.n_classes)) for side in sides}
                cost = {side: [0.0, 0.0] for side in sides}
                for test in range(2):
                    tr, te = np.flatnonzero(f != test), np.flatnonzero(f == test)
                    first = not sides["bayesbench"] and test == 0
                    runs = {"bayesbench": lambda: _ours(make, X, y, tr, te, ds, seed, first)}
                    if peer is not None:
                        runs["monash"] = lambda: _theirs(peer, args, ds, tr, te, seed,
                                                         Path(tmp))
                    for side, run in runs.items():
                        proba, seconds, mb = run()
                        probas[side][te] = proba
                        cost[side][0] += seconds
                        cost[side][1] = max(cost[side][1], mb)
                for side in runs:
                    sides[side].append((*round_metrics(probas[side], y), *cost[side]))
    out = {side: np.mean(rows, axis=0) for side, rows in sides.items() if rows}
    out["bayesbench"][3] = sides["bayesbench"][0][3]  # the traced first fold's peak
    return out


def _warm_up() -> float:
    """Seconds of a tiny HDP fit: the compiled sampler's start-up, once per process."""
    t0 = time.perf_counter()
    X, y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]]), np.array([0, 1, 1, 0])
    SKDB(k_max=1, estimator="hdp", random_state=0).fit(X, y, cardinalities=[2, 2], n_classes=2)
    return time.perf_counter() - t0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", default=os.environ.get("MONASH_PEER"))
    parser.add_argument("--datasets", default="car,tic-tac-toe,kr-vs-kp,mushroom,splice,nursery")
    parser.add_argument("--configs", default="skdb_m,skdb_hdp,eskdb")
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--rounds", type=int, default=5)
    opts = parser.parse_args(argv)
    peer = Path(opts.peer) if opts.peer else None
    seeds = [int(s) for s in opts.seeds.split(",")]
    print(f"compiled HDP sampler's start-up (not in the times below): {_warm_up():.2f} s")
    print(f"{'data set':<12} {'config':<9} {'side':<10} {'error':>7} {'rmse':>7} "
          f"{'fit+pred s':>10} {'peak MB':>8} {'x monash':>8}")
    for name in opts.datasets.split(","):
        for config in opts.configs.split(","):
            result = bench(name, config, seeds, opts.rounds, peer)
            ours = result["bayesbench"][2]
            for side, (err, rmse, seconds, mb) in result.items():
                ratio = f"{result['monash'][2] / ours:8.1f}" if (
                    side == "bayesbench" and "monash" in result) else ""
                print(f"{name:<12} {config:<9} {side:<10} {err:7.4f} {rmse:7.4f} "
                      f"{seconds:10.2f} {mb:8.0f} {ratio:>8}", flush=True)


if __name__ == "__main__":
    main()
