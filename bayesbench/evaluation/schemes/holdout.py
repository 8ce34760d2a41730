"""(Repeated) holdout: one test part of a given share, stratified or not."""
from __future__ import annotations

import numpy as np

from ...errors import PlanError
from .scheme import CVScheme, Setting, Split, repeats, stratified


def _open_share(fraction: float) -> str | None:
    return None if 0.0 < fraction < 1.0 else "the test fraction must lie strictly between 0 and 1"


class Holdout(CVScheme):
    """One random test part of ``holdout`` (a share of the rows) per repetition."""

    name = "holdout"
    title = "holdout"
    summary = "one random test part of the given share of the rows per repetition"
    settings = (Setting("holdout", float, 0.3, low=0.0, high=1.0, check=_open_share),
                repeats(), stratified())
    learning_curve = True

    def splits(self, y, spec, rng, dataset, repetition):
        fraction, n = self.value(spec, "holdout"), y.shape[0]
        rng = rng()
        if not self.value(spec, "stratified"):
            n_test = min(max(int(round(fraction * n)), 1), n - 1)
            test = np.sort(rng.permutation(n)[:n_test])
        else:
            test = []
            for c in np.unique(y):
                members = rng.permutation(np.flatnonzero(y == c))
                test.append(members[:int(round(fraction * members.size))])
            test = np.concatenate(test)
            if test.size == 0 or test.size == n:
                raise PlanError([(("cv", "holdout"), f"a test fraction of {fraction} leaves an "
                                                     f"empty train or test set on {n} examples")])
            test = np.sort(test)
        return [Split(repetition, 0, np.setdiff1d(np.arange(n), test), test)]

    def describe(self, spec):
        return f"a {self.value(spec, 'holdout'):g} holdout"
