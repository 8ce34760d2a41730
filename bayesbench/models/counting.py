"""Parameter learning: vectorised counting and additive smoothing.

Every node's table is filled by one ``np.bincount`` over a combined index
``(class, parent configuration, node value)``; no Python loop runs over rows.
A missing value (code ``-1``) in a node or in one of its parents removes that
row from that node's counts only (available-case counting, as Weka's
NaiveBayes does): it is given an extra "missing" slot on its axis, which is
sliced off after counting.

Table layout, for a node with attributes ``A`` and parents ``P``: a float array
of shape ``(n_classes, prod(card[P]), prod(card[A]))``; parent configurations
and joined values are flattened in mixed radix with the first listed attribute
most significant (``numpy.ravel_multi_index`` order).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .structure import Node, Structure


def _mixed_radix(X, cols, cards):
    """Mixed-radix index of ``cols`` plus where a value is missing / beyond its cardinality."""
    n = X.shape[0]
    index = np.zeros(n, dtype=np.int64)
    missing = np.zeros(n, dtype=bool)
    beyond = np.zeros(n, dtype=bool)
    for c in cols:
        col = X[:, c]
        card = int(cards[c])
        missing |= col < 0
        beyond |= col >= card
        index *= card
        index += col
    return index, missing, beyond & ~missing


def joint_index(X: np.ndarray, cols: Sequence[int], cards: Sequence[int]) -> np.ndarray:
    """Mixed-radix code of the values of columns ``cols`` of ``X``.

    ``cards`` holds the cardinality of every column of ``X`` (indexed by
    ``cols``); the first column is the most significant digit. A row with a
    missing value (``< 0``) in any of the columns, or a value beyond its
    cardinality, gets ``-1``. With no columns every row gets 0.
    """
    index, missing, beyond = _mixed_radix(X, cols, cards)
    index[missing | beyond] = -1
    return index


def _radix_with_missing(X, cols, cards):
    """Index where each column has one extra trailing slot for missing values."""
    index = np.zeros(X.shape[0], dtype=np.int64)
    shape = []
    for c in cols:
        col = X[:, c]
        card = int(cards[c])
        bad = (col < 0) | (col >= card)
        index *= card + 1
        if bad.any():
            index += np.where(bad, card, col)
        else:
            index += col
        shape.append(card + 1)
    return index, shape


def node_counts(node: Node, X: np.ndarray, y: np.ndarray, cardinalities: Sequence[int],
                n_classes: int, sample_weight: np.ndarray | None = None) -> np.ndarray:
    """Counts ``N(c, parent configuration, node value)`` of one node.

    Returns a float64 array of shape ``(n_classes, n_parent_configs, n_values)``.
    Rows with a missing value in the node or its parents are not counted.
    """
    cols = list(node.parents) + list(node.attributes)
    index, shape = _radix_with_missing(X, cols, cardinalities)
    size = int(np.prod(shape, dtype=np.int64))
    index += np.asarray(y, dtype=np.int64) * size
    counts = np.bincount(index, weights=sample_weight, minlength=n_classes * size)
    counts = counts.astype(np.float64, copy=False).reshape([n_classes] + shape)
    counts = counts[(slice(None),) + tuple(slice(0, s - 1) for s in shape)]
    n_pa = int(np.prod([cardinalities[p] for p in node.parents], dtype=np.int64))
    n_val = int(np.prod([cardinalities[a] for a in node.attributes], dtype=np.int64))
    return np.ascontiguousarray(counts).reshape(n_classes, n_pa, n_val)


def counts(structure: Structure, X: np.ndarray, y: np.ndarray,
           cardinalities: Sequence[int], n_classes: int,
           sample_weight: np.ndarray | None = None) -> list[np.ndarray]:
    """Raw counts of every node of ``structure`` (see :func:`node_counts`)."""
    return [node_counts(node, X, y, cardinalities, n_classes, sample_weight)
            for node in structure.nodes]


def log_table(counts: np.ndarray, alpha: float) -> np.ndarray:
    """Smoothed log conditional probabilities from counts.

    ``log p(v | pa, c) = log(N(c, pa, v) + alpha) - log(N(c, pa) + alpha * r)``
    with ``r`` the number of values. A parent configuration never seen with a
    class gets the uniform distribution even when ``alpha = 0`` (instead of
    0/0); a value never seen with ``alpha = 0`` gets ``-inf``, which makes the
    class impossible for an example holding it.
    """
    r = counts.shape[-1]
    num = counts + alpha
    den = counts.sum(axis=-1, keepdims=True) + alpha * r
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(num) - np.log(den)
    empty = np.broadcast_to(den == 0, out.shape)
    out[empty] = -np.log(r)
    return out


def unseen_log_prob(counts: np.ndarray, alpha: float) -> np.ndarray:
    """``log(alpha / (N(c, pa) + alpha * r))``, shape ``(n_classes, n_parent_configs)``.

    The probability a smoothed table gives a value it never saw; used for a
    code beyond the cardinality known at ``fit``.
    """
    r = counts.shape[-1]
    den = counts.sum(axis=-1) + alpha * r
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(alpha) - np.log(den)
    out[den == 0] = -np.log(r)
    return out


def node_tables(structure: Structure, X: np.ndarray, y: np.ndarray,
                cardinalities: Sequence[int], n_classes: int, alpha: float = 1.0,
                sample_weight: np.ndarray | None = None) -> list[np.ndarray]:
    """Log-probability table of every node, smoothed with additive ``alpha``."""
    return [log_table(c, alpha)
            for c in counts(structure, X, y, cardinalities, n_classes, sample_weight)]


def class_log_prior(y: np.ndarray, n_classes: int, alpha: float = 1.0,
                    sample_weight: np.ndarray | None = None) -> np.ndarray:
    """``log((N(c) + alpha) / (N + alpha * n_classes))``: the smoothed class prior."""
    n_c = np.bincount(np.asarray(y, dtype=np.int64), weights=sample_weight,
                      minlength=n_classes).astype(np.float64)
    return log_table(n_c[None, None, :], alpha)[0, 0]
