"""Greedy hill-climbing structure searches by inner cross-validated accuracy (bnclassify).

* :class:`TANHC` (``tan_hc``): Keogh and Pazzani's hill-climbing TAN. From
  naive Bayes over every attribute, each step adds the arc ``X_p -> X_c`` that
  most improves accuracy, where ``X_c`` has no attribute parent yet and the
  arc closes no cycle, so the model stays a forest of one-dependence trees.
  Between two parentless attributes only the arc from the lower index is
  tried: either direction gives the same maximum-likelihood model.
* :class:`TANHCSP` (``tan_hcsp``): Keogh and Pazzani's SuperParent. Each step
  first picks the *super-parent*: the attribute ``X_s`` whose arcs to every
  parentless attribute it may take as a child (not itself, not one of its
  ancestors) give the best accuracy; then adds the one arc ``X_s -> X_c``
  (its *favourite child*) that does best alone.
* :class:`FSSJ` (``fssj``): Pazzani's forward sequential selection and
  joining. From the class alone, each step either adds an unused attribute
  as a node of its own, or joins an unused attribute into an existing node
  (the Cartesian product, as BSEJ's joins).
* :class:`KDBHC` (``kdb_hc``): bnclassify's greedy k-dependence search. From
  naive Bayes, each step adds the arc ``X_p -> X_c`` that most improves
  accuracy, where ``X_c`` has fewer than ``k`` attribute parents, ``X_p`` is
  not one yet, and the arc closes no cycle.

Every candidate is scored by stratified ``inner_folds``-fold accuracy on the
training data, by the count-subtracting engine of :mod:`.inner_cv` (a new
arc changes one node's table, so a candidate costs one addition to the
current total of held-out log-likelihoods). A step is taken when the best
candidate is correct on at least one more example than the current model
and better by at least ``epsilon`` (a share of the examples; bnclassify's
stopping rule, its default 0.01); otherwise the search stops. With
``accept_ties`` a step need not gain any example beyond ``epsilon``, as in
bnclassify, where ``epsilon = 0`` also takes steps that keep the accuracy
(the search still ends: every step adds an arc or an attribute), and the
search stops once every example is predicted correctly. Ties go to the
first candidate in the order given above (for arcs: lowest child index, then
lowest parent index; for FSSJ: additions before joins, lower attribute
indices first, then the node with the smallest attribute); bnclassify breaks
them at random.

References: Keogh and Pazzani (1999), "Learning augmented Bayesian
classifiers: a comparison of distribution-based and classification-based
approaches", AISTATS; Pazzani (1996), "Constructive induction of Cartesian
product attributes", ISIS; Mihaljevic, Bielza and Larranaga (2018),
"bnclassify: learning Bayesian network classifiers", The R Journal 10(2).
"""
from __future__ import annotations

import math
from numbers import Integral

import numpy as np

from .inner_cv import InnerCV, NodeScore, count_correct
from ..core.structure import Node, Structure
from ..core.constraints import Interval
from .wrapper import MAX_JOIN_CELLS, ContributionCache, WrapperBase, required_gain


def ancestors(parents, attribute: int) -> set[int]:
    """The attribute ancestors of ``attribute`` given each attribute's parents."""
    seen, stack = set(), list(parents[attribute])
    while stack:
        a = stack.pop()
        if a not in seen:
            seen.add(a)
            stack.extend(parents[a])
    return seen


def tan_hc_arcs(parents) -> list[tuple[int, int]]:
    """Keogh and Pazzani's candidate arcs ``(parent, child)``, in search order.

    The child has no attribute parent; the parent is not the child nor one of
    its descendants; between two parentless attributes only the lower index
    is the parent.
    """
    orphans = [a for a in range(len(parents)) if not parents[a]]
    arcs = []
    for c in orphans:
        for p in range(len(parents)):
            if p == c or (not parents[p] and p > c) or c in ancestors(parents, p):
                continue
            arcs.append((p, c))
    return arcs


