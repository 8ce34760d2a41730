"""Discretization: MDL against Weka 3.6.14's cut points, the semantics of the bins,
properties of every method (hypothesis), the unsupervised rules against numpy, and a chunked
data set's cut points against the in-memory discretizer's on the same rows."""
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bayesbench.data import Attribute, Dataset, load_dataset
from bayesbench.errors import DataError, NotFittedError, PreprocessError
from bayesbench.preprocess import discretize
from bayesbench.data.chunks import chunks, scan
from bayesbench.preprocess.discretize import (CUT_METHODS, Discretizer, bin_codes,
                                              discretize_chunked, fd_cuts, frequency_cuts,
                                              mdl_cuts, range_labels, width_cuts)
from helpers import write_numeric_parts


def reference_cases(reference_dir):
    ref = json.loads((reference_dir / "weka_mdl_cuts.json").read_text())
    return ref["about"]["datasets"], ref["cuts"]


def test_cut_points_equal_wekas_on_every_reference_data_set(reference_dir, uci_dir):
    names, cuts = reference_cases(reference_dir)
    assert sorted(names) == sorted(cuts) and len(names) == 22
    n_checked = 0
    for name in names:
        ds = load_dataset(uci_dir / f"{name}.arff")
        fitted = Discretizer("mdl").fit(ds).cuts_
        assert set(fitted) == set(cuts[name]), name
        for att, expected in cuts[name].items():
            got = fitted[att]
            assert got.shape == (len(expected),), (name, att, got, expected)
            np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9, err_msg=f"{name}.{att}")
            n_checked += 1
    assert n_checked == sum(len(v) for v in cuts.values())


def _entropy_bits(counts):
    counts = np.asarray(counts, dtype=float)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


def test_hand_computed_split_and_stopping_rule():
    # Eight values, two classes perfectly separated between 4 and 5.
    x = np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=float)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    # Gain = 1 bit; delta = log2(3^2 - 2) - (2 * 1 - 0 - 0); threshold = (log2(7) + delta) / 8
    threshold = (math.log2(7) + math.log2(7) - 2) / 8
    assert 1.0 > threshold
    np.testing.assert_array_equal(mdl_cuts(x, y, 2), [4.5])
    # Three values: best split 1 | 2 3, gain H(1,2) = 0.918 bits;
    # delta = log2(7) - 2 H(1,2), threshold = (log2(2) + delta) / 3 = 0.657: accepted.
    h = _entropy_bits([1, 2])
    assert h > (math.log2(2) + math.log2(7) - 2 * h) / 3
    np.testing.assert_array_equal(mdl_cuts(np.array([1.0, 2.0, 3.0]), np.array([0, 1, 1]), 2),
                                  [1.5])
    # Six values 0 0 1 0 1 1: best split 1 2 | 3..6 (entropy 0.541), gain 0.459;
    # delta = log2(7) - (2 * 1 - 2 * H(1,3) - 1 * 0), threshold = (log2(5) + delta) / 6 = 0.792.
    gain = 1 - 4 / 6 * _entropy_bits([1, 3])
    threshold = (math.log2(5) + math.log2(7) - (2 - 2 * _entropy_bits([1, 3]))) / 6
    assert gain < threshold
    assert mdl_cuts(np.arange(1.0, 7.0), np.array([0, 0, 1, 0, 1, 1]), 2).size == 0


def test_cut_is_half_way_between_distinct_values_and_ties_stay_together():
    # The class changes inside a run of equal values: no cut may split the run.
    x = np.array([1, 1, 1, 2, 2, 2, 2, 9, 9, 9, 9, 9, 9, 9, 9, 9] * 3, dtype=float)
    y = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] * 3)
    cuts = mdl_cuts(x, y, 2)
    assert cuts.tolist() == [5.5]


def test_missing_values_are_left_out_and_stay_missing():
    x = np.array([1, 2, 3, 4, np.nan, 5, 6, 7, 8, np.nan], dtype=float)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 0])
    np.testing.assert_array_equal(mdl_cuts(x, y, 2), [4.5])
    assert bin_codes(x, np.array([4.5])).tolist() == [0, 0, 0, 0, -1, 1, 1, 1, 1, -1]


def test_labels_as_weka_writes_them(uci_dir):
    ds = load_dataset(uci_dir / "iris.arff")
    out = Discretizer().fit_transform(ds)
    petal = out.attributes[2]
    assert petal.name == "petallength" and petal.kind == "nominal"
    assert petal.categories == ("(-inf-2.45]", "(2.45-4.75]", "(4.75-inf)")
    assert out.attributes[3].categories == ("(-inf-0.8]", "(0.8-1.75]", "(1.75-inf)")
    assert range_labels(np.array([])) == ("All",)
    assert range_labels(np.array([-0.0000004, 92.0, 1 / 3])) == (
        "(-inf-0]", "(0-92]", "(92-0.333333]", "(0.333333-inf)")
    np.testing.assert_array_equal(out.cardinalities, [3, 3, 3, 3])


