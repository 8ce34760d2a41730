"""The typed table every reader produces and every model consumes.

Nominal columns are stored as integer codes into the attribute's declared
categories, with ``-1`` for a missing value, in the smallest signed integer type
that holds them (:func:`code_dtype`: ``int8`` below 128 categories, an eighth of
``int64``'s memory); numeric columns as ``float64`` with ``NaN`` for a missing
value. The class is always nominal and never missing (rows whose class is
missing are dropped by the readers, which say so).

When every attribute is nominal and the columns share one code type, the columns are
the columns of one column-major matrix (:meth:`Dataset.codes`, the layout the learners'
counting and inference read fastest), so that the learners are given the codes without
a copy, and :meth:`Dataset.take` copies each row once. A reader that fills such a matrix
itself and passes its columns (``[M[:, j] for j in range(m)]``) is not copied at all.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Sequence

import numpy as np

from ..errors import DataError

MISSING = -1


def bin_codes(x: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin index of each value of ``x`` among sorted ``cuts`` (right-closed bins: the number
    of cut points strictly below it), ``MISSING`` where ``x`` is NaN."""
    codes = np.searchsorted(cuts, x, side="left").astype(np.int64)
    codes[np.isnan(x)] = MISSING
    return codes


def code_dtype(cardinality: int) -> np.dtype:
    """The smallest signed integer type holding the codes ``0 .. cardinality - 1`` and ``-1``."""
    for dtype in (np.int8, np.int16, np.int32):
        if cardinality <= np.iinfo(dtype).max + 1:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def _as_codes(values, cardinality: int, what: str) -> np.ndarray:
    """``values`` as codes of :func:`code_dtype`; refuses a code out of range (a cast would
    wrap it around silently)."""
    values = np.asarray(values)
    dtype = code_dtype(cardinality)
    if values.dtype == dtype:
        return values
    if values.dtype.kind not in "iub" and values.size:
        if not np.array_equal(values, np.floor(values)):
            raise ValueError(f"{what}: codes must be integers")
    if values.size and (values.min() < MISSING or values.max() >= max(cardinality, 1)):
        raise ValueError(f"{what}: codes must lie in -1 .. {cardinality - 1}, got "
                         f"{values.min()} .. {values.max()}")
    return values.astype(dtype)


def stacked(columns: Sequence[np.ndarray]) -> np.ndarray | None:
    """The column-major matrix whose columns ``columns`` are, in order, or None when they
    are not (separate arrays, other strides, another order)."""
    if not columns:
        return None
    base = columns[0].base
    if not (isinstance(base, np.ndarray) and base.ndim == 2 and base.flags.f_contiguous
            and base.shape[1] == len(columns) and base.dtype == columns[0].dtype):
        return None
    start, step = base.ctypes.data, base.shape[0] * base.itemsize
    for j, col in enumerate(columns):
        if col.base is not base or col.ctypes.data != start + j * step or \
                col.shape != base.shape[:1] or col.dtype != base.dtype:
            return None
    return base


def _fortran_stack(columns: Sequence[np.ndarray]) -> np.ndarray:
    """The columns as one column-major matrix of their common type (a copy)."""
    out = np.empty((columns[0].shape[0], len(columns)), order="F",
                   dtype=np.result_type(*columns))
    for j, col in enumerate(columns):
        out[:, j] = col
    return out


