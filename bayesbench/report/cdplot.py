"""Demšar's critical-difference diagram.

An axis of average ranks (1 = best, on the left), each classifier joined to
its rank by an elbow line and named at the side, a bar of length CD above the
axis, and thick bars under it joining classifiers the Nemenyi test cannot tell
apart (J. Demšar 2006, Figure 1). Drawn with matplotlib, imported only when a
diagram is wanted, in the fixed style of :mod:`.plotting`, so that the same
ranks give the same bytes.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import StatsError
from ..stats import cd_groups
from .plotting import save_figure, styled_figure

# Layout in inches: the axes span the whole figure with one data unit per inch,
# so text and line spacing do not depend on the number of classifiers.
_ROW = 0.30         # vertical distance between two name lines
_GROUP_ROW = 0.11   # vertical distance between two group bars
_CHAR = 0.085       # width of one character of a name at font size 10
_TOP = 0.95         # room above the axis for the CD bar and tick labels


def plot_cd(names, average_ranks, critical_difference: float, path, *, alpha: float | None = None,
            n_datasets: int | None = None, title: str | None = None) -> Path:
    """Write the diagram for ``names`` at ``average_ranks`` to ``path``.

    The format follows the suffix (``.png``, ``.svg``, ``.pdf``). ``alpha`` and
    ``n_datasets``, when given, are printed beside the CD bar.
    """
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise StatsError(f"{path}: the diagram is written as .png, .svg or .pdf")
    ranks = np.asarray(average_ranks, dtype=float)
    names = [str(n) for n in names]
    k = len(names)
    if k < 2 or ranks.shape != (k,):
        raise StatsError("a critical-difference diagram needs one average rank per classifier, k >= 2")

    order = np.argsort(ranks, kind="stable")
    n_left = (k + 1) // 2
    left, right = order[:n_left], order[n_left:][::-1]  # the worst goes nearest the axis on the right
    labels = {i: f"{names[i]}  ({ranks[i]:.2f})" for i in range(k)}
    side = max(len(labels[i]) for i in range(k)) * _CHAR + 0.35
    lo, hi = 1, k
    axis_width = max(3.2, 0.75 * (hi - lo))
    width = axis_width + 2 * side

    def x(rank):
        return side + (rank - lo) / (hi - lo) * axis_width

    groups = cd_groups(ranks, critical_difference)
    first_line = 0.22 + len(groups) * _GROUP_ROW + 0.12
    bottom = first_line + max(len(left), len(right)) * _ROW
    height = _TOP + bottom + (0.35 if title else 0.1)

    with styled_figure(width, height) as fig:
        ax = fig.add_axes([0, 0, 1, 1])
        ax.set_xlim(0, width)
        ax.set_ylim(-bottom - 0.05, height - bottom - 0.05)
        ax.axis("off")
        line = dict(color="black", linewidth=1.0, solid_capstyle="butt")

        # The rank axis with ticks at whole and half ranks.
        ax.plot([x(lo), x(hi)], [0, 0], **line)
        for r in np.arange(lo, hi + 0.25, 0.5):
            tall = float(r).is_integer()
            ax.plot([x(r), x(r)], [0, 0.10 if tall else 0.05], **line)
            if tall:
                ax.text(x(r), 0.15, f"{int(r)}", ha="center", va="bottom", fontsize=10)

        # The critical difference, as a bar of its length above the axis.
        y_cd = 0.62
        ax.plot([x(lo), x(lo + critical_difference)], [y_cd, y_cd], color="black", linewidth=1.6)
        for end in (lo, lo + critical_difference):
            ax.plot([x(end), x(end)], [y_cd - 0.06, y_cd + 0.06], **line)
        cd_text = f"CD = {critical_difference:.3f}"
        if alpha is not None:
            cd_text += f" (Nemenyi, \u03b1 = {alpha:g}" + (f", N = {n_datasets})" if n_datasets else ")")
        ax.text(x(lo + critical_difference) + 0.12, y_cd, cd_text, ha="left", va="center", fontsize=9)

        # Elbow lines from each rank down to the classifier's name.
        for row, i in enumerate(left):
            y = -(first_line + row * _ROW)
            ax.plot([x(ranks[i]), x(ranks[i]), side - 0.15], [0, y, y], **line)
            ax.text(side - 0.2, y, labels[i], ha="right", va="center", fontsize=10)
        for row, i in enumerate(right):
            y = -(first_line + row * _ROW)
            ax.plot([x(ranks[i]), x(ranks[i]), width - side + 0.15], [0, y, y], **line)
            ax.text(width - side + 0.2, y, labels[i], ha="left", va="center", fontsize=10)

        # Groups the test cannot separate: a thick bar under the axis for each.
        for g, members in enumerate(groups):
            y = -(0.22 + g * _GROUP_ROW)
            r = ranks[list(members)]
            ax.plot([x(r.min()) - 0.06, x(r.max()) + 0.06], [y, y], color="black", linewidth=3.2,
                    solid_capstyle="round")

        if title:
            ax.text(width / 2, height - bottom - 0.25, title, ha="center", va="center", fontsize=11)
        return save_figure(fig, path)
