"""Local discretization (tan_ld, kdb_ld, aode_ld): the authors' MDLP on worked examples by
hand, the published algorithm on a worked example where only the local cut works, the
authors' library's cut points and accuracy per fold where it was built (stored), and the
contract: mixed input, missing values, determinism, one-line refusals."""
import ctypes
import doctest
import hashlib
import json
import math

import numpy as np
import pandas as pd
import pytest

from bayesbench import make_classifier
from bayesbench.errors import ClassifierError
from bayesbench.models.learners.ld_mdlp import entropy32, mdlp_codes, mdlp_cuts
from bayesbench.models.learners import local_discretization
from bayesbench.models.learners.local_discretization import (joint_labels, kdb_parents,
                                                             tan_parents)


def _bits(*counts):
    c = np.asarray(counts, dtype=float)
    p = c[c > 0] / c.sum()
    return float(-(p * np.log2(p)).sum())


def test_mdlp_worked_example_separable_classes():
    # Eight values, classes 0 0 0 0 1 1 1 1: the only label boundary is between 4 and 5.
    # Gain 1 bit; delta = log2(3^2 - 2) - (2 * 1 - 0 - 0) = 0.807; threshold
    # (log2(7) + 0.807) / 8 = 0.452 < 1: cut half-way, 4.5.
    x, y = np.arange(1.0, 9.0), np.array([0, 0, 0, 0, 1, 1, 1, 1])
    assert 1 > (math.log2(7) + math.log2(7) - 2) / 8
    assert mdlp_cuts(x, y).tolist() == [4.5]
    # Bins are closed on the left: 4.5 itself falls in the upper bin (upper_bound).
    assert mdlp_codes(np.array([4.0, 4.5, 5.0, np.nan]), np.array([4.5], np.float32)).tolist() \
        == [0, 1, 1, -1]


def test_mdlp_worked_example_boundary_inside_a_run_of_equal_values():
    # Sorted by value then label: (1,0) (1,0) (2,0) (2,1) (2,1) (3,1) (3,1) (3,1). The only
    # label boundary is inside the run of 2s (position 3), where Weka has no candidate.
    x = np.array([2, 3, 1, 2, 3, 2, 1, 3], dtype=float)
    y = np.array([1, 1, 0, 0, 1, 1, 0, 1])
    # Split 0 0 0 | 1 1 1 1 1: both sides pure, gain H(3,5) = 0.954 > threshold
    # (log2(7) + log2(7) - 2 H(3,5)) / 8 = 0.463. The cut moves back to the start of the
    # run (position 2): half-way between 1 and 2, 1.5.
    assert _bits(3, 5) > (math.log2(7) + math.log2(7) - 2 * _bits(3, 5)) / 8
    # Then 2 2 2 3 3 3 with labels 0 | 1 1 1 1 1: the test is made at that boundary, gain
    # H(1,5) = 0.650 > (log2(5) + log2(7) - 2 H(1,5)) / 6 = 0.638; the run of 2s starts the
    # interval, so the cut moves past it: 2.5 (Weka would weigh the split 2 2 2 | 3 3 3).
    assert _bits(1, 5) > (math.log2(5) + math.log2(7) - 2 * _bits(1, 5)) / 6
    assert mdlp_cuts(x, y).tolist() == [1.5, 2.5]


def test_mdlp_worked_example_run_at_the_start_moves_past_it():
    # (1,0) (1,1) (1,1) (2,1) ... : the boundary inside the first run (position 1) reaches
    # back to the interval's start, so the cut goes past the run instead: 1.5 again, with
    # the 1s on the left. Labels: 0 1 1 | 1 1 1 1 1 + classes 0 below 1 elsewhere.
    x = np.array([1, 1, 1, 2, 2, 2, 3, 3] * 4, dtype=float)
    y = np.array([0, 0, 1, 1, 1, 1, 1, 1] * 4)
    assert mdlp_cuts(x, y).tolist() == [1.5]


