"""CSV reading and writing.

The first non-blank line is the header (attribute names). The delimiter is
detected on it among comma, semicolon and tab (the one that gives the most
fields, a comma on a tie) unless one is given; a header that reads as a single
column is refused, since that is nearly always a wrong delimiter. Fields may be
quoted as in RFC 4180 and are stripped of surrounding spaces.

``?``, an empty field, ``NA`` and ``nan`` (any case) are missing values. A
column is numeric when every present value is a number (``inf`` included, see
:mod:`.tokens`), otherwise nominal; the class column is always nominal.
Nominal categories are sorted (numerically when they all read as numbers),
since a CSV file declares no order.

The body goes through pandas' C reader (:func:`.c_reader.csv_columns`); when
that cannot be sure to read what the ``csv`` module reads (a stray quote, a
short record), the rows are read by the ``csv`` module, which also names the
line of an error.

Writing puts the class last and ``?`` for missing values. Reading a written
file gives back the same values; the types are inferred again, so a nominal
attribute whose labels all look like numbers comes back numeric (use ARFF to
keep declared types and category orders). A category that would read back as
a missing value (``?``, ``NA``, ``nan``, empty) is refused.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from ..errors import DataError
from . import c_reader
from .assemble import assemble
from .dataset import MISSING, Attribute, Dataset, code_dtype
from .text import BLOCK_BYTES, read_blocks, read_bytes
from .tokens import Factorized, is_nan, numbers, sorted_categories

MISSING_TOKENS = frozenset({"?", "", "NA"})
#: The delimiters a CSV file's header is tried with, the first winning a tie.
DELIMITERS = (",", ";", "\t")


def is_missing(text: str) -> bool:
    """True for a stripped CSV field that stands for a missing value."""
    return text in MISSING_TOKENS or is_nan(text)


def _fields(line: str, delimiter: str) -> list[str] | None:
    try:
        return [f.strip() for f in next(csv.reader([line], delimiter=delimiter, strict=True), [])]
    except csv.Error:
        return None


def _first_line(raw: bytes) -> str:
    """The first line with more than delimiters and spaces: the header's (first) line."""
    pos = 0
    while pos < len(raw):
        end = raw.find(b"\n", pos)
        end = len(raw) if end < 0 else end
        line = raw[pos:end].decode("utf-8")
        if line.strip(" \t\r,;"):
            return line
        pos = end + 1
    return ""


def _delimiter(raw: bytes, given: str | None, path) -> str:
    if given is not None:
        if len(given) != 1:
            raise DataError(f"the delimiter must be one character, got {given!r}", path=path)
        return given
    line = _first_line(raw)
    counts = [len(_fields(line, d) or [None]) for d in DELIMITERS]
    return DELIMITERS[counts.index(max(counts))]


def _check_header(header: list[str], delimiter: str, given: bool, path) -> None:
    if len(header) == 1:
        shown = header[0] if len(header[0]) <= 40 else header[0][:37] + "..."
        how = (f"with the delimiter {delimiter!r}" if given else
               "with a comma, semicolon or tab as delimiter")
        raise DataError(f"the header reads as a single column ({shown!r}) {how}, leaving no "
                        "attribute besides the class; set the file's delimiter", path=path)
    for i, name in enumerate(header):
        if not name:
            raise DataError(f"column {i + 1} of the header has no name", path=path, line=1)
    if len(set(header)) != len(header):
        twice = sorted({n for n in header if header.count(n) > 1})
        raise DataError(f"the header names {twice} more than once", path=path)


def _records(text: str, delimiter: str, path, first_line: int = 1):
    """(line number, stripped fields) of every record with a non-blank field, the text's
    first line being line ``first_line`` of the file."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for fields in reader:
            if fields and any(f.strip() for f in fields):
                yield reader.line_num + first_line - 1, [f.strip() for f in fields]
    except csv.Error as exc:
        raise DataError(f"not a valid CSV record: {exc}", path=path,
                        line=reader.line_num + first_line - 1) from None


def _checked_rows(records, n: int, path) -> list[Factorized]:
    """Factorized columns of decoded records, each of the header's ``n`` fields."""
    body = []
    for line, fields in records:
        if len(fields) != n:
            raise DataError(f"expected {n} fields as in the header, found {len(fields)}",
                            path=path, line=line)
        body.append(fields)
    table = np.array(body, dtype=object).reshape(len(body), n)
    return [Factorized.of(table[:, j]) for j in range(n)]


