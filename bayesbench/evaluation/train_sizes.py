"""Learning curves (``cv: {train_sizes: [...]}``): each training part subsampled to each size.

A size is a number of rows (an int) or a fraction of the training part (a float in (0, 1],
rounded to the nearest row, at least 2 rows). The rows are taken with stratification, in one
order per fold drawn from ``(seed, data set, repetition, fold)`` and its own stream: each
class's rows shuffled, then the classes interleaved in proportion to their counts, so that
the first ``m`` rows of the order hold each class's share of ``m`` within one row. A smaller
size's rows are among a larger one's (nested subsamples: the curve moves by the rows added,
not by a new draw), and the same seed takes the same rows serially, in processes or on Dask.

A count larger than some training part of a data set is refused when the experiment is
planned, before anything is written: a curve whose largest points would silently be the
whole part would show a plateau that is not there.
"""
from __future__ import annotations

import numpy as np

from ..data.fold_assignment import fold_rng
from .prepare import TRAIN_SIZE_STREAM

# The fewest rows a training part is subsampled to (a learner needs two to count anything).
MIN_ROWS = 2


def rows_of(size: int | float, n_train: int) -> int:
    """The rows a training part of ``n_train`` rows keeps at ``size``."""
    if isinstance(size, float):
        return min(n_train, max(MIN_ROWS, int(round(size * n_train))))
    return int(size)


def stratified_order(y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Positions ``0..len(y)-1`` in the order the rows are taken: within each class at random,
    the classes interleaved so that each prefix holds every class in proportion."""
    y = np.asarray(y)
    n = y.shape[0]
    perm = rng.permutation(n)
    order = perm[np.argsort(y[perm], kind="stable")]  # classes end to end, shuffled inside
    _, codes, counts = np.unique(y[order], return_inverse=True, return_counts=True)
    rank = np.arange(n) - np.r_[0, np.cumsum(counts)[:-1]][codes]
    # A row's place within its class, as a fraction: a prefix cut at t holds ~t of each class.
    return order[np.argsort((rank + 0.5) / counts[codes], kind="stable")]


def subsamples(train: np.ndarray, y: np.ndarray, sizes, *, seed: int, dataset: str,
               repetition: int, fold: int) -> list[tuple[int | float, np.ndarray]]:
    """``(size, sorted training rows)`` of the training part ``train`` (row indices into the
    class vector ``y``) at each of ``sizes``."""
    rng = fold_rng(seed, dataset, repetition, fold, TRAIN_SIZE_STREAM)
    order = train[stratified_order(y[train], rng)]
    return [(size, np.sort(order[:rows_of(size, train.size)])) for size in sizes]


def too_large(sizes, n_train: int) -> list[tuple[int, int]]:
    """``(index, size)`` of each count in ``sizes`` above ``n_train`` rows."""
    return [(i, s) for i, s in enumerate(sizes) if not isinstance(s, float) and s > n_train]