def test_mdlp_min_length_max_depth_and_proposed_cuts():
    # Four blocks of 20 values labelled 0 1 0 1. First split at 20 (entropy 3/4 H(1/3),
    # the first of the two equal best): gain 1 - 0.689 = 0.311 > (log2(79) + log2(7)
    # - (2 - 2 H(1/3))) / 80 = 0.113. Right of it, 20 | 20 + 20 and 40 | 20 are equal
    # (2/3 bit); the first: gain H(1/3) - 2/3 = 0.252 > (log2(59) + log2(7) - (2 H(1/3)
    # - 2)) / 60 = 0.148. Then the two pure blocks of 40 .. 79 split (gain 1 bit).
    x, y = np.arange(80.0), np.repeat([0, 1, 0, 1], 20)
    h = _bits(1, 2)
    assert 1 - 0.75 * h > (math.log2(79) + math.log2(7) - (2 - 2 * h)) / 80
    assert h - 2 / 3 > (math.log2(59) + math.log2(7) - (2 * h - 2)) / 60
    assert mdlp_cuts(x, y).tolist() == [19.5, 39.5, 59.5]
    # With 10 values a block the second test fails: (log2(29) + 2.971) / 30 = 0.261 > 0.252.
    assert mdlp_cuts(np.arange(40.0), np.repeat([0, 1, 0, 1], 10)).tolist() == [9.5]
    # Depth 1: the first split only.
    assert mdlp_cuts(x, y, max_depth=1).tolist() == [19.5]
    # An interval shorter than min_length is not split: 80 rows < 81.
    assert mdlp_cuts(x, y, min_length=81).size == 0
    # proposed_cuts: keep 2 by dropping the cut whose left interval has the most entropy;
    # every left interval is pure (entropy 0), none exceeds 0, and the first goes.
    assert mdlp_cuts(x, y, proposed_cuts=2).tolist() == [39.5, 59.5]
    # Below 1, a fraction of the rows: round(80 * 0.025) = 2.
    assert mdlp_cuts(x, y, proposed_cuts=0.025).tolist() == [39.5, 59.5]
    with pytest.raises(ClassifierError, match="cannot exceed the number of training rows"):
        mdlp_cuts(x, y, proposed_cuts=81)


def test_mdlp_gives_the_authors_librarys_cut_points_on_240_random_cases(reference_dir):
    # Stored from the library's own CPPFImdlp (mdlp 2.1.3, built outside the repository):
    # values on grids (runs of equal values), up to 24 labels, four settings.
    ref = json.loads((reference_dir / "bayesnet_mdlp_cuts.json").read_text())
    cases = [(np.array(c["x"], dtype=np.float32), np.array(c["labels"])) for c in ref["cases"]]
    checked = 0
    for setting in ref["settings"]:
        kw = {k: setting[k] for k in ("min_length", "max_depth", "proposed_cuts")}
        for (x, labels), expected in zip(cases, setting["cuts"]):
            assert mdlp_cuts(x, labels, **kw).tolist() == expected, (kw, checked)
            checked += 1
    assert checked == 240


_LEARNER = {"TANLd": "tan_ld", "KDBLd": "kdb_ld", "AODELd": "aode_ld"}


def test_cut_points_and_predictions_per_fold_are_the_authors_librarys(reference_dir, uci_dir):
    # Stored from the authors' library (BayesNet 635f05d with mdlp 2.1.3 on libtorch, built
    # outside the repository) on the same five folds: the numeric attributes rounded to
    # float32 as the library reads them.
    from bayesbench.data import load_dataset

    ref = json.loads((reference_dir / "bayesnet_ld.json").read_text())
    checked = 0
    for name, entry in ref["results"].items():
        path = uci_dir / f"{name}.arff"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
        ds = load_dataset(path)
        X = ds.numeric_matrix().astype(np.float32).astype(np.float64)
        y, fold = np.asarray(ds.y), np.array(entry["fold"])
        for library, learner in _LEARNER.items():
            for f, expected in enumerate(entry.get(library, [])):
                test = fold == f
                model = make_classifier(learner).fit(X[~test], y[~test])
                networks = model.cuts_ if learner == "aode_ld" else [model.cuts_]
                spodes = sorted(expected["cuts"], key=int)
                assert len(spodes) == len(networks)
                for cuts, spode in zip(networks, spodes):
                    got = {k[1:]: v.tolist() for k, v in cuts.items()}
                    theirs = {j: c for j, c in expected["cuts"][spode].items()}
                    assert got == theirs, (name, learner, f, spode)
                predicted = model.predict(X[test])
                assert predicted.tolist() == expected["predictions"], (name, learner, f)
                assert int((predicted == y[test]).sum()) == expected["correct"]
                checked += 1
    assert checked == 40  # 8 learner-data set pairs x 5 folds


