"""Data sections through pandas' C reader: ARFF (dense and sparse) and CSV, at C speed.

Each function returns the same columns as the row decoders
(:mod:`.arff_rows`, and the ``csv`` module in :mod:`.csv_format`) or ``None``
when the file holds something the C reader cannot tell apart from another
reading: then the caller decodes row by row, which also finds the line of an
error. What makes this reader give up rather than guess:

- ARFF: backslash escapes, both ``'`` and ``"`` as quotes, a quoted ``'?'``
  or ``''`` (Weka reads them as text, not as missing), a quote that does not
  enclose a whole field, text with spaces when quotes occur, an empty last
  field (pandas fills a short row with empty fields), a value no declared
  category matches, a number ``float`` would refuse (pandas reads ``+1e 9``).
- sparse ARFF: quotes, comments, string or date attributes, an index out of
  range or given twice in a row.
- CSV: a quote that does not enclose a whole field, a bare carriage return,
  a record whose fields do not add up to the header's.

Why pandas and not pyarrow: see docs/data.md, "Why the C reader".
"""
from __future__ import annotations

import csv
import functools
import io
import re
import warnings

import numpy as np

from .dataset import MISSING, code_dtype
from .tokens import NAN_SPELLINGS, Factorized, numbers

_SPACE = re.compile(r"\s")
_PANDAS_ONLY_NUMBER = re.compile(rb"\+[0-9.]*[eE] +[0-9]")  # pandas reads '+1e 9' as 1e9
_NON_SPACE = re.compile(rb"\S")
_SPARSE_ROW = re.compile(rb"^[ \t]*\{[^{}\n]*\}[ \t\r]*$", re.MULTILINE)
_NONBLANK_LINE = re.compile(rb"^[ \t\r]*[^ \t\r\n]", re.MULTILINE)


def _read_csv(data: bytes, **options):
    """pandas.read_csv on bytes with the C engine; None when it refuses the text.

    ``index_col=False`` and the ParserWarning made an error keep a first row
    with too many fields from becoming an index (pandas' rule) or being cut.
    """
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    try:
        with warnings.catch_warnings():
            # a value outside a CategoricalDtype's categories reads as -1 (which we check);
            # pandas 3 deprecates that, and when it raises instead we decode row by row
            warnings.simplefilter("ignore")
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(io.BytesIO(data), header=None, engine="c", low_memory=False,
                               index_col=False, **options)
    except (pd.errors.ParserError, pd.errors.ParserWarning, pd.errors.EmptyDataError,
            ValueError, TypeError, UnicodeError):
        return None


def _factorized(series) -> Factorized:
    """The texts of an object column (``None`` for NaN)."""
    return Factorized.of(series.to_numpy(dtype=object, na_value=None))


def _quotes_enclose_fields(data: bytes, quote: bytes, delimiter: bytes, *,
                           csv_style: bool) -> bool:
    """True when every quote character belongs to a quoted field that starts a field and
    ends before the delimiter or the end of a line.

    ARFF: a quoted value stays on its line, may have spaces around it, and a
    ``%`` comment may follow it. CSV (RFC 4180): doubled quotes inside, line
    breaks allowed, nothing between the quotes and the delimiters.
    """
    q, d = re.escape(quote), re.escape(delimiter)
    if csv_style:
        field = rb"(?:^|(?<=" + d + rb"))" + q + rb"(?:[^" + q + rb"]|" + q + q + rb")*" + q + \
            rb"(?=" + d + rb"|\r?\n|\Z)"
    else:
        field = rb"(?:^|(?<=" + d + rb"))[ ]*" + q + rb"[^" + q + rb"\n]*" + q + \
            rb"[ ]*(?=" + d + rb"|\r?\n|\Z|%)"
    # one C-level pass: a quote left over after removing the quoted fields is a stray one
    return quote not in re.compile(field, re.MULTILINE).sub(b"", data)


# ------------------------------------------------------------------ ARFF
def _arff_quote(data: bytes) -> bytes | None:
    """The quote character of a data section (``b""`` for none), None when the C reader
    cannot read it as liac-arff would."""
    if _NON_SPACE.search(data) is None or any(c in data for c in (b"\\", b"{", b"}")):
        return None
    quotes = [q for q in (b"'", b'"') if q in data]
    if not quotes:
        return b""
    quote = quotes[0]
    if (len(quotes) == 2 or quote + b"?" + quote in data or quote + quote in data
            or not _quotes_enclose_fields(data, quote, b",", csv_style=False)):
        return None
    return quote


