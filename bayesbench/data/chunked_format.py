"""What every chunked data format is: a class that scans a data set's files, looks at their
first rows and reads one file's columns chunk by chunk, and what its scan learns.

A format is one :class:`ChunkedFormat` subclass in its own module (:mod:`.chunked_arff`,
:mod:`.chunked_csv`, :mod:`.chunked_parquet`), named by its :class:`~.formats.DataFormat`
entry (``chunks``) in the one table :data:`~.formats.FORMATS`, which the loader, the
config check (``datasets``: the suffixes a chunked data set reads, its numeric attributes),
the chunked run (:mod:`.chunks`) and the docs read; adding a format touches its own module,
that table and a test. What does not depend on the format (the files of a data set, coding
a chunk's columns, the fold dealing) stays in :mod:`.chunks`.

The helpers below are the checks every scan makes alike (the bounds on distinct values,
the class column, the attributes selected), so that their messages are the same whatever
the files' format.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Iterator

import numpy as np

from ..errors import DataError
from .chunk_cache import CodeCache
from .formats import format_of
from .tokens import numbers, sorted_categories

#: Rows read at once from a file (a chunk).
CHUNK_ROWS = 200_000
#: Distinct values a nominal column of a chunked data set may take.
MAX_VALUES = 1000
#: Distinct values (texts) a numeric column of a chunked data set may take: its per-value
#: class counts are held whole to find its cut points.
MAX_NUMERIC_VALUES = 100_000


@dataclass(frozen=True)
class ScanRequest:
    """What a scan is asked: the data set's ``path`` (named by the errors about all its
    files), its class and attributes (None: the last column, and all the others), the CSV
    field separator, the rows of a chunk, the bounds on distinct values, the bytes of a
    part of a large file (None: the format's own) and the directory to keep the rows' ids
    in (:mod:`.chunk_cache`; None: no cache, the passes parse the files again)."""

    path: object
    class_attribute: str | None = None
    attributes: tuple | None = None
    delimiter: str = ","
    chunk_rows: int = CHUNK_ROWS
    max_values: int = MAX_VALUES
    max_numeric: int = MAX_NUMERIC_VALUES
    part_bytes: int | None = None
    cache: str | None = None


@dataclass(frozen=True)
class ChunkedSource:
    """What a scan learned of a chunked data set: enough to read and code its chunks."""

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
    header: object = None  # ARFF files: their parsed header (arff_header.Header)
    # ARFF files: each entry of ``files`` is a part of a file's data section, ``(start
    # offset, stop offset or None: the end, first line)``, or None (the whole section)
    spans: tuple = ()
    # the rows of each class in each entry of ``files`` (what stratified hashed folds
    # number each class's rows from)
    file_class_rows: tuple = ()
    cache: CodeCache | None = None  # the rows' ids kept on disk by the scan (chunk_cache.py)

    @property
    def format(self) -> str:
        """The name of its files' format (:data:`~.formats.FORMATS`)."""
        return format_of(self.files[0]).name

    @property
    def reader(self) -> ChunkedFormat:
        """Its files' format, which reads their chunks."""
        return format_of(self.files[0]).chunk_reader()

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

    def first_class_rows(self, file_index: int) -> np.ndarray:
        """The rows of each class in the files before file ``file_index``: the rank of its
        first row of each class among that class's rows."""
        before = np.zeros(self.n_classes, dtype=np.int64)
        for counts in self.file_class_rows[:file_index]:
            before += np.asarray(counts, dtype=np.int64)
        return before


class ChunkedFormat:
    """How the files of one format are read in chunks.

    A subclass sets ``name`` (its key in :data:`~.formats.FORMATS`) and ``summary`` (one
    line, for the docs: docs/large-data.md lists every format's) and implements the
    three reads: :meth:`scan` (the first pass over all the files), :meth:`numeric_look`
    (the config check's cheap look at the first rows) and :meth:`columns` (one file's
    chunks, in every later pass).
    """

    name: ClassVar[str]
    summary: ClassVar[str]

    def scan(self, files: tuple[str, ...], name: str, request: ScanRequest) -> ChunkedSource:
        """The first pass over ``files`` (sorted, all of this format): every file's header
        checked against the first's, the attributes' kinds and categories, the classes and
        the rows with a class in each file (or each part of a file)."""
        raise NotImplementedError

    def numeric_look(self, files: tuple[str, ...], request: ScanRequest,
                     rows: int) -> tuple[str, ...]:
        """The attributes that look numeric in the first ``rows`` rows of the first file."""
        raise NotImplementedError

    def columns(self, source: ChunkedSource, file_index: int, chunk_rows: int,
                which) -> Iterator[tuple[list, np.ndarray]]:
        """``(columns, class codes)`` of each chunk of one file (entry ``file_index`` of
        ``source.files``), the rows without a class left out: of the attributes at positions
        ``which``, a nominal one's codes into ``source.categories`` (-1 missing), a numeric
        one's values (NaN missing)."""
        raise NotImplementedError


# ------------------------------------------------------------ the checks of every scan
def check_size(n: int, numeric: bool, request: ScanRequest, path, name: str,
               where: str = "") -> None:
    """Refuse a column of more distinct values than ``request`` allows."""
    if numeric and n > request.max_numeric:
        raise DataError(f"numeric column of more than {request.max_numeric} distinct "
                        f"values{where}; a chunked data set holds each one's class counts to "
                        f"discretize it", path=path, attribute=name)
    if not numeric and n > request.max_values:
        raise DataError(f"more than {request.max_values} distinct values{where}; a chunked "
                        f"data set needs nominal columns of few values", path=path,
                        attribute=name)


def categories(values: set, request: ScanRequest, name: str, is_class: bool) -> tuple | None:
    """A nominal column's sorted categories (its distinct texts over all the files); None
    for a numeric one."""
    present = list(values)
    numeric = bool(present) and not is_class and not numbers(present)[1].any()
    # each file had at most the limit, all of them more
    check_size(len(present), numeric, request, request.path, name, " in all its files")
    return None if numeric else sorted_categories(present)


def class_column(header: list[str], class_attribute: str | None, path) -> int:
    """The column of the class: ``class_attribute``'s, else the last."""
    if class_attribute is None:
        return len(header) - 1
    if class_attribute not in header:
        raise DataError(f"no class attribute named '{class_attribute}'; attributes are "
                        f"{header}", path=path)
    return header.index(class_attribute)


def selected(header: list[str], k: int, attributes, path) -> list[int]:
    """The attributes' column numbers: all but the class, or those of ``attributes``."""
    columns = [j for j in range(len(header)) if j != k]
    if attributes is not None:
        unknown = [a for a in attributes if a not in header]
        if unknown:
            raise DataError(f"no attribute named '{unknown[0]}'", path=path)
        columns = [j for j in columns if header[j] in attributes]
    return columns


def too_few_classes(path, name: str) -> DataError:
    return DataError("the class takes fewer than two values; a classifier needs at least "
                     "two", path=path, attribute=name)
