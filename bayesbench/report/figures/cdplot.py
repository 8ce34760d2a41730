"""Demšar's critical-difference diagram.

An axis of average ranks (1 = best, on the left), each classifier joined to
its rank by an elbow line and named at the side, a bar of length CD above the
axis, and thick bars under it joining classifiers the Nemenyi test cannot tell
apart (J. Demšar 2006, Figure 1). Against a control (``control``), the Bonferroni-Dunn
variant instead marks one interval of a CD on either side of the control's rank: a
classifier whose rank lies outside it differs significantly from the control (Demšar's
Figure 2). Drawn with matplotlib, imported only when a
diagram is wanted, in the fixed style of :mod:`.plotting`, so that the same
ranks give the same bytes. :func:`plot_cd` draws a :class:`~..analysis.Comparison`'s,
:func:`draw_cd` any :class:`Diagram`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ...errors import StatsError
from ...stats import cd_groups
from ..analysis import Comparison
from .plotting import FORMATS, save_figure, styled_figure

__all__ = ["Diagram", "draw_cd", "plot_cd"]

# Layout in inches: the axes span the whole figure with one data unit per inch,
# so text and line spacing do not depend on the number of classifiers.
_ROW = 0.30         # vertical distance between two name lines
_GROUP_ROW = 0.11   # vertical distance between two group bars
_CHAR = 0.085       # width of one character of a name at font size 10
_TOP = 0.95         # room above the axis for the CD bar and tick labels
_LINE = dict(color="black", linewidth=1.0, solid_capstyle="butt")


@dataclass(frozen=True)
class _Layout:
    """Where things go, in inches: names of ``side`` width on both sides of the rank axis,
    rank ``lo`` .. ``hi`` spread over ``axis_width``; name lines start ``first_line`` below
    the axis and end at ``bottom``."""

    lo: int
    hi: int
    side: float
    axis_width: float
    first_line: float
    bottom: float
    height: float

    @property
    def width(self) -> float:
        return self.axis_width + 2 * self.side

    def x(self, rank):
        return self.side + (rank - self.lo) / (self.hi - self.lo) * self.axis_width


def _layout(labels: list[str], n_groups: int, n_lines: int, title: str | None) -> _Layout:
    k = len(labels)
    first_line = 0.22 + n_groups * _GROUP_ROW + 0.12
    bottom = first_line + n_lines * _ROW
    return _Layout(lo=1, hi=k, side=max(len(label) for label in labels) * _CHAR + 0.35,
                   axis_width=max(3.2, 0.75 * (k - 1)), first_line=first_line, bottom=bottom,
                   height=_TOP + bottom + (0.35 if title else 0.1))


@dataclass(frozen=True)
class Diagram:
    """What a critical-difference diagram shows: the classifiers' ``names`` at their
    ``average_ranks``, the ``critical_difference``; ``alpha`` and ``n_datasets``, when
    given, are printed beside the CD bar. ``control`` (an index of ``names``) draws the
    Bonferroni-Dunn variant: ``critical_difference`` is then that test's, marked on both
    sides of the control's rank (the SVG group ``control-interval``)."""

    names: Sequence[str]
    average_ranks: Sequence[float]
    critical_difference: float
    alpha: float | None = None
    n_datasets: int | None = None
    control: int | None = None


def plot_cd(result: Comparison, path, *, title: str | None = None,
            control: bool = False) -> Path | list[Path]:
    """Write Demšar's critical-difference diagram of ``result`` (PNG, SVG or PDF by suffix);
    given a list of paths, draw it once and write each (the list of files is returned).
    ``control``: the Bonferroni-Dunn variant against the baseline (Demšar's Figure 2)."""
    if result.nemenyi is None:
        raise StatsError("a critical-difference diagram needs at least 2 data sets and 2 classifiers"
                         + (f" ({result.notes[-1]})" if result.notes else ""))
    cd = result.bonferroni_dunn_cd if control else result.nemenyi.critical_difference
    return draw_cd(Diagram(result.classifiers, result.average_ranks.to_numpy(), cd,
                           alpha=result.alpha, n_datasets=len(result.complete),
                           control=result.classifiers.index(result.baseline) if control else None),
                   path, title=title)


