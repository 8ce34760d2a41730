"""The unsupervised binnings: Freedman-Diaconis, equal width, equal frequency.

``fd``
    Freedman and Diaconis (1981): equal bins of width ``2 IQR n^(-1/3)`` over the training
    range, the edges ``numpy.histogram_bin_edges(x, bins="fd")`` gives. When the IQR is zero
    (more than half the values equal) that width is zero; when it is so small against the
    range that it would give more bins than there are values, the bins would be mostly
    empty. In both cases Sturges' rule (``ceil(log2 n) + 1`` equal bins) is used instead.
``width``
    ``bins`` equal-width intervals over the training range (Weka's unsupervised equal-width
    cuts ``min + i (max - min) / bins``).
``frequency``
    About ``bins`` intervals holding equal numbers of training values: the cut for the
    ``i/bins`` quantile is moved to the mid-point between the two adjacent distinct values
    around that quantile, so equal values always share a bin; cuts that coincide are merged,
    so heavy ties give fewer bins.

``width`` and ``frequency`` make at most as many bins as the attribute has distinct training
values, whatever ``bins`` says, so that a huge ``bins`` never allocates without bound.
``frequency`` cannot do otherwise (its cuts lie between distinct values; computing at most one
quantile per value changes nothing). ``width`` lowers a larger ``bins`` to the number of
distinct values, where Weka would keep the extra bins, all but that many of them empty.
"""
from __future__ import annotations

import numpy as np

from .cut_method import BinnedMethod, CutMethod, present_values


def fd_cuts(x: np.ndarray) -> np.ndarray:
    """Interior Freedman-Diaconis bin edges; Sturges' rule when FD degenerates (see above)."""
    x = present_values(x)
    if x.size == 0 or x.min() == x.max():
        return np.empty(0)
    q75, q25 = np.percentile(x, [75, 25])
    width = 2.0 * (q75 - q25) * x.size ** (-1.0 / 3.0)
    with np.errstate(divide="ignore", over="ignore"):
        n_bins = (x.max() - x.min()) / width if width > 0 else np.inf
    rule = "fd" if n_bins <= x.size else "sturges"
    edges = np.histogram_bin_edges(x, bins=rule)
    return np.unique(edges[1:-1])


def width_cuts(x: np.ndarray, bins: int) -> np.ndarray:
    """``bins - 1`` equally spaced cut points over the range of ``x``.

    ``bins`` is lowered to the number of distinct values of ``x`` (see above).
    """
    x = present_values(x)
    if x.size == 0 or x.min() == x.max():
        return np.empty(0)
    bins = min(bins, np.unique(x).size)
    lo, hi = float(x.min()), float(x.max())
    width = (hi - lo) / bins
    return np.unique(lo + width * np.arange(1, bins))


def frequency_cuts(x: np.ndarray, bins: int) -> np.ndarray:
    """Cut points near the ``i / bins`` quantiles, each half-way between distinct values.

    At most ``x.size`` quantiles are computed: from that many on, every gap between
    distinct values already holds one, so a larger ``bins`` gives the same cuts.
    """
    x = np.sort(present_values(x))
    distinct = np.unique(x)
    if distinct.size < 2:
        return np.empty(0)
    bins = min(bins, x.size)
    targets = np.quantile(x, np.arange(1, bins) / bins)
    # index of the largest distinct value <= the quantile; the cut follows it
    below = np.searchsorted(distinct, targets, side="right") - 1
    below = np.unique(below[(below >= 0) & (below < distinct.size - 1)])
    return (distinct[below] + distinct[below + 1]) / 2.0


class FreedmanDiaconis(CutMethod):
    """Equal bins of Freedman and Diaconis's width (Sturges' rule when it degenerates)."""

    name = "fd"
    summary = "Freedman-Diaconis equal-width bins (Sturges' rule when that degenerates)"

    def cuts(self, x, y, n_classes):
        return fd_cuts(x)


class EqualWidth(BinnedMethod):
    """``bins`` equal-width bins over the training range (Weka's unsupervised cuts)."""

    name = "width"
    summary = "`bins` equal-width bins over the training range"
    chunked = True

    def cuts(self, x, y, n_classes):
        return width_cuts(x, self.bins)

    def cuts_from_counts(self, values, counts):
        # The range and the distinct values are all width_cuts reads.
        return width_cuts(values, self.bins)


class EqualFrequency(BinnedMethod):
    """About ``bins`` bins holding equal numbers of training values, equal values together."""

    name = "frequency"
    summary = "about `bins` bins of equal numbers of training values"

    def cuts(self, x, y, n_classes):
        return frequency_cuts(x, self.bins)
