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
:func:`~.folds.hashed_folds` deals into folds. The field separator is a comma unless one
is given (no detection from the header).

An attribute whose every present value reads as a number is *numeric* (as in one CSV
file): it may take up to :data:`MAX_NUMERIC_VALUES` distinct values, and it must be given
cut points (:meth:`ChunkedSource.discretized`, found from the values
:func:`numeric_chunks` reads) before :func:`chunks` codes it into bins as the in-memory
discretizer does (a missing value stays missing).
"""
from __future__ import annotations

import csv
import glob
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

import numpy as np

from ..errors import DataError
from .csv_format import is_missing
from .dataset import bin_codes
from .tokens import numbers, sorted_categories

#: Rows read at once from a file (a chunk).
CHUNK_ROWS = 200_000
#: Distinct values a nominal column of a chunked data set may take.
MAX_VALUES = 1000
#: Distinct values (texts) a numeric column of a chunked data set may take: its per-value
#: class counts are held whole to find its cut points.
MAX_NUMERIC_VALUES = 100_000


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
    categories: tuple[tuple[str, ...], ...]  # of each attribute (a numeric one: its bins')
    class_name: str
    class_names: tuple[str, ...]
    file_rows: tuple[int, ...]  # rows with a class in each file
    numeric: tuple[bool, ...] = ()  # of each attribute (empty: none is)
    cuts: tuple = ()  # of each attribute: a numeric one's sorted cut points, else None

    @property
    def numeric_names(self) -> tuple[str, ...]:
        return tuple(n for n, is_num in zip(self.attribute_names, self.numeric) if is_num)

    def discretized(self, cuts: dict, labels: dict) -> ChunkedSource:
        """The source whose numeric attributes are coded into the bins of ``cuts[name]``
        (sorted cut points), labelled ``labels[name]``."""
        names = self.attribute_names
        return replace(self, cuts=tuple(cuts.get(n) for n in names),
                       categories=tuple(tuple(labels[n]) if n in cuts else c
                                        for n, c in zip(names, self.categories)))

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
          max_values: int, max_numeric: int) -> tuple[list[set], int]:
    """Each column's distinct present texts in one file, and its number of rows with a class."""
    seen, kept = [set() for _ in header], 0
    numeric = [j != class_column for j in range(len(header))]  # every value a number so far
    for frame in _frames(path, delimiter, chunk_rows):
        for j, name in enumerate(header):
            codes, texts = _factorized(frame.iloc[:, j])
            if j == class_column:
                missing = np.array([is_missing(t) for t in texts] + [True])
                kept += int((~missing[codes]).sum())  # code -1 (no text) picks the last
            present = [t for t in texts if not is_missing(t)]
            numeric[j] = numeric[j] and not numbers(present)[1].any()
            seen[j].update(present)
            _check_size(len(seen[j]), numeric[j], max_values, max_numeric, path, name, "")
    return seen, kept


def _check_size(n: int, numeric: bool, max_values: int, max_numeric: int, path, name: str,
                where: str) -> None:
    if numeric and n > max_numeric:
        raise DataError(f"numeric column of more than {max_numeric} distinct values{where}; "
                        f"a chunked data set holds each one's class counts to discretize it",
                        path=path, attribute=name)
    if not numeric and n > max_values:
        raise DataError(f"more than {max_values} distinct values{where}; a chunked data set "
                        f"needs nominal columns of few values", path=path, attribute=name)


def _categories(values: set, path, name: str, max_values: int, max_numeric: int,
                is_class: bool) -> tuple | None:
    """A nominal column's sorted categories; None for a numeric one."""
    present = list(values)
    numeric = bool(present) and not is_class and not numbers(present)[1].any()
    # each file had at most the limit, all of them more
    _check_size(len(present), numeric, max_values, max_numeric, path, name,
                " in all its files")
    return None if numeric else sorted_categories(present)


def _class_column(header: list[str], class_attribute: str | None, path) -> int:
    if class_attribute is None:
        return len(header) - 1
    if class_attribute not in header:
        raise DataError(f"no class attribute named '{class_attribute}'; attributes are "
                        f"{header}", path=path)
    return header.index(class_attribute)


