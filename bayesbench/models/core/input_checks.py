"""Input checks of every classifier: X and y at ``fit``, X at prediction, once at the boundary.

Discrete learners take integer codes (``>= 0``, ``-1`` missing) as an integer array
(kept in its type and memory order: the runner's compact column-major codes are not
copied), a float array of integral values (NaN missing), or a DataFrame of categorical,
integer-coded, boolean or integral float columns. An array's column names may be given
to ``fit`` as ``feature_names`` (:func:`given_feature_names`); a DataFrame's are its
columns'. Continuous learners take a finite numeric matrix
or a DataFrame of numeric columns. Both refuse sparse and complex input, and name
the row, attribute or shape at fault in one line. A code, a cardinality or a number of
classes is bounded by the limit on a table of counts (:func:`~bayesbench.measures.codes.table_limit`)
before anything is sized by it or one is added to it (int64's largest code plus one would
wrap around), and unsigned codes become int64 once bounded. Where scikit-learn's estimator
checks expect a wording ("Reshape your data", "Negative values in data", "X has 1
features, but ... is expecting 4 features as input"), the message carries it.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
from scipy import sparse

from ...errors import ClassifierError
from ...measures.codes import TableTooLarge, column_extreme, current_table_limit


#: The ``feature_names`` given to the ``fit`` being run (see :func:`given_feature_names`).
_GIVEN_NAMES: ContextVar = ContextVar("feature_names", default=None)


@contextmanager
def given_feature_names(names):
    """Within the block, ``names`` are the column names of the ``X`` that
    :func:`start_discrete_fit` or :func:`start_continuous_fit` is given, as if ``X`` were
    a DataFrame with those columns; None: an array has none. Every ``fit`` decorated with
    :func:`~.base.fresh_fit` sets them from its ``feature_names`` keyword, so that a learner
    fitted within another's ``fit`` does not see the outer one's."""
    token = _GIVEN_NAMES.set(None if names is None else tuple(str(n) for n in names))
    try:
        yield
    finally:
        _GIVEN_NAMES.reset(token)


def _fit_names(names, n_features: int) -> tuple[str, ...] | None:
    """The column names of the ``X`` of a fit: a DataFrame's (``names``, None for an
    array), or those given to ``fit``."""
    given = _GIVEN_NAMES.get()
    if given is None:
        return names
    if names is not None and tuple(names) != given:
        raise ClassifierError(f"feature_names {list(given)} differ from the DataFrame's "
                              f"columns {list(names)}")
    if len(given) != n_features:
        raise ClassifierError(f"{len(given)} feature_names given for {n_features} attributes")
    return given


def is_frame(X) -> bool:
    """Whether ``X`` is a pandas DataFrame (checked by its interface: pandas stays lazy)."""
    return hasattr(X, "dtypes") and hasattr(X, "columns")


def attribute_names_of(X) -> tuple[str, ...] | None:
    """Column names of a DataFrame input, else None."""
    if hasattr(X, "columns"):
        return tuple(str(c) for c in X.columns)
    return None


def target_name_of(y) -> str | None:
    """The name of a pandas Series target (None for an array or an unnamed Series)."""
    name = getattr(y, "name", None)
    return None if name is None else str(name)


def as_2d_array(X) -> np.ndarray:
    """``X`` as a dense two-dimensional ndarray, refusing sparse and complex input."""
    if sparse.issparse(X):
        raise ClassifierError("sparse input is not supported: pass a dense array "
                              "(X.toarray())")
    X = np.asarray(X)
    if X.dtype.kind == "c":
        raise ClassifierError("Complex data not supported: X holds complex numbers")
    if X.ndim != 2:
        raise ClassifierError(
            f"X must be two-dimensional (rows x attributes), got shape {X.shape}: "
            f"Reshape your data, X.reshape(1, -1) for one example or X.reshape(-1, 1) "
            f"for one attribute")
    return X


def _frame_codes(X):
    """A DataFrame's columns as codes (column-major, in the smallest common type of its
    columns'), with each categorical column's number of categories."""
    cols, categorical_cards = [], []
    for name in X.columns:
        s = X[name]
        if str(s.dtype) == "category":
            cols.append(s.cat.codes.to_numpy())
            categorical_cards.append(len(s.cat.categories))
        elif isinstance(s.dtype, np.dtype) and s.dtype.kind in "iu":
            cols.append(s.to_numpy())
            categorical_cards.append(None)
        elif getattr(s.dtype, "kind", "O") in "iub":
            # Also pandas' nullable Int64/boolean, whose NA is a missing value.
            cols.append(s.to_numpy(dtype=np.int64, na_value=-1))
            categorical_cards.append(None)
        elif getattr(s.dtype, "kind", "O") == "f":
            cols.append(_float_codes(s.to_numpy(dtype=np.float64, na_value=np.nan),
                                     f"column '{name}'", len(cols)))
            categorical_cards.append(None)
        else:
            raise ClassifierError(
                f"column '{name}' has dtype {s.dtype}; discrete classifiers need "
                f"categorical or integer-coded columns (discretize numeric ones first)")
    if not cols:
        return np.zeros((len(X), 0), dtype=np.int64), categorical_cards
    dtype = np.result_type(*cols)
    if dtype.kind not in "iu":  # uint64 beside signed columns has no common integer type
        dtype = np.dtype(np.int64)
    out = np.empty((len(X), len(cols)), dtype=dtype, order="F")
    for j, col in enumerate(cols):
        out[:, j] = col
    return out, categorical_cards


def _array_codes(X) -> np.ndarray:
    """An array of codes: integers as they are, integral floats (NaN missing) and booleans cast."""
    X = as_2d_array(X)
    if np.issubdtype(X.dtype, np.integer):
        return X
    if X.dtype.kind == "O":
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError):
            raise ClassifierError("X holds values that are not numbers; discrete classifiers "
                                  "need integer codes or a DataFrame of categorical "
                                  "columns") from None
    if X.dtype.kind == "b":
        return X.astype(np.int64)
    if X.dtype.kind != "f":
        raise ClassifierError(f"X has dtype {X.dtype}; integer codes expected")
    return _float_codes(X, "X")


def _float_codes(values: np.ndarray, what: str, first_column: int = 0) -> np.ndarray:
    """Floats that hold codes (integral values, NaN missing) as integer codes; a 1-D
    ``values`` is the column at ``first_column``."""
    # NaN is missing, as the estimator tags (allow_nan) tell scikit-learn.
    values = np.where(np.isnan(values), -1.0, values)
    _check_not_below_missing(values, what)
    if values.size and not np.all(np.isfinite(values) & (values == np.round(values))):
        raise ClassifierError(
            f"{what} holds non-integer values; discrete classifiers need integer codes "
            "(>= 0, -1 missing): discretize numeric attributes first")
    if values.size:  # before the cast, which would wrap 1e19 around to a negative code
        _check_codes_bounded(np.atleast_1d(values.max(axis=0)), first_column)
    return values.astype(np.int64)


def _check_codes_bounded(maxima: np.ndarray, first_column: int = 0) -> None:
    """Refuse a column whose largest code makes a table of counts over the limit (code c
    needs c + 1 cells); compared in the codes' own type, before any cast or ``+ 1``."""
    limit = current_table_limit()
    over = np.flatnonzero(maxima >= limit)
    if over.size:
        j = int(over[0])
        raise TableTooLarge((int(maxima[j]) + 1,), (first_column + j,), limit)