def _arff_texts(texts, quote: bytes, data: bytes) -> list[str] | None:
    """Distinct field texts as liac-arff reads them, or None when the C reader cannot tell
    (a text with a space may have been quoted, or unquoted, which liac-arff refuses)."""
    out = []
    for t in texts:
        if not isinstance(t, str):
            return None  # pandas inferred a number (a one-column section): the row decoder decides
        inner = t.strip()
        if "'" in inner or '"' in inner or (quote and inner != t):
            return None
        if _SPACE.search(inner) and (not quote or _unquoted(data, inner)):
            return None
        out.append(inner)
    return out


def _unquoted(data: bytes, text: str) -> bool:
    """True when ``text`` stands somewhere in ``data`` as a whole unquoted field."""
    field = re.compile(rb"(?:^|,)[ \t]*" + re.escape(text.encode()) + rb"[ \t]*(?=,|\r?$|%)",
                       re.MULTILINE)
    return field.search(data) is not None


def _nominal_from_texts(decl, raw: Factorized, last: bool, quote: bytes, data: bytes):
    """Codes of a nominal column read as texts (stripped as liac-arff does), or None."""
    if raw is None:
        return None
    texts = _arff_texts(list(raw.uniques), quote, data)
    if texts is None or (last and "" in texts):
        return None
    index = {c: i for i, c in enumerate(decl.categories)}
    table = np.array([MISSING if t in ("?", "") else index.get(t, -2) for t in texts],
                     dtype=np.int64)
    column = table[raw.codes]
    return None if (column == -2).any() else column


def _nominal_codes(decl, series, last: bool, quote: bytes, data: bytes, reread):
    """Codes into the declared categories (read as ``categories + ['?', '']``), or None."""
    codes = np.asarray(series.array.codes)  # the smallest integer type pandas chose
    k = len(decl.categories)
    if codes.size and codes.min() < 0:
        # A value no category matches: spaces before a comma or a comment ("a ,b"), which
        # the texts of the column show when nothing is quoted; else an error to locate.
        return None if quote else _nominal_from_texts(decl, reread(), last, quote, data)
    if last and (codes == k + 1).any():
        return None  # an empty last field, maybe a short row
    if any(_SPACE.search(c) for c in decl.categories):
        used = np.flatnonzero(np.bincount(codes, minlength=k + 2)[:k])
        spaced = [decl.categories[c] for c in used.tolist() if _SPACE.search(decl.categories[c])]
        if spaced and _arff_texts(spaced, quote, data) is None:
            return None
    # straight into the Dataset's compact type: no int64 copy of the column
    return np.append(np.arange(k), [MISSING, MISSING]).astype(code_dtype(k))[codes]


def _text_column(texts, codes: np.ndarray, last: bool, quote: bytes, data: bytes):
    """Factorized texts (``?`` and empty missing) of a non-nominal column, or None."""
    texts = _arff_texts(texts, quote, data)
    if texts is None or (last and "" in texts):
        return None
    raw = Factorized.of([None if t in ("?", "") else t for t in texts])
    return Factorized(raw.uniques, raw.codes[codes])


def _dense_column(decl, series, last: bool, quote: bytes, data: bytes, reread):
    if decl.kind == "nominal":
        return _nominal_codes(decl, series, last, quote, data, reread)
    if series.dtype.kind == "f":
        return series.to_numpy(dtype=np.float64)
    if decl.kind == "numeric":  # the last column, as categories
        cats = series.array.categories
        codes = np.asarray(series.array.codes)
        if (codes < 0).any():
            return None
        if cats.dtype.kind == "f":  # every value a number: pandas converted them
            return cats.to_numpy(dtype=np.float64)[codes]
        return _text_column(list(cats), codes, last, quote, data)
    raw = _factorized(series)
    return _text_column(list(raw.uniques), raw.codes, last, quote, data)


