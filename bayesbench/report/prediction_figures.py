"""Figures of a run's kept predictions (``predictions: true``), one file per data set.

* :func:`plot_roc_pr`: one-vs-rest ROC curves (top row) and precision-recall curves (bottom
  row), one column per class, a line per classifier, its area in the legend (ROC AUC, and
  average precision for the precision-recall curve);
* :func:`plot_reliability`: the reliability diagram of each classifier's most probable class
  (observed frequency of being right against mean confidence, 10 equal-width bins) with its
  expected calibration error in the legend, and the diagonal of perfect calibration.

Every test prediction of every fold and repetition counts, pooled. Areas and errors are
computed from all the rows (:mod:`~bayesbench.evaluation.curves`); a curve of many thousand
steps is drawn through at most 2,000 of its points. In the SVG, classifier ``j``'s curve in
panel ``i`` is the group ``curve-<i>-<j>``.
"""
from __future__ import annotations

import numpy as np

from ..evaluation.curves import (both_curves, calibration_curve, expected_calibration_error,
                                 thinned, top_label)
from .figures import _colors
from .plotting import save_figure, styled_figure

# One-vs-rest panels per data set: beyond this, the classes with the most test rows.
MAX_CLASSES = 8
BINS = 10


def shown_classes(y, n_classes: int) -> list[int]:
    """The codes of the classes drawn, given the true class codes ``y`` of one classifier's
    test rows: those with positive and negative rows, at most :data:`MAX_CLASSES` of them
    (the most frequent), in the data set's order."""
    counts = np.bincount(np.asarray(y), minlength=n_classes)
    both = [k for k in range(n_classes) if 0 < counts[k] < counts.sum()]
    keep = set(sorted(both, key=lambda k: -counts[k])[:MAX_CLASSES])
    return [k for k in both if k in keep]


def plot_roc_pr(scored, dataset: str, classes, path) -> list:
    """ROC and precision-recall curves on ``dataset`` of each ``(classifier, y, proba)`` of
    ``scored`` (class codes and probabilities of every kept test row, in ``classes``'
    order; classifiers without probabilities left out); returns the files."""
    shown = shown_classes(scored[0][1], len(classes))
    colors = _colors(len(scored))
    with styled_figure(3.0 * len(shown), 6.0) as fig:
        axes = fig.subplots(2, len(shown), squeeze=False)
        for i, k in enumerate(shown):
            roc, pr = axes[0, i], axes[1, i]
            for j, (clf, y, proba) in enumerate(scored):
                (fpr, tpr), auc, (precision, recall), ap = both_curves(y == k, proba[:, k])
                roc.plot(*thinned(fpr, tpr), color=colors[j], linewidth=1.1,
                         gid=f"curve-{i}-{j}", label=f"{clf} (AUC {auc:.3f})")
                pr.plot(*thinned(recall, precision), color=colors[j], linewidth=1.1,
                        drawstyle="steps-post", gid=f"curve-{len(shown) + i}-{j}",
                        label=f"{clf} (AP {ap:.3f})")
            roc.plot([0, 1], [0, 1], "--", color="0.6", linewidth=0.7)
            _axes(roc, f"{dataset}: {classes[k]} vs rest", "false positive rate",
                  "true positive rate")
            _axes(pr, f"{dataset}: {classes[k]} vs rest", "recall", "precision")
        fig.tight_layout()
        return save_figure(fig, path)


def plot_reliability(scored, dataset: str, path) -> list:
    """The reliability diagram of each classifier's most probable class on ``dataset``
    (``scored`` as for :func:`plot_roc_pr`)."""
    colors = _colors(len(scored))
    with styled_figure(4.2, 4.2) as fig:
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], "--", color="0.6", linewidth=0.7, label="perfectly calibrated")
        for j, (clf, y, proba) in enumerate(scored):
            correct, confidence = top_label(y, proba)
            observed, predicted = calibration_curve(correct, confidence, BINS)
            ece = expected_calibration_error(correct, confidence, BINS)
            ax.plot(predicted, observed, "o-", markersize=3, linewidth=1.1, gid=f"curve-0-{j}",
                    color=colors[j], label=f"{clf} (ECE {ece:.3f})")
        _axes(ax, f"{dataset}: reliability of the predicted class",
              "mean confidence (bin of 0.1)", "fraction right")
        fig.tight_layout()
        return save_figure(fig, path)


def _axes(ax, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(color="0.93", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(fontsize=6.5, loc="lower right" if "positive" in xlabel else
              "upper left" if "confidence" in xlabel else "lower left")
