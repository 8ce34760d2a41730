"""The discretizers as scikit-learn transformers, on arrays and DataFrames, without scikit-learn.

:class:`MDLDiscretizer` (Fayyad and Irani's supervised method exactly as Weka computes
it), :class:`FDDiscretizer`, :class:`EqualWidthDiscretizer` and
:class:`EqualFrequencyDiscretizer` choose their cut points with
:class:`~bayesbench.preprocess.discretize.Discretizer`, and follow scikit-learn's
transformer conventions (``fit(X, y)``, ``transform``, ``fit_transform``,
``get_params``/``set_params``, ``get_feature_names_out``, ``n_features_in_``), so that
they go into a pipeline::

    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from bayesbench import make_classifier
    from bayesbench.preprocess.transformers import MDLDiscretizer

    cross_val_score(make_pipeline(MDLDiscretizer(), make_classifier("tan")), X, y)

What ``transform`` returns depends on what it is given:

- an array (every column numeric, NaN missing): a float64 array of bin codes
  ``0..m`` (NaN where the value is missing), one column per column, which
  bayesbench's discrete learners read as codes;
- a DataFrame: each numeric column becomes a categorical column whose categories are
  Weka's range labels (``(-inf-2.45]``, ...), so that a later step knows every bin
  even when its training part lacks one; other columns pass through unchanged.

A value falls into bin ``j`` = the number of cut points strictly below it (right-closed
bins, as in Weka); a value beyond the training range falls into an outer bin.
"""
from __future__ import annotations

import inspect

import numpy as np

from ..data.dataset import Attribute, Dataset
from ..errors import NotFittedError, PreprocessError
from .discretize import CUT_METHODS, Discretizer, bin_codes, range_labels


def _is_frame(X) -> bool:
    return hasattr(X, "dtypes") and hasattr(X, "columns")


def _numeric_dtype(dtype) -> bool:
    return getattr(dtype, "kind", "O") in "iuf"


class BinningTransformer:
    """Cut points per numeric column, chosen on the training data by ``_method``.

    Attributes
    ----------
    cuts_ : list of (ndarray or None)
        Sorted cut points of each input column; None for a DataFrame column that is
        not numeric (passed through).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only after fitting on a DataFrame.
    """

    _method: str = ""

    # -------------------------------------------------------------- parameters
    @classmethod
    def _param_names(cls) -> list[str]:
        return [p.name for p in inspect.signature(cls.__init__).parameters.values()
                if p.name != "self" and p.kind == p.KEYWORD_ONLY]

    def get_params(self, deep: bool = True) -> dict:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        for key, value in params.items():
            if key not in self._param_names():
                raise PreprocessError(f"{type(self).__name__} has no parameter '{key}'; its "
                                      f"parameters are: {', '.join(self._param_names()) or '(none)'}")
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def __sklearn_tags__(self):
        # Called only by scikit-learn, so importing it here keeps it out of bayesbench's
        # dependencies.
        from sklearn.utils import InputTags, Tags, TargetTags, TransformerTags  # lazy: see above

        supervised = CUT_METHODS[self._method].supervised
        return Tags(estimator_type=None, target_tags=TargetTags(required=supervised),
                    transformer_tags=TransformerTags(), input_tags=InputTags(allow_nan=True))

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y=None):
        """Choose the cut points of every numeric column of ``X`` (``y``: the classes,
        which the supervised MDL method needs)."""
        columns, numeric, names, n = self._columns(X)
        if n == 0:
            raise PreprocessError(f"{type(self).__name__} needs at least one row to fit, "
                                  f"got 0 samples")
        codes, classes = self._target(y, n)
        bins = self.get_params().get("bins", 10)
        if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
            raise PreprocessError(f"{type(self).__name__}: parameter 'bins' must be an "
                                  f"integer >= 1, got {bins!r}")
        keys = [f"x{j}" for j in range(len(columns))]
        ds = Dataset("X", [Attribute(k, "numeric") for k, keep in zip(keys, numeric) if keep],
                     [c for c, keep in zip(columns, numeric) if keep],
                     Attribute("class", "nominal", classes), codes)
        fitted = Discretizer(self._method, bins=int(bins),
                             max_cuts=self.get_params().get("max_cuts")).fit(ds)
        self.cuts_ = [fitted.cuts_[k] if keep else None for k, keep in zip(keys, numeric)]
        self.n_features_in_ = len(columns)
        if names is not None:
            self.feature_names_in_ = np.asarray(names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        return self

    def _target(self, y, n: int):
        """Class codes and class names of ``y`` (one class when it is not needed)."""
        if y is None:
            if CUT_METHODS[self._method].supervised:
                raise PreprocessError(f"{type(self).__name__} requires y to be passed, but the "
                                      f"target y is None (its cuts are chosen by the class)")
            return np.zeros(n, dtype=np.int64), ("all",)
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise PreprocessError(f"y must be one-dimensional with one class per row of X "
                                  f"({n}), got shape {y.shape}")
        classes, codes = np.unique(y, return_inverse=True)
        return codes.reshape(-1), tuple(str(c) for c in classes)

    def _columns(self, X):
        """Columns of ``X`` as float arrays (None where not numeric), which are numeric, the
        names of a DataFrame's columns, and the number of rows."""
        if _is_frame(X):
            names = [str(c) for c in X.columns]
            numeric = [_numeric_dtype(dt) for dt in X.dtypes]
            columns = [self._floats(X.iloc[:, j].to_numpy(dtype=np.float64, na_value=np.nan))
                       if keep else None for j, keep in enumerate(numeric)]
            return columns, numeric, names, len(X)
        if hasattr(X, "toarray"):
            raise PreprocessError("sparse input is not supported: pass a dense array")
        X = np.asarray(X)
        if X.ndim != 2:
            raise PreprocessError(f"X must be two-dimensional (rows x columns), got shape "
                                  f"{X.shape}: Reshape your data, X.reshape(-1, 1) for one "
                                  f"column")
        if X.dtype.kind == "c":
            raise PreprocessError("Complex data not supported: X holds complex numbers")
        if not (_numeric_dtype(X.dtype) or X.dtype.kind in "bO"):
            raise PreprocessError(f"X must hold numbers, got dtype {X.dtype}")
        if X.shape[1] == 0:
            raise PreprocessError(f"0 feature(s) (shape={X.shape}) while a minimum of 1 is "
                                  f"required: there is nothing to discretize")
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError):
            raise PreprocessError("X must hold numbers; a DataFrame passes other columns "
                                  "through") from None
        return ([self._floats(X[:, j]) for j in range(X.shape[1])], [True] * X.shape[1], None,
                X.shape[0])

    @staticmethod
    def _floats(column: np.ndarray) -> np.ndarray:
        if np.isinf(column).any():
            raise PreprocessError("X holds an infinite value; discretizers take finite "
                                  "numbers (NaN for a missing value)")
        return column

    # ---------------------------------------------------------------- applying
    def transform(self, X):
        """Bin codes of every numeric column (see the module docstring for the output)."""
        if not hasattr(self, "cuts_"):
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet; call fit "
                                 f"first")
        columns, _, names, _ = self._columns(X)
        if len(columns) != self.n_features_in_:
            raise PreprocessError(f"X has {len(columns)} features, but {type(self).__name__} "
                                  f"is expecting {self.n_features_in_} features as input")
        fitted = getattr(self, "feature_names_in_", None)
        if names is not None and fitted is not None and names != list(fitted):
            raise PreprocessError(f"X columns differ from those seen at fit: got {names}, "
                                  f"expected {list(fitted)}")
        if names is None:
            return np.column_stack([self._codes(c, cuts) for c, cuts in zip(columns, self.cuts_)])
        return self._frame(X, columns)

    @staticmethod
    def _codes(column: np.ndarray, cuts) -> np.ndarray:
        codes = bin_codes(column, cuts).astype(np.float64)
        codes[np.isnan(column)] = np.nan
        return codes

    def _frame(self, X, columns):
        import pandas as pd  # lazy: only reached with a DataFrame in hand

        out = X.copy()
        for j, (column, cuts) in enumerate(zip(columns, self.cuts_)):
            if cuts is not None:
                out[X.columns[j]] = pd.Categorical.from_codes(bin_codes(column, cuts),
                                                              categories=list(range_labels(cuts)))
        return out

    def fit_transform(self, X, y=None):
        return self.fit(X, y).transform(X)

    def get_feature_names_out(self, input_features=None):
        """The output column names: one per input column, named as the input's."""
        if not hasattr(self, "n_features_in_"):
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet; call fit "
                                 f"first")
        fitted = getattr(self, "feature_names_in_", None)
        if input_features is None:
            names = (list(fitted) if fitted is not None
                     else [f"x{j}" for j in range(self.n_features_in_)])
        else:
            names = [str(n) for n in input_features]
            if len(names) != self.n_features_in_ or (fitted is not None
                                                     and names != list(fitted)):
                raise PreprocessError("input_features differ from the features seen at fit")
        return np.asarray(names, dtype=object)


