"""Data sets larger than memory, read chunk by chunk: a directory or a glob of CSV or Parquet
files, or ARFF files (one declared chunked in a config, or a glob of them).

A chunked data set is never held whole. Reading it takes two kinds of pass, each over
at most :data:`~.chunked_format.CHUNK_ROWS` rows at a time:

1. :func:`scan` (once): checks that every file has the same header, collects each
   column's distinct values (at most :data:`~.chunked_format.MAX_VALUES`, else a
   one-line error naming the file and the column) and counts the rows of each file whose
   class is present;
2. :func:`chunks` (as often as the caller needs): one file's rows as nominal codes.

How the files of one format are read is that format's class (:mod:`.chunked_format`: ARFF,
CSV and Parquet, found by the files' suffix in :data:`~.formats.FORMATS`); this module does
what does not depend on it: the files of a data set, and the coding of each chunk's
columns. Values read as in a single CSV file (:mod:`.csv_format`; an ARFF file's
attributes keep their declared kinds and categories), class labels equal as numbers are
one class (:func:`.tokens.class_labels`), rows whose class is missing are dropped, and the
kept rows are numbered across the files in file order (sorted paths): the *global row
index* that :func:`~bayesbench.data.fold_assignment.hashed_folds` deals into folds.

An attribute whose every present value reads as a number is *numeric* (as in one CSV
file): it may take up to :data:`~.chunked_format.MAX_NUMERIC_VALUES` distinct values, and
it must be given cut points (:meth:`ChunkedSource.discretized`, found from the values
:func:`numeric_chunks` reads) before :func:`chunks` codes it into bins as the in-memory
discretizer does (a missing value stays missing).
"""
from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import Iterator

import numpy as np

from ..errors import DataError
from .chunked_format import CHUNK_ROWS, ChunkedFormat, ChunkedSource, ScanRequest
from .dataset import bin_codes, code_dtype
from .formats import chunk_suffixes, directory_suffixes, directory_titles, format_of


def is_chunked(path) -> bool:
    """Whether ``path`` names a chunked data set: a directory, or a glob pattern."""
    return glob.has_magic(str(path)) or Path(path).is_dir()


def _matching_files(pattern: str) -> tuple[str, ...]:
    """The files ``pattern`` matches, sorted; a match that is a symbolic link to nothing (a
    loop, or a target gone) is refused, not left out: the data set would lose its rows."""
    matches = sorted(glob.glob(pattern))
    for match in matches:
        if Path(match).is_symlink() and not Path(match).exists():
            raise DataError("is a symbolic link to nothing (a loop, or its target is gone) "
                            "among the files of a chunked data set", path=match)
    return tuple(f for f in matches if Path(f).is_file())


def chunk_files(path) -> tuple[str, ...]:
    """The files of a chunked data set, sorted and all of one kind
    (:func:`~bayesbench.data.formats.chunk_suffixes`): a directory's files of the first
    suffix of :func:`~bayesbench.data.formats.directory_suffixes` it holds (``*.csv``, else
    ``*.parquet``), a glob's matches, or one file."""
    text = str(path)
    if not glob.has_magic(text) and Path(text).is_file():
        files = (text,)
    elif glob.has_magic(text):
        files = _matching_files(text)
    else:
        files = ()
        for suffix in directory_suffixes():
            files = files or _matching_files(str(Path(text) / f"*{suffix}"))
    if not files:
        raise DataError(f"no file matches {text}" if glob.has_magic(text) else
                        f"no {directory_titles()} file in the directory", path=path)
    kinds = {Path(f).suffix.lower() for f in files}
    suffixes = chunk_suffixes()
    if len(kinds) > 1 or not kinds <= set(suffixes):
        found = ", ".join(sorted(k or "(no extension)" for k in kinds))
        raise DataError(f"a chunked data set reads files of one kind among "
                        f"{', '.join(suffixes)}; found {found}", path=path)
    return files


def chunk_format(files) -> str:
    """The name of the format (:data:`~bayesbench.data.formats.FORMATS`) of the files of
    :func:`chunk_files`."""
    return format_of(files[0]).name


