"""The statistical comparison a run writes: ``<run>/summary/comparison*.<ext>`` with the
config's ``compare`` settings, and, for a config with arms, ``<output>/comparison.*`` of the
classifiers of every arm."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...errors import BayesbenchError
from ...evaluation.metrics import LOWER_IS_BETTER
from ...evaluation.store import in_task_order, records_to_frame, run_names, task_list
from ...spec import CompareSpec, Experiment
from ..analysis import compare
from ..render import comparison_tables, render_comparison
from ..tables import render, table_format
from .learning_curves import at_largest
from .records import pooled_records, records_for, small_fold_datasets

__all__ = ["settings_of", "write_comparison", "write_arm_comparison"]


def settings_of(experiment: Experiment) -> CompareSpec:
    """The experiment's ``compare`` settings with its metric named (the first of its
    ``metrics`` unless the settings name one)."""
    return replace(experiment.compare, metric=experiment.compare.metric or experiment.metrics[0])


def write_comparison(out_dir, frame, settings: CompareSpec, formats, datasets=()):
    """Write ``compare(frame, settings)`` in each format (a comparison that cannot be made
    is written as its one-line reason), the data sets in the order of ``datasets``; a tidy
    format (CSV) as one file per table (``comparison.csv`` the scores,
    ``comparison_<table>.csv`` the others). Return the files, the comparison (None if it
    could not be made) and the reason."""
    try:
        result, reason = compare(frame, settings, lower_is_better=settings.metric in LOWER_IS_BETTER,
                                 datasets=list(datasets)), ""
    except BayesbenchError as exc:
        result, reason = None, f"no statistical comparison: {exc}"
    files = []
    for fmt in formats:
        form = table_format(fmt)
        if form.tidy and result is not None:
            for table in comparison_tables(result, fmt):
                stem = "comparison" if table.name == "scores" else f"comparison_{table.name}"
                files.append(Path(out_dir) / f"{stem}.{form.extension}")
                files[-1].write_text(render(table.rows, table.headers, fmt))
            continue
        files.append(Path(out_dir) / f"comparison.{form.extension}")
        files[-1].write_text(render_comparison(result, fmt) if result is not None else
                             render([[reason]], ["note"], fmt) if form.tidy else reason + "\n")
    return files, result, reason


def write_arm_comparison(experiment: Experiment, runs, formats) -> list[Path]:
    """``<output>/comparison.*``: the classifiers of every arm of ``experiment`` compared,
    labelled ``<arm>/<classifier>``; ``runs`` holds each arm's ``(run_dir, records)``."""
    dirs = [Path(run_dir) for run_dir, _ in runs]
    settings = settings_of(experiment)
    # Each arm's records in their canonical order (as its own summary reads them); a
    # learning curve: its largest size.
    largest = [at_largest(in_task_order(records, task_list(d))) for d, (_, records) in
               zip(dirs, runs)]
    frame = records_to_frame([records_for(settings.metric, records, pooled_records(records),
                                          small_fold_datasets(records)) for records in largest],
                             run_names([d.resolve() for d in dirs]), failed=True,
                             metrics=[settings.metric])
    baseline = settings.baseline
    if baseline is not None and "/" not in baseline:
        settings = replace(settings, baseline=f"{dirs[0].name}/{baseline}")
    return write_comparison(dirs[0].parent, frame, settings, formats,
                            [d.name for d in experiment.datasets])[0]