def test_entropy_is_summed_in_float32_label_by_label_with_the_c_librarys_log2f():
    libm = ctypes.CDLL("libm.so.6")
    libm.log2f.restype, libm.log2f.argtypes = ctypes.c_float, [ctypes.c_float]
    counts = np.array([3, 0, 5, 7])
    expected = np.float32(0)
    for c in counts[counts > 0]:
        p = np.float32(c) / np.float32(15)
        expected = np.float32(expected - p * np.float32(libm.log2f(p)))
    assert entropy32(counts, 15) == expected and entropy32(counts, 15).dtype == np.float32
    assert entropy32(np.array([1]), 1) == 0
    # glibc's log2f is not correctly rounded everywhere: log2f(2/3) is one float32 step from
    # the nearest, and that step decides a tie below (3/7 H(1,1,1) + 4/7 H(1,2,1) is
    # 4/7 H(1,1,1,1) + 3/7 H(2,1) exactly, but not in the library's float32).
    two_thirds = np.float32(2) / np.float32(3)
    assert libm.log2f(two_thirds) != np.float32(math.log2(float(two_thirds)))
    x = np.arange(7.0)
    y = np.array([2, 10, 7, 0, 1, 9, 1])
    # The library splits this at 4 (its float32 weighted entropy there is the smaller),
    # then the left four at 2; the right three are too few to split (min_length 3 and
    # three labels, gain too small).
    assert mdlp_cuts(x, y).tolist() == [1.5, 3.5]


def test_joint_labels_are_numbered_by_first_appearance():
    y = np.array([1, 0, 1, 1, 0])
    parent = np.array([[2], [2], [0], [2], [0]])
    # (1,2) first, then (0,2), (1,0), (0,0): 0 1 2 0 3.
    assert joint_labels(y, parent, [3], 2).tolist() == [0, 1, 2, 0, 3]


def _xor_frame(n_per=10):
    # x1 = 1..4n; x2 a nominal attribute alternating a, b; the class is (x1 > 2n) XOR x2.
    x1 = np.arange(1.0, 4 * n_per + 1)
    x2 = np.tile([0, 1], 2 * n_per)
    y = ((x1 > 2 * n_per).astype(int) ^ x2)
    frame = pd.DataFrame({"x1": x1, "x2": pd.Categorical.from_codes(x2, ["a", "b"])})
    return frame, y


def test_the_published_algorithm_on_a_worked_example():
    # Given the class alone x1 is useless (each half holds both classes equally): MDLP
    # finds no cut, and TAN after a global discretization sees one bin.
    frame, y = _xor_frame()
    assert mdlp_cuts(frame["x1"].to_numpy(), y).size == 0
    # TAN's only arc joins x1 and x2; I(x1; C) = I(x2; C) = 0, so the root is the last of
    # equals, x2, and x1's parent is x2. Given the joint label (class, x2), x1 splits at
    # 20.5: labels {(0,a), (1,b)} below, {(1,a), (0,b)} above, 1 bit each, 2 bits before;
    # gain 1 > (log2(39) + log2(79) - (4 * 2 - 2 - 2)) / 40 = 0.190.
    assert 1 > (math.log2(39) + math.log2(79) - 4) / 40
    model = make_classifier("tan_ld").fit(frame, y)
    assert model.structure_.nodes[0].parents == (1,) and model.structure_.nodes[1].parents == ()
    assert model.cuts_ == {"x1": pytest.approx([20.5])}
    # The second iteration learns the same structure: converged.
    assert model.n_iterations_ == 2
    assert model.score(frame, y) == 1.0
    assert make_classifier("tan").fit(np.zeros((40, 1), int), y).score(
        np.zeros((40, 1), int), y) == 0.5
    # aode_ld: the SPODE on x2 cuts x1 at 20.5 and is right on every row; the SPODE on x1
    # (one bin) is not, so the two votes split on every row where it is wrong.
    aode = make_classifier("aode_ld").fit(frame, y)
    assert aode.cuts_[1]["x1"].tolist() == [20.5] and aode.cuts_[0]["x1"].size == 0


