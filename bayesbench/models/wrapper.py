"""Wrapper learners: structures chosen by inner cross-validated accuracy (FSS, BSEJ, ASB).

* :class:`FSS`, forward sequential selection (Langley and Sage 1994): naive
  Bayes over a subset grown greedily from the empty set.
* :class:`BSEJ`, backward sequential elimination and joining (Pazzani 1996):
  from naive Bayes over all attributes, greedily remove an attribute or join
  two nodes into their Cartesian product.
* :class:`ASB`, augmented semi-naive Bayes (Mihaljevic, Larranaga and Bielza
  2013, Algorithm 1): BSEJ's model plus a maximum weighted forest among its
  node groups, drawn from tests of conditional independence.

Each search step scores every candidate by stratified ``inner_folds``-fold
accuracy on the training data only, takes the best one if it is *strictly*
better than the current model, and stops otherwise. Scores come from
:mod:`._inner_cv`, which never refits: it adds and subtracts cached per-node
held-out log-likelihoods, so each estimate equals the held-out accuracy of a
refitted model with the same smoothing ``alpha`` as the final one.

Ties between equally accurate candidates are broken by a fixed enumeration
order, the first one wins: FSS tries attributes in index order; BSEJ tries
every removal (nodes ordered by their smallest attribute) before every join
(pairs of nodes in lexicographic order), so on a tie the smaller model wins.
"""
from __future__ import annotations

from math import prod

import numpy as np

from ..errors import ClassifierError
from ._inner_cv import InnerCV, NodeScore
from .anb import AugmentedNaiveBayes
from .counting import joint_index
from .independence import conditional_independence_test
from .selective import check_significance, dependence_forest
from .structure import Node, Structure

#: A join whose table would have more cells than this (classes x joint values)
#: is not a candidate: the final model stores dense tables, and a product that
#: large has almost every cell empty on any data set that fits in memory.
MAX_JOIN_CELLS = 2 ** 22


def forward_selection(cv: InnerCV) -> tuple[list[int], list[dict]]:
    """Langley and Sage's FSS on the engine's data.

    Returns the selected attributes in order of addition and the search trace
    (one entry per accepted step, with the inner accuracy after it).
    """
    total = cv.log_prior.copy()
    best = cv.correct(total)
    trace = [{"operation": "start", "attributes": [], "accuracy": best / cv.n}]
    nodes = [cv.attribute(j) for j in range(cv.X.shape[1])]
    selected: list[int] = []
    remaining = list(range(len(nodes)))
    while remaining:
        scores = [cv.correct(total + nodes[j].contribution) for j in remaining]
        k = int(np.argmax(scores))
        if scores[k] <= best:
            break
        j = remaining.pop(k)
        selected.append(j)
        total += nodes[j].contribution
        best = scores[k]
        trace.append({"operation": "add", "attributes": [j], "accuracy": best / cv.n})
    return selected, trace


def _join_allowed(cv: InnerCV, a: NodeScore, b: NodeScore) -> bool:
    return a.cardinality * b.cardinality * cv.n_classes <= MAX_JOIN_CELLS


def backward_elimination_joining(cv: InnerCV) -> tuple[list[tuple[int, ...]], list[dict]]:
    """Pazzani's BSEJ on the engine's data.

    Returns the node groups of the final semi-naive Bayes (each a sorted tuple
    of attribute indices, ordered by smallest attribute) and the search trace.
    """
    nodes = [cv.attribute(j) for j in range(cv.X.shape[1])]
    total = cv.log_prior + sum(node.contribution for node in nodes)
    best = cv.correct(total)
    trace = [{"operation": "start", "attributes": [], "accuracy": best / cv.n}]
    # Joined contributions are cached per pair of node attribute tuples: a pair
    # stays valid until one of its nodes is removed or joined.
    joins: dict[tuple, NodeScore] = {}
    while nodes:
        best_score, best_move = best, None
        for i, node in enumerate(nodes):
            score = cv.correct(total - node.contribution)
            if score > best_score:
                best_score, best_move = score, ("remove", i)
        for i in range(len(nodes)):
            a = nodes[i]
            partial = total - a.contribution
            for j in range(i + 1, len(nodes)):
                b = nodes[j]
                if not _join_allowed(cv, a, b):
                    continue
                key = (a.attributes, b.attributes)
                joined = joins.get(key)
                if joined is None:
                    joined = joins[key] = cv.join(a, b)
                score = cv.correct(partial - b.contribution + joined.contribution)
                if score > best_score:
                    best_score, best_move = score, ("join", i, j)
        if best_move is None:
            break
        best = best_score
        if best_move[0] == "remove":
            gone = nodes.pop(best_move[1])
            total = total - gone.contribution
            trace.append({"operation": "remove", "attributes": list(gone.attributes),
                          "accuracy": best / cv.n})
            stale = {gone.attributes}
        else:
            _, i, j = best_move
            a, b = nodes[i], nodes[j]
            joined = cv.join(a, b, compact=True)
            total = total - a.contribution - b.contribution + joined.contribution
            nodes = [n for k, n in enumerate(nodes) if k not in (i, j)] + [joined]
            nodes.sort(key=lambda n: n.attributes)
            trace.append({"operation": "join", "attributes": [list(a.attributes),
                                                              list(b.attributes)],
                          "accuracy": best / cv.n})
            stale = {a.attributes, b.attributes}
        joins = {key: v for key, v in joins.items() if not (set(key) & stale)}
    return [node.attributes for node in nodes], trace


