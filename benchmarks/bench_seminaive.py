"""HNB, WAODE and ``estimator: cll`` against their peers, in the same run.

Two tables.

**HNB and WAODE against Weka 3.6's**, trained on the first half of each data set and tested
on the second (the protocol of ``tests/reference/weka_hnb_waode.json``): nursery,
kr-vs-kp, splice and mushroom (rows with a missing value removed), and bench_discrete.py's
synthetic ``--rows`` x ``--attributes`` sample. Both sides get the same codes (written as one
ARFF file for Weka) and the same split, the data already in memory:

- ``bayesbench hnb`` / ``waode``: ``fit`` on the first half plus ``predict_proba`` on the
  second, in this process.
- ``weka HNB`` / ``WAODE (in JVM)``: bench_discrete.py's Java harness loads the same ARFF
  file and split, runs it once untimed (the JIT warms up), then times ``buildClassifier``
  plus ``distributionForInstance`` on every test row. JVM start-up and ARFF parsing are
  left out.

**``estimator: cll`` against scikit-learn's ``LogisticRegression`` (lbfgs, unpenalised)** on
the same problem: multinomial logistic regression on the one-hot coding of each node's
family (the attribute's value crossed with its parents' values) with an intercept, which is
the model ``cll`` fits in its pre-conditioned parameterisation (``l2: 0``). Data: the
synthetic sample with a quarter of its labels drawn at random (so that no family
separates the classes) and adult (MDL-discretized, complete rows). Both sides run at a
ladder of tolerances; for a target conditional log-likelihood (scikit-learn's at its
default ``tol=1e-4``, and at ``tol=1e-6``) each side's time is that of its fastest run that
reaches the target. Both are given the structure: scikit-learn its one-hot family matrix,
bayesbench the structure's nodes, and its time is what ``estimator: cll`` adds to the
structure search of a fit (counting the tables, smoothing them, weighing them); "structure
s" is that search's time (a whole ``fit`` of the learner with ``laplace``), in neither side's
clock. "x sklearn" is bayesbench's time over
scikit-learn's (< 1: bayesbench faster); "iterations" are L-BFGS's on each side; "cells seen
with every class" is the share of the one-hot columns set in rows of every class (where it
is below 1 a cell may separate a class, the unpenalised optimum is at infinity, and both
sides creep towards it). adult is run with ``nb`` only: its ``tan`` and ``kdb`` families of
many values leave cells seen with one class.

Each timing is the median of ``--repeats`` runs; the CPU columns (this process; the JVM's
timing thread) are steadier than wall time on a machine that other work shares.

    python benchmarks/bench_seminaive.py
    python benchmarks/bench_seminaive.py --rows 20000 --repeats 1 --skip-weka
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_discrete import WEKA_JAR, compile_fold_timer, make_data, run_fold_timer, write_arff
# The one-hot problem scikit-learn is given, shared with tests/models/parameters/test_cll.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from logistic_reference import family_onehot  # noqa: E402

WEKA_LEARNERS = {"hnb": "weka.classifiers.bayes.HNB", "waode": "weka.classifiers.bayes.WAODE"}
CLL_LEARNERS = {"nb": {}, "tan": {}, "kdb": {"k": 2}}
TOLERANCES = (1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6, 3e-7, 1e-7)
TARGETS = (1e-4, 1e-6)
# Iterations at most on either side (adult's families of many values converge slowly).
MAX_ITER = 3000


def complete_codes(name):
    """Codes, classes, cardinalities and class count of a data set's complete rows."""
    from bayesbench.data import load_dataset

    ds = load_dataset(name)
    if not ds.is_nominal:
        from bayesbench.preprocess.discretize import Discretizer

        ds = Discretizer("mdl").fit_transform(ds)
    X = np.asarray(ds.codes(), dtype=np.int64)
    keep = ~(X < 0).any(axis=1)
    return X[keep], ds.y[keep].astype(np.int64), np.asarray(ds.cardinalities), ds.n_classes


def timed(run, repeats):
    """Median wall and CPU seconds of ``run()`` over ``repeats`` runs, and its last result."""
    walls, cpus = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        result = run()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return float(np.median(walls)), float(np.median(cpus)), result


# ------------------------------------------------------------------ HNB and WAODE
def ours_split(learner, X, y, cards, k, half):
    from bayesbench import make_classifier

    X_train, y_train, X_test = X[:half], y[:half], X[half:]

    def run():
        model = make_classifier(learner).fit(X_train, y_train, cardinalities=cards,
                                             n_classes=k)
        return model.predict_proba(X_test)
    return run


