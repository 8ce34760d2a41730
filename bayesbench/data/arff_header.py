"""The header of an ARFF file: relation, attribute declarations, where the data start.

What Weka 3.6's loader accepts is read: ``numeric``, ``real`` and ``integer``
(anything after the type keyword, such as a range ``[0,9]``, is ignored, as
Weka does), ``string``, ``date [format]``, nominal ``{a, 'b c', ...}``; names
quoted with ``'`` or ``"`` and backslash escapes in them (``\\'``, ``\\t``,
``\\n``, ``\\%``, ``\\\\``, octal ``\\012``, ``\\u00e9``); ``%`` comments, also
at the end of a line; keywords in any case, separated by spaces or tabs.

Refused, naming the attribute and line: a nominal attribute that declares no
category (``{}``) or one category twice, or whose braces do not hold values
separated by commas (:func:`_categories_well_formed`), a name declared twice,
``relational`` attributes, and a date format using a pattern letter that
:func:`date_format` does not translate.

liac-arff parses the nominal categories (its quoting and escapes); names are
parsed here, so that escapes and quotes inside names come out as Weka reads
them. liac-arff is handed only declarations whose categories are well formed: its
pattern for them backtracks exponentially in the number of commas when it fails
to match (forty values and no closing brace ran without end). Its values go
through Python's ``csv`` module, whose limit of 131,072 characters a field refused
valid files with a longer value; :func:`liac` raises that limit to
:data:`MAX_VALUE_CHARS`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import DataError

_QUOTED = r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\""""
_ATTRIBUTE = re.compile(
    rf"""^\s*@attribute\s+({_QUOTED}|[^\s{{}}%,'"]+)\s*(.*)$""", re.IGNORECASE | re.DOTALL)
_KEYWORD = re.compile(r"^\s*@(relation|attribute|data|end)\b", re.IGNORECASE)
_COMMENT_OR_QUOTED = re.compile(rf"""{_QUOTED}|%""")
_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "t": "\t", "n": "\n", "r": "\r", "b": "\b",
            "f": "\f", "%": "%"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[0-7]{1,3}|.)", re.DOTALL)
_LIAC_LINE_SUFFIX = re.compile(r",?\s*(?:at|in) line (?:-?\d+|%d)\.?")

#: The longest value liac-arff reads (Python's ``csv`` limit, whose default is 131,072):
#: the largest the ``csv`` module takes on every platform, so a value is bounded by its file.
MAX_VALUE_CHARS = 2 ** 31 - 1
# the items of a nominal declaration: a quoted value, escapes inside, or a plain run
_QUOTED_ITEM = {"'": re.compile(r"'(?:[^'\\]|\\.)*'"), '"': re.compile(r'"(?:[^"\\]|\\.)*"')}
_PLAIN_ITEM = re.compile(r"[^\s,]*")
_GAP = re.compile(r"\s*")

#: Weka's default date format (ISO 8601 without a time zone).
DEFAULT_DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss"

# SimpleDateFormat pattern letters -> strptime directives, by the run's length
_DATE_LETTERS = {
    "y": lambda n: "%y" if n == 2 else "%Y",
    "M": lambda n: {1: "%m", 2: "%m", 3: "%b"}.get(n, "%B"),
    "d": lambda n: "%d", "H": lambda n: "%H", "h": lambda n: "%I", "m": lambda n: "%M",
    "s": lambda n: "%S", "S": lambda n: "%f", "a": lambda n: "%p",
    "E": lambda n: "%a" if n <= 3 else "%A", "Z": lambda n: "%z", "X": lambda n: "%z",
}


@dataclass(frozen=True)
class Declared:
    """One ``@attribute`` line: its name, kind, categories (nominal) or date format, line."""

    name: str
    kind: str  # "nominal", "numeric", "string" or "date"
    categories: tuple[str, ...] = ()
    date_format: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Header:
    """The parsed header; ``data_index`` is the 0-based index of the ``@data`` line.

    ``liac_lines`` are the header lines as handed to liac-arff: every attribute
    named ``aK`` and every non-nominal one declared ``string`` (the readers convert
    numbers and dates themselves), line for line with the file.
    """

    attributes: tuple[Declared, ...]
    data_index: int
    liac_lines: tuple[str, ...]


