"""Selective kDB (SKDB) and its ensembles (ESKDB).

SKDB: Martinez, Webb, Chen and Zaidi (2016), "Scalable learning of Bayesian network
classifiers", JMLR 17(44). ESKDB: Zhang, Petitjean and Buntine (2020), "Bayesian network
classifiers using ensembles and smoothing", Knowledge and Information Systems 62.

SKDB fits in three passes over the data:

1. the mutual information of each attribute with the class and the conditional mutual
   information of each pair give Sahami's kDB of order ``K = k_max``
   (:func:`~bayesbench.models.learners.kdb.kdb_parents`): attributes in order of
   ``I(X; C)``, each with the (at most ``K``) earlier ones of highest ``I(X_i; X_j | C)``;
2. the counts of every attribute under every prefix of its parents
   (:class:`~bayesbench.models.core.prefix_counts.PrefixCounts`);
3. the leave-one-out class posterior of every row under every nested sub-model (the first
   ``s`` attributes of the order, each with its first ``min(k, K)`` parents), computed
   incrementally from the counts with the row's own count taken out of them:
   m-estimates at the deepest prefix whose count of the row's value, over all classes,
   is at least 2 (a prefix seen only with this row backs off to its parent, as the
   authors' code does). The ``(s, k)`` of least loss (``rmse``: the root mean square of
   ``1 - p(true class)``; ``zero_one``: the error count; ties to fewer attributes, then
   lower ``k``; ``s = 0`` is the class prior alone) is kept.

Passes 2 and 3 only add up over rows, so ``fit_chunks`` reads them chunk by chunk (a
chunked data set, docs/large-data.md): the counts of the chunks add up key by key, and the
losses are sums over rows; pass 1 comes from the rows' sufficient statistics.

The chosen model's tables come from the ``estimator`` (:mod:`~bayesbench.models.
parameters.estimators`). Cost: passes 1 and 3 are ``O(n m^2)`` and ``O(n m K c)`` with
``n`` rows, ``m`` attributes, ``c`` classes; the counts take ``O(n m K)`` memory at most
(only the configurations that occur), never the ``r^K`` cells of a dense table.

ESKDB averages the class posteriors of ``n_estimators`` SKDBs that differ in their
attribute order: the first member's is the mutual-information order, the others are drawn
without replacement with probability proportional to each attribute's ``I(X; C)``
(renormalised after each draw; attributes of zero information follow in information
order), distinct orders only. Every member selects its own ``(s, k)``; the HDP estimates
of all members' tables are drawn together, a table shared by members (same attribute,
same parents) once.
"""
from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import NamedTuple

import numpy as np

from ..core.base import BaseClassifier, StructureLearner, fresh_fit
from ..core.constraints import Interval, StrOptions
from ..core.input_checks import check_discrete_predict_X, start_discrete_fit
from ..core.prefix_counts import PrefixCounts, deepest, prefix_codes
from ..core.sufficient import Statistics, start_statistics_fit
from ..core.structure import Structure
from ..parameters.estimation import M
from ..parameters.estimators import COUNT_ESTIMATOR_PARAMETERS, estimator
from .kdb import kdb_parents
from ...measures.information import (conditional_mutual_information_matrix,
                                     mutual_information_with_class)
from ...measures.ties import tie_safe

#: The losses the leave-one-out pass may minimise.
LOSSES = ("rmse", "zero_one")
#: Draws of an ESKDB order before giving up on finding one not drawn yet.
_ORDER_DRAWS = 100
#: The most members of an ESKDB (docs/limits.md): each one is a full SKDB (its counts, its
#: leave-one-out pass, its tables), and ``n_estimators: 1e9`` ran without end. Twenty times
#: the default of 5.
MAX_ESTIMATORS = 100
#: Cells of the (depth, class, row) arrays of the leave-one-out pass and of predict: rows
#: are taken in blocks of this many cells (8 MB of float64), whatever the chunk's size.
_BLOCK_CELLS = 2 ** 20


