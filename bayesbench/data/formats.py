"""The data formats bayesbench reads: one table, read by the loader, the chunked reader, the
config check and the docs alike, so that adding a format is one :class:`DataFormat` entry.

A format is read whole (:func:`~bayesbench.data.load.load_dataset`), in chunks (a data set
larger than memory, :mod:`bayesbench.data.chunks`), or both. Its reader of a whole file is
named as ``"module:function"`` and its reader in chunks as ``"module:Class"`` (a
:class:`~bayesbench.data.chunked_format.ChunkedFormat`) within :mod:`bayesbench.data`, each
imported only when a file of that format is read, so that naming a format costs nothing.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType


@dataclass(frozen=True)
class DataFormat:
    """One file format: its ``name``, file ``suffixes`` (the first is its own), ``title``,
    the reader of a whole file (``"module:function"``, called as ``read(path,
    class_attribute, **options)``; None: read only in chunks), the reader's ``options``
    (the keyword arguments it takes), the reader of a data set of such files in chunks
    (``chunks``, ``"module:Class"`` of a :class:`~.chunked_format.ChunkedFormat`; None:
    never read in chunks), and whether a directory of such files is one data set
    (``directory``; one ARFF file is cut into parts instead)."""

    name: str
    suffixes: tuple[str, ...]
    title: str
    reader: str | None
    options: tuple[str, ...] = ()
    chunks: str | None = None
    directory: bool = False

    @property
    def whole(self) -> bool:
        """Whether a file of this format can be read whole into memory."""
        return self.reader is not None

    @property
    def chunked(self) -> bool:
        """Whether a data set of such files may be read in chunks."""
        return self.chunks is not None

    def chunk_reader(self):
        """The :class:`~.chunked_format.ChunkedFormat` that reads such files in chunks."""
        return _named(self.chunks)()

    def read(self, path, class_attribute=None, **options):
        """Read ``path`` whole with this format's reader; options it does not take are
        left out (a CSV delimiter means nothing to an ARFF file)."""
        return _named(self.reader)(path, class_attribute, **{
            k: v for k, v in options.items() if k in self.options and v is not None})


def _named(where: str):
    """The object ``"module:name"`` names within this package, its module imported now."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)


#: Every format, in the order a data set name is completed with their suffixes.
FORMATS = MappingProxyType({f.name: f for f in (
    DataFormat("arff", (".arff",), "ARFF", "arff_format:read_arff",
               chunks="chunked_arff:ArffChunks"),
    DataFormat("csv", (".csv",), "CSV", "csv_format:read_csv", options=("delimiter",),
               chunks="chunked_csv:CsvChunks", directory=True),
    DataFormat("libsvm", (".libsvm", ".svm"), "libsvm", "libsvm_format:read_libsvm"),
    DataFormat("parquet", (".parquet",), "Parquet", None,
               chunks="chunked_parquet:ParquetChunks", directory=True),
)})

#: Suffixes of the formats read whole, in the order a data set name is completed with them.
WHOLE_SUFFIXES = tuple(s for f in FORMATS.values() if f.whole for s in f.suffixes)


# The chunked formats' lists are read from the table when asked (not kept at import), so
# that the config check, the reader and the docs see a format as soon as it is an entry.
def chunk_suffixes() -> tuple[str, ...]:
    """Suffixes of the formats a chunked data set reads."""
    return tuple(s for f in FORMATS.values() if f.chunked for s in f.suffixes)


def directory_suffixes() -> tuple[str, ...]:
    """Suffixes of the files a directory holds as one data set, in the order they are
    looked for."""
    return tuple(s for f in FORMATS.values() if f.directory for s in f.suffixes)


def directory_titles() -> str:
    """What the files of :func:`directory_suffixes` are called, for messages ("CSV or
    Parquet")."""
    return " or ".join(f.title for f in FORMATS.values() if f.directory)


def chunked_formats() -> dict:
    """``{name: ChunkedFormat class}`` of every format read in chunks (each module imported
    now): what docs/large-data.md lists."""
    return {f.name: _named(f.chunks) for f in FORMATS.values() if f.chunked}


def format_of(path) -> DataFormat | None:
    """The format of ``path`` by its suffix (case-insensitive), or None."""
    suffix = Path(str(path)).suffix.lower()
    return next((f for f in FORMATS.values() if suffix in f.suffixes), None)
