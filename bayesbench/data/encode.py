"""The input kinds a classifier may take, and a data set encoded as each.

A classifier declares what ``X`` it takes (its ``input_kind`` class attribute, or the
config key ``input``); the runner hands it the fold's data in that form:

``codes``
    Integer codes, one column per attribute, ``-1`` for a missing value; every
    attribute must be nominal (the runner discretizes numeric ones first). The
    learner may also be given ``cardinalities`` (the declared number of values of
    each attribute) and ``n_classes``.
``onehot``
    Nominal attributes one-hot encoded, one 0/1 column per declared category (a
    missing value is a row of zeros), numeric attributes as they are (NaN
    missing), in attribute order; float64.
``numeric``
    The numeric attributes only, float64 (NaN missing); nominal ones are left out.
``frame``
    A pandas DataFrame: nominal attributes as categorical columns with their declared
    categories (a missing value is NaN), numeric ones as float64 columns.

Categories are the data set's declared ones, so a training part and a test part are
encoded with the same columns whatever values each happens to hold.
"""
from __future__ import annotations

import numpy as np

from ..errors import BayesbenchError
from .dataset import Dataset

INPUT_KINDS = ("codes", "onehot", "numeric", "frame")


def used_attributes(ds: Dataset, kind: str) -> list[str]:
    """The names of the attributes of ``ds`` that input ``kind`` carries."""
    if kind == "numeric":
        return [a.name for a in ds.attributes if not a.is_nominal]
    return ds.attribute_names


def feature_names(ds: Dataset, kind: str) -> list[str]:
    """The column names of ``encode(ds, kind)``: ``attribute=category`` for a one-hot column."""
    if kind != "onehot":
        return used_attributes(ds, kind)
    return [f"{a.name}={c}" if a.is_nominal else a.name
            for a in ds.attributes for c in (a.categories if a.is_nominal else (None,))]


def encode(ds: Dataset, kind: str, *, named: bool = False):
    """The attributes of ``ds`` as input ``kind`` wants them (see the module docstring).

    ``codes``, ``onehot`` and ``numeric`` are numpy arrays, or, with ``named``,
    DataFrames whose columns are :func:`feature_names` (bayesbench's own learners
    read attribute names from them). Raises :class:`~bayesbench.errors.DataError`
    for ``codes`` of a numeric attribute, and :class:`BayesbenchError` for
    ``numeric`` input of a data set without numeric attributes.
    """
    if kind not in INPUT_KINDS:
        raise BayesbenchError(f"unknown input kind '{kind}'; expected one of "
                              f"{', '.join(INPUT_KINDS)}")
    if kind == "frame":
        return _frame(ds)
    if kind == "codes":
        X = ds.codes()
    elif kind == "numeric":
        if all(a.is_nominal for a in ds.attributes):
            raise BayesbenchError("the data set has no numeric attributes for a continuous "
                                  "learner")
        X = ds.numeric_matrix()
    else:
        X = _onehot(ds)
    if not named:
        return X
    import pandas as pd  # lazy: only the runner's own learners take named columns

    return pd.DataFrame(X, columns=feature_names(ds, kind))


def _onehot(ds: Dataset) -> np.ndarray:
    blocks = []
    for att, col in zip(ds.attributes, ds.columns):
        if att.is_nominal:
            # Code -1 (missing) matches no category: a row of zeros.
            blocks.append((col[:, None] == np.arange(att.cardinality)[None, :]).astype(
                np.float64))
        else:
            blocks.append(col[:, None])
    if not blocks:
        return np.zeros((ds.n_rows, 0), dtype=np.float64)
    return np.hstack(blocks)


def _frame(ds: Dataset):
    """The attributes as a DataFrame (nominal ones categorical), without the class."""
    return ds.to_frame().drop(columns=ds.target.name)