def _loo_log_factors(table: PrefixCounts, X, x, parents, cards, codes, n_classes):
    """``log p(x_i | class y, first j parents)`` of every row ``i`` and class ``y``
    (``(depth + 1, n_classes, n)``) by m-estimates with row ``i`` taken out of the counts,
    read at depth ``min(j, reach_i)``: ``reach_i`` the deepest depth whose prefix holds the
    row's value at least twice over all classes (the model of ``j`` parents backs off to
    it)."""
    live = (x >= 0) & (x < table.n_values)
    value = np.where(live, x, 0)
    classes = np.arange(n_classes)[:, None]
    own = (classes == codes[None, :]) & live
    # every depth and class at once: prefix codes, rows and factors are (depth, class, row)
    row = table.find_stacked(prefix_codes(X, parents, cards, n_classes))
    # the row itself is in the counts it reaches (not where its value is missing)
    mine = own & (row >= 0)
    counts, totals = table.stacked  # row -1 (never seen) reads their last row, of zeros
    n_x = counts[row * table.n_values + value] - mine
    n_all = totals[row] - mine
    factors = (n_x + M / table.n_values) / (n_all + M)
    factors[:, :, ~live] = 1.0  # a missing value is left out of the product
    with_value = (n_x + mine).sum(axis=1)
    # depth j reads depth min(j, reach): where the prefix of depth j holds the value fewer
    # than twice, it repeats the depth above (filled from the top down)
    for j, deep in enumerate(with_value[1:] >= 2, start=1):
        np.copyto(factors[j], factors[j - 1], where=~deep)
    return np.log(factors)


class _LeaveOneOut(NamedTuple):
    """What the leave-one-out pass holds fixed for every member: the attributes'
    cardinalities, the class counts of all the training rows, the largest ``k`` and the loss
    (``rmse`` or ``zero_one``)."""

    cards: object
    class_counts: np.ndarray
    k_max: int
    loss: str


class _Plan(NamedTuple):
    """A member's attributes in its ``order``, their kDB ``parents`` and counted ``tables``."""

    order: list
    parents: dict
    tables: dict


def _loss_sums(X, codes, plan: _Plan, loo: _LeaveOneOut):
    """The leave-one-out pass over the rows ``X``: the sum over them of the loss of every
    ``(s, k)``, ``(len(order) + 1, k_max + 1)`` (the squared errors for ``rmse``, the errors
    for ``zero_one``)."""
    sums = np.zeros((len(plan.order) + 1, loo.k_max + 1))
    # blocks of rows bound the (depth or k, class, row) arrays of the pass in memory
    step = _block_rows(loo.k_max, len(loo.class_counts))
    for lo in range(0, len(codes), step):
        block = slice(lo, lo + step)
        _add_block_losses(sums, X[block], codes[block], plan, loo)
    return sums


