"""The rows of a chunked data set as its scan read them, kept on disk as small integer ids,
so that the passes after the scan read them back instead of parsing the files again.

Parsing is what a pass over a chunked data set costs (a CSV file's texts split, stripped
and factorized); the scan must parse every file once anyway. While it does, each column's
distinct text (a number's, in an ARFF file) gets an id in the order first seen (0: a
missing value), and each chunk's ids of the attributes and the class, its rows without a
class left out, are written as one ``.npy`` array in the smallest unsigned type that holds
them (:class:`CacheWriter`). Once the scan knows the categories, each column's table maps
an id to what the files' reader gives for its text (a nominal attribute's code, a numeric
one's value, the class's code: :meth:`CacheWriter.finish`), and
:func:`~bayesbench.data.chunks.read_chunks` reads a chunk as ``table[ids]`` per column.

The cache lives in a temporary directory its owner removes (:meth:`CodeCache.remove`; the
run's :class:`~bayesbench.evaluation.prepare.DataCache` does at its end). A process that
does not see the directory (a Dask worker on another host) reads the files instead, and
gets the same columns. The disk is bounded: the writer gives the cache up (and removes it)
before the free space of its file system would fall below :data:`MIN_FREE_BYTES`, and the
passes then read the files.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

import numpy as np

#: Free space left on the cache's file system: a chunk that would leave less is not
#: written, and the cache is given up.
MIN_FREE_BYTES = 1 << 30
#: Rows of a chunk kept (at most; fewer at the end of a file): more than a parsed chunk's,
#: since an id takes a byte or two, so that the passes that read them back make fewer,
#: larger steps (a prediction's cost has a part per call).
CACHE_ROWS = 1_000_000


@dataclass(frozen=True)
class CodeCache:
    """A chunked data set's ids on disk: ``chunks[i]`` arrays for entry ``i`` of its files,
    ``tables[j]`` mapping the ids of column ``j`` (its attributes in order, then the class)
    to what the reader gives."""

    directory: str
    chunks: tuple[int, ...]
    tables: tuple[np.ndarray, ...]

    def usable(self) -> bool:
        """Whether this process sees the cache (else the files are read)."""
        return os.path.isdir(self.directory)

    def read(self, file_index: int, which):
        """``(columns, y)`` of each chunk of entry ``file_index``: the attributes at
        positions ``which`` and the class codes, as the files' reader gives them."""
        *attributes, classes = self.tables
        for chunk in range(self.chunks[file_index]):
            ids = np.load(_path(self.directory, file_index, chunk))
            yield [attributes[i][ids[:, i]] for i in which], classes[ids[:, -1]]

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def _path(directory: str, file_index: int, chunk: int) -> str:
    return os.path.join(directory, f"{file_index:06d}-{chunk:06d}.npy")


class CacheWriter:
    """Writes a scan's chunks of ids (:class:`CodeCache`) into ``directory`` (which it
    makes); ``n_columns`` ids per row (the attributes', then the class's)."""

    def __init__(self, directory: str, n_columns: int):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.ids = [{} for _ in range(n_columns)]  # per column: key -> id (from 1)
        self.chunks: list[int] = []
        self.given_up = False
        self.pending: list[list[np.ndarray]] = []  # chunks of the current file, not written
        self.file_index = 0

    def ids_of(self, column: int, keys, missing) -> np.ndarray:
        """The ids of a column's distinct ``keys`` (texts, or numbers), 0 where ``missing``
        (a boolean per key), with a 0 appended (a code -1 of the caller picks it)."""
        known = self.ids[column]
        ids = [0 if gone else known.setdefault(key, len(known) + 1)
               for key, gone in zip(keys, missing)] + [0]
        # the smallest type: a chunk's columns of ids are indexed from these
        return np.array(ids, dtype=np.uint8 if len(known) < 256 else np.uint32)

    def add(self, file_index: int, ids: list[np.ndarray]) -> None:
        """Add one chunk of file entry ``file_index``: its columns of ids (rows with a class
        only), written with the chunks before it once they hold :data:`CACHE_ROWS` rows."""
        if file_index != self.file_index:
            self._flush()
            self.file_index = file_index
        while len(self.chunks) <= file_index:
            self.chunks.append(0)
        if self.given_up:
            return
        self.pending.append(ids)
        if sum(chunk[0].size for chunk in self.pending if chunk) >= CACHE_ROWS:
            self._flush()

    def _flush(self) -> None:
        """Write the pending chunks of the current file as one array."""
        pending, self.pending = self.pending, []
        if self.given_up or not pending or not pending[0]:
            return
        columns = [np.concatenate(column) for column in zip(*pending)]
        top = max((int(c.max()) for c in columns if c.size), default=0)
        dtype = next(t for t in (np.uint8, np.uint16, np.uint32) if top <= np.iinfo(t).max)
        block = np.empty((columns[0].size, len(columns)), dtype=dtype)
        for j, column in enumerate(columns):
            block[:, j] = column
        if shutil.disk_usage(self.directory).free < MIN_FREE_BYTES + 2 * block.nbytes:
            self.given_up = True
            shutil.rmtree(self.directory, ignore_errors=True)
            return
        np.save(_path(self.directory, self.file_index, self.chunks[self.file_index]), block)
        self.chunks[self.file_index] += 1

    def finish(self, tables, n_files: int) -> CodeCache | None:
        """The cache of ``n_files`` file entries, given each column's ``tables(keys)``: the
        array mapping the column's ids to what the reader gives (``keys`` the column's keys
        in id order, from id 1; id 0 is missing). None when the cache was given up."""
        self._flush()
        if self.given_up:
            return None
        chunks = self.chunks + [0] * (n_files - len(self.chunks))
        return CodeCache(self.directory, tuple(chunks),
                         tuple(table(list(known)) for table, known in zip(tables, self.ids)))