def _bounded_int64(X: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Integer codes bounded by the table limit, and each column's largest code (None
    without a value); unsigned 64-bit ones then as int64 (beside int64 numbers, numpy
    would turn them into floats)."""
    maxima = None
    if X.size:
        maxima = column_extreme(np.maximum, X)
        _check_codes_bounded(maxima)
    return (X.astype(np.int64) if X.dtype == np.uint64 else X), maxima


def _check_not_below_missing(X, what: str = "X"):
    if X.size and X.min() < -1:
        raise ClassifierError(f"Negative values in data: {what} holds codes below -1; codes "
                              "are >= 0 and -1 marks a missing value")


def _check_cardinalities(cardinalities, observed: np.ndarray) -> np.ndarray:
    raw = np.asarray(cardinalities).ravel()
    if not (raw.dtype.kind in "iu" or (
            raw.dtype.kind == "f" and np.all(np.isfinite(raw) & (raw == np.round(raw))))):
        # A cast would truncate 2.5 to 2 and fail on None with numpy's TypeError.
        raise ClassifierError(f"cardinalities must be integers >= 1, got {list(raw)}")
    if raw.size:  # in the given type: a cast to int64 could wrap 2^64 - 1 around to -1
        _check_codes_bounded(np.maximum(raw, 1) - 1)
    cards = raw.astype(np.int64)
    if cards.shape[0] != observed.shape[0]:
        raise ClassifierError(
            f"{cards.shape[0]} cardinalities given for {observed.shape[0]} attributes")
    if (cards < 1).any():
        raise ClassifierError("cardinalities must be >= 1")
    too_big = np.flatnonzero(observed > cards)
    if too_big.size:
        j = int(too_big[0])
        raise ClassifierError(
            f"attribute {j} holds code {observed[j] - 1} but its cardinality is {cards[j]}")
    return cards


def check_discrete_X(X, cardinalities=None):
    """Validate discrete input once, at the boundary.

    Parameters
    ----------
    X : array-like of int, shape (n_samples, n_attributes), or pandas.DataFrame
        Integer codes ``>= 0``, ``-1`` for a missing value (in a float array,
        integral values with NaN also marking a missing value); or a DataFrame whose
        columns are categorical (codes and cardinalities are taken from the
        categories, a missing value becomes ``-1``), integer-coded (pandas'
        nullable ``Int64``: ``NA`` is missing), boolean (0 and 1) or float
        holding integral values (NaN missing).
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
    if is_frame(X):
        X, categorical_cards = _frame_codes(X)
    else:
        X = _array_codes(X)
    _check_not_below_missing(X)
    X, maxima = _bounded_int64(X)
    n_att = X.shape[1]
    # In int64 before adding one: int8 code 127 + 1 would wrap around.
    observed = (np.zeros(n_att, dtype=np.int64) if maxima is None
                else maxima.astype(np.int64) + 1)
    observed = np.maximum(observed, 1)
    if cardinalities is not None:
        return X, _check_cardinalities(cardinalities, observed)
    cards = observed.copy()
    for j, c in enumerate(categorical_cards or ()):
        if c is not None:
            cards[j] = max(c, 1)
    return X, cards


