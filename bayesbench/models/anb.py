"""The augmented naive Bayes estimator that every discrete structure learner extends.

A subclass only learns a structure (``_learn_structure``); fitting the tables
(:mod:`.counting`) and predicting (:mod:`.inference`) are shared.
"""
from __future__ import annotations

from dataclasses import replace
from numbers import Real

import numpy as np

from .base import BaseClassifier, StructureLearner, fresh_fit
from .counting import class_log_prior, counts, log_table, unseen_log_prob
from .inference import joint_log_likelihood
from .input import check_discrete_predict_X, start_discrete_fit
from .structure import Structure
from .validation import Interval


class AugmentedNaiveBayes(StructureLearner, BaseClassifier):
    """Augmented naive Bayes over discrete attributes; subclasses learn the structure.

    The model is ``p(c, x) = p(c) prod_v p(x_v | x_pa(v), c)`` over the nodes of
    :attr:`structure_`. Every table, and the class prior, is estimated with
    additive smoothing::

        p(v | pa, c) = (N(c, pa, v) + alpha) / (N(c, pa) + alpha * r_v)

    Missing values (code ``-1``) are left out: of the counts of the node they
    occur in (or parent), and of the product at prediction. A value never seen
    in training gets the smoothed probability of a zero count.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive (Laplace for 1, Lidstone otherwise) pseudo-count per table
        cell; 0 gives maximum-likelihood estimates, with which a value never
        seen with a class makes that class impossible.

    Attributes
    ----------
    classes_ : ndarray
    cardinalities_ : ndarray of int64
    structure_ : Structure
    counts_ : list of ndarray
        Raw counts per node, shape ``(n_classes, n_parent_configs, n_values)``.
    tables_ : list of ndarray
        Log-probability tables, same shapes.
    class_log_prior_ : ndarray of shape (n_classes,)
    categories_ : list or None
        For a DataFrame fitted with categorical columns, each column's
        categories (None for an integer column); prediction maps a frame's
        values onto them, a value outside them being unseen. None for an array.
    """

    input_kind = "discrete"
    _parameter_constraints = {"alpha": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, *, alpha: float = 1.0):
        self.alpha = alpha

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        raise NotImplementedError

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Learn the structure, then the smoothed tables; returns self."""
        alpha = float(self.alpha)
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k = len(self.classes_)
        structure = self._learn_structure(X, codes, cards, k)
        structure = replace(structure, cardinalities=tuple(int(c) for c in cards),
                            attribute_names=structure.attribute_names or names)
        self.structure_ = structure
        self.counts_ = counts(structure, X, codes, cards, k)
        self.tables_ = [log_table(c, alpha) for c in self.counts_]
        self.unseen_ = [unseen_log_prob(c, alpha) for c in self.counts_]
        self.class_count_ = np.bincount(codes, minlength=k).astype(np.float64)
        self.class_log_prior_ = class_log_prior(codes, k, alpha)
        return self

    def _joint_log_likelihood(self, X, plain: bool = False) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        return joint_log_likelihood(self.structure_, self.tables_, X, self.class_log_prior_,
                                    unseen=self.unseen_, plain=plain)
