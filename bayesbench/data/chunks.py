"""Data sets larger than memory, read chunk by chunk: a directory or a glob of CSV or Parquet
files, or ARFF files (one declared chunked in a config, or a glob of them).

A chunked data set is never held whole. Reading it takes two kinds of pass, each over
at most :data:`CHUNK_ROWS` rows at a time:

1. :func:`scan` (once): checks that every file has the same header, collects each
   column's distinct values (at most :data:`MAX_VALUES`, else a one-line error naming
   the file and the column) and counts the rows of each file whose class is present;
2. :func:`chunks` (as often as the caller needs): one file's rows as nominal codes.

CSV and Parquet files are read alike: a Parquet file's batches (at most ``chunk_rows``
rows, never the whole file) are taken as the texts of its values (a null is missing), so
the same table as CSV or as Parquet gives the same codes. An ARFF file's header is read
by :mod:`.arff_header` and its data section in blocks of whole lines by the same C reader
as a whole file (:func:`.arff_format.block_columns`); its attributes keep their declared
kinds and categories, as when it is read whole (a ``string`` attribute is refused: its
categories are only known at the end of the file). The scan cuts a large ARFF file's data
section into parts of about :data:`PART_BYTES` (``ChunkedSource.spans``): each part is an
entry of ``ChunkedSource.files`` of its own, read from its byte offset by its own task.

Values read as in a single CSV file (:mod:`.csv_format`): fields are stripped, ``?``,
an empty field, ``NA`` and ``nan`` are missing, categories are sorted (numerically when
all read as numbers), class labels equal as numbers are one class
(:func:`.tokens.class_labels`, in ARFF files too), rows whose class is missing are
dropped, and the kept rows are
numbered across the files in file order (sorted paths): the *global row index* that
:func:`~bayesbench.data.fold_assignment.hashed_folds` deals into folds. The field separator is a comma unless one
is given (no detection from the header).

An attribute whose every present value reads as a number is *numeric* (as in one CSV
file): it may take up to :data:`MAX_NUMERIC_VALUES` distinct values, and it must be given
cut points (:meth:`ChunkedSource.discretized`, found from the values
:func:`numeric_chunks` reads) before :func:`chunks` codes it into bins as the in-memory
discretizer does (a missing value stays missing).
"""
from __future__ import annotations

import glob
import itertools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

import numpy as np

from ..errors import DataError
from .arff_format import block_columns, data_blocks, odd_line_breaks
from .csv_format import body_columns, header_of, is_missing
from .dataset import bin_codes
from .formats import CHUNK_SUFFIXES, DIRECTORY_SUFFIXES, DIRECTORY_TITLES, format_of
from .text import BLOCK_BYTES, read_blocks
from .tokens import class_labels, numbers, sorted_categories

#: Rows read at once from a file (a chunk).
CHUNK_ROWS = 200_000
#: Bytes of an ARFF file's data section read by one task (``--jobs``, ``--scheduler``): a
#: large file is cut into parts of about this size, each counted and scored on its own.
PART_BYTES = 64 << 20
#: Distinct values a nominal column of a chunked data set may take.
MAX_VALUES = 1000
#: Distinct values (texts) a numeric column of a chunked data set may take: its per-value
#: class counts are held whole to find its cut points.
MAX_NUMERIC_VALUES = 100_000




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
    (:data:`~bayesbench.data.formats.CHUNK_SUFFIXES`): a directory's files of the first
    suffix of :data:`~bayesbench.data.formats.DIRECTORY_SUFFIXES` it holds (``*.csv``, else
    ``*.parquet``), a glob's matches, or one file."""
    text = str(path)
    if not glob.has_magic(text) and Path(text).is_file():
        files = (text,)
    elif glob.has_magic(text):
        files = _matching_files(text)
    else:
        files = ()
        for suffix in DIRECTORY_SUFFIXES:
            files = files or _matching_files(str(Path(text) / f"*{suffix}"))
    if not files:
        raise DataError(f"no file matches {text}" if glob.has_magic(text) else
                        f"no {DIRECTORY_TITLES} file in the directory", path=path)
    kinds = {Path(f).suffix.lower() for f in files}
    if len(kinds) > 1 or not kinds <= set(CHUNK_SUFFIXES):
        found = ", ".join(sorted(k or "(no extension)" for k in kinds))
        raise DataError(f"a chunked data set reads files of one kind among "
                        f"{', '.join(CHUNK_SUFFIXES)}; found {found}", path=path)
    return files


def chunk_format(files) -> str:
    """The name of the format (:data:`~bayesbench.data.formats.FORMATS`) of the files of
    :func:`chunk_files`."""
    return format_of(files[0]).name


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
    header: object = None  # ARFF files: their parsed header (arff_header.Header)
    # ARFF files: each entry of ``files`` is a part of a file's data section, ``(start
    # offset, stop offset or None: the end, first line)``, or None (the whole section)
    spans: tuple = ()

    @property
    def format(self) -> str:
        return chunk_format(self.files)

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