def header_of(first: bytes, delimiter: str, path) -> tuple[list[str], bytes, int]:
    """``(header, the bytes after it, the file line they start on)`` of a file's first block,
    the header checked as when the file is read whole (the delimiter given: a chunked data
    set's is a comma unless one is)."""
    split = _header_fast(first, delimiter)
    if split is None:
        raise DataError("the header is not one line of unquoted or whole quoted names, as a "
                        "file read in chunks needs", path=path, line=1)
    header, rest = split
    _check_header(header, delimiter, True, path)
    return header, rest, first[:len(first) - len(rest)].count(b"\n") + 1


def body_columns(body: bytes, n: int, delimiter: str, path, first_line: int) -> list[Factorized]:
    """Stripped Factorized texts of each of the ``n`` columns of records ``body`` (whole
    records, from line ``first_line`` of the file): through the C reader, else the ``csv``
    module, which names the line of a record the in-memory reader refuses with the same
    words (a short or a long record, a stray quote)."""
    columns = c_reader.csv_columns(body, n, delimiter, texts=True)
    if columns is not None:
        return columns
    return _checked_rows(_records(body.decode("utf-8"), delimiter, path, first_line), n, path)


def _header_fast(raw: bytes, delimiter: str) -> tuple[list[str], bytes] | None:
    """The header and the bytes after it, when the header is one line without stray quotes."""
    pos = 0
    while pos < len(raw):
        end = raw.find(b"\n", pos)
        end = len(raw) if end < 0 else end
        fields = _fields(raw[pos:end].decode("utf-8"), delimiter)
        if fields is None or raw.count(b'"', pos, end) % 2:
            return None
        if any(fields):
            return fields, raw[end + 1:]
        pos = end + 1
    return None


def _read_rows(raw: bytes, delimiter: str, given: bool, path):
    """Header and Factorized columns through the ``csv`` module (the row decoder)."""
    records = _records(raw.decode("utf-8"), delimiter, path)
    try:
        _, header = next(records)
    except StopIteration:
        raise DataError("every line is blank; expected a header row", path=path) from None
    _check_header(header, delimiter, given, path)
    return header, _checked_rows(records, len(header), path)


def _typed(name: str, column, nominal: bool) -> tuple[Attribute, np.ndarray]:
    """The attribute and values of a column of stripped texts (see the module docstring),
    or of the numbers the C reader found it to hold."""
    if not isinstance(column, Factorized):
        return Attribute(name, "numeric"), column
    texts = column.uniques
    missing = np.array([is_missing(t) for t in texts], dtype=bool)
    if not nominal:
        values, bad = numbers(texts)
        if not (bad & ~missing).any():
            values[missing] = np.nan
            return Attribute(name, "numeric"), column.recode(values, np.nan)
    categories = sorted_categories(texts[~missing].tolist())
    index = {c: i for i, c in enumerate(categories)}
    table = np.array([MISSING if m else index[t] for t, m in zip(texts, missing)],
                     dtype=code_dtype(len(categories)))  # Dataset's compact type: no copy
    return Attribute(name, "nominal", categories), column.recode(table, MISSING)


def _body_blocks(first: bytes, blocks):
    """The body's blocks, each ending outside quotes: a block with an odd number of ``"``
    ends inside a quoted field (which may hold line breaks) and is joined to the next."""
    pending = first
    for _, _, data in blocks:
        pending += data
        if pending.count(b'"') % 2 == 0:
            yield pending
            pending = b""
    if pending:
        yield pending


