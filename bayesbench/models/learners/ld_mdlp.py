"""The MDLP discretizer that local discretization refits: Fayyad and Irani's method as the
authors' ``mdlp`` library (R. Montañana, version 2.1.3, the one BayesNet 1.2 requires)
computes it, which differs from Weka's (:func:`bayesbench.preprocess.discretize.mdl_cuts`):

- the labels are any integer codes (local discretization gives the joint values of the class
  and an attribute's parents); the values are single precision (float32), and every
  entropy, gain and threshold is evaluated in float32 in the library's order of operations,
  the logarithms by the C library's ``log2f`` as the library's, so that ties between
  mathematically equal entropies break alike;
- the rows are sorted by value, then label (stably); a candidate cut is every position where
  the label changes, even inside a run of equal values; the best is the first of least
  weighted entropy below the interval's own; accepted by the MDL test with ``log2(N - 1)``,
  then moved to the start of its run of equal values (or past the run when the run starts
  the interval), half-way between the two distinct values there;
- an interval of fewer than ``min_length`` rows (default 3), or deeper than ``max_depth``
  splits, is not split; with ``proposed_cuts`` (0: no limit; below 1, a fraction of the rows,
  rounded; else a number) the cut with the most class entropy on its left is dropped until
  that many remain;
- a value ``x`` falls in bin ``#{cuts <= x}`` (bins closed on the left, where Weka's are
  closed on the right).

The weighted entropies of all candidates of an interval are first found in float64 from
running sums of ``c log c`` (``O(N)``); the few within ``_NEAR`` bits of the least are
evaluated again exactly in float32 to decide. Cost ``O(N log N)`` for the sort plus
``O(N)`` per level of recursion.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct

import numpy as np

from ...errors import ClassifierError

_F32 = np.float32
#: Candidates whose float64 weighted entropy is within this many bits of the least are
#: evaluated again in float32 (float32's rounding is far below it).
_NEAR = 1e-3
_LN2 = math.log(2.0)


_FLOAT = struct.Struct("f")


def c_float_function(name: str):
    """The C library's single-precision function ``name`` (``log2f``, ``logf``), taking and
    returning a ``float``; None where no C library can be loaded (then the correctly rounded
    value is used)."""
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        function = getattr(libm, name)
    except (OSError, AttributeError):
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


# The library's std::log2(float) calls log2f: glibc's is not correctly rounded for about
# 0.6 % of its inputs, and those last bits break ties between equal entropies.
_LOG2F = c_float_function("log2f")
_LOG2F_SEEN: dict[float, float] = {}


def _log2f(p: float) -> float:
    """``log2f(p)`` of a float32 ``p``, as the C library computes it (remembered)."""
    value = _LOG2F_SEEN.get(p)
    if value is None:
        value = _LOG2F(p) if _LOG2F is not None else _f32(math.log2(p))
        if len(_LOG2F_SEEN) > 1_000_000:  # bounded: a long run meets many probabilities
            _LOG2F_SEEN.clear()
        _LOG2F_SEEN[p] = value
    return value


def _f32(value: float) -> float:
    """``value`` rounded to float32 (a double holds more than twice float32's digits, so one
    float32 operation done in double and rounded once is the float32 operation, to the bit)."""
    return _FLOAT.unpack(_FLOAT.pack(value))[0]


def entropy32(counts: np.ndarray, n: int) -> np.float32:
    """Class entropy in bits of the label counts ``counts`` (label order) of ``n`` rows, in
    float32 as the library sums it: ``H -= p * log2(p)`` label by label, zeros skipped."""
    if n < 2:
        return _F32(0.0)
    acc, total = 0.0, float(n)
    for v in counts[counts > 0].tolist():
        p = _f32(v / total)
        acc = _f32(acc - _f32(p * _log2f(p)))
    return _F32(acc)


def _xlogx(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    return c * np.log(np.where(c > 0, c, 1.0))


def _weighted_entropies64(labels: np.ndarray, cuts: np.ndarray, xlx: np.ndarray) -> np.ndarray:
    """Weighted entropy (bits) of splitting ``labels`` before each position of ``cuts``, from
    running sums of ``c ln c`` (``xlx[c]``)."""
    m = labels.size
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    starts = np.flatnonzero(np.r_[True, sorted_labels[1:] != sorted_labels[:-1]])
    rank = np.empty(m, dtype=np.int64)
    rank[order] = np.arange(m) - np.repeat(starts, np.diff(np.r_[starts, m]))
    counts = np.bincount(labels)
    total = counts[labels]
    left = np.cumsum(xlx[rank + 1] - xlx[rank])
    right = xlx[counts].sum() + np.cumsum(xlx[total - rank - 1] - xlx[total - rank])
    bits = xlx[cuts] - left[cuts - 1] + xlx[m - cuts] - right[cuts - 1]
    return bits / (m * _LN2)


#: Intervals with at most this many candidate cuts are weighed in float32 alone.
_FEW = 8


def _candidate(xs: np.ndarray, ys: np.ndarray, start: int, end: int, xlx: np.ndarray):
    """The library's ``getCandidate``: ``(cut, class counts of the interval, of its left
    part)`` for the first label boundary of least weighted entropy below the interval's own,
    or None."""
    values, labels = xs[start:end], ys[start:end]
    if values[0] == values[-1]:  # sorted: all equal
        return None
    cuts = np.flatnonzero(labels[1:] != labels[:-1]) + 1
    if cuts.size == 0:
        return None
    m = end - start
    if cuts.size > _FEW:
        fast = _weighted_entropies64(labels, cuts, xlx)
        cuts = cuts[fast <= fast.min() + _NEAR]
    total = np.bincount(labels)
    best, least = None, entropy32(total, m)
    for idx in cuts.tolist():
        left = np.bincount(labels[:idx], minlength=total.size)
        weighted = (_F32(_F32(idx) / _F32(m)) * entropy32(left, idx)
                    + _F32(_F32(m - idx) / _F32(m)) * entropy32(total - left, m - idx))
        if weighted < least:
            best, least = (start + idx, total, left), weighted
    return best


def _accepts(start: int, cut: int, end: int, total: np.ndarray, left: np.ndarray) -> bool:
    """The library's MDL test of splitting ``start..end`` at ``cut`` (class counts ``total``
    of the interval, ``left`` of ``start..cut``), in its arithmetic."""
    right = total - left
    n, n1, n2 = end - start, cut - start, end - cut
    k, k1, k2 = (int((v > 0).sum()) for v in (total, left, right))
    ent, ent1, ent2 = entropy32(total, n), entropy32(left, n1), entropy32(right, n2)
    gain = ent - (_F32(n1) * ent1 + _F32(n2) * ent2) / _F32(n)
    inner = _F32(k) * ent - _F32(k1) * ent1 - _F32(k2) * ent2
    try:
        log_3k = math.log2(3.0 ** k - 2)
    except OverflowError:  # pow(3, k) is infinite in C++ beyond 646 labels: nothing accepted
        return False
    delta = _F32(log_3k - float(inner))  # pow and log2 of an int in double, kept as float
    # log2 of the float N - 1 is the float overload there (checked by compiling it): all float.
    term = _F32(1.0) / _F32(n) * (_F32(_log2f(float(n - 1))) + delta)
    return bool(gain > term)


def _value_cut_point(xs: np.ndarray, start: int, cut: int, end: int) -> tuple[np.float32, int]:
    """The library's ``valueCutPoint``: the cut moved off a run of equal values, and its value."""
    prev_i = cut - 1
    next_i = cut + 1 if cut + 1 < end else cut
    previous, actual, following = xs[prev_i], xs[cut], xs[next_i]
    while prev_i > start and actual == previous:
        prev_i -= 1
        previous = xs[prev_i]
    back_wall = prev_i == start and actual == previous
    while next_i < end - 1 and actual == following:
        next_i += 1
        following = xs[next_i]
    cut = cut + max(next_i - cut - 1, 0) + 1 if back_wall else prev_i + 1
    return _F32((xs[cut] + previous) / _F32(2.0)), cut


