"""The estimator base every classifier shares, without depending on scikit-learn.

It gives ``get_params``/``set_params`` read from the ``__init__`` signature (so
``sklearn.base.clone`` works), ``predict`` and ``predict_proba`` derived from
``predict_log_proba``, and the checks done once at the boundary.
"""
from __future__ import annotations

import functools
import inspect

import numpy as np
from scipy.special import logsumexp

from ..errors import ClassifierError, NotFittedError


def fresh_fit(fit):
    """Decorate ``fit``: start from an unfitted model, and leave it unfitted if ``fit`` raises.

    Without it a failed refit leaves a half-updated model (the new classes with the
    previous data's parameters) that predicts silently wrong numbers.
    """
    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        self._forget_fit()
        try:
            return fit(self, *args, **kwargs)
        except BaseException:
            self._forget_fit()
            raise
    return wrapper


class BaseClassifier:
    """Hyper-parameters in ``__init__`` only; learned state ends in ``_``.

    Subclasses implement ``fit`` and ``_joint_log_likelihood(X)``, which returns
    the ``(n_samples, n_classes)`` unnormalised log posterior ``log p(c, x)``.
    """

    input_kind = "discrete"
    _estimator_type = "classifier"

    def __sklearn_tags__(self):
        # Called only by scikit-learn (>= 1.6), so importing it here keeps
        # bayesbench free of the dependency while pipelines and meta-estimators
        # see a classifier that takes no NaN and is not multi-output.
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(),
                    input_tags=InputTags(allow_nan=self.input_kind == "discrete"))

    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values()
                if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]

    def get_params(self, deep: bool = True) -> dict:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        valid = self._param_names()
        for key, value in params.items():
            if key not in valid:
                raise ClassifierError(
                    f"{type(self).__name__} has no parameter '{key}'; "
                    f"parameters are: {', '.join(valid) or '(none)'}")
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def _forget_fit(self):
        """Drop the learned attributes (public names ending in ``_``), ``classes_`` among them.

        Private helpers (``_whiten``, ...) are only read once ``classes_`` exists, and
        attributes that others set (scikit-learn's callback context) are left alone.
        """
        for key in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, key)

    def _check_fitted(self):
        if not hasattr(self, "classes_"):
            raise NotFittedError(f"{type(self).__name__} is not fitted yet; call fit first")

    def _joint_log_likelihood(self, X) -> np.ndarray:
        raise NotImplementedError

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posterior ``log p(c | x)``, normalised with log-sum-exp."""
        self._check_fitted()
        jll = self._joint_log_likelihood(X)
        with np.errstate(invalid="ignore"):
            norm = logsumexp(jll, axis=1, keepdims=True)
            out = jll - norm
        # A row where every class is impossible (possible with alpha = 0) has no
        # posterior; it falls back to uniform rather than becoming NaN.
        bad = ~np.isfinite(norm[:, 0])
        if bad.any():
            out[bad] = -np.log(jll.shape[1])
        return out

    def predict_proba(self, X) -> np.ndarray:
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        self._check_fitted()
        return self.classes_[np.argmax(self._joint_log_likelihood(X), axis=1)]


def encode_target(y, n_classes: int | None):
    """Return ``(classes_, codes)`` for a target vector.

    With ``n_classes`` the target must already hold codes ``0..n_classes-1``,
    so that a class missing from a training fold keeps its column.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ClassifierError(f"y must be one-dimensional, got shape {y.shape}")
    if y.dtype.kind == "f" or y.dtype.kind == "O":
        import pandas as pd  # isna covers None, NaN and pd.NA in object arrays alike

        missing = np.flatnonzero(pd.isna(y))
        if missing.size:
            raise ClassifierError(f"y has a missing class at row {missing[0]}; "
                                  "every training example needs a class")
        if y.dtype.kind == "f" and not np.isfinite(y).all():
            row = np.flatnonzero(~np.isfinite(y))[0]
            raise ClassifierError(f"y has an infinite class value at row {row}")
    if n_classes is not None:
        if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) \
                or n_classes < 1:
            raise ClassifierError(f"n_classes must be an integer >= 1, got {n_classes!r}")
        if y.dtype.kind not in "iub" and not (
                y.dtype.kind == "f" and np.array_equal(y, np.round(y))):
            raise ClassifierError(
                f"with n_classes, y must hold integer class codes 0..{n_classes - 1}, "
                f"got dtype {y.dtype}")
        codes = y.astype(np.int64)
        if codes.size and (codes.min() < 0 or codes.max() >= n_classes):
            raise ClassifierError(f"class codes must lie in 0..{n_classes - 1}")
        return np.arange(n_classes), codes
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64)