def _header(path: str, delimiter: str) -> list[str]:
    """The column names of a CSV or Parquet file (a CSV file's bytes and header checked as
    when it is read whole: :func:`.csv_format.header_of`)."""
    if chunk_format([path]) == "parquet":
        return list(_parquet(path).schema_arrow.names)
    first = next(read_blocks(path, BLOCK_BYTES), None)
    if first is None:
        raise DataError("the file is empty", path=path)
    return header_of(first[2], delimiter, path)[0]


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


def _frames(path: str, delimiter: str, chunk_rows: int):
    """The file's rows after the header, ``chunk_rows`` at a time, as stripped texts in
    categorical columns, read by the in-memory CSV reader's code (:func:`.csv_format.body_columns`:
    its checks and messages); a Parquet file's batches as pandas gives them
    (:func:`_factorized` takes their texts)."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    if chunk_format([path]) == "parquet":
        first = 0
        for batch in _parquet(path).iter_batches(batch_size=chunk_rows):
            texts = _parquet_texts(batch, path, first)
            first += batch.num_rows
            yield texts.to_pandas()
        return
    header, bodies = _csv_bodies(path, delimiter, chunk_rows)
    for first_line, body in bodies:
        columns = body_columns(body, len(header), delimiter, path, first_line)
        yield pd.DataFrame({j: pd.Categorical.from_codes(
            np.asarray(c.codes), categories=pd.Index(c.uniques, dtype=object))
            for j, c in enumerate(columns)})


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


def _selected(header: list[str], k: int, attributes, path) -> list[int]:
    """The attributes' column numbers: all but the class, or those of ``attributes``."""
    columns = [j for j in range(len(header)) if j != k]
    if attributes is not None:
        unknown = [a for a in attributes if a not in header]
        if unknown:
            raise DataError(f"no attribute named '{unknown[0]}'", path=path)
        columns = [j for j in columns if header[j] in attributes]
    return columns


def _too_few_classes(path, name: str) -> DataError:
    return DataError("the class takes fewer than two values; a classifier needs at least "
                     "two", path=path, attribute=name)


def scan(path, class_attribute: str | None = None, *, name: str | None = None,
         attributes=None, delimiter: str | None = None, chunk_rows: int = CHUNK_ROWS,
         max_values: int = MAX_VALUES, max_numeric: int = MAX_NUMERIC_VALUES,
         part_bytes: int | None = None) -> ChunkedSource:
    """The first, cheap pass over a chunked data set (see the module docstring)."""
    files, delimiter = chunk_files(path), delimiter or ","
    name = name or Path(str(path).rstrip("/*")).stem
    if chunk_format(files) == "arff":
        return _scan_arff(files, class_attribute, name, attributes, chunk_rows, max_values,
                          max_numeric, part_bytes or PART_BYTES)
    header = _header(files[0], delimiter)
    k = _class_column(header, class_attribute, files[0])
    seen, rows = [set() for _ in header], []
    for f in files:
        if _header(f, delimiter) != header:
            raise DataError(f"header differs from {files[0]}'s", path=f)
        values, kept = _seen(f, delimiter, header, k, chunk_rows, max_values, max_numeric)
        seen = [a | b for a, b in zip(seen, values)]
        rows.append(kept)
    columns = _selected(header, k, attributes, files[0])
    cats = [_categories(seen[j], path, header[j], max_values, max_numeric, False)
            for j in columns]
    classes = _categories(set(class_labels(seen[k])[0]), path, header[k], max_values,
                          max_numeric, True)
    if len(classes) < 2:
        raise _too_few_classes(path, header[k])
    return ChunkedSource(name, files, delimiter, tuple(columns), k,
                         tuple(header[j] for j in columns), tuple(c or () for c in cats),
                         header[k], classes, tuple(rows), tuple(c is None for c in cats),
                         (None,) * len(columns))


# ------------------------------------------------------------------ ARFF files
def _arff_blocks(path: str, chunk_rows: int, span=None, header=None):
    """``(header, blocks)`` of an ARFF file, ``blocks`` yielding ``(file offset, columns)``
    of blocks of at most ``chunk_rows`` lines (:func:`.arff_format.block_columns`: nominal
    codes, numbers, dates as numbers); with ``span`` and its ``header``, of that part only."""
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


def _arff_declared(header, class_attribute, path, max_values: int):
    """``(names, class column)`` of an ARFF header fit to read in chunks."""
    names = [d.name for d in header.attributes]
    k = _class_column(names, class_attribute, path)
    for d in header.attributes:
        if d.kind == "string":
            raise DataError("a string attribute cannot be read in chunks (its categories are "
                            "known only at the end of the file); declare it nominal",
                            path=path, attribute=d.name)
        if d.kind == "nominal":
            _check_size(len(d.categories), False, max_values, 0, path, d.name, "")
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


