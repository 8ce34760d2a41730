"""Read what `compare` compares: result directories, or a CSV table of scores.

:func:`compare_paths` is the whole of ``bayesbench compare``'s work short of
printing: it reads result directories (or directories of them) with
``records_frame``, or one CSV table (:func:`read_scores_csv`), and hands the
scores to :mod:`.analysis`.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..errors import StatsError
from ..evaluation.store import RECORDS, records_frame
from .analysis import Comparison, compare, compare_scores

__all__ = ["read_scores_csv", "run_directories", "read_runs", "compare_paths"]


def read_scores_csv(path) -> pd.DataFrame:
    """A table of scores: first column the data set names, one column per classifier."""
    path = Path(path)
    try:
        table = pd.read_csv(path, index_col=0)
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise StatsError(f"{path}: cannot read a CSV table of scores ({exc})") from None
    if table.shape[1] < 1 or table.shape[0] < 1:
        raise StatsError(f"{path}: expected a header row and one row per data set, "
                         f"with the data set name first and one column per classifier")
    # pandas renames a repeated column to 'A.1' without a word; two columns of one name are
    # a mistake in the table, not two classifiers.
    header = pd.read_csv(path, header=None, nrows=1).iloc[0, 1:].astype(str).tolist()
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        raise StatsError(f"{path}: classifier column(s) {', '.join(twice)} appear more than once")
    for column in table.columns:
        converted = pd.to_numeric(table[column], errors="coerce")
        for bad, what in ((converted.isna() & table[column].notna(), "a number"),
                          (np.isinf(converted.to_numpy(dtype=float)), "a finite number")):
            if bad.any():
                first = table.index[bad][0]
                raise StatsError(f"{path}: column '{column}', data set '{first}': "
                                 f"'{table.at[first, column]}' is not {what}")
        table[column] = converted
    if table.index.has_duplicates:
        raise StatsError(f"{path}: data set '{table.index[table.index.duplicated()][0]}' appears twice")
    return table


def run_directories(paths) -> list[Path]:
    """The result directories among ``paths`` and inside the directories of them, each once."""
    runs = {}
    for path in map(Path, paths):
        if (path / RECORDS).exists():
            found = [path]
        else:
            found = sorted(p for p in path.iterdir() if (p / RECORDS).exists())
            if not found:
                raise StatsError(f"{path}: neither a result directory nor a directory of them "
                                 f"(no {RECORDS})")
        for run in found:
            runs.setdefault(run.resolve(), run)  # one directory given twice is read once
    return list(runs.values())


def read_runs(runs) -> tuple[pd.DataFrame, list[str]]:
    """The records of result directories ``runs`` (failed tasks included, as ``compare``
    wants them), and the data set names in the order their configs list them."""
    return records_frame(runs, failed=True), _declared_datasets(runs)


def _declared_datasets(runs) -> list[str]:
    """Data set names in the order the runs' configs list them (unreadable configs are skipped:
    the order is cosmetic)."""
    names = []
    for run in runs:
        try:
            config = yaml.safe_load((Path(run) / "config.yaml").read_text())
            names += [str(d["name"]) for d in config["datasets"]]
        except (OSError, yaml.YAMLError, KeyError, TypeError):
            continue
    return names


def compare_paths(paths, *, metric: str | None = None, baseline: str | None = None,
                  test: str = "corrected-t", alpha: float = 0.05,
                  lower_is_better: bool | None = None) -> Comparison:
    """Compare from disk: result directories, directories of them, or one CSV of scores.

    ``metric`` defaults to accuracy for result directories; for a CSV it only
    names the scores (default "score").
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise StatsError("give at least one result directory or CSV file")
    for p in paths:
        if not p.exists():
            raise StatsError(f"{p}: no such file or directory")
    if any(p.is_file() for p in paths):
        if len(paths) > 1:
            raise StatsError("give either one CSV file of scores or result directories, not both")
        return _compare_csv(paths[0], metric=metric, baseline=baseline, alpha=alpha,
                            lower_is_better=lower_is_better)
    runs = run_directories(paths)
    frame, declared = read_runs(runs)
    result = compare(frame, metric=metric or "accuracy", baseline=baseline, test=test, alpha=alpha,
                     lower_is_better=lower_is_better, datasets=declared)
    if len(result.classifiers) < 2:
        raise StatsError(f"{', '.join(map(str, runs))}: one classifier ({result.classifiers[0]}); "
                         f"a comparison needs at least 2 (give several result directories to "
                         f"compare runs)")
    return result


def _compare_csv(path: Path, *, metric, baseline, alpha, lower_is_better) -> Comparison:
    scores = read_scores_csv(path)
    # One score per cell: with a single row or column there is no test to compute at all.
    if scores.shape[1] < 2:
        raise StatsError(f"{path}: one classifier column ({scores.columns[0]}); a comparison "
                         f"needs at least 2")
    if scores.shape[0] < 2:
        raise StatsError(f"{path}: one data set row ({scores.index[0]}); the tests over data "
                         f"sets need at least 2")
    return compare_scores(scores, metric=metric or "score", baseline=baseline, alpha=alpha,
                          lower_is_better=bool(lower_is_better))
