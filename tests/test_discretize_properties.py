"""Discretizer properties (hypothesis) and the unsupervised rules against numpy."""
import numpy as np
from hypothesis import given, settings, strategies as st

from bayesbench.data import Attribute, Dataset
from bayesbench.preprocess.discretize import (Discretizer, bin_codes, fd_cuts,
                                              frequency_cuts, width_cuts)

METHODS = ["mdl", "fd", "width", "frequency"]

values = st.lists(
    st.one_of(st.integers(-20, 20).map(float),
              st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
              st.just(float("nan"))),
    min_size=2, max_size=80)


def dataset(x, y, n_classes=3):
    return Dataset("p", [Attribute("x", "numeric")], [np.asarray(x, dtype=float)],
                   Attribute("c", "nominal", tuple("abc"[:n_classes])), y)


@st.composite
def labelled(draw):
    x = draw(values)
    y = draw(st.lists(st.integers(0, 2), min_size=len(x), max_size=len(x)))
    return np.array(x), np.array(y)


@settings(max_examples=60, deadline=None)
@given(data=labelled(), method=st.sampled_from(METHODS), bins=st.integers(1, 12),
       seed=st.integers(0, 2 ** 32 - 1))
def test_cuts_sorted_unique_bins_partition_and_order_free(data, method, bins, seed):
    x, y = data
    ds = dataset(x, y)
    cuts = Discretizer(method, bins).fit(ds).cuts_["x"]
    assert np.all(np.diff(cuts) > 0)
    assert np.all(np.isfinite(cuts))
    present = x[~np.isnan(x)]
    if present.size:
        assert cuts.size == 0 or (cuts.min() >= present.min() and cuts.max() <= present.max())
    # every value falls in exactly one bin: lower < v <= upper
    codes = bin_codes(x, cuts)
    edges = np.concatenate([[-np.inf], cuts, [np.inf]])
    ok = ~np.isnan(x)
    assert np.all(codes[~ok] == -1)
    inside = (edges[:-1][None, :] < x[ok][:, None]) & (x[ok][:, None] <= edges[1:][None, :])
    assert np.all(inside.sum(axis=1) == 1)
    np.testing.assert_array_equal(np.argmax(inside, axis=1), codes[ok])
    # fitting on a permutation of the rows gives the same cut points
    perm = np.random.default_rng(seed).permutation(len(x))
    again = Discretizer(method, bins).fit(ds.take(perm)).cuts_["x"]
    np.testing.assert_array_equal(again, cuts)


@settings(max_examples=40, deadline=None)
@given(data=labelled())
def test_mdl_cuts_lie_half_way_between_adjacent_distinct_values(data):
    x, y = data
    cuts = Discretizer("mdl").fit(dataset(x, y)).cuts_["x"]
    distinct = np.unique(x[~np.isnan(x)])
    mids = (distinct[:-1] + distinct[1:]) / 2
    assert np.isin(cuts, mids).all()


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
