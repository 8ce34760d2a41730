"""What the data set names resolve to: every name on the search path with its counts, and
one data set described attribute by attribute (``bayesbench datasets [NAME]``)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from ..errors import BayesbenchError
from .dataset import Dataset
from .formats import WHOLE_SUFFIXES
from .load import find_dataset, load_dataset, locate_dataset, search_path


@dataclass(frozen=True)
class DatasetCounts:
    """The sizes of a data set as loaded: attributes exclude the class; ``n_classes`` is
    the number of declared classes, ``classes_present`` of those that occur."""

    n_rows: int
    n_attributes: int
    n_numeric: int
    n_nominal: int
    class_attribute: str
    n_classes: int
    classes_present: int
    missing_cells: int
    missing_rows: int

    @classmethod
    def of(cls, ds: Dataset) -> "DatasetCounts":
        missing = ds.missing_mask()
        n_nominal = int(ds.nominal_mask.sum())
        return cls(ds.n_rows, ds.n_attributes, ds.n_attributes - n_nominal, n_nominal,
                   ds.target.name, ds.n_classes, int(np.unique(ds.y).size),
                   int(missing.sum()), int(missing.any(axis=1).sum()))


@dataclass(frozen=True)
class DatasetEntry:
    """A name and the file it resolves to: ``origin`` says which part of the search path
    holds it (``data_dirs``, ``BAYESBENCH_DATA``, ``checkout`` or ``installed``, ``bundled``,
    or ``path`` for a file given by path); ``hidden`` lists files of the same name later on
    the path.
    ``counts`` is None and ``error`` the reason when the file cannot be read."""

    name: str
    path: Path
    origin: str
    counts: DatasetCounts | None
    hidden: tuple[Path, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class AttributeSummary:
    """One attribute: its kind, its declared values (nominal) or range and mean (numeric),
    and how many of its values are missing."""

    name: str
    kind: str
    categories: tuple[str, ...]
    minimum: float | None
    mean: float | None
    maximum: float | None
    missing: int


@dataclass(frozen=True)
class DatasetDescription:
    """:func:`describe_dataset`'s answer: the entry, each attribute, and the number of
    rows of each declared class (zero for a class that never occurs)."""

    entry: DatasetEntry
    attributes: tuple[AttributeSummary, ...]
    class_counts: tuple[tuple[str, int], ...]


def list_datasets(data_dirs: Iterable = ()) -> list[DatasetEntry]:
    """Every data set name the search path resolves, sorted by name.

    A name is the file name without its extension of each data file (``.arff``,
    ``.csv``, ``.libsvm``, ``.svm``) in the directories of
    :func:`~bayesbench.data.load.search_path`; it resolves as
    :func:`~bayesbench.data.find_dataset` resolves it (the first directory wins), and
    each file is read to count its rows, attributes, classes and missing values.
    """
    labelled = [(origin, d) for origin, d in search_path(data_dirs) if d.is_dir()]
    files: dict[str, list[Path]] = {}
    for _, directory in labelled:
        for path in sorted(directory.iterdir()):
            if path.suffix.lower() in WHOLE_SUFFIXES and path.is_file():
                files.setdefault(path.stem, []).append(path)
    dirs = [d for _, d in labelled]
    entries = []
    for name in sorted(files):
        path = find_dataset(name, dirs)
        origin = next(o for o, d in labelled if d == path.parent)
        hidden = tuple(p for p in files[name] if p != path)
        entries.append(_entry(name, path, origin, hidden))
    return entries


def describe_dataset(data, data_dirs: Iterable = (), class_attribute: str | None = None
                     ) -> DatasetDescription:
    """One data set, given by path or by name (resolved on the search path), attribute
    by attribute, with its class distribution."""
    path = locate_dataset(data, data_dirs)
    ds = load_dataset(path, class_attribute)
    origin = "path" if Path(data).is_file() else next(
        o for o, d in search_path(data_dirs) if d == path.parent)
    entry = DatasetEntry(path.stem, path, origin, DatasetCounts.of(ds))
    attributes = tuple(_attribute_summary(a, c) for a, c in zip(ds.attributes, ds.columns))
    counts = np.bincount(ds.y, minlength=ds.n_classes)
    return DatasetDescription(entry, attributes,
                              tuple(zip(ds.class_names, map(int, counts))))


def _entry(name, path, origin, hidden) -> DatasetEntry:
    try:
        counts = DatasetCounts.of(load_dataset(path))
    except BayesbenchError as exc:   # one unreadable file must not hide the others
        return DatasetEntry(name, path, origin, None, hidden, str(exc))
    return DatasetEntry(name, path, origin, counts, hidden)


def _attribute_summary(attribute, column) -> AttributeSummary:
    if attribute.is_nominal:
        return AttributeSummary(attribute.name, "nominal", attribute.categories, None, None,
                                None, int((column < 0).sum()))
    present = column[~np.isnan(column)]
    stats = ((float(present.min()), float(present.mean()), float(present.max()))
             if present.size else (None, None, None))
    return AttributeSummary(attribute.name, "numeric", (), *stats,
                            int(column.size - present.size))
