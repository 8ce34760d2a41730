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
three panels per data set, not one per class and kind, keeps the cost of drawing within a
tenth of a run's time (benchmarks/bench_predictions.py). In the SVG, classifier ``j``'s
curve in panel ``i`` (0 ROC, 1 precision-recall, 2 reliability) is the group
``curve-<i>-<j>``.
"""
from __future__ import annotations

import numpy as np

from ..evaluation.curves import both_curves, calibration, thinned, top_label
from .figures import _colors
from .plotting import save_figure, styled_figure

BINS = 10
TICKS = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]  # of both axes of every panel
# The panels' place in the figure (fractions of it): room for the tick labels and the axis
# titles at font size 8, and the panel titles at 9.
_MARGINS = {"left": 0.05, "right": 0.99, "bottom": 0.13, "top": 0.92, "wspace": 0.22}


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


def plot_predictions(scored, dataset: str, classes, path) -> list:
    """The ROC, precision-recall and reliability panels on ``dataset`` of each
    ``(classifier, y, proba)`` of ``scored`` (class codes and probabilities of every kept
    test row, in ``classes``' order); returns the files."""
    colors = _colors(len(scored))
    which = (f"{classes[1]} vs {classes[0]}" if len(classes) == 2 else
             "one-vs-rest, micro-average")
    with styled_figure(11.5, 3.9) as fig:
        # Fixed margins instead of tight_layout: the labels are the same whatever the data
        # set, and measuring every text of three panels cost a fifth of the figure's time.
        fig.subplots_adjust(**_MARGINS)
        roc, pr, rel = fig.subplots(1, 3)
        roc.plot([0, 1], [0, 1], "--", color="0.6", linewidth=0.7)
        rel.plot([0, 1], [0, 1], "--", color="0.6", linewidth=0.7, label="perfectly calibrated")
        for j, (clf, y, proba) in enumerate(scored):
            (fpr, tpr), auc, (precision, recall), ap = both_curves(*one_vs_rest(y, proba))
            roc.plot(*thinned(fpr, tpr), color=colors[j], linewidth=1.1, gid=f"curve-0-{j}",
                     label=f"{clf} (AUC {auc:.3f})")
            pr.plot(*thinned(recall, precision), color=colors[j], linewidth=1.1,
                    drawstyle="steps-post", gid=f"curve-1-{j}", label=f"{clf} (AP {ap:.3f})")
            correct, confidence = top_label(y, proba)
            observed, predicted, ece = calibration(correct, confidence, BINS)
            rel.plot(predicted, observed, "o-", markersize=3, linewidth=1.1, gid=f"curve-2-{j}",
                     color=colors[j], label=f"{clf} (ECE {ece:.3f})")
        _axes(roc, f"{dataset}: ROC ({which})", "false positive rate", "true positive rate",
              "lower right")
        _axes(pr, f"{dataset}: precision-recall", "recall", "precision", "lower left")
        _axes(rel, f"{dataset}: reliability of the predicted class",
              "mean confidence (bin of 0.1)", "fraction right", "upper left")
        return save_figure(fig, path, tight=False)


def _axes(ax, title: str, xlabel: str, ylabel: str, legend: str) -> None:
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    # The ticks matplotlib would choose, and the title where it would put it, given: it
    # then neither makes ticks outside the panel nor measures the axes to place the title,
    # over a third of the time matplotlib took to write it; the SVG is the same, byte for byte.
    ax.set_xticks(TICKS)
    ax.set_yticks(TICKS)
    ax.set_title(title, fontsize=9, y=1.0)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(color="0.93", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(fontsize=6.5, loc=legend)
