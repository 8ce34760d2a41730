"""Webb's averaged one-dependence estimators (AODE).

Webb, Boughton and Wang (2005), "Not so naive Bayes: aggregating
one-dependence estimators", Machine Learning 58, 5-24; Weka's ``AODE``.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.special import logsumexp

from ..core.base import BaseClassifier, StructureLearner, fresh_fit
from ..core.counting import log_table, unseen_log_prob
from ...measures.information import pair_count_matrix, value_offsets
from ..core.inference import joint_log_likelihood
from ..core.input_checks import check_discrete_predict_X, start_discrete_fit
from ..core.sufficient import StatisticsLearner
from ..core.structure import Structure
from ..core.constraints import Interval


class AODE(StatisticsLearner, StructureLearner, BaseClassifier):
    """Averaged one-dependence estimators.

    Every attribute ``i`` whose value in the example was seen at least
    ``min_frequency`` times in training is a super-parent of one
    one-dependence estimator (SPODE), and the SPODEs' joint probabilities are
    averaged::

        p(c, x) = 1/|S| sum_{i in S} p(c, x_i) prod_{j != i} p(x_j | c, x_i)

    with ``S`` the eligible super-parents. When no attribute is eligible the
    example is classified by naive Bayes (as Webb et al. and Weka do).
    Probabilities are smoothed with ``alpha`` pseudo-counts per cell:
    ``p(c, x_i) = (N(c, x_i) + alpha) / (N_i + alpha K r_i)`` and
    ``p(x_j | c, x_i) = (N(c, x_i, x_j) + alpha) / (N(c, x_i) + alpha r_j)``,
    counts taken over rows where the attributes involved are present. A
    missing value in the example (or a code beyond the cardinality known at
    ``fit``) makes that attribute ineligible as a super-parent and leaves it
    out of every product.

    Parameters
    ----------
    alpha : float, default 1.0
        Pseudo-count per cell (Weka uses Laplace, 1).
    min_frequency : int, default 1
        Minimum training frequency of a super-parent's value (Weka's ``-F``,
        default 1; Webb et al. used 30).

    Attributes
    ----------
    classes_ : ndarray
    parent_tables_ : list of ndarray
        ``log p(c, x_i)``, shape ``(n_classes, r_i)``.
    log_conditionals_ : ndarray of shape (n_classes, R, R)
        ``log p(x_j = b | c, x_i = a)`` at ``[c, s_i + a, s_j + b]`` for every
        ordered pair, ``s_i`` the sum of the cardinalities before attribute
        ``i`` and ``R`` that of all; blocks ``i = j`` are 0. Smoothed from the
        pair counts TAN uses (:func:`~bayesbench.measures.information.pair_count_matrix`).
    child_tables_ : dict
        ``(i, j) -> log p(x_j | c, x_i)``, shape ``(n_classes, r_i, r_j)``: the
        blocks of ``log_conditionals_`` (views).
    value_counts_ : list of ndarray
        Training frequency of each value of each attribute.
    class_value_counts_ : ndarray of shape (n_classes, R)
        ``N(c, x_i = a)`` at ``[c, s_i + a]``, rows missing ``x_i`` left out.
    class_counts_ : ndarray of int64, shape (n_classes,)
        ``N(c)``, every row counted.
    structure_ : Structure
        The naive structure, with ``info["super_parents"]`` listing every
        attribute: each SPODE adds it as a parent of all others.
    """

    _parameter_constraints = {"alpha": [Interval(Real, 0, None, closed="left")],
                              "min_frequency": [Interval(Integral, 0, None, closed="left")]}

    def __init__(self, *, alpha: float = 1.0, min_frequency: int = 1):
        self.alpha = alpha
        self.min_frequency = min_frequency

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k = len(self.classes_)
        self._set_tables(pair_count_matrix(X, codes, cards, k), np.bincount(codes, minlength=k),
                         cards, names)
        return self

    def _fit_statistics(self, stats):
        self._set_tables(stats.pairs.astype(np.float64), stats.class_counts,
                         np.asarray(stats.cardinalities, dtype=np.int64), stats.attribute_names)

    def _set_tables(self, pairs, class_counts, cards, names):
        """The tables from the pair counts ``N(c, x_i = a, x_j = b)`` of every pair, in the
        layout of :func:`~bayesbench.measures.information.pair_count_matrix` (its diagonal blocks the singles),
        and the class counts ``N(c)``."""
        m, k = len(cards), pairs.shape[0]
        starts = value_offsets(cards)
        # N(c, x_i), rows missing x_i left out: the diagonal of the pair counts.
        self.class_value_counts_ = np.einsum("kii->ki", pairs).copy()
        self.class_counts_ = np.asarray(class_counts, dtype=np.int64)
        self.value_counts_ = _per_attribute(self.class_value_counts_.sum(axis=0), starts)
        self.parent_tables_ = _per_attribute(
            _joint_log_tables(self.class_value_counts_, cards, starts,
                              self._pseudo_count(k * cards)), starts)
        self.log_conditionals_ = _conditional_log_tables(pairs, cards, starts,
                                                         self._pseudo_count(cards))
        self.structure_ = Structure.naive(
            m, attribute_names=names, cardinalities=tuple(int(c) for c in cards),
            info={"learner": "aode", "super_parents": list(range(m)),
                  "min_frequency": int(self.min_frequency)})

    def _naive_bayes_log_likelihood(self, X) -> np.ndarray:
        """Naive Bayes's ``log p(c, x)``, for the rows without an eligible super-parent: the
        model ``NaiveBayes(alpha=alpha)`` fits on the training rows (the same tables from the
        same counts, ``class_value_counts_`` and ``class_counts_``, the same inference),
        built only when a row needs it."""
        starts = value_offsets(self.cardinalities_)
        counts = [c[:, None, :] for c in _per_attribute(self.class_value_counts_, starts)]
        alphas = [self._pseudo_count(c.shape[-1]) for c in counts]
        prior = log_table(self.class_counts_.astype(np.float64)[None, None, :],
                          self._pseudo_count(len(self.classes_)))[0, 0]
        return joint_log_likelihood(
            self.structure_, [log_table(c, a) for c, a in zip(counts, alphas)], X, prior,
            unseen=[unseen_log_prob(c, a) for c, a in zip(counts, alphas)])

    def _pseudo_count(self, cells):
        """The pseudo-count per cell of a table (or of each table) of ``cells`` cells:
        ``alpha``, whatever its size (:class:`~.ande.ANDE`'s m-estimates depend on it)."""
        return float(self.alpha)

    @property
    def child_tables_(self) -> dict:
        """``(i, j) -> log p(x_j | c, x_i)``: views of :attr:`log_conditionals_`, made on
        request (prediction does not read them; their m (m - 1) views cost 2 ms a fit)."""
        starts = value_offsets(self.cardinalities_)
        m = starts.size - 1
        return {(i, j): self.log_conditionals_[:, starts[i]:starts[i + 1],
                                               starts[j]:starts[j + 1]]
                for i in range(m) for j in range(m) if i != j}

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return self._averaged_log_likelihood(check_discrete_predict_X(self, X))

    def _averaged_log_likelihood(self, X) -> np.ndarray:
        """``log p(c, x)`` of checked codes ``X``: the SPODEs' average, naive Bayes's for the
        rows without an eligible super-parent."""
        n, k = X.shape[0], len(self.classes_)
        tables = self._slotted_tables()
        jll = np.empty((n, k))
        count = np.empty(n, dtype=np.int64)
        # Blocks of rows bound the (attributes, rows, classes) array of SPODE scores.
        for lo in range(0, n, _ROWS):
            hi = min(n, lo + _ROWS)
            jll[lo:hi], count[lo:hi] = self._average_spodes(X[lo:hi], *tables)
        none = count == 0
        if none.any():
            jll[none] = self._naive_bayes_log_likelihood(X[none])
        return jll

    def _slotted_tables(self):
        """The tables with one extra value per attribute, "absent" (missing, or beyond the
        cardinality), whose entries are 0: its terms then add exactly nothing, as leaving it
        out of the product does.

        Returns the offsets of each attribute's slots; one table whose row
        ``u * slots + v`` is ``log p(x_t = u | c, x_i = v)`` for child slot ``u`` and
        super-parent slot ``v`` (0 for ``i = t``), followed by the rows
        ``slots * slots + v``, ``log p(c, x_i = v)``; and each slot's training frequency
        (-1 for the absent ones, never super-parents). The class axis is padded to 1, 2 or
        4 entries when it is shorter, so that a gathered row is 8, 16 or 32 bytes: numpy's
        ``take`` copies those sizes fastest.
        """
        cards = self.cardinalities_
        k = len(self.classes_)
        padded = next((p for p in (1, 2, 4) if k <= p), k)
        starts = value_offsets(cards + 1)
        slots = int(starts[-1])
        real = np.flatnonzero(np.arange(slots) - np.repeat(starts[:-1], cards + 1)
                              < np.repeat(cards, cards + 1))
        # [child slot, super-parent slot, class]: a child value's rows are contiguous.
        tables = np.zeros((slots + 1, slots, padded))
        tables[real[:, None], real, :k] = self.log_conditionals_.transpose(2, 1, 0)
        tables[slots, real, :k] = np.concatenate([np.empty((k, 0)), *self.parent_tables_],
                                                 axis=1).T
        frequency = np.full(slots, -1.0)
        frequency[real] = np.concatenate([np.empty(0), *self.value_counts_])
        return starts, tables.reshape(-1, padded), frequency

    def _average_spodes(self, X, starts, table, frequency):
        """``log (1/|S| sum_{i in S} p(c, x_i) prod_j p(x_j | c, x_i))`` and ``|S|`` per row.

        Each child attribute ``t`` is one gather for all super-parents at once,
        and the sums run over ``t`` in attribute order. The scores are laid out
        super-parent major, ``(super-parents, rows, classes)``, as the average over
        super-parents reads them.
        """
        cards = self.cardinalities_
        slots = int(starts[-1])
        present = (X >= 0) & (X < cards)
        slot = np.where(present, X, cards) + starts[:-1]          # (rows, attributes)
        parent = np.ascontiguousarray(slot.T)
        # Where each child value's rows start in the table; the parents' rows come last.
        child = parent * slots
        spodes = table.take(parent + slots * slots, axis=0)
        # Buffers reused for every child: "clip" lets take write into one directly (the
        # indices lie in the table by construction), which saves 5% of the loop.
        index, terms = np.empty_like(parent), np.empty_like(spodes)
        for t in range(cards.size):
            np.add(parent, child[t], out=index)
            spodes += table.take(index, axis=0, out=terms, mode="clip")
        eligible = self._eligible(present, frequency.take(slot))
        if not eligible.all():
            spodes[~eligible.T] = -np.inf
        count = eligible.sum(axis=1)
        total = self._weigh(spodes, eligible, count)
        # Contiguous: scipy's logsumexp takes twice as long on the strided class slice.
        spodes = np.ascontiguousarray(spodes[:, :, :len(self.classes_)])
        with np.errstate(divide="ignore"):
            return logsumexp(spodes, axis=0) - np.log(total)[:, None], count

    def _eligible(self, present, frequency):
        """Which attributes of each row are super-parents, ``(rows, attributes)``: those
        present whose value's training ``frequency`` is at least ``min_frequency``."""
        return present & (frequency >= self.min_frequency)

    def _weigh(self, spodes, eligible, count):
        """Weigh each row's eligible SPODEs (``spodes``, super-parent major, in place) and
        return what their sum is divided by: AODE weighs them all 1 and divides by their
        number, at least 1 (an average; :class:`~.waode.WAODE` weighs them by information)."""
        return np.maximum(count, 1)


# Rows scored at a time: the SPODE scores of a block take rows x attributes x classes floats.
# Past about a megabyte a block's arrays come from fresh pages each time (glibc returns the
# freed heap top to the system): 1024 rows at 50 attributes took half as long again.
_ROWS = 256


class WekaAODE(AODE):
    """AODE's tables as Weka's HNB and WAODE estimate them, the base of
    :class:`~.hnb.HNB` and :class:`~.waode.WAODE`: m-estimates with ``m = 1`` and no
    frequency limit, no parameter."""

    _parameter_constraints: dict = {}
    # Every attribute present takes part (Weka's HNB and WAODE have no frequency limit).
    min_frequency = 0

    def __init__(self):
        pass

    def _pseudo_count(self, cells):
        # Weka's m-estimate with m = 1: (N + 1 / cells) / (N' + 1).
        return 1.0 / np.asarray(cells, dtype=np.float64)


def _per_attribute(values, starts):
    """The last axis of ``values`` cut into each attribute's values (the layout of ``starts``):
    a list of views, one per attribute."""
    return np.split(values, starts[1:-1], axis=-1) if starts.size > 1 else []


def _joint_log_tables(counts, cards, starts, alpha):
    """``log p(c, x_i = a)`` of every attribute value, shape ``(n_classes, R)``, from the counts
    ``N(c, x_i = a)`` in the layout of ``starts``: each attribute's ``K r_i`` cells smoothed
    as one table, as :func:`~bayesbench.models.core.counting.log_table` smooths it (identical numbers: the sums
    are of integer counts). ``alpha``: the pseudo-count per cell, or one per attribute."""
    k = counts.shape[0]
    cells = k * cards
    if cards.size:
        den = np.add.reduceat(counts.sum(axis=0), starts[:-1]) + alpha * cells
    else:
        den = np.zeros(0)
    den, cells = np.repeat(den, cards), np.repeat(cells, cards)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(counts + _per_value(alpha, cards)) - np.log(den)
    empty = np.broadcast_to(den == 0, out.shape)
    out[empty] = -np.broadcast_to(np.log(cells), out.shape)[empty]
    return out


def _per_value(alpha, cards):
    """``alpha`` as it is when a number, else its entry per attribute repeated for each value."""
    return np.repeat(alpha, cards) if np.ndim(alpha) else alpha


def _conditional_log_tables(pairs, cards, starts, alpha):
    """``log p(x_j = b | c, x_i = a)`` of every ordered pair from the counts of all pairs.

    ``pairs[c, (i, a), (j, b)]`` is ``N(c, x_i = a, x_j = b)`` in the layout of
    ``starts``; each block ``(i, j)`` is smoothed as :func:`~bayesbench.models.core.counting.log_table`
    smooths it (identical numbers: the sums are of integer counts), all at once.
    Blocks ``i = j`` are set to 0. ``alpha``: the pseudo-count per cell, or one per child
    attribute ``j``.
    """
    den = np.add.reduceat(pairs, starts[:-1], axis=2) if cards.size else pairs[..., :0]
    den = np.repeat(den + alpha * cards, cards, axis=2)
    r = np.broadcast_to(np.repeat(cards, cards), pairs.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(pairs + _per_value(alpha, cards)) - np.log(den)
    empty = den == 0
    out[empty] = -np.log(r[empty])
    for i in range(cards.size):
        out[:, starts[i]:starts[i + 1], starts[i]:starts[i + 1]] = 0.0
    return out
