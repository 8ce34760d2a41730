"""Kohavi and Wolpert's (1996) decomposition of the expected 0-1 loss into bias², variance
and irreducible error, estimated as Weka 3.6's ``BVDecompose`` estimates it.

For a test row x with true class t, classified by models trained on ``N`` training sets,
``P(c)`` is the share of them that predicted class c. With a single deterministic label per
x (Weka's assumption: ``P_true(c) = [c = t]``):

* bias²(x) = 1/2 sum_c ((P_true(c) - P(c))² - P(c)(1 - P(c)) / (N - 1)), the second term
  correcting the bias of the squared estimate (Kohavi and Wolpert 1996, eq. 4);
* variance(x) = 1/2 (1 - sum_c P(c)²);
* sigma²(x) = 1/2 (1 - sum_c P_true(c)²), zero under that assumption;

each averaged over the test rows. The error is the share of wrong predictions over all rows
and training sets. docs/statistics.md gives the formulas and the references.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import StatsError


class BiasVariance(NamedTuple):
    """The decomposition of one classifier's 0-1 loss on one data set."""

    error: float
    bias: float
    variance: float
    sigma: float


def kohavi_wolpert(true, counts) -> BiasVariance:
    """The decomposition from ``true`` (each test row's class code) and ``counts`` (rows x
    classes: how many of the training sets' models predicted each class for the row), every
    row classified the same number of times, at least twice."""
    true = np.asarray(true, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 2 or counts.shape[0] != true.size or true.size == 0:
        raise StatsError(f"counts of shape {counts.shape} for {true.size} test rows")
    per_row = counts.sum(axis=1)
    n = per_row[0]
    if n < 2 or np.any(per_row != n):
        raise StatsError(f"every row must be classified the same number of times, at least "
                         f"twice; got between {per_row.min():g} and {per_row.max():g}")
    predicted = counts / n
    actual = np.zeros_like(predicted)
    actual[np.arange(true.size), true] = 1.0
    bias = ((actual - predicted) ** 2 - predicted * (1 - predicted) / (n - 1)).sum(axis=1)
    variance = 1.0 - (predicted ** 2).sum(axis=1)
    sigma = 1.0 - (actual ** 2).sum(axis=1)
    error = 1.0 - counts[np.arange(true.size), true].sum() / (n * true.size)
    return BiasVariance(float(error), float(bias.mean() / 2), float(variance.mean() / 2),
                        float(sigma.mean() / 2))
