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


def encode(ds: Dataset, kind: str):
    """The attributes of ``ds`` as input ``kind`` wants them (see the module docstring).

    ``codes``, ``onehot`` and ``numeric`` are numpy arrays whose columns are
    :func:`feature_names` (bayesbench's own learners are given those as ``fit``'s
    ``feature_names``); ``codes`` is :meth:`~.dataset.Dataset.codes`, the data set's own
    read-only column-major matrix in the smallest integer type, not a copy. Raises
    :class:`~bayesbench.errors.DataError` for ``codes`` of a numeric attribute, and
    :class:`BayesbenchError` for ``numeric`` input of a data set without numeric
    attributes.
    """
    if kind not in INPUT_KINDS:
        raise BayesbenchError(f"unknown input kind '{kind}'; expected one of "
                              f"{', '.join(INPUT_KINDS)}")
    if kind == "frame":
        return _frame(ds)
    if kind == "codes":
        return ds.codes()
    if kind == "numeric":
        if all(a.is_nominal for a in ds.attributes):
            raise BayesbenchError("the data set has no numeric attributes for a continuous "
                                  "learner")
        return ds.numeric_matrix()
    return _onehot(ds)


def _onehot(ds: Dataset) -> np.ndarray:
    """The one-hot matrix, each attribute's columns written in place (no block copies)."""
    widths = [a.cardinality if a.is_nominal else 1 for a in ds.attributes]
    out = np.zeros((ds.n_rows, sum(widths)), dtype=np.float64)
    start = 0
    for att, col, width in zip(ds.attributes, ds.columns, widths):
        if att.is_nominal:
            # Code -1 (missing) matches no category: a row of zeros.
            rows = np.flatnonzero(col >= 0)
            out[rows, start + col[rows].astype(np.intp)] = 1.0
        else:
            out[:, start] = col
        start += width
    return out


def _frame(ds: Dataset):
    """The attributes as a DataFrame (nominal ones categorical), without the class."""
    return ds.to_frame().drop(columns=ds.target.name)
