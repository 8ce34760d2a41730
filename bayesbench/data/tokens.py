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
from decimal import MAX_EMAX, MIN_EMIN, Context, DecimalException

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


def canonical_number(text: str) -> str:
    """The canonical spelling of a number's text (one :func:`numbers` reads, not ``nan``):
    equal numbers get one spelling, whatever their sign, zeros or exponent.

    Compared exactly (as decimals, not float64, so that two integers of 20 digits stay two):
    ``1``, ``1.0``, ``+1``, ``01`` and ``1e0`` are ``1``; ``-0`` is ``0``; ``0.50`` is
    ``0.5``; ``inf`` and ``Infinity`` are ``inf``; positional from 1e-7 to 1e21, else with a
    lower-case exponent (``1e+300``).
    """
    text = text.strip()
    # as many digits as written: the default 28 would round two long integers into one
    exact = Context(prec=max(28, len(text)), Emax=MAX_EMAX, Emin=MIN_EMIN)
    try:
        value = exact.create_decimal(text)
        if value.is_infinite():
            return "-inf" if value < 0 else "inf"
        if value.is_zero():
            return "0"
        value = value.normalize(exact)
    except DecimalException:  # an exponent beyond even MAX_EMAX: kept as written
        return text
    return format(value, "f" if -7 <= value.adjusted() <= 20 else "e")


def class_labels(texts) -> tuple[tuple[str, ...], list[int]]:
    """``(labels, index)``: the class labels of a column's distinct texts and, for each
    text, its label's position. The rule of every reader: a text that reads as a number is
    named by :func:`canonical_number`, so that texts equal as numbers are one class; other
    texts are kept as they are. Labels keep the order of their first text."""
    texts = list(texts)
    values, bad = numbers(texts) if texts else (np.zeros(0), np.zeros(0, dtype=bool))
    labels, position, index = [], {}, []
    for text, value, not_number in zip(texts, values, bad):
        label = text if not_number or np.isnan(value) else canonical_number(text)
        if label not in position:
            position[label] = len(labels)
            labels.append(label)
        index.append(position[label])
    return tuple(labels), index


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