class MDLDiscretizer(BinningTransformer):
    """Fayyad and Irani's supervised MDL discretization, exactly as Weka's ``Discretize``.

    ``fit(X, y)`` needs the classes ``y``. See :mod:`bayesbench.preprocess.discretize`
    for the method, and :mod:`bayesbench.preprocess.transformers` for the output.

    Parameters
    ----------
    max_cuts : int or None, default None
        At most this many cut points per column, the best first (None: no limit).
    """

    _method = "mdl"

    def __init__(self, *, max_cuts=None):
        self.max_cuts = max_cuts


class FDDiscretizer(BinningTransformer):
    """Equal-width bins of Freedman and Diaconis's width (Sturges' rule when it degenerates)."""

    _method = "fd"

    def __init__(self):
        pass


class EqualWidthDiscretizer(BinningTransformer):
    """``bins`` equal-width bins over the training range (Weka's unsupervised cuts).

    Parameters
    ----------
    bins : int, default 10
    """

    _method = "width"

    def __init__(self, *, bins=10):
        self.bins = bins


class EqualFrequencyDiscretizer(BinningTransformer):
    """About ``bins`` bins holding equal numbers of training values, equal values together.

    Parameters
    ----------
    bins : int, default 10
    """

    _method = "frequency"

    def __init__(self, *, bins=10):
        self.bins = bins


class PKIDiscretizer(BinningTransformer):
    """Proportional k-interval discretization, exactly as Weka's ``PKIDiscretize``: about
    ``sqrt(n)`` intervals of about ``sqrt(n)`` values (:mod:`~bayesbench.preprocess.proportional`)."""

    _method = "pki"

    def __init__(self):
        pass


class WPKIDiscretizer(BinningTransformer):
    """Weighted proportional k-interval discretization: ``t`` intervals of ``s`` values with
    ``s t = n`` and ``s - t = 30`` (:mod:`~bayesbench.preprocess.proportional`)."""

    _method = "wpki"

    def __init__(self):
        pass


# One transformer per discretization method of preprocess.discretize.CUT_METHODS.
TRANSFORMERS = {cls._method: cls for cls in (MDLDiscretizer, FDDiscretizer,
                                              EqualWidthDiscretizer, EqualFrequencyDiscretizer,
                                              PKIDiscretizer, WPKIDiscretizer)}
