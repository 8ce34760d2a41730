"""The compiled inner loops of :mod:`.hdp`: one Gibbs sweep over the table counts, a
sweep's estimates of every node, and the Stirling numbers and polygamma functions they read.

A sweep is a chain of hundreds of thousands of draws, each depending on the one before it
(a draw moves its parent's counts, which the next draw reads), so it cannot be vectorised;
in numpy each draw would cost microseconds of per-call overhead, compiled it costs tens of
nanoseconds. The module holds no state and no constants of the sampler: :mod:`.hdp` passes
them in, and imports this module only when it samples (numba's import takes half a second,
which every other command would pay).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

_EULER_GAMMA = 0.5772156649015329


@njit(cache=True)
def digamma(x):
    """``psi(x)`` for ``x > 0``: the recurrence ``psi(x) = psi(x + 1) - 1 / x`` up to
    ``x >= 8``, then the asymptotic series to ``x^-14`` (its next term is below 2e-15)."""
    shift = 0.0
    while x < 8.0:
        shift -= 1.0 / x
        x += 1.0
    inv = 1.0 / x
    z = inv * inv
    series = z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z * (
        1 / 132 - z * (691 / 32760 - z / 12))))))
    return shift + math.log(x) - 0.5 * inv - series


@njit(cache=True)
def trigamma(x):
    """``psi'(x)`` for ``x > 0``: ``psi'(x) = psi'(x + 1) + 1 / x^2`` up to ``x >= 8``,
    then the asymptotic series to ``x^-15``."""
    shift = 0.0
    while x < 8.0:
        shift += 1.0 / (x * x)
        x += 1.0
    inv = 1.0 / x
    z = inv * inv
    series = inv * z * (1 / 6 - z * (1 / 30 - z * (1 / 42 - z * (1 / 30 - z * (
        5 / 66 - z * (691 / 2730 - z * 7 / 6))))))
    return shift + inv + 0.5 * z + series


@njit(cache=True)
def _saddle_point(n, t):
    """``log S(n, t)`` for ``3 < t < n - 2`` (Moser and Wyman 1958): the saddle point ``x``
    of ``x (psi(x + n) - psi(x)) = t`` by Newton steps on ``log x``."""
    x = t / math.log1p(n / t)
    for _ in range(60):
        g = x * (digamma(x + n) - digamma(x)) - t
        v = t + g + x * x * (trigamma(x + n) - trigamma(x))
        step = min(1.0, max(-1.0, g / v))
        x *= math.exp(-step)
        if abs(step) < 1e-12:
            break
    v = t + x * x * (trigamma(x + n) - trigamma(x))
    return (math.lgamma(x + n) - math.lgamma(x) - t * math.log(x)
            - 0.5 * math.log(2 * math.pi * v))


@njit(cache=True)
def log_stirling_formula(n, t):
    """``log S(n, t)`` for ``0 < t <= n`` without the table: exact for ``t <= 3`` and
    ``t >= n - 2``, else the saddle point (error below 0.03 at n = 1500, smaller above)."""
    nf, tf = float(n), float(t)
    if t == n:
        return 0.0
    if t == n - 1:  # S(n, n-1) = n (n-1) / 2
        return math.log(nf) + math.log(nf - 1) - math.log(2.0)
    if t == n - 2:  # S(n, n-2) = n (n-1) (n-2) (3n-1) / 24
        return (math.log(nf) + math.log(nf - 1) + math.log(nf - 2) + math.log(3 * nf - 1)
                - math.log(24.0))
    if t > 3:
        return _saddle_point(nf, tf)
    # S(n, 1) = (n-1)!, S(n, 2) = (n-1)! H, S(n, 3) = (n-1)! (H^2 - H2) / 2 with H and H2
    # the harmonic numbers of order 1 and 2 of n - 1
    harmonic = digamma(nf) + _EULER_GAMMA
    if t == 1:
        return math.lgamma(nf)
    if t == 2:
        return math.lgamma(nf) + math.log(harmonic)
    h2 = math.pi ** 2 / 6 - trigamma(nf)
    return math.lgamma(nf) + math.log((harmonic * harmonic - h2) / 2)


@njit(cache=True)
def log_stirling_formulas(n, t):
    """:func:`log_stirling_formula` elementwise over two int64 arrays."""
    out = np.empty(n.shape[0])
    for i in range(n.shape[0]):
        out[i] = log_stirling_formula(n[i], t[i])
    return out


@njit(cache=True, inline="always")
def _row(n):
    """Where row ``n`` (``t = 0 .. n``) starts in the table packed by rows."""
    return n * (n + 1) // 2


@njit(cache=True, inline="always")
def _column(t, exact):
    """Where column ``t`` (``n = t .. exact``) starts in the table packed by columns."""
    return t * (exact + 1) - t * (t - 1) // 2


@njit(cache=True, inline="always")
def _log_s(by_row, n, t, exact):
    """``log S(n, t)`` for ``1 <= t <= n``: the table up to ``exact``, the formulas above."""
    if n > exact:
        return log_stirling_formula(n, t)
    return by_row[_row(n) + t]


@njit(cache=True, inline="always")
def _table_weights(n, base, parent_t, c, rest, first, last, up_t, up_n, exact, weight):
    """The cumulative weights of ``v = first .. last`` into ``weight`` and their sum, when
    ``n`` and ``base + last`` are within the tables: from ``w(first) = 1`` by the ratio of
    consecutive values, ``S(n, v + 1) / S(n, v)`` (``up_t``, packed by rows),
    ``S(base + v + 1, parent_t) / S(base + v, parent_t)`` (``up_n``, packed by columns) and
    ``c / (rest + v)``: no logarithm nor exponential. The product stays in range: with
    ``m = base + v <= rest + v``, a ratio is at most ``H_n (m + m^2 / 2) c / m < 3e7``
    (``H_n < 9`` the harmonic number, ``m <= EXACT``, ``c <= CAP``) and at most 2 window
    ratios are multiplied; a value that falls below 1e-308 of ``w(first)`` weighs nothing
    beside it."""
    row = _row(n)
    column = _column(parent_t, exact) - parent_t + base
    w, cumulative = 1.0, 0.0
    for v in range(first, last + 1):
        cumulative += w
        weight[v - first] = cumulative
        w *= up_t[row + v] * up_n[column + v] * (c / (rest + v))
    return cumulative


@njit(cache=True, inline="always")
def _formula_weights(n, base, parent_t, c, rest, first, last, by_row, exact, weight):
    """:func:`_table_weights` where a count is above the tables: ``log S`` from the table
    or the formulas, the largest subtracted before exponentiating, times the rising factor
    as a product (at most 2 window factors, each below CAP since ``rest + v >= 1`` and
    above 1e-10 since ``c`` stays above about 3e-3: its rate's terms are ``-log q <= 173``
    against a shape of at least 1 a node)."""
    peak = -np.inf
    for v in range(first, last + 1):
        s = _log_s(by_row, n, v, exact) + _log_s(by_row, base + v, parent_t, exact)
        weight[v - first] = s
        peak = max(peak, s)
    rising, cumulative = 1.0, 0.0
    for v in range(first, last + 1):
        cumulative += math.exp(weight[v - first] - peak) * rising
        weight[v - first] = cumulative
        rising *= c / (rest + v)
    return cumulative


@njit(cache=True, inline="always")
def _draw(n, t, total, a, b, node_parent, c, c_parent, u_offset, u_draw, window,
          max_tables, tables, exact, weight):
    """Draws the table count ``t[a]`` (parent pair ``b``, parent node ``node_parent``) from
    its conditional given the rest over the window ``[t - o, t - o + 2 window]``, ``o`` the
    uniform ``u_offset`` made an integer, and updates the parent's count and total. The
    conditional, up to a constant, is ``S(n, v) S(base + v, t_parent) c^v / (rest)_v``."""
    size = 2 * window + 1
    old = t[a]
    low = old - min(int(u_offset * size), size - 1)
    base = n[b] - old
    parent_t = t[b]
    # values outside 1 .. min(n, max_tables) or leaving the parent fewer counts than tables
    # have probability 0
    first = max(low, 1, parent_t - base)
    last = min(low + size - 1, n[a], max_tables)
    rest = c_parent + total[node_parent] - old
    by_row, up_t, up_n = tables
    if n[a] <= exact and base + last <= exact:
        cumulative = _table_weights(n[a], base, parent_t, c, rest, first, last, up_t, up_n,
                                    exact, weight)
    else:
        cumulative = _formula_weights(n[a], base, parent_t, c, rest, first, last, by_row,
                                      exact, weight)
    target = u_draw * cumulative
    new = last
    for i in range(last - first + 1):
        if weight[i] > target:
            new = first + i
            break
    t[a] = new
    n[b] += new - old
    total[node_parent] += new - old


@njit(cache=True)
def sweep(n, t, total, pair, parent_pair, node_parent, conc_of, parent_conc_of, conc,
          uniforms, window, max_tables, tables, exact):
    """One Gibbs sweep: every pair's table count in the order of ``pair``, drawn with
    ``uniforms[0, i]`` (the window's offset) and ``uniforms[1, i]`` (the value) in place in
    the flattened ``n``, ``t`` and the nodes' totals. ``tables``: ``log S(n, t)`` packed by
    rows, ``S(n, t + 1) / S(n, t)`` packed by rows and ``S(n + 1, t) / S(n, t)`` packed by
    columns, for ``n`` up to ``exact``."""
    weight = np.empty(2 * window + 1)
    for i in range(pair.shape[0]):
        _draw(n, t, total, pair[i], parent_pair[i], node_parent[i], conc[conc_of[i]],
              conc[parent_conc_of[i]], uniforms[0, i], uniforms[1, i], window, max_tables,
              tables, exact, weight)


@njit(cache=True)
def estimates(n, total, parent, conc_of, conc, root, p):
    """Each node's ``p = (n + c p_parent) / (N + c)`` into ``p``, top down (nodes are
    ordered level by level; ``root`` holds the roots' parent distributions)."""
    for j in range(n.shape[0]):
        c = conc[conc_of[j]]
        scale = 1.0 / (total[j] + c)
        for x in range(n.shape[1]):
            base = root[j, x] if parent[j] < 0 else p[parent[j], x]
            p[j, x] = (n[j, x] + c * base) * scale