def weka_split(workdir, learner, n_rows, n_test, repeats, heap):
    """Median fit + predict seconds, CPU seconds and accuracy of the harness's timed pass."""
    walls, cpus = [], []
    for _ in range(repeats):
        fit, predict, cpu, error, _ = run_fold_timer(workdir, str(WEKA_JAR), workdir / "data.arff",
                                                     1, heap, WEKA_LEARNERS[learner])
        walls.append(fit + predict)
        cpus.append(cpu)
    # The harness divides the wrong test rows by all rows.
    return float(np.median(walls)), float(np.median(cpus)), 1.0 - error * n_rows / n_test


def weka_table(args):
    from bayesbench.report.tables import render

    data = {name: complete_codes(name) for name in args.datasets}
    if args.rows:
        X, y, cards = make_data(args.rows, args.attributes, args.classes, args.seed)
        data[f"synthetic {args.rows} x {args.attributes}"] = (
            X.astype(np.int64), y, cards, args.classes)
    weka = (not args.skip_weka and WEKA_JAR.exists() and shutil.which("java") is not None)
    rows = []
    for name, (X, y, cards, k) in data.items():
        half = int(np.floor(y.size / 2 + 0.5))       # Weka's Math.round(rows * 50 / 100)
        with tempfile.TemporaryDirectory(prefix="bench_seminaive_") as tmp:
            workdir = Path(tmp)
            harness = weka and compile_fold_timer(workdir, str(WEKA_JAR))
            if harness:
                write_arff(workdir / "data.arff", X, y, cards, k)
                # Fold 0 (tested) is the second half; the first half is never tested.
                np.savetxt(workdir / "folds.txt", (np.arange(y.size) < half).astype(int),
                           fmt="%d")
            for learner in WEKA_LEARNERS:
                print(f"{name}: {learner} ...", file=sys.stderr)
                run = ours_split(learner, X, y, cards, k, half)
                run()  # imports and first-touch, as the harness's untimed pass
                wall, cpu, proba = timed(run, args.repeats)
                accuracy = float(np.mean(proba.argmax(axis=1) == y[half:]))
                row = [name, learner, f"{wall:.3f}", f"{cpu:.3f}", f"{accuracy:.4f}"]
                if harness:
                    w_wall, w_cpu, w_acc = weka_split(workdir, learner, y.size, y.size - half,
                                                      args.repeats, args.java_heap)
                    row += [f"{w_wall:.3f}", f"{w_cpu:.3f}", f"{w_acc:.4f}",
                            f"{w_wall / wall:.2f}", f"{w_cpu / cpu:.2f}"]
                else:
                    row += ["-"] * 5
                rows.append(row)
    print(render(rows, ["data set", "learner", "bayesbench s", "CPU s", "accuracy", "weka s",
                        "weka CPU s", "weka accuracy", "weka / bayesbench", "CPU weka / bb"],
                 "text", caption=f"fit on the first half + predict the second, median of "
                                 f"{args.repeats}; {os.cpu_count()} cores"))
    if not weka:
        print("(Weka's timing needs java, javac and /usr/share/java/weka.jar)")


# ------------------------------------------------------------------ estimator: cll
def cll_of(proba, y) -> float:
    return float(np.sum(np.log(proba[np.arange(y.size), y])))


def run_at(fit, tol, repeats):
    """``(seconds, CPU seconds, training CLL, iterations)`` of ``fit(tol)``."""
    wall, cpu, (cll, iterations) = timed(lambda: fit(tol), repeats)
    return wall, cpu, cll, iterations


def cells_seen_with_every_class(onehot, y, k) -> float:
    """The share of the one-hot columns set in rows of every class (1: no family cell
    separates a class, and the unpenalised optimum is finite)."""
    counts = np.vstack([np.asarray(onehot[y == c].sum(axis=0)).ravel() for c in range(k)])
    return float(np.mean((counts > 0).all(axis=0)))


