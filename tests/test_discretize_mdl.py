"""MDL discretization against Weka 3.6.14's cut points, and the semantics of the bins."""
import json
import math

import numpy as np
import pytest

from bayesbench.data import Attribute, Dataset, load_dataset
from bayesbench.errors import ConfigError, DataError, NotFittedError
from bayesbench.preprocess.discretize import (Discretizer, bin_codes, mdl_cuts,
                                              range_labels)


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
    with pytest.raises(ConfigError, match="method"):
        Discretizer(method="chi2").fit(ds)
    with pytest.raises(ConfigError, match="bins"):
        Discretizer(method="width", bins=0).fit(ds)
