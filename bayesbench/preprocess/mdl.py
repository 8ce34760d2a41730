"""Fayyad and Irani's (1993) supervised MDL discretization, exactly as Weka computes it.

Recursive minimisation of class entropy with the MDL stopping rule, as Weka's
``weka.filters.supervised.attribute.Discretize`` computes it with default options: a cut is
placed half-way between two adjacent distinct values; the best boundary of an interval is the
first one (in increasing order) that minimises the weighted class entropy of the two sides; it
is accepted when the information gain exceeds ``(log2(N - 1) + delta) / N`` with ``N`` the
interval's size (Weka's "worse" encoding of the number of cut points) and
``delta = log2(3^k - 2) - (k H(S) - k1 H(S1) - k2 H(S2))``, ``k`` counting the classes present;
accepted intervals are split again on both sides. Missing values are left out of the search.
``max_cuts`` bounds the number of cut points: the accepted splits are then made best first
(:func:`mdl_cuts_from_counts`).
Entropies are evaluated in Weka's order of operations, so ties are broken the same way. Rows
whose class is missing never get here (the readers drop them); Weka 3.6 would count them as
members of the first class.
"""
from __future__ import annotations

import heapq
import math

import numpy as np

from ..errors import PreprocessError
from .cut_method import CutMethod, present_values, value_class_counts

_LN2 = math.log(2.0)


def _xlnx(x: np.ndarray) -> np.ndarray:
    """``x ln x`` with ``0 ln 0 = 0`` (Weka's ``ContingencyTables.lnFunc``)."""
    return x * np.log(np.where(x > 0, x, 1.0))


def _entropy(counts: np.ndarray) -> float:
    """Class entropy in bits of one count vector, summed in Weka's order."""
    acc = 0.0
    for c in counts.tolist():
        acc -= c * math.log(c) if c > 0 else 0.0
    total = float(counts.sum())
    if total == 0:
        return 0.0
    return (acc + total * math.log(total)) / (total * _LN2)


