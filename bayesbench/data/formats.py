"""The data formats bayesbench reads: one table, read by the loader, the chunked reader, the
config check and the docs alike, so that adding a format is one :class:`DataFormat` entry.

A format is read whole (:func:`~bayesbench.data.load.load_dataset`), in chunks (a data set
larger than memory, :mod:`bayesbench.data.chunks`), or both. Its reader is named as
``"module:function"`` within :mod:`bayesbench.data` and imported only when a file of that
format is read, so that naming a format costs nothing.
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
    (the keyword arguments it takes), whether a data set of such files may be read in
    chunks (``chunked``), and whether a directory of such files is one data set
    (``directory``; one ARFF file is cut into parts instead)."""

    name: str
    suffixes: tuple[str, ...]
    title: str
    reader: str | None
    options: tuple[str, ...] = ()
    chunked: bool = False
    directory: bool = False

    @property
    def whole(self) -> bool:
        """Whether a file of this format can be read whole into memory."""
        return self.reader is not None

    def read(self, path, class_attribute=None, **options):
        """Read ``path`` whole with this format's reader; options it does not take are
        left out (a CSV delimiter means nothing to an ARFF file)."""
        module, _, function = self.reader.partition(":")
        read = getattr(importlib.import_module(f"{__package__}.{module}"), function)
        return read(path, class_attribute,
                    **{k: v for k, v in options.items() if k in self.options and v is not None})


#: Every format, in the order a data set name is completed with their suffixes.
FORMATS = MappingProxyType({f.name: f for f in (
    DataFormat("arff", (".arff",), "ARFF", "arff_format:read_arff", chunked=True),
    DataFormat("csv", (".csv",), "CSV", "csv_format:read_csv",
               options=("delimiter",), chunked=True, directory=True),
    DataFormat("libsvm", (".libsvm", ".svm"), "libsvm", "libsvm_format:read_libsvm"),
    DataFormat("parquet", (".parquet",), "Parquet", None, chunked=True,
               directory=True),
)})

#: Suffixes of the formats read whole, in the order a data set name is completed with them.
WHOLE_SUFFIXES = tuple(s for f in FORMATS.values() if f.whole for s in f.suffixes)
#: Suffixes of the formats a chunked data set reads.
CHUNK_SUFFIXES = tuple(s for f in FORMATS.values() if f.chunked for s in f.suffixes)
#: Suffixes of the files a directory holds as one data set, in the order they are looked for.
DIRECTORY_SUFFIXES = tuple(s for f in FORMATS.values() if f.directory for s in f.suffixes)
#: What those files are called, for messages ("CSV or Parquet").
DIRECTORY_TITLES = " or ".join(f.title for f in FORMATS.values() if f.directory)


def format_of(path) -> DataFormat | None:
    """The format of ``path`` by its suffix (case-insensitive), or None."""
    suffix = Path(str(path)).suffix.lower()
    return next((f for f in FORMATS.values() if suffix in f.suffixes), None)