def test_library_structures_on_a_hand_example():
    # Three attributes: x0 copies the class, x1 copies x0 half the time, x2 is x1.
    y = np.repeat([0, 1], 8)
    x0 = y.copy()
    x1 = np.array([0, 1] * 8)
    x2 = x1.copy()
    codes = np.column_stack([x0, x1, x2])
    # I(x0; C) = ln 2 is the largest: root x0. Given C, x1 and x2 are equal (I = ln 2);
    # x0 is constant given C (I = 0): the tree is x0 - x1 (the earlier pair of the equal
    # zeros) and x1 - x2, away from x0.
    assert tan_parents(codes, y, [2, 2, 2], 2) == [(), (0,), (1,)]
    # kDB: x0 first (most I(X; C)), then x1, x2 (equals in index order); x1 may take x0 only
    # if I(x1; x0 | C) > 0.03: it is 0, none; x2 takes x1 (ln 2).
    assert kdb_parents(codes, y, [2, 2, 2], 2, 2, 0.03) == [(), (), (1,)]


def test_missing_values_leave_training_rows_out_and_prediction_terms_out():
    frame, y = _xor_frame()
    holed = frame.copy()
    holed.loc[0, "x1"] = np.nan
    holed.loc[1, "x2"] = np.nan
    model = make_classifier("tan_ld").fit(holed, y)
    expected = make_classifier("tan_ld").fit(frame.iloc[2:], y[2:])
    assert model.cuts_["x1"].tolist() == expected.cuts_["x1"].tolist()
    np.testing.assert_array_equal(model.predict_proba(frame), expected.predict_proba(frame))
    proba = model.predict_proba(holed.iloc[:2])
    assert np.isfinite(proba).all() and np.allclose(proba.sum(axis=1), 1)


def test_deterministic_and_every_learner_takes_mixed_data(uci_dir):
    from bayesbench.data import load_dataset

    ds = load_dataset(uci_dir / "australian.arff")  # numeric and nominal attributes
    frame = ds.to_frame().drop(columns=ds.target.name)
    for name in ("tan_ld", "kdb_ld", "aode_ld"):
        a = make_classifier(name, max_iterations=3).fit(frame, ds.y)
        b = make_classifier(name, max_iterations=3).fit(frame, ds.y)
        np.testing.assert_array_equal(a.predict_proba(frame), b.predict_proba(frame))
        assert a.score(frame, ds.y) > 0.8, name


@pytest.mark.parametrize("params, word", [({"max_iterations": 0}, "max_iterations"),
                                          ({"min_length": 2}, "min_length"),
                                          ({"proposed_cuts": -1}, "proposed_cuts"),
                                          ({"max_depth": 0}, "max_depth")])
def test_bad_parameters_are_refused_in_one_line(params, word):
    with pytest.raises(ClassifierError, match=word) as err:
        make_classifier("tan_ld", **params)
    assert "\n" not in str(err.value)
    with pytest.raises(ClassifierError, match="voting"):
        make_classifier("aode_ld", voting="yes")


def test_data_these_learners_cannot_take_is_refused_in_one_line():
    y = np.array([0, 1, 0, 1])
    cases = [(np.array([[1.0], [np.inf], [2.0], [3.0]]), "infinite value at row 1"),
             (np.full((4, 1), np.nan), "without missing values"),
             (pd.DataFrame({"a": ["x", "y", "x", "y"]}), "numeric columns and categorical")]
    for X, message in cases:
        with pytest.raises(ClassifierError, match=message) as err:
            make_classifier("kdb_ld").fit(X, y)
        assert "\n" not in str(err.value)


def test_docstring_examples():
    assert doctest.testmod(local_discretization, optionflags=doctest.ELLIPSIS).failed == 0
