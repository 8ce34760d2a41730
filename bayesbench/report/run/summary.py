"""The summary of a run, written into ``<run>/summary/`` in each requested format.

- the tables of :mod:`.summary_tables` (each metric, per class, confusion, timings, failed
  tasks);
- ``comparison*.<ext>``: the statistical comparison of the classifiers (:mod:`.comparison`;
  the text formats in one file, CSV one table per file);
- ``pooled.<ext>`` (``pooled: true``): each metric's fold mean beside its score on the
  test predictions of each repetition pooled over its folds (:mod:`.pooled`);
- ``arc_frequencies.csv``: how often each arc of a learned structure was learned over the
  folds (:mod:`~bayesbench.report.arcs`), when a classifier learned one;
- ``learning_curve.csv``: every metric at every training size (:mod:`.learning_curves`);
- ``scores.csv`` (and ``scores.parquet`` when pyarrow is installed): every score of
  every task in long form;
- ``warnings.csv``: each distinct warning of a classifier on a data set, with the folds
  that raised it (only when there are some; :mod:`.run_warnings`).

docs/results.md documents every column.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from ...evaluation.store import records_to_frame, run_names
from ...spec import Experiment
from ..arcs import ARC_COLUMNS, arc_rows
from ..tables import render, table_format
from .comparison import settings_of, write_comparison
from .learning_curves import CURVE_COLUMNS, CURVE_FILE, at_largest, curve_rows, has_curve
from .pooled import POOLED_CAPTION, POOLED_COLUMNS, pooled_rows
from .records import declared_order, pooled_records, records_for, small_fold_datasets
from .run_warnings import WARNING_COLUMNS, WARNINGS_FILE, warned
from .summary_tables import summary_tables

__all__ = ["SCORE_DROPPED", "write_summary", "write_run_summary", "write_scores", "arcs_of",
           "curve_of"]

# scores.csv: the records' long form less what only the record store needs; with fold_id and
# the fold sizes, `bayesbench compare summary/scores.csv --metric M` runs the paired tests.
SCORE_DROPPED = ["run", "seed", "task_id", "error", "structure", "schema_version", "fit_seconds",
                 "predict_seconds"]


def write_summary(out_dir, experiment: Experiment, records, formats) -> list[Path]:
    """Write every summary table of ``records`` (a run's records, in their canonical order:
    :func:`~bayesbench.evaluation.store.in_task_order`) in each format, ``scores.csv`` (and
    ``.parquet``), and the comparison the experiment's ``compare`` asks for; return the
    files."""
    return write_run_summary(out_dir, experiment, records, formats)[0]


def write_run_summary(out_dir, experiment: Experiment, records, formats, held=None):
    """:func:`write_summary`, also returning the comparison (None if it could not be made)
    and, then, why; ``held``: the predictions the session holds in memory (the pooled AUC
    reads the others from their files)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    every = list(records)
    ordered = at_largest(every)  # a learning curve's tables: its largest size
    small = small_fold_datasets(ordered)
    pooled = pooled_records(ordered)
    files = []
    for fmt in formats:
        for stem, text in summary_tables(ordered, pooled, small, experiment, fmt):
            path = out_dir / f"{stem}.{table_format(fmt).extension}"
            path.write_text(text)
            files.append(path)
    if experiment.pooled:
        files += _write_pooled(out_dir, experiment, ordered, formats, held)
    arcs = arcs_of(ordered, experiment)
    if arcs:  # a table of numbers for scripts and the consensus network: CSV only
        files.append(out_dir / "arc_frequencies.csv")
        files[-1].write_text(render(arcs, ARC_COLUMNS, "csv"))
    if has_curve(every):  # tidy data for scripts and the figures: CSV only
        files.append(out_dir / CURVE_FILE)
        files[-1].write_text(render(curve_of(every, experiment), CURVE_COLUMNS, "csv"))
    run = run_names([out_dir.resolve().parent])
    files += write_scores(out_dir, records_to_frame([every], run, failed=True, long=True))
    raised = warned(ordered)
    if raised:
        files.append(out_dir / WARNINGS_FILE)
        files[-1].write_text(render(raised, WARNING_COLUMNS, "csv"))
    settings = settings_of(experiment)
    compared = records_for(settings.metric, ordered, pooled, small)
    frame = records_to_frame([compared], run, failed=True, metrics=[settings.metric])
    written, result, reason = write_comparison(out_dir, frame, settings, formats,
                                               [d.name for d in experiment.datasets],
                                               folds=experiment.evaluation is None)
    return files + written, result, reason


def arcs_of(records, experiment: Experiment) -> list[list]:
    """The rows of ``arc_frequencies.csv`` (:mod:`~bayesbench.report.arcs`) of ``records``
    in task order."""
    return arc_rows(records, *declared_order(records, experiment))


def curve_of(records, experiment: Experiment) -> list[list]:
    """The rows of ``learning_curve.csv`` (:mod:`.learning_curves`)."""
    return curve_rows(records, experiment.metrics, *declared_order(records, experiment))


def _write_pooled(out_dir: Path, experiment: Experiment, records, formats,
                  held=None) -> list[Path]:
    """``pooled.<ext>`` (:mod:`.pooled`), the AUC from the predictions the run kept beside
    ``out_dir`` (those of ``held`` from memory)."""
    rows = pooled_rows(records, experiment.metrics, *declared_order(records, experiment),
                       out_dir.parent if experiment.predictions else None, held)
    files = []
    for fmt in formats:
        files.append(out_dir / f"pooled.{table_format(fmt).extension}")
        files[-1].write_text(render(rows, POOLED_COLUMNS, fmt, caption=POOLED_CAPTION))
    return files


def write_scores(out_dir, long) -> list[Path]:
    """``scores.csv`` (and ``scores.parquet`` when pyarrow is installed): the long frame of
    :func:`~bayesbench.evaluation.store.records_frame` without the run column."""
    frame = long.drop(columns=SCORE_DROPPED, errors="ignore")
    files = [Path(out_dir) / "scores.csv"]
    frame.to_csv(files[0], index=False)
    if importlib.util.find_spec("pyarrow") is not None:
        files.append(Path(out_dir) / "scores.parquet")
        frame.to_parquet(files[1], index=False)
    return files
