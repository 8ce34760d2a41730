"""How a value written in a data file reads, alike in every format.

A **number** is what Python's ``float`` reads, in ASCII and without digit
separators: an optional sign, digits with an optional decimal point, an
optional exponent (``1``, ``-2.5``, ``.5``, ``1e-3``), and ``inf`` or
``infinity`` in any case, which are numbers like any other. ``nan`` in any case
(``NaN``, ``nan``, ``-nan``) is a **missing** value wherever a number may stand,
in every reader, as Weka reads ``NaN``. The readers strip the text around a
value before it gets here.

Columns of text travel between a parser and the reader's typing step as
:class:`Factorized`: the distinct texts and one code per row, so that each
distinct text is looked at once, whether a row decoder or pandas' C reader
produced it.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np

_NAN = re.compile(r"[+-]?nan\Z", re.IGNORECASE)

#: Every spelling of ``nan`` that reads as a missing number (for parsers that need a list).
NAN_SPELLINGS = tuple(sign + "".join(letters) for sign in ("", "+", "-")
                      for letters in itertools.product(*zip("nan", "NAN")))


def is_nan(text: str) -> bool:
    """True for ``nan`` in any case, with or without a sign: a missing number."""
    return _NAN.match(text) is not None


def numbers(texts) -> tuple[np.ndarray, np.ndarray]:
    """``(values, bad)`` of stripped texts: float64 values (NaN for ``nan``) and where a text
    is not a number.

    ``None`` reads as NaN and is not bad. pandas' numeric conversion is the C
    version of ``float`` without its underscores and non-ASCII digits (see the
    module docstring).
    """
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    texts = np.asarray(texts, dtype=object).reshape(-1)
    values = pd.to_numeric(pd.Index(texts, dtype=object), errors="coerce")
    values = np.asarray(values, dtype=np.float64)
    bad = np.zeros(texts.shape[0], dtype=bool)
    for i in np.flatnonzero(np.isnan(values)).tolist():
        bad[i] = texts[i] is not None and not is_nan(texts[i])
    return values, bad


def sorted_categories(values) -> tuple[str, ...]:
    """Distinct labels, in numeric order when all read as numbers, else in text order."""
    distinct = sorted(set(values))
    if not distinct:
        return ()
    as_numbers, bad = numbers(distinct)
    if bad.any() or np.isnan(as_numbers).any():
        return tuple(distinct)
    order = sorted(range(len(distinct)), key=lambda i: (as_numbers[i], distinct[i]))
    return tuple(distinct[i] for i in order)


@dataclass(frozen=True)
class Factorized:
    """A column of text values as ``codes`` into its distinct ``uniques`` (``-1``: no value).

    ``uniques`` is an object array of str; every code ``>= 0`` indexes it.
    """

    uniques: np.ndarray
    codes: np.ndarray

    @classmethod
    def of(cls, values) -> "Factorized":
        """Factorize a sequence of str, ``None`` standing for no value."""
        import pandas as pd  # lazy: keeps `bayesbench --help` fast

        codes, uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=True)
        return cls(np.asarray(uniques, dtype=object), np.asarray(codes, dtype=np.intp))

    def recode(self, table: np.ndarray, absent=-1) -> np.ndarray:
        """``table[code]`` for every row; rows without a value get ``absent``."""
        table = np.append(np.asarray(table), np.asarray(absent, dtype=np.asarray(table).dtype))
        return table[self.codes]  # code -1 picks the appended `absent`

    def first_row(self, unique_mask: np.ndarray) -> int | None:
        """Index of the first row whose value is one of the uniques flagged in ``unique_mask``."""
        flagged = np.append(np.asarray(unique_mask, dtype=bool), False)[self.codes]
        hits = np.flatnonzero(flagged)
        return int(hits[0]) if hits.size else None