def _read_blocks(path: Path, delimiter: str | None, class_attribute: str | None):
    """``(header, columns)`` of a CSV file read block by block through the C reader (the
    columns and one block held at once), or None: read it whole then (a block the C reader
    refuses, or a column that reads as numbers in some blocks only)."""
    blocks = read_blocks(path, BLOCK_BYTES)
    first = next(blocks, None)
    if first is None:
        return None
    given = delimiter is not None
    delimiter = _delimiter(first[2], delimiter, path)
    split = _header_fast(first[2], delimiter)
    if split is None:
        return None
    header, rest = split
    _check_header(header, delimiter, given, path)
    class_name = header[-1] if class_attribute is None else class_attribute
    text_columns = [j for j, name in enumerate(header) if name == class_name]
    parts = [[] for _ in header]
    for body in _body_blocks(rest, blocks):
        columns = c_reader.csv_columns(body, len(header), delimiter, text_columns)
        if columns is None:
            return None
        for j, column in enumerate(columns):
            parts[j].append(c_reader.compact(column) if isinstance(column, Factorized)
                            else column)
    if not parts[0]:
        return None
    kinds = [{isinstance(c, Factorized) for c in column} for column in parts]
    if any(len(k) > 1 for k in kinds):
        return None
    out = []
    for j, kind in enumerate(kinds):  # one column's blocks joined at a time
        out.append(c_reader.joined(parts[j]) if True in kind else np.concatenate(parts[j]))
        parts[j] = None
    return header, out


def read_csv(path, class_attribute: str | None = None, *, delimiter: str | None = None,
             engine: str = "c") -> Dataset:
    """Read a CSV file with a header row into a :class:`Dataset` (see the module docstring).

    The C reader reads the file in blocks of whole lines (as :mod:`.arff_format` does, for
    the same reasons), so that the columns and one block are held at once.

    ``engine="python"`` reads every record with the ``csv`` module, the
    reference reading the C reader is checked against (slower; same result).
    """
    if engine not in ("c", "python"):
        raise ValueError(f"engine must be 'c' or 'python', got {engine!r}")
    path = Path(path)
    blockwise = _read_blocks(path, delimiter, class_attribute) if engine == "c" else None
    header, columns = blockwise or _read_whole(path, delimiter, class_attribute, engine)
    class_name = header[-1] if class_attribute is None else class_attribute
    typed = []
    for j, name in enumerate(header):  # each column's texts let go once it is typed
        typed.append(_typed(name, columns[j], name == class_name))
        columns[j] = None
    return assemble(path.stem, [a for a, _ in typed], [c for _, c in typed], class_attribute,
                    path)


def _read_whole(path: Path, delimiter: str | None, class_attribute: str | None, engine: str):
    """``(header, columns)`` of the whole file: through the C reader, else the ``csv``
    module (which names the line of an error)."""
    raw = read_bytes(path)
    given = delimiter is not None
    delimiter = _delimiter(raw, delimiter, path)
    split = _header_fast(raw, delimiter) if engine == "c" else None
    if split is not None:
        header, body = split
        _check_header(header, delimiter, given, path)
        class_name = header[-1] if class_attribute is None else class_attribute
        columns = c_reader.csv_columns(body, len(header), delimiter,
                                       [j for j, name in enumerate(header) if name == class_name])
        if columns is not None:
            return header, columns
    return _read_rows(raw, delimiter, given, path)


def _cell_text(att: Attribute, col: np.ndarray) -> list[str]:
    if att.is_nominal:
        labels = list(att.categories)
        return ["?" if c == MISSING else labels[c] for c in col.tolist()]
    return ["?" if np.isnan(v) else repr(float(v)) for v in col.tolist()]


def write_csv(ds: Dataset, path, delimiter: str = ",") -> None:
    """Write ``ds`` as CSV with a header row, the class last, ``?`` for missing values.

    A category that would read back as a missing value is refused (a
    :class:`~bayesbench.errors.DataError` naming the attribute): write ARFF instead.
    """
    every = list(ds.attributes) + [ds.target]
    for att in every:
        for category in att.categories:
            if is_missing(category.strip()):
                raise DataError(f"the category {category!r} would read back from CSV as a "
                                "missing value; rename it or write ARFF", attribute=att.name)
    cells = [_cell_text(a, c) for a, c in zip(every, list(ds.columns) + [ds.y])]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, delimiter=delimiter, lineterminator="\n")
        writer.writerow([a.name for a in every])
        writer.writerows(zip(*cells))