def cll_rows(name, X, y, cards, learner, params, repeats):
    """The table's rows of one learner on one data set: scikit-learn at each tolerance down
    to the tightest target's, then bayesbench at each tolerance until it reaches the
    highest target (its first run that reaches a target is its time for it)."""
    from sklearn.linear_model import LogisticRegression

    from bayesbench import make_classifier

    from bayesbench.models.core.counting import counts
    from bayesbench.models.parameters.cll import ConditionalLikelihood

    structure_s, _, structure = timed(lambda: make_classifier(learner, **params).fit(
        X, y, cardinalities=cards).structure_, repeats)
    onehot = family_onehot(structure, X, cards)
    k = int(y.max()) + 1
    seen = cells_seen_with_every_class(onehot, y, k)
    parent_cards = [[cards[p] for p in node.parents] for node in structure.nodes]

    def ours(tol):
        # The parameters of the given structure, as scikit-learn is given its one-hot
        # families: the counts, the smoothed tables (alpha 1) and the weights, what
        # estimator="cll" adds to the structure search in a fit.
        estimator = ConditionalLikelihood(tol=tol, max_iter=MAX_ITER)
        tables, _ = estimator.node_tables(counts(structure, X, y, cards, k), parent_cards, 1.0)
        prior = estimator.node_class_log_prior(np.bincount(y, minlength=k), 1.0)
        found = estimator.refine(structure, tables, prior, X, y)
        return found.final_cll, found.n_iter

    def sklearn(tol):
        lr = LogisticRegression(C=np.inf, tol=tol, max_iter=MAX_ITER).fit(onehot, y)
        return cll_of(lr.predict_proba(onehot), y), int(np.max(lr.n_iter_))

    ours(TOLERANCES[0])  # imports
    theirs = {tol: run_at(sklearn, tol, repeats) for tol in TOLERANCES if tol >= min(TARGETS)}
    targets = {tol: theirs[tol] for tol in TARGETS}
    best = max(r[2] for r in targets.values())
    mine = []
    for tol in TOLERANCES:
        mine.append(run_at(ours, tol, repeats))
        if mine[-1][2] >= best:
            break
    rows = []
    for tol, target in targets.items():
        reach_s = next(r for r in theirs.values() if r[2] >= target[2])
        reach_o = next((r for r in mine if r[2] >= target[2]), None)
        row = [name, learner, f"{seen:.3f}", f"{structure_s:.3f}", f"sklearn at tol {tol:g}",
               f"{target[2]:.2f}", f"{reach_s[0]:.3f}", f"{reach_s[3]}"]
        if reach_o is None:
            row += [f"not reached ({mine[-1][2]:.2f})", "-", "-", "-"]
        else:
            row += [f"{reach_o[0]:.3f}", f"{reach_o[3]}", f"{reach_o[0] / reach_s[0]:.2f}",
                    f"{reach_o[1] / reach_s[1]:.2f}"]
        rows.append(row)
    return rows


def cll_table(args):
    from bayesbench.report.tables import render

    X, y, cards = make_data(args.rows or 100_000, args.attributes, args.classes, args.seed)
    rng = np.random.default_rng(args.seed + 1)
    y = np.where(rng.random(y.size) < 0.25, rng.integers(0, args.classes, y.size), y)
    data = {f"synthetic {X.shape[0]} x {args.attributes} (noisy)": (X.astype(np.int64), y, cards,
                                                                    CLL_LEARNERS)}
    for name in args.cll_datasets:
        Xd, yd, cd, _ = complete_codes(name)
        data[name] = (Xd, yd, cd, {"nb": {}})
    rows = []
    for name, (X, y, cards, learners) in data.items():
        for learner, params in learners.items():
            print(f"{name}: {learner} cll ...", file=sys.stderr)
            rows += cll_rows(name, X, y, cards, learner, params, args.repeats)
    print(render(rows, ["data set", "learner", "cells seen with every class",
                        "structure s", "target",
                        "training CLL", "sklearn s", "iterations", "bayesbench s", "iterations",
                        "x sklearn", "CPU x sklearn"],
                 "text", caption=f"time to equal conditional log-likelihood, median of "
                                 f"{args.repeats}; {os.cpu_count()} cores"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="*",
                        default=["nursery", "kr-vs-kp", "splice", "mushroom"])
    parser.add_argument("--cll-datasets", nargs="*", default=["adult"])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--java-heap", default="4g")
    parser.add_argument("--skip-weka", action="store_true")
    parser.add_argument("--skip-cll", action="store_true")
    parser.add_argument("--skip-hnb", action="store_true")
    args = parser.parse_args(argv)
    if not args.skip_hnb:
        weka_table(args)
    if not args.skip_cll:
        cll_table(args)


if __name__ == "__main__":
    main()
