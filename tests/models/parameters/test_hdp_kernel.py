"""The compiled sampler's special functions against scipy.special, over the range the
saddle point reads (``x`` from the saddle point's smallest, about 1e-3, to counts of 1e6)."""
from __future__ import annotations

import numpy as np
from scipy.special import digamma, polygamma

from bayesbench.models.parameters import hdp, hdp_kernel

X = np.r_[np.logspace(-4, 7, 3001), np.arange(1, 60) * 0.25, 1.4616321449683622]


def test_digamma_equals_scipy_to_1e_12():
    ours = np.array([hdp_kernel.digamma(x) for x in X])
    assert np.allclose(ours, digamma(X), rtol=1e-12, atol=1e-12)


def test_trigamma_equals_scipy_to_1e_12():
    ours = np.array([hdp_kernel.trigamma(x) for x in X])
    assert np.allclose(ours, polygamma(1, X), rtol=1e-12, atol=1e-12)


def _both_ways(n, base, parent_t, first, last, c, rest):
    """A window's distribution (its cumulative weights, normalised) weighed by the tables'
    ratios and by the formulas (``exact=1`` sends every count above 1 to them)."""
    tables = hdp._packed_tables()
    by_tables, by_formulas = np.empty(last - first + 1), np.empty(last - first + 1)
    hdp_kernel._table_weights(n, base, parent_t, c, rest, first, last, tables[1], tables[2],
                              hdp.EXACT, by_tables)
    hdp_kernel._formula_weights(n, base, parent_t, c, rest, first, last, tables[0], 1,
                                by_formulas)
    return by_tables / by_tables[-1], by_formulas / by_formulas[-1]


def test_a_window_weighed_by_the_formulas_as_by_the_tables():
    """The sweep weighs a window by ratios from tables where its counts are within them (up
    to ``hdp.EXACT``) and by log Stirling numbers from the formulas above: on windows within
    the tables the two give the same distribution, to 1e-11 where every Stirling number read
    has an exact formula (``t <= 3`` or ``t >= n - 2``; 1.3e-12 found), to the saddle
    point's error elsewhere (0.0025 found)."""
    rng = np.random.default_rng(0)
    worst = exact_gap = 0.0
    for _ in range(300):
        n, base = int(rng.integers(4, 1000)), int(rng.integers(3, 400))
        c, rest = float(rng.uniform(0.1, 50)), float(rng.uniform(1, 500))
        # exact formulas only: a parent's table count of 1 to 3, a window at either end
        first = 1 if rng.random() < 0.5 else n - 2
        a, b = _both_ways(n, base, int(rng.integers(1, 4)), first, first + 2, c, rest)
        exact_gap = max(exact_gap, np.abs(a - b).max())
        # anywhere
        parent_t = int(rng.integers(1, base + 2))
        first = int(rng.integers(max(1, parent_t - base), n + 1))
        a, b = _both_ways(n, base, parent_t, first, min(first + 20, n), c, rest)
        worst = max(worst, np.abs(a - b).max())
    assert exact_gap < 1e-11 and worst < 0.01, (exact_gap, worst)