def test_attribute_without_accepted_cut_becomes_one_bin(uci_dir):
    ds = load_dataset(uci_dir / "adult.arff").take(np.arange(3000))
    out = Discretizer().fit(ds)
    assert out.cuts_["fnlwgt"].size == 0
    t = out.transform(ds)
    att = t.attributes[t.attribute_names.index("fnlwgt")]
    assert att.categories == ("All",)
    assert set(t.columns[t.attribute_names.index("fnlwgt")].tolist()) == {0}


def test_values_outside_the_training_range_fall_into_outer_bins():
    att = [Attribute("x", "numeric")]
    target = Attribute("c", "nominal", ("a", "b"))
    train = Dataset("t", att, [np.arange(1.0, 9.0)], target, [0, 0, 0, 0, 1, 1, 1, 1])
    test = Dataset("t", att, [np.array([-100.0, 4.5, 4.50001, 1e9, np.nan])], target,
                   [0, 0, 1, 1, 0])
    out = Discretizer().fit(train).transform(test)
    assert out.columns[0].tolist() == [0, 0, 1, 1, -1]
    assert out.y.tolist() == test.y.tolist()


def test_nominal_attributes_pass_through_untouched(uci_dir):
    ds = load_dataset(uci_dir / "cmc.arff")
    out = Discretizer().fit_transform(ds)
    for a, b, ca, cb in zip(ds.attributes, out.attributes, ds.columns, out.columns):
        if a.is_nominal:
            assert a == b and ca is cb or np.array_equal(ca, cb)
    assert out.is_nominal


def test_transform_checks_what_fit_saw(uci_dir):
    ds = load_dataset(uci_dir / "iris.arff")
    with pytest.raises(NotFittedError):
        Discretizer().transform(ds)
    d = Discretizer().fit(ds.select(["petallength"]))
    with pytest.raises(DataError, match="sepallength"):
        d.transform(ds)
    with pytest.raises(PreprocessError, match="method"):
        Discretizer(method="chi2").fit(ds)
    with pytest.raises(PreprocessError, match="bins"):
        Discretizer(method="width", bins=0).fit(ds)


# ------------------------------------------------ properties of every method
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


# ------------------------------------------------ choice list, errors, infinities, bins
def test_method_list_and_none_keeps_numeric_attributes(uci_dir):
    assert CUT_METHODS == ("mdl", "fd", "width", "frequency")
    assert discretize.METHODS == CUT_METHODS + ("none",)
    ds = load_dataset(uci_dir / "iris.arff")
    fitted = Discretizer("none").fit(ds)
    assert fitted.cuts_ == {}
    out = fitted.transform(ds)
    assert out.attributes == ds.attributes
    for a, b in zip(out.columns, ds.columns):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("method, bins, words", [("chi2", 10, "unknown discretization method 'chi2'"),
                                                 ("width", 0, "positive integer, got 0"),
                                                 ("frequency", True, "positive integer, got True")])
def test_parameter_errors_speak_of_the_method_not_of_config_keys(uci_dir, method, bins, words):
    ds = load_dataset(uci_dir / "iris.arff")
    with pytest.raises(PreprocessError) as err:
        Discretizer(method, bins).fit(ds)
    assert words in str(err.value)
    assert "preprocess." not in str(err.value) and "--" not in str(err.value)


def _with_infinity(values):
    return Dataset("inf", [Attribute("x", "numeric")], [np.array(values, dtype=float)],
                   Attribute("c", "nominal", ("a", "b")), [0, 0, 0, 1, 1, 1])


@pytest.mark.parametrize("method", CUT_METHODS)
def test_infinite_training_values_are_refused_naming_the_attribute(method):
    ds = _with_infinity([1.0, 2.0, np.inf, 4.0, -np.inf, 6.0])
    ds.source = "data.csv"
    with pytest.raises(PreprocessError) as err:
        Discretizer(method, 3).fit(ds)
    msg = str(err.value)
    assert msg.startswith("data.csv: attribute 'x': 2 infinite value(s)"), msg
    assert "\n" not in msg


@pytest.mark.parametrize("method", CUT_METHODS)
def test_infinite_values_to_transform_fall_into_the_outer_bins(method):
    train = _with_infinity([1.0, 2.0, 3.0, 10.0, 11.0, 12.0])
    fitted = Discretizer(method, 2).fit(train)
    cuts = fitted.cuts_["x"]
    assert cuts.size >= 1 and np.isfinite(cuts).all()
    out = fitted.transform(_with_infinity([-np.inf, np.inf, np.nan, 1.0, 12.0, 5.0]))
    assert out.columns[0].tolist()[:3] == [0, cuts.size, -1]


