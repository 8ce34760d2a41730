"""Figures of a comparison: fold scores per data set, and each classifier against the baseline.

Both take plain pandas input, so that ``run`` (from its records) and ``compare``
(from a score table) can draw the same figures:

* :func:`plot_fold_scores` reads a long frame with one row per score,
  ``dataset, classifier, repetition, fold, value``, and draws a box plot of the
  fold scores of every classifier with the scores themselves as points, one
  panel per data set (or one file per data set when there are many);
* :func:`plot_against_baseline` reads the mean score of each classifier on each
  data set (:func:`dataset_means` computes it from the long frame) and draws one
  scatter per classifier with the baseline on the x axis and the diagonal
  ``y = x``: points above it are data sets where the classifier scores higher
  (Demšar 2006, section 3.2; Benavoli et al. 2017, figure 1).

The file format follows the suffix (``.png``, ``.svg``, ``.pdf``); the bytes are
the same for the same input (see :mod:`bayesbench.report.plotting`). In the SVG,
the fold scores of classifier ``j`` in panel ``i`` are the group ``scores-<i>-<j>``
and the points of scatter ``i`` the group ``means-<i>``.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ...errors import ReportError
from .panels import Labels, Panel, draw_panel
from .plotting import colors, figure_paths, save_figure, styled_figure

SCORE_COLUMNS = ("dataset", "classifier", "repetition", "fold", "value")

_PANEL_HEIGHT = 2.6   # inches, without the classifier names under the axis
_CHAR = 0.075         # inches per character of a tick label at font size 8
_POINT_SPREAD = 0.36  # width over which the fold scores of one box are spread
# A fold-score panel in its cell: room on the left for the tick labels and the axis title,
# on the right for nothing, above for the title (inches).
_FOLD_LEFT, _FOLD_RIGHT, _FOLD_TOP = 0.62, 0.12, 0.42
# A scatter against the baseline: a cell of _CELL inches square per classifier, the panel a
# square of _CELL_SIDE in it with room for the tick labels, axis titles and title.
_CELL, _CELL_LEFT, _CELL_BOTTOM, _CELL_SIDE = 3.0, 0.62, 0.5, 2.2


def _check_scores(scores: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in SCORE_COLUMNS if c not in scores.columns]
    if missing:
        raise ReportError(f"the score table has no column {', '.join(missing)}; "
                          f"expected {', '.join(SCORE_COLUMNS)}")
    if "metric" in scores.columns and scores["metric"].nunique() > 1:
        raise ReportError("the score table holds several metrics "
                          f"({', '.join(map(str, pd.unique(scores['metric'])))}); select one")
    if scores.empty:
        raise ReportError("the score table is empty")
    frame = scores.loc[:, list(SCORE_COLUMNS)].copy()
    frame["value"] = pd.to_numeric(frame["value"], errors="raise").astype(float)
    return frame


def dataset_means(scores: pd.DataFrame) -> pd.DataFrame:
    """Mean score of each classifier on each data set, over repetitions and folds.

    Rows are data sets and columns classifiers, both in order of first appearance;
    a classifier with no finite score on a data set has NaN there.
    """
    frame = _check_scores(scores)
    means = frame.groupby(["dataset", "classifier"], sort=False)["value"].mean().unstack("classifier")
    return means.reindex(index=pd.unique(frame["dataset"]), columns=pd.unique(frame["classifier"]))


def slug(name: str) -> str:
    """``name`` as a file-name part: letters, digits, ``.``, ``_``, ``-``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", str(name)).strip("_") or "x"


def unique_slugs(names) -> list[str]:
    """A file-name part for each of ``names`` (:func:`slug`), none equal to another's even
    on a file system that ignores case: names that differ only in punctuation or case (a
    data set ``a/b`` and ``a_b``, classifiers ``nb(alpha=1)`` and ``nb(alpha_1)``) get
    ``-2``, ``-3``, ... in the order given, so that no figure overwrites another."""
    slugs, seen = [], set()
    for name in names:
        unique = base = slug(name)
        n = 1
        while unique.lower() in seen:
            n += 1
            unique = f"{base}-{n}"
        seen.add(unique.lower())
        slugs.append(unique)
    return slugs


def _per_dataset_paths(path: Path, datasets) -> list[Path]:
    return [path.with_name(f"{path.stem}-{part}{path.suffix}") for part in unique_slugs(datasets)]