def _block_rows(depth, n_classes) -> int:
    """Rows of a block whose ``(depth + 1, n_classes, rows)`` arrays hold _BLOCK_CELLS."""
    return max(1, _BLOCK_CELLS // ((depth + 1) * n_classes))


def _add_block_losses(sums, X, codes, plan: _Plan, loo: _LeaveOneOut):
    """Add the losses of the rows ``X`` to ``sums`` (see :func:`_loss_sums`)."""
    order, parents, tables = plan
    cards, class_counts, k_max, loss = loo
    n_classes = len(class_counts)
    codes = np.asarray(codes, dtype=np.int64)
    prior = ((class_counts[None, :] - np.eye(n_classes)[codes] + M / n_classes)
             / (class_counts.sum() - 1 + M))
    # (k, class, row): the class axis is reduced by elementwise steps over whole rows
    log_post = np.repeat(np.log(prior).T[None], k_max + 1, axis=0)
    sums[0] = _loss(log_post, codes, loss, sums[0])
    for u, a in enumerate(order):
        logs = _loo_log_factors(tables[a], X, X[:, a], parents[a], cards, codes, n_classes)
        log_post += logs[np.minimum(np.arange(k_max + 1), tables[a].depth)]
        log_post -= np.maximum.reduce(log_post, axis=1, keepdims=True)
        sums[u + 1] = _loss(log_post, codes, loss, sums[u + 1])


def _choice(sums, n, loss):
    """The losses of every ``(s, k)`` from their sums over the ``n`` rows, and the chosen
    ``(s, k)``: the least loss, ties to fewer attributes, then lower ``k``."""
    losses = np.sqrt(sums / n) if loss == "rmse" else sums
    scores = tie_safe(losses)
    s, k = np.unravel_index(np.argmin(scores.ravel()), scores.shape)
    if s == 0:
        k = 0
    return int(s), int(k), losses


def _loss(log_post, codes, loss, carried):
    """``carried`` plus the loss of each row under each sub-model ``k`` from its
    (unnormalised) log posteriors ``(k, class, row)``."""
    post = np.exp(log_post)
    total = _class_sum(post)
    if loss == "rmse":
        n = len(codes)
        true = post.reshape(len(post), -1)[:, codes * n + np.arange(n)] / total
        squares = (1.0 - true) ** 2
        # The order of the sums of the earlier pass over rows held (row, k), which keeps
        # every loss, and so every tie between two (s, k), to its last bit: pairwise over
        # the rows for one sub-model, else row after row (block after block, carried).
        if len(post) == 1:
            return carried + np.add.reduce(squares, axis=1)
        rows = np.empty((n + 1, len(post)))
        rows[0] = carried
        rows[1:] = squares.T
        return np.add.reduce(rows, axis=0)
    post /= total[:, None, :]
    return carried + (np.argmax(post, axis=1) != codes).sum(axis=1)


def _class_sum(post, lo=0, hi=None):
    """``post.sum`` over the classes ``lo:hi`` (axis 1 of ``(k, class, row)``), added up
    in numpy's order for a contiguous class axis (one after the other below 8, eight
    running sums up to 128, halves above): the same last bits as the posteriors of rows
    held class-last, with elementwise steps over whole rows."""
    hi = post.shape[1] if hi is None else hi
    if hi - lo < 8:
        return np.add.reduce(post[:, lo:hi], axis=1)
    if hi - lo > 128:
        half = (hi - lo) // 2
        half -= half % 8
        return _class_sum(post, lo, lo + half) + _class_sum(post, lo + half, hi)
    stop = hi - (hi - lo) % 8
    r = post[:, lo:lo + 8].copy()
    for i in range(lo + 8, stop, 8):
        r += post[:, i:i + 8]
    total = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
    for i in range(stop, hi):
        total += post[:, i]
    return total


def _sampled_order(mi: np.ndarray, rng) -> list[int]:
    """An order drawn without replacement in proportion to ``mi``; the attributes of zero
    information follow in information order."""
    weights = np.clip(np.asarray(mi, dtype=np.float64), 0.0, None)
    order = []
    while weights.sum() > 0:
        a = int(rng.choice(len(weights), p=weights / weights.sum()))
        order.append(a)
        weights[a] = 0.0
    rest = [int(a) for a in np.lexsort((np.arange(len(mi)), -tie_safe(mi))) if a not in order]
    return order + rest


@dataclass(frozen=True, eq=False)
class _Member:
    """One SKDB: its order, its parents (strongest first), its chosen ``(s, k)`` and the
    leave-one-out loss of every ``(s, k)``."""

    order: list
    parents: dict
    s: int
    k: int
    losses: np.ndarray

    def nodes(self):
        """``(attribute, parents)`` of the chosen sub-model."""
        return [(a, tuple(self.parents[a][:self.k])) for a in self.order[:self.s]]


class SKDB(StructureLearner, BaseClassifier):
    """Selective k-dependence Bayesian classifier (Martinez et al. 2016).

    A kDB of order ``k_max`` from which a leave-one-out pass over the counts keeps the
    first ``s`` attributes of the mutual-information order and up to ``k`` parents each,
    the ``(s, k)`` of least ``loss``; its tables come from ``estimator``.

    Parameters
    ----------
    k_max : int, default 5
        The order ``K`` of the full kDB; sub-models have ``k = 0 .. K`` parents. No
        attribute can have more than ``m - 1`` parents (``m`` attributes), so a larger
        ``K`` is the same model as ``K = m - 1`` and is fitted as that one: the work never
        grows with ``k_max`` beyond the data's (``k_max: 1e6`` ran without end).
    loss : {'rmse', 'zero_one'}, default 'rmse'
        What the leave-one-out pass minimises.
    estimator : {'laplace', 'm', 'hdp'}, default 'm'
        The tables' estimator (:mod:`~bayesbench.models.parameters.estimators`).
    iterations : int, default 1000
        HDP sweeps (``estimator='hdp'``), at most
        :data:`~bayesbench.models.parameters.estimators.MAX_ITERATIONS`.
    tying : {'level', 'single', 'none'}, default 'level'
        How HDP concentrations are shared.
    random_state : int or None
        Seed of the HDP sampler (None: 0; the runner gives the task's seed).

    Attributes
    ----------
    structure_ : Structure
        The chosen sub-model; ``info`` holds ``"order"``, ``"selected"`` (s),
        ``"k"``, ``"losses"`` (``(n_attributes + 1, K + 1)``, row ``s``, column ``k``,
        ``K = min(k_max, n_attributes - 1)``),
        and ``"headline"`` (``"s=.. of m, k=.."``, shown in records).
    """

    input_kind = "discrete"
    _parameter_constraints = {
        # Any k_max: the work is that of the deepest sub-model the data has (see fit).
        "k_max": [Interval(Integral, 0, None, closed="left")],
        "loss": [StrOptions(set(LOSSES))],
        **COUNT_ESTIMATOR_PARAMETERS,
    }

    def __init__(self, *, k_max: int = 5, loss: str = "rmse", estimator: str = "m",
                 iterations: int = 1000, tying: str = "level", random_state=None):
        self.k_max = k_max
        self.loss = loss
        self.estimator = estimator
        self.iterations = iterations
        self.tying = tying
        self.random_state = random_state

    def _rng(self):
        return np.random.default_rng(0 if self.random_state is None else self.random_state)

    def _orders(self, mi, rng) -> list[list[int]]:
        return [[int(a) for a in np.lexsort((np.arange(len(mi)), -tie_safe(mi)))]]

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Select the sub-model by leave-one-out, then estimate its tables; returns self."""
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        n_classes = len(self.classes_)
        mi = mutual_information_with_class(X, codes, cards, n_classes)
        cmi = conditional_mutual_information_matrix(X, codes, cards, n_classes)
        self._fit_passes(mi, cmi, cards, names, np.bincount(codes, minlength=n_classes),
                         lambda: iter([(X, codes)]))
        return self

    @fresh_fit
    def fit_chunks(self, stats: Statistics, read):
        """Fit on rows too many for memory: ``stats`` their sufficient statistics (pass 1,
        the structure), ``read()`` a fresh iterator over them as chunks ``(X, y)`` of codes
        (passes 2 and 3); the same model as ``fit`` on all the rows, its leave-one-out
        losses summed chunk by chunk (equal to the last bits of rounding). Returns self."""
        start_statistics_fit(self, stats)
        cards = stats.cardinalities
        self._fit_passes(stats.class_information(), stats.cmi_matrix(), cards,
                         stats.attribute_names, stats.class_counts, read)
        return self

    def _fit_passes(self, mi, cmi, cards, names, class_counts, read):
        """Passes 2 (the counts) and 3 (leave-one-out) over the chunks ``read()`` yields,
        for the structure from ``mi`` and ``cmi`` (pass 1)."""
        rng = self._rng()
        # Sub-models of more parents than any attribute can have repeat the last column of
        # the losses (ties go to lower k): the pass sizes its arrays by the deepest one.
        k_max = min(int(self.k_max), max(len(cards) - 1, 0))
        plans = [(order, _parents_in_order(order, cmi, k_max))
                 for order in self._orders(mi, rng)]
        # each (attribute, parents) once, however many members share it
        counted = _prefix_counts(dict.fromkeys((a, p[a]) for order, p in plans for a in order),
                                 read, cards, len(class_counts))
        weights = np.asarray(class_counts, dtype=np.float64)
        loo = _LeaveOneOut(cards, weights, k_max, self.loss)
        planned = [_Plan(order, parents, {a: counted[a, parents[a]] for a in order})
                   for order, parents in plans]
        sums = [0.0] * len(plans)
        for X, codes in read():
            for i, plan in enumerate(planned):
                sums[i] = sums[i] + _loss_sums(X, codes, plan, loo)
        members = [_Member(order, parents, *_choice(total, weights.sum(), self.loss))
                   for (order, parents), total in zip(plans, sums)]
        self._set_tables(members, counted, class_counts, rng)
        self.structure_ = self._structure(members[0], mi, cards, names)

    def _set_tables(self, members, counted, class_counts, rng):
        # a chosen node's counts are those under all its kDB parents, cut to the first k
        chosen = {}
        for m in members:
            for a, parents in m.nodes():
                if (a, parents) not in chosen:
                    chosen[a, parents] = counted[a, m.parents[a]].truncated(len(parents))
        tables = estimator(self.estimator, iterations=int(self.iterations), tying=self.tying,
                           rng=rng)
        logs = tables.log_probabilities(list(chosen.values()))
        self.members_ = members
        self.tables_ = dict(zip(chosen, zip(chosen.values(), logs)))
        self.class_log_prior_ = tables.class_log_prior(np.asarray(class_counts))

    def _structure(self, member, mi, cards, names):
        chosen = dict(member.nodes())
        structure = Structure.from_parents(
            [chosen.get(a, ()) for a in range(len(cards))], attributes=list(chosen),
            attribute_names=names, cardinalities=tuple(int(c) for c in cards),
            info={"learner": type(self).__name__.lower(), "order": member.order,
                  "selected": member.s, "k": member.k, "losses": member.losses,
                  "mi_class": mi,
                  "headline": f"s={member.s} of {len(cards)}, k={member.k}"})
        return structure

    def _member_log_posterior(self, member, X) -> np.ndarray:
        n_classes = len(self.classes_)
        jll = np.repeat(self.class_log_prior_[None, :], X.shape[0], axis=0)
        for node in member.nodes():
            table, logs = self.tables_[node]
            a, parents = node
            x = X[:, a]
            live = (x >= 0) & (x < table.n_values)
            # every class at once: codes, depths and rows are (n_classes, n)
            codes = prefix_codes(X, parents, self.cardinalities_, n_classes)
            depth, row = deepest(table, codes, len(parents) + 1)
            at = (table.starts[depth] + row) * table.n_values + np.where(live, x, 0)
            found = np.concatenate(logs).ravel()[at].T
            if live.all():
                jll += found
            else:
                jll[live] += found[live]
        return jll

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        step = _block_rows(max((len(p) for m in self.members_ for _, p in m.nodes()), default=0),
                           len(self.classes_))
        return np.concatenate([self._block_log_posterior(X[lo:lo + step])
                               for lo in range(0, max(len(X), 1), step)])

    def _block_log_posterior(self, X) -> np.ndarray:
        if len(self.members_) == 1:
            return self._member_log_posterior(self.members_[0], X)
        # the ensemble's posterior is the mean of its members' (normalised) posteriors
        posts = []
        for member in self.members_:
            jll = self._member_log_posterior(member, X)
            jll -= jll.max(axis=1, keepdims=True)
            post = np.exp(jll)
            posts.append(post / post.sum(axis=1, keepdims=True))
        with np.errstate(divide="ignore"):
            return np.log(np.mean(posts, axis=0))


def _prefix_counts(nodes, read, cards, n_classes) -> dict:
    """Pass 2: the :class:`PrefixCounts` of each ``(attribute, parents)`` of ``nodes`` over
    the chunks ``read()`` yields, added chunk by chunk."""
    counted: dict = {}
    for X, codes in read():
        for a, parents in nodes:
            table = PrefixCounts.from_rows(X[:, a], [X[:, p] for p in parents], codes,
                                           int(cards[a]), [int(cards[p]) for p in parents],
                                           n_classes)
            counted[a, parents] = table + counted[a, parents] if (a, parents) in counted \
                else table
    return counted


def _parents_in_order(order, cmi, k_max) -> dict:
    """Sahami's parents for an attribute order: each attribute takes the (at most
    ``k_max``) earlier ones of highest conditional mutual information, strongest first."""
    rank = np.empty(len(order))
    rank[order] = -np.arange(len(order), dtype=np.float64)
    # kdb_parents orders by decreasing score: give it the order as the score
    _, parents = kdb_parents(rank, cmi, k_max)
    return {a: tuple(parents[a]) for a in order}


class ESKDB(SKDB):
    """Ensemble of selective kDBs over sampled attribute orders (Zhang et al. 2020).

    ``n_estimators`` SKDBs, the first over the mutual-information order and the others over
    orders drawn in proportion to ``I(X; C)``, each selecting its own ``(s, k)``; the class
    posterior is the mean of theirs. The orders and the HDP sampler are seeded from
    ``random_state`` (the runner gives the task's seed).

    Parameters
    ----------
    n_estimators : int, default 5
        At most :data:`MAX_ESTIMATORS`.
    k_max : int, default 5
    estimator : {'laplace', 'm', 'hdp'}, default 'hdp'
    iterations : int, default 1000
    loss, tying, random_state
        As :class:`SKDB`.

    Attributes
    ----------
    structure_ : Structure
        The first member's sub-model.
    members_ : list
        Each member's ``order``, ``parents``, chosen ``s`` and ``k`` and ``losses``.
    """

    _parameter_constraints = {**SKDB._parameter_constraints,
                              "n_estimators": [Interval(Integral, 1, MAX_ESTIMATORS,
                                                        closed="both")]}

    def __init__(self, *, n_estimators: int = 5, k_max: int = 5, estimator: str = "hdp",
                 iterations: int = 1000, loss: str = "rmse", tying: str = "level",
                 random_state=None):
        super().__init__(k_max=k_max, loss=loss, estimator=estimator, iterations=iterations,
                         tying=tying, random_state=random_state)
        self.n_estimators = n_estimators

    def _orders(self, mi, rng) -> list[list[int]]:
        orders = super()._orders(mi, rng)
        for _ in range(_ORDER_DRAWS * int(self.n_estimators)):
            if len(orders) >= int(self.n_estimators):
                break
            order = _sampled_order(mi, rng)
            if order not in orders:
                orders.append(order)
        return orders
