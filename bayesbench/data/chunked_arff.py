"""ARFF files read in chunks: the header is parsed once (:mod:`.arff_header`) and the data
section read in blocks of whole lines by the same C reader as a whole file
(:func:`.arff_format.block_columns`); the attributes keep their declared kinds and
categories, as when the file is read whole (a ``string`` attribute is refused: its
categories are known only at the end of the file). The scan cuts a large file's data
section into parts of about :data:`PART_BYTES` (``ChunkedSource.spans``): each part is an
entry of ``ChunkedSource.files`` of its own, read from its byte offset by its own task."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import DataError
from .arff_format import block_columns, data_blocks, odd_line_breaks
from .chunk_cache import CacheWriter, code_cache, entry_name
from .dataset import code_dtype
from .chunked_format import (ChunkedFormat, ChunkedSource, ScanRequest, check_size,
                             class_column, in_file_order, selected, too_few_classes)
from .text import BLOCK_BYTES, read_blocks
from .tokens import class_labels

#: Bytes of an ARFF file's data section read by one task (``--jobs``, ``--scheduler``): a
#: large file is cut into parts of about this size, each counted and scored on its own.
PART_BYTES = 64 << 20


class ArffChunks(ChunkedFormat):
    """ARFF files (one, or a glob of them declaring the same attributes)."""

    name = "arff"
    summary = ("one file declared chunked, or a glob of them: the header parsed once, the "
               "data section read in blocks of whole lines by the C reader")

    def scan(self, files, name: str, request: ScanRequest, run_on=None) -> ChunkedSource:
        """Declared kinds and categories; counts the rows with a class and each numeric
        attribute's distinct values, and checks every value. A file's data section is cut
        into parts of about ``request.part_bytes`` (each a task of its own)."""
        header = _arff_blocks(files[0], request.chunk_rows)[0]
        names, k = _arff_declared(header, request, files[0])
        columns = selected(names, k, request.attributes, files[0])
        classes, class_code = _arff_classes(header, k)
        tasks = [_FileScan(f, i, files[0], header, (*columns, k), tuple(class_code),
                           len(classes), request) for i, f in enumerate(files)]
        seen = {j: set() for j in columns if header.attributes[j].kind != "nominal"}
        parts = []  # (file, span, rows of each class, cache entry)
        for f, (found, mine) in zip(files, in_file_order(tasks, run_on)):
            parts += [(f, *part) for part in mine]
            for j in seen:  # bounded over all the files so far, as over each file
                seen[j] |= found[j]
                check_size(len(seen[j]), True, request, f, names[j])
        if np.count_nonzero(sum(np.asarray(n) for _, _, n, _ in parts)) < 2:
            raise too_few_classes(files[0], names[k])
        declared = [header.attributes[j] for j in columns]
        decoders = [_Values() if d.kind != "nominal" else _Declared(len(d.categories))
                    for d in declared]
        return ChunkedSource(name, tuple(f for f, _, _, _ in parts), ",", tuple(columns), k,
                             tuple(names[j] for j in columns),
                             tuple(d.categories for d in declared),
                             names[k], classes, tuple(sum(n) for _, _, n, _ in parts),
                             tuple(j in seen for j in columns), (None,) * len(columns), header,
                             tuple(s for _, s, _, _ in parts),
                             tuple(n for _, _, n, _ in parts),
                             code_cache(request.cache, [e for _, _, _, e in parts],
                                        [*decoders, _ClassCodes(tuple(class_code))]))

    def numeric_look(self, files, request: ScanRequest, rows: int) -> tuple[str, ...]:
        """The attributes declared numeric (or a date): the look needs no row."""
        header = _arff_blocks(files[0], rows)[0]
        names = [d.name for d in header.attributes]
        k = class_column(names, request.class_attribute, files[0])
        return tuple(n for j, (n, d) in enumerate(zip(names, header.attributes))
                     if j != k and d.kind != "nominal"
                     and (request.attributes is None or n in request.attributes))

    def columns(self, source: ChunkedSource, file_index: int, chunk_rows: int, which):
        span = source.spans[file_index] if source.spans else None
        class_code = _arff_classes(source.header, source.class_column)[1]
        for _, _, cols in _arff_blocks(source.files[file_index], chunk_rows, span,
                                       source.header)[1]:
            y = class_code[cols[source.class_column]]
            keep = y >= 0
            yield [cols[source.columns[i]][keep] for i in which], y[keep]


@dataclass(frozen=True)
class _FileScan:
    """The scan of ARFF file ``index`` of a data set (a task, for a worker): its declared
    attributes checked against the ``first`` file's ``header``, its data section cut into
    parts of about ``request.part_bytes`` (:data:`PART_BYTES`), the rows of each class in
    each part, each numeric attribute's distinct values, and each block's ids of the
    ``cached`` columns (the attributes', then the class's) written to the cache, an entry
    per part."""

    path: str
    index: int
    first: str
    header: object
    cached: tuple
    class_code: tuple
    n_classes: int
    request: ScanRequest

    def __call__(self) -> tuple[dict, list]:
        """``(distinct values of each numeric attribute, parts)``, each part ``(span, rows of
        each class, cache entry)``; a file without a data line is one part read (to find
        none) as a whole (span None)."""
        request, header, *_, k = self.request, self.header, *self.cached
        part_bytes = request.part_bytes or PART_BYTES
        own, blocks = _arff_blocks(self.path, request.chunk_rows)
        if own.attributes != header.attributes:
            raise DataError(f"header differs from {self.first}'s", path=self.path)
        declared = header.attributes
        numeric = [j for j in self.cached[:-1] if declared[j].kind != "nominal"]
        seen = {j: set() for j in numeric}
        class_code, n_classes = np.asarray(self.class_code, dtype=np.int64), self.n_classes
        mine = []  # [[start offset, stop offset or None, first line], rows of each class, writer]
        for offset, line, cols in blocks:
            if not mine or offset - mine[-1][0][0] >= part_bytes:
                if mine:
                    mine[-1][0][1] = offset
                mine.append([[offset, None, line], np.zeros(n_classes, np.int64),
                             self._writer(len(mine))])
            keep = cols[k] >= 0
            mine[-1][1] += np.bincount(class_code[cols[k][keep]], minlength=n_classes)
            writer = mine[-1][2]
            if writer is not None:
                writer.add([_ids(writer, p, cols[j], declared[j])[keep]
                            for p, j in enumerate(self.cached)])
            for j in numeric:
                values = cols[j][keep]
                seen[j].update(np.unique(values[~np.isnan(values)]).tolist())
                check_size(len(seen[j]), True, request, self.path, declared[j].name)
        if not mine:
            mine = [[None, np.zeros(n_classes, np.int64), self._writer(0)]]
        return seen, [(tuple(span) if span else None, tuple(int(c) for c in counts),
                       None if writer is None else writer.finish())
                      for span, counts, writer in mine]

    def _writer(self, part: int) -> CacheWriter | None:
        if self.request.cache is None:
            return None
        return CacheWriter(self.request.cache, entry_name(self.index, part), len(self.cached))


def _ids(writer: CacheWriter, position: int, column: np.ndarray, declared) -> np.ndarray:
    """The cache's ids of a block's column (:mod:`.chunk_cache`): a nominal attribute's by
    its declared categories, a numeric one's by its values; 0 where missing."""
    if declared.kind == "nominal":
        n = len(declared.categories)
        return writer.ids_of(position, range(n), [False] * n)[column]
    present = ~np.isnan(column)
    values, at = np.unique(column[present], return_inverse=True)
    ids = np.zeros(column.size, dtype=np.int64)
    ids[present] = writer.ids_of(position, values.tolist(), [False] * values.size)[at.ravel()]
    return ids