def frame_categories(X) -> list | None:
    """Per column of a DataFrame, its categories if categorical, else None.

    None for an array or a frame without categorical columns (the runner's
    integer codes), which prediction then reads as they are. Kept at ``fit`` so
    that prediction reads values, not the predict frame's own codes, which
    differ whenever its categories are ordered differently.
    """
    if not is_frame(X):
        return None
    columns = (X.iloc[:, j] for j in range(X.shape[1]))
    categories = [s.cat.categories if str(s.dtype) == "category" else None for s in columns]
    return categories if any(c is not None for c in categories) else None


def _recode_frame(X, categories, cardinalities):
    """Categorical or object columns as the codes of the categories seen at ``fit``.

    A missing value becomes -1; a value not among those categories becomes a
    code beyond the cardinality, i.e. a value never seen in training.
    """
    import pandas as pd  # lazy: only reached with a DataFrame in hand

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


def _check_every_class_given(y: np.ndarray):
    """No missing (None, NaN, NA) or infinite class in a float or object target."""
    import pandas as pd  # lazy: only for float or object targets; isna sees None, NaN, pd.NA

    missing = np.flatnonzero(pd.isna(y))
    if missing.size:
        raise ClassifierError(f"y has a missing class at row {missing[0]}; "
                              "every training example needs a class")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        row = np.flatnonzero(~np.isfinite(y))[0]
        raise ClassifierError(f"y has an infinite class value at row {row}")


