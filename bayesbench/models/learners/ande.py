"""Averaged n-dependence estimators (AnDE): A1DE (AODE) and A2DE, from counts.

Webb, Boughton, Zheng, Ting and Salem (2012), "Learning by extrapolation from marginal to
full-multivariate probability distributions: decreasingly naive Bayesian classification",
Machine Learning 86, 233-272; Weka's AnDE package (A1DE, A2DE). Subsumption resolution:
Zheng and Webb (2006), "Efficient lazy elimination for averaged one-dependence
estimators", ICML 2006, 1113-1120.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from numbers import Integral

import numpy as np
from scipy.special import logsumexp

from ..core.base import fresh_fit
from ..core.constraints import Interval
from ..core.input_checks import start_discrete_fit
from ...measures.codes import check_table_size, compact_codes
from ...measures.information import pair_count_matrix, value_offsets
from .aode import AODE


class ANDE(AODE):
    """Averaged n-dependence estimators, ``n`` = 1 (AODE) or 2 (A2DE).

    Every set ``s`` of ``n`` attributes whose values in the example were seen together at
    least ``min_frequency`` times in training is the super-parent set of one
    n-dependence estimator, and their joint probabilities are averaged::

        p(c, x) = 1/|S| sum_{s in S} p(c, x_s) prod_{t not in s} p(x_t | c, x_s)

    (Webb et al. 2012, eq. 14). With no eligible pair A2DE falls back to A1DE over the
    same example, and A1DE to naive Bayes, as Weka's AnDE package does. Probabilities
    are smoothed with ``alpha`` pseudo-counts per cell, as :class:`~.aode.AODE` smooths
    them: ``p(c, x_i, x_j) = (N(c, x_i, x_j) + alpha) / (N_ij + alpha K r_i r_j)`` and
    ``p(x_t | c, x_i, x_j) = (N(c, x_i, x_j, x_t) + alpha) / (N(c, x_i, x_j) + alpha r_t)``,
    counts taken over the rows where the attributes involved are present. A missing value
    (or a code beyond the cardinality known at ``fit``) leaves its attribute out of the
    super-parents and of every product. ``n = 1`` is :class:`~.aode.AODE` to the last bit.

    Subsumption resolution (Zheng and Webb 2006; Weka's ``-S``): with ``subsumption = l``,
    an attribute value ``x_i`` is dropped from the example (as a missing value is) when
    some other value ``x_j`` of it, seen more than ``l`` times, was never seen without
    ``x_i`` (``N(x_i, x_j) = N(x_j)``: ``x_i`` generalises ``x_j``); of two values that
    always occur together, the one of the lower attribute index is kept.

    Parameters
    ----------
    n : {1, 2}, default 2
        Super-parents per estimator.
    alpha : float, default 1.0
        Pseudo-count per cell.
    min_frequency : int, default 1
        Minimum training frequency of a super-parent set's values (Weka's ``-F``).
    subsumption : int or None, default None
        The frequency ``l`` above which a specialisation drops its generalisations
        (Zheng and Webb used 100, Weka's ``-S`` default); None: off.

    Attributes
    ----------
    As :class:`~.aode.AODE` (the A1DE tables, the fallback), and for ``n = 2``:
    pair_tables_ : ndarray of shape (cells of all pairs, n_classes)
        ``log p(c, x_i = a, x_j = b)`` of every pair ``i < j``, pair by pair in the
        order of :attr:`layout_`, each block row-major over ``(a, b)``.
    pair_cell_frequency_ : ndarray
        ``N(x_i = a, x_j = b)`` in the same layout.
    triple_tables_ : ndarray of shape (3 F + 1, n_classes padded)
        ``log p(x_t | c, x_i, x_j)`` of every triple ``i < j < t`` (``F`` cells) with the
        child the last, middle and first attribute of the triple, then one row of zeros
        (the term of a missing child).
    pair_frequency_ : ndarray of shape (R, R)
        ``N(x_i = a, x_j = b)`` at ``[s_i + a, s_j + b]``, for subsumption resolution.
    layout_ : Layout
        Where each pair's and triple's cells start.
    """

    _parameter_constraints = {**AODE._parameter_constraints,
                              "n": [Interval(Integral, 1, 2, closed="both")],
                              "subsumption": [None, Interval(Integral, 0, None, closed="left")]}

    def __init__(self, *, n: int = 2, alpha: float = 1.0, min_frequency: int = 1,
                 subsumption: int | None = None):
        super().__init__(alpha=alpha, min_frequency=min_frequency)
        self.n = n
        self.subsumption = subsumption

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k = len(self.classes_)
        # Counted first: a triple table over the limit is refused before any other work.
        triples = triple_counts(X, codes, cards, k) if int(self.n) == 2 else None
        self._set_tables(pair_count_matrix(X, codes, cards, k), np.bincount(codes, minlength=k),
                         cards, names)
        self._set_triple_tables(triples)
        return self

    def _fit_statistics(self, stats):
        # The whole data set's triple counts (counted once) minus the test part's.
        triples = stats.tally(triple_counts) if int(self.n) == 2 else None
        super()._fit_statistics(stats)
        self._set_triple_tables(triples)

    def _set_tables(self, pairs, class_counts, cards, names):
        super()._set_tables(pairs, class_counts, cards, names)
        self.pair_frequency_ = pairs.sum(axis=0)
        self.structure_ = replace(self.structure_, info={
            **self.structure_.info, "learner": "ande", "n": int(self.n),
            "subsumption": self.subsumption})
        if int(self.n) == 2:
            self.layout_ = Layout.of(np.asarray(cards, dtype=np.int64))
            self.pair_tables_, self.pair_cell_frequency_ = _pair_log_tables(
                pairs, self.layout_, float(self.alpha))

    def _set_triple_tables(self, triples):
        if triples is not None:
            self.triple_tables_ = _triple_log_tables(
                np.asarray(triples, dtype=np.float64), self.layout_, float(self.alpha))

    def _averaged_log_likelihood(self, X) -> np.ndarray:
        if self.subsumption is not None:
            X = self._resolve_subsumption(X)
        if int(self.n) == 1:
            return super()._averaged_log_likelihood(X)
        n, k = X.shape[0], len(self.classes_)
        jll = np.empty((n, k))
        count = np.empty(n, dtype=np.int64)
        layout = self.layout_
        # Rows at a time: each takes 3 T indices and P x classes scores.
        step = max(1, _BLOCK // max(1, 3 * len(layout.triples) + 4 * len(layout.pairs)))
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            jll[lo:hi], count[lo:hi] = self._average_pairs(X[lo:hi])
        none = count == 0
        if none.any():
            # No eligible pair: A1DE over the same example (and its naive Bayes fallback).
            jll[none] = super()._averaged_log_likelihood(X[none])
        return jll

    def _average_pairs(self, X):
        """``log (1/|S| sum_{(i, j) in S} p(c, x_i, x_j) prod_t p(x_t | c, x_i, x_j))`` and
        ``|S|`` per row. Each child position is one gather for all pairs at once."""
        cards, layout = self.cardinalities_, self.layout_
        present = (X >= 0) & (X < cards)
        codes = np.where(present, X, 0).astype(np.int64)
        first, second = layout.pairs.T
        cell = layout.pair_offsets + codes[:, first] * cards[second] + codes[:, second]
        scores = self.pair_tables_.take(cell, axis=0)                  # (rows, pairs, K)
        if len(layout.triples):
            terms = np.empty_like(scores)
            roles = layout.role_cells(codes, present)
            for column in layout.children.T:
                scores += self.triple_tables_.take(roles[:, column], axis=0, out=terms,
                                                   mode="clip")
        eligible = (present[:, first] & present[:, second]
                    & (self.pair_cell_frequency_.take(cell) >= self.min_frequency))
        scores[~eligible] = -np.inf
        count = eligible.sum(axis=1)
        with np.errstate(divide="ignore"):
            return (logsumexp(scores[:, :, :len(self.classes_)], axis=1)
                    - np.log(np.maximum(count, 1))[:, None], count)

    def _resolve_subsumption(self, X):
        """``X`` with every generalised value made missing (see the class docstring)."""
        cards = self.cardinalities_
        m = cards.size
        starts = value_offsets(cards)[:-1]
        frequency = self.class_value_counts_.sum(axis=0)
        lower = np.arange(m)[:, None] < np.arange(m)[None, :]
        other = ~np.eye(m, dtype=bool)
        out = np.array(X, copy=True)
        step = max(1, _BLOCK // max(1, m * m))
        for lo in range(0, out.shape[0], step):
            block = out[lo:lo + step]
            present = (block >= 0) & (block < cards)
            slot = np.where(present, block, 0) + starts
            single = frequency[slot]                                # N(x_i), (rows, m)
            joint = self.pair_frequency_[slot[:, :, None], slot[:, None, :]]
            special = single[:, None, :]                            # N(x_j) at [r, i, j]
            general = (present[:, :, None] & present[:, None, :] & other
                       & (special > self.subsumption) & (joint == special)
                       & ~((special == single[:, :, None]) & lower))
            block[general.any(axis=2)] = -1
        return out


# Indices (or scores) held at a time by prediction and counting: 8 MiB of int64.
_BLOCK = 2 ** 20


@dataclass(frozen=True)
class Layout:
    """Where the cells of each attribute pair and triple lie in A2DE's flat tables.

    Pairs ``i < j`` and triples ``i < j < t`` are in colexicographic order (a pair's
    index is ``C(j, 2) + i``, a triple's ``C(t, 3) + C(j, 2) + i``); a block's cells are
    row-major over the attributes' values. ``children[p]`` lists, for pair ``p``, the row
    of :meth:`role_cells` holding each other attribute's term: its triple's index plus
    ``T`` times its role (0: it is the triple's last attribute, 1: the middle, 2: the
    first).
    """

    cards: np.ndarray
    pairs: np.ndarray
    pair_offsets: np.ndarray
    triples: np.ndarray
    triple_offsets: np.ndarray
    cells: int
    children: np.ndarray

    @classmethod
    def of(cls, cards: np.ndarray) -> "Layout":
        m = cards.size
        pairs = _colex(m, 2)
        triples = _colex(m, 3)
        pair_sizes = cards[pairs].prod(axis=1) if len(pairs) else np.zeros(0, np.int64)
        sizes = cards[triples].prod(axis=1) if len(triples) else np.zeros(0, np.int64)
        # The other attributes of each pair, and where their terms lie.
        others = np.broadcast_to(np.arange(m), (len(pairs), m))
        others = others[(others != pairs[:, :1]) & (others != pairs[:, 1:])].reshape(
            len(pairs), max(m - 2, 0))
        members = np.sort(np.stack([np.broadcast_to(pairs[:, :1], others.shape),
                                    np.broadcast_to(pairs[:, 1:], others.shape), others]),
                          axis=0)
        role = np.where(others == members[2], 0, np.where(others == members[1], 1, 2))
        children = _colex_index(members) + len(triples) * role
        return cls(cards, pairs, _starts(pair_sizes), triples, _starts(sizes),
                   int(sizes.sum()), children)

    def triple_cells(self, codes: np.ndarray) -> np.ndarray:
        """Each row's cell of every triple, ``(rows, T)``; ``codes`` all valid."""
        a, b, c = self.triples.T
        cards = self.cards
        return self.triple_offsets + (codes[:, a] * cards[b] + codes[:, b]) * cards[c] + codes[:, c]

    def role_cells(self, codes: np.ndarray, present: np.ndarray) -> np.ndarray:
        """Each row's row of the triple tables for every triple and role, ``(rows, 3 T)``:
        the zero row ``3 F`` where that role's child is missing."""
        cell = self.triple_cells(codes)
        a, b, c = self.triples.T
        F, zero = self.cells, 3 * self.cells
        return np.concatenate([np.where(present[:, c], cell, zero),
                               np.where(present[:, b], cell + F, zero),
                               np.where(present[:, a], cell + 2 * F, zero)], axis=1)

    def cell_coordinates(self):
        """Per triple cell: the triple, and the values of its three attributes."""
        sizes = np.diff(np.append(self.triple_offsets, self.cells))
        triple = np.repeat(np.arange(len(self.triples)), sizes)
        local = np.arange(self.cells) - self.triple_offsets[triple]
        ra, rb, rc = (self.cards[self.triples[triple, k]] for k in range(3))
        return triple, local // (rb * rc), local // rc % rb, local % rc, (ra, rb, rc)


def _colex(m: int, size: int) -> np.ndarray:
    """Every ``size``-subset of ``range(m)`` as sorted rows, in colexicographic order."""
    rows = np.array(list(itertools.combinations(range(m), size)), dtype=np.int64)
    rows = rows.reshape(-1, size)
    return rows[np.argsort(_colex_index(rows.T), kind="stable")]


def _colex_index(members) -> np.ndarray:
    """Colexicographic rank of sorted subsets given as ``members[0] < members[1] < ...``."""
    members = [np.asarray(v, dtype=np.int64) for v in members]
    rank = np.zeros(np.broadcast(*members).shape, dtype=np.int64)
    for size, v in enumerate(members, start=1):
        term = np.ones_like(v)
        for k in range(size):
            term = term * (v - k)
        rank = rank + term // int(np.prod(np.arange(1, size + 1)))
    return rank


def _starts(sizes: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)


def triple_counts(X, y, cardinalities, n_classes) -> np.ndarray:
    """``N(c, x_i = a, x_j = b, x_t = d)`` of every triple ``i < j < t``, int64, shape
    ``(F, n_classes)`` in the layout of :class:`Layout`; a row missing one of the three
    values is left out of that triple's counts.

    Refuses (:class:`~bayesbench.measures.codes.TableTooLarge`) when the three tables of
    log-probabilities A2DE makes of them would pass the table limit.
    """
    cards = np.asarray(cardinalities, dtype=np.int64)
    layout = Layout.of(cards)
    check_table_size((3, n_classes, layout.cells), range(cards.size))
    X = compact_codes(np.asarray(X), cards)
    y = np.asarray(y, dtype=np.int64)
    out = np.zeros(layout.cells * n_classes, dtype=np.int64)
    T = len(layout.triples)
    if T == 0:
        return out.reshape(-1, n_classes)
    ends = np.append(layout.triple_offsets[1:], layout.cells)
    rows = max(1, min(X.shape[0], _BLOCK))
    for lo in range(0, X.shape[0], rows):
        block = X[lo:lo + rows]
        present = (block >= 0) & (block < cards)
        codes = np.where(present, block, 0).astype(np.int64)
        labels = y[lo:lo + rows, None]
        # Triples at a time, so that each bincount covers only their cells.
        width = max(1, _BLOCK // block.shape[0])
        for first in range(0, T, width):
            part = slice(first, min(T, first + width))
            a, b, c = layout.triples[part].T
            base = int(layout.triple_offsets[first]) * n_classes
            index = ((layout.triple_offsets[part] + (codes[:, a] * cards[b] + codes[:, b])
                      * cards[c] + codes[:, c]) * n_classes + labels - base)
            keep = present[:, a] & present[:, b] & present[:, c]
            size = (int(ends[part.stop - 1]) - int(layout.triple_offsets[first])) * n_classes
            out[base:base + size] += np.bincount(index[keep], minlength=size)
    return out.reshape(-1, n_classes)


def _pair_log_tables(pairs, layout: Layout, alpha: float):
    """``log p(c, x_i = a, x_j = b)`` of every pair's cells, ``(cells, K)``, and each
    cell's frequency ``N(x_i = a, x_j = b)``, from the pair counts ``(K, R, R)``."""
    cards = layout.cards
    starts = value_offsets(cards)
    k = pairs.shape[0]
    sizes = cards[layout.pairs].prod(axis=1) if len(layout.pairs) else np.zeros(0, np.int64)
    pair = np.repeat(np.arange(len(layout.pairs)), sizes)
    local = np.arange(int(sizes.sum())) - layout.pair_offsets[pair]
    first, second = layout.pairs[pair, 0], layout.pairs[pair, 1]
    counts = pairs[:, starts[first] + local // cards[second],
                   starts[second] + local % cards[second]].T        # (cells, K)
    frequency = counts.sum(axis=1)
    cells = k * sizes[pair]
    den = np.bincount(pair, weights=frequency, minlength=len(layout.pairs))[pair] + alpha * cells
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(counts + alpha) - np.log(den)[:, None]
    empty = den == 0
    out[empty] = -np.log(cells[empty])[:, None]
    return _padded(out), frequency


def _triple_log_tables(counts, layout: Layout, alpha: float) -> np.ndarray:
    """The three conditional tables of every triple (see :attr:`ANDE.triple_tables_`), from
    its counts ``(F, K)``, each smoothed as
    :func:`~bayesbench.models.core.counting.log_table` smooths a table."""
    F, k = counts.shape
    triple, ua, ub, uc, (ra, rb, rc) = layout.cell_coordinates()
    flat = np.arange(F)
    out = np.zeros((3 * F + 1, k))
    # Each role's denominator cells share the index of the first cell of their group.
    for role, (group, r) in enumerate([(flat - uc, rc), (flat - ub * rc, rb),
                                       (flat - ua * rb * rc, ra)]):
        index = (group[:, None] * k + np.arange(k)).ravel()
        den = np.bincount(index, weights=counts.ravel(), minlength=F * k).reshape(F, k)
        den = den[group] + alpha * r[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            table = np.log(counts + alpha) - np.log(den)
        empty = den == 0
        table[empty] = -np.broadcast_to(np.log(r)[:, None], table.shape)[empty]
        out[role * F:(role + 1) * F] = table
    return _padded(out)


def _padded(table: np.ndarray) -> np.ndarray:
    """The class axis padded to 1, 2 or 4 entries when shorter (zeros): a gathered row of
    8, 16 or 32 bytes is the fastest for numpy's ``take`` (as :class:`~.aode.AODE` does)."""
    k = table.shape[1]
    padded = next((p for p in (1, 2, 4) if k <= p), k)
    if padded == k:
        return table
    out = np.zeros((table.shape[0], padded))
    out[:, :k] = table
    return out
