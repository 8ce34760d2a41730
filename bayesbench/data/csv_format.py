"""CSV reading and writing.

The first non-blank line is the header (attribute names). ``?``, an empty
field and ``NA`` are missing values. A column is numeric when every present
value is a decimal number, otherwise nominal; the class column is always
nominal. Nominal categories are sorted (numerically when they all look like
numbers), since a CSV file declares no order. Fields may be quoted as in
RFC 4180; ``delimiter`` changes the separator (for example ``;`` or a tab).

Writing puts the class last and ``?`` for missing values. Reading a written
file gives back the same values; the types are inferred again, so a nominal
attribute whose labels all look like numbers comes back numeric (use ARFF to
keep declared types and category orders).
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from ..errors import DataError
from .arff_format import read_text
from .assemble import assemble, encode_nominal, is_number, sorted_categories
from .dataset import MISSING, Attribute, Dataset

MISSING_TOKENS = frozenset({"?", "", "NA"})


def _rows(path: Path, delimiter: str):
    """(line number, fields) of every non-blank record, fields stripped."""
    reader = csv.reader(io.StringIO(read_text(path), newline=""), delimiter=delimiter,
                        strict=True)
    try:
        for fields in reader:
            if fields and any(f.strip() for f in fields):
                yield reader.line_num, [f.strip() for f in fields]
    except csv.Error as exc:
        raise DataError(f"not a valid CSV record: {exc}", path=path,
                        line=reader.line_num) from None


def read_csv(path, class_attribute: str | None = None, *,
             delimiter: str | None = None) -> Dataset:
    """Read a CSV file with a header row into a :class:`Dataset` (see the module docstring)."""
    path = Path(path)
    delimiter = "," if delimiter is None else delimiter
    if len(delimiter) != 1:
        raise DataError(f"the delimiter must be one character, got {delimiter!r}", path=path)
    records = _rows(path, delimiter)
    try:
        _, header = next(records)
    except StopIteration:
        raise DataError("the file is empty; expected a header row", path=path) from None
    for i, name in enumerate(header):
        if not name:
            raise DataError(f"column {i + 1} of the header has no name", path=path, line=1)
    if len(set(header)) != len(header):
        twice = sorted({n for n in header if header.count(n) > 1})
        raise DataError(f"the header names {twice} more than once", path=path)
    body = []
    for line, fields in records:
        if len(fields) != len(header):
            raise DataError(f"expected {len(header)} fields as in the header, found {len(fields)}",
                            path=path, line=line)
        body.append(fields)

    class_name = header[-1] if class_attribute is None else class_attribute
    attributes, columns = [], []
    for j, name in enumerate(header):
        tokens = [None if r[j] in MISSING_TOKENS else r[j] for r in body]
        present = [t for t in tokens if t is not None]
        if name != class_name and all(is_number(t) for t in present):
            attributes.append(Attribute(name, "numeric"))
            columns.append(np.array([np.nan if t is None else float(t) for t in tokens],
                                    dtype=np.float64))
        else:
            categories = sorted_categories(present)
            attributes.append(Attribute(name, "nominal", categories))
            columns.append(encode_nominal(tokens, categories))
    return assemble(path.stem, attributes, columns, class_attribute, path)


def _cell_text(att: Attribute, col: np.ndarray) -> list[str]:
    if att.is_nominal:
        labels = list(att.categories)
        return ["?" if c == MISSING else labels[c] for c in col.tolist()]
    return ["?" if np.isnan(v) else repr(float(v)) for v in col.tolist()]


def write_csv(ds: Dataset, path, delimiter: str = ",") -> None:
    """Write ``ds`` as CSV with a header row, the class last, ``?`` for missing values."""
    every = list(ds.attributes) + [ds.target]
    cells = [_cell_text(a, c) for a, c in zip(every, list(ds.columns) + [ds.y])]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, delimiter=delimiter, lineterminator="\n")
        writer.writerow([a.name for a in every])
        writer.writerows(zip(*cells))
