"""Filter learners that keep only what a test of independence supports (STAN, FFSS).

* :class:`FFSS`, filter forward sequential selection (Mihaljevic et al. 2013,
  sec. 6.1): naive Bayes over the attributes whose G-test of independence from
  the class rejects at level ``significance``. An unreliable test (average cell
  count below 5) assumes independence, so the attribute is left out.
* :class:`STAN`, selective tree augmented naive Bayes as paper 002 ran it
  (Blanco et al. 2005's two steps, with paper 002's conditional test): FFSS's
  selection, then TAN's Chow-Liu step over the kept attributes restricted to
  the pairs whose conditional G-test given the class rejects; what remains is
  a maximum weighted *forest* found by Kruskal's algorithm, edge weights
  ``I(X_i; X_j | C)``.

The tests are in :mod:`~bayesbench.measures.independence`; the forest is TAN's Kruskal
(:func:`~bayesbench.models.learners.tan.maximum_spanning_forest`) over a weight matrix
that is zero on the pairs the tests did not keep. :class:`~bayesbench.models.
wrapper.ASB` does the same over groups of attributes (:func:`dependence_forest`).
"""
from __future__ import annotations

import itertools
from numbers import Real

import numpy as np

from ..learners.anb import AugmentedNaiveBayes
from ...measures.independence import GTestResult, independence_tests, pairwise_conditional_tests
from ..core.structure import Structure
from ..learners.tan import maximum_spanning_forest, orient
from ..core.constraints import Interval

#: The constraint on the level of the tests, shared by every learner that runs them.
SIGNIFICANCE = [Interval(Real, 0, 1, closed="right")]


def decision_record(attributes, result: GTestResult, significance: float) -> dict:
    """A test's outcome as plain data for ``Structure.info``."""
    record = {"attributes": [list(a) if isinstance(a, tuple) else a for a in attributes]}
    record.update(result.as_dict())
    record["rejects"] = result.rejects(significance)
    return record


def _positions(label) -> list:
    """The attribute positions a variable of :func:`dependence_forest` stands for."""
    return list(label) if isinstance(label, (list, tuple)) else [label]


def class_dependent_attributes(X, y, cardinalities, n_classes: int, significance: float):
    """FFSS's selection: the attributes whose G-test of independence from the class rejects.

    Returns the kept attribute indices (in index order) and one test record
    per attribute; an unreliable test keeps independence, so drops the attribute.
    """
    tests, kept = [], []
    for i, result in enumerate(independence_tests(X, y, cardinalities, n_classes,
                                                  attributes=[(i,) for i in range(X.shape[1])])):
        tests.append(decision_record((i,), result, significance))
        if result.rejects(significance):
            kept.append(i)
    return kept, tests


def dependence_forest(codes, cardinalities, y, n_classes: int, significance: float, labels=None,
                      order=None):
    """Forest over variables whose pairwise conditional dependence given C is significant.

    For each pair ``i < j`` of the variables (columns of ``codes``, -1 missing,
    with declared ``cardinalities``) the G-test of ``V_i _||_ V_j | C`` keeps
    the edge when it rejects (reliable and ``p < significance``), weighted
    ``I(V_i; V_j | C)``; Kruskal's algorithm takes the maximum weighted forest
    over the kept edges and each tree is directed away from its lowest-index
    variable (its first in ``order``, a sequence of the variables, when given). Returns ``parent_of`` (``None`` for roots and isolated
    variables) and the ``info`` entries ``tests``, ``arcs`` and ``roots``;
    ``labels[i]`` names variable ``i`` in them (default ``i``).
    """
    m = len(cardinalities)
    labels = list(range(m)) if labels is None else labels
    weights = np.zeros((m, m))
    tests = []
    results = pairwise_conditional_tests(codes, y, cardinalities, n_classes,
                                         attributes=[_positions(label) for label in labels])
    for (i, j), result in zip(itertools.combinations(range(m), 2), results):
        tests.append(decision_record((labels[i], labels[j]), result, significance))
        if result.rejects(significance):
            # At a level <= 0.05 a rejected test has G >= 3.84, so I = G / 2N
            # stays above the forest's zero threshold (12 decimals) for any N
            # that fits in memory.
            weights[i, j] = weights[j, i] = result.mutual_information
    parent_of = orient(maximum_spanning_forest(weights, min_weight=0.0), m, order=order)
    arcs = [{"parent": labels[p], "child": labels[v], "weight": float(weights[p, v])}
            for v, p in enumerate(parent_of) if p is not None]
    roots = [labels[v] for v in range(m)
             if parent_of[v] is None and any(p == v for p in parent_of)]
    return parent_of, {"significance": significance, "tests": tests, "arcs": arcs,
                       "roots": roots}


