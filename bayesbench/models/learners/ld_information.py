"""The information measures local discretization's structures are learned from, as the
authors' library (BayesNet 1.2's ``Metrics``, on libtorch) computes them, rounding included.

Their exact values matter where the mathematics ties: an attribute left with one bin has
``I(Xi; Xj | C) = 0`` with every other, and TAN's tree then takes, among those zeros, the
one its rounding makes largest. The library computes

- ``H(X)`` in float32: bin counts of the weights ``1 / n`` (double), probabilities
  ``float(count) / float(total)``, ``-p log p``, summed in libtorch's order;
- ``H(X | Y)`` in double: ``sum_y p(y) H(X | Y = y)``, with ``p(y)`` over a total that adds the
  weights rounded to float;
- ``I(X; Y) = max(H(X) - H(X | Y), 0)``; ``I(Xi; Xj | C) = sum_c p(c) I(Xi; Xj)`` within each
  class, ``p(c)`` rounded to float, the result kept as float.

Reproduced here to the bit but for two things: libtorch's logarithm of a float32 tensor is
SLEEF's vectorized one, which is not reproduced (the C library's ``logf`` is used; the two
agree on most inputs, and where they do not, a tie may break otherwise), and its sums' order
depends on the CPU's vector width (followed here as on AVX-512, 16 floats and 8 doubles, up
to 64 vectors' worth). The classes' entropies sum their terms in value order, the library in
its hash map's order: a difference far below the float rounding that decides. Cost ``O(m^2 (N + K r^2))`` for ``m`` attributes of ``r`` values.
"""
from __future__ import annotations

import math

import numpy as np

from .ld_mdlp import _f32, c_float_function

_F32 = np.float32


_LOGF = c_float_function("logf")  # None where it cannot be loaded: then rounded log


def _logf(p: float) -> float:
    return _LOGF(p) if _LOGF is not None else _f32(math.log(p))


def _row_sum(values: list, zero):
    """libtorch's ``row_sum`` of a short row: four interleaved partial sums (elements
    ``4i + k``), the elements left over added to the first, then the four together (its
    cascading levels start at 64 rows, beyond what is reproduced here)."""
    whole = len(values) // 4
    partial = [zero] * 4
    for i in range(whole):
        for k in range(4):
            partial[k] = partial[k] + values[4 * i + k]
    for v in values[4 * whole:]:
        partial[0] = partial[0] + v
    return partial[0] + partial[1] + partial[2] + partial[3]


def _torch_sum(values: list, lanes: int, zero):
    """libtorch's sum of a contiguous vector on a CPU whose vectors hold ``lanes`` values
    (AVX-512: 16 floats, 8 doubles): shorter than one vector, :func:`_row_sum`; else the
    vectors' :func:`_row_sum` lane by lane, the tail in order, then the lanes."""
    if len(values) < lanes:
        return _row_sum(values, zero)
    whole = len(values) // lanes
    vectors = [values[i * lanes:(i + 1) * lanes] for i in range(whole)]
    lane_sums = [_row_sum([v[k] for v in vectors], zero) for k in range(lanes)]
    acc = zero
    for v in values[whole * lanes:]:
        acc = acc + v
    for v in lane_sums:
        acc = acc + v
    return acc


class _Sums:
    """Sequential sums of ``k`` weights ``1 / n`` (double), and of those weights rounded to
    float: what the library's bincounts and totals hold for ``k`` rows."""

    def __init__(self, n: int):
        w = 1.0 / n
        wf = _f32(w)
        self.exact = np.concatenate([[0.0], np.cumsum(np.full(n, w))])
        self.rounded = np.concatenate([[0.0], np.cumsum(np.full(n, wf))])


class _Float32Sum:
    """Python float arithmetic rounded to float32 after every addition."""

    def __init__(self, value: float = 0.0):
        self.value = value

    def __add__(self, other):
        other = other.value if isinstance(other, _Float32Sum) else other
        return _Float32Sum(_f32(self.value + other))

    __radd__ = __add__


def entropy_float(counts: np.ndarray, sums: _Sums) -> float:
    """The library's ``Metrics::entropy`` of a value's counts (all values up to the largest
    present, in order): float32, returned as a double."""
    weights = [float(sums.exact[c]) for c in counts.tolist()]
    total = _torch_sum(weights, 8, 0.0)
    if total == 0:
        return 0.0
    total32 = _f32(total)
    terms = []
    for w in weights:
        p = _f32(_f32(w) / total32)
        terms.append(_f32(-p * _logf(p)) if p > 0 else 0.0)  # 0 log 0: NaN, skipped
    return float(_torch_sum(terms, 16, _Float32Sum()).value)


def conditional_entropy(joint: np.ndarray, sums: _Sums) -> float:
    """The library's ``H(X | Y)`` from the counts ``joint[y, x]`` (double)."""
    n = int(joint.sum())
    total = float(sums.rounded[n])
    if total == 0:
        return 0.0
    out = 0.0
    for row in joint:
        n_y = int(row.sum())
        if n_y == 0:
            continue
        w_y = float(sums.exact[n_y])
        h = 0.0
        for c in row[row > 0].tolist():
            p = float(sums.exact[c]) / w_y
            h -= p * math.log(p)
        out += w_y / total * h
    return out


def mutual_information(first: np.ndarray, second: np.ndarray, r_first: int, r_second: int,
                       sums: _Sums) -> float:
    """The library's ``I(first; second) = max(H(first) - H(first | second), 0)``."""
    if first.size == 0:
        return 0.0
    joint = np.bincount(second * r_first + first, minlength=r_first * r_second).reshape(
        r_second, r_first)
    counts = joint.sum(axis=0)[:int(first.max()) + 1]
    return max(entropy_float(counts, sums) - conditional_entropy(joint, sums), 0.0)


def mutual_information_with_class(codes, y, cards, n_classes, class_first: bool) -> np.ndarray:
    """Per attribute, the library's ``I(C; X)`` (TAN: the class first) or ``I(X; C)`` (kDB)."""
    sums = _Sums(codes.shape[0])
    out = np.empty(codes.shape[1])
    for j in range(codes.shape[1]):
        x, r = codes[:, j], int(cards[j])
        out[j] = (mutual_information(y, x, n_classes, r, sums) if class_first
                  else mutual_information(x, y, r, n_classes, sums))
    return out


def conditional_information_matrix(codes, y, cards, n_classes) -> np.ndarray:
    """The library's float32 matrix of ``I(Xi; Xj | C)`` (``Metrics::conditionalEdge``), zero
    diagonal."""
    n, m = codes.shape
    sums = _Sums(n)
    by_class = [np.flatnonzero(y == c) for c in range(n_classes)]
    prior = [float(_F32(rows.size / n)) for rows in by_class]
    out = np.zeros((m, m), dtype=_F32)
    for i in range(m):
        for j in range(i + 1, m):
            acc = 0.0
            for c, rows in enumerate(by_class):
                acc += prior[c] * mutual_information(codes[rows, i], codes[rows, j],
                                                     int(cards[i]), int(cards[j]), sums)
            out[i, j] = out[j, i] = _F32(acc)
    return out
