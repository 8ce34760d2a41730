"""CSV files read in chunks: each file read block by block by the code that reads a whole CSV
file (:mod:`.csv_format`), with its checks of the bytes, the header and every record, and
its one-line messages. The field separator is a comma unless one is given (no detection
from the header)."""
from __future__ import annotations

import itertools

import numpy as np

from ..errors import DataError
from .chunked_frames import FrameFormat
from .csv_format import body_columns, header_of
from .text import BLOCK_BYTES, read_blocks


class CsvChunks(FrameFormat):
    """CSV files with a header row, all with the same header."""

    name = "csv"
    summary = ("a directory or glob of files with one header, read block by block with a "
               "whole CSV file's checks")

    def header(self, path: str, delimiter: str) -> list[str]:
        """The column names (the bytes and header checked as when the file is read whole:
        :func:`.csv_format.header_of`)."""
        first = next(read_blocks(path, BLOCK_BYTES), None)
        if first is None:
            raise DataError("the file is empty", path=path)
        return header_of(first[2], delimiter, path)[0]

    def frames(self, path: str, delimiter: str, chunk_rows: int):
        """Stripped texts, read by the in-memory CSV reader's code
        (:func:`.csv_format.body_columns`: its checks and messages)."""
        header, bodies = _csv_bodies(path, delimiter, chunk_rows)
        for first_line, body in bodies:
            yield [(np.asarray(c.codes), list(c.uniques))
                   for c in body_columns(body, len(header), delimiter, path, first_line)]


def _csv_bodies(path: str, delimiter: str, chunk_rows: int):
    """``(header, blocks)`` of a CSV file: each block's whole records after the header, at
    most ``chunk_rows`` lines (more only where a quoted field spans lines), with the line it
    starts on. The bytes are checked block by block as a whole file's are (:mod:`.text`)."""
    blocks = read_blocks(path, BLOCK_BYTES, chunk_rows)
    first = next(blocks, None)
    if first is None:
        raise DataError("the file is empty", path=path)
    header, rest, line = header_of(first[2], delimiter, path)

    def bodies():
        pending, start = b"", line
        # one block at a time: the file is never held whole
        for first_line, data in itertools.chain([(line, rest)], ((f, d) for f, _, d in blocks)):
            if not pending:
                start = first_line
            pending += data
            if pending.count(b'"') % 2 == 0:  # not inside a quoted field
                if pending.strip():
                    yield start, pending
                pending = b""
        if pending.strip():
            yield start, pending
    return header, bodies()