def encode_target(y, n_classes: int | None):
    """Return ``(classes_, codes)`` for a target vector.

    With ``n_classes`` the target must already hold codes ``0..n_classes-1``,
    so that a class missing from a training fold keeps its column. Without it,
    any labels but non-integral numbers (a continuous target) are classes.
    """
    if y is None:
        raise ClassifierError("a classifier requires y to be passed, but the target y is None")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ClassifierError(f"y must be one-dimensional, got shape {y.shape}")
    if y.dtype.kind == "f" or y.dtype.kind == "O":
        _check_every_class_given(y)
    integral = y.dtype.kind in "iub" or (y.dtype.kind == "f" and np.array_equal(y, np.round(y)))
    if n_classes is not None:
        if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) \
                or n_classes < 1:
            raise ClassifierError(f"n_classes must be an integer >= 1, got {n_classes!r}")
        if not integral:
            raise ClassifierError(
                f"with n_classes, y must hold integer class codes 0..{n_classes - 1}, "
                f"got dtype {y.dtype}")
        if n_classes > current_table_limit():  # before np.arange(n_classes) is allocated
            raise ClassifierError(f"n_classes {n_classes:,} is over the limit of "
                                  f"{current_table_limit():,} cells on a table of counts "
                                  "(max_table_cells)")
        if y.size and (y.min() < 0 or y.max() >= n_classes):  # compared before any cast
            raise ClassifierError(f"class codes must lie in 0..{n_classes - 1}")
        return np.arange(n_classes), y.astype(np.int64)
    if y.dtype.kind == "f" and not integral:
        raise ClassifierError("y holds non-integer numbers, a continuous target; a classifier "
                              "needs class labels")
    try:
        classes, codes = np.unique(y, return_inverse=True)
    except TypeError:  # labels that do not compare: 1 beside 'a'
        kinds = sorted({type(v).__name__ for v in y.tolist()})
        raise ClassifierError(f"y mixes labels of types {', '.join(kinds)}; give the labels "
                              "of one type (all str, or all numbers)") from None
    return classes, codes.astype(np.int64)


def _check_rows(n_X: int, codes: np.ndarray):
    if codes.shape[0] != n_X:
        raise ClassifierError(f"X has {n_X} rows but y has {codes.shape[0]}")
    if n_X == 0:
        raise ClassifierError("cannot fit on zero rows")


def _remember(model, X, classes, names):
    """What every ``fit`` keeps of its input: ``classes_``, ``n_features_in_`` and,
    after a DataFrame fit only, ``feature_names_in_`` (scikit-learn's name)."""
    model.classes_ = classes
    model.n_features_in_ = X.shape[1]
    if names is not None:
        model.feature_names_in_ = np.asarray(names, dtype=object)


def start_discrete_fit(model, X, y, cardinalities=None, n_classes=None):
    """The checks every discrete learner's ``fit`` begins with, done once.

    Validates ``X`` and ``y`` (same length, at least one row), sets ``classes_``,
    ``cardinalities_``, ``n_features_in_``, ``categories_`` (see
    :func:`frame_categories`) and ``feature_names_in_`` (DataFrame input), and
    returns ``(X_int, cardinalities, class_codes, attribute_names)``, the names
    None for an array fitted without ``feature_names`` (:func:`given_feature_names`).
    """
    names, categories = attribute_names_of(X), frame_categories(X)
    X, cards = check_discrete_X(X, cardinalities)
    names = _fit_names(names, X.shape[1])
    classes, codes = encode_target(y, n_classes)
    _check_rows(X.shape[0], codes)
    _remember(model, X, classes, names)
    model.cardinalities_ = cards
    model.categories_ = categories
    return X, cards, codes, names


def _check_columns(model, X):
    """Same number of attributes as at ``fit``; for a DataFrame after a DataFrame fit,
    the same columns in the same order (columns are read by position)."""
    names = getattr(model, "feature_names_in_", None)
    given = attribute_names_of(X)
    if names is not None and given is not None and list(given) != list(names):
        raise ClassifierError(f"X columns differ from those seen at fit: got {list(given)}, "
                              f"expected {list(names)}")


def _check_n_features(model, n: int):
    if n != model.n_features_in_:
        raise ClassifierError(f"X has {n} features, but {type(model).__name__} is expecting "
                              f"{model.n_features_in_} features as input")


