"""PKI against Weka 3.6's PKIDiscretize (stored cut points), WPKI on a worked example by
hand, and MDL's max_cuts: the best splits first, plain MDL when the limit is not reached."""
import doctest
import hashlib
import json
import math

import numpy as np
import pytest

from bayesbench.data import Attribute, Dataset, load_dataset
from bayesbench.errors import PreprocessError
from bayesbench.preprocess import proportional
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.preprocess.mdl import mdl_cuts
from bayesbench.preprocess.proportional import (equal_frequency_cuts, pki_cuts, pki_intervals,
                                                wpki_cuts, wpki_intervals)


@pytest.fixture(scope="module")
def weka_pki(reference_dir):
    return json.loads((reference_dir / "weka_pki_cuts.json").read_text())


def test_pki_cut_points_are_wekas_to_the_bit_on_every_reference_file(weka_pki, uci_dir):
    about, cuts = weka_pki["about"], weka_pki["cuts"]
    assert sorted(about["datasets"]) == sorted(cuts) and len(cuts) >= 6
    checked = 0
    for name in about["datasets"]:
        path = uci_dir / f"{name}.arff"
        # The bytes Weka read: the figures belong to these files.
        assert hashlib.sha256(path.read_bytes()).hexdigest() == about["data_sha256"][name]
        ds = load_dataset(path)
        fitted = Discretizer("pki").fit(ds).cuts_
        assert set(fitted) == set(cuts[name]), name
        for att, expected in cuts[name].items():
            assert fitted[att].tolist() == expected, f"{name}.{att}"
            checked += 1
    assert checked == 244


def test_pki_interval_number_is_wekas_integer_square_root():
    # PKIDiscretize: m_NumBins = (int) Math.sqrt(number of non-missing values).
    assert [pki_intervals(n) for n in (0, 1, 3, 4, 99, 100, 1000)] == [0, 1, 1, 2, 9, 10, 31]
    x = np.arange(1.0, 101.0)
    x[::10] = np.nan  # 1, 11, ..., 91 missing: 90 known values, 9 intervals of 10
    # The 10th known value is 12 (2..10, then 12), the 20th 23, ...
    np.testing.assert_array_equal(pki_cuts(x), [12.5, 23.5, 34.5, 45.5, 56.5, 67.5, 78.5,
                                                89.5])


def test_wpki_worked_example_by_hand():
    # Yang and Webb (2003), "Weighted proportional k-interval discretization for naive-Bayes
    # classifiers", PAKDD, LNAI 2637, 501-512, Sec. 4: interval frequency s and interval
    # number t satisfy s * t = n and s - m = t with the minimum frequency m = 30.
    # n = 1000: t^2 + 30 t - 1000 = 0, t = (-30 + sqrt(900 + 4000)) / 2 = (-30 + 70) / 2 = 20
    # intervals of s = 50 values: cut after every 50th value (PKI would make 31 of 32).
    assert wpki_intervals(1000) == 20 and pki_intervals(1000) == 31
    x = np.arange(1.0, 1001.0)[::-1].copy()  # unsorted on purpose
    np.testing.assert_array_equal(wpki_cuts(x), 50.5 + 50.0 * np.arange(19))
    # n = 400: t = (-30 + 50) / 2 = 10 intervals of 40.
    assert wpki_intervals(400) == 10
    np.testing.assert_array_equal(wpki_cuts(np.arange(400.0)), 39.5 + 40.0 * np.arange(9))
    # n = 160: t = (-30 + sqrt(1540)) / 2 = 4.62, rounded down to 4 intervals of 40;
    # n = 31: t = (-30 + 32) / 2 = 1; fewer than 31 values: t < 1, still one interval.
    assert (-30 + math.sqrt(900 + 4 * 160)) / 2 == pytest.approx(4.62, abs=0.005)
    assert [wpki_intervals(n) for n in (160, 31, 30, 1, 0)] == [4, 1, 1, 1, 0]
    assert wpki_cuts(np.arange(30.0)).size == 0


def test_equal_frequency_binning_follows_wekas_rule_by_hand():
    # Ten values, 3 bins: target 10/3 = 3.33. After 1 1 2 (3 values) 3 < 3.33, so the
    # boundary 2|3 is remembered; after 3 (4 values) the target is passed, and 4 - 3.33 = 0.67
    # > 3.33 - 3 = 0.33: the earlier boundary 2.5 is cut, the value 3 carries over (1).
    # New target (6 remaining + 1) / 2 = 3.5: after 4 5 6 (4 values) 4 >= 3.5 with the
    # remembered boundary 5|6 (3 values, 0.5 short) no closer than 0.5 over: cut 6.5.
    x = np.array([1, 1, 2, 3, 4, 5, 6, 7, 8, 9], dtype=float)
    np.testing.assert_array_equal(equal_frequency_cuts(x, 3), [2.5, 6.5])
    # Ties stay together: one run of equal values leaves no boundary, no cut.
    assert equal_frequency_cuts(np.ones(50), 7).size == 0


def _separable(n_blocks: int, size: int = 40):
    """Blocks of ``size`` equal-class values, the class alternating: MDL cuts each border."""
    x = np.arange(float(n_blocks * size))
    y = (np.arange(n_blocks * size) // size) % 2
    return x, y


def test_max_cuts_keeps_the_best_splits_and_is_plain_mdl_when_not_reached():
    x, y = _separable(4)  # borders at 39.5, 79.5, 119.5
    full = mdl_cuts(x, y, 2)
    np.testing.assert_array_equal(full, [39.5, 79.5, 119.5])
    for limit in (3, 4, 100):
        np.testing.assert_array_equal(mdl_cuts(x, y, 2, max_cuts=limit), full)
    # Classes 0 1 0 1 in blocks of 40: the first split (minimum entropy, the leftmost among
    # equals) is 39.5 | rest: N * gain = 160 * (1 - 0.75 * H(1/3)) = 49.8 bits; then 79.5
    # splits the 120 values right of it, saving 120 * H(1/3) - 80 = 30.2 bits.
    h = -(1 / 3 * math.log2(1 / 3) + 2 / 3 * math.log2(2 / 3))
    assert 160 * (1 - 0.75 * h) > 120 * h - 80 > 0
    np.testing.assert_array_equal(mdl_cuts(x, y, 2, max_cuts=1), [39.5])
    np.testing.assert_array_equal(mdl_cuts(x, y, 2, max_cuts=2), [39.5, 79.5])


def test_max_cuts_bounds_every_reference_attribute(uci_dir):
    ds = load_dataset(uci_dir / "segment.arff")
    full = Discretizer("mdl").fit(ds).cuts_
    two = Discretizer("mdl", max_cuts=2).fit(ds).cuts_
    for att, cuts in full.items():
        assert len(two[att]) == min(2, len(cuts))
        assert set(two[att].tolist()) <= set(cuts.tolist()), att


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3"])
def test_bad_max_cuts_is_refused_in_one_line(bad):
    ds = Dataset("d", [Attribute("x", "numeric")], [np.arange(6.0)],
                 Attribute("c", "nominal", ("a", "b")), np.array([0, 0, 0, 1, 1, 1]))
    with pytest.raises(PreprocessError, match="maximum number of cut points") as err:
        Discretizer("mdl", max_cuts=bad).fit(ds)
    assert "\n" not in str(err.value)


def test_docstring_examples():
    assert doctest.testmod(proportional, optionflags=doctest.ELLIPSIS).failed == 0
