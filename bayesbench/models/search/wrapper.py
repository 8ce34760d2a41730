"""Wrapper learners: structures chosen by inner cross-validated accuracy (FSS, BSEJ, ASB).

* :class:`FSS`, forward sequential selection (Langley and Sage 1994): naive
  Bayes over a subset grown greedily from the empty set.
* :class:`BSEJ`, backward sequential elimination and joining (Pazzani 1996):
  from naive Bayes over all attributes, greedily remove an attribute (from
  its node, which shrinks a joined node) or join two nodes into their
  Cartesian product.
* :class:`ASB`, augmented semi-naive Bayes (Mihaljevic, Larranaga and Bielza
  2013, Algorithm 1): BSEJ's model plus a maximum weighted forest among its
  node groups, drawn from tests of conditional independence.

Each search step scores every candidate by stratified ``inner_folds``-fold
accuracy on the training data only, takes the best one if it is *strictly*
better than the current model (by at least ``epsilon``, a share of the
examples, when ``epsilon > 0``: bnclassify's stopping rule, whose default there
is 0.01), and stops otherwise. Scores come from
:mod:`.inner_cv`, which never refits: it adds and subtracts cached per-node
held-out log-likelihoods, so each estimate equals the held-out accuracy of a
refitted model with the same smoothing ``alpha`` as the final one.

Ties between equally accurate candidates are broken by a fixed enumeration
order, the first one wins: FSS tries attributes in index order; BSEJ tries
every removal (attributes in index order) before every join (pairs of nodes,
ordered by their smallest attribute, in lexicographic order), so on a tie the
smaller model wins. bnclassify breaks ties at random instead.

ASB's first phase is BSEJ's search with the same settings. The last few searches of this
process are remembered (:class:`_SearchMemo`, keyed by a digest of the rows and every input
of the search), so that BSEJ and ASB fitted on the same rows, as a run fits every
classifier of a fold (and the ASBs of a sweep over ``significance``), search once: the
second fit gets the groups, the trace and the generator's state after the search that it
would have computed itself.
"""
from __future__ import annotations

import copy
import hashlib
import math
import threading
from collections import OrderedDict
from math import prod
from numbers import Integral, Real

import numpy as np

from ..learners.anb import AugmentedNaiveBayes
from ...measures.codes import current_table_limit, joint_index
from .inner_cv import InnerCV, NodeScore, count_correct
from .selective import SIGNIFICANCE, dependence_forest
from ..core.structure import Node, Structure
from ..core.constraints import Interval, StrOptions

#: Memory for a search's cached candidate contributions (``n x n_classes`` floats
#: each); candidates beyond it are recomputed at every step instead.
MAX_CACHE_BYTES = 256 * 2 ** 20

#: A join whose table would have more cells than this (classes x joint values)
#: is not a candidate: the final model stores dense tables, and a product that
#: large has almost every cell empty on any data set that fits in memory.
MAX_JOIN_CELLS = 2 ** 22

#: Memory of one stack of BSEJ's join candidates scored together: small enough that a
#: stack's arithmetic stays in the processor's cache.
_JOIN_STACK_BYTES = 2 ** 20


def required_gain(n: int, epsilon: float, accept_ties: bool = False) -> int:
    """Fewest extra correct predictions (of ``n`` examples) a step must bring.

    ``epsilon n`` rounded up (``epsilon`` a share of the examples), and at least
    one unless ``accept_ties`` (bnclassify's rule, under which ``epsilon = 0``
    takes a step that only matches the current accuracy).
    """
    return max(0 if accept_ties else 1, math.ceil(epsilon * n - 1e-9))


