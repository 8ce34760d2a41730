"""Panels drawn without matplotlib's axes: a frame, a grid, tick marks and their labels, the
axis titles and a title, as two line collections and a few texts, placed in inches on a
figure, and the transform that draws data in the panel.

An axes builds several artists for every tick and measures every text to lay itself out;
in the figures of many small panels (the fold scores, the scatters against the baseline,
the ROC and calibration panels) that was three quarters of the drawing. A panel here has its ticks
given and its place fixed, so nothing is measured. Used by :mod:`.figures` and
:mod:`.prediction_figures`, inside :func:`~.plotting.styled_figure`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

TICK = 3.5 / 72   # the length of a tick mark, inches (matplotlib's default major tick)
_FRAME, _GRID = "0.0", "0.93"
_DIGIT = 0.6 * 7 / 72  # inches: the width of a digit at font size 7


@dataclass(frozen=True)
class Panel:
    """Where a panel sits (inches from the figure's bottom left corner) and the data range
    it shows."""

    left: float
    bottom: float
    width: float
    height: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]

    def x(self, value: float) -> float:
        return self.left + (value - self.xlim[0]) / (self.xlim[1] - self.xlim[0]) * self.width

    def y(self, value: float) -> float:
        return self.bottom + (value - self.ylim[0]) / (self.ylim[1] - self.ylim[0]) * self.height


@dataclass(frozen=True)
class Labels:
    """A panel's texts: its ``title`` (font size ``title_size``), the axis titles (none when
    empty), the x ticks' labels ``xnames`` (else their values) turned by ``rotation`` degrees
    and ending at their tick when turned; ``xgrid``: whether the x ticks have grid lines."""

    title: str
    xlabel: str = ""
    ylabel: str = ""
    xnames: Sequence[str] | None = None
    rotation: float = 0.0
    xgrid: bool = True
    title_size: float = 9


def tick_labels(ticks) -> list[str]:
    """The ticks printed with as few decimals as tell them apart (at most 6)."""
    for decimals in range(7):
        labels = [f"{t:.{decimals}f}" for t in ticks]
        if all(abs(float(s) - t) < 1e-9 for s, t in zip(labels, ticks)):
            return labels
    return labels


def draw_panel(fig, panel: Panel, xticks, yticks, text: Labels):
    """Draw ``panel``'s grid (below the data), frame and tick marks (above), tick labels
    (font size 7), axis titles (8) and title (:class:`Labels`); return the transform of its
    data."""
    title, xlabel, ylabel = text.title, text.xlabel, text.ylabel
    xnames, rotation, xgrid = text.xnames, text.rotation, text.xgrid
    from matplotlib.collections import LineCollection  # lazy: matplotlib is optional
    from matplotlib.transforms import Affine2D  # lazy: as above

    inches = fig.dpi_scale_trans
    right, top = panel.left + panel.width, panel.bottom + panel.height
    xs, ys = [panel.x(t) for t in xticks], [panel.y(t) for t in yticks]
    grid = ([[(x, panel.bottom), (x, top)] for x in xs] if xgrid else []) + [
        [(panel.left, y), (right, y)] for y in ys]
    frame = [[(panel.left, panel.bottom), (right, panel.bottom), (right, top),
              (panel.left, top), (panel.left, panel.bottom)]]
    marks = ([[(x, panel.bottom), (x, panel.bottom - TICK)] for x in xs]
             + [[(panel.left, y), (panel.left - TICK, y)] for y in ys])
    fig.add_artist(LineCollection(grid, colors=_GRID, linewidths=0.6, transform=inches,
                                  zorder=0.5))
    fig.add_artist(LineCollection(frame + marks, colors=_FRAME, linewidths=0.8,
                                  transform=inches, zorder=2.5))
    turned = {"ha": "right", "rotation": rotation, "rotation_mode": "anchor"} if rotation else {
        "ha": "center"}
    for x, label in zip(xs, tick_labels(xticks) if xnames is None else xnames):
        fig.text(x, panel.bottom - 2 * TICK, label, fontsize=7, va="top", transform=inches,
                 **turned)
    labels = tick_labels(yticks)
    for y, label in zip(ys, labels):
        fig.text(panel.left - 2 * TICK, y, label, fontsize=7, ha="right", va="center",
                 transform=inches)
    if xlabel:
        fig.text(panel.left + panel.width / 2, panel.bottom - 0.25, xlabel, fontsize=8,
                 ha="center", va="top", transform=inches)
    if ylabel:
        # left of the widest tick label: its width estimated from its characters
        widest = max((len(label) for label in labels), default=0) * _DIGIT
        fig.text(panel.left - 2 * TICK - widest - 0.06, panel.bottom + panel.height / 2,
                 ylabel, fontsize=8, ha="center", va="bottom", rotation=90,
                 rotation_mode="anchor", transform=inches)
    fig.text(panel.left + panel.width / 2, top + 0.08, title, fontsize=text.title_size,
             ha="center", va="baseline", transform=inches)
    sx = panel.width / (panel.xlim[1] - panel.xlim[0])
    sy = panel.height / (panel.ylim[1] - panel.ylim[0])
    return (Affine2D().translate(-panel.xlim[0], -panel.ylim[0]).scale(sx, sy)
            .translate(panel.left, panel.bottom) + inches)
