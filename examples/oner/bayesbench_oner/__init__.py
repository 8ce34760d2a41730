"""Holte's OneR, written as any bayesbench plugin would be: no import of bayesbench needed.

The class follows scikit-learn's estimator conventions (keyword-only hyper-parameters,
``get_params``/``set_params``, ``fit`` returning self, learned state ending in ``_``) and
declares ``input_kind = "codes"``, so that bayesbench hands it integer codes (``-1``
missing) of discretized attributes, with ``cardinalities`` and ``n_classes`` because its
``fit`` names them.
"""
from __future__ import annotations

import numpy as np

__all__ = ["OneR"]


class OneR:
    """One rule on one attribute (Holte 1993): the attribute whose values alone predict the class best.

    For every attribute, each of its values predicts the class most frequent among the
    training rows that have it; the attribute whose rule makes the fewest training errors
    is kept (the first one among equals). A missing value is a value of its own, as in
    Weka's ``OneR``; a value the training data never showed predicts the class prior.
    ``predict_proba`` is the class frequency among the training rows with the example's
    value, smoothed by ``alpha``.

    Parameters
    ----------
    alpha : float, default 1.0
        Pseudo-count added to every class of a value's frequencies.

    Attributes
    ----------
    classes_ : ndarray
    attribute_ : int
        The index of the attribute the rule reads.
    counts_ : ndarray of shape (n_values + 1, n_classes)
        Training class counts of each value of that attribute; the last row holds the
        rows where it is missing.

    References
    ----------
    R. C. Holte (1993). Very simple classification rules perform well on most commonly
    used datasets. Machine Learning 11, 63-90.
    """

    input_kind = "codes"

    def __init__(self, *, alpha=1.0):
        self.alpha = alpha

    def get_params(self, deep=True):
        return {"alpha": self.alpha}

    def set_params(self, **params):
        for key, value in params.items():
            if key != "alpha":
                raise ValueError(f"OneR has no parameter '{key}'; its parameter is: alpha")
            setattr(self, key, value)
        return self

    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        X = np.asarray(X, dtype=np.int64)
        if n_classes is None:
            self.classes_, y = np.unique(y, return_inverse=True)
        else:
            self.classes_, y = np.arange(n_classes), np.asarray(y, dtype=np.int64)
        k = self.classes_.size
        cards = (X.max(axis=0) + 1 if cardinalities is None else np.asarray(cardinalities))
        best = None
        for j in range(X.shape[1]):
            # Missing (-1) is the value `cards[j]`, after every real one.
            values = np.where(X[:, j] < 0, cards[j], X[:, j])
            counts = np.bincount(values * k + y, minlength=(cards[j] + 1) * k).reshape(-1, k)
            errors = int(counts.sum() - counts.max(axis=1).sum())
            if best is None or errors < best[0]:
                best = (errors, j, counts)
        self.prior_ = np.bincount(y, minlength=k)
        self.attribute_, self.counts_ = (best[1], best[2]) if best else (None, self.prior_[None])
        return self

    def structure_summary(self):
        """One line for bayesbench's records: which attribute the rule reads."""
        return f"rule on attribute {self.attribute_}"

    def predict_proba(self, X):
        X = np.asarray(X, dtype=np.int64)
        if self.attribute_ is None:
            counts = np.repeat(self.counts_, X.shape[0], axis=0)
        else:
            n_values = self.counts_.shape[0] - 1
            x = X[:, self.attribute_]
            counts = self.counts_[np.where(x < 0, n_values, np.minimum(x, n_values))]
            # A value never seen in training (an empty row, or a code beyond them) reads the prior.
            unseen = (x >= n_values) | (counts.sum(axis=1) == 0)
            counts = np.where(unseen[:, None], self.prior_[None, :], counts)
        smoothed = counts + self.alpha
        return smoothed / smoothed.sum(axis=1, keepdims=True)

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