def _check_folds(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
        raise ClassifierError(f"inner_folds must be an integer >= 2, got {value!r}")
    return int(value)


class _WrapperBase(AugmentedNaiveBayes):
    """Shared set-up: the inner cross-validation engine over the training data."""

    def __init__(self, alpha: float = 1.0, inner_folds: int = 5, random_state=None):
        self.alpha = alpha
        self.inner_folds = inner_folds
        self.random_state = random_state

    def _engine(self, X, y, cardinalities, n_classes, rng) -> InnerCV:
        return InnerCV(X, y, cardinalities, n_classes, float(self.alpha),
                       _check_folds(self.inner_folds), rng)


class FSS(_WrapperBase):
    """Forward sequential selection (Langley and Sage 1994): a greedily grown selective naive Bayes.

    Starting from no attribute (the class prior alone), each step adds the
    attribute that most increases the stratified ``inner_folds``-fold accuracy
    of naive Bayes on the training data; the search stops when no addition is
    strictly better. Ties go to the lowest attribute index.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Additive smoothing, in the inner evaluation and in the final model.
    inner_folds : int, default 5
        Folds of the inner cross-validation.
    random_state : int or None
        Seeds the placement of examples into inner folds.

    Attributes
    ----------
    structure_ : Structure
        Naive Bayes over the selected attributes; ``info`` holds ``selected``
        (in order of addition), ``trace`` (each step with its inner accuracy)
        and ``inner_accuracy``.
    """

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        rng = np.random.default_rng(self.random_state)
        selected, trace = forward_selection(self._engine(X, y, cardinalities, n_classes, rng))
        return Structure.naive(X.shape[1], sorted(selected), info={
            "selected": selected, "trace": trace, "inner_accuracy": trace[-1]["accuracy"],
            "inner_folds": int(self.inner_folds)})


class BSEJ(_WrapperBase):
    """Backward sequential elimination and joining (Pazzani 1996): a semi-naive Bayes.

    The model is ``p(c) prod_j p(x_Sj | c)`` over disjoint groups ``S_j`` of
    attributes, each group one Cartesian-product node. Starting from naive
    Bayes over every attribute, each step evaluates every removal of a node
    and every join of two nodes by stratified ``inner_folds``-fold accuracy on
    the training data, and applies the best one if it is strictly better; the
    search stops otherwise. On ties a removal beats a join and earlier nodes
    beat later ones (see the module docstring). Joins whose table would exceed
    ``MAX_JOIN_CELLS`` cells are not considered.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Additive smoothing, in the inner evaluation and in the final model.
    inner_folds : int, default 5
    random_state : int or None
        Seeds the placement of examples into inner folds.

    Attributes
    ----------
    structure_ : Structure
        One node per group; ``info`` holds ``groups``, ``joined`` (groups of
        two or more), ``dropped``, ``trace`` (each accepted removal or join
        with its inner accuracy) and ``inner_accuracy``.
    """

    def _search(self, X, y, cardinalities, n_classes, rng):
        groups, trace = backward_elimination_joining(
            self._engine(X, y, cardinalities, n_classes, rng))
        used = {a for g in groups for a in g}
        info = {"groups": [list(g) for g in groups],
                "joined": [list(g) for g in groups if len(g) > 1],
                "dropped": [a for a in range(X.shape[1]) if a not in used],
                "trace": trace, "inner_accuracy": trace[-1]["accuracy"],
                "inner_folds": int(self.inner_folds)}
        return groups, info

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        groups, info = self._search(X, y, cardinalities, n_classes,
                                    np.random.default_rng(self.random_state))
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
    distribution, so here it is the tree's first group (lowest attribute
    index), as in :class:`~bayesbench.models.selective.STAN`.

    Parameters
    ----------
    alpha : float > 0, default 1.0
    inner_folds : int, default 5
        Folds of BSEJ's inner cross-validation.
    significance : float, default 0.05
        Level of the conditional independence tests.
    random_state : int or None
        Seeds the placement of examples into BSEJ's inner folds.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds BSEJ's entries plus ``tests`` (one record per pair of
        groups), ``arcs`` (parent group, child group, weight) and ``roots``.
    """

    def __init__(self, alpha: float = 1.0, inner_folds: int = 5, significance: float = 0.05,
                 random_state=None):
        self.alpha = alpha
        self.inner_folds = inner_folds
        self.significance = significance
        self.random_state = random_state

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        significance = check_significance(self.significance)
        groups, info = self._search(X, y, cardinalities, n_classes,
                                    np.random.default_rng(self.random_state))
        group_cards = [prod(int(cardinalities[a]) for a in g) for g in groups]
        codes = np.empty((X.shape[0], len(groups)), dtype=np.int64)
        for k, g in enumerate(groups):
            codes[:, k] = joint_index(X, g, cardinalities)
        parent_of, forest = dependence_forest(codes, group_cards, y, n_classes, significance,
                                              labels=[list(g) for g in groups])
        info.update(forest)
        nodes = [Node(g, () if parent_of[k] is None else groups[parent_of[k]])
                 for k, g in enumerate(groups)]
        return Structure(tuple(nodes), X.shape[1], info=info)
