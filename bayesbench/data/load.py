"""Loading a data set by path or by name, whatever its format."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..errors import DataError
from .dataset import Dataset
from .formats import WHOLE_SUFFIXES, format_of
from .names import names_of


def load_dataset(path, class_attribute: str | None = None, *,
                 delimiter: str | None = None) -> Dataset:
    """Read a data file into a :class:`Dataset`, the format chosen by its extension.

    Parameters
    ----------
    path : str or Path
        ``.arff`` (Weka), ``.csv`` (header row; ``?``, empty and ``NA`` are
        missing) or ``.libsvm``/``.svm`` (``label idx:val ...``, or the class
        last as ``classLabel:value``). When no such file exists, a data set
        name (``"car"``) looked up as :func:`locate_dataset` does.
    class_attribute : str, optional
        Name of the class attribute; the last attribute when omitted.
    delimiter : str, optional
        CSV field separator (default ``,``).

    Rows whose class is missing are dropped, and ``Dataset.notes`` says how
    many. Raises :class:`~bayesbench.errors.DataError` naming the file (and
    line or attribute) when the file cannot be found or used.

    Examples
    --------
    >>> from bayesbench.data import load_dataset
    >>> car = load_dataset("car")
    >>> car.n_rows, car.n_attributes, car.class_names
    (1728, 6, ('unacc', 'acc', 'good', 'vgood'))
    """
    path = locate_dataset(path)
    fmt = format_of(path)
    if fmt is None or not fmt.whole:
        raise DataError(f"unknown data format '{path.suffix or '(no extension)'}'; "
                        f"expected one of {sorted(WHOLE_SUFFIXES)}", path=path)
    return fmt.read(path, class_attribute, delimiter=delimiter)


DATA_ENV = "BAYESBENCH_DATA"
"""Environment variable: directories (``os.pathsep``-separated) searched for data sets given
by name, after a config's ``data_dirs``."""


def bundled_dir() -> Path:
    """The directory of the small data sets shipped inside the package."""
    return Path(__file__).resolve().parent.parent / "datasets"


def checkout_dir() -> Path | None:
    """The ``datasets/`` directory of the bayesbench checkout the package is imported from
    (an editable install, or the source tree on ``sys.path``), or None when it is installed."""
    root = Path(__file__).resolve().parents[2]
    pyproject = root / "pyproject.toml"
    if ((root / "datasets").is_dir() and pyproject.is_file()
            and 'name = "bayesbench"' in pyproject.read_text(errors="replace")):
        return root / "datasets"
    return None


def installed_dir() -> Path:
    """Where ``pip install .`` puts a copy of the checkout's ``datasets/``: the package
    ``bayesbench.installed_datasets`` (a ``package-dir`` mapping in pyproject.toml), so that
    every shipped data set resolves by name whatever the working directory. It exists only
    in an installed package; a checkout reads its own ``datasets/``."""
    return Path(__file__).resolve().parent.parent / "installed_datasets"


def search_path(data_dirs: Iterable = ()) -> list[tuple[str, Path]]:
    """Where a data set given by name is looked for, in order, each directory with
    where it comes from: ``data_dirs`` (a config's), ``BAYESBENCH_DATA``, ``checkout``
    (:func:`checkout_dir`) or else ``installed`` (:func:`installed_dir`, the same files),
    ``bundled`` (:func:`bundled_dir`)."""
    dirs = [("data_dirs", Path(d)) for d in data_dirs]
    dirs += [(DATA_ENV, Path(d)) for d in os.environ.get(DATA_ENV, "").split(os.pathsep) if d]
    checkout = checkout_dir()
    if checkout is not None:
        dirs.append(("checkout", checkout))
    elif installed_dir().is_dir():
        dirs.append(("installed", installed_dir()))
    return dirs + [("bundled", bundled_dir())]


def search_dirs(data_dirs: Iterable = ()) -> list[Path]:
    """The directories of :func:`search_path`, in order."""
    return [directory for _, directory in search_path(data_dirs)]


def find_dataset(name: str, search_dirs: Iterable) -> Path | None:
    """The first file called ``name`` or ``name`` plus a data extension in ``search_dirs``.

    Directories are searched in order; within one, the exact name wins, then
    ``.arff``, ``.csv``, ``.libsvm`` and ``.svm``; a data set with aliases (:mod:`.names`)
    is looked for under each of its names, the canonical one first, so that every name of
    it finds the same file. Returns None when none exists.
    """
    for directory in search_dirs:
        directory = Path(directory)
        for known in names_of(name):
            for candidate in (known, *(known + suffix for suffix in WHOLE_SUFFIXES)):
                path = directory / candidate
                if path.is_file():
                    return path
    return None


def locate_dataset(data, data_dirs: Iterable = ()) -> Path:
    """``data`` as a path if that file exists, else the data set of that name on the
    :func:`search_path`.

    Raises :class:`~bayesbench.errors.DataError` when neither exists.
    """
    path = Path(data)
    if path.is_file():
        return path
    # A directory of the same name (say ./iris/ for results) must not hide the data set.
    dirs = search_dirs(data_dirs)
    found = find_dataset(str(data), dirs)
    if found is None:
        if path.is_dir():
            raise DataError("is a directory, not a data file", path=path)
        if path.is_symlink():
            raise DataError("is a symbolic link to nothing (a loop, or its target is gone)",
                            path=path)
        raise DataError("no such file, nor a data set of that name in "
                        + ", ".join(map(str, dirs)), path=path)
    return found