def _fortran_take(matrix: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``matrix[rows]``, column-major, gathered one contiguous column at a time."""
    if rows.dtype == bool:
        rows = np.flatnonzero(rows)
    out = np.empty((rows.shape[0], matrix.shape[1]), order="F", dtype=matrix.dtype)
    for j in range(matrix.shape[1]):
        np.take(matrix[:, j], rows, out=out[:, j])
    return out


def _matrix_columns(attributes, columns: list[np.ndarray]) -> list[np.ndarray]:
    """``columns``, as the columns of one column-major matrix when every attribute is
    nominal and they share a code type (already so: as they are; else copied once)."""
    if not columns or not all(a.is_nominal for a in attributes) or \
            len({c.dtype for c in columns}) != 1 or stacked(columns) is not None:
        return columns
    matrix = _fortran_stack(columns)
    return [matrix[:, j] for j in range(matrix.shape[1])]


@dataclass(frozen=True)
class Attribute:
    """One column: its name, its kind and, for a nominal one, its categories."""

    name: str
    kind: Literal["nominal", "numeric"]
    categories: tuple[str, ...] = ()

    @property
    def is_nominal(self) -> bool:
        return self.kind == "nominal"

    @property
    def cardinality(self) -> int:
        return len(self.categories)


@dataclass
class Dataset:
    """A data set: attributes, their columns, and the class.

    Parameters
    ----------
    name : str
        Relation or file name, used in reports.
    attributes : list of Attribute
        The predictive attributes, in file order (the class excluded).
    columns : list of ndarray
        One array per attribute, each of length ``n_rows``: integer codes
        (``-1`` missing; stored as :func:`code_dtype` of the cardinality) for
        nominal attributes, ``float64`` (``NaN`` missing) for numeric ones.
    target : Attribute
        The class attribute (nominal).
    y : ndarray of integers
        Class codes into ``target.categories`` (stored as :func:`code_dtype`).
    source : str, optional
        Path of the file it was read from.
    """

    name: str
    attributes: list[Attribute]
    columns: list[np.ndarray]
    target: Attribute
    y: np.ndarray
    source: str | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self):
        if len(self.attributes) != len(self.columns):
            raise ValueError("one column per attribute is required")
        self.y = _as_codes(self.y, self.target.cardinality, f"class '{self.target.name}'")
        cols = []
        for att, col in zip(self.attributes, self.columns):
            if att.is_nominal:
                col = _as_codes(col, att.cardinality, f"column '{att.name}'")
            else:
                col = np.asarray(col, dtype=np.float64)
            if col.shape != self.y.shape:
                raise ValueError(f"column '{att.name}' has {col.shape[0]} rows, "
                                 f"the class has {self.y.shape[0]}")
            cols.append(col)
        self.columns = _matrix_columns(self.attributes, cols)

    def __getstate__(self) -> dict:
        # The code matrix travels whole (to a worker, to Dask), not as column copies that
        # the other side would have to stack again.
        state = dict(self.__dict__)
        matrix = stacked(self.columns)
        if matrix is not None:
            state["columns"] = matrix
        return state

    def __setstate__(self, state: dict):
        columns = state["columns"]
        if isinstance(columns, np.ndarray):
            state = {**state, "columns": [columns[:, j] for j in range(columns.shape[1])]}
        self.__dict__.update(state)

    # ----------------------------------------------------------------- shape
    @property
    def n_rows(self) -> int:
        return int(self.y.shape[0])

    @property
    def n_attributes(self) -> int:
        return len(self.attributes)

    @property
    def class_names(self) -> tuple[str, ...]:
        return self.target.categories

    @property
    def n_classes(self) -> int:
        return self.target.cardinality

    @property
    def attribute_names(self) -> list[str]:
        return [a.name for a in self.attributes]

    @property
    def nominal_mask(self) -> np.ndarray:
        return np.array([a.is_nominal for a in self.attributes], dtype=bool)

    @property
    def is_nominal(self) -> bool:
        """True when every predictive attribute is nominal."""
        return bool(self.nominal_mask.all())

    @property
    def cardinalities(self) -> np.ndarray:
        """Number of categories of each attribute (0 for numeric ones)."""
        return np.array([a.cardinality for a in self.attributes], dtype=np.int64)

    def missing_mask(self) -> np.ndarray:
        """Boolean ``(n_rows, n_attributes)``: where a value is missing."""
        if not self.columns:
            return np.zeros((self.n_rows, 0), dtype=bool)
        return np.column_stack([
            c == MISSING if a.is_nominal else np.isnan(c)
            for a, c in zip(self.attributes, self.columns)])

    # ------------------------------------------------------------- matrices
    def codes(self) -> np.ndarray:
        """``(n_rows, n_attributes)`` codes in the smallest integer type holding every
        column's (see :func:`code_dtype`), column-major; every attribute must be nominal.

        When the columns share one type (see the module docstring) this is the matrix they
        are columns of, not a copy, and read-only: every learner of a fold may be given the
        same one.
        """
        numeric = [a.name for a in self.attributes if not a.is_nominal]
        if numeric:
            raise DataError(
                f"numeric attributes {numeric} must be discretized first",
                path=self.source)
        if not self.columns:
            return np.zeros((self.n_rows, 0), dtype=np.int8, order="F")
        matrix = stacked(self.columns)
        if matrix is None:
            return _fortran_stack(self.columns)
        view = matrix.view()
        view.flags.writeable = False
        return view

    def numeric_matrix(self) -> np.ndarray:
        """``(n_rows, n_numeric)`` float64 of the numeric attributes, in order."""
        cols = [c for a, c in zip(self.attributes, self.columns) if not a.is_nominal]
        if not cols:
            return np.zeros((self.n_rows, 0), dtype=np.float64)
        return np.column_stack(cols)

    # ------------------------------------------------------------ deriving
    def take(self, rows) -> "Dataset":
        """The rows given by an index array or boolean mask, as a new data set."""
        rows = np.asarray(rows)
        matrix = stacked(self.columns)
        if matrix is not None:
            # One gather of the whole matrix (column by column, each contiguous) rather
            # than a column list to stack again.
            taken = _fortran_take(matrix, rows)
            columns = [taken[:, j] for j in range(taken.shape[1])]
        else:
            columns = [c[rows] for c in self.columns]
        return replace(self, columns=columns, y=self.y[rows], notes=list(self.notes))

    def select(self, names: Sequence[str]) -> "Dataset":
        """Only the named attributes, in the order given."""
        index = {a.name: i for i, a in enumerate(self.attributes)}
        unknown = [n for n in names if n not in index]
        if unknown:
            raise DataError(f"no attribute named {unknown}; attributes are "
                            f"{self.attribute_names}", path=self.source)
        pick = [index[n] for n in names]
        return replace(self, attributes=[self.attributes[i] for i in pick],
                       columns=[self.columns[i] for i in pick], notes=list(self.notes))

    def with_columns(self, attributes: list[Attribute],
                     columns: list[np.ndarray]) -> "Dataset":
        """Same rows and class, new attributes (as a transformer returns)."""
        return replace(self, attributes=list(attributes), columns=list(columns),
                       notes=list(self.notes))

    def to_frame(self):
        """A pandas DataFrame: nominal columns categorical, the class last."""
        import pandas as pd

        data = {}
        for att, col in zip(self.attributes, self.columns):
            if att.is_nominal:
                data[att.name] = pd.Categorical.from_codes(col, categories=list(att.categories))
            else:
                data[att.name] = col
        data[self.target.name] = pd.Categorical.from_codes(
            self.y, categories=list(self.target.categories))
        return pd.DataFrame(data)

    def __repr__(self) -> str:
        n_num = int((~self.nominal_mask).sum())
        return (f"Dataset({self.name!r}, rows={self.n_rows}, attributes={self.n_attributes} "
                f"({n_num} numeric / {self.n_attributes - n_num} nominal), "
                f"classes={self.n_classes} ({self.target.name!r}))")
