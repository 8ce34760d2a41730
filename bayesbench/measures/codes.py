"""Compact integer codes, their joint (mixed-radix) indices, and the bound on a table of counts.

Shared by the learners' counting (:mod:`bayesbench.models.core.counting`) and the
information measures and independence tests beside this module: every table of counts is
checked against a limit on its number of cells before it is allocated
(:func:`check_table_size`, :func:`table_limit`): two ID-like attributes of 30,000 values
each would otherwise ask for a 13 GiB table of pair counts, and a task fails with a
one-line message instead of exhausting the machine's memory.
"""
from __future__ import annotations

import contextvars
import math
from contextlib import contextmanager
from typing import Sequence

import numpy as np

from ..errors import ClassifierError

#: The most cells one table of counts may have unless :func:`table_limit` says otherwise:
#: 2^25 cells are 256 MiB as float64, and building a table takes about three times that
#: (the integer counts, the float copy, the smoothed logarithms).
MAX_TABLE_CELLS = 2 ** 25

_LIMIT = contextvars.ContextVar("max_table_cells", default=MAX_TABLE_CELLS)


@contextmanager
def table_limit(cells: int | None):
    """Within the block, :func:`check_table_size` refuses tables of more than ``cells``
    cells (None: :data:`MAX_TABLE_CELLS`)."""
    token = _LIMIT.set(MAX_TABLE_CELLS if cells is None else int(cells))
    try:
        yield
    finally:
        _LIMIT.reset(token)


class TableTooLarge(ClassifierError):
    """A table of counts would exceed the limit on cells (:func:`table_limit`).

    ``attributes`` holds the positions of the attributes the table is over (columns of
    the ``X`` given to ``fit``); :meth:`name_attributes` puts their names in the message.
    """

    def __init__(self, shape: Sequence[int], attributes: Sequence[int], limit: int,
                 what: str | None = None):
        self.shape = tuple(int(s) for s in shape)
        self.attributes = tuple(int(a) for a in attributes)
        self.limit = limit
        self.what = what  # said instead of the attributes: a table over all of them
        self.names = None
        super().__init__(self._message())

    def name_attributes(self, names) -> None:
        """Name the attributes in the message, ``names`` being the columns of ``X``."""
        if self.names is None and names is not None and self.what is None:
            self.names = [str(names[a]) for a in self.attributes]
            self.args = (self._message(),)

    def _message(self) -> str:
        if self.what is not None:
            sizes = " x ".join(f"{s:,}" for s in self.shape)
            return (f"the tables of {self.what} would have {math.prod(self.shape):,} cells "
                    f"({sizes}), over the limit of {self.limit:,} (max_table_cells)")
        if self.names is not None:
            which = ", ".join(f"'{n[:40]}'" for n in self.names)
        else:
            which = "at positions " + ", ".join(map(str, self.attributes))
        sizes = " x ".join(f"{s:,}" for s in self.shape)
        return (f"the table of attribute(s) {which} would have {math.prod(self.shape):,} cells "
                f"({sizes}), over the limit of {self.limit:,} (max_table_cells)")


def current_table_limit() -> int:
    """The most cells a table of counts may have here (:func:`table_limit`)."""
    return _LIMIT.get()