def plot_fold_scores(scores: pd.DataFrame, path, *, metric: str = "score",
                     max_panels: int = 12, columns: int = 4) -> list[Path]:
    """Box plots of the fold scores of every classifier, one panel per data set.

    Parameters
    ----------
    scores : DataFrame
        One row per score with columns ``dataset, classifier, repetition, fold,
        value`` (others are ignored; a ``metric`` column must hold one metric).
        NaN scores (failed tasks) are left out and counted in the panel title.
    path : path-like, or a sequence of them
        Output file; its suffix chooses the format. Several paths write the same
        drawing in several formats.
    metric : str
        Axis label, e.g. ``"accuracy"``.
    max_panels : int
        With more data sets than this, each data set is written to its own file
        ``<stem>-<data set><suffix>`` beside each path instead.
    columns : int
        Panels per row.

    Returns
    -------
    list of Path
        The files written: the paths, or for each data set its file beside each path.
    """
    paths = figure_paths(path)
    frame = _check_scores(scores)
    datasets = list(pd.unique(frame["dataset"]))
    classifiers = list(pd.unique(frame["classifier"]))
    if len(datasets) <= max_panels:
        return _draw_fold_panels(frame, datasets, classifiers, paths, metric, columns)
    beside = [_per_dataset_paths(p, datasets) for p in paths]
    return [out for i, name in enumerate(datasets)
            for out in _draw_fold_panels(frame, [name], classifiers, [b[i] for b in beside], metric, 1)]


def _draw_fold_panels(frame, datasets, classifiers, paths, metric, columns) -> list[Path]:
    k = len(classifiers)
    ncols = min(columns, len(datasets))
    nrows = math.ceil(len(datasets) / ncols)
    longest = max(len(str(c)) for c in classifiers)
    rotate = k > 3 or longest > 8
    # Below each panel the classifiers' names (font size 7): turned by 40 degrees, they reach
    # down 0.64 of their length (sin 40).
    label_room = 0.3 + (longest * _CHAR * 0.55 if rotate else 0.1)
    width = max(2.2, 0.42 * k + 0.9)
    height = _PANEL_HEIGHT + label_room
    ordered = frame.sort_values(["repetition", "fold"], kind="stable")
    with styled_figure(ncols * width, nrows * height) as fig:
        # Panels without axes (.panels), in a fixed grid of cells: nothing to measure.
        for i, name in enumerate(datasets):
            row, col = divmod(i, ncols)
            rows = ordered[ordered["dataset"] == name]
            values = [rows.loc[rows["classifier"] == c, "value"].to_numpy() for c in classifiers]
            limits = _limits(np.concatenate(values))
            panel = Panel(col * width + _FOLD_LEFT, (nrows - 1 - row) * height + label_room,
                          width - _FOLD_LEFT - _FOLD_RIGHT, _PANEL_HEIGHT - _FOLD_TOP,
                          (-0.6, k - 0.4), limits)
            missing = int(sum(np.isnan(v).sum() for v in values))
            data = draw_panel(fig, panel, range(k), _ticks(limits), Labels(
                str(name) + (f" ({missing} failed)" if missing else ""),
                ylabel=metric if col == 0 else "", xnames=[str(c) for c in classifiers],
                rotation=40 if rotate else 0, xgrid=False, title_size=10))
            _fold_boxes(fig, data, [v[~np.isnan(v)] for v in values], f"scores-{i}")
        return save_figure(fig, paths, tight=False)


def _limits(values: np.ndarray) -> tuple[float, float]:
    """The data range of a panel: its finite values and a twentieth of their range around
    them (matplotlib's default margins)."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return (0.0, 1.0)
    lo, hi = float(finite.min()), float(finite.max())
    pad = 0.05 * (hi - lo) if hi > lo else 0.01 * max(abs(hi), 1.0)
    return (lo - pad, hi + pad)


def _fold_boxes(fig, data, values, gid):
    """Each classifier's box plot (quartiles, median, mean, whiskers to the farthest score
    within 1.5 interquartile ranges: matplotlib's ``boxplot``) and its scores as points."""
    from matplotlib.cbook import boxplot_stats  # lazy: matplotlib is optional
    from matplotlib.collections import LineCollection  # lazy: as above
    from matplotlib.lines import Line2D  # lazy: as above

    palette = colors(len(values))
    box, black, means = [], [], []
    for j, v in enumerate(values):
        if not v.size:
            continue
        # Spread the points in fold order rather than at random: same picture every time.
        offsets = np.linspace(-_POINT_SPREAD / 2, _POINT_SPREAD / 2, v.size) if v.size > 1 else [0.0]
        fig.add_artist(Line2D(j + np.asarray(offsets), v, linestyle="none", marker="o",
                              markersize=2.5, alpha=0.55, color=palette[j], markeredgewidth=0,
                              transform=data, zorder=3, gid=f"{gid}-{j}"))
        [st] = boxplot_stats(v, whis=1.5)
        lo, hi, cap = j - 0.3, j + 0.3, 0.15
        box += [[(lo, st["q1"]), (hi, st["q1"]), (hi, st["q3"]), (lo, st["q3"]), (lo, st["q1"])],
                [(j, st["q1"]), (j, st["whislo"])], [(j, st["q3"]), (j, st["whishi"])],
                [(j - cap, st["whislo"]), (j + cap, st["whislo"])],
                [(j - cap, st["whishi"]), (j + cap, st["whishi"])]]
        black.append([(lo, st["med"]), (hi, st["med"])])
        means.append((j, st["mean"]))
    fig.add_artist(LineCollection(box, colors="0.35", linewidths=1.0, transform=data, zorder=2))
    fig.add_artist(LineCollection(black, colors="black", linewidths=1.0, transform=data,
                                  zorder=2))
    if means:
        x, y = zip(*means)
        fig.add_artist(Line2D(x, y, linestyle="none", marker="D", markersize=3.5,
                              markerfacecolor="white", markeredgecolor="black",
                              transform=data, zorder=3))