@functools.lru_cache(maxsize=4)
def _dense_dtypes(decls) -> tuple[dict, dict]:
    """read_csv's dtype and na_values for each column of a dense ARFF section (made once per
    header: a file read block by block asks for them at every block; not to be changed)."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    missing = ["?", ""] + list(NAN_SPELLINGS)
    dtypes, na_values, last = {}, {}, len(decls) - 1
    for j, decl in enumerate(decls):
        if decl.kind == "nominal":
            dtypes[j] = pd.CategoricalDtype(list(decl.categories) + ["?", ""])
        elif decl.kind == "numeric" and j != last:
            dtypes[j], na_values[j] = "float64", missing
        elif decl.kind == "numeric":
            dtypes[j] = "category"  # an empty field shows, to tell a short row
        else:
            dtypes[j] = object
    return dtypes, na_values


def arff_dense(data: bytes, header) -> list | None:
    """Columns of a dense ARFF data section (nominal int64 codes, float64 numbers,
    Factorized texts for string and date attributes), or None."""
    quote = _arff_quote(data)
    decls = header.attributes
    if quote is None or any(d.kind == "nominal" and ("?" in d.categories or "" in d.categories)
                            for d in decls):
        return None
    dtypes, na_values = _dense_dtypes(decls)
    if na_values and b"+" in data and _PANDAS_ONLY_NUMBER.search(data):
        return None
    options = dict(names=list(dtypes), sep=",", comment="%", skipinitialspace=True,
                   quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE,
                   quotechar=(quote or b'"').decode(), doublequote=False, keep_default_na=False)
    frame = _read_csv(data, dtype=dtypes, na_values=na_values, **options)
    if frame is None:
        return None

    def reread(j):
        def texts():
            again = _read_csv(data, usecols=[j], dtype=object, na_filter=False, **options)
            return None if again is None else _factorized(again[j])
        return texts
    columns = [_dense_column(d, frame[j], j == len(decls) - 1, quote, data, reread(j))
               for j, d in enumerate(decls)]
    return None if any(c is None for c in columns) else columns


def _sparse_pairs(data: bytes):
    """``(pairs per row, index, value texts, value codes)`` of sparse rows, or None."""
    a = np.frombuffer(data if data.endswith(b"\n") else data + b"\n", dtype=np.uint8)
    ends = np.flatnonzero(a == ord("\n"))
    starts = np.concatenate([[0], ends[:-1] + 1])
    per_line = np.add.reduceat(np.stack([a == ord("{"), a == ord(","), a > ord(" ")]).view(
        np.uint8), starts, axis=1, dtype=np.int64)
    opens, commas, printable = per_line
    rows = opens > 0
    content = printable - 2 * opens  # printable bytes besides the braces
    pairs = np.where(content > 0, commas + 1, 0)[rows]
    flat = data.translate(None, b"{}").replace(b",", b"\n")
    frame = _read_csv(flat, names=["i", "v"], sep=r"\s+", dtype={"i": "int64", "v": object},
                      na_filter=False)
    if frame is None or len(frame) != int(pairs.sum()):
        return None
    values = _factorized(frame["v"])
    if (values.codes < 0).any() or "" in values.uniques.tolist():
        return None
    return pairs, frame["i"].to_numpy(), list(values.uniques), values.codes


def arff_sparse(data: bytes, header) -> list | None:
    """Columns of a sparse ARFF data section (every row ``{index value, ...}``), or None."""
    decls = header.attributes
    if any(c in data for c in (b"'", b'"', b"\\", b"%")) or any(
            d.kind in ("string", "date") for d in decls):
        return None
    if len(_SPARSE_ROW.findall(data)) != len(_NONBLANK_LINE.findall(data)):
        return None
    parsed = _sparse_pairs(data)
    if parsed is None:
        return None
    pairs, index, texts, codes = parsed
    n, n_rows = len(decls), pairs.shape[0]
    row = np.repeat(np.arange(n_rows), pairs)
    if index.size and (index.min() < 0 or index.max() >= n
                       or np.unique(row * n + index).size != index.size):
        return None
    declared = [{c: i for i, c in enumerate(d.categories)} for d in decls]
    order = np.argsort(index, kind="stable")
    bounds = np.searchsorted(index[order], np.arange(n + 1))
    values, bad = numbers(texts)
    is_missing = np.array([t == "?" for t in texts], dtype=bool)
    values[is_missing] = np.nan
    columns = []
    for j, decl in enumerate(decls):
        at = order[bounds[j]:bounds[j + 1]]
        if decl.kind == "nominal":
            col = np.zeros(n_rows, dtype=np.int64)  # absent: the first category, as in Weka
            table = np.array([MISSING if t == "?" else declared[j].get(t, -2) for t in texts],
                             dtype=np.int64)
            column = table[codes[at]]
            if (column == -2).any():
                return None
        else:
            col = np.zeros(n_rows, dtype=np.float64)  # absent: 0
            if (bad[codes[at]] & ~is_missing[codes[at]]).any():
                return None
            column = values[codes[at]]
        col[row[at]] = column
        columns.append(col)
    return columns


# ------------------------------------------------------------------ CSV
def _inferred(series) -> bool:
    """Whether pandas made other than texts or floats of a categorical column's values
    (integers, True/False as booleans): their texts must be read again."""
    kind = series.array.categories.dtype
    return not (kind.kind in "fOUT" or str(kind) in ("str", "string"))


def _csv_column(frame, j: int, again):
    """Stripped Factorized texts of column ``j``, or float64 values when pandas found every
    value a number (which the reader's typing would conclude too); ``again`` holds the
    texts of the columns pandas read as integers or booleans (and, for a reader of texts
    only, as floats)."""
    series = frame[j]
    if series.dtype == object:
        raw = _factorized(series)
    elif j in again:
        raw = _factorized(again[j])
    else:
        cats, codes = series.array.categories, np.asarray(series.array.codes)
        if cats.dtype.kind == "f":
            return cats.to_numpy(dtype=np.float64)[codes]
        raw = Factorized(np.asarray(cats, dtype=object), codes)
    stripped = Factorized.of([t.strip() for t in raw.uniques])
    return Factorized(stripped.uniques, stripped.codes[raw.codes])


def csv_columns(body: bytes, n: int, delimiter: str, text_columns=(), *,
                texts: bool = False) -> list | None:
    """The columns of a CSV body (the records after the header), or None.

    Each is stripped :class:`Factorized` texts, or float64 values for a column
    whose values are all numbers; ``text_columns`` (the class) are always texts, and with
    ``texts`` every column is (a chunked data set's, whose numbers are read from their
    texts once every file is seen). Every column is read as categories, in C; only those
    that pandas took for numbers are read again as texts.
    Records whose fields are all blank are left out, as the ``csv`` module path does.
    """
    d = delimiter.encode()
    if b"\r" in body and body.count(b"\r") != body.count(b"\r\n"):
        return None
    quoted = b'"' in body
    if quoted and not _quotes_enclose_fields(body, b'"', d, csv_style=True):
        return None
    options = dict(names=list(range(n)), sep=delimiter, na_filter=False, quotechar='"',
                   doublequote=True, quoting=csv.QUOTE_MINIMAL, skipinitialspace=False,
                   skip_blank_lines=True)
    frame = _read_csv(body, dtype={j: object if j in text_columns else "category"
                                   for j in range(n)}, **options)
    if frame is None or body.count(d) - _delimiters_in_quotes(body, d, quoted) != (n - 1) * len(
            frame):
        return None  # a record with fewer fields than the header: the csv module names it
    inferred = [j for j in range(n) if frame[j].dtype != object and (
        _inferred(frame[j]) or (texts and frame[j].array.categories.dtype.kind == "f"))]
    # their texts read again, all in one pass over the body rather than one per column
    again = _read_csv(body, usecols=inferred, dtype=object, **options) if inferred else {}
    if again is None:
        return None
    columns = [_csv_column(frame, j, again) for j in range(n)]
    if any(c is None for c in columns):
        return None
    blank = np.ones(len(frame), dtype=bool)
    for column in columns:
        if isinstance(column, Factorized):
            blank &= np.append(column.uniques == "", False)[column.codes]
        else:
            blank[:] = False
    if blank.any():
        columns = [Factorized(c.uniques, c.codes[~blank]) for c in columns]
    return columns


def _delimiters_in_quotes(data: bytes, d: bytes, quoted: bool) -> int:
    if not quoted or d not in data:
        return 0
    a = np.frombuffer(data, dtype=np.uint8)
    inside = np.cumsum(a == ord('"'), dtype=np.uint8) & 1  # parity survives the uint8 wrap
    return int(np.count_nonzero((a == d[0]) & inside.astype(bool)))


def compact(column: Factorized) -> Factorized:
    """``column`` with its codes in the smallest integer type that holds them (a block's
    codes are kept until the blocks are joined: one byte a row rather than eight)."""
    return Factorized(column.uniques, column.codes.astype(code_dtype(column.uniques.size)))


def joined(parts: list) -> Factorized:
    """The :class:`Factorized` column of blocks read one after the other, its uniques in
    order of first appearance over the blocks (as reading them at once gives them); its
    codes compact (:func:`compact`)."""
    merged = Factorized.of(np.concatenate([p.uniques for p in parts]))
    dtype = code_dtype(merged.uniques.size)
    at, codes = 0, []
    for p in parts:
        table = np.append(merged.codes[at:at + p.uniques.size], -1).astype(dtype)
        codes.append(table[p.codes])
        at += p.uniques.size
    return Factorized(merged.uniques, np.concatenate(codes))