def test_labels_of_huge_cut_points_are_plain_numbers():
    # numpy 2's repr of np.float64 is 'np.float64(1e+300)', which leaked into labels
    assert range_labels(np.array([1e300])) == ("(-inf-1e+300]", "(1e+300-inf)")


def test_bins_are_bounded_by_the_number_of_distinct_values():
    x = np.array([0.0, 1.0, 1.0, 2.0, 2.0, 2.0, np.nan])
    # three distinct values: a trillion bins would allocate terabytes; three are the most
    # that can hold a value
    np.testing.assert_allclose(width_cuts(x, 10 ** 12), width_cuts(x, 3))
    np.testing.assert_allclose(width_cuts(x, 10 ** 12), [2 / 3, 4 / 3])
    # frequency: from one quantile per value on, every gap between distinct values is cut
    np.testing.assert_allclose(frequency_cuts(x, 10 ** 12), [0.5, 1.5])
    np.testing.assert_allclose(frequency_cuts(x, 6), [0.5, 1.5])
    ds = _with_infinity([0.0, 1.0, 1.0, 2.0, 2.0, 2.0])
    assert Discretizer("width", 10 ** 12).fit_transform(ds).attributes[0].cardinality == 3


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


@pytest.mark.parametrize("name", ["pima-indians-diabetes", "iris"])
@pytest.mark.parametrize("method", ["mdl", "width"])
def test_a_chunked_data_set_gets_the_in_memory_cut_points_and_codes(uci_dir, tmp_path, name,
                                                                    method):
    # Per-value class counts of 100-row chunks of three files, merged, against the
    # Discretizer fitted on one CSV file of the same rows (with missing values).
    whole = write_numeric_parts(load_dataset(uci_dir / f"{name}.arff"), tmp_path / "parts")
    ref = load_dataset(whole)
    assert not ref.nominal_mask.any() and ref.missing_mask().any()
    fitted = Discretizer(method, bins=7).fit(ref)
    source = discretize_chunked(scan(tmp_path / "parts", chunk_rows=100), method, 7,
                                chunk_rows=100)
    assert source.numeric_names == tuple(ref.attribute_names)
    assert sum(len(c) for c in fitted.cuts_.values()) >= len(ref.attribute_names)
    for att, cuts in zip(source.attribute_names, source.cuts):
        np.testing.assert_array_equal(cuts, fitted.cuts_[att])  # exactly, not approximately
    coded = fitted.transform(ref)
    assert source.categories == tuple(a.categories for a in coded.attributes)
    X = np.concatenate([X for i in range(3) for _, X, _ in chunks(source, i, chunk_rows=100)])
    np.testing.assert_array_equal(X, coded.codes())  # missing stays missing


def test_a_chunked_data_set_takes_only_the_methods_it_can_count(uci_dir, tmp_path):
    write_numeric_parts(load_dataset(uci_dir / "iris.arff"), tmp_path / "parts")
    source = scan(tmp_path / "parts")
    with pytest.raises(PreprocessError, match=r"attribute 'sepallength'.*'fd' is not available "
                                              r"for chunked data; use one of mdl, width"):
        discretize_chunked(source, "fd")
    with pytest.raises(DataError, match=r"p0\.csv: attribute 'sepallength': numeric column "
                                        r"without cut points"):
        next(chunks(source, 0))


def test_mdl_with_more_classes_than_a_float_power_of_three_holds_is_wekas(tmp_path):
    """A 1,000-class data set ended in OverflowError (3.0 ** k): Weka's Math.pow(3, k) is
    infinite there, so its MDL test accepts no split; Weka itself is the reference."""
    import subprocess

    path = tmp_path / "many.csv"
    x = [round(i * 0.37 % 5, 3) for i in range(1400)]
    path.write_text("a,c\n" + "".join(f"{v},k{i % 700}\n" for i, v in enumerate(x)))
    out = subprocess.run(["java", "-cp", "/usr/share/java/weka.jar",
                          "weka.filters.supervised.attribute.Discretize", "-R", "first", "-c",
                          "last", "-i", str(path)], capture_output=True, text=True,
                         check=True).stdout
    weka_bins = next(line for line in out.splitlines() if line.startswith("@attribute a"))
    assert weka_bins == "@attribute a {'\\'All\\''}"  # one bin: no cut point
    ds = load_dataset(path)
    assert discretize.mdl_cuts(ds.columns[0], ds.y, ds.n_classes).size == 0


def test_the_docstring_examples_of_discretize():
    import doctest

    result = doctest.testmod(discretize)
    assert result.attempted and not result.failed
