"""Discretization: the semantics of the bins, properties of every method (hypothesis), the one
table of methods, and a chunked data set's cut points against the in-memory discretizer's on
the same rows. Each method's own rules are tested beside it (test_mdl.py, test_binning.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bayesbench.data import Attribute, Dataset, load_dataset
from bayesbench.errors import DataError, NotFittedError, PreprocessError
from bayesbench.preprocess import discretize
from bayesbench.data.chunks import chunks, scan
from bayesbench.preprocess.binning import frequency_cuts, width_cuts
from bayesbench.preprocess.discretize import (CUT_METHODS, Discretizer, bin_codes,
                                              discretize_chunked, range_labels)
from helpers import write_numeric_parts



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



# ------------------------------------------------ choice list, errors, infinities, bins
def test_method_list_and_none_keeps_numeric_attributes(uci_dir):
    assert tuple(CUT_METHODS) == ("mdl", "fd", "width", "frequency", "pki", "wpki")
    assert discretize.methods() == (*CUT_METHODS, "none")
    assert discretize.chunked_methods() == ("mdl", "width")
    assert discretize.methods_reading("max_cuts") == ("mdl",)
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
    n = len(values)  # the first half of the rows class a, the rest b
    return Dataset("inf", [Attribute("x", "numeric")], [np.array(values, dtype=float)],
                   Attribute("c", "nominal", ("a", "b")), np.arange(n) * 2 // n)


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
    # WPKI makes two intervals from 64 values on (s t = n, s - t = 30): the six values 11 times.
    train = _with_infinity([1.0, 2.0, 3.0, 10.0, 11.0, 12.0] * (11 if method == "wpki" else 1))
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


# ------------------------------------------------ one table of methods
def test_the_methods_page_lists_the_table():
    from helpers import documents_choices

    assert documents_choices("data.md", CUT_METHODS)


class _Midrange(discretize.CutMethod):
    """One cut half-way across the training range (a method a test adds)."""

    name = "midrange"
    summary = "one cut half-way across the training range"
    calls = []

    def cuts(self, x, y, n_classes):
        type(self).calls.append(x.size)
        x = x[~np.isnan(x)]
        return np.array([(x.min() + x.max()) / 2]) if x.size and x.min() < x.max() else x[:0]


def test_a_new_method_is_one_entry_seen_by_the_config_the_run_and_the_docs(
        uci_dir, tmp_path, monkeypatch):
    import types

    from helpers import documents_choices, run, small_config
    from bayesbench.errors import ConfigError

    over = {"datasets": ["iris"], "classifiers": ["nb"], "cv": {"folds": 2},
            "preprocess": {"discretize": "midrange"}}
    with pytest.raises(ConfigError, match=r"preprocess\.discretize: .*midrange"):
        small_config(uci_dir, tmp_path, **over)
    monkeypatch.setattr(discretize, "CUT_METHODS",
                        types.MappingProxyType({**CUT_METHODS, "midrange": _Midrange}))
    result = run(small_config(uci_dir, tmp_path, **over), jobs=1, quiet=True)
    # the run discretized each training fold's four numeric attributes with it
    assert _Midrange.calls == [75] * 8 and len(result.records) == 2
    assert not documents_choices("data.md", discretize.CUT_METHODS)
    assert Discretizer("midrange").fit(load_dataset(uci_dir / "iris.arff")).cuts_[
        "petallength"].tolist() == [3.95]


def test_the_docstring_examples_of_discretize():
    import doctest

    result = doctest.testmod(discretize)
    assert result.attempted and not result.failed
