"""Information measures between attributes given the class, from counts.

Pure functions over the counts ``N(c, a, b)`` of every attribute pair (all
pairs counted at once as a one-hot Gram matrix when the attributes have few
values, else one ``np.bincount`` per pair over a combined index; no loop over
rows). Rows with a missing value in either attribute of a pair are left out of
that pair only.
Logarithms are natural (nats).

- :func:`conditional_mutual_information`: Chow-Liu / Friedman weight (Zhang
  2005, Eq. 15)::

      I(Xi; Xj | C) = sum p(xi, xj, c) ln [ p(xi, xj | c) / (p(xi | c) p(xj | c)) ]

- :func:`ddr_information`: Zhang's dependence-distribution weight I_D (Eq. 17,
  two classes; Eq. 18-19, several), see its docstring.
- :func:`mutual_information_with_class`: ``I(Xi; C)`` of each attribute (kDB's order).
"""
from __future__ import annotations

import functools
import itertools
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from .codes import (check_all_pairs, check_table_size, clean_columns, code_dtype,
                    compact_codes, current_table_limit)


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
    """Yield ``(i, j, N)`` for every pair ``i < j``, ``N`` of shape ``(n_classes, r_i, r_j)``.

    Counted as :func:`pair_count_matrix` counts (a block of attributes at a time) when
    the attributes have few values (:func:`gram_pays`), else one ``bincount`` per pair.
    """
    clean = clean_columns(np.asarray(X), cards)
    widths = _pair_widths(clean, cards)
    check_all_pairs(widths, n_classes, square=False)
    if gram_pays(cards):
        _check_pair_tables(widths, n_classes)
        starts = value_offsets(cards)
        for lo, hi, counts in _count_blocks(X, y, cards, n_classes, clean):
            first = int(starts[lo])
            for i in range(lo, hi):
                a = slice(int(starts[i]) - first, int(starts[i + 1]) - first)
                for j in range(i + 1, len(starts) - 1):
                    yield i, j, np.ascontiguousarray(
                        counts[:, a, int(starts[j]) - first:int(starts[j + 1]) - first])
        return
    yield from _bincount_pairs(X, y, cards, n_classes)


def _bincount_pairs(X, y, cards, n_classes):
    """:func:`pair_counts`, one ``bincount`` per pair over a combined index."""
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


def pair_count_matrix(X: np.ndarray, y: np.ndarray, cards: Sequence[int],
                      n_classes: int) -> np.ndarray:
    """``N(c, x_i = a, x_j = b)`` of every pair of attribute values, as one array.

    Shape ``(n_classes, R, R)``, ``R`` the sum of the cardinalities; value ``a``
    of attribute ``i`` is row and column ``s_i + a``, ``s_i`` the sum of the
    cardinalities before ``i`` (:func:`value_offsets`). Symmetric; block ``(i, i)``
    holds ``N(c, x_i = a)`` on its diagonal. A row missing (or holding an unknown
    code in) either attribute of a pair is left out of that pair only.

    All pairs are counted at once as a Gram matrix: with ``O`` the one-hot
    coding of the rows of class ``c`` (one column per attribute value; a
    missing or unknown value sets none), ``O^T O`` holds every count. A matrix
    product runs at BLAS speed where a bincount per pair makes ``m (m - 1) / 2``
    passes over the rows. ``O`` is coded without the last value of each
    attribute that is never missing, and with a column of ones: that value's
    column is ones minus the attribute's other columns, so the counts are
    ``E^T (O'^T O') E`` for a small matrix ``E`` of 0 and +-1, and the product
    over rows shrinks by about a half. Products are taken in float32 over
    blocks of at most 16,384 rows (every partial sum an integer float32 holds
    exactly) and summed in float64, where the expansion is exact too. When the
    attributes have many values the one-hot product costs more than it saves
    (:func:`gram_pays`), and the blocks come from :func:`pair_counts` instead.
    """
    check_all_pairs(cards, n_classes, square=True)  # `out` below: the pairs' tables at once
    clean = clean_columns(np.asarray(X), cards)
    _check_pair_tables(_pair_widths(clean, cards), n_classes)
    starts = value_offsets(cards)
    out = np.zeros((n_classes, starts[-1], starts[-1]))
    if gram_pays(cards):
        for lo, hi, counts in _count_blocks(X, y, cards, n_classes, clean):
            rows, first = slice(int(starts[lo]), int(starts[hi])), int(starts[lo])
            out[:, rows, first:] = counts
            out[:, first:, rows] = counts.transpose(0, 2, 1)
        return out
    for i, j, counts in _bincount_pairs(X, y, cards, n_classes):
        out[:, starts[i]:starts[i + 1], starts[j]:starts[j + 1]] = counts
        out[:, starts[j]:starts[j + 1], starts[i]:starts[i + 1]] = counts.transpose(0, 2, 1)
    cols, widths = _slotted_columns(X, np.asarray(cards, dtype=np.int64))
    y = np.asarray(y, dtype=np.int64)
    for i, (col, w) in enumerate(zip(cols, widths)):
        n = np.bincount(y * w + col, minlength=n_classes * w).reshape(n_classes, w)
        block = out[:, starts[i]:starts[i + 1], starts[i]:starts[i + 1]]
        block[:, np.arange(int(cards[i])), np.arange(int(cards[i]))] = n[:, :int(cards[i])]
    return out


