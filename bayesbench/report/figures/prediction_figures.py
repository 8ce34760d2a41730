"""The figure of a run's kept predictions (``predictions: true``), one file per data set.

:func:`plot_predictions` draws three panels of every classifier with probabilities, over
every test prediction of every fold and repetition, pooled:

* the ROC curve, one-vs-rest: on a two-class data set that of the second class (the first
  class's is its mirror image), on more classes the micro-average (every class's scores
  against its one-vs-rest labels, stacked: scikit-learn's ``average="micro"``), its area in
  the legend;
* the precision-recall curve of the same scores, its average precision in the legend;
* the reliability diagram of each classifier's most probable class (fraction right against
  mean confidence, 10 equal-width bins) with its expected calibration error.

Areas and errors are computed from all the rows (:mod:`~bayesbench.evaluation.curves`); a
curve of many thousand steps is drawn through at most 2,000 of its points. One figure of
three panels per data set, not one per class and kind, drawn without matplotlib's axes
(:mod:`.panels`; legends as lines and texts): the axes, their ticks and legends were three
quarters of the figure's time, and the figures a tenth of a
small run's (benchmarks/bench_predictions.py). In the SVG, classifier ``j``'s
curve in panel ``i`` (0 ROC, 1 precision-recall, 2 reliability) is the group
``curve-<i>-<j>``.
"""
from __future__ import annotations

import numpy as np

from ...evaluation.curves import both_curves, calibration, thinned, top_label
from .panels import Labels, Panel, draw_panel
from .plotting import colors, save_figure, styled_figure

BINS = 10
TICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)  # of both axes of every panel
LIMITS = (-0.02, 1.02)  # of both axes of every panel
# The figure and its three panels, in inches from its bottom left corner: each panel a square
# with room for its tick labels and axis titles (font size 8) and its title (9) around it.
_WIDTH, _HEIGHT = 11.5, 3.9
_LEFT, _BOTTOM, _SIDE, _GAP = 0.58, 0.51, 3.14, 0.69
# The width of a character at font size 1 (a legend's box is sized from its longest line).
_CHAR = 0.55 / 72
_LEGEND = 6.5            # its font size
_MARKER = {"marker": "o", "markersize": 3}
_PANELS = (("false positive rate", "true positive rate", "lower right"),
           ("recall", "precision", "lower left"),
           ("mean confidence (bin of 0.1)", "fraction right", "upper left"))


def one_vs_rest(y, proba) -> tuple[np.ndarray, np.ndarray]:
    """``(positive, score)`` of the ROC and precision-recall curves drawn: the second class
    against the first on two classes, else every class against its rest, stacked."""
    y, proba = np.asarray(y), np.asarray(proba, dtype=np.float64)
    if proba.shape[1] == 2:
        return y == 1, proba[:, 1]
    return (y[:, None] == np.arange(proba.shape[1])).ravel(), proba.ravel()


def drawable(y, n_classes: int) -> bool:
    """Whether the curves exist: positive and negative rows in :func:`one_vs_rest`."""
    counts = np.bincount(np.asarray(y), minlength=n_classes)
    return bool(counts[1] and counts[0]) if n_classes == 2 else bool((counts > 0).sum() >= 2)


def panel_curves(scored):
    """Per panel, the ``(x, y, label, marked)`` of each ``(classifier, y, proba)`` of
    ``scored`` (class codes and probabilities of every kept test row): all the arithmetic of
    the figure, and no matplotlib, so that a run computes it while it draws its other
    figures."""
    panels = ([], [], [])
    for clf, y, proba in scored:
        (fpr, tpr), auc, (precision, recall), ap = both_curves(*one_vs_rest(y, proba))
        observed, predicted, ece = calibration(*top_label(y, proba), BINS)
        panels[0].append((*thinned(fpr, tpr), f"{clf} (AUC {auc:.3f})", False))
        panels[1].append((*_steps(*thinned(recall, precision)), f"{clf} (AP {ap:.3f})", False))
        panels[2].append((predicted, observed, f"{clf} (ECE {ece:.3f})", True))
    return panels