def superparent_children(parents) -> dict[int, list[int]]:
    """Each possible super-parent with the parentless attributes it may take as children."""
    orphans = [a for a in range(len(parents)) if not parents[a]]
    out = {}
    for s in range(len(parents)):
        above = ancestors(parents, s)
        children = [o for o in orphans if o != s and o not in above]
        if children:
            out[s] = children
    return out


def kdb_arcs(parents, k: int) -> list[tuple[int, int]]:
    """Candidate arcs of the k-dependence search ``(parent, child)``, in search order."""
    arcs = []
    for c in range(len(parents)):
        if len(parents[c]) >= k:
            continue
        for p in range(len(parents)):
            if p != c and p not in parents[c] and c not in ancestors(parents, p):
                arcs.append((p, c))
    return arcs


def fssj_moves(groups, cardinalities, n_classes: int) -> list[tuple]:
    """FSSJ's candidate moves from the node groups ``groups``, in search order.

    ``("add", a, None)`` for each unused attribute, then ``("join", a, i)``
    for each unused attribute and each group ``i`` whose table, joined with
    ``a``, stays within ``MAX_JOIN_CELLS`` cells.
    """
    used = {a for g in groups for a in g}
    unused = [a for a in range(len(cardinalities)) if a not in used]
    sizes = [math.prod(int(cardinalities[a]) for a in g) for g in groups]
    return [("add", a, None) for a in unused] + [
        ("join", a, i) for a in unused for i in range(len(groups))
        if sizes[i] * int(cardinalities[a]) * n_classes <= MAX_JOIN_CELLS]


class ArcSearch:
    """The current model of an arc search (each attribute a node) and its held-out total."""

    def __init__(self, cv: InnerCV, epsilon: float, accept_ties: bool = False):
        self.cv = cv
        self.gain = required_gain(cv.n, epsilon, accept_ties)
        m = cv.X.shape[1]
        self.parents: list[tuple[int, ...]] = [() for _ in range(m)]
        self.cache = ContributionCache()
        self.node = [self.family(a, ()) for a in range(m)]
        self.total = cv.log_prior + sum(self.node, np.zeros_like(cv.log_prior))
        self.correct = cv.correct(self.total)
        self.trace = [{"operation": "start", "accuracy": self.correct / cv.n}]

    def family(self, child: int, parents) -> np.ndarray:
        parents = tuple(sorted(parents))
        return self.cache.get((child, parents), lambda: self.cv.family((child,), parents))

    def with_parent(self, parent: int, child: int) -> np.ndarray:
        """The held-out total if ``parent`` became a parent of ``child``."""
        return self.total - self.node[child] + self.family(child, self.parents[child] + (parent,))

    def score(self, arcs) -> list[int]:
        """Correct predictions of each model with one more arc, children batched together."""
        y = self.cv.y
        by_child: dict[int, list[int]] = {}
        for p, c in arcs:
            by_child.setdefault(c, []).append(p)
        correct = {}
        for c, ps in by_child.items():
            base = self.total - self.node[c]
            stacked = np.empty((len(ps),) + base.shape)
            for i, p in enumerate(ps):
                np.add(base, self.family(c, self.parents[c] + (p,)), out=stacked[i])
            hits = count_correct(stacked, y)
            correct.update({(p, c): int(h) for p, h in zip(ps, hits)})
        return [correct[arc] for arc in arcs]

    def improves(self, correct: int) -> bool:
        return self.correct < self.cv.n and correct >= self.correct + self.gain

    def add(self, parent: int, child: int, correct: int, **extra):
        self.total = self.with_parent(parent, child)
        self.parents[child] = tuple(sorted(self.parents[child] + (parent,)))
        self.node[child] = self.family(child, self.parents[child])
        self.correct = correct
        self.trace.append({"operation": "arc", "parent": parent, "child": child, **extra,
                           "accuracy": correct / self.cv.n})

    def greedy(self, candidates) -> None:
        """Add the best of ``candidates(parents)`` while it improves enough."""
        while True:
            arcs = candidates(self.parents)
            if not arcs:
                return
            scores = self.score(arcs)
            best = int(np.argmax(scores))
            if not self.improves(scores[best]):
                return
            self.add(*arcs[best], scores[best])