def value_offsets(cards: Sequence[int]) -> np.ndarray:
    """``s_i``, the offset of attribute ``i``'s values among all values (the layout of
    :func:`pair_count_matrix`), for each attribute, with the number of all values last."""
    out = np.zeros(len(cards) + 1, dtype=np.int64)
    np.cumsum(cards, out=out[1:])
    return out


#: One-hot columns per attribute (on average) up to which :func:`gram_pays`.
GRAM_MAX_WIDTH = 8


def gram_pays(cards: Sequence[int]) -> bool:
    """Whether all pairs are counted faster as one-hot Gram matrices than by a ``bincount``
    per pair: the product costs about ``R^2`` operations per row (``R`` the number of
    values), the bincounts about ``m^2`` slower ones, so the product wins while the
    attributes have few values each (about :data:`GRAM_MAX_WIDTH` on average)."""
    return len(cards) > 1 and int(np.sum(cards)) <= GRAM_MAX_WIDTH * len(cards)


def _pair_widths(clean, cards) -> np.ndarray:
    """Each attribute's values in a pair's table: its cardinality, plus one slot for a
    missing or unknown value when it has one (``clean`` False, :func:`~.codes.clean_columns`)."""
    return np.asarray(cards, dtype=np.int64) + ~clean


def _check_pair_tables(widths, n_classes):
    """:func:`~.codes.check_table_size` of every pair's table (``widths`` values each,
    :func:`_pair_widths`), first pair over the limit in pair order, before anything is
    allocated (as :func:`_bincount_pairs` checks them)."""
    widest = int(widths.max(initial=0))
    if widest * widest * n_classes <= current_table_limit():  # no pair is larger
        return
    cells = np.triu(np.outer(widths.astype(float), widths.astype(float)) * n_classes, k=1)
    # Float products only find the pairs near the limit; those are checked exactly.
    for i, j in zip(*np.nonzero(cells > 0.5 * current_table_limit())):
        check_table_size((int(widths[i]), int(widths[j]), n_classes), (int(i), int(j)))


