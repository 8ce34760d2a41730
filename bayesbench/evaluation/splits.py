"""Train/test splits: (repeated) stratified k-fold, holdout, resubstitution, leave-one-out.

Every split is a pure function of ``(seed, data set name, repetition)`` and the
class vector, so every classifier of an experiment sees the same folds (paired
tests need that) whatever the executor or the order of the tasks. The random
generator is ``numpy.random.default_rng([seed, stable_hash(name), repetition])``;
``stable_hash`` is a CRC-32 of the name, never Python's salted ``hash``.

Stratified k-fold deals the examples round robin into the folds after
shuffling them within each class and laying the classes end to end, as Weka's
``stratify`` does: each class is spread over the folds as evenly as possible
(counts differ by at most one) and fold sizes differ by at most one.

``fold_size: floor`` is paper 000's TestHarness (``foldsize = int(npoints/folds)``): every
test fold holds exactly ``n // k`` rows, and the ``n mod k`` rows left over are drawn at
random, kept in every training part and never tested (569 WDBC rows: 560 tested).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..data.fold_assignment import fold_rng, kfold_assignment
from ..errors import PlanError
from ..spec import CVSpec


KINDS = ("kfold", "holdout", "resubstitution", "loo")
# How k-fold deals the rows, with what each choice means (docs/configuration.md).
FOLD_SIZES = {
    "balanced": "every row tested once; fold sizes differ by at most one",
    "floor": "n // k rows in every test fold; the n mod k rows left over are never tested",
}


@dataclass(frozen=True)
class Split:
    """One train/test split of one repetition.

    ``train`` and ``test`` are sorted row indices; they are equal under
    resubstitution and disjoint otherwise.
    """

    repetition: int
    fold: int
    train: np.ndarray
    test: np.ndarray

    @property
    def fold_id(self) -> str:
        """Hex digest of the sorted test indices: equal folds have equal ids."""
        data = np.ascontiguousarray(self.test, dtype="<i8").tobytes()
        return hashlib.sha256(data).hexdigest()[:16]


def _holdout_test(y: np.ndarray, fraction: float, rng: np.random.Generator,
                  stratified: bool) -> np.ndarray:
    n = y.shape[0]
    if not stratified:
        n_test = min(max(int(round(fraction * n)), 1), n - 1)
        return np.sort(rng.permutation(n)[:n_test])
    test = []
    for c in np.unique(y):
        members = rng.permutation(np.flatnonzero(y == c))
        test.append(members[:int(round(fraction * members.size))])
    test = np.concatenate(test)
    if test.size == 0 or test.size == n:
        raise PlanError([(("cv", "fraction"), f"a test fraction of {fraction} leaves an empty "
                                              f"train or test set on {n} examples")])
    return np.sort(test)


def make_splits(y, spec: CVSpec, *, seed: int, dataset: str, repetition: int) -> list[Split]:
    """The splits of one repetition of ``spec`` on class vector ``y``."""
    y = np.asarray(y)
    n = y.shape[0]
    everything = np.arange(n)
    if spec.kind == "resubstitution":
        return [Split(repetition, 0, everything, everything)]
    if spec.kind == "loo":
        return [Split(repetition, i, np.delete(everything, i), np.array([i]))
                for i in range(n)]
    rng = fold_rng(seed, dataset, repetition)
    if spec.kind == "holdout":
        test = _holdout_test(y, spec.fraction, rng, spec.stratifies())
        return [Split(repetition, 0, np.setdiff1d(everything, test), test)]
    if spec.kind != "kfold":
        raise ValueError(f"unknown split kind {spec.kind!r}; expected one of {', '.join(KINDS)}")
    if spec.folds > n:
        raise PlanError([(("cv", "folds"), f"{spec.folds} folds need at least {spec.folds} "
                                           f"examples; data set '{dataset}' has {n}")])
    if spec.fold_size == "floor":
        # The leftover rows first, at random, then the others dealt as usual: n - n mod k rows
        # into k folds gives each exactly n // k.
        leftover = rng.permutation(n)[:n % spec.folds]
        kept = np.setdiff1d(everything, leftover)
        assignment = np.full(n, -1, dtype=np.int64)
        assignment[kept] = kfold_assignment(y[kept], spec.folds, rng, spec.stratifies())
    else:
        assignment = kfold_assignment(y, spec.folds, rng, spec.stratifies())
    return [Split(repetition, f, np.flatnonzero(assignment != f), np.flatnonzero(assignment == f))
            for f in range(spec.folds)]
