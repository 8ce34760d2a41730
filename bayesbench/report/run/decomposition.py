"""The bias-variance decomposition of a run with ``evaluation: {kind: bias_variance}``:
``summary/bias_variance.<ext>`` and its section of report.html (its figure:
:mod:`~bayesbench.report.figures.decomposition_figure`).

The decomposition (:func:`~bayesbench.stats.bias_variance.kohavi_wolpert`) is computed from
the test predictions every task kept (:mod:`~bayesbench.evaluation.predictions`): for each
data set and classifier, how often each test row was predicted as each class over the
iterations of one decomposition. With ``repeats`` independent decompositions, each quantity is
their mean with its standard error (their standard deviation, ``ddof=1``, over the square root
of their number; undefined with one). A data set and classifier with a failed task has no row:
its decomposition would rest on fewer classifications of some rows than of others.

No test compares classifiers across the repeats: they reuse one data set, so their spread is
that of the draws of training sets, not of the data (the reason the corrected t-test exists
for folds), and a t-test on them would find any difference significant with enough repeats.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...evaluation.bias_variance_sets import repeat_of
from ...evaluation.predictions import kept_arrays, promises, task_files
from ...stats.bias_variance import kohavi_wolpert
from ..html import Section, Table
from ..tables import render, table_format

__all__ = ["COLUMNS", "STEM", "caption", "decomposition_rows", "write_tables", "section"]

QUANTITIES = ("error", "bias", "variance", "sigma")
# Each quantity's mean over the decompositions, then its standard error, and their number.
COLUMNS = ["dataset", "classifier", *(f"{q}{s}" for q in QUANTITIES for s in ("", "_se")),
           "repeats"]
STEM = "bias_variance"  # summary/bias_variance.<ext>


def caption(evaluation) -> str:
    how = ("Weka's BVDecompose: training sets of half a training pool of "
           if evaluation.method == "kohavi_wolpert" else
           "Webb's sub-sampled cross-validation (Weka's BVDecomposeSegCVSub): training sets of ")
    over = ("" if evaluation.repeats == 1 else
            f"; mean ± standard error over {evaluation.repeats} independent decompositions")
    return (f"Kohavi-Wolpert bias-variance decomposition of 0-1 loss over "
            f"{evaluation.iterations} iterations, {how}{evaluation.train_fraction:g} of the "
            f"data (bias = bias squared, sigma = irreducible error, zero with one label per "
            f"row){over}")


def decomposition_rows(run_dir, records, datasets, classifiers, evaluation,
                       held=None) -> list[list]:
    """The rows of :data:`COLUMNS` of every data set and classifier (in the given orders)
    whose tasks all finished with their predictions; ``held`` (``{task id: arrays}``):
    those still in memory, not read back from their files."""
    files, cells, held = task_files(run_dir), {}, held or {}
    for r in records:
        cells.setdefault((r["dataset"], r["classifier"]), []).append(r)
    rows = []
    for d in datasets:
        for c in classifiers:
            rs = cells.get((d, c), [])
            # A failed task, or one that kept no predictions: no row. One whose record
            # promises its file is read as it promises it (a missing or changed file is an
            # error, not a row left out).
            if not rs or any(not promises(r) and r["task_id"] not in held for r in rs):
                continue
            repeats = {}
            for r in rs:
                repeats.setdefault(repeat_of(r["repetition"], evaluation), []).append(r)
            each = np.array([kohavi_wolpert(*_counts([kept_arrays(run_dir, r, files, held)
                                                      for r in own], len(own[0]["classes"])))
                             for own in repeats.values()])
            rows.append([d, c, *_mean_and_se(each), len(each)])
    return rows


def _mean_and_se(each: np.ndarray) -> list[float]:
    """Each column's mean and standard error, interleaved (NaN errors with one row)."""
    mean = each.mean(axis=0)
    se = (each.std(axis=0, ddof=1) / np.sqrt(each.shape[0]) if each.shape[0] > 1
          else np.full(each.shape[1], np.nan))
    return [float(v) for pair in zip(mean, se) for v in pair]


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
    the table in each other format of ``formats`` (``mean ± se`` cells with repeats)."""
    files = []
    for fmt in dict.fromkeys(("csv", *formats)):
        form = table_format(fmt)
        files.append(Path(out_dir) / f"{STEM}.{form.extension}")
        shown, headers = (rows, COLUMNS) if form.tidy else _cells(rows, form.plus_minus)
        files[-1].write_text(render(shown, headers, fmt, caption=caption(evaluation)))
    return files


def _cells(rows, plus_minus: str = "±") -> tuple[list[list], list[str]]:
    """Rows of the text formats: each quantity as ``mean ± se`` (the mean alone with one
    decomposition), and the headers."""
    out = []
    for r in rows:
        pairs = [(r[i], r[i + 1]) for i in range(2, 2 + 2 * len(QUANTITIES), 2)]
        out.append(r[:2] + [f"{m:.4f}" if np.isnan(se) else f"{m:.4f} {plus_minus} {se:.4f}"
                            for m, se in pairs])
    return out, ["dataset", "classifier", *QUANTITIES]


def section(rows, evaluation, figures, missing=()) -> Section:
    """The report's section of the decomposition; ``missing``: the ``(data set, classifier)``
    pairs left out for a failed task."""
    text = caption(evaluation) + "."
    if missing:
        text += ("\n\nNo decomposition (a task failed): "
                 + ", ".join(f"{c} on {d}" for d, c in missing) + ".")
    shown, headers = _cells(rows)
    return Section("Bias-variance decomposition", text=text,
                   tables=[Table(STEM, headers=headers, rows=shown)], figures=figures)
