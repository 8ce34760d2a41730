"""ARFF files read in chunks: the header is parsed once (:mod:`.arff_header`) and the data
section read in blocks of whole lines by the same C reader as a whole file
(:func:`.arff_format.block_columns`); the attributes keep their declared kinds and
categories, as when the file is read whole (a ``string`` attribute is refused: its
categories are known only at the end of the file). The scan cuts a large file's data
section into parts of about :data:`PART_BYTES` (``ChunkedSource.spans``): each part is an
entry of ``ChunkedSource.files`` of its own, read from its byte offset by its own task."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .arff_format import block_columns, data_blocks, odd_line_breaks
from .chunk_cache import CacheWriter
from .dataset import code_dtype
from .chunked_format import (ChunkedFormat, ChunkedSource, ScanRequest, check_size,
                             class_column, selected, too_few_classes)
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

    def scan(self, files, name: str, request: ScanRequest) -> ChunkedSource:
        """Declared kinds and categories; counts the rows with a class and each numeric
        attribute's distinct values, and checks every value. A file's data section is cut
        into parts of about ``request.part_bytes`` (each a task of its own)."""
        part_bytes = request.part_bytes or PART_BYTES
        header = _arff_blocks(files[0], request.chunk_rows)[0]
        names, k = _arff_declared(header, request, files[0])
        columns = selected(names, k, request.attributes, files[0])
        numeric = [j for j in columns if header.attributes[j].kind != "nominal"]
        classes, class_code = _arff_classes(header, k)
        seen = {j: set() for j in numeric}
        kept = [*columns, k]  # the columns whose ids the cache keeps
        writer = None if request.cache is None else CacheWriter(request.cache, len(kept))
        # [file, [start offset, stop offset, first line], rows of each class]
        parts = []
        for f in files:
            own, blocks = _arff_blocks(f, request.chunk_rows)
            if own.attributes != header.attributes:
                raise DataError(f"header differs from {files[0]}'s", path=f)
            mine = []
            for offset, line, cols in blocks:
                if not mine or offset - mine[-1][1][0] >= part_bytes:
                    if mine:
                        mine[-1][1][1] = offset
                    mine.append([f, [offset, None, line], np.zeros(len(classes), np.int64)])
                keep = cols[k] >= 0
                mine[-1][2] += np.bincount(class_code[cols[k][keep]], minlength=len(classes))
                if writer is not None:
                    writer.add(len(parts) + len(mine) - 1,
                               [_ids(writer, p, cols[j], header.attributes[j])[keep]
                                for p, j in enumerate(kept)])
                for j in numeric:
                    values = cols[j][keep]
                    seen[j].update(np.unique(values[~np.isnan(values)]).tolist())
                    check_size(len(seen[j]), True, request, f, names[j])
            # no data line: read (to find none) as a whole
            parts += mine or [[f, None, np.zeros(len(classes), np.int64)]]
        if np.count_nonzero(sum(n for _, _, n in parts)) < 2:
            raise too_few_classes(files[0], names[k])
        return ChunkedSource(name, tuple(f for f, _, _ in parts), ",", tuple(columns), k,
                             tuple(names[j] for j in columns),
                             tuple(header.attributes[j].categories for j in columns),
                             names[k], classes, tuple(int(n.sum()) for _, _, n in parts),
                             tuple(j in seen for j in columns), (None,) * len(columns), header,
                             tuple(tuple(s) if s else None for _, s, _ in parts),
                             tuple(tuple(int(c) for c in n) for _, _, n in parts),
                             _finish(writer, [header.attributes[j] for j in columns], class_code,
                                     len(parts)))

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


def _finish(writer: CacheWriter | None, declared: list, class_code: np.ndarray, n_parts: int):
    """The cache of an ARFF scan: its tables map ids back to declared codes, values and
    class codes."""
    if writer is None:
        return None

    def table(d):
        if d.kind == "nominal":  # compact codes, as coded() makes them
            return lambda keys: np.append(-1, keys).astype(code_dtype(len(d.categories)))
        return lambda keys: np.append(np.nan, np.asarray(keys, dtype=np.float64))
    classes = lambda keys: np.append(-1, class_code[np.asarray(keys, dtype=np.int64)])  # noqa: E731
    return writer.finish([table(d) for d in declared] + [classes], n_parts)


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