def liac():
    """The ``arff`` module (liac-arff), its values read up to :data:`MAX_VALUE_CHARS`."""
    import csv

    import arff  # lazy: keeps `bayesbench --help` fast

    # process-wide, and only ever raised, so that threads reading at once agree
    if csv.field_size_limit() < MAX_VALUE_CHARS:
        csv.field_size_limit(MAX_VALUE_CHARS)
    return arff


def _categories_well_formed(declared: str) -> bool:
    """Whether ``{...}`` holds values separated by commas: each quoted (``'a b'``, escapes
    inside) or a run without spaces and commas, with spaces around them; one linear pass.

    Every declaration this admits is one liac-arff's pattern matches, and matches at once.
    What it refuses liac-arff refused too, by its pattern (after a time exponential in the
    commas) or by its reading of the values (tests/data/test_reader_hostile.py), but for a
    brace among the values: liac-arff strips every brace at their ends, reading ``{a,''{}``
    as ``a`` and the empty value, which Weka refuses. (Weka also separates values by spaces,
    ``{a b, c}``, which liac-arff and this refuse.)
    """
    text = declared.rstrip()
    if not (text.startswith("{") and text.endswith("}")):
        return False
    inner, pos, unclosed = text[1:-1], 0, set()
    while True:
        pos = _GAP.match(inner, pos).end()
        quote = inner[pos:pos + 1]
        item = None
        if quote in _QUOTED_ITEM and quote not in unclosed:
            item = _QUOTED_ITEM[quote].match(inner, pos)
            if item is None:
                # no later quote of this kind closes either: the scan that failed here
                # passed each of them as escaped, and went on as a scan from it would
                unclosed.add(quote)
        pos = _GAP.match(inner, (item or _PLAIN_ITEM.match(inner, pos)).end()).end()
        if pos == len(inner):
            return True
        if inner[pos] != ",":
            return False
        pos += 1


def unescape(text: str) -> str:
    """A quoted ARFF name or value without its quotes and with its escapes resolved."""
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
        text = text[1:-1]

        def sub(m):
            code = m.group(1)
            if code[0] == "u" and len(code) == 5:
                return chr(int(code[1:], 16))
            if code[0] in "01234567":
                return chr(int(code, 8))
            return _ESCAPES.get(code, code)
        return _ESCAPE.sub(sub, text)
    return text


def strip_comment(line: str) -> str:
    """``line`` without a ``%`` comment outside quotes (Weka's tokenizer reads them anywhere)."""
    if "%" not in line:
        return line
    for m in _COMMENT_OR_QUOTED.finditer(line):
        if m.group() == "%":
            return line[:m.start()]
    return line


def date_format(java: str, *, path=None, line=None, attribute=None) -> str:
    """The ``strptime`` format of a Java ``SimpleDateFormat`` pattern (the letters Weka's
    data sets use: y M d H h m s S a E Z X, and ``'quoted'`` text)."""
    out, i = [], 0
    while i < len(java):
        ch = java[i]
        if ch == "'":
            end = java.find("'", i + 1)
            if end == i + 1:  # '' is a literal quote
                out.append("'")
                i += 2
                continue
            if end < 0:
                raise DataError(f"the date format {java!r} has an unterminated quote",
                                path=path, line=line, attribute=attribute)
            out.append(java[i + 1:end].replace("%", "%%"))
            i = end + 1
            continue
        if ch.isalpha():
            run = len(java[i:]) - len(java[i:].lstrip(ch))
            if ch not in _DATE_LETTERS:
                raise DataError(f"the date format {java!r} uses the pattern letter '{ch}', "
                                "which bayesbench does not read; convert the attribute first",
                                path=path, line=line, attribute=attribute)
            out.append(_DATE_LETTERS[ch](run))
            i += run
            continue
        out.append("%%" if ch == "%" else ch)
        i += 1
    return "".join(out)


def liac_error(exc, lines: list[str], path) -> DataError:
    """liac-arff's exception as a one-line :class:`DataError` with the file's line."""
    arff = liac()

    line = exc.line if getattr(exc, "line", -1) and exc.line > 0 else None
    try:
        text = str(exc)
    except (TypeError, ValueError):  # a message without its '%d', or a value with a '%'
        text = getattr(exc, "message", "") or type(exc).__name__
    text = _LIAC_LINE_SUFFIX.sub("", text).strip().rstrip(".")
    if isinstance(exc, arff.BadDataFormat):
        text = "a data row has the wrong number of values or cannot be split into values"
    elif isinstance(exc, arff.BadNumericalValue):
        text = "a value of a numeric attribute is not a number"
    shown = lines[line - 1] if line is not None and 1 <= line <= len(lines) else None
    return invalid(text, shown, line, path)


