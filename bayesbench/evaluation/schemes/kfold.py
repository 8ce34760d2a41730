"""(Repeated) k-fold cross-validation, stratified or not, with balanced or floor fold sizes.

Stratified k-fold deals the examples round robin into the folds after shuffling them within
each class and laying the classes end to end, as Weka's ``stratify`` does: each class is spread
over the folds as evenly as possible (counts differ by at most one) and fold sizes differ by at
most one.

``fold_size: floor`` is paper 000's TestHarness (``foldsize = int(npoints/folds)``): every test
fold holds exactly ``n // k`` rows, and the ``n mod k`` rows left over are drawn at random, kept
in every training part and never tested (569 WDBC rows: 560 tested).
"""
from __future__ import annotations

import numpy as np

from ...data.fold_assignment import kfold_assignment
from ...errors import PlanError
from .scheme import CVScheme, Setting, Split, repeats, stratified

# How k-fold deals the rows, with what each choice means (docs/configuration.md).
FOLD_SIZES = {
    "balanced": "every row tested once; fold sizes differ by at most one",
    "floor": "n // k rows in every test fold; the n mod k rows left over are never tested",
}


class KFold(CVScheme):
    """k-fold cross-validation: each row tested once per repetition (the default scheme)."""

    name = "kfold"
    title = "k-fold"
    summary = "`folds` parts, each tested once by a model of the others (the default)"
    settings = (Setting("folds", int, 10, low=2), repeats(), stratified(),
                Setting("fold_size", str, "balanced", choices=tuple(FOLD_SIZES),
                        omit_default=True))
    learning_curve = True

    def splits(self, y, spec, rng, dataset, repetition):
        n = y.shape[0]
        folds, strata = self.value(spec, "folds"), self.value(spec, "stratified")
        if folds > n:
            raise PlanError([(("cv", "folds"), f"{folds} folds need at least {folds} "
                                               f"examples; data set '{dataset}' has {n}")])
        rng = rng()
        if self.value(spec, "fold_size") == "floor":
            # The leftover rows first, at random, then the others dealt as usual: n - n mod k
            # rows into k folds gives each exactly n // k.
            leftover = rng.permutation(n)[:n % folds]
            kept = np.setdiff1d(np.arange(n), leftover)
            assignment = np.full(n, -1, dtype=np.int64)
            assignment[kept] = kfold_assignment(y[kept], folds, rng, strata)
        else:
            assignment = kfold_assignment(y, folds, rng, strata)
        return [Split(repetition, f, np.flatnonzero(assignment != f),
                      np.flatnonzero(assignment == f)) for f in range(folds)]

    def describe(self, spec):
        floor = (", n // k rows tested per fold (the n mod k left over never tested)"
                 if self.value(spec, "fold_size") == "floor" else "")
        strata = "stratified " if self.value(spec, "stratified") else ""
        return f"{strata}{self.value(spec, 'folds')}-fold cross-validation{floor}"
