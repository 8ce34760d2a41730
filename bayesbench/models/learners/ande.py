"""Averaged n-dependence estimators (AnDE): A1DE (AODE) and A2DE, from counts.

Webb, Boughton, Zheng, Ting and Salem (2012), "Learning by extrapolation from marginal to
full-multivariate probability distributions: decreasingly naive Bayesian classification",
Machine Learning 86, 233-272; Weka's AnDE package (A1DE, A2DE). Subsumption resolution:
Zheng and Webb (2006), "Efficient lazy elimination for averaged one-dependence
estimators", ICML 2006, 1113-1120.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from ..core.base import fresh_fit
from ..core.constraints import Interval, StrOptions
from ..core.input_checks import start_discrete_fit
from ...measures.codes import check_table_size, compact_codes
from ...measures.information import pair_count_matrix, value_offsets
from ..parameters.estimators import ESTIMATORS
from .aode import AODE


#: The entries of :data:`~bayesbench.models.parameters.estimators.ESTIMATORS` that AnDE's own
#: joint tables implement (HDP estimates of them are not; cll weighs the terms of one network,
#: not of an average of networks).
ANDE_ESTIMATORS = tuple(name for name in ESTIMATORS if name in ("laplace", "m"))


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
    estimator : {"laplace", "m"}, default "laplace"
        The choice of :mod:`~bayesbench.models.parameters.estimators` but ``hdp``.
        ``laplace``: ``alpha`` pseudo-counts per cell, as AODE. ``m``: Weka's AnDE
        package's m-estimates, every table (joint or conditional, A2DE's, its A1DE's and
        naive Bayes's) smoothed towards the uniform distribution with weight ``m``,
        ``(N + m / cells) / (N' + m)``.
    m : float, default 1.0
        The m-estimate's weight (Weka's ``-M``), for ``estimator="m"``.

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
                              "subsumption": [None, Interval(Integral, 0, None, closed="left")],
                              "estimator": [StrOptions(ANDE_ESTIMATORS)],
                              "m": [Interval(Real, 0, None, closed="neither")]}

    def __init__(self, *, n: int = 2, alpha: float = 1.0, min_frequency: int = 1,
                 subsumption: int | None = None, estimator: str = "laplace", m: float = 1.0):
        super().__init__(alpha=alpha, min_frequency=min_frequency)
        self.n = n
        self.subsumption = subsumption
        self.estimator = estimator
        self.m = m

    def _pseudo_count(self, cells):
        if self.estimator == "m":
            # The m-estimate towards the uniform distribution: (N + m / cells) / (N' + m).
            return float(self.m) / np.asarray(cells, dtype=np.float64)
        return float(self.alpha)

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
            self.layout_ = Layout.of(cards)
            self.pair_tables_, self.pair_cell_frequency_ = _pair_log_tables(
                pairs, self.layout_, self._pseudo_count)

    def _set_triple_tables(self, triples):
        if triples is not None:
            self.triple_tables_ = _child_log_tables(triples, self.layout_,
                                                    self._pseudo_count(self.cardinalities_))

    def _averaged_log_likelihood(self, X) -> np.ndarray:
        if self.subsumption is not None:
            X = self._resolve_subsumption(X)
        if int(self.n) == 1 or len(self.layout_.pairs) == 0:
            # A1DE, or fewer than two attributes: no pair to average over (A1DE's fallback).
            return super()._averaged_log_likelihood(X)
        n, k = X.shape[0], len(self.classes_)
        jll = np.empty((n, k))
        count = np.empty(n, dtype=np.int64)
        step = max(1, _ROWS // len(self.layout_.pairs))
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
        ``|S|`` per row.

        As :meth:`~.aode.AODE._average_spodes` does for single super-parents: each child
        attribute is one gather for all pairs at once, the scores laid out pair major.
        """
        cards, layout = self.cardinalities_, self.layout_
        present = np.ascontiguousarray(((X >= 0) & (X < cards)).T)   # (attributes, rows)
        codes = np.where(present, X.T, 0).astype(np.int64, order="C")
        cell = layout.pair_cells(codes)                              # (pairs, rows)
        scores = self.pair_tables_.take(cell, axis=0)                # (pairs, rows, K)
        # Where each child value's rows start; a missing child reads the zero rows.
        starts = value_offsets(cards)
        child = np.where(present, codes + starts[:-1, None], starts[-1]) * layout.cells
        # A run of pairs at a time, over every row: the run's part of the table (each
        # child value's rows of its pairs) and its buffers stay in the cache across the
        # children (a third less time than all pairs at once on kr-vs-kp and mushroom).
        run = max(1, _TERMS // X.shape[0])
        index = np.empty((min(run, cell.shape[0]), X.shape[0]), dtype=np.int64)
        terms = np.empty(index.shape + scores.shape[2:])
        for lo in range(0, cell.shape[0], run):
            part, pairs = scores[lo:lo + run], cell[lo:lo + run]
            size = pairs.shape[0]
            for t in range(cards.size):
                np.add(pairs, child[t], out=index[:size])
                part += self.triple_tables_.take(index[:size], axis=0, out=terms[:size],
                                                 mode="clip")
        eligible = (self.pair_cell_frequency_ >= self.min_frequency).take(cell)
        holes = layout.pairs_with(~present.all(axis=1))
        if holes.size:
            first, second = layout.pairs[holes].T
            eligible[holes] &= present[first] & present[second]
        if not eligible.all():
            scores[~eligible] = -np.inf
        count = eligible.sum(axis=0)
        # scipy's logsumexp, in place (the scores are ours): a fifth of predict was its copies.
        top = scores.max(axis=0)
        top[~np.isfinite(top)] = 0.0
        np.subtract(scores, top, out=scores)
        np.exp(scores, out=scores)
        with np.errstate(divide="ignore"):
            total = np.log(scores.sum(axis=0)) + top
        return total[:, :len(self.classes_)] - np.log(np.maximum(count, 1))[:, None], count

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


# Indices held at a time by counting: 8 MiB of int64.
_BLOCK = 2 ** 20
# Pair scores of the rows scored at a time (rows x pairs; each a class vector): past about
# a megabyte a block's arrays come from fresh pages each time, as AODE's comment says.
_ROWS = 2 ** 19
_TERMS = 2 ** 15
# Counting: codes counted by one bincount (int64, 512 KiB) and cells of its table, each
# at most, so that both stay in the cache; children counted jointly, at most _GROUP of
# them and _JOINT joint values; a joint table's cell summed out costs about _CELL_COST of
# a counted code (measured on kr-vs-kp and mushroom).
_INDEX = 2 ** 16
_TABLE = 2 ** 16
_GROUP = 8
_JOINT = 256
_CELL_COST = 0.15


@dataclass(frozen=True)
class Layout:
    """Where each attribute pair's values lie in A2DE's tables.

    Pairs ``i < j`` are in colexicographic order (pair ``(i, j)`` is number
    ``C(j, 2) + i``, so the pairs of the attributes below ``t`` come first: ``prefix[t]``
    values), each pair's ``r_i r_j`` values row-major from ``offsets[p]``: ``cells`` values
    in all. A table over a child value ``u`` (``s_t + d``, or ``R`` for a missing child) and
    a pair value ``v`` holds them at row ``u * cells + v``. The triple counts hold child
    ``t``'s values given the values of the pairs below it, ``(r_t, prefix[t])`` rows
    row-major from ``triple_offsets[t]``.
    """

    cards: np.ndarray
    pairs: np.ndarray
    bounds: np.ndarray
    prefix: np.ndarray
    triple_offsets: np.ndarray

    @property
    def offsets(self) -> np.ndarray:
        return self.bounds[:-1]

    @property
    def cells(self) -> int:
        return int(self.bounds[-1])

    @classmethod
    def of(cls, cards) -> "Layout":
        """The layout of ``cards``: one object per cardinalities (the folds of a data set
        share it; its arrays are read-only)."""
        return _layout(tuple(int(c) for c in cards))

    def pair_cells(self, codes: np.ndarray, scale: int = 1, shift=0) -> np.ndarray:
        """Each row's value of every pair times ``scale`` plus ``shift`` (a number or one
        per row), ``(pairs, rows)``, of ``codes`` ``(attributes, rows)``, all valid.

        Pair by pair of each second member ``j``: the value of ``(i, j)`` is
        ``offsets[C(j, 2)] + r_j (s_i + x_i) + x_j``, so its pairs read the values of the
        attributes below ``j`` as they lie, in two passes (no gather of a copy per pair).
        """
        out = np.empty((len(self.pairs), codes.shape[1]), dtype=np.int64)
        values = codes + value_offsets(self.cards)[:-1, None]
        for j in range(1, self.cards.size):
            pairs = slice(j * (j - 1) // 2, j * (j + 1) // 2)
            np.multiply(values[:j], self.cards[j] * scale, out=out[pairs])
            out[pairs] += (self.offsets[pairs.start] + codes[j]) * scale + shift
        return out

    def pairs_with(self, attributes: np.ndarray) -> np.ndarray:
        """The numbers of the pairs holding one of ``attributes`` (a mask of them)."""
        first, second = self.pairs.T
        return np.flatnonzero(attributes[first] | attributes[second])

    def cell_pairs(self) -> np.ndarray:
        """The pair of each pair value."""
        return np.repeat(np.arange(len(self.pairs)), np.diff(np.append(self.offsets,
                                                                       self.cells)))


@functools.lru_cache(maxsize=4)
def _layout(cards: tuple) -> Layout:
    cards = np.array(cards, dtype=np.int64).reshape(-1)
    m = cards.size
    pairs = np.array([(i, j) for j in range(m) for i in range(j)],
                     dtype=np.int64).reshape(-1, 2)
    sizes = cards[pairs[:, 0]] * cards[pairs[:, 1]]
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    t = np.arange(m)
    prefix = bounds[t * (t - 1) // 2]
    layout = Layout(cards, pairs, bounds, prefix,
                    np.concatenate([[0], np.cumsum(cards * prefix)]).astype(np.int64))
    for array in (cards, pairs, bounds, prefix, layout.triple_offsets):
        array.flags.writeable = False
    return layout


def triple_counts(X, y, cardinalities, n_classes) -> np.ndarray:
    """``N(c, x_i = a, x_j = b, x_t = d)`` of every triple ``i < j < t``, int64, shape
    ``(triple rows, n_classes)``: child ``t``'s value ``d`` given the value ``v`` of the pair
    ``(i, j)`` at row ``triple_offsets[t] + d prefix[t] + v`` (:class:`Layout`). A row
    missing one of the three values is left out of that triple's counts.

    Refuses (:class:`~bayesbench.measures.codes.TableTooLarge`) when A2DE's table of
    every child value given every pair value would pass the table limit.
    """
    cards = np.asarray(cardinalities, dtype=np.int64)
    layout = Layout.of(cards)
    R, k = int(cards.sum()), int(n_classes)
    check_table_size((k, R + 1, layout.cells), range(cards.size))
    X = compact_codes(np.asarray(X), cards)
    y = np.asarray(y, dtype=np.int64)
    out = np.zeros((int(layout.triple_offsets[-1]), k), dtype=np.int64)
    step = max(1, _BLOCK // max(1, len(layout.pairs)))
    for lo in range(0, X.shape[0], step):
        _count_block(out, layout, k, X[lo:lo + step], y[lo:lo + step])
    return out


def _count_block(out, layout: Layout, k: int, block, y):
    """Add the triple counts of the rows ``block`` (codes) of classes ``y`` to ``out``."""
    cards = layout.cards
    present = ((block >= 0) & (block < cards)).T                     # (attributes, rows)
    codes = np.where(present, block.T, 0).astype(np.int64)
    # Each row's pair value and class as one code, pairs major.
    pair_code = layout.pair_cells(codes, k, y)
    missing = ~present.all(axis=1)
    # The pairs with a member missing somewhere, and the rows where one is.
    holes = layout.pairs_with(missing)
    first, second = layout.pairs[holes].T
    gone = holes, ~(present[first] & present[second])
    # A missing child is the value r_t, one more value of the children that have one.
    slots = np.where(present, codes, cards[:, None])
    radix = cards + missing
    coded = _Coded(layout, k, pair_code, slots, radix, gone)
    for t0, t1 in _child_groups(layout, tuple(int(r) for r in radix), k, block.shape[0]):
        for pairs, children in _group_jobs(t0, t1):
            _count_pairs(out, coded, pairs, children)


class _Coded(NamedTuple):
    """A block of rows as :func:`_count_pairs` reads it: each pair's value and class as one
    code (``pair_code``, ``(pairs, rows)``), each child's value (``slots``, ``radix`` values,
    a missing one the last), and the pairs with a member missing in some row, and in which
    rows (``gone``)."""

    layout: Layout
    k: int
    pair_code: np.ndarray
    slots: np.ndarray
    radix: np.ndarray
    gone: tuple


def _group_jobs(t0: int, t1: int):
    """How the children ``t0 <= t < t1`` are counted as a group: ``(pairs, children)``,
    the children counted jointly given each pair of the range ``pairs`` (pair numbers).
    The pairs below ``t0`` for the whole group, then the pairs ``(i, j)`` of each member
    ``j`` for the members above ``j``: each triple once."""
    yield (0, t0 * (t0 - 1) // 2), range(t0, t1)
    for j in range(t0, t1 - 1):
        yield (j * (j - 1) // 2, j * (j + 1) // 2), range(j + 1, t1)


def _child_groups(layout: Layout, radix: tuple, k: int, n: int) -> list:
    """Consecutive children ``[t0, t1)`` counted together (:func:`_group_jobs`), for
    ``n`` rows and ``radix`` values per child (a missing value one more).

    Counting children jointly given a pair reads each row once for all of them instead of
    once per child, but its table has the product of their values' cells, summed out once
    per child: the groups of least total cost (:func:`_group_costs`), by dynamic
    programming over where the last group starts.
    """
    m = len(radix)
    reads, cells = _group_costs(tuple(int(c) for c in layout.cards), radix, k)
    cost = [0.0] * (m + 1)
    start = [0] * (m + 1)
    for t1 in range(3, m + 1):
        cost[t1] = math.inf
        for t0 in range(max(2, t1 - _GROUP), t1):
            work = cost[t0] + n * reads[t0, t1] + _CELL_COST * cells[t0, t1]
            if work < cost[t1]:
                cost[t1], start[t1] = work, t0
    groups, t1 = [], m
    while t1 > 2:
        groups.append((start[t1], t1))
        t1 = start[t1]
    return groups[::-1]


@functools.lru_cache(maxsize=4)
def _group_costs(cards: tuple, radix: tuple, k: int):
    """The cost of counting the children ``t0 <= t < t1`` as one group, at ``[t0, t1]``:
    the pairs read per row, and the joint tables' cells read (filled, then summed by
    :func:`_marginals`); infinite past :data:`_JOINT` joint values of two children or
    more (one child alone is always counted)."""
    m = len(radix)
    bounds = Layout.of(cards).bounds
    reads = np.zeros((m + 1, m + 1))
    cells = np.full((m + 1, m + 1), math.inf)
    for t0 in range(2, m):
        for t1 in range(t0 + 1, min(m, t0 + _GROUP) + 1):
            total = 0.0
            for (lo, hi), children in _group_jobs(t0, t1):
                shape = radix[children.start:children.stop]
                joint = math.prod(shape)
                if joint > _JOINT and len(children) > 1:
                    break
                filled = joint + 2 * sum(math.prod(shape[:q + 1]) for q in range(1, len(shape)))
                total += filled * int(bounds[hi] - bounds[lo]) * k
            else:
                reads[t0, t1] = (t1 - 1) * (t1 - 2) // 2
                cells[t0, t1] = total
    return reads, cells


def _count_pairs(out, coded: _Coded, pairs, children):
    """Add to ``out`` (:func:`triple_counts`) the counts of ``children``, each given the
    pairs numbered ``pairs``, of the rows ``coded``.

    The children's joint value and the pair's form one code per row and pair, counted by
    one ``bincount`` per run of pairs (a run's codes and table kept small enough for the
    cache); a row whose pair is incomplete is counted in one extra cell, dropped.
    """
    lo, hi = pairs
    if hi == lo:
        return
    layout, k, pair_code, slots, radix, gone = coded
    cards = layout.cards
    shape = tuple(int(r) for r in radix[children.start:children.stop])
    joint_size = math.prod(shape)
    joint = slots[children.start].copy()
    for t in children[1:]:
        joint *= radix[t]
        joint += slots[t]
    rows = pair_code.shape[1]
    while lo < hi:
        c_lo = int(layout.bounds[lo])
        # The run's end: its codes at most _INDEX, its joint table at most _TABLE cells.
        end = min(hi, lo + max(1, _INDEX // max(1, rows)), int(np.searchsorted(
            layout.bounds, c_lo + _TABLE // (joint_size * k), side="right")) - 1)
        end = max(end, lo + 1)
        c_hi = int(layout.bounds[end])
        width = (c_hi - c_lo) * k
        index = pair_code[lo:end] + (joint * width - c_lo * k)
        # A row missing a member of the pair: the extra cell.
        start, stop = np.searchsorted(gone[0], (lo, end))
        if stop > start:
            rows_of = gone[0][start:stop] - lo
            holed = index[rows_of]
            np.putmask(holed, gone[1][start:stop], joint_size * width)
            index[rows_of] = holed
        counts = np.bincount(index.ravel(), minlength=joint_size * width + 1)
        counts = counts[:joint_size * width].reshape(*shape, c_hi - c_lo, k)
        for t, marginal in zip(children, _marginals(counts, shape)):
            block = out[layout.triple_offsets[t]:layout.triple_offsets[t + 1]]
            block = block.reshape(int(cards[t]), int(layout.prefix[t]), k)
            block[:, c_lo:c_hi] += marginal[:cards[t]]
        lo = end


def _marginals(counts, shape):
    """The counts ``(*shape, ...)`` of each leading axis summed over the other leading
    axes, in turn: the sums over the axes after each one are shared (each a sum over one
    axis of the last), then the axes before it are summed, so that the joint table is read
    about twice in all instead of once per axis."""
    after = [counts]
    for axis in range(len(shape) - 1, 0, -1):
        after.append(after[-1].sum(axis=axis))
    for axis, summed in enumerate(reversed(after)):
        yield summed.reshape(-1, *summed.shape[axis:]).sum(axis=0) if axis else summed


def _pair_log_tables(pairs, layout: Layout, pseudo_count):
    """``log p(c, x_i = a, x_j = b)`` of every pair value, ``(cells, K)`` (padded), and its
    frequency ``N(x_i = a, x_j = b)``, from the pair counts ``(K, R, R)``; each pair's
    table has ``pseudo_count(its cells)`` per cell."""
    cards = layout.cards
    starts = value_offsets(cards)
    k = pairs.shape[0]
    pair = layout.cell_pairs()
    local = np.arange(layout.cells) - layout.offsets[pair]
    first, second = layout.pairs[pair, 0], layout.pairs[pair, 1]
    counts = pairs[:, starts[first] + local // cards[second],
                   starts[second] + local % cards[second]].T        # (cells, K)
    frequency = counts.sum(axis=1)
    cells = k * cards[first] * cards[second]
    alpha = pseudo_count(cells)
    den = np.bincount(pair, weights=frequency, minlength=len(layout.pairs))[pair] + alpha * cells
    alpha = alpha[:, None] if np.ndim(alpha) else alpha
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(counts + alpha) - np.log(den)[:, None]
    empty = den == 0
    out[empty] = -np.log(cells[empty])[:, None]
    return _padded(out), frequency


def _child_log_tables(counts, layout: Layout, alpha) -> np.ndarray:
    """``log p(x_t = d | c, x_i = a, x_j = b)`` at row ``(s_t + d) * cells + v`` for every
    pair value ``v = (a, b)`` and child ``t`` outside the pair (padded classes), each
    table smoothed as :func:`~bayesbench.models.core.counting.log_table` smooths it; the
    rows of a child inside the pair, and of the missing child ``R``, are 0.

    From :func:`triple_counts`, which holds each triple's counts once (child above the
    pair), gathered to every row first (:func:`_sources`): ``x_t`` given ``(x_i, x_j)``,
    ``x_j`` given ``(x_i, x_t)`` and ``x_i`` given ``(x_j, x_t)``. ``alpha``: the
    pseudo-count per cell, or one per child attribute.
    """
    cards = layout.cards
    R, V, k = int(cards.sum()), layout.cells, counts.shape[1]
    out = np.zeros(((R + 1) * V, next((p for p in (1, 2, 4) if k <= p), k)))
    if counts.size == 0:
        # At most two attributes: every child is in the pair.
        return out
    starts = value_offsets(cards)
    source = _sources(tuple(int(c) for c in cards))
    alpha = np.broadcast_to(np.asarray(alpha, dtype=np.float64), cards.shape)
    table = out[:R * V].reshape(R, V, -1)[:, :, :k]
    # The counts are integers: the logarithm of each one plus the pseudo-count, looked up
    # (one table per pseudo-count: the attributes of a cardinality share theirs).
    logs, top = {}, np.arange(int(counts.max(initial=0)) + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(cards.size):
            values = slice(starts[i], starts[i + 1])
            # Child i's counts, one attribute at a time: a block the cache holds.
            full = counts.take(source[starts[i] * V:starts[i + 1] * V], axis=0)
            full = full.reshape(-1, V, k)
            # The denominators of child i: its counts summed over its values.
            den = full.sum(axis=0) + alpha[i] * cards[i]
            if alpha[i] not in logs:
                logs[alpha[i]] = np.log(top + alpha[i])
            cell = table[values]
            if k < table.shape[2]:
                cell[...] = logs[alpha[i]].take(full)
            else:
                logs[alpha[i]].take(full, out=cell)
            cell -= np.log(den)
            empty = den == 0
            if empty.any():
                cell[np.broadcast_to(empty, cell.shape)] = -np.log(cards[i])
            # The pairs holding child i: (a, i), all a, in a row, then each (i, b).
            bounds = layout.bounds
            cell[:, bounds[i * (i - 1) // 2]:bounds[i * (i + 1) // 2]] = 0.0
            for b in range(i + 1, cards.size):
                cell[:, bounds[b * (b - 1) // 2 + i]:bounds[b * (b - 1) // 2 + i + 1]] = 0.0
    return out


@functools.lru_cache(maxsize=1)
def _sources(cards: tuple):
    """Where :func:`_child_log_tables` reads, for cardinalities ``cards`` (the same for
    every fold of a data set, so the last one is kept; read-only): the row of
    :func:`triple_counts` of each row ``(child value, pair value)`` flattened (the
    triple's largest attribute the child there); row 0 for a child in the pair (its
    log-probabilities are set to 0 after)."""
    cards = np.asarray(cards, dtype=np.int64)
    layout = Layout.of(cards)
    starts = value_offsets(cards)
    i = np.repeat(np.arange(cards.size), cards)[:, None]           # of each child value
    d = np.arange(starts[-1])[:, None] - starts[i]
    pair = layout.cell_pairs()
    a, b = layout.pairs[pair].T                                     # of each pair value
    local = np.arange(layout.cells) - layout.offsets[pair]
    xa, xb = local // cards[b], local % cards[b]
    # The child above the pair: its own counts, given the pair value.
    above = layout.triple_offsets[i] + d * layout.prefix[i] + np.arange(layout.cells)
    # Else the triple's largest attribute b is the child there, given the other two.
    low, high = np.minimum(i, a), np.maximum(i, a)
    given = np.where(i < a, d * cards[a] + xa, xa * cards[i] + d)
    below = (layout.triple_offsets[b] + xb * layout.prefix[b]
             + layout.offsets[high * (high - 1) // 2 + low] + given)
    source = np.where(i > b, above, np.where((i == a) | (i == b), 0, below)).ravel()
    source.flags.writeable = False
    return source


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