def scan(path, class_attribute: str | None = None, *, name: str | None = None,
         attributes=None, delimiter: str | None = None, chunk_rows: int = CHUNK_ROWS,
         max_values: int = MAX_VALUES, max_numeric: int = MAX_NUMERIC_VALUES) -> ChunkedSource:
    """The first, cheap pass over a chunked data set (see the module docstring)."""
    files, delimiter = chunk_files(path), delimiter or ","
    header = _header(files[0], delimiter)
    k = _class_column(header, class_attribute, files[0])
    seen, rows = [set() for _ in header], []
    for f in files:
        if _header(f, delimiter) != header:
            raise DataError(f"header differs from {files[0]}'s", path=f)
        values, kept = _seen(f, delimiter, header, k, chunk_rows, max_values, max_numeric)
        seen = [a | b for a, b in zip(seen, values)]
        rows.append(kept)
    columns = [j for j in range(len(header)) if j != k]
    if attributes is not None:
        unknown = [a for a in attributes if a not in header]
        if unknown:
            raise DataError(f"no attribute named '{unknown[0]}'", path=files[0])
        columns = [j for j in columns if header[j] in attributes]
    cats = [_categories(seen[j], path, header[j], max_values, max_numeric, False)
            for j in columns]
    classes = _categories(seen[k], path, header[k], max_values, max_numeric, True)
    if len(classes) < 2:
        raise DataError("the class takes fewer than two values; a classifier needs at least "
                        "two", path=path, attribute=header[k])
    return ChunkedSource(name or Path(str(path).rstrip("/*")).stem, files, delimiter,
                         tuple(columns), k, tuple(header[j] for j in columns),
                         tuple(c or () for c in cats), header[k], classes, tuple(rows),
                         tuple(c is None for c in cats), (None,) * len(columns))


def numeric_look(path, class_attribute: str | None = None, *, attributes=None,
                 delimiter: str | None = None, chunk_rows: int = 1000) -> tuple[str, ...]:
    """The attributes whose every present value among the first ``chunk_rows`` rows of the
    first file reads as a number: a cheap look (a config check's) at what :func:`scan` finds
    numeric on all the rows."""
    files, delimiter = chunk_files(path), delimiter or ","
    header = _header(files[0], delimiter)
    k = _class_column(header, class_attribute, files[0])
    frame = next(_frames(files[0], delimiter, chunk_rows), None)
    out = []
    for j, name in enumerate(header):
        if frame is None or j == k or (attributes is not None and name not in attributes):
            continue
        present = [t for t in _factorized(frame.iloc[:, j])[1] if not is_missing(t)]
        if present and not numbers(present)[1].any():
            out.append(name)
    return tuple(out)


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
    undiscretized = [n for n, is_num, c in zip(source.attribute_names, source.numeric,
                                               source.cuts) if is_num and c is None]
    if undiscretized:
        raise DataError("numeric column without cut points; a chunked data set is coded "
                        "nominal: discretize it", path=source.files[file_index],
                        attribute=undiscretized[0])
    start = source.first_row(file_index)
    for frame, y in _class_coded(source, file_index, chunk_rows):
        X = np.column_stack([_codes(frame.iloc[:, j], cats) if cuts is None else
                             bin_codes(_numbers(frame.iloc[:, j]), cuts)
                             for j, cats, cuts in zip(source.columns, source.categories,
                                                      source.cuts)]) if source.columns \
            else np.zeros((len(frame), 0), dtype=np.int64)
        yield start, X, y
        start += y.size


def _class_coded(source: ChunkedSource, file_index: int, chunk_rows: int):
    """``(frame, class codes)`` of each chunk of one file, the rows without a class dropped."""
    for frame in _frames(source.files[file_index], source.delimiter, chunk_rows):
        y = _codes(frame.iloc[:, source.class_column], source.class_names)
        yield frame[y >= 0], y[y >= 0]


def _numbers(column) -> np.ndarray:
    """The values of a numeric column of texts, NaN where missing."""
    codes, texts = _factorized(column)
    values = numbers([None if is_missing(t) else t for t in texts])[0]
    return np.append(values, np.nan)[codes]


def numeric_chunks(source: ChunkedSource, file_index: int, chunk_rows: int = CHUNK_ROWS
                   ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(values, y)`` of each chunk of one file: the numeric attributes' values ``(n,
    len(source.numeric_names))`` (NaN missing) and class codes, rows without a class left
    out: what their cut points are found from."""
    columns = [j for j, is_num in zip(source.columns, source.numeric) if is_num]
    for frame, y in _class_coded(source, file_index, chunk_rows):
        values = [_numbers(frame.iloc[:, j]) for j in columns]
        yield (np.column_stack(values) if values else np.zeros((y.size, 0))), y
