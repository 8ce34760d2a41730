"""Data sets larger than memory: a directory or a glob of CSV files, read chunk by chunk.

A chunked data set is never held whole. Reading it takes two kinds of pass, each over
at most :data:`CHUNK_ROWS` rows at a time:

1. :func:`scan` (once): checks that every file has the same header, collects each
   column's distinct values (at most :data:`MAX_VALUES`, else a one-line error naming
   the file and the column) and counts the rows of each file whose class is present;
2. :func:`chunks` (as often as the caller needs): one file's rows as nominal codes.

Values read as in a single CSV file (:mod:`.csv_format`): fields are stripped, ``?``,
an empty field, ``NA`` and ``nan`` are missing, categories are sorted (numerically when
all read as numbers), rows whose class is missing are dropped, and the kept rows are
numbered across the files in file order (sorted paths): the *global row index* that
:func:`~.folds.hashed_folds` deals into folds. Every attribute must be nominal: a column
whose every value reads as a number is refused (discretize it first). The field
separator is a comma unless one is given (no detection from the header).
"""
from __future__ import annotations

import csv
import glob
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from ..errors import DataError
from .csv_format import is_missing
from .tokens import numbers, sorted_categories

#: Rows read at once from a file (a chunk).
CHUNK_ROWS = 200_000
#: Distinct values a column of a chunked data set may take.
MAX_VALUES = 1000


def is_chunked(path) -> bool:
    """Whether ``path`` names a chunked data set: a directory, or a glob pattern."""
    return glob.has_magic(str(path)) or Path(path).is_dir()


def chunk_files(path) -> tuple[str, ...]:
    """The files of a chunked data set, sorted: a directory's ``*.csv``, or a glob's matches."""
    text = str(path)
    pattern = str(Path(text) / "*.csv") if not glob.has_magic(text) else text
    files = tuple(sorted(f for f in glob.glob(pattern) if Path(f).is_file()))
    if not files:
        raise DataError(f"no CSV file matches {pattern}", path=path)
    return files


@dataclass(frozen=True)
class ChunkedSource:
    """What :func:`scan` learned of a chunked data set: enough to read and code its chunks."""

    name: str
    files: tuple[str, ...]
    delimiter: str
    columns: tuple[int, ...]  # the attributes' column numbers in the header
    class_column: int
    attribute_names: tuple[str, ...]
    categories: tuple[tuple[str, ...], ...]  # of each attribute
    class_name: str
    class_names: tuple[str, ...]
    file_rows: tuple[int, ...]  # rows with a class in each file

    @property
    def cardinalities(self) -> tuple[int, ...]:
        return tuple(len(c) for c in self.categories)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    @property
    def n_rows(self) -> int:
        return sum(self.file_rows)

    def first_row(self, file_index: int) -> int:
        """The global row index of the first kept row of file ``file_index``."""
        return sum(self.file_rows[:file_index])


def _header(path: str, delimiter: str) -> list[str]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [f.strip() for f in next(csv.reader(fh, delimiter=delimiter), [])]


def _frames(path: str, delimiter: str, chunk_rows: int):
    """The file's rows after the header, ``chunk_rows`` at a time, as texts (unstripped) in
    categorical columns (pandas' C parser makes them faster than object columns)."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    yield from pd.read_csv(path, sep=delimiter, dtype="category", keep_default_na=False,
                           chunksize=chunk_rows, header=0, skip_blank_lines=True)


def _factorized(column) -> tuple[np.ndarray, list[str]]:
    """``(codes, stripped distinct texts)`` of a column: each distinct text is stripped
    once, not each row's."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    codes, uniques = pd.factorize(column)
    return codes, [str(u).strip() for u in uniques]