def draw_cd(diagram: Diagram, path, *, title: str | None = None):
    """Write ``diagram`` to ``path``.

    The format follows the suffix (``.png``, ``.svg``, ``.pdf``); a sequence of paths
    writes the same drawing to each (and returns the list).
    """
    critical_difference, control = diagram.critical_difference, diagram.control
    for p in [path] if isinstance(path, (str, os.PathLike)) else path:
        if Path(p).suffix.lower() not in FORMATS:
            raise StatsError(f"{p}: the diagram is written as .png, .svg or .pdf")
    ranks = np.asarray(diagram.average_ranks, dtype=float)
    names = [str(n) for n in diagram.names]
    k = len(names)
    if k < 2 or ranks.shape != (k,):
        raise StatsError("a critical-difference diagram needs one average rank per classifier, k >= 2")
    order = np.argsort(ranks, kind="stable")
    n_left = (k + 1) // 2
    left, right = order[:n_left], order[n_left:][::-1]  # the worst goes nearest the axis on the right
    labels = [f"{names[i]}  ({ranks[i]:.2f})" for i in range(k)]
    groups = cd_groups(ranks, critical_difference) if control is None else [()]
    lay = _layout(labels, len(groups), max(len(left), len(right)), title)
    with styled_figure(lay.width, lay.height) as fig:
        ax = fig.add_axes([0, 0, 1, 1])
        ax.set_xlim(0, lay.width)
        ax.set_ylim(-lay.bottom - 0.05, lay.height - lay.bottom - 0.05)
        ax.axis("off")
        _draw_axis(ax, lay)
        _draw_cd_bar(ax, lay, critical_difference, diagram.alpha, diagram.n_datasets,
                     "Nemenyi" if control is None else "Bonferroni-Dunn")
        _draw_names(ax, lay, ranks, labels, left, right)
        if control is None:
            _draw_groups(ax, lay, ranks, groups)
        else:
            _draw_interval(ax, lay, ranks[control], critical_difference)
        if title:
            ax.text(lay.width / 2, lay.height - lay.bottom - 0.25, title, ha="center", va="center",
                    fontsize=11)
        return save_figure(fig, path)


def _draw_axis(ax, lay: _Layout) -> None:
    """The rank axis with ticks at whole and half ranks."""
    ax.plot([lay.x(lay.lo), lay.x(lay.hi)], [0, 0], **_LINE)
    for r in np.arange(lay.lo, lay.hi + 0.25, 0.5):
        tall = float(r).is_integer()
        ax.plot([lay.x(r), lay.x(r)], [0, 0.10 if tall else 0.05], **_LINE)
        if tall:
            ax.text(lay.x(r), 0.15, f"{int(r)}", ha="center", va="bottom", fontsize=10)


def _draw_cd_bar(ax, lay: _Layout, critical_difference, alpha, n_datasets, test) -> None:
    """The critical difference, as a bar of its length above the axis."""
    y_cd, lo = 0.62, lay.lo
    ax.plot([lay.x(lo), lay.x(lo + critical_difference)], [y_cd, y_cd], color="black", linewidth=1.6)
    for end in (lo, lo + critical_difference):
        ax.plot([lay.x(end), lay.x(end)], [y_cd - 0.06, y_cd + 0.06], **_LINE)
    cd_text = f"CD = {critical_difference:.3f}"
    if alpha is not None:
        cd_text += f" ({test}, \u03b1 = {alpha:g}" + (f", N = {n_datasets})" if n_datasets else ")")
    ax.text(lay.x(lo + critical_difference) + 0.12, y_cd, cd_text, ha="left", va="center", fontsize=9)


def _draw_names(ax, lay: _Layout, ranks, labels, left, right) -> None:
    """Elbow lines from each rank down to the classifier's name, best on the left."""
    for row, i in enumerate(left):
        y = -(lay.first_line + row * _ROW)
        ax.plot([lay.x(ranks[i]), lay.x(ranks[i]), lay.side - 0.15], [0, y, y], **_LINE)
        ax.text(lay.side - 0.2, y, labels[i], ha="right", va="center", fontsize=10)
    for row, i in enumerate(right):
        y = -(lay.first_line + row * _ROW)
        ax.plot([lay.x(ranks[i]), lay.x(ranks[i]), lay.width - lay.side + 0.15], [0, y, y], **_LINE)
        ax.text(lay.width - lay.side + 0.2, y, labels[i], ha="left", va="center", fontsize=10)


def _draw_groups(ax, lay: _Layout, ranks, groups) -> None:
    """Groups the test cannot separate: a thick bar under the axis for each."""
    for g, members in enumerate(groups):
        y = -(0.22 + g * _GROUP_ROW)
        r = ranks[list(members)]
        ax.plot([lay.x(r.min()) - 0.06, lay.x(r.max()) + 0.06], [y, y], color="black", linewidth=3.2,
                solid_capstyle="round")


def _draw_interval(ax, lay: _Layout, rank: float, critical_difference: float) -> None:
    """Demšar's Figure 2: a thick bar one CD to either side of the control's rank (cut at
    the ends of the axis), a tick at the rank itself."""
    lo, hi = max(lay.lo, rank - critical_difference), min(lay.hi, rank + critical_difference)
    ax.plot([lay.x(lo), lay.x(hi)], [-0.22, -0.22], color="black", linewidth=3.2,
            solid_capstyle="butt", gid="control-interval")
    ax.plot([lay.x(rank)] * 2, [-0.32, -0.12], **_LINE)