def _count_blocks(X, y, cards, n_classes, clean):
    """Yield ``(lo, hi, N)``: the counts of attributes ``lo..hi-1``'s values against those of
    ``lo..m-1``, shape ``(n_classes, s_hi - s_lo, R - s_lo)``, blocks bounded in memory
    (``clean``: :func:`~.codes.clean_columns` of ``X``)."""
    cards = np.asarray(cards, dtype=np.int64)
    y = np.asarray(y)
    m = cards.size
    starts = value_offsets(cards)
    # Rows taken in class order (a radix sort of small codes), a block of them coded at a
    # time, each class's rows in a block one product.
    small = y.size and y.dtype.kind in "iu" and 0 <= y.min() and y.max() <= 127
    order = np.argsort(y.astype(np.int8) if small else y.astype(np.int64), kind="stable")
    bounds = np.searchsorted(y[order], np.arange(n_classes + 1))
    X = np.asarray(X)
    coder = _OneHot(X.astype(code_dtype(X, cards), copy=False), cards, order, clean)
    for lo, hi in _attribute_blocks(cards, starts, n_classes):
        whole = lo == 0 and hi == m     # one product of the contiguous buffer
        left, right = coder.columns(lo, hi, whole), coder.columns(lo, m, whole)
        reduced = np.zeros((n_classes, left.size, right.size))
        # One BLAS thread: threads that spin-wait for a core another process holds
        # (two runner processes on two cores) made the products 8 times slower.
        with _blas().limit(limits=1, user_api="blas"):
            for at in range(int(bounds[0]), int(bounds[-1]), coder.rows):
                end = min(at + coder.rows, int(bounds[-1]))
                onehot = coder(at, end)
                for c in range(n_classes):
                    begin, stop = max(int(bounds[c]), at), min(int(bounds[c + 1]), end)
                    if begin >= stop:
                        continue
                    rows = onehot[:, begin - at:stop - at]
                    if whole:
                        reduced[c] += rows @ rows.T
                    else:
                        reduced[c] += rows[left] @ rows[right].T
            first = int(starts[lo])
            expand = coder.expand
            counts = ((expand if whole else expand[left])[:, first:starts[hi]].T @ reduced
                      @ (expand if whole else expand[right])[:, first:])
        yield lo, hi, counts


@functools.lru_cache(maxsize=64)
def _coding(cards: tuple, clean: tuple, dtype: str):
    """The layout of :class:`_OneHot`'s coding of attributes of ``cards`` values (``clean``
    ones missing no value), once per layout (the folds of a data set share one): each
    attribute's first column, ``expand``, each column's attribute and value (codes of
    ``dtype``). The arrays are read-only."""
    cards, clean = np.asarray(cards, dtype=np.int64), np.asarray(clean, dtype=bool)
    starts = value_offsets(cards)
    kept = cards - clean                              # values with a column, per attribute
    first = np.zeros(cards.size + 1, dtype=np.int64)
    np.cumsum(kept, out=first[1:])
    first += 1                                        # after the ones column
    width = int(first[-1])
    values = np.arange(int(starts[-1]))
    of = np.repeat(np.arange(cards.size), cards)      # each value's attribute
    place = values - starts[of]                       # its code
    own = place < kept[of]                            # has a column
    expand = np.zeros((width, int(starts[-1])))
    expand[(first[of] + place)[own], values[own]] = 1.0
    # The last value of a clean attribute: ones minus the attribute's other columns.
    expand[0, values[~own]] = 1.0
    others = own & clean[of]
    expand[(first[of] + place)[others], starts[of[others] + 1] - 1] = -1.0
    # Each column's attribute and value, after the ones column.
    attribute_of, value_of = of[own], place[own].astype(dtype)[:, None]
    for array in (first, expand, attribute_of, value_of):
        array.flags.writeable = False
    return first, expand, attribute_of, value_of


#: Memory of a block of one-hot rows, and of a block of counts.
_GRAM_BYTES = 64 << 20


@functools.cache
def _blas():
    # lazy: threadpoolctl reads the loaded libraries (about 25 ms), needed only to count
    from threadpoolctl import ThreadpoolController
    return ThreadpoolController()


def _attribute_blocks(cards, starts, n_classes):
    """Consecutive attribute ranges ``[lo, hi)`` whose counts against every later value fit in
    ``_GRAM_BYTES`` (at least one attribute each)."""
    m, lo, total = cards.size, 0, int(starts[-1])
    while lo < m:
        hi = lo + 1
        while hi < m and (n_classes * int(starts[hi + 1] - starts[lo])
                          * (total - int(starts[lo])) * 8 <= _GRAM_BYTES):
            hi += 1
        yield lo, hi
        lo = hi


