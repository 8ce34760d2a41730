"""The typed table every reader produces and every model consumes.

Nominal columns are stored as integer codes into the attribute's declared
categories, with ``-1`` for a missing value; numeric columns as ``float64`` with
``NaN`` for a missing value. The class is always nominal and never missing
(rows whose class is missing are dropped by the readers, which say so).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Sequence

import numpy as np

from ..errors import DataError

MISSING = -1


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
        One array per attribute, each of length ``n_rows``: ``int64`` codes
        (``-1`` missing) for nominal attributes, ``float64`` (``NaN`` missing)
        for numeric ones.
    target : Attribute
        The class attribute (nominal).
    y : ndarray of int64
        Class codes into ``target.categories``.
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
        self.y = np.asarray(self.y, dtype=np.int64)
        cols = []
        for att, col in zip(self.attributes, self.columns):
            dtype = np.int64 if att.is_nominal else np.float64
            col = np.asarray(col, dtype=dtype)
            if col.shape != self.y.shape:
                raise ValueError(f"column '{att.name}' has {col.shape[0]} rows, "
                                 f"the class has {self.y.shape[0]}")
            cols.append(col)
        self.columns = cols

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
        """``(n_rows, n_attributes)`` int64 codes; every attribute must be nominal."""
        numeric = [a.name for a in self.attributes if not a.is_nominal]
        if numeric:
            raise DataError(
                f"numeric attributes {numeric} must be discretized first",
                path=self.source)
        if not self.columns:
            return np.zeros((self.n_rows, 0), dtype=np.int64)
        return np.column_stack(self.columns).astype(np.int64, copy=False)

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
        return replace(self, columns=[c[rows] for c in self.columns], y=self.y[rows],
                       notes=list(self.notes))

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