def _scan_arff(files, class_attribute, name, attributes, chunk_rows, max_values,
               max_numeric, part_bytes) -> ChunkedSource:
    """:func:`scan` of ARFF files: declared kinds and categories; counts the rows with a
    class and each numeric attribute's distinct values, and checks every value. A file's
    data section is cut into parts of about ``part_bytes`` (each a task of its own)."""
    header = _arff_blocks(files[0], chunk_rows)[0]
    names, k = _arff_declared(header, class_attribute, files[0], max_values)
    columns = _selected(names, k, attributes, files[0])
    numeric = [j for j in columns if header.attributes[j].kind != "nominal"]
    classes, class_code = _arff_classes(header, k)
    seen, counts = {j: set() for j in numeric}, np.zeros(len(classes), np.int64)
    parts = []  # [file, [start offset, stop offset, first line], rows with a class]
    for f in files:
        own, blocks = _arff_blocks(f, chunk_rows)
        if own.attributes != header.attributes:
            raise DataError(f"header differs from {files[0]}'s", path=f)
        mine = []
        for offset, line, cols in blocks:
            if not mine or offset - mine[-1][1][0] >= part_bytes:
                if mine:
                    mine[-1][1][1] = offset
                mine.append([f, [offset, None, line], 0])
            keep = cols[k] >= 0
            mine[-1][2] += int(keep.sum())
            counts += np.bincount(class_code[cols[k][keep]], minlength=len(classes))
            for j in numeric:
                values = cols[j][keep]
                seen[j].update(np.unique(values[~np.isnan(values)]).tolist())
                _check_size(len(seen[j]), True, max_values, max_numeric, f, names[j], "")
        parts += mine or [[f, None, 0]]  # no data line: read (to find none) as a whole
    if np.count_nonzero(counts) < 2:
        raise _too_few_classes(files[0], names[k])
    return ChunkedSource(name, tuple(f for f, _, _ in parts), ",", tuple(columns), k,
                         tuple(names[j] for j in columns),
                         tuple(header.attributes[j].categories for j in columns), names[k],
                         classes, tuple(n for _, _, n in parts), tuple(j in seen for j in columns),
                         (None,) * len(columns), header,
                         tuple(tuple(s) if s else None for _, s, _ in parts))


def numeric_look(path, class_attribute: str | None = None, *, attributes=None,
                 delimiter: str | None = None, chunk_rows: int = 1000) -> tuple[str, ...]:
    """The attributes whose every present value among the first ``chunk_rows`` rows of the
    first file reads as a number: a cheap look (a config check's) at what :func:`scan` finds
    numeric on all the rows."""
    files, delimiter = chunk_files(path), delimiter or ","
    if chunk_format(files) == "arff":  # declared
        header = _arff_blocks(files[0], chunk_rows)[0]
        names = [d.name for d in header.attributes]
        k = _class_column(names, class_attribute, files[0])
        return tuple(n for j, (n, d) in enumerate(zip(names, header.attributes))
                     if j != k and d.kind != "nominal"
                     and (attributes is None or n in attributes))
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
    every = range(len(source.columns))
    for columns, y in _columns(source, file_index, chunk_rows, every):
        X = np.column_stack([np.asarray(c, dtype=np.int64) if cuts is None else
                             bin_codes(c, cuts) for c, cuts in zip(columns, source.cuts)]) \
            if columns else np.zeros((y.size, 0), dtype=np.int64)
        yield start, X, y
        start += y.size


def _columns(source: ChunkedSource, file_index: int, chunk_rows: int, which):
    """``(columns, class codes)`` of each chunk of one file, the rows without a class left
    out: of the attributes at positions ``which``, a nominal one's codes (-1 missing), a
    numeric one's values (NaN missing)."""
    if source.format == "arff":
        span = source.spans[file_index] if source.spans else None
        class_code = _arff_classes(source.header, source.class_column)[1]
        for _, _, cols in _arff_blocks(source.files[file_index], chunk_rows, span,
                                       source.header)[1]:
            y = class_code[cols[source.class_column]]
            keep = y >= 0
            yield [cols[source.columns[i]][keep] for i in which], y[keep]
        return
    for frame, y in _class_coded(source, file_index, chunk_rows):
        yield [_numbers(frame.iloc[:, source.columns[i]]) if source.numeric[i] else
               _codes(frame.iloc[:, source.columns[i]], source.categories[i])
               for i in which], y


def _class_coded(source: ChunkedSource, file_index: int, chunk_rows: int):
    """``(frame, class codes)`` of each chunk of one file, the rows without a class dropped."""
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    for frame in _frames(source.files[file_index], source.delimiter, chunk_rows):
        codes, texts = _factorized(frame.iloc[:, source.class_column])
        labels, index = class_labels(texts)  # missing texts keep theirs: no class's label
        table = pd.Index(list(source.class_names), dtype=object).get_indexer(
            [labels[i] for i in index])
        y = np.append(table, -1).astype(np.int64)[codes]
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
    which = [i for i, is_num in enumerate(source.numeric) if is_num]
    for values, y in _columns(source, file_index, chunk_rows, which):
        yield (np.column_stack(values) if values else np.zeros((y.size, 0))), y
