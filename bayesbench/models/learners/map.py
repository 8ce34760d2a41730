"""The MAP classifier of paper 004: a lookup table of whole attribute configurations."""
from __future__ import annotations

from numbers import Real

import numpy as np

from ..core.base import BaseClassifier, StructureLearner, check_fitted, fresh_fit
from ..core.counting import class_log_prior
from ..core.input_checks import check_discrete_predict_X, start_discrete_fit
from ..core.structure import Node, Structure
from ..core.constraints import Interval


class MAPClassifier(StructureLearner, BaseClassifier):
    """Maximum a posteriori lookup of the full attribute configuration.

    ``p(c | x) = (N(x, c) + alpha) / (N(x) + alpha K)`` for a configuration
    ``x`` seen in training, counted over whole rows: the unrestricted Bayes
    classifier, one node holding every attribute. A configuration never seen
    in training falls back to the (smoothed) class prior
    ``(N(c) + alpha) / (N + alpha K)``, so it is predicted as the majority
    class. A missing value (``-1``) is treated as one more value of its
    attribute in the configuration.

    Parameters
    ----------
    alpha : float, default 0.0
        Pseudo-count per (configuration, class) cell and per class in the
        fallback prior; 0 gives the relative frequencies of paper 004.

    Attributes
    ----------
    classes_ : ndarray
    configurations_ : ndarray of shape (n_configurations, n_attributes)
        The distinct training rows.
    config_counts_ : ndarray of shape (n_configurations, n_classes)
    structure_ : Structure
        One node joining every attribute.
    """

    _parameter_constraints = {"alpha": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, *, alpha: float = 0.0):
        self.alpha = alpha

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        alpha = float(self.alpha)
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k = len(self.classes_)
        configs, inverse = np.unique(X, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        n_xc = np.bincount(inverse * k + codes, minlength=configs.shape[0] * k)
        self.configurations_ = configs
        self.config_counts_ = n_xc.reshape(configs.shape[0], k).astype(np.float64)
        self.class_log_prior_ = class_log_prior(codes, k, alpha)
        self.structure_ = Structure(
            (Node(tuple(range(X.shape[1]))),) if X.shape[1] else (), X.shape[1],
            attribute_names=names, cardinalities=tuple(int(c) for c in cards),
            info={"learner": "map", "n_configurations": int(configs.shape[0])})
        return self

    def lookup(self, X) -> np.ndarray:
        """Index of each row's configuration in ``configurations_``, ``-1`` if unseen."""
        check_fitted(self)
        X = check_discrete_predict_X(self, X)
        u = self.configurations_.shape[0]
        # int64 on both sides: casting to a narrow fit dtype (int8 codes) would wrap a
        # code never seen at fit onto a seen one.
        both = np.concatenate([self.configurations_.astype(np.int64), X.astype(np.int64)])
        _, inverse = np.unique(both, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        known = np.full(inverse.max() + 1 if inverse.size else 0, -1, dtype=np.int64)
        known[inverse[:u]] = np.arange(u)
        return known[inverse[u:]]

    def _joint_log_likelihood(self, X) -> np.ndarray:
        index = self.lookup(X)
        k = len(self.classes_)
        alpha = float(self.alpha)
        out = np.tile(self.class_log_prior_, (index.shape[0], 1))
        seen = index >= 0
        if seen.any():
            n = self.config_counts_[index[seen]]
            with np.errstate(divide="ignore", invalid="ignore"):
                out[seen] = np.log(n + alpha) - np.log(n.sum(axis=1, keepdims=True) + alpha * k)
        return out
