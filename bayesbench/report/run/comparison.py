"""The statistical comparison a run writes: ``<run>/summary/comparison*.<ext>`` with the
config's ``compare`` settings, and, for a config with arms, ``<output>/comparison.*`` of the
classifiers of every arm.

The iterations of a bias-variance decomposition are no folds: its training sets overlap by
design and its test rows are shared, so no fold test is applied to them; its comparison is that
of one score per data set and classifier (the mean over the iterations), the tests over data
sets alone."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd

from ...errors import BayesbenchError
from ...evaluation.metrics import LOWER_IS_BETTER
from ...evaluation.store import (in_task_order, records_to_frame, run_names, task_list,
                                 validation_records)
from ...spec import CompareSpec, Experiment
from ..analysis import compare, compare_scores
from ..render import comparison_tables, render_comparison
from ..tables import render, table_format
from .learning_curves import at_largest
from .records import pooled_records, records_for, small_fold_datasets

__all__ = ["settings_of", "write_comparison", "write_arm_comparison"]


def settings_of(experiment: Experiment) -> CompareSpec:
    """The experiment's ``compare`` settings with its metric named (the first of its
    ``metrics`` unless the settings name one)."""
    return replace(experiment.compare, metric=experiment.compare.metric or experiment.metrics[0])


# Said under the comparison of a decomposition's iterations.
NO_FOLD_TESTS = ("no test over the iterations of the bias-variance decomposition (they are no "
                 "folds: their training sets overlap and their test rows are shared); the "
                 "scores are means over them")


def write_comparison(out_dir, frame, settings: CompareSpec, formats, datasets=(),
                     folds: bool = True):
    """Write ``compare(frame, settings)`` in each format (a comparison that cannot be made
    is written as its one-line reason), the data sets in the order of ``datasets``; a tidy
    format (CSV) as one file per table (``comparison.csv`` the scores,
    ``comparison_<table>.csv`` the others). Without ``folds`` (the tasks are a
    decomposition's iterations), the comparison of each cell's mean, without fold tests.
    Return the files, the comparison (None if it could not be made) and the reason."""
    lower = settings.metric in LOWER_IS_BETTER
    try:
        if folds:
            result = compare(frame, settings, lower_is_better=lower, datasets=list(datasets))
        else:
            result = compare_scores(_means(frame, settings.metric, datasets), settings,
                                    lower_is_better=lower)
            result = replace(result, notes=(NO_FOLD_TESTS, *result.notes))
        reason = ""
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
    # learning curve: its largest size; a bootstrap: not its apparent errors.
    largest = [at_largest(validation_records(in_task_order(records, task_list(d))))
               for d, (_, records) in zip(dirs, runs)]
    frame = records_to_frame([records_for(settings.metric, records, pooled_records(records),
                                          small_fold_datasets(records)) for records in largest],
                             run_names([d.resolve() for d in dirs]), failed=True,
                             metrics=[settings.metric])
    baseline = settings.baseline
    if baseline is not None and "/" not in baseline:
        settings = replace(settings, baseline=f"{dirs[0].name}/{baseline}")
    return write_comparison(dirs[0].parent, frame, settings, formats,
                            [d.name for d in experiment.datasets],
                            folds=experiment.evaluation is None)[0]


def _means(frame: pd.DataFrame, metric: str, datasets) -> pd.DataFrame:
    """Data sets (in the order of ``datasets``, then the others) x classifiers (in the order
    of their first record; a label that several runs share prefixed with its run, as
    :func:`~..analysis.compare` labels them): each cell's mean of ``metric``, NaN where a task
    failed."""
    if frame is None or len(frame) == 0 or metric not in frame:
        raise BayesbenchError(f"no finished records of {metric} to compare")
    ok = frame["status"].fillna("ok").eq("ok")
    label = frame["classifier"].astype(str)
    if "run" in frame:
        shared = frame["run"].astype(str).groupby(label).transform("nunique") > 1
        label = label.where(~shared, frame["run"].astype(str) + "/" + label)
    cells = pd.DataFrame({"dataset": frame["dataset"].astype(str), "label": label,
                          "value": frame[metric].where(ok), "failed": ~ok})
    grouped = cells.groupby(["dataset", "label"], sort=False)
    mean = grouped["value"].mean().where(~grouped["failed"].any()).unstack("label")
    order = [d for d in dict.fromkeys(map(str, datasets)) if d in mean.index]
    mean = mean.reindex(order + sorted(set(mean.index) - set(order)))
    return mean[list(dict.fromkeys(label))]
