"""Fayyad and Irani's MDL discretization against Weka 3.6.14's cut points (stored, and Weka
itself where the stored file cannot reach), and by hand."""
import json
import math

import numpy as np

from bayesbench.data import load_dataset
from bayesbench.preprocess.mdl import mdl_cuts
from bayesbench.data.dataset import bin_codes
from bayesbench.preprocess.discretize import Discretizer


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
    assert mdl_cuts(ds.columns[0], ds.y, ds.n_classes).size == 0
