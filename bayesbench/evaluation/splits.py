"""Train/test splits of a repetition, by the experiment's scheme (:data:`.schemes.SCHEMES`).

Every split is a pure function of ``(seed, data set name, repetition)`` and the class vector, so
every classifier of an experiment sees the same folds (paired tests need that) whatever the
executor or the order of the tasks. The random generator is
``numpy.random.default_rng([seed, stable_hash(name), repetition])``; ``stable_hash`` is a CRC-32
of the name, never Python's salted ``hash``.
"""
from __future__ import annotations

import numpy as np

from ..data.fold_assignment import fold_rng
from ..spec import CVSpec
from .schemes import SCHEMES, Split


def make_splits(y, spec: CVSpec, *, seed: int, dataset: str, repetition: int) -> list[Split]:
    """The splits of one repetition of ``spec`` on class vector ``y``."""
    if spec.kind not in SCHEMES:
        raise ValueError(f"unknown split kind {spec.kind!r}; expected one of "
                         f"{', '.join(SCHEMES)}")
    return SCHEMES[spec.kind]().splits(np.asarray(y), spec,
                                       lambda: fold_rng(seed, dataset, repetition),
                                       dataset, repetition)


def apparent_split(y, spec: CVSpec) -> Split | None:
    """The split of each classifier's apparent error that the estimate of ``spec`` needs
    (the bootstrap's ``632`` and ``632plus``), after its repetitions; None for the others."""
    return SCHEMES[spec.kind]().apparent_split(np.asarray(y), spec)


def describe(spec: CVSpec) -> str:
    """The scheme of ``spec`` in words ("stratified 10-fold cross-validation")."""
    return SCHEMES[spec.kind]().describe(spec)


def tasks_words(spec: CVSpec) -> str:
    """The tasks of ``spec`` a table's mean is taken over, in words."""
    return SCHEMES[spec.kind]().tasks_words(spec)
