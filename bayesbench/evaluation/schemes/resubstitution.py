"""Resubstitution: the model tested on the rows it was trained on (paper 004's protocol)."""
from __future__ import annotations

import numpy as np

from .scheme import CVScheme, Setting, Split


def deterministic(name: str) -> tuple[Setting, Setting]:
    """The settings of a scheme that draws nothing: ``name: true`` chooses it, and ``repeats``,
    if given, must be 1."""
    def chosen(flag):
        return None if flag else "write it as true, or leave it out for k-fold"

    def once(n):
        return None if n == 1 else f"{name} is deterministic; repeats must be 1"

    return (Setting(name, bool, True, check=chosen), Setting("repeats", int, 1, check=once,
                                                             kept=False))


class Resubstitution(CVScheme):
    """Train and test on every row, once."""

    name = "resubstitution"
    title = "resubstitution"
    summary = "train and test on every row, once (an optimistic estimate)"
    settings = deterministic("resubstitution")

    def splits(self, y, spec, rng, dataset, repetition):
        everything = np.arange(y.shape[0])
        return [Split(repetition, 0, everything, everything)]

    def describe(self, spec):
        return "resubstitution (train = test)"