@dataclass(frozen=True)
class _Declared:
    """A nominal attribute's decoder (:mod:`.chunk_cache`): its declared codes (the keys),
    compact as :func:`.chunks.coded` makes them."""

    n_categories: int

    def table(self, keys: list) -> np.ndarray:
        return np.append(-1, keys).astype(code_dtype(self.n_categories))


@dataclass(frozen=True)
class _Values:
    """A numeric attribute's decoder: its values (the keys; NaN: missing)."""

    def table(self, keys: list) -> np.ndarray:
        return np.append(np.nan, np.asarray(keys, dtype=np.float64))


@dataclass(frozen=True)
class _ClassCodes:
    """The class's decoder: each declared category's code (the keys) to its label's code
    (``class_code``)."""

    class_code: tuple

    def table(self, keys: list) -> np.ndarray:
        return np.append(-1, np.asarray(self.class_code, dtype=np.int64)[
            np.asarray(keys, dtype=np.int64)])


def _arff_blocks(path: str, chunk_rows: int, span=None, header=None):
    """``(header, blocks)`` of an ARFF file, ``blocks`` yielding ``(file offset, first line,
    columns)`` of blocks of at most ``chunk_rows`` lines (:func:`.arff_format.block_columns`:
    nominal codes, numbers, dates as numbers); with ``span`` and its ``header``, of that
    part only."""
    if span is None:
        split = data_blocks(path, max_lines=chunk_rows)
        if split is None:
            raise DataError("not a valid ARFF file to read in chunks: no @data line, or "
                            "lines broken otherwise than by \\n or \\r\\n", path=path)
        header, blocks = split
    else:
        blocks = read_blocks(path, BLOCK_BYTES, chunk_rows, span=span)

    def columns():
        for first_line, offset, data in blocks:
            if odd_line_breaks(data):
                raise DataError("lines broken otherwise than by \\n or \\r\\n; a chunked "
                                "ARFF file cannot be read", path=path, line=first_line)
            yield offset, first_line, block_columns(data, first_line, header, path)
    return header, columns()


def _arff_declared(header, request: ScanRequest, path):
    """``(names, class column)`` of an ARFF header fit to read in chunks."""
    names = [d.name for d in header.attributes]
    k = class_column(names, request.class_attribute, path)
    for d in header.attributes:
        if d.kind == "string":
            raise DataError("a string attribute cannot be read in chunks (its categories are "
                            "known only at the end of the file); declare it nominal",
                            path=path, attribute=d.name)
        if d.kind == "nominal":
            check_size(len(d.categories), False, request, path, d.name)
    if header.attributes[k].kind != "nominal":
        raise DataError("the class attribute is numeric; bayesbench needs a nominal class "
                        "(discretize it or name another class attribute)", path=path,
                        attribute=names[k])
    return names, k


def _arff_classes(header, k: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The class labels of an ARFF header (:func:`.tokens.class_labels`, as when the file is
    read whole) and each declared category's label code, with -1 (missing) appended."""
    classes, index = class_labels(header.attributes[k].categories)
    return classes, np.append(np.asarray(index, dtype=np.int64), -1)