def plot_against_baseline(means: pd.DataFrame, baseline: str, path, *, metric: str = "score",
                          higher_is_better: bool = True, columns: int = 4):
    """One scatter per classifier: its mean score against the baseline's, per data set.

    Parameters
    ----------
    means : DataFrame
        Mean scores, one row per data set and one column per classifier (as
        :func:`dataset_means` returns). Data sets where either score is NaN are
        left out of that panel and counted in its title.
    baseline : str
        The column drawn on every x axis.
    path : path-like, or a sequence of them
        Output file; its suffix chooses the format. Several paths write the same
        drawing in several formats (and the list of them is returned).
    metric : str
        Axis label.
    higher_is_better : bool
        Which side of the diagonal counts as a win of the classifier; the count of
        data sets on each side is printed in the panel.
    columns : int
        Panels per row.
    """
    figure_paths(path)  # a wrong suffix is refused before anything is drawn
    if baseline not in means.columns:
        raise ReportError(f"baseline '{baseline}' is not among the classifiers: "
                          f"{', '.join(map(str, means.columns))}")
    others = [c for c in means.columns if c != baseline]
    if not others:
        raise ReportError("a scatter against the baseline needs at least one other classifier")
    values = means.to_numpy(dtype=float)
    if not np.isfinite(values).any():
        raise ReportError("no finite mean score to draw")
    limits = _limits(values)
    ncols = min(columns, len(others))
    nrows = math.ceil(len(others) / ncols)
    with styled_figure(_CELL * ncols, _CELL * nrows) as fig:
        # Panels without axes (.panels), in a fixed grid of cells: nothing to measure.
        against = _Against(str(baseline), means[baseline].to_numpy(float), metric,
                           higher_is_better, _ticks(limits))
        for i, clf in enumerate(others):
            row, col = divmod(i, ncols)
            panel = Panel(col * _CELL + _CELL_LEFT, (nrows - 1 - row) * _CELL + _CELL_BOTTOM,
                          _CELL_SIDE, _CELL_SIDE, limits, limits)
            _baseline_panel(fig, panel, against, str(clf), means[clf].to_numpy(float),
                            f"means-{i}")
        return save_figure(fig, path, tight=False)


def _ticks(limits) -> list[float]:
    """The ticks matplotlib's default locator puts within ``limits`` on a panel this size."""
    from matplotlib.ticker import MaxNLocator  # lazy: matplotlib is optional
    ticks = MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]).tick_values(*limits)
    return [float(t) for t in ticks if limits[0] <= t <= limits[1]]


class _Against(NamedTuple):
    """What every scatter of :func:`plot_against_baseline` shares: the baseline, its means
    (the x values), the metric, which side of the diagonal wins, the ticks of both axes."""

    baseline: str
    x: np.ndarray
    metric: str
    higher_is_better: bool
    ticks: list


def _baseline_panel(fig, panel, against: _Against, clf, y, gid):
    """The scatter of ``clf``'s means ``y`` against the baseline's in ``panel``."""
    from matplotlib.lines import Line2D  # lazy: matplotlib is optional

    baseline, x, metric, higher_is_better, ticks = against
    both = np.isfinite(x) & np.isfinite(y)
    x, y, left_out = x[both], y[both], int((~both).sum())
    diff = y - x if higher_is_better else x - y
    tie = np.isclose(y, x, rtol=0.0, atol=1e-12)
    wins, losses, ties = int(((diff > 0) & ~tie).sum()), int(((diff < 0) & ~tie).sum()), int(tie.sum())
    title = f"{clf} vs {baseline}"
    notes = ([f"{ties} tied"] if ties else []) + ([f"{left_out} without both"] if left_out else [])
    data = draw_panel(fig, panel, ticks, ticks,
                      Labels(title + (f" ({', '.join(notes)})" if notes else ""),
                             f"{baseline} ({metric})", f"{clf} ({metric})"))
    fig.add_artist(Line2D(panel.xlim, panel.ylim, linestyle="--", color="0.55", linewidth=0.8,
                          transform=data, zorder=1))
    fig.add_artist(Line2D(x, y, linestyle="none", marker="o", markersize=4, color="#1f77b4",
                          alpha=0.8, markeredgewidth=0, transform=data, zorder=3, gid=gid))
    # Wins sit above the diagonal when higher is better, below it otherwise.
    win_corner, loss_corner = ((0.04, 0.96), (0.96, 0.04)) if higher_is_better else ((0.96, 0.04), (0.04, 0.96))
    for (cx, cy), text in ((win_corner, f"{clf} better: {wins}"), (loss_corner, f"{baseline} better: {losses}")):
        fig.text(panel.left + cx * panel.width, panel.bottom + cy * panel.height, text,
                 transform=fig.dpi_scale_trans, fontsize=7.5, color="0.25",
                 ha="left" if cx < 0.5 else "right", va="top" if cy > 0.5 else "bottom")
