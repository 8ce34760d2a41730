"""Leave-one-out: each row tested by a model of all the others."""
from __future__ import annotations

import numpy as np

from .resubstitution import deterministic
from .scheme import CVScheme, Split


class LeaveOneOut(CVScheme):
    """n splits, each testing one row with a model of the others, once."""

    name = "loo"
    title = "leave-one-out"
    summary = "each row tested by a model of all the others, once"
    settings = deterministic("loo")

    def splits(self, y, spec, rng, dataset, repetition):
        everything = np.arange(y.shape[0])
        return [Split(repetition, i, np.delete(everything, i), np.array([i]))
                for i in range(y.shape[0])]

    def describe(self, spec):
        return "leave-one-out"
