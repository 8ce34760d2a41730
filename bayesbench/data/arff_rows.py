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

from .arff_header import Header, invalid, liac, liac_error, strip_comment
from .dataset import MISSING
from .tokens import Factorized

_BAD_ESCAPE = re.compile(r"\\[^\\\"'tnrbf%0-7u]")  # what liac-arff's unquoting refuses


class _FileLines:
    """The lines of a block of the data section, indexed as the file's lines are (``[n - 1]``
    for line ``n``; None outside the block), as the error messages quote them."""

    def __init__(self, lines: list[str], first_line: int):
        self.lines, self.skipped = lines, first_line - 1

    def __len__(self) -> int:
        return self.skipped + len(self.lines)

    def __getitem__(self, index: int) -> str | None:
        return self.lines[index - self.skipped] if index >= self.skipped else None


def data_lines(lines: list[str], header: Header, first_line: int | None = None
               ) -> tuple[list[str], np.ndarray]:
    """The data lines without their comments, and the 1-based line number of each row:
    of the file's ``lines``, or of ``lines`` of a block starting at file line ``first_line``."""
    start = header.data_index + 1 if first_line is None else 0
    shift = 1 if first_line is None else first_line
    out, rows = [], []
    for i in range(start, len(lines)):
        text = strip_comment(lines[i])
        out.append(text)
        stripped = text.strip()
        if stripped and not stripped.startswith("%"):  # the rows liac-arff decodes
            rows.append(i + shift)
    return out, np.array(rows, dtype=np.int64)


def decode_rows(lines: list[str], header: Header, path, first_line: int | None = None
                ) -> tuple[list, np.ndarray]:
    """``(columns, row_lines)``: per attribute int64 codes (nominal) or :class:`Factorized`
    texts (the others), and the file line of every row. ``lines`` are the file's, or with
    ``first_line`` those of a block of the data section that starts at that line (the
    errors name the file's lines)."""
    arff = liac()

    body, row_lines = data_lines(lines, header, first_line)
    # liac-arff numbers the lines it is given: the header's (line for line with the file),
    # then the block's
    shift = 0 if first_line is None else first_line - len(header.liac_lines) - 1
    if first_line is not None:
        lines = _FileLines(lines, first_line)
    try:
        parsed = arff.ArffDecoder().decode(list(header.liac_lines) + body, encode_nominal=True,
                                           return_type=arff.DENSE)
    except arff.ArffException as exc:
        if getattr(exc, "line", -1) and exc.line > 0:
            exc.line += shift
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
