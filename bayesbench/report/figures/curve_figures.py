"""The learning-curve figure of each data set (``cv: {train_sizes: [...]}``): one panel per
metric, the mean against the training rows, one line per classifier with a band of one
standard error, from the rows of ``summary/learning_curve.csv``
(:func:`~bayesbench.report.run.learning_curves.curve_rows`)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ...evaluation.metrics import title
from ..html import Figure
from .plotting import colors, save_figure, styled_figure
from .score_figures import slug

__all__ = ["plot_learning_curve", "learning_curve_figures"]

_PANEL = (4.2, 3.2)  # inches per metric's panel


def plot_learning_curve(rows, dataset: str, metrics, classifiers, path) -> list[Path]:
    """One panel per metric of ``dataset``'s rows of :func:`curve_rows`: the mean against the
    training rows, one line per classifier (in the SVG, classifier ``j``'s line in panel
    ``i`` is the group ``curve-<i>-<j>``) with a band of one standard error."""
    palette = colors(len(classifiers))
    columns = min(3, len(metrics))
    nrows = math.ceil(len(metrics) / columns)
    with styled_figure(columns * _PANEL[0], nrows * _PANEL[1]) as fig:
        axes = list(fig.subplots(nrows, columns, squeeze=False).flat)
        for i, (ax, metric) in enumerate(zip(axes, metrics)):
            for j, clf in enumerate(classifiers):
                line = np.array([r[3:4] + r[5:8] for r in rows if r[1] == clf and r[4] == metric],
                                dtype=float).reshape(-1, 4)
                x, mean, se = line[:, 0], line[:, 1], np.nan_to_num(line[:, 3])
                ax.fill_between(x, mean - se, mean + se, color=palette[j], alpha=0.18, linewidth=0)
                ax.plot(x, mean, "o-", markersize=3, linewidth=1.1, color=palette[j], label=clf,
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


def learning_curve_figures(where: Path, rows, metrics, datasets, classifiers,
                           formats=("svg", "png")) -> list:
    """``(figure files, figures for the page)`` of each data set's learning curve, in
    ``formats`` (the first one shown on the page)."""
    files, figures = [], []
    for d in datasets:
        mine = [r for r in rows if r[0] == d]
        if not mine:
            continue
        names = [c for c in classifiers if any(r[1] == c for r in mine)]
        stem = where / f"learning-curve-{slug(d)}"
        files += plot_learning_curve(mine, d, metrics, names,
                                     [stem.with_suffix(f".{name}") for name in formats])
        figures.append(Figure(stem.with_suffix(f".{formats[0]}"), f"{d}: learning curves, every metric "
                              f"against the training rows, with a band of one standard error"))
    return files, figures
