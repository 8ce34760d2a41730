"""The unsupervised binnings: Freedman-Diaconis against numpy, equal width and equal frequency
by hand, and the bound on bins."""
import numpy as np
from hypothesis import given, settings, strategies as st

from bayesbench.data.dataset import bin_codes
from bayesbench.preprocess.binning import fd_cuts, frequency_cuts, width_cuts


@settings(max_examples=40, deadline=None)
@given(x=st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=2, max_size=200))
def test_fd_agrees_with_numpy(x):
    x = np.array(x)
    cuts = fd_cuts(x)
    q75, q25 = np.percentile(x, [75, 25])
    fd_width = 2 * (q75 - q25) / len(x) ** (1 / 3)
    if x.min() == x.max():
        assert cuts.size == 0
    elif q75 > q25 and (x.max() - x.min()) / fd_width <= len(x):
        np.testing.assert_array_equal(cuts, np.unique(np.histogram_bin_edges(x, "fd")[1:-1]))
    else:  # documented fallback: Sturges when the IQR is zero or FD gives more bins than values
        np.testing.assert_array_equal(cuts, np.histogram_bin_edges(x, "sturges")[1:-1])


def test_fd_width_and_fallback_by_hand():
    x = np.arange(1.0, 9.0)  # IQR = 6.25 - 2.75 = 3.5, n = 8: width = 2 * 3.5 / 2 = 3.5
    n_bins = int(np.ceil(7 / 3.5))
    np.testing.assert_allclose(fd_cuts(x), np.linspace(1, 8, n_bins + 1)[1:-1])
    tied = np.array([0.0] * 10 + [1.0, 5.0])  # IQR 0: Sturges, ceil(log2 12) + 1 = 5 bins
    np.testing.assert_allclose(fd_cuts(tied), [1.0, 2.0, 3.0, 4.0])
    # IQR 0.55 against a range of 1000: FD would ask for about 2080 bins for 12 values: Sturges
    outlier = np.array([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1000.0])
    np.testing.assert_allclose(fd_cuts(outlier), [200.0, 400.0, 600.0, 800.0])


def test_width_and_frequency_by_hand():
    x = np.array([0.0, 1, 2, 3, 4, 5, 6, 7, 8, 10, np.nan])
    np.testing.assert_allclose(width_cuts(x, 4), [2.5, 5.0, 7.5])
    # quartiles of 10 values fall at 2.25, 4.5, 6.75: cuts move to mid-points 2.5, 4.5, 6.5
    np.testing.assert_allclose(frequency_cuts(x, 4), [2.5, 4.5, 6.5])
    counts = np.bincount(bin_codes(x[:-1], frequency_cuts(x, 4)))
    assert counts.tolist() == [3, 2, 2, 3]
    # the 0.2..0.8 quantiles all lie in [1, 1.2]: ties cannot be split, one cut is left
    heavy = np.array([1.0] * 8 + [2.0, 3.0])
    np.testing.assert_allclose(frequency_cuts(heavy, 5), [1.5])
    assert width_cuts(np.array([3.0, 3.0]), 5).size == 0
    assert frequency_cuts(np.array([np.nan, np.nan]), 5).size == 0

@settings(max_examples=60, deadline=None)
@given(x=st.lists(st.integers(-5, 5).map(float), min_size=2, max_size=60),
       extra=st.integers(0, 200))
def test_frequency_with_a_quantile_per_value_cuts_every_gap(x, extra):
    # why bounding bins by the number of values changes nothing: with bins >= n every
    # gap between adjacent distinct values already holds a quantile
    x = np.array(x)
    distinct = np.unique(x)
    every_gap = (distinct[:-1] + distinct[1:]) / 2
    np.testing.assert_array_equal(frequency_cuts(x, x.size + extra), every_gap)