def superparent_search(search: ArcSearch) -> None:
    """Keogh and Pazzani's SuperParent steps on ``search`` (see the module docstring)."""
    y = search.cv.y
    while True:
        options = superparent_children(search.parents)
        if not options:
            return
        totals = np.stack([search.total + sum(search.family(o, (s,)) - search.node[o]
                                              for o in children)
                           for s, children in options.items()])
        sp_scores = count_correct(totals, y)
        k = int(np.argmax(sp_scores))
        s = list(options)[k]
        arcs = [(s, o) for o in options[s]]
        scores = search.score(arcs)
        best = int(np.argmax(scores))
        if not search.improves(scores[best]):
            return
        search.add(*arcs[best], scores[best],
                   superparent_accuracy=int(sp_scores[k]) / search.cv.n)


def forward_selection_joining(cv: InnerCV, epsilon: float, accept_ties: bool = False):
    """Pazzani's FSSJ on the engine's data: returns the node groups and the trace."""
    gain = required_gain(cv.n, epsilon, accept_ties)
    cache = ContributionCache()
    singles = [cache.get((a,), lambda a=a: cv.group((a,))) for a in range(cv.X.shape[1])]
    nodes: list[NodeScore] = []
    total = cv.log_prior.copy()
    best = cv.correct(total)
    trace = [{"operation": "start", "accuracy": best / cv.n}]
    while True:
        moves = fssj_moves([nd.attributes for nd in nodes], cv.cardinalities, cv.n_classes)
        if not moves:
            break

        def after(move, out=None):
            kind, a, i = move
            if kind == "add":
                return np.add(total, singles[a].contribution, out=out)
            key = tuple(sorted(nodes[i].attributes + (a,)))
            joined = cache.get(key, lambda: cv.join(nodes[i], singles[a]))
            out = np.subtract(total, nodes[i].contribution, out=out)
            out += joined.contribution
            return out

        # Scored a stack at a time; the first best in this order wins, as one by one.
        scores = cv.correct_stacked(len(moves), lambda t, out: after(moves[t], out))
        k = int(np.argmax(scores))
        if best == cv.n or scores[k] < best + gain:
            break
        kind, a, i = moves[k]
        total, best = after(moves[k]), scores[k]
        if kind == "add":
            nodes.append(singles[a])
            trace.append({"operation": "add", "attributes": [a], "accuracy": best / cv.n})
        else:
            key = tuple(sorted(nodes[i].attributes + (a,)))
            trace.append({"operation": "join", "attributes": [list(nodes[i].attributes), [a]],
                          "accuracy": best / cv.n})
            nodes[i] = cache.get(key, lambda: cv.join(nodes[i], singles[a]))
        nodes.sort(key=lambda nd: nd.attributes)
    return [nd.attributes for nd in nodes], trace


class HillClimbingWrapper(WrapperBase):
    """The wrappers' parameters plus ``accept_ties``; subclasses implement ``_search(cv)``."""

    _parameter_constraints = {**WrapperBase._parameter_constraints, "accept_ties": ["boolean"]}

    def __init__(self, *, alpha: float = 1.0, inner_folds: int = 5, epsilon: float = 0.0,
                 accept_ties: bool = False, random_state=None, weights=None,
                 missing: str = "skip"):
        super().__init__(alpha=alpha, inner_folds=inner_folds, epsilon=epsilon,
                         random_state=random_state, weights=weights, missing=missing)
        self.accept_ties = accept_ties

    def _search(self, cv: InnerCV) -> Structure:
        raise NotImplementedError

    def _start(self, cv: InnerCV) -> "ArcSearch":
        return ArcSearch(cv, float(self.epsilon), bool(self.accept_ties))

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        return self._search(self._engine(X, y, cardinalities, n_classes, self._rng()))

    def _arc_structure(self, search: ArcSearch) -> Structure:
        arcs = [(p, c) for c, ps in enumerate(search.parents) for p in ps]
        return Structure.from_parents(search.parents, info={
            "learner": type(self).__name__, "arcs": arcs, "trace": search.trace,
            "inner_accuracy": search.trace[-1]["accuracy"], "inner_folds": int(self.inner_folds)})