def check_discrete_predict_X(model, X) -> np.ndarray:
    """The codes of ``X`` for a fitted discrete ``model``.

    A DataFrame's categorical columns are read by value against the categories
    seen at ``fit`` (``model.categories_``), so that a value unknown then is an
    unseen value, not another category's code.
    """
    _check_columns(model, X)
    categories = getattr(model, "categories_", None)
    if categories is not None and is_frame(X) and len(X.columns) == model.n_features_in_:
        X = _recode_frame(X, categories, model.cardinalities_)
    X, _ = check_discrete_X(X)
    _check_n_features(model, X.shape[1])
    return X


def check_continuous_X(X):
    """Validate ``X`` as a finite 2-D float matrix; return ``(array, names)``.

    A DataFrame must have numeric columns only; its column names are returned
    (``None`` for an array).
    """
    names = None
    if is_frame(X):
        names = [str(c) for c in X.columns]
        bad = [n for n, dt in zip(names, X.dtypes) if getattr(dt, "kind", "O") not in "biuf"]
        if bad:
            raise ClassifierError(
                f"X column '{bad[0]}' is not numeric; continuous learners need numeric "
                f"attributes (discretize for a discrete learner instead)")
        arr = X.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        arr = as_2d_array(X)
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ClassifierError(f"X must be a numeric matrix: {exc}") from None
    finite = np.isfinite(arr)
    if not finite.all():
        row, col = np.argwhere(~finite)[0]
        what = "a missing (NaN)" if np.isnan(arr[row, col]) else "an infinite"
        label = names[col] if names is not None else str(col)
        raise ClassifierError(
            f"X has {what} value at row {row}, attribute {label}; continuous learners "
            f"need complete finite data (impute first)")
    return arr, names


def start_continuous_fit(model, X, y, n_classes=None):
    """The checks every continuous learner's ``fit`` begins with: sets ``classes_``,
    ``n_features_in_`` and ``feature_names_in_`` (DataFrame input, or ``feature_names``
    given: :func:`given_feature_names`); returns ``(X_float, class_codes)``."""
    X, names = check_continuous_X(X)
    names = _fit_names(names, X.shape[1])
    classes, codes = encode_target(y, n_classes)
    _check_rows(X.shape[0], codes)
    if X.shape[1] == 0:
        raise ClassifierError(f"X has 0 feature(s) (shape={X.shape}) while a minimum of 1 is "
                              f"required by {type(model).__name__}, which needs numeric "
                              f"attributes")
    _remember(model, X, classes, names)
    return X, codes


def check_continuous_predict_X(model, X) -> np.ndarray:
    """``X`` as floats for a fitted continuous ``model``: same attributes as at ``fit``."""
    _check_columns(model, X)
    X, _ = check_continuous_X(X)
    _check_n_features(model, X.shape[1])
    return X


def _mixed_column(s, name: str, fitting: bool, categories):
    """One DataFrame column of mixed input as floats and its categories: a categorical one
    as the codes of ``categories`` (its own when ``fitting``), a category not among them
    missing (NaN); a numeric one as its numbers (NA missing), read as codes where
    ``categories`` (seen at ``fit``) say the column is nominal."""
    if str(s.dtype) == "category":
        if not fitting and categories is None:
            raise ClassifierError(f"X column '{name}' is categorical but was numeric at fit")
        cats = s.cat.categories if fitting else categories
        mapping = cats.get_indexer(s.cat.categories).astype(np.float64)
        mapping[mapping < 0] = np.nan
        # Code -1 (missing) picks the appended NaN.
        return np.append(mapping, np.nan)[s.cat.codes.to_numpy()], cats
    if getattr(s.dtype, "kind", "O") not in "biuf":
        raise ClassifierError(f"X column '{name}' has dtype {s.dtype}; this learner takes "
                              f"numeric columns and categorical ones (pandas 'category')")
    values = s.to_numpy(dtype=np.float64, na_value=np.nan)
    return (values if categories is None else _codes(values, categories, f"'{name}'"),
            categories)


