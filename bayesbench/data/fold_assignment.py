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
    return (_mix(np.asarray(rows, dtype=np.uint64) + salt) % np.uint64(k)).astype(np.int64)


def stratified_hashed_folds(ranks: np.ndarray, classes: np.ndarray, k: int,
                            rng: np.random.Generator) -> np.ndarray:
    """Fold number (``0..k-1``) of rows of class ``classes`` that are the ``ranks``-th rows of
    their class (counted from 0 in the data set's row order), dealt without seeing the other
    rows yet stratified: the rows of each class are taken ``k`` at a time in their order
    (block ``rank // k``), and each block deals one row to each fold, in the order of a
    permutation of the folds drawn by hashing ``(salt, class, block, fold)`` (the mix of
    :func:`hashed_folds`, the salt drawn from ``rng``). Each fold thus holds
    ``floor(n_c / k)`` or ``ceil(n_c / k)`` of the ``n_c`` rows of class ``c``: each class's
    share within one row per fold.

    Examples
    --------
    >>> y = np.repeat([0, 1, 2], [23, 7, 40])
    >>> ranks = np.concatenate([np.arange(23), np.arange(7), np.arange(40)])
    >>> folds = stratified_hashed_folds(ranks, y, 5, np.random.default_rng(0))
    >>> [np.bincount(folds[y == c], minlength=5).tolist() for c in range(3)]
    [[4, 5, 4, 5, 5], [1, 1, 2, 2, 1], [8, 8, 8, 8, 8]]
    """
    salt = rng.integers(0, 2 ** 63, dtype=np.uint64)
    ranks = np.asarray(ranks, dtype=np.uint64)
    k64 = np.uint64(k)
    blocks, slot = ranks // k64, (ranks % k64).astype(np.int64)
    # one key per (class, block): a class code takes at most 16 bits (a chunked data set's
    # classes are at most 1000), a block at most 48 (2^48 rows)
    keys, at = np.unique((np.asarray(classes, dtype=np.uint64) << np.uint64(48)) | blocks,
                         return_inverse=True)
    with np.errstate(over="ignore"):
        base = _mix(_mix(salt + (keys >> np.uint64(48))) + (keys & np.uint64(2 ** 48 - 1)))
        scores = _mix(base[:, None] + np.arange(k, dtype=np.uint64)[None, :])
    # The fold of the row in slot j of its block: the j-th fold of the block's permutation.
    order = np.argsort(scores, axis=1, kind="stable")
    return order[at.reshape(-1), slot]


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's step and finalizer of each 64-bit ``z`` (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))
