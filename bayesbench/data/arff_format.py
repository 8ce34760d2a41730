"""ARFF reading and writing (Weka's format).

Reading goes in two steps. The header (relation, attributes) is parsed by
:mod:`.arff_header` through liac-arff, accepting what Weka 3.6's loader
accepts. The data section, dense or sparse, goes through pandas' C reader
(:mod:`.c_reader`); when that cannot tell a value apart (quotes of both
kinds, backslash escapes, a quoted ``?``...) or finds something wrong, the
rows are decoded one by one by liac-arff (:mod:`.arff_rows`), which gives the
same columns and names the line of an error.

The data section is read in blocks of whole lines (:func:`.text.read_blocks`, 4 MiB),
each parsed and coded at once into the compact codes of :class:`Dataset`, so that reading
holds the columns plus one block (pandas' tokenizer keeps every field of the text it is
given: a whole 100 MB file cost 900 MB). Blocks of bytes handed to the same
``pandas.read_csv`` call, rather than ``read_csv(chunksize=...)`` or pyarrow's streaming
CSV reader: the C reader decides whether it can be trusted by checking the very bytes it
parses (quotes, escapes, ``+1e 9``...), which a block keeps exact and a chunked
``read_csv`` hides; pyarrow's CSV reader knows no comment character (ARFF's ``%``). A
block the C reader refuses is decoded row by row, and its errors name the file's lines.

Values: ``?`` (and an empty field) is missing; a number is read as
:mod:`.tokens` says (``inf`` is a number, ``NaN`` missing); in a sparse row an
absent value is 0 for a numeric attribute and the first category for a
nominal one, as in Weka.

Conversions, each recorded in ``Dataset.notes``: a ``string`` attribute
becomes nominal with its distinct values as categories in order of first
appearance; a ``date`` attribute becomes numeric, in milliseconds since
1970-01-01 00:00 UTC as Weka stores dates (Weka parses in the machine's time
zone; here a date without a zone is taken as UTC, so results do not depend on
the machine). ``integer`` attributes are numeric (Weka keeps 3.7 in one).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ..errors import DataError
from . import c_reader
from .arff_header import Declared, Header, invalid, read_header
from .arff_rows import decode_rows
from .assemble import assemble
from .dataset import MISSING, Attribute, Dataset, code_dtype
from .text import BLOCK_BYTES, read_blocks, read_bytes, split_lines
from .tokens import Factorized, numbers

_DATA_LINE = re.compile(rb"^[ \t]*@data\b[^\n]*(?:\n|\Z)", re.IGNORECASE | re.MULTILINE)
# characters that str.splitlines() breaks lines at, and split_lines not: such a file is read
# whole by the row decoder, which counts lines as split_lines does
_OTHER_LINE_BREAKS = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")
_OTHER_LINE_BREAKS_UTF8 = ("\x85".encode(), "\u2028".encode(), "\u2029".encode())


class _BadValue(Exception):
    """A value that does not read as its attribute's type, at ``row`` (0-based)."""

    def __init__(self, row: int, message: str):
        super().__init__(message)
        self.row = row


def _date_millis(texts: np.ndarray, fmt: str) -> np.ndarray:
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    stamps = pd.to_datetime(pd.Index(texts, dtype=object), format=fmt, errors="coerce",
                            utc=True)
    epoch = pd.Timestamp(0, tz="UTC")
    return np.asarray((stamps - epoch) / pd.Timedelta(milliseconds=1), dtype=np.float64)


def _in_order_of_appearance(parsed: Factorized) -> tuple[tuple[str, ...], np.ndarray]:
    codes = parsed.codes
    seen, first = np.unique(codes[codes >= 0], return_index=True)
    order = seen[np.argsort(first, kind="stable")]
    remap = np.full(parsed.uniques.shape[0], MISSING, dtype=np.int64)
    remap[order] = np.arange(order.size)
    return tuple(parsed.uniques[order].tolist()), parsed.recode(remap, MISSING)


def _date_note(decl: Declared) -> str:
    return (f"date attribute '{decl.name}' read as numeric: milliseconds since "
            f"1970-01-01 00:00 UTC")