def _codes(values: np.ndarray, categories, label: str) -> np.ndarray:
    """A nominal column given as numbers: integral codes or NaN, a code beyond the
    categories missing (as an unknown category is)."""
    known = ~np.isnan(values)
    if not np.all(values[known] == np.round(values[known])):
        raise ClassifierError(f"X column {label} is nominal (categorical at fit) but holds "
                              f"non-integer values; give category codes")
    out = values.copy()
    out[known & ((values < 0) | (values >= len(categories)))] = np.nan
    return out


def check_mixed_X(X, categories=None):
    """Validate mixed input (numeric and nominal attributes, missing values) once.

    Returns ``(values, names, categories)``: ``values`` a column-major float64 matrix
    (a nominal column holds its codes, a numeric one its numbers, NaN a missing value),
    ``names`` a DataFrame's column names (None for an array) and ``categories`` per column
    the categories of a categorical column (None for a numeric one). At ``fit``
    (``categories`` None) a DataFrame's categorical columns are nominal and an array's
    columns numeric; at prediction ``categories`` are those seen at ``fit``: a categorical
    column is read by value against them, and a nominal attribute given as numbers must
    hold its codes.
    """
    fitting = categories is None
    if is_frame(X):
        names = [str(c) for c in X.columns]
        given = [None] * len(names) if fitting else categories
        values = np.empty((len(X), len(names)), order="F")
        found = []
        for j, name in enumerate(names):
            values[:, j], cats = _mixed_column(X.iloc[:, j], name, fitting, given[j])
            found.append(cats)
        categories = found
    else:
        names = None
        arr = as_2d_array(X)
        try:
            values = np.asfortranarray(arr, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ClassifierError(f"X must be a numeric matrix: {exc}") from None
        if fitting:
            categories = [None] * values.shape[1]
        elif len(categories) == values.shape[1] and any(c is not None for c in categories):
            values = np.asfortranarray(np.column_stack([
                values[:, j] if cats is None else _codes(values[:, j], cats, str(j))
                for j, cats in enumerate(categories)]))
    infinite = np.isinf(values)
    if infinite.any():
        row, col = np.argwhere(infinite)[0]
        label = names[col] if names is not None else str(col)
        raise ClassifierError(f"X has an infinite value at row {row}, attribute {label}; "
                              f"give a finite number or a missing value (NaN)")
    return values, names, categories


def start_mixed_fit(model, X, y, n_classes=None):
    """The checks of a learner taking mixed input at ``fit``: sets ``classes_``,
    ``n_features_in_``, ``feature_names_in_`` and ``categories_`` (per column, the
    categories of a nominal one, None for a numeric one); returns ``(values, class_codes)``
    (see :func:`check_mixed_X`)."""
    X, names, categories = check_mixed_X(X)
    names = _fit_names(names, X.shape[1])
    classes, codes = encode_target(y, n_classes)
    _check_rows(X.shape[0], codes)
    if X.shape[1] == 0:
        raise ClassifierError(f"X has 0 feature(s) (shape={X.shape}) while a minimum of 1 is "
                              f"required by {type(model).__name__}")
    _remember(model, X, classes, names)
    model.categories_ = categories
    return X, codes


def check_mixed_predict_X(model, X) -> np.ndarray:
    """``X`` as :func:`check_mixed_X`'s floats for a fitted ``model`` taking mixed input:
    same attributes as at ``fit``, nominal columns read against its categories."""
    _check_columns(model, X)
    if is_frame(X):  # before its columns are read against the categories of fit's
        _check_n_features(model, X.shape[1])
    X, _, _ = check_mixed_X(X, model.categories_)
    _check_n_features(model, X.shape[1])
    return X


#: What a learner may require of a data set before a run starts (its class attribute
#: ``requires``; the planner checks it, :func:`~bayesbench.evaluation.plan.plan`):
#: ``numeric``, numeric attributes only (a config's ``input: numeric`` leaves nominal ones
#: out instead); ``complete``, no missing value in what it is given unless the run imputes.
REQUIREMENTS = ("numeric", "complete")