def _limit(proposed_cuts: float, n: int) -> int:
    """The library's maximum number of cut points (0: no limit)."""
    proposed = _F32(proposed_cuts)
    if proposed == 0:
        return 0
    if proposed > _F32(n):
        raise ClassifierError(f"proposed_cuts ({float(proposed):g}) cannot exceed the number "
                              f"of training rows ({n})")
    if proposed < 1:
        value = float(_F32(n) * proposed)
        return int(math.floor(value + 0.5))  # C's round: half away from zero
    return int(proposed)


def _drop_one(cuts: list, xs: np.ndarray, ys: np.ndarray) -> None:
    """The library's ``resizeCutPoints``: drop the cut whose left interval has the most
    class entropy (the first of equals; the last interval is never weighed)."""
    most, drop, begin = _F32(0.0), 0, 0
    for idx, cut in enumerate(cuts):
        end = max(begin, int(np.searchsorted(xs, cut, side="left")))
        ent = entropy32(np.bincount(ys[begin:end]), end - begin) if end > begin else _F32(0)
        if ent > most:
            most, drop = ent, idx
        begin = end
    del cuts[drop]


def mdlp_cuts(x: np.ndarray, labels: np.ndarray, *, min_length: int = 3,
              max_depth: int | None = None, proposed_cuts: float = 0.0) -> np.ndarray:
    """Sorted cut points (float32) of the values ``x`` (finite) for integer ``labels``, as
    the library's ``CPPFImdlp(min_length, max_depth, proposed_cuts).fit(x, labels)`` finds
    them (its ``getCutPoints()`` without the minimum and maximum it adds at either end)."""
    x = np.asarray(x, dtype=_F32)
    labels = np.asarray(labels, dtype=np.int64)
    limit = _limit(proposed_cuts, x.size)
    order = np.lexsort((labels, x))  # stable: by value, then label, then row
    xs, ys = x[order], labels[order]
    xlx = _xlogx(np.arange(x.size + 1))
    cuts = []
    pending = [(0, x.size, 1)]
    while pending:
        start, end, depth = pending.pop()
        if end - start < min_length or (max_depth is not None and depth > max_depth):
            continue
        found = _candidate(xs, ys, start, end, xlx)
        if found is None or not _accepts(start, *found[:1], end, *found[1:]):
            continue
        value, cut = _value_cut_point(xs, start, found[0], end)
        cuts.append(value)
        pending += [(cut, end, depth + 1), (start, cut, depth + 1)]
    cuts.sort()
    while limit and len(cuts) > limit:
        _drop_one(cuts, xs, ys)
    return np.array(cuts, dtype=_F32)


def mdlp_codes(x: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin codes of ``x`` (NaN: missing, ``-1``): the number of cut points ``<= x``, compared
    in float32 as the library's ``transform`` does."""
    x = np.asarray(x, dtype=np.float64)
    codes = np.searchsorted(cuts, x.astype(_F32), side="right").astype(np.int64)
    codes[np.isnan(x)] = -1
    return codes
