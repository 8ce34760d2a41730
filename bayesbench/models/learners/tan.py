"""Tree-augmented naive Bayes: Chow-Liu over I(Xi; Xj | C) (TAN) or Zhang's I_D (ddr-TAN).

Friedman, Geiger and Goldszmidt's TAN (papers 001 Eq. 15, 002, 004): weight
every attribute pair by the conditional mutual information given the class,
take a maximum weighted spanning tree (Kruskal), direct it away from a root,
and add the class as a parent of every attribute. Zhang's ddr-ChowLiu (paper
001, Sec. 5) is the same with the dependence-distribution weight I_D.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np

from .anb import AugmentedNaiveBayes, StatisticsANB
from ...measures.information import (conditional_mutual_information_matrix,
                          ddr_from_counts, ddr_information_matrix)
from ...measures.likelihood_scores import ARC_SCORES, arc_gain, arc_score_matrix
from ..parameters.estimators import ESTIMATOR_PARAMETERS, EstimatorChoice
from ..core.structure import Structure
from ..core.constraints import Interval, StrOptions, parameter_error
from ...measures.ties import TIE_DECIMALS

def maximum_spanning_forest(weights: np.ndarray, attributes=None,
                            min_weight: float | None = None) -> list[tuple[int, int]]:
    """Kruskal's maximum weighted spanning tree (or forest), deterministically.

    Edges are taken by decreasing weight; weights equal to 12 decimals are
    ties, broken by the smaller ``(i, j)`` index pair first, so the result does
    not depend on floating-point noise in the last digits. With ``min_weight``
    edges whose weight is not above it are never added, which gives a forest
    (STAN, ASB). Returns the undirected edges ``(i, j)``, ``i < j``, in the
    order they were added.
    """
    atts = list(range(weights.shape[0])) if attributes is None else sorted(attributes)
    candidates = [(-round(float(weights[i, j]), TIE_DECIMALS), i, j)
                  for a, i in enumerate(atts) for j in atts[a + 1:]]
    candidates.sort()
    root = {a: a for a in atts}

    def find(a):
        while root[a] != a:
            root[a] = root[root[a]]
            a = root[a]
        return a

    edges = []
    for neg_w, i, j in candidates:
        if min_weight is not None and -neg_w <= min_weight:
            break
        ri, rj = find(i), find(j)
        if ri != rj:
            root[max(ri, rj)] = min(ri, rj)
            edges.append((i, j))
            if len(edges) == len(atts) - 1:
                break
    return edges


def orient(edges, n_attributes: int, attributes=None, root: int | None = None,
           order=None) -> list:
    """Direct undirected tree/forest edges away from a root in each component.

    ``root`` (default: the first attribute) roots its component; every other
    component is rooted at its first attribute in ``order`` (a sequence of
    attributes; default: index order), else at its lowest-index attribute.
    Returns ``parent_of`` (``None`` for a root), suitable for
    :meth:`Structure.from_parents`.
    """
    atts = list(range(n_attributes)) if attributes is None else sorted(attributes)
    adjacent = {a: [] for a in atts}
    for i, j in edges:
        adjacent[i].append(j)
        adjacent[j].append(i)
    parent_of: list = [None] * n_attributes
    seen = set()
    tried = ([root] if root is not None else []) + list(order if order is not None else ()) + atts
    for r in tried:
        if r in seen:
            continue
        seen.add(r)
        frontier = [r]
        while frontier:
            nxt = []
            for a in frontier:
                for b in sorted(adjacent[a]):
                    if b not in seen:
                        seen.add(b)
                        parent_of[b] = a
                        nxt.append(b)
            frontier = nxt
    return parent_of


class TAN(EstimatorChoice, StatisticsANB):
    """Tree-augmented naive Bayes: the Chow-Liu tree over ``I(Xi; Xj | C)``, or a score's forest.

    Structure: the maximum weighted spanning tree of the complete graph whose
    edge ``(i, j)`` weighs ``I(Xi; Xj | C)`` (empirical, rows missing either
    attribute left out), found by Kruskal with ties broken by the smaller
    index pair (see :func:`maximum_spanning_forest`), and directed away from
    ``root``. Each attribute then has the class and at most one attribute as
    parents. Tables are smoothed with ``alpha`` as in
    :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Parameters
    ----------
    alpha : float, default 1.0
        Pseudo-count per table cell (Weka's BayesNet uses 0.5).
    root : int, default 0
        Index of the root attribute (the choice changes only the smoothing,
        not the maximum-likelihood joint distribution).
    criterion : {'cmi', 'loglik', 'aic', 'bic'}, default 'cmi'
        ``'cmi'``: the spanning tree above. Otherwise edge ``(i, j)`` weighs
        what the arc adds to that score (:func:`~bayesbench.models.core.scores.
        arc_score_matrix`: ``N I`` minus AIC's or BIC's penalty) and only
        edges of positive weight are kept, so the result is the maximum
        weighted *forest*: each arc is there only if it improves the score
        (bnclassify's ``tan_cl(score=)``; Friedman et al. 1997, sec. 4.2).
        Not named ``score``, which is every estimator's accuracy method.
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    estimator, iterations, tying, random_state, l2, max_iter, tol
        The parameter estimator (``laplace``, ``m``, ``hdp`` or ``cll``) and its settings:
        see :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``"weights"`` (the ``(m, m)`` matrix), ``"tree"`` (the
        undirected edges in the order Kruskal added them) and ``"root"``.
    """

    _parameter_constraints = {**AugmentedNaiveBayes._parameter_constraints, **ESTIMATOR_PARAMETERS,
                              "root": [Interval(Integral, 0, None, closed="left")],
                              "criterion": [StrOptions({"cmi", *ARC_SCORES})]}

    def __init__(self, *, alpha: float = 1.0, root: int = 0, criterion: str = "cmi",
                 weights=None,
                 estimator: str = "laplace", iterations: int = 1000,
                 tying: str = "level", random_state=None, missing: str = "skip",
                 l2: float = 0.0, max_iter: int = 1000, tol: float = 1e-4):
        self.alpha = alpha
        self.root = root
        self.criterion = criterion
        self.weights = weights
        self.estimator, self.iterations = estimator, iterations
        self.tying, self.random_state = tying, random_state
        self.missing = missing
        self.l2, self.max_iter, self.tol = l2, max_iter, tol

    def _measure(self) -> str:
        return self.criterion

    def _weights(self, X, y, cardinalities, n_classes):
        if self.criterion == "cmi":
            return conditional_mutual_information_matrix(X, y, cardinalities, n_classes)
        return arc_score_matrix(X, y, cardinalities, n_classes, self.criterion)

    def _statistics_weights(self, stats):
        if self.criterion == "cmi":
            return stats.cmi_matrix()
        return stats.pair_matrix(lambda n: arc_gain(n, self.criterion))

    def _check_root(self, m: int) -> int:
        root = int(self.root)
        if m and root >= m:
            raise parameter_error(type(self).__name__, "root",
                                  f"an attribute index in 0..{m - 1}", self.root)
        return root

    def _learn_structure(self, X, y, cardinalities, n_classes):
        self._check_root(X.shape[1])
        return self._tree(self._weights(X, y, cardinalities, n_classes))

    def _statistics_structure(self, stats):
        self._check_root(stats.n_attributes)
        return self._tree(self._statistics_weights(stats))

    def _tree(self, weights):
        """The structure whose attribute tree is the spanning tree (forest) of ``weights``."""
        m, root = weights.shape[0], int(self.root)
        measure = self._measure()
        # A score keeps only the arcs that improve it; a measure's spanning tree keeps them all.
        tree = maximum_spanning_forest(weights, min_weight=0.0 if measure in ARC_SCORES else None)
        parent_of = orient(tree, m, root=root if m else None)
        return Structure.from_parents(parent_of, info={
            "learner": type(self).__name__, "measure": measure,
            "weights": weights, "tree": tree, "root": root})


class DDRTAN(TAN):
    """Zhang's ddr-ChowLiu TAN: the Chow-Liu tree over ``I_D(Xi, Xj | C)``.

    Identical to :class:`TAN` except the edge weight, Zhang's dependence
    distribution measure (paper 001, Eq. 17)::

        I_D = sum_{xi, xj} p(xi, xj) [ln dd+(xi|xj) - ln dd-(xi|xj)]^2

    where ``dd_c(xi|xj) = p(xi | xj, c) / p(xi | c)``. With more than two
    classes the squared difference becomes the spread of ``ln dd_c`` around
    its mean over the classes at each ``(xi, xj)`` (Eq. 18, with the average of
    Eq. 19 taken per cell); for two classes this is exactly half of Eq. 17, so
    both give the same tree. Probabilities in ``I_D`` are smoothed with the
    same ``alpha`` as the tables (see
    :func:`~bayesbench.measures.information.ddr_from_counts`).
    """

    # No ``criterion``: the edge weight is always the ddr measure; no estimator choice.
    _parameter_constraints = {name: constraint
                              for name, constraint in TAN._parameter_constraints.items()
                              if name != "criterion" and name not in ESTIMATOR_PARAMETERS}

    def __init__(self, *, alpha: float = 1.0, root: int = 0, weights=None,
                 missing: str = "skip"):
        self.alpha = alpha
        self.root = root
        self.weights = weights
        self.missing = missing

    def _measure(self) -> str:
        return "ddr"

    def _weights(self, X, y, cardinalities, n_classes):
        return ddr_information_matrix(X, y, cardinalities, n_classes, float(self.alpha))

    def _statistics_weights(self, stats):
        return stats.pair_matrix(lambda n: ddr_from_counts(n, float(self.alpha)))
