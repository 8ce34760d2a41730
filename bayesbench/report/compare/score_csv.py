"""Read a CSV table of scores, in one of the three layouts :func:`read_scores_csv` tells
apart (a wide table, a run's summary table, a long table), as ``bayesbench compare`` takes one
(a published table, a run's ``summary/<metric>.csv`` or ``summary/scores.csv``)."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import StatsError

__all__ = ["ScoreTable", "read_scores_csv"]


# The three shapes of a CSV of scores, as read_scores_csv tells them apart.
_LAYOUTS = ("a wide table (data set, then one score column per classifier), a bayesbench summary "
            "table (columns dataset, classifier, mean, ...; or, from older versions, data set then "
            "'<classifier> mean' and '<classifier> std' columns) or a long table (columns dataset, "
            "classifier, optionally repetition and fold, and value or the metric's name)")
_LONG_WORDS = {"classifier", "fold", "repetition", "metric", "value"}
# Cells of a long table that stand for a missing score (pandas' reading of a wide table
# treats these as missing too).
_MISSING = {"", "nan", "na", "n/a", "null"}
# Columns of a long table with folds that the fold tests use when they are there.
_FOLD_COLUMNS = ("fold_id", "n_train", "n_test", "status", "run")


@dataclass(frozen=True)
class ScoreTable:
    """A CSV of scores as :func:`read_scores_csv` recognised it.

    ``layout`` is "wide", "summary" or "long". ``scores`` holds one score per data set
    (rows) and classifier (columns), for :func:`~.analysis.compare_scores`; a long table
    with a ``fold`` column gives ``folds`` instead, one row per data set, classifier,
    repetition and fold, for :func:`~.analysis.compare`. ``metric`` names the scores
    where the table does (a long table's metric, a summary table's file name).
    """

    layout: str
    metric: str | None
    scores: pd.DataFrame | None = None
    folds: pd.DataFrame | None = None


def read_scores_csv(path, *, metric: str | None = None) -> ScoreTable:
    """Read a CSV of scores in any of three layouts, told apart by the header:

    - long: a ``classifier`` column (and ``dataset``), one score per row in ``value``
      (with a ``metric`` column naming it: the rows of ``metric``, needed when there
      are several) or in the column named ``metric`` (default accuracy), per fold when
      there is a ``fold`` column (``repetition`` 0 unless given);
    - summary: ``dataset``, ``classifier`` and ``mean`` columns (and no ``value`` or
      ``fold``), one row per data set and classifier, as a run writes
      ``summary/<metric>.csv`` and ``summary/comparison.csv``; the means are compared
      (the metric is the file's name). Older versions wrote, after the data set,
      ``<classifier> mean`` / ``<classifier> std`` column pairs: read too;
    - wide: first column the data set names, one column per classifier.

    A header with long-table words (fold, repetition, metric, value) but no
    classifier column is refused rather than guessed at.
    """
    path = Path(path)
    try:
        _check_fields(path)
        return _read_scores(path, metric)
    except (pd.errors.ParserError, UnicodeDecodeError, csv.Error) as exc:
        # Bytes that are no text, a NUL: the parser's message says where.
        why = str(exc).strip().splitlines()[-1][:200]
        raise StatsError(f"{path}: cannot read a CSV table of scores ({why})") from None


def _check_fields(path: Path) -> None:
    """Every row has as many fields as the header. pandas takes a first row one field
    longer than the header as a row with an index, which shifts every score of the table
    one classifier to the right without a word."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = csv.reader(fh)
        header = next(rows, None)
        for row in rows:
            if row and header is not None and len(row) != len(header):
                raise StatsError(f"{path}:{rows.line_num}: {len(row)} fields, but the header "
                                 f"has {len(header)}")


def _read_scores(path: Path, metric: str | None) -> ScoreTable:
    try:
        header = [str(h).strip() for h in pd.read_csv(path, header=None, nrows=1, dtype=str,
                                                      keep_default_na=False).iloc[0]]
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise StatsError(f"{path}: cannot read a CSV table of scores ({exc})") from None
    # pandas renames a repeated column to 'A.1' without a word; two columns of one name are
    # a mistake in the table, not two classifiers.
    twice = sorted({h for h in header[1:] if header[1:].count(h) > 1})
    if twice:
        raise StatsError(f"{path}: classifier column(s) {', '.join(twice)} appear more than once")
    lowered = {h.lower() for h in header}
    if {"dataset", "classifier", "mean"} <= lowered and not lowered & {"value", "fold"}:
        return ScoreTable("summary", metric or path.stem, scores=_summary_long(path, metric or path.stem))
    if "classifier" in lowered:
        return _long_table(path, metric)
    if any(h.endswith((" mean", " std")) for h in header[1:]):
        return ScoreTable("summary", metric or path.stem, scores=_summary_table(path, header))
    if lowered & _LONG_WORDS:
        raise StatsError(f"{path}: a column '{sorted(lowered & _LONG_WORDS)[0]}' but no 'classifier' "
                         f"column; expected {_LAYOUTS}")
    return ScoreTable("wide", metric, scores=_wide_table(path))


_LARGEST_SCORE = 1e150


def _numbers(path: Path, values: pd.Series, where) -> pd.Series:
    """``values`` as floats (empty cells NaN), or a StatsError naming the first bad cell
    (``where(label)`` says where it is)."""
    converted = pd.to_numeric(values, errors="coerce")
    magnitude = np.abs(converted.to_numpy(dtype=float))
    for bad, what in (((converted.isna() & values.notna()).to_numpy(), "a number"),
                      (np.isinf(magnitude), "a finite number"),
                      # the tests subtract and average scores: beyond half the largest
                      # double a difference overflows to infinity (with RuntimeWarnings)
                      (magnitude > _LARGEST_SCORE, f"a number within ±{_LARGEST_SCORE:.4g} "
                                                   "(rescale the scores)")):
        if bad.any():
            first = values.index[bad][0]
            raise StatsError(f"{path}: {where(first)}: '{values[first]}' is not {what}")
    return converted.astype(float)


def _wide_table(path: Path) -> pd.DataFrame:
    # As text: a data set or classifier named 'NA' or 'None' is a name, not a missing value.
    table = pd.read_csv(path, index_col=0, dtype=str, keep_default_na=False)
    if table.shape[1] < 1 or table.shape[0] < 1:
        raise StatsError(f"{path}: expected a header row and one row per data set, "
                         f"with the data set name first and one column per classifier")
    for column in table.columns:
        cells = table[column].mask(table[column].str.strip().str.lower().isin(_MISSING))
        table[column] = _numbers(path, cells, lambda ds, c=column: f"column '{c}', data set '{ds}'")
    if table.index.has_duplicates:
        raise StatsError(f"{path}: data set '{table.index[table.index.duplicated()][0]}' appears twice")
    return table


def _summary_table(path: Path, header: list[str]) -> pd.DataFrame:
    """The means of a summary table, one column per classifier; its columns must pair up."""
    columns = header[1:]
    for i in range(0, len(columns), 2):
        mean, std = columns[i], columns[i + 1] if i + 1 < len(columns) else None
        bad = mean if not mean.endswith(" mean") else None
        if bad is None and std != mean[:-len("mean")] + "std":
            bad = std or mean
        if bad is not None:
            raise StatsError(f"{path}: column '{bad}' breaks the '<classifier> mean', "
                             f"'<classifier> std' pairs of a summary table; expected {_LAYOUTS}")
    means = _wide_table(path).iloc[:, 0::2]
    means.columns = [c[:-len(" mean")] for c in columns[0::2]]
    return means


def _summary_long(path: Path, metric: str) -> pd.DataFrame:
    """The ``mean`` column of a run's summary table, one column per classifier."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table.columns = [str(c).strip().lower() for c in table.columns]
    frame = pd.DataFrame({"dataset": table["dataset"], "classifier": table["classifier"]})
    frame[metric] = _numbers(path, table["mean"].mask(table["mean"].str.strip().str.lower().isin(_MISSING)),
                             lambda row: f"line {row + 2}, column 'mean'")
    return _one_per_cell(path, frame, metric)


def _long_table(path: Path, metric: str | None) -> ScoreTable:
    # Everything as text: labels stay as written ('None', 'NA'), numbers are checked below.
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table.columns = [str(c).strip() for c in table.columns]
    names = {c.lower(): c for c in table.columns}
    if "dataset" not in names:
        raise StatsError(f"{path}: a long table needs a 'dataset' column; expected {_LAYOUTS}")
    metric, table, column = _scores_column(path, table, names, metric)

    def numbers(name):  # rows are named by their line in the file (the header is line 1)
        return _numbers(path, table[name].mask(table[name].str.strip().str.lower().isin(_MISSING)),
                        lambda row: f"line {row + 2}, column '{name}'")

    frame = pd.DataFrame({"dataset": table[names["dataset"]], "classifier": table[names["classifier"]],
                          metric: numbers(column)})
    if "fold" not in names:
        return ScoreTable("long", metric, scores=_one_per_cell(path, frame, metric))
    frame["repetition"] = numbers(names["repetition"]) if "repetition" in names else 0.0
    frame["fold"] = numbers(names["fold"])
    for name in _FOLD_COLUMNS:
        if name in names:
            frame[name] = numbers(names[name]) if name in ("n_train", "n_test") else table[names[name]]
    twice = frame.duplicated(["dataset", "classifier", "repetition", "fold"])
    if twice.any():
        row = frame[twice].iloc[0]
        raise StatsError(f"{path}: data set '{row['dataset']}', classifier '{row['classifier']}' has "
                         f"two scores for repetition {row['repetition']:g}, fold {row['fold']:g}")
    return ScoreTable("long", metric, folds=frame)


def _scores_column(path: Path, table: pd.DataFrame, names: dict, metric: str | None):
    """``(name of the scores, the rows holding them, the column holding them)`` of a long table."""
    if "value" not in names:
        metric = metric or "accuracy"
        if metric not in table:
            raise StatsError(f"{path}: a long table holds its scores in a 'value' column or in a "
                             f"column named by the metric; there is no '{metric}' column")
        return metric, table, metric
    if "metric" not in names:
        return metric or "score", table, names["value"]
    held = list(dict.fromkeys(table[names["metric"]]))
    if metric is None and len(held) == 1:
        metric = held[0]
    if metric not in held:
        raise StatsError(f"{path}: the table holds the metrics {', '.join(held)}; "
                         + ("name the one to compare" if metric is None else f"not '{metric}'"))
    return metric, table[table[names["metric"]] == metric], names["value"]


def _one_per_cell(path: Path, frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    twice = frame.duplicated(["dataset", "classifier"])
    if twice.any():
        row = frame[twice].iloc[0]
        raise StatsError(f"{path}: data set '{row['dataset']}', classifier '{row['classifier']}' has "
                         f"several scores; without a 'fold' column a long table holds one score per "
                         f"data set and classifier")
    scores = frame.pivot(index="dataset", columns="classifier", values=metric)
    return scores.reindex(index=pd.unique(frame["dataset"]), columns=pd.unique(frame["classifier"]))
