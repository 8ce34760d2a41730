"""Read what `compare` compares: result directories, or a CSV table of scores.

:func:`compare_paths` is the whole of ``bayesbench compare``'s work short of
printing: it reads result directories (or directories of them) with
``records_frame``, or one CSV table in one of the layouts :func:`read_scores_csv`
recognises (a wide table, a run's summary table, a long table), and hands the
scores to :mod:`.analysis`.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from operator import itemgetter
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..errors import StatsError
from ..evaluation.metrics import LOWER_IS_BETTER, class_score, per_class_metric
from ..stats import DEFAULT_FOLD_TEST
from ..evaluation.rundir import config_baseline
from ..evaluation.store import RECORDS, current_tasks, iter_records, run_names
from .analysis import SIGNED_RANK_SAMPLES, Comparison, compare, compare_scores
from .pages import Network

__all__ = ["ScoreTable", "read_scores_csv", "run_directories", "read_runs", "compare_paths",
           "run_networks", "run_arcs"]


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


# The fields of a record that a comparison reads besides the score (records_frame's names).
_FIELDS = ("dataset", "classifier", "repetition", "fold", "fold_id", "status", "n_train", "n_test")


def read_runs(runs, metric: str) -> tuple[pd.DataFrame, list[str]]:
    """The records of result directories ``runs`` as :func:`~.analysis.compare` reads them,
    failed tasks included, and the data set names in the order their configs list them.

    The frame holds the columns of ``records_frame(runs, failed=True, metrics=[metric])``
    that a comparison reads, with the same values: ``run``, the fields of :data:`_FIELDS`
    that some record has, and ``metric`` if some record holds it. It is built column by
    column from those fields alone: a frame of every field of 100,000 records, from one
    dictionary per record, would take twice the time and memory of the comparison.
    """
    dirs = list(dict.fromkeys(Path(run).resolve() for run in runs))
    score, take = _score_reader(metric), itemgetter(*_FIELDS)
    rows, complete = [], False
    # The columns no record has so far (records_frame has none of them); dataset and
    # classifier are always there.
    unheld = {*_FIELDS, metric}.difference(("dataset", "classifier"))
    for run_dir, run_name in zip(dirs, run_names(dirs)):
        tasks = current_tasks(run_dir)
        for record in iter_records(run_dir):
            if tasks is not None and record.get("task_id") not in tasks:
                continue
            try:
                fields, complete = take(record), True
            except KeyError:  # a failed task, an older record: what it lacks is NaN
                fields = tuple(record.get(name, np.nan) for name in _FIELDS)
                unheld.difference_update(record)
            value = score(record)
            if value is not _ABSENT:
                unheld.discard(metric)
            rows.append((run_name, *fields, np.nan if value is None or value is _ABSENT else value))
    if complete:
        unheld.difference_update(_FIELDS)
    names = ("run", *_FIELDS, metric)
    frame = pd.DataFrame({name: list(values) for name, values in zip(names, zip(*rows))
                          if name not in unheld})
    return frame, _declared_datasets(runs)


_ABSENT = object()  # a field or score that a record does not hold


def _score_reader(metric: str):
    """A function giving a record's score ``metric`` (None: undefined) or :data:`_ABSENT`,
    as records_frame reads it: ``metrics[metric]``, or for a per-class score such as
    ``f1[M]`` the entry of ``per_class[f1]`` at the position of class M in ``classes``."""
    per_class = per_class_metric(metric)
    if per_class is None:
        return lambda record: (record.get("metrics") or {}).get(metric, _ABSENT)
    name, cls = per_class

    def score(record):
        classes = record.get("classes") or []
        value = (class_score(record.get("per_class") or {}, name, classes.index(cls))
                 if cls in classes else None)
        return _ABSENT if value is None else value

    return score


def _declared_datasets(runs) -> list[str]:
    """Data set names in the order the runs' configs list them (unreadable configs are skipped:
    the order is cosmetic)."""
    names = []
    for run in runs:
        try:
            names += [str(d["name"]) for d in _run_config(run)["datasets"]]
        except (KeyError, TypeError):
            continue
    return names


def _run_config(run) -> dict | None:
    """A result directory's ``config.yaml``, None when unreadable: what a comparison takes
    from it (the data sets' order, the baseline) has a default."""
    try:
        config = yaml.safe_load((Path(run) / "config.yaml").read_text())
    except (OSError, yaml.YAMLError):
        return None
    return config if isinstance(config, dict) else None


def _run_baseline(runs, frame: pd.DataFrame) -> tuple[str | None, tuple[str, ...]]:
    """The baseline of a comparison of one result directory, ``(the baseline it stored,
    a note saying so)``: the run's ``compare.baseline`` (else its first classifier when it
    was created), as its own summary compares. ``(None, ...)`` (the comparison's default,
    the first classifier) for several runs, or when the stored one has no records."""
    if len(runs) != 1:
        return None, ()
    stored = config_baseline(_run_config(runs[0]))
    if stored is None or not len(frame):
        return None, ()
    stored = str(stored)
    if not frame["classifier"].astype(str).eq(stored).any():
        return None, (f"{runs[0]} stored the baseline '{stored}', which has no records there; "
                      f"the first classifier is the baseline instead.",)
    return stored, (f"the baseline '{stored}' is the one stored with the run {runs[0]} (its "
                    f"config's baseline, else its first classifier when the run was created).",)


def compare_paths(paths, *, metric: str | None = None, baseline: str | None = None,
                  test: str | None = DEFAULT_FOLD_TEST, alpha: float = 0.05,
                  lower_is_better: bool | None = None, rope: float = 0.01,
                  samples: int = SIGNED_RANK_SAMPLES) -> Comparison:
    """Compare from disk: result directories, directories of them, or one CSV of scores.

    ``baseline`` defaults, for one result directory, to the baseline the run stored
    (:func:`~bayesbench.evaluation.rundir.config_baseline`, the one its own summary
    compares against; the notes say so), and otherwise to the first classifier.
    ``metric`` defaults to accuracy for result directories; for a CSV it picks the
    scores of a long table and otherwise names them (default: the name the table
    gives, else "score"). ``lower_is_better`` defaults to the metric's direction
    (lower for error, log_loss and brier).
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
        return _compare_csv(paths[0], metric=metric, baseline=baseline, test=test, alpha=alpha,
                            lower_is_better=lower_is_better, rope=rope, samples=samples)
    runs = run_directories(paths)
    metric = metric or "accuracy"
    frame, declared = read_runs(runs, metric)
    notes = ()
    if baseline is None:
        baseline, notes = _run_baseline(runs, frame)
    result = compare(frame, metric=metric, baseline=baseline, test=test, alpha=alpha,
                     lower_is_better=lower_is_better, datasets=declared, rope=rope, samples=samples)
    if len(result.classifiers) < 2:
        raise StatsError(f"{', '.join(map(str, runs))}: one classifier ({result.classifiers[0]}); "
                         f"a comparison needs at least 2 (give several result directories to "
                         f"compare runs)")
    return replace(result, notes=notes + result.notes) if notes else result


def _compare_csv(path: Path, *, metric, baseline, test, alpha, lower_is_better, rope,
                 samples) -> Comparison:
    table = read_scores_csv(path, metric=metric)
    name = table.metric or "score"
    lower = name in LOWER_IS_BETTER if lower_is_better is None else bool(lower_is_better)
    if table.folds is not None:
        result = compare(table.folds, metric=name, baseline=baseline, test=test, alpha=alpha,
                         lower_is_better=lower, rope=rope, samples=samples)
        if len(result.classifiers) < 2:
            raise StatsError(f"{path}: one classifier ({result.classifiers[0]}); a comparison "
                             f"needs at least 2")
        return result
    scores = table.scores
    # One score per cell: with a single row or column there is no test to compute at all.
    if scores.shape[1] < 2:
        raise StatsError(f"{path}: one classifier column ({scores.columns[0]}); a comparison "
                         f"needs at least 2")
    if scores.shape[0] < 2:
        raise StatsError(f"{path}: one data set row ({scores.index[0]}); the tests over data "
                         f"sets need at least 2")
    return compare_scores(scores, metric=name, baseline=baseline, alpha=alpha, lower_is_better=lower,
                          rope=rope, samples=samples)


def run_arcs(paths) -> list[list]:
    """The rows of ``summary/arc_frequencies.csv`` of the result directories among ``paths``
    (none for a CSV), classifiers labelled as :func:`run_networks` labels them: what their
    consensus networks are drawn from."""
    rows = []
    for run, prefix in _labelled_runs(paths):
        table = run / "summary" / "arc_frequencies.csv"
        if table.is_file():
            with open(table, newline="", encoding="utf-8") as fh:
                rows += [[d, prefix + c, p, ch, float(f)]
                         for d, c, p, ch, f in list(csv.reader(fh))[1:]]
    return rows


def run_networks(paths) -> list:
    """The first fold's learned networks in the result directories among ``paths`` (none
    for a CSV), as :class:`~.pages.Network` entries labelled as a comparison labels them."""
    found = []
    for run, prefix in _labelled_runs(paths):
        found += [Network(r["dataset"], prefix + r["classifier"], r["network"])
                  for r in iter_records(run) if r.get("network")]
    return found


def _labelled_runs(paths) -> list[tuple[Path, str]]:
    """The result directories among ``paths`` (none when a CSV is among them), each with the
    prefix a comparison gives its classifiers: ``"<run name>/"`` when there are several."""
    paths = [Path(p) for p in paths]
    if any(p.is_file() for p in paths):
        return []
    runs = run_directories(paths)
    if len(runs) == 1:
        return [(runs[0], "")]
    return [(run, f"{name}/") for run, name in zip(runs, run_names([r.resolve() for r in runs]))]
