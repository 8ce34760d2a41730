"""The augmented naive Bayes estimator that every discrete structure learner extends.

A subclass only learns a structure (``_learn_structure``); fitting the tables
(:mod:`.counting`) and predicting (:mod:`.inference`) are shared.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import ClassifierError
from .base import BaseClassifier, encode_target, fresh_fit
from .counting import class_log_prior, counts, log_table, unseen_log_prob
from .inference import joint_log_likelihood
from .scores import ModelScores
from .structure import Structure
from .weighting import learn_weights


def check_discrete_X(X, cardinalities=None):
    """Validate discrete input once, at the boundary.

    Parameters
    ----------
    X : array-like of int, shape (n_samples, n_attributes), or pandas.DataFrame
        Integer codes ``>= 0``, ``-1`` for a missing value (in a float array,
        integral values with NaN also marking a missing value); or a DataFrame whose
        columns are categorical (codes and cardinalities are taken from the
        categories, a missing value becomes ``-1``), integer-coded (pandas'
        nullable ``Int64``: ``NA`` is missing) or boolean (0 and 1).
    cardinalities : sequence of int, optional
        Number of values of each attribute. Give it when a training fold may
        lack a category, so that tables are sized for every category; by
        default ``max code + 1`` of each column.

    Returns
    -------
    X_int : ndarray of int, shape (n_samples, n_attributes)
        The codes (the input's integer dtype is kept, so that large data is not
        copied to int64).
    cardinalities : ndarray of int64, shape (n_attributes,)
    """
    categorical_cards = None
    if hasattr(X, "dtypes") and hasattr(X, "columns"):
        cols, categorical_cards = [], []
        for name in X.columns:
            s = X[name]
            if str(s.dtype) == "category":
                cols.append(s.cat.codes.to_numpy().astype(np.int64))
                categorical_cards.append(len(s.cat.categories))
            elif getattr(s.dtype, "kind", "O") in "iub":
                # Also pandas' nullable Int64/boolean, whose NA is a missing value.
                cols.append(s.to_numpy(dtype=np.int64, na_value=-1))
                categorical_cards.append(None)
            else:
                raise ClassifierError(
                    f"column '{name}' has dtype {s.dtype}; discrete classifiers need "
                    f"categorical or integer-coded columns (discretize numeric ones first)")
        X = np.column_stack(cols) if cols else np.zeros((len(X), 0), dtype=np.int64)
    else:
        X = np.asarray(X)
        if X.ndim != 2:
            raise ClassifierError(f"X must be two-dimensional, got shape {X.shape}")
        if not np.issubdtype(X.dtype, np.integer):
            if X.dtype.kind == "f" and np.isnan(X).any():
                # NaN is missing, as the estimator tags (allow_nan) tell scikit-learn.
                X = np.where(np.isnan(X), -1.0, X)
            if X.dtype.kind == "f" and X.size and not np.all(np.isfinite(X) & (X == np.round(X))):
                raise ClassifierError(
                    "X holds non-integer values; discrete classifiers need integer codes "
                    "(>= 0, -1 missing): discretize numeric attributes first")
            if X.dtype.kind not in "fb":
                raise ClassifierError(f"X has dtype {X.dtype}; integer codes expected")
            X = X.astype(np.int64)
    if X.size and X.min() < -1:
        raise ClassifierError("X holds codes below -1; codes are >= 0 and -1 marks a missing value")
    n_att = X.shape[1]
    observed = X.max(axis=0) + 1 if X.shape[0] else np.zeros(n_att, dtype=np.int64)
    observed = np.maximum(np.asarray(observed, dtype=np.int64), 1)
    if cardinalities is None:
        cards = observed.copy()
        if categorical_cards is not None:
            for j, c in enumerate(categorical_cards):
                if c is not None:
                    cards[j] = max(c, 1)
    else:
        raw = np.asarray(cardinalities).ravel()
        if not (raw.dtype.kind in "iu" or (
                raw.dtype.kind == "f" and np.all(np.isfinite(raw) & (raw == np.round(raw))))):
            # A cast would truncate 2.5 to 2 and fail on None with numpy's TypeError.
            raise ClassifierError(f"cardinalities must be integers >= 1, got {list(raw)}")
        cards = raw.astype(np.int64)
        if cards.shape[0] != n_att:
            raise ClassifierError(
                f"{cards.shape[0]} cardinalities given for {n_att} attributes")
        if (cards < 1).any():
            raise ClassifierError("cardinalities must be >= 1")
        too_big = np.flatnonzero(observed > cards)
        if too_big.size:
            j = int(too_big[0])
            raise ClassifierError(
                f"attribute {j} holds code {observed[j] - 1} but its cardinality is {cards[j]}")
    return X, cards


def frame_categories(X) -> list | None:
    """Per column of a DataFrame, its categories if categorical, else None.

    None for an array or a frame without categorical columns (the runner's
    integer codes), which prediction then reads as they are. Kept at ``fit`` so
    that prediction reads values, not the predict frame's own codes, which
    differ whenever its categories are ordered differently.
    """
    if not (hasattr(X, "dtypes") and hasattr(X, "columns")):
        return None
    columns = (X.iloc[:, j] for j in range(X.shape[1]))
    categories = [s.cat.categories if str(s.dtype) == "category" else None for s in columns]
    return categories if any(c is not None for c in categories) else None


def _recode_frame(X, categories, cardinalities):
    """Categorical or object columns as the codes of the categories seen at ``fit``.

    A missing value becomes -1; a value not among those categories becomes a
    code beyond the cardinality, i.e. a value never seen in training.
    """
    import pandas as pd  # only reached with a DataFrame in hand

    out = {}
    for j in range(X.shape[1]):
        s, cats = X.iloc[:, j], categories[j]
        is_categorical = str(s.dtype) == "category"
        if cats is None or (not is_categorical and getattr(s.dtype, "kind", "O") in "iub"):
            out[j] = s
            continue
        unknown = max(int(cardinalities[j]), len(cats))
        if is_categorical:
            mapping = cats.get_indexer(s.cat.categories)
            mapping[mapping < 0] = unknown
            # Code -1 (missing) picks the appended -1.
            out[j] = np.append(mapping, -1)[s.cat.codes.to_numpy()]
        else:
            codes = cats.get_indexer(s.to_numpy())
            codes[codes < 0] = unknown
            codes[s.isna().to_numpy()] = -1
            out[j] = codes
    return pd.DataFrame(out, index=X.index)


def remember_input(model, names, categories):
    """Keep what ``fit`` saw of a DataFrame: ``feature_names_in_`` and ``categories_``.

    ``feature_names_in_`` (scikit-learn's name) exists only after a DataFrame
    fit (``fit`` starts by forgetting the previous one).
    """
    model.categories_ = categories
    if names is not None:
        model.feature_names_in_ = np.asarray(names, dtype=object)


def start_fit(model, X, y, cardinalities=None, n_classes=None):
    """The checks every discrete learner's ``fit`` begins with, done once.

    Validates ``X`` and ``y`` (same length, at least one row), sets ``classes_``,
    ``cardinalities_``, ``n_features_in_`` and what :func:`remember_input` keeps,
    and returns ``(X_int, cardinalities, class_codes)``.
    """
    names = attribute_names_of(X)
    categories = frame_categories(X)
    X, cards = check_discrete_X(X, cardinalities)
    classes, codes = encode_target(y, n_classes)
    if codes.shape[0] != X.shape[0]:
        raise ClassifierError(f"X has {X.shape[0]} rows but y has {codes.shape[0]}")
    if codes.shape[0] == 0:
        raise ClassifierError("cannot fit on zero rows")
    model.classes_ = classes
    model.cardinalities_ = cards
    remember_input(model, names, categories)
    model.n_features_in_ = X.shape[1]
    return X, cards, codes


def check_predict_X(X, n_attributes: int, categories=None, cardinalities=None,
                    names=None):
    """Validate X at prediction: same number of attributes as at ``fit``.

    With ``categories`` (from :func:`frame_categories` at ``fit``), a
    DataFrame's categorical columns are read by value against them. With
    ``names`` (the columns seen at ``fit``), a DataFrame must have the same
    columns in the same order: columns are read by position.
    """
    given = attribute_names_of(X)
    if names is not None and given is not None and list(given) != list(names):
        raise ClassifierError(f"X columns differ from those seen at fit: got {list(given)}, "
                              f"expected {list(names)}")
    if (categories is not None and hasattr(X, "dtypes") and hasattr(X, "columns")
            and len(X.columns) == n_attributes):
        X = _recode_frame(X, categories, cardinalities)
    X, _ = check_discrete_X(X)
    if X.shape[1] != n_attributes:
        raise ClassifierError(
            f"X has {X.shape[1]} attributes; the model was fitted on {n_attributes}")
    return X


def check_alpha(value) -> float:
    """The additive pseudo-count as a finite float >= 0, or a ClassifierError."""
    try:
        alpha = float(value)
    except (TypeError, ValueError):
        alpha = float("nan")
    if not (alpha >= 0 and np.isfinite(alpha)):
        raise ClassifierError(f"alpha must be a finite number >= 0, got {value!r}")
    return alpha


def attribute_names_of(X) -> tuple[str, ...] | None:
    """Column names of a DataFrame input, else None."""
    if hasattr(X, "columns"):
        return tuple(str(c) for c in X.columns)
    return None


class AugmentedNaiveBayes(ModelScores, BaseClassifier):
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
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        Parameter learning beyond smoothing, for every structure (Hall's
        attribute weights, Dash and Cooper's model averaging, Zaidi et al.'s
        CLL-optimal weights; see :mod:`.weighting`).

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
    node_weights_ : ndarray or None
        The exponent of each node (``weights`` awnb or wanbia), else None.
    weighting_ : LearnedWeights or None
        What ``weights`` learned (attribute weights, MANB's arc posteriors).

    Model scores (log-likelihood, conditional log-likelihood, free parameters,
    AIC, BIC) are methods, from :class:`~bayesbench.models.scores.ModelScores`.
    """

    input_kind = "discrete"
    # For subclasses whose __init__ does not take ``weights``: they learn no weights.
    weights = None

    def __init__(self, alpha: float = 1.0, weights=None):
        self.alpha = alpha
        self.weights = weights

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        raise NotImplementedError

    @fresh_fit
    def fit(self, X, y, cardinalities=None, n_classes=None):
        """Learn the structure, then the smoothed tables; returns self."""
        alpha = check_alpha(self.alpha)
        names = attribute_names_of(X)
        X, cards, codes = start_fit(self, X, y, cardinalities, n_classes)
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
        self.node_weights_ = self.weighting_ = None
        if self.weights is not None:
            # AWNB's bootstrap follows the learner's seed when it has one, else a fixed one.
            seed = getattr(self, "random_state", 0)
            self.weighting_ = learn_weights(
                self.weights, structure, X, codes, self.counts_, self.tables_, self.unseen_,
                self.class_log_prior_, cards, k, alpha, np.random.default_rng(seed))
            self.tables_, self.unseen_ = self.weighting_.tables, self.weighting_.unseen
            self.node_weights_ = self.weighting_.node_weights
        return self

    def _joint_log_likelihood(self, X, plain: bool = False) -> np.ndarray:
        X = check_predict_X(X, self.n_features_in_, self.categories_, self.cardinalities_,
                            getattr(self, "feature_names_in_", None))
        return joint_log_likelihood(self.structure_, self.tables_, X, self.class_log_prior_,
                                    unseen=self.unseen_, plain=plain,
                                    node_weights=self.node_weights_)