class TANHC(HillClimbingWrapper):
    """Keogh and Pazzani's hill-climbing TAN: arcs added greedily by inner accuracy.

    See the module docstring for the search and its stopping rule. The result
    is a forest: each attribute has the class and at most one attribute as
    parents.

    Parameters
    ----------
    alpha : float > 0, default 1.0
        Additive smoothing, in the inner evaluation and in the final model.
    inner_folds : int >= 2, default 5
        Folds of the stratified inner cross-validation.
    epsilon : float in [0, 1), default 0.0
        Least gain in inner accuracy for a step (bnclassify's default is 0.01).
    accept_ties : bool, default False
        Take a step that gains nothing beyond ``epsilon`` (bnclassify's rule;
        see the module docstring). By default a step must gain an example.
    random_state : int or None
        Seeds the placement of examples into inner folds.
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``arcs`` (parent, child), ``trace`` (each added arc
        with the inner accuracy after it) and ``inner_accuracy``.
    """

    def _search(self, cv):
        search = self._start(cv)
        search.greedy(tan_hc_arcs)
        return self._arc_structure(search)


class TANHCSP(HillClimbingWrapper):
    """Keogh and Pazzani's SuperParent TAN: a super-parent, then its favourite child.

    Parameters and attributes as :class:`TANHC`; each entry of the trace also
    holds the chosen super-parent's inner accuracy (``superparent_accuracy``).
    """

    def _search(self, cv):
        search = self._start(cv)
        superparent_search(search)
        return self._arc_structure(search)


class KDBHC(HillClimbingWrapper):
    """bnclassify's greedy k-dependence classifier: arcs by accuracy, at most ``k`` parents.

    Beside :class:`~bayesbench.models.learners.kdb.KDB`, Sahami's filter, which orders
    attributes by mutual information. Parameters and attributes as
    :class:`TANHC`, plus

    k : int >= 0, default 2
        Most attribute parents of an attribute (bnclassify's ``kdbk``).
    """

    _parameter_constraints = {**HillClimbingWrapper._parameter_constraints,
                              "k": [Interval(Integral, 0, None, closed="left")]}

    def __init__(self, *, alpha: float = 1.0, k: int = 2, inner_folds: int = 5,
                 epsilon: float = 0.0, accept_ties: bool = False, random_state=None,
                 weights=None, missing: str = "skip"):
        super().__init__(alpha=alpha, inner_folds=inner_folds, epsilon=epsilon,
                         accept_ties=accept_ties, random_state=random_state, weights=weights,
                         missing=missing)
        self.k = k

    def _search(self, cv):
        search = self._start(cv)
        search.greedy(lambda parents: kdb_arcs(parents, int(self.k)))
        structure = self._arc_structure(search)
        structure.info["k"] = int(self.k)
        return structure


class FSSJ(HillClimbingWrapper):
    """Pazzani's forward sequential selection and joining: a semi-naive Bayes grown from nothing.

    The model is ``p(c) prod_j p(x_Sj | c)`` over disjoint groups ``S_j``
    (each one Cartesian-product node), as BSEJ's; FSSJ grows it forwards (see
    the module docstring), so attributes that never help are left out. Joins
    whose table would exceed ``MAX_JOIN_CELLS`` cells are not considered.
    Parameters as :class:`TANHC`.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``groups``, ``joined`` (groups of two or more),
        ``dropped``, ``trace`` and ``inner_accuracy``.
    """

    def _search(self, cv):
        groups, trace = forward_selection_joining(cv, float(self.epsilon),
                                                  bool(self.accept_ties))
        m = cv.X.shape[1]
        used = {a for g in groups for a in g}
        return Structure(tuple(Node(g) for g in groups), m, info={
            "learner": "FSSJ", "groups": [list(g) for g in groups],
            "joined": [list(g) for g in groups if len(g) > 1],
            "dropped": [a for a in range(m) if a not in used], "trace": trace,
            "inner_accuracy": trace[-1]["accuracy"], "inner_folds": int(self.inner_folds)})
