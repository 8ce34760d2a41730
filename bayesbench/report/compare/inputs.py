"""Read what `compare` compares: result directories, or a CSV table of scores.

:func:`compare_paths` is the whole of ``bayesbench compare``'s work short of
printing: it reads result directories (or directories of them) with
``records_frame``, or one CSV table in one of the layouts
:func:`~.score_csv.read_scores_csv` recognises (a wide table, a run's summary table, a
long table), and hands the scores to :mod:`~bayesbench.report.analysis`.
"""
from __future__ import annotations

import csv
from dataclasses import replace
from operator import itemgetter
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import ResultStoreError, StatsError
from ...evaluation.metrics import LOWER_IS_BETTER, class_score, per_class_metric
from ...evaluation.rundir import config_baseline, stored_config
from ...evaluation.store import (APPARENT, RECORDS, in_task_order, iter_records,
                                 run_names, task_list)
from ...spec import CompareSpec
from ..analysis import SIGNED_RANK_SAMPLES, Comparison, compare, compare_scores
from ..figures.network import Network
from .score_csv import read_scores_csv

__all__ = ["run_directories", "read_runs", "compare_paths", "run_networks", "run_arcs"]


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
        listed = task_list(run_dir)
        tasks = None if listed is None else set(listed)
        # In the canonical order of the run's tasks, as every table reads them (a sum of
        # scores is then the same sum however the tasks interleaved).
        for record in in_task_order(iter_records(run_dir), listed):
            if (tasks is not None and record.get("task_id") not in tasks) or record.get(APPARENT):
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
        config = stored_config(run)
    except ResultStoreError:
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


def compare_paths(paths, settings: CompareSpec = CompareSpec(), *,
                  lower_is_better: bool | None = None,
                  samples: int = SIGNED_RANK_SAMPLES) -> Comparison:
    """Compare from disk: result directories, directories of them, or one CSV of scores,
    with the comparison ``settings`` (:class:`~bayesbench.spec.CompareSpec`).

    The baseline defaults, for one result directory, to the baseline the run stored
    (:func:`~bayesbench.evaluation.rundir.config_baseline`, the one its own summary
    compares against; the notes say so), and otherwise to the first classifier.
    The metric defaults to accuracy for result directories; for a CSV it picks the
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
        return _compare_csv(paths[0], settings, lower_is_better, samples)
    runs = run_directories(paths)
    settings = replace(settings, metric=settings.metric or "accuracy")
    frame, declared = read_runs(runs, settings.metric)
    notes = ()
    if settings.baseline is None:
        baseline, notes = _run_baseline(runs, frame)
        settings = replace(settings, baseline=baseline)
    result = compare(frame, settings, lower_is_better=lower_is_better, datasets=declared,
                     samples=samples)
    if len(result.classifiers) < 2:
        raise StatsError(f"{', '.join(map(str, runs))}: one classifier ({result.classifiers[0]}); "
                         f"a comparison needs at least 2 (give several result directories to "
                         f"compare runs)")
    return replace(result, notes=notes + result.notes) if notes else result


def _compare_csv(path: Path, settings: CompareSpec, lower_is_better, samples) -> Comparison:
    table = read_scores_csv(path, metric=settings.metric)
    name = table.metric or "score"
    lower = name in LOWER_IS_BETTER if lower_is_better is None else bool(lower_is_better)
    settings = replace(settings, metric=name)
    if table.folds is not None:
        result = compare(table.folds, settings, lower_is_better=lower, samples=samples)
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
    return compare_scores(scores, settings, lower_is_better=lower, samples=samples)


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
    for a CSV), as :class:`~bayesbench.report.figures.network.Network` entries labelled as a comparison labels them."""
    found = []
    for run, prefix in _labelled_runs(paths):
        found += [Network(r["dataset"], prefix + r["classifier"], r["network"])
                  for r in in_task_order(iter_records(run), task_list(run)) if r.get("network")]
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
