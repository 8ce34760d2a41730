"""A run's learning curves (``cv: {train_sizes: [...]}``): every metric at every training size.

Each record of such a run holds its ``train_size`` (as the config gives it: rows or a
fraction of the training part). ``summary/learning_curve.csv`` has a row per data set,
classifier, size and metric (:data:`CURVE_COLUMNS`): the mean number of training rows at that
size (``n_train``), the mean, standard deviation (``ddof=1``) and standard error
(``std / sqrt(folds)``) of the metric over every fold of every repetition, the folds and the
failed tasks. ``figures/learning-curve-<data set>`` draws each metric against the training
rows, one line per classifier with a band of one standard error.

The other tables and the comparison of the run read the records of each data set's largest
size (:func:`at_largest`, the most training rows on average): a comparison pairs folds, and
the folds of two sizes are not two data sets.
"""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from ..evaluation.metrics import record_metric, title
from .figures import _colors
from .html import Figure
from .plotting import save_figure, styled_figure

CURVE_FILE = "learning_curve.csv"
CURVE_COLUMNS = ["dataset", "classifier", "train_size", "n_train", "metric", "mean", "std", "se",
                 "folds", "failed"]
_PANEL = (4.2, 3.2)  # inches per metric's panel


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


def plot_learning_curve(rows, dataset: str, metrics, classifiers, path) -> list[Path]:
    """One panel per metric of ``dataset``'s rows of :func:`curve_rows`: the mean against the
    training rows, one line per classifier (in the SVG, classifier ``j``'s line in panel
    ``i`` is the group ``curve-<i>-<j>``) with a band of one standard error."""
    colors = _colors(len(classifiers))
    columns = min(3, len(metrics))
    nrows = math.ceil(len(metrics) / columns)
    with styled_figure(columns * _PANEL[0], nrows * _PANEL[1]) as fig:
        axes = list(fig.subplots(nrows, columns, squeeze=False).flat)
        for i, (ax, metric) in enumerate(zip(axes, metrics)):
            for j, clf in enumerate(classifiers):
                line = np.array([r[3:4] + r[5:8] for r in rows if r[1] == clf and r[4] == metric],
                                dtype=float).reshape(-1, 4)
                x, mean, se = line[:, 0], line[:, 1], np.nan_to_num(line[:, 3])
                ax.fill_between(x, mean - se, mean + se, color=colors[j], alpha=0.18, linewidth=0)
                ax.plot(x, mean, "o-", markersize=3, linewidth=1.1, color=colors[j], label=clf,
                        gid=f"curve-{i}-{j}")
            _axes(ax, f"{dataset}: {title(metric)}", [r[3] for r in rows])
        for ax in axes[len(metrics):]:  # the panels left over
            ax.set_visible(False)
        fig.tight_layout()
        return save_figure(fig, path, tight=False)


def _axes(ax, heading: str, n_train) -> None:
    n = sorted({v for v in n_train if v == v})
    if n and n[-1] >= 10 * n[0]:  # sizes spread over decades: a log scale shows them all
        ax.set_xscale("log")
    # A tick at each size, labelled plainly (a log axis's labels would be mathtext).
    ax.set_xticks(n, labels=[f"{v:.0f}" for v in n], rotation=45 if len(n) > 6 else 0)
    ax.minorticks_off()
    ax.set_title(heading, fontsize=9)
    ax.set_xlabel("training rows", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(color="0.93", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(fontsize=6.5)


def learning_curve_figures(where: Path, rows, metrics, datasets, classifiers, slug) -> list:
    """``(figure files, figures for the page)`` of each data set's learning curve."""
    files, figures = [], []
    for d in datasets:
        mine = [r for r in rows if r[0] == d]
        if not mine:
            continue
        names = [c for c in classifiers if any(r[1] == c for r in mine)]
        stem = where / f"learning-curve-{slug(d)}"
        files += plot_learning_curve(mine, d, metrics, names,
                                     [stem.with_suffix(".svg"), stem.with_suffix(".png")])
        figures.append(Figure(stem.with_suffix(".svg"), f"{d}: learning curves, every metric "
                              f"against the training rows, with a band of one standard error"))
    return files, figures