def forward_selection(cv: InnerCV, epsilon: float = 0.0) -> tuple[list[int], list[dict]]:
    """Langley and Sage's FSS on the engine's data.

    Returns the selected attributes in order of addition and the search trace
    (one entry per accepted step, with the inner accuracy after it).
    """
    gain = required_gain(cv.n, epsilon)
    total = cv.log_prior.copy()
    best = cv.correct(total)
    trace = [{"operation": "start", "attributes": [], "accuracy": best / cv.n}]
    nodes = [cv.group((j,)) for j in range(cv.X.shape[1])]
    selected: list[int] = []
    remaining = list(range(len(nodes)))
    while remaining:
        scores = cv.correct_stacked(len(remaining), lambda t, out, total=total: np.add(
            total, nodes[remaining[t]].contribution, out=out))
        k = int(np.argmax(scores))
        if scores[k] < best + gain:
            break
        j = remaining.pop(k)
        selected.append(j)
        total += nodes[j].contribution
        best = scores[k]
        trace.append({"operation": "add", "attributes": [j], "accuracy": best / cv.n})
    return selected, trace


def _join_allowed(cv: InnerCV, a: NodeScore, b: NodeScore) -> bool:
    return a.cardinality * b.cardinality * cv.n_classes <= MAX_JOIN_CELLS


def _arrays(value) -> tuple:
    if isinstance(value, NodeScore):
        return value.codes, value.contribution
    return value if isinstance(value, tuple) else (value,)


def _nbytes(value) -> int:
    return sum(array.nbytes for array in _arrays(value))


def _held_bytes(values) -> int:
    """Memory the cached ``values`` keep alive: a join's index that is a view of a batch's
    block (:meth:`InnerCV.join_gathers`) keeps the whole block, and the batch's shared
    table, counted once."""
    held = {}
    for value in values:
        for array in _arrays(value):
            owner = array if array.base is None else array.base
            held[id(owner)] = owner.nbytes
    return sum(held.values())


class ContributionCache:
    """Held-out contributions of candidate nodes, by key, up to ``MAX_CACHE_BYTES``.

    A node's contribution (an ``(n, n_classes)`` array, the :class:`NodeScore` that
    holds it, or a join's ``(rows, where)`` gather from :meth:`InnerCV.join_gathers`)
    depends only on its key, the node's attributes (and parents), so what a
    search step scored is kept for the next (BSEJ here, every search of
    :mod:`.hill_climbing`); beyond the budget it is rebuilt each time it is asked for.
    """

    def __init__(self):
        self.values: dict[tuple, np.ndarray | NodeScore | tuple] = {}
        self.nbytes = 0
        self.used: set[tuple] = set()

    def get(self, key, build):
        """The value of ``key``, from ``build()`` the first time (or whenever it did not fit)."""
        self.used.add(key)
        hit = self.values.get(key)
        if hit is None:
            hit = build()
            if self.nbytes + _nbytes(hit) <= MAX_CACHE_BYTES:
                self.values[key] = hit
                self.nbytes += _nbytes(hit)
        return hit

    def get_many(self, keys, build_missing) -> list:
        """The values of ``keys``, as :meth:`get` gives them; ``build_missing(positions)`` builds
        those of the keys at ``positions`` (not cached) together, in that order."""
        self.used.update(keys)
        todo = [t for t, key in enumerate(keys) if key not in self.values]
        built = dict(zip(todo, build_missing(todo))) if todo else {}
        out = []
        for t, key in enumerate(keys):
            hit = self.values.get(key)
            if hit is None:
                hit = built[t]
                if self.nbytes + _nbytes(hit) <= MAX_CACHE_BYTES:
                    self.values[key] = hit
                    self.nbytes += _nbytes(hit)
            out.append(hit)
        return out

    def keep_used(self):
        """Forget every entry not asked for since the last call (BSEJ's candidates change as
        its nodes shrink and join, so most of a step's are never asked for again)."""
        self.values = {key: value for key, value in self.values.items() if key in self.used}
        self.nbytes = _held_bytes(self.values.values())
        self.used = set()


def _best_bsej_move(cv: InnerCV, nodes, total, best: int, cache: ContributionCache):
    """The best-scoring candidate of one BSEJ step strictly above ``best``, first in the
    enumeration order on ties: ``(score, move)``, ``move`` None if none beats ``best``.
    Candidates are scored a stack at a time (:meth:`InnerCV.correct_stacked`)."""
    best_score, best_move = _best_removal(cv, nodes, total, cache, best)
    return _best_join(cv, nodes, total, cache, best_score, best_move)