def _steps(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the staircase through ``(x, y)`` that steps after each point (what
    matplotlib's ``drawstyle="steps-post"`` draws)."""
    return np.repeat(x, 2)[1:], np.repeat(y, 2)[:-1]


def plot_predictions(curves, dataset: str, classes, path) -> list:
    """The ROC, precision-recall and reliability panels on ``dataset`` of the classifiers
    whose ``curves`` (:func:`panel_curves`; probabilities in ``classes``' order) are given;
    returns the files."""
    palette = colors(len(curves[0]))
    which = (f"{classes[1]} vs {classes[0]}" if len(classes) == 2 else
             "one-vs-rest, micro-average")
    titles = (f"{dataset}: ROC ({which})", f"{dataset}: precision-recall",
              f"{dataset}: reliability of the predicted class")
    with styled_figure(_WIDTH, _HEIGHT) as fig:
        # Panels without axes (:mod:`.panels`): each curve a line in its panel's coordinates.
        from matplotlib.lines import Line2D  # lazy: matplotlib is optional

        for i, (curves, title, (xlabel, ylabel, corner)) in enumerate(
                zip(curves, titles, _PANELS)):
            panel = Panel(_LEFT + i * (_SIDE + _GAP), _BOTTOM, _SIDE, _SIDE, LIMITS, LIMITS)
            data = draw_panel(fig, panel, TICKS, TICKS, Labels(title, xlabel, ylabel))
            entries = []
            if i != 1:  # chance on the ROC curve, perfect calibration on the reliability
                fig.add_artist(Line2D((0, 1), (0, 1), linestyle="--", color="0.6",
                                      linewidth=0.7, transform=data))
                entries += [("perfectly calibrated", "0.6", "--", False)] if i == 2 else []
            for j, (x, y, label, marked) in enumerate(curves):
                fig.add_artist(Line2D(x, y, color=palette[j], linewidth=1.1, transform=data,
                                      gid=f"curve-{i}-{j}", **(_MARKER if marked else {})))
                entries.append((label, palette[j], "-", marked))
            _legend(fig, panel, corner, entries, Line2D)
        return save_figure(fig, path, tight=False)


def _legend(fig, panel: Panel, corner: str, entries, line) -> None:
    """The legend in ``corner`` of a panel: a line and a label per entry, in a white box."""
    from matplotlib.patches import Rectangle  # lazy: matplotlib is optional

    inches, row, pad = fig.dpi_scale_trans, _LEGEND * 1.4 / 72, 0.06
    width = 0.36 + max(len(label) for label, *_ in entries) * _LEGEND * _CHAR + 2 * pad
    height = row * len(entries) + 2 * pad - 0.02
    x0 = (panel.left + 0.07 if corner.endswith("left") else
          panel.left + panel.width - 0.07 - width)
    y0 = (panel.bottom + panel.height - 0.07 - height if corner.startswith("upper") else
          panel.bottom + 0.07)
    fig.add_artist(Rectangle((x0, y0), width, height, facecolor="white", edgecolor="0.8",
                             linewidth=0.8, alpha=0.8, transform=inches, zorder=3))
    for k, (label, color, dash, marked) in enumerate(entries):
        y = y0 + height - pad - (k + 0.5) * row
        # three points, so that a marked entry's marker sits in the middle, as a legend's
        fig.add_artist(line((x0 + pad, x0 + pad + 0.14, x0 + pad + 0.28), (y, y, y),
                            color=color, linestyle=dash, linewidth=1.1 if dash == "-" else 0.7,
                            transform=inches, zorder=4,
                            **({**_MARKER, "markevery": [1]} if marked else {})))
        fig.text(x0 + pad + 0.36, y, label, fontsize=_LEGEND, va="center", ha="left",
                 transform=inches, zorder=4)
