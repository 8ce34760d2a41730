"""Proportional k-interval discretization (PKI) and its weighted form (WPKI).

Both are unsupervised equal-frequency discretizations whose number of intervals grows with
the number ``n`` of known (non-missing) training values, so that interval size and interval
number both grow with the data (Yang and Webb's argument for naive Bayes: the size bounds the
variance of each interval's probability estimate, the number bounds its bias).

``pki``
    Yang and Webb (2001), "Proportional k-interval discretization for naive-Bayes
    classifiers", ECML, LNAI 2167, 564-575: interval size ``s`` and number ``t`` with
    ``s * t = n`` and ``s = t``, so ``t = sqrt(n)``. As Weka 3.6's
    ``weka.filters.unsupervised.attribute.PKIDiscretize`` computes it: ``t = floor(sqrt(n))``
    intervals placed by Weka's equal-frequency binning (:func:`equal_frequency_cuts`), so that
    the cut points are Weka's to the bit.
``wpki``
    Yang and Webb (2003), "Weighted proportional k-interval discretization for naive-Bayes
    classifiers", PAKDD, LNAI 2637, 501-512 (written 2002): variance reduction weighs more
    for small data, so every interval keeps at least ``m = 30`` values beyond the interval
    number, ``s * t = n`` and ``s - t = 30``, i.e. ``t = (sqrt(900 + 4 n) - 30) / 2``; here
    ``t = floor`` of that (at least one interval), placed by the same equal-frequency binning
    as ``pki``. With ``n = 1000``, ``t = (70 - 30) / 2 = 20`` intervals of ``s = 50``.

Equal values always share an interval: a cut lies half-way between two adjacent distinct
values, so heavy ties give fewer intervals than ``t``. Cost: one sort, ``O(n log n)``.
"""
from __future__ import annotations

import math

import numpy as np

from .cut_method import CutMethod, present_values

#: WPKI's minimum interval frequency beyond the interval number (Yang and Webb 2003).
WPKI_MIN_FREQUENCY = 30


def pki_intervals(n: int) -> int:
    """PKI's number of intervals for ``n`` known values: Weka's ``(int) Math.sqrt(n)``."""
    return int(math.sqrt(n))


def wpki_intervals(n: int) -> int:
    """WPKI's number of intervals for ``n`` known values: ``t`` of ``s t = n, s - t = 30``,
    rounded down, at least one when there is a value."""
    m = WPKI_MIN_FREQUENCY
    t = (math.sqrt(m * m + 4.0 * n) - m) / 2.0
    return max(int(t), 1) if n > 0 else 0


def equal_frequency_cuts(x: np.ndarray, n_bins: int) -> np.ndarray:
    """Cut points of about ``n_bins`` intervals of equal frequency over the sorted values
    ``x`` (finite, none missing), as Weka's ``Discretize.calculateCutPointsByEqualFrequency
    Binning`` places them (unit weights).

    Scanning the sorted values, a boundary between two distinct values becomes a cut once
    the values since the last cut reach the current target ``freq``; when the previous
    boundary was closer to the target, that one is cut instead (and the values after it carry
    over). After each cut the target is the remaining values over the remaining intervals.
    A last boundary passed over may still be cut at the end.
    """
    if n_bins < 2 or x.size < 2:
        return np.empty(0)
    n_cuts = n_bins - 1
    remaining = float(x.size)
    freq = remaining / n_bins
    cuts: list[float] = []
    counter = last = 0.0
    last_index = -1
    boundary = np.flatnonzero(x[:-1] < x[1:])  # a cut may follow value i
    previous = -1
    for i in boundary.tolist():
        # The values up to and including i, as Weka's counter adds them one by one.
        step = float(i - previous)
        counter += step
        remaining -= step
        previous = i
        if counter < freq:
            last_index, last = i, counter
            continue
        if freq - last < counter - freq and last_index != -1:
            cuts.append((x[last_index] + x[last_index + 1]) / 2.0)
            counter -= last
            last, last_index = counter, i
        else:
            cuts.append((x[i] + x[i + 1]) / 2.0)
            counter = last = 0.0
            last_index = -1
        left = n_cuts + 1 - len(cuts)
        freq = (remaining + counter) / left if left else math.inf
    if len(cuts) < n_cuts and last_index != -1:
        cuts.append((x[last_index] + x[last_index + 1]) / 2.0)
    return np.array(cuts, dtype=np.float64)


def pki_cuts(x: np.ndarray) -> np.ndarray:
    """PKI cut points of the values ``x`` (NaN = missing; infinite values refused).

    Examples
    --------
    >>> pki_cuts(np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 9, np.nan])).tolist()  # 9 known: 3 x 3
    [3.5, 6.5]
    """
    x = np.sort(present_values(x))
    return equal_frequency_cuts(x, pki_intervals(x.size))


def wpki_cuts(x: np.ndarray) -> np.ndarray:
    """WPKI cut points of the values ``x`` (NaN = missing; infinite values refused).

    Examples
    --------
    >>> wpki_cuts(np.arange(400.0)).tolist()  # t = (sqrt(900 + 1600) - 30) / 2 = 10 of 40
    [39.5, 79.5, 119.5, 159.5, 199.5, 239.5, 279.5, 319.5, 359.5]
    """
    x = np.sort(present_values(x))
    return equal_frequency_cuts(x, wpki_intervals(x.size))


class PKI(CutMethod):
    """Proportional k-interval discretization, exactly as Weka 3.6's ``PKIDiscretize``."""

    name = "pki"
    summary = "Yang and Webb's proportional k-interval discretization, Weka-exact"

    def cuts(self, x, y, n_classes):
        return pki_cuts(x)


class WPKI(CutMethod):
    """Weighted proportional k-interval discretization (``s t = n``, ``s - t = 30``)."""

    name = "wpki"
    summary = "Yang and Webb's weighted PKI: intervals of at least 30 values more than their number"

    def cuts(self, x, y, n_classes):
        return wpki_cuts(x)