def _best_removal(cv: InnerCV, nodes, total, cache: ContributionCache, best: int):
    """The best removal of an attribute (first in attribute order on ties) scoring above ``best``."""
    owner = {a: i for i, node in enumerate(nodes) for a in node.attributes}
    removals = sorted(owner)

    def without(t, out):
        a = removals[t]
        node = nodes[owner[a]]
        np.subtract(total, node.contribution, out=out)
        rest = tuple(x for x in node.attributes if x != a)
        if rest:
            out += cache.get(rest, lambda: cv.group(rest).contribution)

    best_score, best_move = best, None
    for a, score in zip(removals, cv.correct_stacked(len(removals), without)):
        if score > best_score:
            best_score, best_move = score, ("remove", owner[a], a)
    return best_score, best_move


def _best_join(cv: InnerCV, nodes, total, cache: ContributionCache, best_score: int, best_move):
    """The best join of two nodes (first in pair order on ties) scoring above ``best_score``.

    The joins of node ``i`` not in the cache are built together
    (:meth:`InnerCV.join_gathers`; the cache keeps each as its table and index, not as its
    contribution) and scored a stack at a time with whole-stack array operations, each
    candidate's scores computed as ``(total - a) - b + joined``, the same operations in the
    same order as one at a time.
    """
    per = max(1, _JOIN_STACK_BYTES // max(total.nbytes, 1))
    contributions = np.stack([node.contribution for node in nodes])
    shape = (min(per, max(len(nodes) - 1, 1)),) + total.shape
    scores, gathered = np.empty(shape), np.empty(total.shape)
    for i, a in enumerate(nodes):
        partial = total - a.contribution
        partners = [j for j in range(i + 1, len(nodes)) if _join_allowed(cv, a, nodes[j])]
        for lo in range(0, len(partners), per):
            chunk = partners[lo:lo + per]
            # Tagged: a removal's cached entry for the same attributes is a contribution.
            keys = [("join",) + tuple(sorted(a.attributes + nodes[j].attributes)) for j in chunk]
            joined = cache.get_many(keys, lambda todo, chunk=chunk: cv.join_gathers(
                a, [nodes[chunk[t]] for t in todo]))
            out = scores[:len(chunk)]
            # Partners are usually consecutive nodes: a slice, not a gather.
            others = (contributions[chunk[0]:chunk[-1] + 1]
                      if chunk[-1] - chunk[0] == len(chunk) - 1 else contributions[chunk])
            np.subtract(partial, others, out=out)
            for t, value in enumerate(joined):
                if isinstance(value, tuple):
                    # The indices are in range by construction; with mode "raise" numpy
                    # would gather into a copy first.
                    value = value[0].take(value[1], 0, gathered, "clip")
                out[t] += value
            for j, score in zip(chunk, count_correct(out, cv.y).tolist()):
                if score > best_score:
                    best_score, best_move = score, ("join", i, j)
    return best_score, best_move


def _materialize_joins(cache: ContributionCache):
    """The cached joins (gathers) that another step will read become contributions, as far as
    the budget allows: a stored contribution is cheaper to read than to gather again, and
    the first step, often the only one, need not pay for storing them all."""
    for key, value in cache.values.items():
        if isinstance(value, tuple):
            contribution = value[0].take(value[1], axis=0)
            if cache.nbytes + contribution.nbytes > MAX_CACHE_BYTES:
                break
            cache.values[key] = contribution
            cache.nbytes += contribution.nbytes
    cache.nbytes = _held_bytes(cache.values.values())


def _apply_bsej_move(cv: InnerCV, nodes, total, move):
    """The nodes, total and trace entry (without accuracy) after ``move``."""
    if move[0] == "remove":
        _, i, a = move
        nodes = list(nodes)
        node = nodes.pop(i)
        total = total - node.contribution
        rest = tuple(x for x in node.attributes if x != a)
        if rest:
            shrunk = cv.group(rest)
            total = total + shrunk.contribution
            nodes.append(shrunk)
        entry = {"operation": "remove", "attributes": [a]}
    else:
        _, i, j = move
        a, b = nodes[i], nodes[j]
        joined = cv.join(a, b, compact=True)
        total = total - a.contribution - b.contribution + joined.contribution
        nodes = [n for k, n in enumerate(nodes) if k not in (i, j)] + [joined]
        entry = {"operation": "join", "attributes": [list(a.attributes), list(b.attributes)]}
    return sorted(nodes, key=lambda n: n.attributes), total, entry


def backward_elimination_joining(cv: InnerCV, epsilon: float = 0.0
                                 ) -> tuple[list[tuple[int, ...]], list[dict]]:
    """Pazzani's BSEJ on the engine's data.

    Candidates of a step: removing each attribute (from its node, which
    shrinks a joined node and deletes a single one), then joining each pair of
    nodes. Returns the node groups of the final semi-naive Bayes (each a sorted
    tuple of attribute indices, ordered by smallest attribute) and the trace.
    """
    nodes = [cv.group((j,)) for j in range(cv.X.shape[1])]
    gain = required_gain(cv.n, epsilon)
    total = cv.log_prior + sum(node.contribution for node in nodes)
    best = cv.correct(total)
    trace = [{"operation": "start", "attributes": [], "accuracy": best / cv.n}]
    cache = ContributionCache()
    while nodes:
        score, move = _best_bsej_move(cv, nodes, total, best, cache)
        if move is None or score < best + gain:
            break
        cache.keep_used()
        _materialize_joins(cache)
        best = score
        nodes, total, entry = _apply_bsej_move(cv, nodes, total, move)
        trace.append({**entry, "accuracy": best / cv.n})
    return [node.attributes for node in nodes], trace


class _SearchMemo:
    """The results of the last :data:`SIZE` BSEJ searches of this process, by a key that
    holds every input of a search: a digest of the rows and the classes, the cardinalities,
    the settings, the generator's state before it and the limit on tables of counts. A
    result is kept and returned as a deep copy (ASB adds its forest to the info it gets)."""

    SIZE = 8

    def __init__(self):
        self._results: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(X, y, cardinalities, n_classes, rng, settings) -> tuple:
        digest = hashlib.blake2b(digest_size=16)
        for array in (np.ascontiguousarray(X), np.ascontiguousarray(y)):
            digest.update(f"{array.dtype.str}{array.shape}".encode())
            digest.update(array.data)
        return (digest.hexdigest(), tuple(int(r) for r in cardinalities), int(n_classes),
                repr(rng.bit_generator.state), settings, current_table_limit())

    def get(self, key):
        """``(groups, info, generator state after the search)``, or None."""
        with self._lock:
            hit = self._results.get(key)
            if hit is not None:
                self._results.move_to_end(key)
        return copy.deepcopy(hit)

    def put(self, key, result) -> None:
        with self._lock:
            self._results[key] = copy.deepcopy(result)
            while len(self._results) > self.SIZE:
                self._results.popitem(last=False)


_SEARCHES = _SearchMemo()


class WrapperBase(AugmentedNaiveBayes):
    """Shared parameters and set-up of every wrapper: the inner cross-validation engine
    over the training data (here and in :mod:`.hill_climbing`)."""

    _parameter_constraints = {
        **AugmentedNaiveBayes._parameter_constraints,
        # alpha > 0: with alpha = 0 a value unseen in an inner training fold has
        # probability 0, and the held-out accuracies of candidates cannot be compared.
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "inner_folds": [Interval(Integral, 2, None, closed="left")],
        "epsilon": [Interval(Real, 0, 1, closed="left")],
        "random_state": [None, Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, *, alpha: float = 1.0, inner_folds: int = 5, epsilon: float = 0.0,
                 random_state=None, weights=None, missing: str = "skip"):
        self.alpha = alpha
        self.inner_folds = inner_folds
        self.epsilon = epsilon
        self.random_state = random_state
        self.weights = weights
        self.missing = missing

    def _rng(self) -> np.random.Generator:
        """The generator that places the examples into inner folds."""
        return np.random.default_rng(self.random_state)

    def _engine(self, X, y, cardinalities, n_classes, rng) -> InnerCV:
        return InnerCV(X, y, cardinalities, n_classes, float(self.alpha),
                       int(self.inner_folds), rng)


class FSS(WrapperBase):
    """Forward sequential selection (Langley and Sage 1994): a greedily grown selective naive Bayes.

    Starting from no attribute (the class prior alone), each step adds the
    attribute that most increases the stratified ``inner_folds``-fold accuracy
    of naive Bayes on the training data; the search stops when no addition is
    better by more than zero and by at least ``epsilon``. Ties go to the
    lowest attribute index.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Additive smoothing, in the inner evaluation and in the final model.
    inner_folds : int, default 5
        Folds of the inner cross-validation.
    epsilon : float in [0, 1), default 0.0
        Least gain in inner accuracy for a step to be taken (0: any strict gain).
    random_state : int or None
        Seeds the placement of examples into inner folds (and AWNB's bootstrap).
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Attributes
    ----------
    structure_ : Structure
        Naive Bayes over the selected attributes; ``info`` holds ``selected``
        (in order of addition), ``trace`` (each step with its inner accuracy)
        and ``inner_accuracy``.
    """

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        selected, trace = forward_selection(
            self._engine(X, y, cardinalities, n_classes, self._rng()), float(self.epsilon))
        return Structure.naive(X.shape[1], sorted(selected), info={
            "selected": selected, "trace": trace, "inner_accuracy": trace[-1]["accuracy"],
            "inner_folds": int(self.inner_folds)})


class BSEJ(WrapperBase):
    """Backward sequential elimination and joining (Pazzani 1996): a semi-naive Bayes.

    The model is ``p(c) prod_j p(x_Sj | c)`` over disjoint groups ``S_j`` of
    attributes, each group one Cartesian-product node. Starting from naive
    Bayes over every attribute, each step evaluates every removal of an
    attribute (from its group) and every join of two groups by stratified
    ``inner_folds``-fold accuracy on the training data, and applies the best
    one if it is strictly better (and by at least ``epsilon``); the search
    stops otherwise. On ties a removal beats a join and lower indices win
    (see the module docstring). Joins whose table would exceed
    ``MAX_JOIN_CELLS`` cells are not considered.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Additive smoothing, in the inner evaluation and in the final model.
    inner_folds : int, default 5
    epsilon : float in [0, 1), default 0.0
        Least gain in inner accuracy for a step to be taken (0: any strict gain).
    random_state : int or None
        Seeds the placement of examples into inner folds (and AWNB's bootstrap).
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Attributes
    ----------
    structure_ : Structure
        One node per group; ``info`` holds ``groups``, ``joined`` (groups of
        two or more), ``dropped``, ``trace`` (each accepted removal or join
        with its inner accuracy) and ``inner_accuracy``.
    """

    def _search(self, X, y, cardinalities, n_classes, rng):
        """The search's groups and info, and ``rng`` left as the search leaves it; the same
        search of this process (:class:`_SearchMemo`) is not run again."""
        key = _SearchMemo.key(X, y, cardinalities, n_classes, rng, (
            type(self)._engine.__qualname__, float(self.alpha), int(self.inner_folds),
            float(self.epsilon)))
        hit = _SEARCHES.get(key)
        if hit is not None:
            groups, info, rng.bit_generator.state = hit
            return groups, info
        groups, trace = backward_elimination_joining(
            self._engine(X, y, cardinalities, n_classes, rng), float(self.epsilon))
        used = {a for g in groups for a in g}
        info = {"groups": [list(g) for g in groups],
                "joined": [list(g) for g in groups if len(g) > 1],
                "dropped": [a for a in range(X.shape[1]) if a not in used],
                "trace": trace, "inner_accuracy": trace[-1]["accuracy"],
                "inner_folds": int(self.inner_folds)}
        _SEARCHES.put(key, (groups, info, rng.bit_generator.state))
        return groups, info

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        groups, info = self._search(X, y, cardinalities, n_classes, self._rng())
        return Structure(tuple(Node(g) for g in groups), X.shape[1], info=info)


class ASB(BSEJ):
    """Augmented semi-naive Bayes (Mihaljevic, Larranaga and Bielza 2013, Algorithm 1).

    BSEJ's semi-naive Bayes, augmented with a maximum weighted forest among its
    groups::

        p(c, x) = p(c) prod_{i in R} p(x_Si | c) prod_{i not in R} p(x_Si | x_Sj(i), c)

    For every pair of groups, the G-test of ``X_Si _||_ X_Sj | C`` (chi-square
    with ``(r_Si - 1)(r_Sj - 1) r_C`` degrees of freedom, ``r_S`` the product of
    the group's cardinalities) keeps the edge when it is reliable (``N /
    (r_Si r_Sj r_C) >= 5``) and ``p < significance``, with weight
    ``I(X_Si; X_Sj | C)``. Kruskal's algorithm gives the maximum weighted
    forest; each tree is directed away from a root and a child group's table
    is conditioned on the joint value of its parent group (an arc from every
    parent attribute to every child attribute). Algorithm 1 draws each root at
    random; the root changes only the smoothing, not the maximum-likelihood
    distribution, so by default (``root="first"``) it is the tree's first group
    (lowest attribute index), as in :class:`~bayesbench.models.search.selective.STAN`;
    ``root="random"`` draws it as Algorithm 1 does, seeded by ``random_state``.

    Parameters
    ----------
    alpha : float > 0, default 1.0
    inner_folds : int, default 5
        Folds of BSEJ's inner cross-validation.
    epsilon : float in [0, 1), default 0.0
        BSEJ's least gain in inner accuracy for a step.
    significance : float, default 0.05
        Level of the conditional independence tests.
    random_state : int or None
        Seeds the placement of examples into BSEJ's inner folds (and AWNB's bootstrap),
        and the roots with ``root="random"``.
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    root : {'first', 'random'}, default 'first'
        Each tree's root group: the one with the lowest attribute index, or drawn
        uniformly among the tree's groups (Algorithm 1, step 13).

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds BSEJ's entries plus ``tests`` (one record per pair of
        groups), ``arcs`` (parent group, child group, weight) and ``roots``.
    """

    _parameter_constraints = {**WrapperBase._parameter_constraints,
                              "significance": SIGNIFICANCE,
                              "root": [StrOptions({"first", "random"})]}

    def __init__(self, *, alpha: float = 1.0, inner_folds: int = 5, epsilon: float = 0.0,
                 significance: float = 0.05, random_state=None, weights=None,
                 root: str = "first", missing: str = "skip"):
        self.alpha = alpha
        self.inner_folds = inner_folds
        self.epsilon = epsilon
        self.significance = significance
        self.random_state = random_state
        self.weights = weights
        self.root = root
        self.missing = missing

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        significance = float(self.significance)
        rng = self._rng()
        groups, info = self._search(X, y, cardinalities, n_classes, rng)
        group_cards = [prod(int(cardinalities[a]) for a in g) for g in groups]
        codes = np.empty((X.shape[0], len(groups)), dtype=np.int64)
        for k, g in enumerate(groups):
            codes[:, k] = joint_index(X, g, cardinalities)
        # A uniform permutation roots each tree at a uniformly drawn member, drawn after the
        # search so that the search's folds are those of root="first".
        order = rng.permutation(len(groups)).tolist() if self.root == "random" else None
        parent_of, forest = dependence_forest(codes, group_cards, y, n_classes, significance,
                                              labels=[list(g) for g in groups], order=order)
        info.update(forest)
        nodes = [Node(g, () if parent_of[k] is None else groups[parent_of[k]])
                 for k, g in enumerate(groups)]
        return Structure(tuple(nodes), X.shape[1], info=info)
