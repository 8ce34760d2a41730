"""The chunked formats read as frames of texts (CSV, Parquet): one scan, look and coding of
columns for both, from each format's header and frames. A frame is a chunk's columns, each
as ``(codes, texts)``: a code per row (-1: no value) into the column's distinct stripped
texts.

A value is read as its text, so that the same table as CSV or as Parquet gives the same
codes: fields are stripped, ``?``, an empty field, ``NA`` and ``nan`` are missing,
categories are sorted (numerically when all read as numbers), class labels equal as
numbers are one class (:func:`.tokens.class_labels`), and a column whose every present
value reads as a number is numeric (as in one CSV file, :mod:`.csv_format`).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..errors import DataError
from .chunk_cache import CacheWriter, CodeCache
from .chunked_format import (ChunkedFormat, ChunkedSource, ScanRequest, categories,
                             check_size, class_column, selected, too_few_classes)
from .dataset import code_dtype
from .csv_format import is_missing
from .tokens import class_labels, numbers


class FrameFormat(ChunkedFormat):
    """A chunked format whose files are read as frames of texts; a subclass gives
    :meth:`header` and :meth:`frames`."""

    def header(self, path: str, delimiter: str) -> list[str]:
        """The column names of one file."""
        raise NotImplementedError

    def frames(self, path: str, delimiter: str, chunk_rows: int):
        """The file's rows after the header, at most ``chunk_rows`` at a time, as lists of
        columns ``(codes, texts)`` (see the module docstring)."""
        raise NotImplementedError

    def scan(self, files, name: str, request: ScanRequest) -> ChunkedSource:
        delimiter = request.delimiter
        header = self.header(files[0], delimiter)
        k = class_column(header, request.class_attribute, files[0])
        columns = selected(header, k, request.attributes, files[0])
        ids = _Ids(request.cache, [*columns, k])
        seen, rows, per_class = [set() for _ in header], [], []
        for i, f in enumerate(files):
            if self.header(f, delimiter) != header:
                raise DataError(f"header differs from {files[0]}'s", path=f)
            values, kept, class_texts = self._seen(f, header, k, request, ids.of_file(i))
            seen = [a | b for a, b in zip(seen, values)]
            rows.append(kept)
            per_class.append(class_texts)
        cats = [categories(seen[j], request, header[j], False) for j in columns]
        classes = categories(set(class_labels(seen[k])[0]), request, header[k], True)
        if len(classes) < 2:
            raise too_few_classes(request.path, header[k])
        return ChunkedSource(name, files, delimiter, tuple(columns), k,
                             tuple(header[j] for j in columns), tuple(c or () for c in cats),
                             header[k], classes, tuple(rows), tuple(c is None for c in cats),
                             (None,) * len(columns),
                             file_class_rows=tuple(_class_rows(t, classes) for t in per_class),
                             cache=ids.finish(cats, classes, len(files)))

    def _seen(self, path: str, header: list[str], class_column: int, request: ScanRequest,
              ids: _Ids) -> tuple[list[set], int, Counter]:
        """Each column's distinct present texts in one file, its number of rows with a
        class, and the rows of each class text; each chunk's ids given to ``ids``."""
        seen, kept, class_texts = [set() for _ in header], 0, Counter()
        numeric = [j != class_column for j in range(len(header))]  # every value a number so far
        for frame in self.frames(path, request.delimiter, request.chunk_rows):
            for j, name in enumerate(header):
                codes, texts = frame[j]
                gone = [is_missing(t) for t in texts]
                ids.column(j, codes, texts, gone)
                if j == class_column:
                    missing = np.array(gone + [True])
                    kept += int((~missing[codes]).sum())  # code -1 (no text) picks the last
                    counts = np.bincount(codes[codes >= 0], minlength=len(texts))
                    class_texts.update({t: int(c) for t, c, g in zip(texts, counts, gone)
                                        if c and not g})
                present = [t for t, g in zip(texts, gone) if not g]
                numeric[j] = numeric[j] and not numbers(present)[1].any()
                seen[j].update(present)
                check_size(len(seen[j]), numeric[j], request, path, name)
            ids.write()
        return seen, kept, class_texts

    def numeric_look(self, files, request: ScanRequest, rows: int) -> tuple[str, ...]:
        header = self.header(files[0], request.delimiter)
        k = class_column(header, request.class_attribute, files[0])
        frame = next(self.frames(files[0], request.delimiter, rows), None)
        out = []
        for j, name in enumerate(header):
            if frame is None or j == k or (request.attributes is not None
                                           and name not in request.attributes):
                continue
            present = [t for t in frame[j][1] if not is_missing(t)]
            if present and not numbers(present)[1].any():
                out.append(name)
        return tuple(out)

    def columns(self, source: ChunkedSource, file_index: int, chunk_rows: int, which):
        import pandas as pd  # lazy: keeps `bayesbench --help` fast

        for frame in self.frames(source.files[file_index], source.delimiter, chunk_rows):
            codes, texts = frame[source.class_column]
            labels, index = class_labels(texts)  # missing texts keep theirs: no class's label
            table = pd.Index(list(source.class_names), dtype=object).get_indexer(
                [labels[i] for i in index])
            y = np.append(table, -1).astype(np.int64)[codes]
            kept = y >= 0  # the rows without a class dropped
            yield [(_numbers if source.numeric[i] else _codes(source.categories[i]))(
                       *frame[source.columns[i]])[kept] for i in which], y[kept]


