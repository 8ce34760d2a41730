"""Webb's averaged one-dependence estimators (AODE).

Webb, Boughton and Wang (2005), "Not so naive Bayes: aggregating
one-dependence estimators", Machine Learning 58, 5-24; Weka's ``AODE``.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.special import logsumexp

from .base import BaseClassifier, StructureLearner, fresh_fit
from .counting import log_table, mixed_radix, node_counts
from .information import pair_counts
from .input import check_discrete_predict_X, start_discrete_fit
from .naive_bayes import NaiveBayes
from .statistics import StatisticsLearner
from .structure import Node, Structure
from .validation import Interval


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
    child_tables_ : dict
        ``(i, j) -> log p(x_j | c, x_i)``, shape ``(n_classes, r_i, r_j)``.
    value_counts_ : list of ndarray
        Training frequency of each value of each attribute.
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
        singles = [node_counts(Node((i,)), X, codes, cards, k)[:, 0, :]
                   for i in range(X.shape[1])]
        fallback = NaiveBayes(alpha=float(self.alpha)).fit(X, codes, cardinalities=cards,
                                                            n_classes=k)
        self._set_tables(singles, pair_counts(X, codes, cards, k), fallback, cards, names)
        return self

    def _fit_statistics(self, stats):
        m = stats.n_attributes
        pairs = ((i, j, stats.pair(i, j).astype(np.float64))
                 for i in range(m) for j in range(i + 1, m))
        self._set_tables([stats.attribute(i).astype(np.float64) for i in range(m)], pairs,
                         NaiveBayes(alpha=float(self.alpha)).fit_statistics(stats),
                         stats.cardinalities, stats.attribute_names)

    def _set_tables(self, singles, pairs, fallback, cards, names):
        """The tables from the counts ``N(c, x_i)`` (``singles``) and ``(i, j, N(c, x_i, x_j))``."""
        alpha = float(self.alpha)
        k, m = len(self.classes_), len(singles)
        self.parent_tables_ = []
        self.value_counts_ = []
        for n_ci in singles:
            self.value_counts_.append(n_ci.sum(axis=0))
            # Joint p(c, x_i): one table over K * r_i cells.
            self.parent_tables_.append(log_table(n_ci.reshape(1, 1, -1), alpha).reshape(k, -1))
        self.child_tables_ = {}
        for i, j, n in pairs:
            self.child_tables_[i, j] = log_table(n, alpha)
            self.child_tables_[j, i] = log_table(n.transpose(0, 2, 1), alpha)
        self.fallback_ = fallback
        self.structure_ = Structure.naive(
            m, attribute_names=names, cardinalities=tuple(int(c) for c in cards),
            info={"learner": "aode", "super_parents": list(range(m)),
                  "min_frequency": int(self.min_frequency)})

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        n, m, k = X.shape[0], self.n_features_in_, len(self.classes_)
        cards = self.cardinalities_
        spodes = np.full((m, n, k), -np.inf)
        eligible = np.zeros((m, n), dtype=bool)
        codes, present = [], []
        for j in range(m):
            xj, missing, beyond = mixed_radix(X, (j,), cards)
            codes.append(xj)
            present.append(~missing & ~beyond)
        for i in range(m):
            ok = present[i].copy()
            ok[ok] = self.value_counts_[i][codes[i][ok]] >= self.min_frequency
            if not ok.any():
                continue
            eligible[i] = ok
            rows = np.flatnonzero(ok)
            vi = codes[i][rows]
            term = self.parent_tables_[i][:, vi].T.copy()
            for j in range(m):
                if j == i:
                    continue
                has_j = present[j][rows]
                table = self.child_tables_[i, j]
                term[has_j] += table[:, vi[has_j], codes[j][rows][has_j]].T
            spodes[i, rows] = term
        count = eligible.sum(axis=0)
        with np.errstate(divide="ignore"):
            jll = logsumexp(spodes, axis=0) - np.log(np.maximum(count, 1))[:, None]
        none = count == 0
        if none.any():
            jll[none] = self.fallback_._joint_log_likelihood(X[none])
        return jll