def scan(path, class_attribute: str | None = None, *, name: str | None = None,
         attributes=None, delimiter: str | None = None, run_on=None,
         **options) -> ChunkedSource:
    """The first, cheap pass over a chunked data set (see the module docstring), made by
    its files' format (:meth:`.chunked_format.ChunkedFormat.scan`); with ``cache`` (a
    directory, made if need be, that the caller removes after), the rows' ids are kept there for the
    later passes (:mod:`.chunk_cache`). Each file is scanned by a task run by ``run_on(fn,
    tasks)`` (an executor yielding ``(index, result)`` in any order, such as
    :func:`bayesbench.evaluation.executors.map_jobs`; None: one after another in this
    process), and the findings merged in file order: the source, the cache's ids and
    the error reported (the first file's in order) are the same however the files are run.
    ``options`` are the keywords of :class:`~.chunked_format.ScanRequest`: ``cache`` and
    the limits ``chunk_rows``, ``max_values``, ``max_numeric`` and ``part_bytes``."""
    files = chunk_files(path)
    request = ScanRequest(path, class_attribute, attributes, delimiter or ",", **options)
    if request.cache is not None:
        os.makedirs(request.cache, exist_ok=True)
    return _reader(files).scan(files, name or Path(str(path).rstrip("/*")).stem, request,
                               run_on)


def numeric_look(path, class_attribute: str | None = None, *, attributes=None,
                 delimiter: str | None = None, chunk_rows: int = 1000) -> tuple[str, ...]:
    """The attributes whose every present value among the first ``chunk_rows`` rows of the
    first file reads as a number (an ARFF file's: those declared numeric): a cheap look (a
    config check's) at what :func:`scan` finds numeric on all the rows."""
    files = chunk_files(path)
    request = ScanRequest(path, class_attribute, attributes, delimiter or ",")
    return _reader(files).numeric_look(files, request, chunk_rows)


def _reader(files) -> ChunkedFormat:
    """The format that reads ``files`` in chunks (:data:`~.formats.FORMATS`)."""
    return format_of(files[0]).chunk_reader()


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
    for start, columns, y in read_chunks(source, file_index, chunk_rows):
        yield start, coded(source, columns, y.size), y


def read_chunks(source: ChunkedSource, file_index: int, chunk_rows: int = CHUNK_ROWS
                ) -> Iterator[tuple[int, list, np.ndarray]]:
    """``(global index of the first row, columns, y)`` of each chunk of one file, its
    columns as read: a nominal attribute's codes (-1 missing), a numeric one's values (NaN
    missing), to be coded by :func:`coded` (with cut points that may differ by fold)."""
    start = source.first_row(file_index)
    for columns, y in _columns(source, file_index, chunk_rows, range(len(source.columns))):
        yield start, columns, y
        start += y.size


def _columns(source: ChunkedSource, file_index: int, chunk_rows: int, which):
    """``(columns, y)`` of each chunk of one file (the attributes at positions ``which``):
    from the ids its scan kept (:mod:`.chunk_cache`) when this process sees them, else from
    the file, parsed by its format."""
    if source.cache is not None and source.cache.usable():
        return source.cache.read(file_index, which)
    return source.reader.columns(source, file_index, chunk_rows, which)


def coded(source: ChunkedSource, columns: list, n: int) -> np.ndarray:
    """The codes ``(n, m)`` of a chunk's ``columns`` (:func:`read_chunks`), its numeric
    attributes coded into the bins of ``source.cuts`` (every one given) as the in-memory
    discretizer codes them (a missing value stays missing)."""
    # compact codes (a byte each for the usual few values), column by column
    X = np.empty((n, len(columns)), dtype=code_dtype(max(source.cardinalities, default=1)),
                 order="F")
    for j, (c, cuts) in enumerate(zip(columns, source.cuts)):
        X[:, j] = c if cuts is None else bin_codes(c, cuts)
    return X


def numeric_chunks(source: ChunkedSource, file_index: int, chunk_rows: int = CHUNK_ROWS
                   ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(values, y)`` of each chunk of one file: the numeric attributes' values ``(n,
    len(source.numeric_names))`` (NaN missing) and class codes, rows without a class left
    out: what their cut points are found from."""
    which = [i for i, is_num in enumerate(source.numeric) if is_num]
    for values, y in _columns(source, file_index, chunk_rows, which):
        yield (np.column_stack(values) if values else np.zeros((y.size, 0))), y
