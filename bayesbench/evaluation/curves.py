"""Curves of kept predictions: ROC, precision-recall and reliability (calibration).

Each is computed as scikit-learn computes it (``tests/evaluation/test_curves.py`` checks
them against ``roc_curve``, ``precision_recall_curve``, ``average_precision_score`` and
``calibration.calibration_curve``), in plain numpy:

- :func:`roc_curve`: the false and true positive rates at every distinct score, from the
  highest down, starting at (0, 0); its area is :func:`~.metrics.binary_auc`;
- :func:`precision_recall_curve`: precision and recall at every distinct score, ending at
  recall 0 and precision 1, and its area as average precision
  ``sum_k (R_k - R_{k-1}) P_k`` (no interpolation, as scikit-learn);
- :func:`calibration`: the observed frequency and the mean predicted probability in
  each of ``bins`` equal-width bins of [0, 1] that holds a prediction, and the expected
  calibration error, their gaps weighted by the bins' shares of the rows
  (Naeini, Cooper and Hauskrecht 2015; Guo et al. 2017). A multi-class classifier is read
  top-label: its confidence is its largest probability, and it is right when that class is
  the true one.
"""
from __future__ import annotations

import numpy as np


# Up to this many classes the most probable is found column by column: numpy's argmax and
# max along rows of two or three values take three times as long; with more classes, the
# columns' strides make the loop the slower.
_COLUMNWISE = 3


def _ranked(positive, score):
    """Cumulative true and false positives at each distinct score, highest first."""
    positive = np.asarray(positive, dtype=bool)
    score = np.asarray(score, dtype=np.float64)
    if score.size and not score.min() >= 0.0:  # NaN fails too
        raise ValueError("ROC and precision-recall curves take non-negative scores "
                         "(probabilities)")
    # One sort of each row's score and label packed into one integer: the bits of a
    # non-negative double order as the double does and fit in 63 bits, which leaves the
    # lowest for the label. Half the time of sorting the scores and the positives' scores
    # apart and searching one in the other, on a million rows; the same counts.
    key = (score.view(np.uint64) << np.uint64(1)) | positive
    key.sort()
    # Start of each score's run, ascending (-0.0 and 0.0 pack alike: one score).
    first = np.r_[0, np.flatnonzero((key[1:] ^ key[:-1]) > 1) + 1]
    # The positives among the rows below each score.
    below = np.r_[0, np.cumsum(key & np.uint64(1), dtype=np.int64)]
    tps = (below[-1] - below[first])[::-1]
    fps = (key.size - first)[::-1] - tps
    return tps.astype(np.float64), fps.astype(np.float64)


def _roc(tps, fps):
    return np.r_[0.0, fps / fps[-1]], np.r_[0.0, tps / tps[-1]]


def _pr(tps, fps):
    precision = np.divide(tps, tps + fps, out=np.zeros_like(tps), where=(tps + fps) > 0)
    recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0]


def _ap(precision, recall) -> float:
    return float(-np.sum(np.diff(recall) * precision[:-1]))


def roc_curve(positive, score) -> tuple[np.ndarray, np.ndarray]:
    """``(false positive rate, true positive rate)`` of ``score`` for the labels ``positive``
    (both classes must occur)."""
    return _roc(*_ranked(positive, score))


def precision_recall_curve(positive, score) -> tuple[np.ndarray, np.ndarray]:
    """``(precision, recall)`` of ``score`` for ``positive``, recall decreasing to 0 (where
    precision is 1), as scikit-learn orders them."""
    return _pr(*_ranked(positive, score))


def average_precision(positive, score) -> float:
    """The area under the precision-recall curve as average precision."""
    return _ap(*precision_recall_curve(positive, score))


def both_curves(positive, score):
    """``(roc, roc_auc, pr, average_precision)`` from one sort of ``score``: what a figure
    of a million test rows draws; the ROC area by the trapezoids of the curve, which is the
    Mann-Whitney AUC of :func:`~.metrics.binary_auc` (ties counted one half)."""
    tps, fps = _ranked(positive, score)
    roc, pr = _roc(tps, fps), _pr(tps, fps)
    area = float(np.sum(np.diff(roc[0]) * (roc[1][1:] + roc[1][:-1]) / 2))
    return roc, area, pr, _ap(*pr)


def _binned(correct, confidence, bins: int):
    """Per equal-width bin of [0, 1] (a value on an inner edge in the bin below it, as
    scikit-learn): the rows, the right ones among them and the sum of their confidences."""
    correct = np.asarray(correct, dtype=np.float64)
    confidence = np.clip(np.asarray(confidence, dtype=np.float64), 0.0, 1.0)
    ids = np.searchsorted(np.linspace(0.0, 1.0, bins + 1)[1:-1], confidence)
    return (np.bincount(ids, minlength=bins), np.bincount(ids, weights=correct, minlength=bins),
            np.bincount(ids, weights=confidence, minlength=bins))


def calibration(correct, confidence, bins: int = 10) -> tuple[np.ndarray, np.ndarray, float]:
    """``(observed frequency, mean predicted probability, expected calibration error)``: the
    first two of each non-empty equal-width bin, the error ``sum_b (n_b / n) |observed_b -
    predicted_b|`` over them; one binning of the rows for the three."""
    total, right, confident = _binned(correct, confidence, bins)
    kept = total > 0
    observed, predicted = right[kept] / total[kept], confident[kept] / total[kept]
    share = total[kept] / total.sum()
    return observed, predicted, float(np.sum(share * np.abs(observed - predicted)))


def top_label(y, proba) -> tuple[np.ndarray, np.ndarray]:
    """``(correct, confidence)`` of a multi-class classifier's most probable class (the
    first of equal ones, as ``argmax``)."""
    proba, y = np.asarray(proba, dtype=np.float64), np.asarray(y)
    if proba.shape[1] > _COLUMNWISE:
        return proba.argmax(axis=1) == y, proba.max(axis=1)
    confidence = proba[:, 0].copy()
    best = np.zeros(len(proba), dtype=np.intp)
    for k in range(1, proba.shape[1]):
        column = proba[:, k]
        best[column > confidence] = k
        np.maximum(confidence, column, out=confidence)
    return best == y, confidence


def thinned(x: np.ndarray, y: np.ndarray, points: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """At most ``points`` points of a curve, evenly spaced along it, ends kept: what a figure
    draws of a curve of a million steps (its area is computed from all of them)."""
    if x.size <= points:
        return x, y
    keep = np.unique(np.linspace(0, x.size - 1, points).round().astype(np.int64))
    return x[keep], y[keep]
