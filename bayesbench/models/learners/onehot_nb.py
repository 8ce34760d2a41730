"""Naive Bayes over the one-hot columns of the discrete attributes, as paper 003's code has it."""
from __future__ import annotations

from numbers import Real

import numpy as np

from ..core.base import BaseClassifier, StructureLearner, fresh_fit
from ..core.constraints import Interval
from ..core.input_checks import check_discrete_predict_X, start_discrete_fit
from ..core.structure import Structure


class OneHotNaiveBayes(StructureLearner, BaseClassifier):
    """Naive Bayes whose features are the one-hot columns of the attributes (paper 003).

    Each value ``v`` of each attribute ``i`` is a binary column ``[x_i = v]``; every column
    is a feature of its own, smoothed as paper 003's ``feature_prob_given_class`` does:

        p(column = b | c) = (N(c, column = b) + alpha) / (N(c) + alpha d)

    with ``d`` the one-hot width, the number of columns (the sum of the attributes'
    numbers of values): not a distribution over ``b`` unless ``d`` = 2, and the paper's
    choice, which with hundreds of columns favours the largest class. The prior is the
    class's share of the training rows, unsmoothed, as the paper's ``class_probability``.
    A missing value (``-1``) leaves its attribute's columns out of the product. For
    Laplace's correction over the attribute's values use ``nb``.

    Parameters
    ----------
    alpha : float, default 1.0
        The pseudo-count of the numerator (1 in the paper); the denominator adds
        ``alpha d``.
    """

    _parameter_constraints = {"alpha": [Interval(Real, 0, None, closed="neither")]}

    def __init__(self, *, alpha: float = 1.0):
        self.alpha = alpha

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k, alpha = len(self.classes_), float(self.alpha)
        observed = [np.unique(X[X[:, i] >= 0, i]) for i in range(X.shape[1])]
        width = int(sum(v.size for v in observed))
        n_c = np.bincount(codes, minlength=k).astype(np.float64)
        denominator = np.log(n_c + alpha * width)
        self.on_, self.off_ = [], []   # per attribute: (classes, values) log p(column = 1 | 0)
        for i, r in enumerate(cards):
            seen = X[:, i] >= 0
            n = np.zeros((k, int(r)))
            np.add.at(n, (codes[seen], X[seen, i]), 1.0)
            on = np.log(n + alpha) - denominator[:, None]
            off = np.log(n_c[:, None] - n + alpha) - denominator[:, None]
            absent = np.setdiff1d(np.arange(int(r)), observed[i])
            on[:, absent] = 0.0   # no column: a value never seen in training adds nothing
            off[:, absent] = 0.0
            self.on_.append(on)
            self.off_.append(off)
        with np.errstate(divide="ignore"):
            self.class_log_prior_ = np.log(n_c / n_c.sum())
        self.width_ = width
        self.structure_ = Structure.naive(X.shape[1], info={"learner": "nb_onehot",
                                                            "one_hot_width": width})
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        out = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for i, (on, off) in enumerate(zip(self.on_, self.off_)):
            seen = X[:, i] >= 0
            # Every column of the attribute is off but the row's own value's; a value beyond
            # the cardinality has no column, as a value never seen in training has none.
            known = seen & (X[:, i] < on.shape[1])
            values = np.where(known, X[:, i], 0)
            delta = (on[:, values] - off[:, values]).T
            delta[~known] = 0.0
            row = off.sum(axis=1)[None, :] + delta
            out[seen] += row[seen]
        return out