def check_all_pairs(widths: Sequence[int], n_classes: int, *, square: bool) -> None:
    """Raise :class:`TableTooLarge` if the tables of every pair of attributes (of ``widths``
    values each) hold more cells in all than the limit: one ``(n_classes, R, R)`` table of
    all of them (``square``, AODE's), or the sum of the pairs' tables (TAN's and kDB's
    weights), each of which alone may be small. Counted from the cardinalities, in Python
    integers, before anything is counted."""
    widths = [int(w) for w in widths]
    if len(widths) >= 2:  # the largest pair first: a refusal that names its two attributes
        i, j = sorted(sorted(range(len(widths)), key=lambda a: -widths[a])[:2])
        check_table_size((widths[i], widths[j], n_classes), (i, j))
    total = sum(widths)
    if square:
        shape = (n_classes, total, total)
    else:
        shape = (n_classes, (total * total - sum(w * w for w in widths)) // 2)
    limit = _LIMIT.get()
    if math.prod(shape) > limit:
        raise TableTooLarge(shape, (), limit, what=f"all pairs of the {len(widths):,} "
                                                   f"attributes ({total:,} values)")


def check_table_size(shape: Sequence[int], attributes: Sequence[int]) -> None:
    """Raise :class:`TableTooLarge` if a table of ``shape`` (over the attributes at
    ``attributes``) has more cells than the limit; call it before allocating the table.

    The product is taken over Python integers, so that it never overflows as the
    mixed-radix index of a too large table would.
    """
    limit = _LIMIT.get()
    if math.prod(int(s) for s in shape) > limit:
        raise TableTooLarge(shape, attributes, limit)


def mixed_radix(X, cols, cards):
    """Mixed-radix index of ``cols`` plus where a value is missing / beyond its cardinality.

    Returns ``(index, missing, beyond)``: the index is meaningless on rows flagged
    in either mask (:func:`joint_index` sets it to -1 there).
    """
    n = X.shape[0]
    index = np.zeros(n, dtype=np.int64)
    missing = np.zeros(n, dtype=bool)
    beyond = np.zeros(n, dtype=bool)
    for c in cols:
        col = X[:, c]
        card = int(cards[c])
        missing |= col < 0
        beyond |= col >= card
        index *= card
        index += col
    return index, missing, beyond & ~missing


def joint_index(X: np.ndarray, cols: Sequence[int], cards: Sequence[int]) -> np.ndarray:
    """Mixed-radix code of the values of columns ``cols`` of ``X``.

    ``cards`` holds the cardinality of every column of ``X`` (indexed by
    ``cols``); the first column is the most significant digit. A row with a
    missing value (``< 0``) in any of the columns, or a value beyond its
    cardinality, gets ``-1``. With no columns every row gets 0.
    """
    index, missing, beyond = mixed_radix(X, cols, cards)
    index[missing | beyond] = -1
    return index


def compact_codes(X: np.ndarray, cardinalities: Sequence[int]) -> np.ndarray:
    """``X`` as the smallest signed integer type that holds its codes, column-major.

    Counting reads one column at a time; a column-major copy in ``int8`` (for
    cardinalities up to 127) makes each read contiguous and costs less memory
    than the ``int64`` input it usually replaces. Values are unchanged.
    """
    return np.asfortranarray(X, dtype=code_dtype(X, cardinalities))


def code_dtype(X: np.ndarray, cardinalities: Sequence[int]) -> type:
    """The smallest signed integer type holding the codes of ``X`` and its cardinalities."""
    top = int(max(np.max(cardinalities, initial=1), 1))
    if X.size:
        # Codes beyond the cardinalities (unseen at fit) must survive the cast.
        top = max(top, int(X.max()))
    return next(t for t in (np.int8, np.int16, np.int32, np.int64)
                if top <= np.iinfo(t).max)


def clean_columns(X: np.ndarray, cardinalities: Sequence[int]) -> np.ndarray:
    """Per column: True when every value lies in ``0..card-1`` (nothing missing or unknown)."""
    if X.shape[0] == 0:
        return np.ones(X.shape[1], dtype=bool)
    return ((column_extreme(np.minimum, X) >= 0)
            & (column_extreme(np.maximum, X) < np.asarray(cardinalities)))


#: Values per row of the blocks :func:`column_extreme` reduces a row-major matrix in.
_BLOCK_VALUES = 4096


def column_extreme(ufunc, X: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(X, axis=0)`` for ``np.minimum`` or ``np.maximum``: each column's
    least or largest value of a two-dimensional ``X`` with at least one row, the same
    numbers (an extreme does not depend on the order it is taken in).

    numpy reduces a row-major matrix of a few columns down its rows one short row at a
    time (11,664 x 8 int8 codes: 130 us, where a column-major copy takes 2 us to reduce);
    read as blocks of rows side by side (rows of :data:`_BLOCK_VALUES` values), the same
    values are reduced along long rows, then the blocks' extremes and the rows left over,
    column-major (6 us).

    Examples
    --------
    >>> X = np.array([[3, -1], [0, 7], [5, 2]], dtype=np.int8)
    >>> column_extreme(np.maximum, X), column_extreme(np.minimum, X)
    (array([5, 7], dtype=int8), array([ 0, -1], dtype=int8))
    """
    n, m = X.shape
    per_block = _BLOCK_VALUES // max(m, 1)
    if not m or not X.flags.c_contiguous or per_block < 2:
        return ufunc.reduce(X, axis=0)
    if n < 2 * per_block:  # a few blocks' worth: column-major at once
        return ufunc.reduce(np.ascontiguousarray(X.T), axis=1)
    whole = n - n % per_block
    blocks = ufunc.reduce(X[:whole].reshape(-1, per_block * m), axis=0)
    # The blocks' extremes and the rows left over, column-major: each column one long row.
    rest = np.concatenate([blocks.reshape(per_block, m), X[whole:]]).T
    return ufunc.reduce(np.ascontiguousarray(rest), axis=1)


def slotted_radix(X, cols, cards, clean):
    """Mixed-radix index of ``cols`` and the width of each axis.

    ``clean`` flags, per column of ``X``, that every value lies in ``0..card-1``
    (:func:`clean_columns`).

    A column that is not clean gets one extra trailing slot on its axis for
    missing or unknown values, so that they can be sliced off (or found) later.
    """
    index = None
    widths = []
    for c in cols:
        col = X[:, c]
        card = int(cards[c])
        width = card
        if not clean[c]:
            width = card + 1
            col = np.where((col < 0) | (col >= card), card, col)
        if index is None:
            index = col.astype(np.int64)
        else:
            index *= width
            index += col
        widths.append(width)
    return index, widths
