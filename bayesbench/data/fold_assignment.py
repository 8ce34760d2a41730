"""Fold-dealing primitives shared by the runner's outer splits and the wrapper learners' inner CV.

They live in the data layer, below both :mod:`bayesbench.evaluation` and
:mod:`bayesbench.models`, so that an outer fold and an inner fold are dealt by
the same code and neither package imports the other.

Every generator is ``numpy.random.default_rng([seed, stable_hash(name), repetition, ...])``;
``stable_hash`` is a CRC-32 of the name, never Python's salted ``hash``, so the
same seed deals the same folds in every process and on every machine.
"""
from __future__ import annotations

import zlib

import numpy as np

from .names import canonical


def stable_hash(text: str) -> int:
    """A hash of ``text`` that is the same in every process and on every run."""
    return zlib.crc32(str(text).encode("utf-8"))


def fold_rng(seed: int, dataset: str, repetition: int, *more: int) -> np.random.Generator:
    """The generator for one data set and repetition (and, with ``more``, one fold or purpose);
    an alias of a data set (:mod:`.names`) gets its canonical name's."""
    return np.random.default_rng([int(seed), stable_hash(canonical(dataset)), int(repetition),
                                  *map(int, more)])


def kfold_assignment(y: np.ndarray, k: int, rng: np.random.Generator,
                      stratified: bool) -> np.ndarray:
    """Fold number (``0..k-1``) of every row.

    Stratified: rows are dealt round-robin in class order, so each fold holds
    every class in proportion, within one row.
    """
    n = y.shape[0]
    if stratified:
        # Shuffle, then stable-sort by class: classes end to end, random order inside each.
        perm = rng.permutation(n)
        order = perm[np.argsort(y[perm], kind="stable")]
    else:
        order = rng.permutation(n)
    assignment = np.empty(n, dtype=np.int64)
    assignment[order] = np.arange(n) % k
    return assignment


def hashed_folds(rows: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Fold number (``0..k-1``) of each global row index in ``rows``, dealt without seeing
    the other rows: a 64-bit mix (SplitMix64's finalizer) of the index plus a salt drawn
    from ``rng``, modulo ``k``. Not stratified; fold sizes are equal only in expectation."""
    salt = rng.integers(0, 2 ** 63, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.asarray(rows, dtype=np.uint64) + salt + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(k)).astype(np.int64)