class STAN(AugmentedNaiveBayes):
    """Selective tree augmented naive Bayes: a forest over the significant dependencies.

    Which paper does which. Blanco et al. (2005) defined STAN in two steps:
    drop the attributes a chi-square test finds independent of the class, then
    learn TAN's tree over the rest keeping only dependencies a chi-square
    heuristic (built from unconditional tests) finds significant, which gives a
    forest. Paper 002 (Mihaljevic et al. 2013, sec. 4 and 6.1) ran it with its
    reliable conditional test in the second step, "the same test of
    conditional independence as for ASB", and its FFSS test in the first: on
    promoters and dermatology its STAN scores exactly as its FFSS. That is
    ``select=True`` (the default). ``select=False`` skips the first step and
    learns the forest over every attribute (bayesbench's STAN before issue 14;
    no paper).

    Step 1 (``select``): attribute ``X_i`` is kept when the G-test of
    ``X_i _||_ C`` is reliable and rejects at ``significance``, as in
    :class:`FFSS`. Step 2: for every pair of kept attributes, the G-test of
    ``X_i _||_ X_j | C``
    (``G = 2 N I(X_i; X_j | C)``, chi-square with ``(r_i - 1)(r_j - 1) r_C``
    degrees of freedom) keeps the edge when it is reliable (``N / (r_i r_j r_C)
    >= 5``) and ``p < significance``; Kruskal's algorithm then takes the
    maximum weighted forest over the kept edges, weights ``I(X_i; X_j | C)``.
    Each tree is rooted at its lowest-index attribute and directed away from
    it; an attribute with no kept edge has only the class as parent.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing of the tables (see :class:`AugmentedNaiveBayes`).
    significance : float, default 0.05
        Level of both steps' tests (paper 002's alpha).
    select : bool, default True
        Drop the class-independent attributes first (paper 002's STAN).
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``tests`` (one record per pair of kept attributes:
        attributes, statistic, pvalue, dof, reliable, mutual_information, n,
        rejects), ``arcs`` (parent, child, weight) and ``roots``; with
        ``select``, also ``class_tests`` (one record per attribute) and ``kept``.
    """

    _parameter_constraints = {**AugmentedNaiveBayes._parameter_constraints,
                              "significance": SIGNIFICANCE, "select": ["boolean"]}

    def __init__(self, *, alpha: float = 1.0, significance: float = 0.05, select: bool = True,
                 weights=None, missing: str = "skip"):
        self.alpha = alpha
        self.significance = significance
        self.select = select
        self.weights = weights
        self.missing = missing

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        significance = float(self.significance)
        kept, info = list(range(X.shape[1])), {}
        if self.select:
            kept, class_tests = class_dependent_attributes(X, y, cardinalities, n_classes,
                                                           significance)
            info = {"class_tests": class_tests, "kept": kept}
        forest, pairs = dependence_forest(X[:, kept], [cardinalities[a] for a in kept], y,
                                          n_classes, significance, labels=kept)
        info.update(pairs)
        parent_of = [None] * X.shape[1]
        for v, p in zip(kept, forest):
            parent_of[v] = None if p is None else kept[p]
        return Structure.from_parents(parent_of, attributes=kept, info=info)


class FFSS(AugmentedNaiveBayes):
    """Filter forward sequential selection: naive Bayes over the class-dependent attributes.

    Attribute ``X_i`` is kept when the G-test of ``X_i _||_ C`` (``G = 2 N
    I(X_i; C)``, chi-square with ``(r_i - 1)(r_C - 1)`` degrees of freedom) is
    reliable (``N / (r_i r_C) >= 5``) and ``p < significance``; otherwise it is
    dropped, so an unreliable test drops the attribute (paper 002, sec. 6.1).

    Parameters
    ----------
    alpha : float, default 1.0
        Additive smoothing of the tables.
    significance : float, default 0.05
        Level of the tests.
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``tests`` (one record per attribute) and ``kept``.
    """

    _parameter_constraints = {**AugmentedNaiveBayes._parameter_constraints,
                              "significance": SIGNIFICANCE}

    def __init__(self, *, alpha: float = 1.0, significance: float = 0.05, weights=None,
                 missing: str = "skip"):
        self.alpha = alpha
        self.significance = significance
        self.weights = weights
        self.missing = missing

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        significance = float(self.significance)
        kept, tests = class_dependent_attributes(X, y, cardinalities, n_classes, significance)
        return Structure.naive(X.shape[1], kept, info={
            "significance": significance, "tests": tests, "kept": kept})