class _OneHot:
    """float32 one-hot coding ``O'`` of blocks of the rows ``order`` of ``X``, transposed
    (one row per column of ``O'``, one column per row of ``X``), into one reused buffer.

    Columns of ``O'``: ones; then per attribute its values, without the last of an
    attribute that no row misses; a missing or unknown value sets none of its
    attribute's. ``expand`` (float64, one row per column, one column per attribute
    value) gives the full coding as ``O' @ expand``. Blocks of at most 16,384 rows (and
    :data:`_GRAM_BYTES`) bound the buffer's memory.
    """

    def __init__(self, X, cards, order, clean):
        self.X, self.order = X, order
        self.first, self.expand, self.attribute_of, self.value_of = _coding(
            tuple(cards.tolist()), tuple(clean.tolist()), X.dtype.str)
        self.width = int(self.first[-1])
        self.rows = int(max(1, min(16384, _GRAM_BYTES // (4 * self.width))))
        self.buffer = np.empty(self.rows * self.width, dtype=np.float32)

    def columns(self, lo, hi, whole=False):
        """The ones column and the columns of attributes ``lo`` to ``hi - 1`` (all: ``whole``)."""
        if whole:
            return np.arange(self.width)
        return np.r_[0, self.first[lo]:self.first[hi]]

    def __call__(self, lo, hi):
        """The coding of rows ``order[lo:hi]``, transposed: ``(width, hi - lo)``."""
        n, rows = hi - lo, self.order[lo:hi]
        # Attribute major: each attribute's codes of the block's rows are one row.
        codes = (np.ascontiguousarray(self.X.take(rows, axis=0).T) if self.X.flags.c_contiguous
                 else self.X.T.take(rows, axis=1))
        out = self.buffer[:n * self.width].reshape(self.width, n)
        out[0] = 1.0
        # Every column at once: its attribute's codes against its value, into float32.
        np.equal(codes.take(self.attribute_of, axis=0), self.value_of, out=out[1:],
                 casting="unsafe")
        return out


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


def cmi_from_counts_many(tables: list[np.ndarray]) -> list[float]:
    """:func:`cmi_from_counts` of each ``(C, A, B)`` table, equal to it to the last bit.

    The tables of one shape are computed together: every step is elementwise
    or a sum of integer counts (exact in any order), except the final sum over
    a table's cells, which is taken per table over its cells in order, as
    :func:`cmi_from_counts` takes it.
    """
    out = [0.0] * len(tables)
    by_shape: dict[tuple, list[int]] = {}
    for t, table in enumerate(tables):
        by_shape.setdefault(table.shape, []).append(t)
    for members in by_shape.values():
        n = np.stack([tables[t] for t in members]).astype(np.float64, copy=False)
        total = n.sum(axis=(1, 2, 3))
        n_c = n.sum(axis=(2, 3), keepdims=True)
        n_ca = n.sum(axis=3, keepdims=True)
        n_cb = n.sum(axis=2, keepdims=True)
        nz = n > 0
        ratio = (n * n_c)[nz] / (n_ca * n_cb)[nz]
        terms = n[nz] * np.log(ratio)
        # each table's terms a slice of them (np.split cost more than the sums)
        ends = [0, *np.cumsum(nz.reshape(len(members), -1).sum(axis=1)).tolist()]
        for p, t in enumerate(members):
            if total[p] != 0:
                out[t] = float(np.add.reduce(terms[ends[p]:ends[p + 1]]) / total[p])
    return out


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
    """Symmetric ``(m, m)`` matrix of ``I(Xi; Xj | C)``, zero diagonal (the pairs' tables
    computed together, :func:`cmi_from_counts_many`)."""
    return cmi_matrix_of(pair_counts(X, y, cards, n_classes), X.shape[1])


def cmi_matrix_of(tables: Iterable[tuple[int, int, np.ndarray]], m: int) -> np.ndarray:
    """Symmetric ``(m, m)`` matrix of :func:`cmi_from_counts` of each ``(i, j, N(c, a, b))``
    of ``tables``, zero elsewhere; the tables computed together in batches of bounded
    memory (:func:`cmi_from_counts_many`, equal to the one-table function to the last bit)."""
    out = np.zeros((m, m))
    pairs, cells = [], 0
    for pair in itertools.chain(tables, [None]):
        if pair is not None:
            pairs.append(pair)
            cells += pair[2].size
        # Batches of bounded memory: the pairs' tables are not all held at once.
        if pairs and (pair is None or cells >= _CMI_BATCH_CELLS):
            for (a, b, _), value in zip(pairs, cmi_from_counts_many([t for _, _, t in pairs])):
                out[a, b] = out[b, a] = value
            pairs, cells = [], 0
    return out


#: Cells of the tables :func:`conditional_mutual_information_matrix` computes together.
_CMI_BATCH_CELLS = 2 ** 22


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


# Weka's HNB and WAODE weigh their estimators with information in bits, computed from
# probabilities N / N_total, a term set to 0 when either side of its ratio is below 1e-6
# (their log2(x, y); Weka's Utils.SMALL). The products of two probabilities fall below it
# for rare classes and values: without the rule, HNB's class probabilities on splice's test
# half differ from Weka's by up to 0.08 on 48 % of the rows, so the measures keep it.
WEKA_SMALL = 1e-6


def _weka_terms(p: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``p log2(x / y)``, 0 where ``x`` or ``y`` is below :data:`WEKA_SMALL`."""
    keep = (x >= WEKA_SMALL) & (y >= WEKA_SMALL)
    out = np.zeros(np.broadcast_shapes(p.shape, x.shape, y.shape))
    ratio = np.broadcast_to(x, out.shape)[keep] / np.broadcast_to(y, out.shape)[keep]
    out[keep] = np.broadcast_to(p, out.shape)[keep] * (np.log(ratio) / np.log(2.0))
    return out


def weka_class_information(class_value_counts: np.ndarray, class_counts: np.ndarray,
                           cards: Sequence[int]) -> np.ndarray:
    """``I(X_i; C)`` in bits of each attribute as Weka's WAODE computes it, shape ``(m,)``.

    ``sum_{c, a} P(c, a) log2(P(c, a) / (P(c) P(a)))`` with every probability a count over
    all ``N`` rows (``class_value_counts`` ``N(c, x_i = a)`` in the layout of
    :func:`value_offsets`, ``class_counts`` ``N(c)``), a term 0 where ``P(c, a)`` or
    ``P(c) P(a)`` is below :data:`WEKA_SMALL`.
    """
    cards = np.asarray(cards, dtype=np.int64)
    n = float(np.sum(class_counts))
    if cards.size == 0 or n == 0:
        return np.zeros(cards.size)
    joint = class_value_counts / n                                    # (K, R)
    prior = (np.asarray(class_counts, dtype=np.float64) / n)[:, None]
    value = class_value_counts.sum(axis=0) / n
    terms = _weka_terms(joint, joint, prior * value[None, :])
    return np.add.reduceat(terms.sum(axis=0), value_offsets(cards)[:-1])


def weka_conditional_information_matrix(pairs: np.ndarray, class_counts: np.ndarray,
                                        cards: Sequence[int]) -> np.ndarray:
    """``I(X_i; X_j | C)`` in bits of every pair as Weka's HNB computes it, ``(m, m)``,
    zero diagonal.

    ``sum_{c, a, b} P(c, a, b) log2(P(c, a, b) P(c) / (P(c, a) P(c, b)))`` with every
    probability a count over all ``N`` rows (``pairs`` ``N(c, x_i = a, x_j = b)`` in the
    layout of :func:`pair_count_matrix`, its diagonal blocks the single counts;
    ``class_counts`` ``N(c)``), a term 0 where either product is below :data:`WEKA_SMALL`.
    """
    cards = np.asarray(cards, dtype=np.int64)
    m = cards.size
    n = float(np.sum(class_counts))
    if m == 0 or n == 0:
        return np.zeros((m, m))
    starts = value_offsets(cards)[:-1]
    joint = pairs / n                                                 # (K, R, R)
    prior = np.asarray(class_counts, dtype=np.float64) / n
    single = np.einsum("kii->ki", joint)                              # P(c, a)
    terms = _weka_terms(joint, joint * prior[:, None, None],
                        single[:, :, None] * single[:, None, :])
    out = np.add.reduceat(np.add.reduceat(terms.sum(axis=0), starts, axis=0), starts, axis=1)
    np.fill_diagonal(out, 0.0)
    return out
