"""The compiled sampler's special functions against scipy.special, over the range the
saddle point reads (``x`` from the saddle point's smallest, about 1e-3, to counts of 1e6)."""
from __future__ import annotations

import numpy as np
from scipy.special import digamma, polygamma

from bayesbench.models.parameters import hdp_kernel

X = np.r_[np.logspace(-4, 7, 3001), np.arange(1, 60) * 0.25, 1.4616321449683622]


def test_digamma_equals_scipy_to_1e_12():
    ours = np.array([hdp_kernel.digamma(x) for x in X])
    assert np.allclose(ours, digamma(X), rtol=1e-12, atol=1e-12)


def test_trigamma_equals_scipy_to_1e_12():
    ours = np.array([hdp_kernel.trigamma(x) for x in X])
    assert np.allclose(ours, polygamma(1, X), rtol=1e-12, atol=1e-12)
