"""The bias-variance decomposition of a run with ``evaluation: {kind: bias_variance}``:
``summary/bias_variance.<ext>`` and its section of report.html (its figure:
:mod:`~bayesbench.report.figures.decomposition_figure`).

The decomposition (:func:`~bayesbench.stats.bias_variance.kohavi_wolpert`) is computed from
the test predictions every task kept (:mod:`~bayesbench.evaluation.predictions`): for each
data set and classifier, how often each test row was predicted as each class over the
iterations. A data set and classifier with a failed task has no row: its decomposition
would rest on fewer classifications of some rows than of others.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...evaluation.predictions import kept_arrays, promises, task_files
from ...stats.bias_variance import kohavi_wolpert
from ..html import Section, Table
from ..tables import render, table_format

__all__ = ["COLUMNS", "STEM", "caption", "decomposition_rows", "write_tables", "section"]

COLUMNS = ["dataset", "classifier", "error", "bias", "variance", "sigma"]
STEM = "bias_variance"  # summary/bias_variance.<ext>


def caption(evaluation) -> str:
    how = ("Weka's BVDecompose: training sets of half a training pool of "
           if evaluation.method == "kohavi_wolpert" else
           "Webb's sub-sampled cross-validation (Weka's BVDecomposeSegCVSub): training sets of ")
    return (f"Kohavi-Wolpert bias-variance decomposition of 0-1 loss over "
            f"{evaluation.iterations} iterations, {how}{evaluation.train_fraction:g} of the "
            f"data (bias = bias squared, sigma = irreducible error, zero with one label per row)")


def decomposition_rows(run_dir, records, datasets, classifiers, held=None) -> list[list]:
    """``[dataset, classifier, error, bias, variance, sigma]`` of every data set and
    classifier (in the given orders) whose tasks all finished with their predictions;
    ``held`` (``{task id: arrays}``): those still in memory, not read back from their files."""
    files, cells, held = task_files(run_dir), {}, held or {}
    for r in records:
        cells.setdefault((r["dataset"], r["classifier"]), []).append(r)
    rows = []
    for d in datasets:
        for c in classifiers:
            rs = cells.get((d, c), [])
            if not rs or any(not promises(r) and r["task_id"] not in held for r in rs):
                continue
            true, counts = _counts([kept_arrays(run_dir, r, files, held) for r in rs],
                                   len(rs[0]["classes"]))
            rows.append([d, c, *kohavi_wolpert(true, counts)])
    return rows


def _counts(parts, n_classes: int):
    """Each test row's true class, and how often it was predicted as each class."""
    rows = np.concatenate([p["row"] for p in parts])
    index, where = np.unique(rows, return_inverse=True)
    counts = np.zeros((index.size, n_classes))
    np.add.at(counts, (where, np.concatenate([p["predicted"] for p in parts])), 1.0)
    true = np.empty(index.size, dtype=np.int64)
    true[where] = np.concatenate([p["true"] for p in parts])
    return true, counts


def write_tables(out_dir, rows, evaluation, formats) -> list[Path]:
    """``bias_variance.csv`` (always, full precision: a table of numbers for scripts) and
    the table in each other format of ``formats``."""
    files = []
    for fmt in dict.fromkeys(("csv", *formats)):
        files.append(Path(out_dir) / f"{STEM}.{table_format(fmt).extension}")
        files[-1].write_text(render(rows, COLUMNS, fmt, caption=caption(evaluation)))
    return files


def section(rows, evaluation, figures, missing=()) -> Section:
    """The report's section of the decomposition; ``missing``: the ``(data set, classifier)``
    pairs left out for a failed task."""
    text = caption(evaluation) + "."
    if missing:
        text += ("\n\nNo decomposition (a task failed): "
                 + ", ".join(f"{c} on {d}" for d, c in missing) + ".")
    return Section("Bias-variance decomposition", text=text,
                   tables=[Table(STEM, headers=COLUMNS,
                                 rows=[r[:2] + [f"{v:.4f}" for v in r[2:]] for r in rows])],
                   figures=figures)
