"""Information measures between attributes given the class, from counts.

Pure functions over the counts ``N(c, a, b)`` of every attribute pair (one
``np.bincount`` per pair over a combined index, no loop over rows). Rows with a
missing value in either attribute of a pair are left out of that pair only.
Logarithms are natural (nats).

- :func:`conditional_mutual_information`: Chow-Liu / Friedman weight (Zhang
  2005, Eq. 15)::

      I(Xi; Xj | C) = sum p(xi, xj, c) ln [ p(xi, xj | c) / (p(xi | c) p(xj | c)) ]

- :func:`ddr_information`: Zhang's dependence-distribution weight I_D (Eq. 17,
  two classes; Eq. 18-19, several), see its docstring.
- :func:`mutual_information_with_class`: ``I(Xi; C)`` of each attribute (kDB's order).
"""
from __future__ import annotations

from typing import Callable, Iterator, Sequence

import numpy as np

from .counting import check_table_size, clean_columns, compact_codes


def _slotted_columns(X, cards):
    """Columns in a compact dtype, a missing or unknown value moved to an extra slot ``card``.

    Returns the columns and each column's width (``card``, or ``card + 1``
    when it needed the slot).
    """
    X = compact_codes(X, cards)
    clean = clean_columns(X, cards)
    cols, widths = [], []
    for j in range(X.shape[1]):
        col, card = X[:, j], int(cards[j])
        if not clean[j]:
            col = np.where((col < 0) | (col >= card), card, col).astype(X.dtype)
        cols.append(col)
        widths.append(card + (not clean[j]))
    return cols, widths


def pair_counts(X: np.ndarray, y: np.ndarray, cards: Sequence[int],
                n_classes: int) -> Iterator[tuple[int, int, np.ndarray]]:
    """Yield ``(i, j, N)`` for every pair ``i < j``, ``N`` of shape ``(n_classes, r_i, r_j)``."""
    cards = np.asarray(cards, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    cols, widths = _slotted_columns(X, cards)
    for i in range(len(cols)):
        wi, ri = widths[i], int(cards[i])
        base = y * wi
        base += cols[i]
        for j in range(i + 1, len(cols)):
            wj, rj = widths[j], int(cards[j])
            check_table_size((wi, wj, n_classes), (i, j))
            index = base * wj
            index += cols[j]
            n = np.bincount(index, minlength=n_classes * wi * wj)
            yield i, j, n.reshape(n_classes, wi, wj)[:, :ri, :rj].astype(np.float64)


def cmi_from_counts(n: np.ndarray) -> float:
    """``I(Xi; Xj | C)`` from counts ``N(c, a, b)`` (empirical probabilities)."""
    total = n.sum()
    if total == 0:
        return 0.0
    n_c = n.sum(axis=(1, 2), keepdims=True)
    n_ca = n.sum(axis=2, keepdims=True)
    n_cb = n.sum(axis=1, keepdims=True)
    nz = n > 0
    ratio = (n * n_c)[nz] / (n_ca * n_cb)[nz]
    return float(np.sum(n[nz] * np.log(ratio)) / total)


def ddr_from_counts(n: np.ndarray, alpha: float = 1.0) -> float:
    """Zhang's ``I_D(Xi, Xj | C)`` from counts ``N(c, a, b)``.

    With ``l_c(a, b) = ln [ p(a | b, c) / p(a | c) ] = ln [ p(a, b | c) / (p(a | c) p(b | c)) ]``
    (the local dependence derivative of Xi with parent Xj in class c)::

        I_D = sum_{a, b} p(a, b) sum_c (l_c(a, b) - mean_c l_c(a, b))^2

    For two classes ``sum_c (l_c - mean)^2 = (l_+ - l_-)^2 / 2``, so this is
    Eq. 17 halved, and gives the same spanning tree. Eq. 19 of the paper
    averages over all ``a, b, c`` (a constant); read literally it would not
    measure how the dependence is *distributed over the classes* at ``(a, b)``,
    which is what Eq. 17 and the text describe, so the average is taken over
    the classes at each cell. ``p(a, b | c)`` is smoothed with ``alpha``
    pseudo-counts per cell (its marginals are sums of the smoothed joint) so
    that every logarithm is finite; with ``alpha = 0`` cells whose ratio is 0
    or undefined in some class are left out.
    """
    total = n.sum()
    if total == 0:
        return 0.0
    k, ra, rb = n.shape
    joint = n + alpha
    norm = joint.sum(axis=(1, 2), keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_ab = joint / norm
        p_a = p_ab.sum(axis=2, keepdims=True)
        p_b = p_ab.sum(axis=1, keepdims=True)
        ld = np.log(p_ab) - np.log(p_a) - np.log(p_b)
        ok = np.all(np.isfinite(ld), axis=0)
        spread = ((ld - ld.mean(axis=0, keepdims=True)) ** 2).sum(axis=0)
    w = n.sum(axis=0) / total
    return float(np.sum(w[ok] * spread[ok]))


def _pair_matrix(measure: Callable[[np.ndarray], float], X, y, cards, n_classes) -> np.ndarray:
    m = X.shape[1]
    out = np.zeros((m, m))
    for i, j, n in pair_counts(X, y, cards, n_classes):
        out[i, j] = out[j, i] = measure(n)
    return out


def conditional_mutual_information_matrix(X: np.ndarray, y: np.ndarray, cards: Sequence[int],
                                          n_classes: int) -> np.ndarray:
    """Symmetric ``(m, m)`` matrix of ``I(Xi; Xj | C)``, zero diagonal."""
    return _pair_matrix(cmi_from_counts, X, y, cards, n_classes)


def ddr_information_matrix(X: np.ndarray, y: np.ndarray, cards: Sequence[int],
                           n_classes: int, alpha: float = 1.0) -> np.ndarray:
    """Symmetric ``(m, m)`` matrix of Zhang's ``I_D(Xi, Xj | C)`` (see :func:`ddr_from_counts`)."""
    return _pair_matrix(lambda n: ddr_from_counts(n, alpha), X, y, cards, n_classes)


def mutual_information_with_class(X: np.ndarray, y: np.ndarray, cards: Sequence[int],
                                  n_classes: int) -> np.ndarray:
    """``I(Xi; C)`` of each attribute, rows missing Xi left out, shape ``(m,)``."""
    cards = np.asarray(cards, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    cols, widths = _slotted_columns(X, cards)
    out = np.zeros(len(cols))
    for j, (col, w) in enumerate(zip(cols, widths)):
        check_table_size((w, n_classes), (j,))
        index = y * w
        index += col
        n = np.bincount(index, minlength=n_classes * w).reshape(n_classes, w)
        # I(X; C) is I(X; C | constant): reuse the conditional form with one "class".
        out[j] = cmi_from_counts(n[None, :, :int(cards[j])].astype(np.float64))
    return out
