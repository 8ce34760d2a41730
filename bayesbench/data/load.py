"""Loading a data set by path or by name, whatever its format."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..errors import DataError
from .dataset import Dataset

_FORMATS = {".arff": "arff", ".csv": "csv", ".libsvm": "libsvm", ".svm": "libsvm"}


def load_dataset(path, class_attribute: str | None = None, *,
                 delimiter: str | None = None) -> Dataset:
    """Read a data file into a :class:`Dataset`, the format chosen by its extension.

    Parameters
    ----------
    path : str or Path
        ``.arff`` (Weka), ``.csv`` (header row; ``?``, empty and ``NA`` are
        missing) or ``.libsvm``/``.svm`` (``label idx:val ...``, or the class
        last as ``classLabel:value``).
    class_attribute : str, optional
        Name of the class attribute; the last attribute when omitted.
    delimiter : str, optional
        CSV field separator (default ``,``).

    Rows whose class is missing are dropped, and ``Dataset.notes`` says how
    many. Raises :class:`~bayesbench.errors.DataError` naming the file (and
    line or attribute) when the file cannot be used.
    """
    path = Path(path)
    kind = _FORMATS.get(path.suffix.lower())
    if kind is None:
        raise DataError(f"unknown data format '{path.suffix or '(no extension)'}'; "
                        f"expected one of {sorted(_FORMATS)}", path=path)
    if not path.exists():
        raise DataError("no such file", path=path)
    if kind == "arff":
        from .arff_format import read_arff
        return read_arff(path, class_attribute)
    if kind == "csv":
        from .csv_format import read_csv
        return read_csv(path, class_attribute, delimiter=delimiter)
    from .libsvm_format import read_libsvm
    return read_libsvm(path, class_attribute)


def bundled_dir() -> Path:
    """The directory of the small data sets shipped inside the package."""
    return Path(__file__).resolve().parent.parent / "datasets"


def find_dataset(name: str, search_dirs: Iterable) -> Path | None:
    """The first file called ``name``, ``name.arff`` or ``name.csv`` in ``search_dirs``.

    Directories are searched in order; within one, the exact name wins over
    the ``.arff`` and then the ``.csv`` spelling. Returns None when none exists.
    """
    for directory in search_dirs:
        directory = Path(directory)
        for candidate in (name, f"{name}.arff", f"{name}.csv"):
            path = directory / candidate
            if path.is_file():
                return path
    return None


def locate_dataset(data) -> Path:
    """``data`` as a path if that file exists, else the bundled data set of that name.

    Raises :class:`~bayesbench.errors.DataError` when neither exists.
    """
    path = Path(data)
    if path.is_file():
        return path
    # A directory of the same name (say ./iris/ for results) must not hide the bundled set.
    found = find_dataset(str(data), [bundled_dir()])
    if found is None:
        if path.is_dir():
            raise DataError("is a directory, not a data file", path=path)
        raise DataError("no such file (nor a bundled data set of that name)", path=path)
    return found
