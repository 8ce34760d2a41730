"""The published tables a paper config names (``published: FILE``,
``configs/papers/published/``), found from a result directory and checked: each mistake one
line naming the file and the key at fault (the format is :mod:`.against`'s docstring)."""
from __future__ import annotations

from pathlib import Path

from ...data.yaml_file import read_yaml
from ...errors import CheckError, ConfigError, NoPublishedTable
from ...evaluation.rundir import CONFIG, stored_config
from ...evaluation.store import RECORDS

__all__ = ["SPREADS", "BETWEEN_READINGS", "published_path", "run_dirs", "read_published"]

# What a printed spread is, and how it becomes a standard error.
SPREADS = ("sd", "se", "none")
# A test between data sets (paper 003, sec. 4: "Student's t-test on the average recall and 0/1
# loss across all three 'good' data sets ... compared them to glass and soybean-small
# individually") reads the group's fold scores one of two ways: every fold score of every
# data set of the group ("folds"), or the group's mean at each fold position ("average"),
# either against the other data set's fold scores.
BETWEEN_READINGS = ("folds", "average")


def published_path(run_dir) -> Path:
    """The published table a result directory's config names (for a directory of arms,
    the first arm's), or :class:`NoPublishedTable`; a ``config.yaml`` that cannot be read
    is one :class:`~bayesbench.errors.ResultStoreError` naming it."""
    runs = run_dirs(run_dir)
    where = runs[0] / CONFIG
    config = stored_config(runs[0])
    if config is None:
        # read_yaml gives None for a file of no document (empty, or comments alone) too
        state = "empty" if where.exists() else "missing"
        raise CheckError(f"{where}: {state}; the result directory's config names the "
                         f"published table")
    named = config.get("published") if isinstance(config, dict) else None
    if not named:
        raise NoPublishedTable(f"{where}: names no published table "
                               f"(a paper config's 'published' key); nothing to check against")
    if not isinstance(named, str):
        raise CheckError(f"{where}: published: expected the published table's file name, got "
                         f"{type(named).__name__}")
    return Path(named)


def run_dirs(run_dir) -> list[Path]:
    """``run_dir`` if it is a result directory, else the result directories of its arms."""
    path = Path(run_dir)
    if (path / RECORDS).exists():
        return [path]
    if path.is_dir():
        arms = sorted(p for p in path.iterdir() if (p / RECORDS).exists())
        if arms:
            return arms
    raise CheckError(f"{path}: neither a result directory nor a directory of arms (no {RECORDS})")


def read_published(path) -> dict:
    """A published file, checked: one line naming the file and the key at fault."""
    path = Path(path)
    try:
        raw = read_yaml(path, what="published table")
    except ConfigError as exc:
        raise CheckError(str(exc)) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("tables", []), list):
        raise CheckError(f"{path}: expected a mapping with a list 'tables'")
    for i, table in enumerate(raw.get("tables", [])):
        _check_table(path, i, table)
    for i, test in enumerate(raw.get("tests") or []):
        _check_between(path, i, test)
    return raw


def _check_between(path: Path, i: int, test) -> None:
    at = f"{path}: tests[{i}]"
    if not isinstance(test, dict) or "group" not in test:
        return
    for key in ("classifier", "against"):
        if key not in test:
            raise CheckError(f"{at}: '{key}' is required with 'group'")
    for reading in test.get("readings") or BETWEEN_READINGS:
        if reading not in BETWEEN_READINGS:
            raise CheckError(f"{at}.readings: {reading!r} is not one of "
                             f"{', '.join(BETWEEN_READINGS)}")


def _check_table(path: Path, i: int, table) -> None:
    at = f"{path}: tables[{i}]"
    if not isinstance(table, dict):
        raise CheckError(f"{at}: expected a mapping")
    for key in ("metric", "columns", "values"):
        if key not in table:
            raise CheckError(f"{at}: '{key}' is required")
    spread = table.get("spread", "none")
    if spread not in SPREADS:
        raise CheckError(f"{at}.spread: {spread!r} is not one of {', '.join(SPREADS)}")
    if spread == "sd" and not isinstance(table.get("folds"), int):
        raise CheckError(f"{at}.folds: an sd needs the paper's number of test folds")
    for dataset, values in (table["values"] or {}).items():
        if not isinstance(values, list) or len(values) != len(table["columns"]):
            raise CheckError(f"{at}.values.{dataset}: expected {len(table['columns'])} values, "
                             f"one per column")