def invalid(text: str, shown: str | None, line: int | None, path) -> DataError:
    """``not a valid ARFF file: TEXT (line: '...')``, quoting the start of ``shown``."""
    if shown is not None:
        snippet = shown.strip()
        if len(snippet) > 60:
            snippet = snippet[:57] + "..."
        text += f" (line: {snippet!r})"
    return DataError(f"not a valid ARFF file: {text}", path=path, line=line)


def _declaration(text: str, k: int, line: int, path) -> tuple[Declared | None, str]:
    """The attribute declared on ``text`` and the line as liac-arff gets it."""
    m = _ATTRIBUTE.match(strip_comment(text))
    if m is None:
        raise invalid("Bad @ATTRIBUTE format", text, line, path)
    name, rest = unescape(m.group(1)), m.group(2).strip()
    if rest.startswith("{"):
        if not rest[1:].rstrip("}").strip():
            raise DataError("declares no categories ({}); a nominal attribute needs at least "
                            "one", path=path, line=line, attribute=name)
        if not _categories_well_formed(rest):
            raise DataError("its categories are not {value, value, ...}: each value quoted "
                            "or without spaces and commas, separated by commas, and nothing "
                            "after the closing '}'", path=path, line=line, attribute=name)
        return Declared(name, "nominal", line=line), f"@attribute a{k} {rest}"
    words = rest.split(None, 1)
    kind = words[0].lower() if words else ""
    if kind in ("numeric", "real", "integer", "string"):
        return (Declared(name, "string" if kind == "string" else "numeric", line=line),
                f"@attribute a{k} string")
    if kind == "date":
        java = unescape(words[1].strip()) if len(words) > 1 else DEFAULT_DATE_FORMAT
        fmt = date_format(java, path=path, line=line, attribute=name)
        return Declared(name, "date", date_format=fmt, line=line), f"@attribute a{k} string"
    if kind == "relational":
        raise DataError("relational attributes are not supported; remove or convert the "
                        "attribute first", path=path, line=line, attribute=name)
    return None, f"@attribute a{k} {rest}"  # liac-arff reports the bad type


def _liac_header(lines: list[str], path) -> tuple[list, list[str], int | None]:
    """Our declarations, the lines handed to liac-arff, and the index of ``@data``."""
    declared, liac_lines = [], []
    for i, text in enumerate(lines):
        m = _KEYWORD.match(text)
        keyword = m.group(1).lower() if m else None
        if keyword == "attribute":
            decl, text = _declaration(text, len(liac_lines), i + 1, path)
            declared.append(decl)
        elif keyword == "relation":
            text = "@relation r"  # the data set is named after its file
        elif keyword == "data":
            liac_lines.append("@data")
            return declared, liac_lines, i
        liac_lines.append(text)
    return declared, liac_lines, None


def read_header(lines: list[str], path) -> Header:
    """Parse the header of an ARFF file given as lines (see the module docstring)."""
    arff = liac()

    declared, liac_lines, data_index = _liac_header(lines, path)
    try:
        parsed = arff.ArffDecoder().decode(liac_lines, encode_nominal=True,
                                           return_type=arff.DENSE)
    except arff.ArffException as exc:
        raise liac_error(exc, lines, path) from None
    if data_index is None:  # liac-arff refuses a header without @data; this is a safeguard
        raise invalid("no @data line", None, None, path)
    out, seen = [], {}
    for decl, (_, kind) in zip(declared, parsed["attributes"], strict=True):
        if decl.name in seen:
            raise DataError(f"the name is declared twice (first on line {seen[decl.name]})",
                            path=path, line=decl.line, attribute=decl.name)
        seen[decl.name] = decl.line
        if decl.kind == "nominal":
            categories = tuple(kind)
            if len(set(categories)) != len(categories):
                raise DataError("a category is declared twice", path=path, line=decl.line,
                                attribute=decl.name)
            decl = Declared(decl.name, "nominal", categories, line=decl.line)
        out.append(decl)
    return Header(tuple(out), data_index, tuple(liac_lines))
