"""ARFF reading and writing (Weka's format), parsed by liac-arff.

Supported: ``numeric``/``real``/``integer`` and nominal attributes (quoted names
and values, spaces inside quotes), ``%`` comments, ``?`` for missing values,
sparse rows (``{index value, ...}``; an absent value is 0 for a numeric
attribute and the first category for a nominal one, as in Weka), LF or CRLF
line endings, UTF-8 or Latin-1 text.

Conversions: a ``string`` attribute becomes nominal with its distinct values
as categories in order of first appearance (recorded in ``Dataset.notes``).
``date`` and ``relational`` attributes are refused with an error naming the
attribute; convert them first (for example with Weka's ``NominalToString``,
``StringToNominal`` or by removing them).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ..errors import DataError
from .assemble import assemble
from .dataset import MISSING, Attribute, Dataset

_ATTRIBUTE_LINE = re.compile(
    r"""^\s*@attribute\s+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+)\s+(\S+)""", re.I)
_LIAC_LINE_SUFFIX = re.compile(r",?\s*(?:at|in) line -?\d+\.?")


def read_text(path: Path) -> str:
    """The file's text: UTF-8, else Latin-1 (older Weka files)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError("no such file", path=path) from None
    except IsADirectoryError:
        raise DataError("is a directory, not a data file", path=path) from None
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", path=path) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _unquote_name(token: str) -> str:
    if token[:1] in ("'", '"') and token[-1:] == token[:1] and len(token) >= 2:
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return token


def _declared_names(lines: list[str]) -> list[str]:
    """Attribute names as declared, unescaped (liac-arff keeps backslash escapes in names)."""
    names = []
    for text in lines:
        if text.lstrip()[:5].lower() == "@data":
            break
        m = _ATTRIBUTE_LINE.match(text)
        if m is not None:
            names.append(_unquote_name(m.group(1)))
    return names


def _integer_as_numeric(lines: list[str]) -> list[str]:
    """Declare ``integer`` attributes ``numeric``: Weka keeps 3.7 in one, liac-arff truncates to 3."""
    out = list(lines)
    for i, text in enumerate(lines):
        if text.lstrip()[:5].lower() == "@data":
            break
        m = _ATTRIBUTE_LINE.match(text)
        if m is not None and m.group(2).lower() == "integer":
            out[i] = text[:m.start(2)] + "numeric" + text[m.end(2):]
    return out


def _unsupported_type(lines: list[str], line: int, path) -> DataError | None:
    if not 1 <= line <= len(lines):
        return None
    m = _ATTRIBUTE_LINE.match(lines[line - 1])
    if m is None:
        return None
    name, kind = _unquote_name(m.group(1)), m.group(2).lower()
    if kind in ("date", "relational"):
        return DataError(f"{kind} attributes are not supported; remove or convert the "
                         "attribute first", path=path, line=line, attribute=name)
    return None


def _liac_error(exc, lines: list[str], path) -> DataError:
    import arff

    line = exc.line if getattr(exc, "line", -1) and exc.line > 0 else None
    if isinstance(exc, arff.BadAttributeType) and line is not None:
        special = _unsupported_type(lines, line, path)
        if special is not None:
            return special
    try:
        text = str(exc)
    except TypeError:  # some liac-arff messages lack their '%d'
        text = exc.message or type(exc).__name__
    text = _LIAC_LINE_SUFFIX.sub("", text).strip().rstrip(".")
    if isinstance(exc, arff.BadDataFormat):
        text = "a data row has the wrong number of values or cannot be split into values"
    elif isinstance(exc, arff.BadNumericalValue):
        text = "a value of a numeric attribute is not a number"
    if line is not None and 1 <= line <= len(lines):
        snippet = lines[line - 1].strip()
        if len(snippet) > 60:
            snippet = snippet[:57] + "..."
        text += f" (line: {snippet!r})"
    return DataError(f"not a valid ARFF file: {text}", path=path, line=line)


def read_arff(path, class_attribute: str | None = None) -> Dataset:
    """Read an ARFF file into a :class:`Dataset` (see the module docstring)."""
    import arff

    path = Path(path)
    lines = read_text(path).splitlines()
    try:
        parsed = arff.ArffDecoder().decode(_integer_as_numeric(lines), encode_nominal=True,
                                           return_type=arff.DENSE)
    except arff.ArffException as exc:
        raise _liac_error(exc, lines, path) from None

    declared = parsed["attributes"]
    names = _declared_names(lines)
    if len(names) == len(declared):
        declared = [(name, kind) for name, (_, kind) in zip(names, declared)]
    rows = parsed["data"]
    table = np.array(rows, dtype=object).reshape(len(rows), len(declared))
    notes: list[str] = []
    attributes: list[Attribute] = []
    columns: list[np.ndarray] = []
    for j, (name, kind) in enumerate(declared):
        raw = table[:, j]
        missing = np.array([v is None for v in raw], dtype=bool)
        if isinstance(kind, (list, tuple)):
            categories = tuple(kind)
            if len(set(categories)) != len(categories):
                raise DataError("a category is declared twice", path=path, attribute=name)
            col = np.where(missing, MISSING, raw).astype(np.int64)
            attributes.append(Attribute(name, "nominal", categories))
        elif kind == "STRING":
            present = raw[~missing]
            categories = tuple(dict.fromkeys(present.tolist()))
            index = {c: i for i, c in enumerate(categories)}
            col = np.full(raw.shape[0], MISSING, dtype=np.int64)
            col[~missing] = [index[v] for v in present]
            notes.append(f"string attribute '{name}' read as nominal "
                         f"({len(categories)} values in order of appearance)")
            attributes.append(Attribute(name, "nominal", categories))
        else:
            col = np.where(missing, np.nan, raw).astype(np.float64)
            attributes.append(Attribute(name, "numeric"))
        columns.append(col)
    return assemble(path.stem, attributes, columns, class_attribute, path, notes)


def _quote(text: str) -> str:
    """Quote an ARFF name or value when Weka's tokenizer needs it."""
    if text == "" or text == "?" or re.search(r"""[\s,'"{}%\\()\[\]]""", text):
        escaped = text.replace("\\", "\\\\").replace("'", "\\'")
        return f"'{escaped}'"
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
