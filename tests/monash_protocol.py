"""The protocol of the comparison with the Monash group's Java code (HerrmannM/BNC), shared by
``test_skdb.py`` and the run that produced ``tests/reference/monash_skdb.json``.

The authors' evaluator (``--evaluator kfoldxval 2 5``) runs 5 rounds of unstratified 2-fold
cross-validation on partitions of an unseeded ``SecureRandom``; here each seed's rounds are
bayesbench's own fold assignment (``kfold_assignment(y, 2, fold_rng(seed, name, round),
stratified=False)``), written as ARFF files and given to the Java models, so that both sides
fit and test on the same rows. Metrics per round as the evaluator's: the error rate, and
``sqrt((1/N) sum_i (1/C) sum_c (p_c - [c = y_i])^2)``, the class predicted the first of
highest probability. The Java code crashes on numeric attributes and reads a missing value
as the attribute's first value: data are complete cases (rows with a missing value
dropped), numeric attributes discretized by bayesbench's MDL (Fayyad and Irani, checked
against Weka's cut points elsewhere) fitted once on the whole data set.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from bayesbench.data.fold_assignment import fold_rng, kfold_assignment
from bayesbench.data.load import load_dataset
from bayesbench.preprocess.discretize import Discretizer

DATASETS_DIR = Path(__file__).resolve().parents[1] / "datasets"
ROUNDS, FOLDS = 5, 2


def prepare(name: str):
    """The complete, nominal data set ``name`` of ``datasets/``."""
    ds = load_dataset(DATASETS_DIR / f"{name}.arff")
    complete = ~ds.missing_mask().any(axis=1)
    ds = ds.take(np.flatnonzero(complete))
    if not ds.is_nominal:
        ds = Discretizer("mdl").fit_transform(ds)
    return ds


def folds(ds, name: str, seed: int, rnd: int) -> np.ndarray:
    """Fold (0 or 1) of every row in round ``rnd`` of seed ``seed``."""
    return kfold_assignment(ds.y, FOLDS, fold_rng(seed, name, rnd), stratified=False)


def round_metrics(proba: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The evaluator's error rate and RMSE of one round (all its test rows)."""
    n_classes = proba.shape[1]
    error = float(np.mean(np.argmax(proba, axis=1) != y))
    rmse = float(np.sqrt(np.mean(((proba - np.eye(n_classes)[y]) ** 2).sum(axis=1)
                                 / n_classes)))
    return error, rmse


def per_seed_metrics(runs: list, dataset: str, make, rounds: int):
    """Ours and the Java code's error and RMSE, each the mean over the first ``rounds``
    rounds a seed holds in ``runs`` (the reference's records of one data set and config),
    one row per seed: our learner ``make(seed)`` refitted on the same folds."""
    ds = prepare(dataset)
    X, y = ds.codes(), ds.y
    ours, theirs = [], []
    for seed in sorted({r["seed"] for r in runs}):
        held = sorted({r["round"] for r in runs if r["seed"] == seed})[:rounds]
        per_round = []
        for rnd in held:
            f = folds(ds, dataset, seed, rnd)
            proba = np.zeros((len(y), ds.n_classes))
            for test in range(FOLDS):
                tr, te = f != test, f == test
                clf = make(seed).fit(X[tr], y[tr], cardinalities=ds.cardinalities,
                                     n_classes=ds.n_classes)
                proba[te] = clf.predict_proba(X[te])
            per_round.append(round_metrics(proba, y))
        ours.append(np.mean(per_round, axis=0))
        theirs.append(np.mean([(r["error"], r["rmse"]) for r in runs
                               if r["seed"] == seed and r["round"] in held], axis=0))
    return np.array(ours), np.array(theirs)


def gap_and_bound(ours: np.ndarray, theirs: np.ndarray):
    """The rule both comparisons apply to :func:`per_seed_metrics`' rows: ``|mean(ours) -
    mean(theirs)|`` of error and RMSE, and its bound, two standard errors of the Java code's
    mean over seeds."""
    gap = np.abs(ours.mean(axis=0) - theirs.mean(axis=0))
    return gap, 2 * theirs.std(axis=0, ddof=1) / np.sqrt(len(theirs))
