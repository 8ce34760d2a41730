"""The figure of a bias-variance decomposition (``evaluation: {kind: bias_variance}``):
stacked bias² and variance bars per classifier, one panel per data set, from the rows of
``summary/bias_variance.csv`` (:mod:`~bayesbench.report.run.decomposition`)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..html import Figure
from .plotting import FIGURES, figure_paths, save_figure, styled_figure

__all__ = ["plot_bias_variance", "draw_decomposition"]

STEM = "bias_variance"  # figures/bias_variance.svg, .png, ...


def plot_bias_variance(rows, path, columns) -> list[Path]:
    """Stacked bars of bias² (below) and variance (above) of every classifier, one panel per
    data set (``rows`` of the table whose column names are ``columns``); their sum is the
    error when the estimate of bias² needs no correction."""
    bias_at, variance_at = columns.index("bias"), columns.index("variance")
    paths = figure_paths(path)
    datasets = list(dict.fromkeys(r[0] for r in rows))
    with styled_figure(1.0 + 2.6 * len(datasets), 3.2) as fig:
        axes = fig.subplots(1, len(datasets), squeeze=False)[0]
        for ax, d in zip(axes, datasets):
            mine = [r for r in rows if r[0] == d]
            x = np.arange(len(mine))
            bias = np.array([r[bias_at] for r in mine])
            ax.bar(x, bias, color="#4c72b0", label="bias²")
            ax.bar(x, [r[variance_at] for r in mine], bottom=bias, color="#dd8452",
                   label="variance")
            ax.set_xticks(x, [r[1] for r in mine], rotation=45, ha="right")
            ax.set_title(d)
        axes[0].set_ylabel("0-1 loss")
        axes[-1].legend(loc="upper right", fontsize=7)
        return save_figure(fig, paths)


def draw_decomposition(run_dir, rows, columns,
                       formats=("svg", "png")) -> tuple[list[Path], list[Figure]]:
    """The figure's files (in ``formats``) in ``<run>/figures`` and the report's figure (the
    first format's)."""
    where = Path(run_dir) / FIGURES
    where.mkdir(parents=True, exist_ok=True)
    files = plot_bias_variance(rows, [where / f"{STEM}.{name}" for name in formats], columns)
    return files, [Figure(where / f"{STEM}.{formats[0]}", "bias² (below) and variance (above) of "
                                                  "each classifier, per data set")]
