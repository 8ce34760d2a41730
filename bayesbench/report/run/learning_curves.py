"""A run's learning curves (``cv: {train_sizes: [...]}``): every metric at every training size.

Each record of such a run holds its ``train_size`` (as the config gives it: rows or a
fraction of the training part). ``summary/learning_curve.csv`` has a row per data set,
classifier, size and metric (:data:`CURVE_COLUMNS`): the mean number of training rows at that
size (``n_train``), the mean, standard deviation (``ddof=1``) and standard error
(``std / sqrt(folds)``) of the metric over every fold of every repetition, the folds and the
failed tasks. ``figures/learning-curve-<data set>`` draws each metric against the training
rows, one line per classifier with a band of one standard error
(:mod:`~bayesbench.report.figures.curve_figures`).

The other tables and the comparison of the run read the records of each data set's largest
size (:func:`at_largest`, the most training rows on average): a comparison pairs folds, and
the folds of two sizes are not two data sets.
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from ...evaluation.metrics import record_metric

__all__ = ["CURVE_FILE", "CURVE_COLUMNS", "has_curve", "at_largest", "curve_rows"]

CURVE_FILE = "learning_curve.csv"
CURVE_COLUMNS = ["dataset", "classifier", "train_size", "n_train", "metric", "mean", "std", "se",
                 "folds", "failed"]


def has_curve(records) -> bool:
    return any("train_size" in r for r in records)


def at_largest(records) -> list[dict]:
    """``records`` restricted, on each data set of a learning curve, to its largest size (the
    most training rows on average over its finished tasks); the others as they are."""
    if not has_curve(records):
        return list(records)
    rows = defaultdict(list)
    for r in records:
        if "train_size" in r and r["status"] == "ok":
            rows[r["dataset"], r["train_size"]].append(r["n_train"])
    best = {}
    for (dataset, size), n in rows.items():
        if dataset not in best or np.mean(n) > best[dataset][1]:
            best[dataset] = size, float(np.mean(n))
    return [r for r in records if "train_size" not in r
            or r["train_size"] == best.get(r["dataset"], (r["train_size"],))[0]]


def curve_rows(records, metrics, datasets, classifiers) -> list[list]:
    """The rows of ``learning_curve.csv`` (:data:`CURVE_COLUMNS`), data sets and classifiers
    in the orders given, sizes by increasing training rows."""
    cells = defaultdict(list)
    for r in records:
        if "train_size" in r:
            cells[r["dataset"], r["classifier"], r["train_size"]].append(r)
    rows = []
    for d in datasets:
        for c in classifiers:
            sizes = [(s, rs) for (d2, c2, s), rs in cells.items() if (d2, c2) == (d, c)]
            sizes.sort(key=lambda item: _mean_rows(item[1]))
            rows += [[d, c, size, _mean_rows(rs), m, *_spread(rs, m)]
                     for size, rs in sizes for m in metrics]
    return rows


def _mean_rows(records) -> float:
    n = [r["n_train"] for r in records if r["status"] == "ok"]
    return float(np.mean(n)) if n else math.nan


def _spread(records, metric) -> list:
    """``[mean, std, se, folds, failed]`` of ``metric`` over ``records``."""
    ok = [r for r in records if r["status"] == "ok"]
    v = np.array([record_metric(r, metric) for r in ok], dtype=float)
    v = v[~np.isnan(v)]
    mean = float(v.mean()) if v.size else math.nan
    std = float(v.std(ddof=1)) if v.size > 1 else math.nan
    return [mean, std, std / math.sqrt(v.size), int(v.size), len(records) - len(ok)]
