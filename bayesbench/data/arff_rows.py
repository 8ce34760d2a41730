"""The ARFF data section read row by row through liac-arff's decoder.

This is the reference reading: pandas' C reader (:mod:`.c_reader`) gives the
same columns faster, and hands over to this decoder whenever a file uses
something it cannot tell apart, or has an error to locate, since only a row
decoder knows the line of a bad value.

Rows are dense (``a,b,c``) or sparse (``{0 a, 2 c}``: an absent value is 0
for a numeric attribute and the first category for a nominal one, as in
Weka). ``?`` and an empty field are missing; ``%`` starts a comment anywhere
outside quotes (Weka's tokenizer). Values may be quoted with ``'`` or ``"``
and carry backslash escapes.
"""
from __future__ import annotations

import re

import numpy as np

from .arff_header import Header, invalid, liac_error, strip_comment
from .dataset import MISSING
from .tokens import Factorized

_BAD_ESCAPE = re.compile(r"\\[^\\\"'tnrbf%0-7u]")  # what liac-arff's unquoting refuses


def data_lines(lines: list[str], header: Header) -> tuple[list[str], np.ndarray]:
    """The data lines without their comments, and the 1-based line number of each row."""
    out, rows = [], []
    for i in range(header.data_index + 1, len(lines)):
        text = strip_comment(lines[i])
        out.append(text)
        stripped = text.strip()
        if stripped and not stripped.startswith("%"):  # the rows liac-arff decodes
            rows.append(i + 1)
    return out, np.array(rows, dtype=np.int64)


def decode_rows(lines: list[str], header: Header, path) -> tuple[list, np.ndarray]:
    """``(columns, row_lines)``: per attribute int64 codes (nominal) or :class:`Factorized`
    texts (the others), and the file line of every row."""
    import arff  # lazy: keeps `bayesbench --help` fast

    body, row_lines = data_lines(lines, header)
    try:
        parsed = arff.ArffDecoder().decode(list(header.liac_lines) + body, encode_nominal=True,
                                           return_type=arff.DENSE)
    except arff.ArffException as exc:
        raise liac_error(exc, lines, path) from None
    except ValueError as exc:  # liac-arff's escape decoder: 'Unsupported escape sequence'
        line = next((int(n) for n in row_lines if _BAD_ESCAPE.search(lines[n - 1])), None)
        raise invalid(str(exc), None if line is None else lines[line - 1], line, path) from None
    rows = parsed["data"]
    table = np.array(rows, dtype=object).reshape(len(rows), len(header.attributes))
    columns = []
    for j, decl in enumerate(header.attributes):
        raw = table[:, j]
        if decl.kind == "nominal":
            missing = np.array([v is None for v in raw], dtype=bool)
            columns.append(np.where(missing, MISSING, raw).astype(np.int64))
        else:
            # a sparse row's absent string value comes back as the number 0
            columns.append(Factorized.of([v if v is None else str(v) for v in raw]))
    return columns, row_lines