def _split_entropies(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Weighted class entropy (bits) of every candidate split at once.

    ``left`` and ``right`` are ``(n_candidates, n_classes)`` counts. The sum
    runs class by class, left side first, then right, as Weka's
    ``entropyConditionedOnRows`` does, so equal splits compare equal here too.
    """
    acc = np.zeros(left.shape[0])
    for side in (left, right):
        for j in range(side.shape[1]):
            acc = acc + _xlnx(side[:, j])
        acc = acc - _xlnx(side.sum(axis=1))
    total = left.sum(axis=1) + right.sum(axis=1)
    return -acc / (total * _LN2)


def _mdl_accepts(prior: np.ndarray, left: np.ndarray, right: np.ndarray,
                 split_entropy: float, n: int) -> bool:
    """Fayyad and Irani's MDL test for one split, with Weka's ``log2(N - 1)``."""
    prior_entropy = _entropy(prior)
    gain = prior_entropy - split_entropy
    k, k1, k2 = (int((v > 0).sum()) for v in (prior, left, right))
    try:
        log_3k = math.log(3.0 ** k - 2)
    except OverflowError:  # beyond 646 classes Java's Math.pow(3, k) is infinite, as in Weka
        log_3k = math.inf  # an infinite cost: no split is accepted
    delta = (log_3k / _LN2
             - (k * prior_entropy - k2 * _entropy(right) - k1 * _entropy(left)))
    return gain > (math.log(n - 1) / _LN2 + delta) / n


def mdl_cuts(x: np.ndarray, y: np.ndarray, n_classes: int,
             max_cuts: int | None = None) -> np.ndarray:
    """Fayyad-Irani MDL cut points of ``x`` (NaN = missing) for class codes ``y``.

    Returns the sorted cut points (empty when no split is accepted), equal to
    Weka's supervised ``Discretize`` with default options; at most ``max_cuts`` of them
    (see :func:`mdl_cuts_from_counts`).
    """
    present_values(x)  # refuses infinite values
    return mdl_cuts_from_counts(*value_class_counts(x, y, n_classes), max_cuts=max_cuts)


def mdl_cuts_from_counts(values: np.ndarray, counts: np.ndarray,
                         max_cuts: int | None = None) -> np.ndarray:
    """:func:`mdl_cuts` from the sorted distinct values and their class counts
    ``(n_values, n_classes)``: the same cut points as from the rows they count (the
    candidate cuts lie between distinct values, and every entropy reads counts only).

    With ``max_cuts``, at most that many: the accepted splits are made best first, the one
    that saves the most bits of class information (interval size times information gain)
    first, ties to the left, each interval's own split considered only once the split that
    made it is made; as many cuts as MDL accepts are the same cuts as without the limit.
    """
    n_classes = counts.shape[1]
    # cum[i] = class counts of the first i distinct values
    cum = np.zeros((values.size + 1, n_classes))
    np.cumsum(counts, axis=0, out=cum[1:])
    cuts = []
    if max_cuts is None:
        intervals = [(0, values.size)]
        while intervals:
            first, stop = intervals.pop()
            split = _accepted_split(cum, first, stop)
            if split is None:
                continue
            i = split[1]
            cuts.append((values[i] + values[i + 1]) / 2.0)
            intervals += [(first, i + 1), (i + 1, stop)]
        return np.array(sorted(cuts), dtype=np.float64)
    pending: list = []  # (-bits saved, position, first, stop) of accepted splits not yet made
    _push_split(pending, cum, 0, values.size)
    while pending and len(cuts) < max_cuts:
        _, i, first, stop = heapq.heappop(pending)
        cuts.append((values[i] + values[i + 1]) / 2.0)
        _push_split(pending, cum, first, i + 1)
        _push_split(pending, cum, i + 1, stop)
    return np.array(sorted(cuts), dtype=np.float64)


def _push_split(pending: list, cum: np.ndarray, first: int, stop: int) -> None:
    split = _accepted_split(cum, first, stop)
    if split is not None:
        heapq.heappush(pending, (-split[0], split[1], first, stop))


def _accepted_split(cum: np.ndarray, first: int, stop: int) -> tuple[float, int] | None:
    """The best split of the distinct values ``first..stop-1`` (``cum``: cumulative class
    counts) if MDL accepts it: ``(bits saved, i)``, the cut following value ``i``; else None."""
    candidates = np.arange(first, stop - 1)  # a cut may follow distinct value i
    if candidates.size == 0:
        return None
    prior = cum[stop] - cum[first]
    left = cum[candidates + 1] - cum[first]
    right = prior - left
    entropies = _split_entropies(left, right)
    best = int(np.argmin(entropies))  # first minimum, as Weka's strict '<' scan
    prior_entropy = _entropy(prior)
    if not entropies[best] < prior_entropy:
        return None
    n = int(prior.sum())
    if not _mdl_accepts(prior, left[best], right[best], float(entropies[best]), n):
        return None
    return n * (prior_entropy - float(entropies[best])), int(candidates[best])


class MDL(CutMethod):
    """Fayyad and Irani's supervised MDL method, as Weka's ``Discretize`` (the default);
    ``max_cuts`` (``preprocess.max_cuts``) keeps at most that many cut points, the best first."""

    name = "mdl"
    summary = "Fayyad and Irani's supervised MDL method, Weka-exact (`max_cuts`: the best first)"
    settings = ("max_cuts",)
    supervised = True
    chunked = True

    def __init__(self, max_cuts: int | None = None):
        if max_cuts is not None and (isinstance(max_cuts, bool) or not isinstance(
                max_cuts, (int, np.integer)) or max_cuts < 1):
            raise PreprocessError(f"the maximum number of cut points must be a positive "
                                  f"integer, got {max_cuts!r}")
        self.max_cuts = None if max_cuts is None else int(max_cuts)

    def cuts(self, x, y, n_classes):
        return mdl_cuts(x, y, n_classes, self.max_cuts)

    def cuts_from_counts(self, values, counts):
        return mdl_cuts_from_counts(values, counts, self.max_cuts)