class _Ids:
    """The scan's writing of each chunk's ids (:mod:`.chunk_cache`) of the ``columns`` kept
    (the attributes', then the class's), or nothing without a cache directory."""

    def __init__(self, directory: str | None, columns: list[int]):
        self.writer = None if directory is None else CacheWriter(directory, len(columns))
        self.position = {j: p for p, j in enumerate(columns)}
        self.file_index, self.chunk = 0, {}

    def of_file(self, index: int) -> _Ids:
        self.file_index = index
        return self

    def column(self, j: int, codes: np.ndarray, texts: list[str], gone: list[bool]) -> None:
        if self.writer is not None and j in self.position:
            p = self.position[j]
            self.chunk[p] = self.writer.ids_of(p, texts, gone)[codes]

    def write(self) -> None:
        if self.writer is not None:
            ids = [self.chunk[p] for p in range(len(self.position))]
            keep = ids[-1] > 0  # the rows with a class
            self.writer.add(self.file_index, ids if keep.all() else [c[keep] for c in ids])

    def finish(self, cats: list, classes: tuple, n_files: int) -> CodeCache | None:
        """The cache, its tables from the scan's categories (a nominal attribute's), the
        texts' numbers (a numeric one's: ``cats`` None) and the class labels."""
        if self.writer is None:
            return None
        import pandas as pd  # lazy: keeps `bayesbench --help` fast

        def nominal(categories):  # compact codes, as coded() makes them
            return lambda texts: np.append(-1, pd.Index(list(categories), dtype=object)
                                           .get_indexer(texts)).astype(code_dtype(len(categories)))

        def values(texts):
            return np.append(np.nan, numbers(texts)[0] if texts else np.zeros(0))

        def labels(texts):
            named, index = class_labels(texts)
            at = {label: i for i, label in enumerate(classes)}
            return np.array([-1] + [at[named[i]] for i in index], dtype=np.int64)
        return self.writer.finish([values if c is None else nominal(c) for c in cats]
                                  + [labels], n_files)


def _class_rows(class_texts: Counter, classes: tuple) -> tuple[int, ...]:
    """The rows of each class of ``classes`` among rows counted by their class texts (texts
    equal as numbers are one class: :func:`.tokens.class_labels`)."""
    texts = list(class_texts)
    labels, index = class_labels(texts)
    out = [0] * len(classes)
    position = {label: i for i, label in enumerate(classes)}
    for text, at in zip(texts, index):
        out[position[labels[at]]] += class_texts[text]
    return tuple(out)


def factorized(column) -> tuple[np.ndarray, list[str]]:
    """``(codes, stripped distinct texts)`` of a pandas column (a frame's column of
    :meth:`FrameFormat.frames`): each distinct value is stripped once, not each row's."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    codes, uniques = pd.factorize(column)
    return codes, [str(u).strip() for u in uniques]


def _codes(categories: tuple):
    """The coding of a column ``(codes, texts)`` into ``categories`` (-1: a missing value,
    which the scan keeps out of the categories)."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    index = pd.Index(list(categories), dtype=object)

    def code(codes: np.ndarray, texts: list[str]) -> np.ndarray:
        return np.append(index.get_indexer(texts), -1).astype(np.int64)[codes]
    return code


def _numbers(codes: np.ndarray, texts: list[str]) -> np.ndarray:
    """The values of a numeric column ``(codes, texts)``, NaN where missing."""
    values = numbers([None if is_missing(t) else t for t in texts])[0]
    return np.append(values, np.nan)[codes]
