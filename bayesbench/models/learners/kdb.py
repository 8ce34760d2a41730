"""Sahami's k-dependence Bayesian classifier (kDB), the filter version.

Sahami (1996), "Learning limited dependence Bayesian classifiers", KDD-96.
bnclassify and Weka's BayesNet offer k-dependence structures; this is the
original filter algorithm, which needs no inner cross-validation.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np

from .anb import StatisticsANB
from ...measures.information import (conditional_mutual_information_matrix,
                                     mutual_information_with_class)
from ..parameters.estimators import ESTIMATOR_PARAMETERS, EstimatorChoice
from ..core.structure import Structure
from ..core.constraints import Interval
from ...measures.ties import tie_safe

def _ranking(scores) -> list[int]:
    """Indices by decreasing score; scores equal to 12 decimals keep index order."""
    rounded = tie_safe(np.asarray(scores, dtype=np.float64))
    return [int(i) for i in np.lexsort((np.arange(len(rounded)), -rounded))]


def kdb_parents(mi_class: np.ndarray, cmi: np.ndarray, k: int) -> tuple[list[int], list[tuple]]:
    """Sahami's parent choice: returns ``(order, parents)``.

    Attributes are added by decreasing ``I(Xi; C)``; each takes as parents the
    (at most ``k``) already-added attributes with the highest ``I(Xi; Xj | C)``.
    ``parents[i]`` is a tuple of attribute indices, strongest first.
    """
    order = _ranking(mi_class)
    parents: list[tuple] = [()] * len(order)
    added: list[int] = []
    for i in order:
        if added and k > 0:
            ranked = _ranking(cmi[i, added])
            parents[i] = tuple(added[r] for r in ranked[:k])
        added.append(i)
    return order, parents


class KDB(EstimatorChoice, StatisticsANB):
    """k-dependence Bayesian classifier: each attribute has the class and up to ``k`` attribute parents.

    Structure (Sahami 1996): order the attributes by mutual information with
    the class ``I(Xi; C)``, highest first; each attribute in turn takes as
    parents the ``min(k, number already placed)`` placed attributes with the
    highest conditional mutual information ``I(Xi; Xj | C)``. Ties are broken
    by attribute index (scores compared to 12 decimals). ``k = 0`` is naive
    Bayes; ``k = 1`` is a one-dependence tree-like model (not necessarily
    Chow-Liu's tree). Tables are smoothed with ``alpha``; a table has
    ``prod(r_parents)`` parent configurations per class, so large ``k`` with
    many-valued attributes makes sparse tables.

    ``fit_statistics`` fits it from counts for every ``k`` (the runner's cross-validation
    by count subtraction): the structure from the pair counts, each table of ``k >= 2``
    parents as the whole data set's counts minus the test part's
    (:meth:`~bayesbench.models.core.sufficient.Statistics.tally`); every table is
    bounded by the table limit (:func:`~bayesbench.measures.codes.check_table_size`).

    Parameters
    ----------
    alpha : float, default 1.0
        Pseudo-count per table cell.
    k : int, default 2
        Maximum number of attribute parents (bnclassify's ``kdbk`` default).
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
        ``info`` holds ``"order"``, ``"mi_class"`` and ``"cmi"``.
    """

    _parameter_constraints = {**StatisticsANB._parameter_constraints, **ESTIMATOR_PARAMETERS,
                              "k": [Interval(Integral, 0, None, closed="left")]}

    def __init__(self, *, alpha: float = 1.0, k: int = 2, weights=None,
                 estimator: str = "laplace", iterations: int = 1000,
                 tying: str = "level", random_state=None, missing: str = "skip",
                 l2: float = 0.0, max_iter: int = 1000, tol: float = 1e-4):
        self.alpha = alpha
        self.k = k
        self.weights = weights
        self.estimator, self.iterations = estimator, iterations
        self.tying, self.random_state = tying, random_state
        self.missing = missing
        self.l2, self.max_iter, self.tol = l2, max_iter, tol

    def _learn_structure(self, X, y, cardinalities, n_classes):
        mi = mutual_information_with_class(X, y, cardinalities, n_classes)
        cmi = conditional_mutual_information_matrix(X, y, cardinalities, n_classes)
        return self._structure(mi, cmi)

    def _statistics_structure(self, stats):
        # The structure needs only pair counts; tables of k >= 2 parents are then counted
        # from the rows the statistics keep (Statistics.node_counts).
        return self._structure(stats.class_information(), stats.cmi_matrix())

    def _structure(self, mi, cmi):
        order, parents = kdb_parents(mi, cmi, int(self.k))
        return Structure.from_parents(parents, info={
            "learner": "kdb", "k": int(self.k), "order": order, "mi_class": mi, "cmi": cmi})
