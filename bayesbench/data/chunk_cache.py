"""The rows of a chunked data set as its scan read them, kept on disk as small integer ids,
so that the passes after the scan read them back instead of parsing the files again.

Parsing is what a pass over a chunked data set costs (a CSV file's texts split, stripped
and factorized); the scan must parse every file once anyway. While it does, each entry of
the data set's files (a file, or a part of an ARFF file) is written by a
:class:`CacheWriter` of its own: each column's distinct key (its text; a number, in an
ARFF file) gets an id in the order first seen *in that entry* (0: a missing value), each
chunk's ids of the attributes and the class, its rows without a class left out, are
written as one ``.npy`` array in the smallest unsigned type that holds them, and the
entry's keys in id order as a small JSON file. Numbering each entry on its own is what
lets the scan read the files in any number of processes and write the same cache.

Once the scan knows the categories, each column's *decoder* (a small picklable object
with ``table(keys)``, given by the files' format) maps an entry's keys to what the files'
reader gives for them (a nominal attribute's code, a numeric one's value, the class's
code): :meth:`CodeCache.read` builds an entry's tables from its keys when it reads it,
and gives each chunk as ``table[ids]`` per column.

The cache lives in a temporary directory its owner removes (:meth:`CodeCache.remove`; the
run's :class:`~bayesbench.evaluation.prepare.DataCache` does at its end). A process that
does not see the directory (a Dask worker on another host) reads the files instead, and
gets the same columns. The disk is bounded: a writer gives the cache up (and removes the
directory) before the free space of its file system would fall below
:data:`MIN_FREE_BYTES`, every other writer then stops writing, and the passes read the
files.
"""
from __future__ import annotations

import json
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
    """A chunked data set's ids on disk: ``entries[i]`` is ``(name, number of arrays)`` of
    entry ``i`` of its files, ``decoders[j]`` maps an entry's keys of column ``j`` (its
    attributes in order, then the class) to what the reader gives."""

    directory: str
    entries: tuple[tuple[str, int], ...]
    decoders: tuple

    def usable(self) -> bool:
        """Whether this process sees the cache (else the files are read)."""
        return os.path.isdir(self.directory)

    def read(self, file_index: int, which):
        """``(columns, y)`` of each chunk of entry ``file_index``: the attributes at
        positions ``which`` and the class codes, as the files' reader gives them."""
        name, arrays = self.entries[file_index]
        if not arrays:
            return
        with open(_keys_path(self.directory, name), encoding="utf-8") as fh:
            keys = json.load(fh)
        tables = {i: self.decoders[i].table(keys[i]) for i in which}
        classes = self.decoders[-1].table(keys[-1])
        for chunk in range(arrays):
            ids = np.load(_path(self.directory, name, chunk))  # column by column (order F)
            yield [tables[i].take(ids[:, i]) for i in which], classes.take(ids[:, -1])

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def _path(directory: str, name: str, chunk: int) -> str:
    return os.path.join(directory, f"{name}-{chunk:06d}.npy")


def _keys_path(directory: str, name: str) -> str:
    return os.path.join(directory, f"{name}-keys.json")


def entry_name(file_index: int, part: int = 0) -> str:
    """The name of the cache entry of part ``part`` of file ``file_index`` (a CSV or
    Parquet file has one part; an ARFF file's data section may be cut into several)."""
    return f"{file_index:06d}-{part:04d}"


class CacheWriter:
    """Writes one entry's chunks of ids (:class:`CodeCache`) into ``directory`` (made by
    the caller; gone: the cache was given up), ``n_columns`` ids per row (the attributes',
    then the class's)."""

    def __init__(self, directory: str, name: str, n_columns: int):
        self.directory, self.name = directory, name
        self.ids = [{} for _ in range(n_columns)]  # per column: key -> id (from 1)
        self.arrays = 0
        self.given_up = not os.path.isdir(directory)
        self.pending: list[list[np.ndarray]] = []  # chunks not written yet

    def ids_of(self, column: int, keys, missing) -> np.ndarray:
        """The ids of a column's distinct ``keys`` (texts, or numbers), 0 where ``missing``
        (a boolean per key), with a 0 appended (a code -1 of the caller picks it)."""
        known = self.ids[column]
        ids = [0 if gone else known.setdefault(key, len(known) + 1)
               for key, gone in zip(keys, missing)] + [0]
        # the smallest type: a chunk's columns of ids are indexed from these
        return np.array(ids, dtype=np.uint8 if len(known) < 256 else np.uint32)

    def add(self, ids: list[np.ndarray]) -> None:
        """Add one chunk: its columns of ids (rows with a class only), written with the
        chunks before it once they hold :data:`CACHE_ROWS` rows."""
        if self.given_up:
            return
        self.pending.append(ids)
        if sum(chunk[0].size for chunk in self.pending) >= CACHE_ROWS:
            self._flush()

    def _flush(self) -> None:
        """Write the pending chunks as one array."""
        pending, self.pending = self.pending, []
        if self.given_up or not pending or not sum(chunk[0].size for chunk in pending):
            return
        columns = [np.concatenate(column) for column in zip(*pending)]
        top = max((int(c.max()) for c in columns if c.size), default=0)
        dtype = next(t for t in (np.uint8, np.uint16, np.uint32) if top <= np.iinfo(t).max)
        # column-major: a pass reads a column's ids contiguously
        block = np.empty((columns[0].size, len(columns)), dtype=dtype, order="F")
        for j, column in enumerate(columns):
            block[:, j] = column
        try:
            if shutil.disk_usage(self.directory).free < MIN_FREE_BYTES + 2 * block.nbytes:
                raise OSError("the disk is nearly full")
            np.save(_path(self.directory, self.name, self.arrays), block)
        except OSError:  # too little room, or another writer gave the cache up
            self.given_up = True
            shutil.rmtree(self.directory, ignore_errors=True)
            return
        self.arrays += 1

    def finish(self) -> tuple[str, int] | None:
        """The entry ``(name, number of arrays)``, its keys written in id order; None when
        the cache was given up."""
        self._flush()
        if not self.given_up:
            try:
                with open(_keys_path(self.directory, self.name), "w", encoding="utf-8") as fh:
                    json.dump([list(known) for known in self.ids], fh)
            except OSError:
                self.given_up = True
                shutil.rmtree(self.directory, ignore_errors=True)
        return None if self.given_up else (self.name, self.arrays)


def code_cache(directory: str | None, entries: list, decoders: list) -> CodeCache | None:
    """The cache of the scan's ``entries`` (of :meth:`CacheWriter.finish`, in the order of
    the data set's files) read through ``decoders``; None without a directory, or when a
    writer gave it up (the directory then removed)."""
    if directory is None:
        return None
    if any(entry is None for entry in entries) or not os.path.isdir(directory):
        shutil.rmtree(directory, ignore_errors=True)
        return None
    return CodeCache(directory, tuple(entries), tuple(decoders))
