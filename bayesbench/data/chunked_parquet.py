"""Parquet files read in chunks (with ``pyarrow``, the ``parquet`` extra): batches of at most
``chunk_rows`` rows, row group by row group, never a whole file, each value taken as its
text (a null is missing), so that the same table as CSV or as Parquet gives the same codes.
Text and binary columns get a CSV file's checks of its bytes (:mod:`.text`)."""
from __future__ import annotations

from ..errors import DataError
from .chunked_frames import FrameFormat, factorized


class ParquetChunks(FrameFormat):
    """Parquet files, all with the same column names."""

    name = "parquet"
    summary = ("a directory or glob of files (with pyarrow), read batch by batch, each value "
               "as its text")

    def header(self, path: str, delimiter: str) -> list[str]:
        return list(_parquet(path).schema_arrow.names)

    def frames(self, path: str, delimiter: str, chunk_rows: int):
        """The batches' columns as pandas gives them (a null: no value), after
        :func:`_parquet_texts`, each value taken as its text."""
        first = 0
        for batch in _parquet(path).iter_batches(batch_size=chunk_rows):
            texts = _parquet_texts(batch, path, first).to_pandas()
            first += batch.num_rows
            yield [factorized(texts.iloc[:, j]) for j in range(texts.shape[1])]


def _parquet(path: str):
    """The open Parquet file; a one-line error without pyarrow or for a broken file."""
    try:
        import pyarrow.parquet as pq  # lazy: keeps `bayesbench --help` fast, and is optional
    except ImportError:
        raise DataError("reading Parquet files needs pyarrow: pip install "
                        "'bayesbench[parquet]'", path=path) from None
    try:
        return pq.ParquetFile(path)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise DataError(f"not a readable Parquet file ({str(exc).splitlines()[0]})",
                        path=path) from None


def _parquet_texts(batch, path: str, first: int):
    """``batch`` with its binary columns as text, after the checks :mod:`.text` makes of a
    CSV file's bytes: UTF-8 without NUL, in its text and binary columns (rows numbered from
    ``first + 1``). A binary column was read as Python's ``b'...'`` spellings (a class
    ``b'p\\xff'``), and a NUL kept in a value."""
    import pyarrow as pa  # lazy: only with Parquet files, which need it
    import pyarrow.compute as pc  # lazy: with the line above

    columns = []
    for name, column in zip(batch.schema.names, batch.columns):
        kind = column.type
        if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
            try:
                column = column.cast(pa.large_string())  # validates UTF-8
            except pa.ArrowInvalid:
                _refuse_bytes(column.to_pylist(), name, path, first)
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            nul = pc.match_substring(column, "\x00")
            if pc.any(nul).as_py():
                row = first + pc.index(nul, True).as_py() + 1
                raise DataError(f"row {row}, column '{name}': a value holds a NUL byte; save "
                                f"the values as UTF-8 text", path=path)
        columns.append(column)
    return pa.RecordBatch.from_arrays(columns, names=batch.schema.names)


def _refuse_bytes(values, name: str, path: str, first: int):
    """The one-line error for the first value of a binary column that holds a NUL or is not
    UTF-8 (a NUL named first, as :mod:`.text` names it first)."""
    for row, raw in enumerate(values):
        if raw is not None and b"\x00" in raw:
            raise DataError(f"row {first + row + 1}, column '{name}': a value holds a NUL "
                            f"byte; save the values as UTF-8 text", path=path)
        try:
            if raw is not None:
                raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(f"row {first + row + 1}, column '{name}': not UTF-8 text: byte "
                            f"0x{raw[exc.start]:02x} cannot be decoded; save the values as "
                            f"UTF-8", path=path) from None
    raise DataError(f"column '{name}': not UTF-8 text", path=path)