def _seen(path: str, delimiter: str, header: list[str], class_column: int, chunk_rows: int,
          max_values: int) -> tuple[list[set], int]:
    """Each column's distinct present texts in one file, and its number of rows with a class."""
    seen, kept = [set() for _ in header], 0
    for frame in _frames(path, delimiter, chunk_rows):
        for j, name in enumerate(header):
            codes, texts = _factorized(frame.iloc[:, j])
            if j == class_column:
                missing = np.array([is_missing(t) for t in texts] + [True])
                kept += int((~missing[codes]).sum())  # code -1 (no text) picks the last
            seen[j].update(t for t in texts if not is_missing(t))
            if len(seen[j]) > max_values:
                raise DataError(f"more than {max_values} distinct values; a chunked data set "
                                f"needs nominal columns of few values", path=path, attribute=name)
    return seen, kept


def _categories(values: set, path, name: str, max_values: int, is_class: bool) -> tuple:
    present = list(values)
    if len(present) > max_values:  # each file had at most max_values, all of them more
        raise DataError(f"more than {max_values} distinct values in all its files; a chunked "
                        f"data set needs nominal columns of few values", path=path,
                        attribute=name)
    _, bad = numbers(present)
    if present and not bad.any() and not is_class:
        raise DataError("numeric column: a chunked data set must be nominal; discretize it "
                        "first", path=path, attribute=name)
    return sorted_categories(present)


def _class_column(header: list[str], class_attribute: str | None, path) -> int:
    if class_attribute is None:
        return len(header) - 1
    if class_attribute not in header:
        raise DataError(f"no class attribute named '{class_attribute}'; attributes are "
                        f"{header}", path=path)
    return header.index(class_attribute)


def scan(path, class_attribute: str | None = None, *, name: str | None = None,
         attributes=None, delimiter: str | None = None, chunk_rows: int = CHUNK_ROWS,
         max_values: int = MAX_VALUES) -> ChunkedSource:
    """The first, cheap pass over a chunked data set (see the module docstring)."""
    files, delimiter = chunk_files(path), delimiter or ","
    header = _header(files[0], delimiter)
    k = _class_column(header, class_attribute, files[0])
    seen, rows = [set() for _ in header], []
    for f in files:
        if _header(f, delimiter) != header:
            raise DataError(f"header differs from {files[0]}'s", path=f)
        values, kept = _seen(f, delimiter, header, k, chunk_rows, max_values)
        seen = [a | b for a, b in zip(seen, values)]
        rows.append(kept)
    columns = [j for j in range(len(header)) if j != k]
    if attributes is not None:
        unknown = [a for a in attributes if a not in header]
        if unknown:
            raise DataError(f"no attribute named '{unknown[0]}'", path=files[0])
        columns = [j for j in columns if header[j] in attributes]
    cats = [_categories(seen[j], path, header[j], max_values, False) for j in columns]
    classes = _categories(seen[k], path, header[k], max_values, True)
    if len(classes) < 2:
        raise DataError("the class takes fewer than two values; a classifier needs at least "
                        "two", path=path, attribute=header[k])
    return ChunkedSource(name or Path(str(path).rstrip("/*")).stem, files, delimiter,
                         tuple(columns), k, tuple(header[j] for j in columns), tuple(cats),
                         header[k], classes, tuple(rows))


def _codes(column, categories: tuple) -> np.ndarray:
    """Codes of a column of texts into ``categories`` (-1: a missing value, which
    :func:`scan` keeps out of the categories)."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    codes, texts = _factorized(column)
    table = pd.Index(list(categories), dtype=object).get_indexer(texts)
    return np.append(table, -1).astype(np.int64)[codes]


def chunks(source: ChunkedSource, file_index: int, chunk_rows: int = CHUNK_ROWS
           ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """``(global index of the first row, X, y)`` of each chunk of one file: attribute codes
    ``(n, m)`` (-1 missing) and class codes, the rows without a class left out."""
    start = source.first_row(file_index)
    path = source.files[file_index]
    for frame in _frames(path, source.delimiter, chunk_rows):
        y = _codes(frame.iloc[:, source.class_column], source.class_names)
        keep = y >= 0
        X = np.column_stack([_codes(frame.iloc[:, j], cats) for j, cats in
                             zip(source.columns, source.categories)]) if source.columns \
            else np.zeros((len(frame), 0), dtype=np.int64)
        yield start, X[keep], y[keep]
        start += int(keep.sum())