def _convert(decl: Declared, parsed) -> tuple[Attribute, np.ndarray, str | None]:
    """The attribute and column of one parsed column; raises :class:`_BadValue`."""
    if decl.kind == "nominal":
        return Attribute(decl.name, "nominal", decl.categories), parsed, None
    if decl.kind == "numeric" and not isinstance(parsed, Factorized):
        return Attribute(decl.name, "numeric"), parsed, None
    if decl.kind == "string":
        categories, column = _in_order_of_appearance(parsed)
        note = (f"string attribute '{decl.name}' read as nominal ({len(categories)} values in "
                f"order of appearance)")
        return Attribute(decl.name, "nominal", categories), column, note
    if decl.kind == "numeric":
        values, bad = numbers(parsed.uniques)
        message = "a value of a numeric attribute is not a number"
        note = None
    else:
        values = _date_millis(parsed.uniques, decl.date_format)
        bad = np.isnan(values)
        message = f"a value of date attribute '{decl.name}' does not match its format"
        note = _date_note(decl)
    if bad.any():
        raise _BadValue(parsed.first_row(bad), message)
    return Attribute(decl.name, "numeric"), parsed.recode(values, np.nan), note


def odd_line_breaks(raw: bytes) -> bool:
    """Whether ``raw`` breaks lines otherwise than with newlines (``str.splitlines`` would
    count other lines than the C reader)."""
    return ((b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n"))
            or any(c in raw for c in _OTHER_LINE_BREAKS)
            or (not raw.isascii() and any(c in raw for c in _OTHER_LINE_BREAKS_UTF8)))


def sections(raw: bytes) -> tuple[list[str], bytes] | None:
    """The header's lines (through ``@data``) and the data section's bytes, or None when
    the file has no ``@data`` line or breaks lines otherwise than with newlines (the
    row decoder reads it then)."""
    match = _DATA_LINE.search(raw)
    if match is None or odd_line_breaks(raw):
        return None
    return split_lines(raw[:match.end()].decode("utf-8")), raw[match.end():]


def _block_column(decl: Declared, parsed):
    """One parsed column of a block as it is kept until the blocks are joined: nominal codes
    in the compact type of :class:`Dataset`, numbers (dates in milliseconds), and a string
    attribute's texts (its categories come in order of appearance over all the blocks)."""
    if decl.kind == "nominal":
        return np.asarray(parsed).astype(code_dtype(len(decl.categories)), copy=False)
    if decl.kind == "string":
        return parsed
    return _convert(decl, parsed)[1]


def block_columns(data: bytes, first_line: int, header: Header, path) -> list:
    """The columns of a block of whole lines of the data section, starting at file line
    ``first_line`` (see :func:`_block_column`): through the C reader, else decoded row by
    row, which names the file's line of an error."""
    reader = c_reader.arff_sparse if b"{" in data else c_reader.arff_dense
    parsed = reader(data, header)
    if parsed is not None:
        try:
            return [_block_column(d, c) for d, c in zip(header.attributes, parsed)]
        except _BadValue:
            pass  # the row decoder names the line
    return _decoded(split_lines(data.decode("utf-8")), header, path, _block_column, first_line)


def _decoded(lines: list[str], header: Header, path, convert, first_line: int | None = None
             ) -> list:
    """``convert(declared, column)`` of every attribute, the rows of ``lines`` decoded by
    liac-arff (:func:`~.arff_rows.decode_rows`: the file's lines, or a block's from file
    line ``first_line``); an error names the file's line of the first bad row."""
    first = 1 if first_line is None else first_line
    try:
        parsed, row_lines = decode_rows(lines, header, path, first_line)
    except DataError as error:
        # liac-arff decodes every row before a value is converted: a value that is not a
        # number in a row before the one it refuses is the first error in file order
        rows_before = 0 if error.line is None else error.line - first
        if rows_before > (header.data_index + 1 if first_line is None else 0):
            _decoded(lines[:rows_before], header, path, convert, first_line)
        raise
    try:
        return [convert(d, c) for d, c in zip(header.attributes, parsed)]
    except _BadValue as bad:
        line = int(row_lines[bad.row])
        raise invalid(str(bad), lines[line - first], line, path) from None


def data_blocks(path, block_bytes: int | None = None, max_lines: int | None = None):
    """``(header, blocks)`` of an ARFF file read block by block, ``blocks`` yielding ``(file
    line of the block's first line, file offset of its first byte, bytes of whole lines)``
    of the data section; None when the file has no ``@data`` line or breaks lines otherwise
    than with newlines (read it whole then)."""
    blocks = read_blocks(path, block_bytes or BLOCK_BYTES, max_lines)
    head, offset = b"", 0
    for _, at, data in blocks:
        offset = offset if head else at
        head += data
        match = _DATA_LINE.search(head)
        if match is not None:
            break
    else:
        return None
    if odd_line_breaks(head):
        return None
    lines = split_lines(head[:match.end()].decode("utf-8"))
    header = read_header(lines, path)
    rest = head[match.end():]
    start = header.data_index + 2

    def section():
        if rest:
            yield start, offset + match.end(), rest
        yield from blocks
    return header, section()


def _joined(decl: Declared, parts: list):
    """The column of all the blocks."""
    return c_reader.joined(parts) if decl.kind == "string" else np.concatenate(parts)


def _read_blocks(path: Path):
    """``(header, converted)`` of a file read block by block, or None (see :func:`data_blocks`);
    at most the columns and one block are held."""
    split = data_blocks(path)
    if split is None:
        return None
    header, blocks = split
    decls = header.attributes
    parts = [[] for _ in decls]
    for first_line, _, data in blocks:
        if odd_line_breaks(data):
            return None
        for j, column in enumerate(block_columns(data, first_line, header, path)):
            parts[j].append(column)
    if not parts or not parts[0]:
        return None  # no data line: the whole-file reading says what it lacks
    converted = []
    for j, decl in enumerate(decls):
        column, parts[j] = _joined(decl, parts[j]), None  # one column's blocks joined at a time
        if decl.kind == "string":
            converted.append(_convert(decl, column))
        else:
            kind = "nominal" if decl.kind == "nominal" else "numeric"
            converted.append((Attribute(decl.name, kind, decl.categories), column,
                              _date_note(decl) if decl.kind == "date" else None))
    return header, converted


def read_arff(path, class_attribute: str | None = None, *, engine: str = "c") -> Dataset:
    """Read an ARFF file into a :class:`Dataset` (see the module docstring).

    The data section is read in blocks of whole lines (:func:`~.text.read_blocks`), each
    coded at once, so that only the columns and one block are held: the codes of a
    nominal attribute take one or two bytes a row, its text many more.

    ``engine="python"`` decodes every row with liac-arff, the reference reading
    the C reader is checked against (slower; the result is the same).
    """
    if engine not in ("c", "python"):
        raise ValueError(f"engine must be 'c' or 'python', got {engine!r}")
    path = Path(path)
    blockwise = _read_blocks(path) if engine == "c" else None
    if blockwise is not None:
        converted = blockwise[1]
    else:
        raw = read_bytes(path)
        lines = split_lines(raw.decode("utf-8"))
        header = read_header(lines, path)
        converted = _decoded(lines, header, path, _convert)
    attributes = [a for a, _, _ in converted]
    columns = [c for _, c, _ in converted]
    notes = [n for _, _, n in converted if n]
    return assemble(path.stem, attributes, columns, class_attribute, path, notes)


_NAMED_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(ch: str) -> str:
    """``ch`` as it stands inside quotes: a backslash escape for a quote, a backslash, a line
    break or any other character that is not printable (a vertical tab, U+2028 and NUL
    would break the line or the file), which the readers decode back."""
    if ch in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[ch]
    if not ch.isprintable() and ch != " " and ord(ch) <= 0xFFFF:
        return f"\\u{ord(ch):04x}"
    return ch


def _quote(text: str) -> str:
    """Quote an ARFF name or value when Weka's tokenizer needs it, escaping what a quoted
    value cannot hold as it is (:func:`_escaped`)."""
    if text == "" or text == "?" or re.search(r"""[\s,'"{}%\\()\[\]]""", text) or \
            not text.isprintable():
        return "'" + "".join(_escaped(ch) for ch in text) + "'"
    return text


def _format_number(x: float) -> str:
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


def write_arff(ds: Dataset, path, relation: str | None = None) -> None:
    """Write ``ds`` as a dense ARFF file, the class last; Weka and :func:`read_arff` read it back.

    Numbers are written with full precision (``repr``), so reading the file
    back gives the same floats.
    """
    out = [f"@relation {_quote(relation or ds.name)}", ""]
    every = list(ds.attributes) + [ds.target]
    for att in every:
        if att.is_nominal:
            values = ",".join(_quote(c) for c in att.categories)
            out.append(f"@attribute {_quote(att.name)} {{{values}}}")
        else:
            out.append(f"@attribute {_quote(att.name)} numeric")
    out += ["", "@data"]
    cells = []
    for att, col in zip(every, list(ds.columns) + [ds.y]):
        if att.is_nominal:
            labels = np.array([_quote(c) for c in att.categories] + ["?"], dtype=object)
            cells.append(labels[np.where(col == MISSING, len(att.categories), col)])
        else:
            cells.append(np.array(["?" if np.isnan(v) else _format_number(v) for v in col],
                                  dtype=object))
    for i in range(ds.n_rows):
        out.append(",".join(c[i] for c in cells))
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8")
