"""Strong and weak k-naive Bayes (paper 000) with Zhang's dependence-derivative ratios.

References: a hand-computed ddr example, brute-force subset search with
itertools, the limiting cases (GaussianNB, LinearFullBayes), synthetic data
whose balanced subset is known, and the published WDBC naive Bayes F-score.
"""
import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold

from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.models.learners.gaussian import GaussianNB, LinearFullBayes
from bayesbench.models.learners.knaive import KNaiveBayes, most_balanced_subset

# The worked example of test_gaussian.test_linear_full_bayes_hand_computed:
# class a is linearly dependent (B_12 = 1, B_21 = 1/4), class b is not.
TINY_X = np.array([[0, 1], [2, 3], [4, 2], [0, 0], [2, 0], [0, 2], [2, 2]], dtype=float)
TINY_Y = np.array(["a"] * 3 + ["b"] * 4)


def test_dependence_derivatives_hand_computed():
    # ln dd_a(x_i, E) = (z_i^2 - r_i^2) / (2 var_i) with z = x - (2,2),
    # r_1 = z_1 - z_2, r_2 = z_2 - z_1/4, var = (8/3, 2/3). Over the seven rows
    # z_1^2 - r_1^2 = 3, -1, 0, 4, -4, 0, 0 (sum 2) and
    # z_2^2 - r_2^2 = 3/4, 0, -1/4, 7/4, 0, -1/4, 0 (sum 2), so the averages are
    # (2/7) / (16/3) = 3/56 and (2/7) / (4/3) = 3/14. Class b has no dependence.
    model = KNaiveBayes(k=1, var_smoothing=0.0).fit(TINY_X, TINY_Y)
    np.testing.assert_allclose(model.mean_log_dd_, [[3 / 56, 3 / 14], [0.0, 0.0]], atol=1e-15)
    np.testing.assert_allclose(list(model.structure_info_["mean_log_ddr"].values()),
                               [3 / 56, 3 / 14], atol=1e-15)
    # The 1-subset whose mean log ddr is closest to 0 is attribute 0.
    np.testing.assert_array_equal(model.naive_features_, [0])
    assert model.imbalance_ == pytest.approx(3 / 56)
    # Weak: the dependent attribute 1 is still corrected for the naive attribute 0.
    np.testing.assert_allclose(model.coef_[0], [[0.0, 0.0], [0.25, 0.0]])
    strong = KNaiveBayes(k=1, strong=True, var_smoothing=0.0).fit(TINY_X, TINY_Y)
    np.testing.assert_allclose(strong.coef_, 0.0)


def brute_force(W, sizes):
    best = None
    for size in sizes:
        for subset in itertools.combinations(range(W.shape[1]), size):
            value = np.linalg.norm(W[:, list(subset)].sum(axis=1))
            if best is None or value < best[1] - 1e-12:
                best = (subset, value)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_exhaustive_search_agrees_with_brute_force(seed):
    rng = np.random.default_rng(seed)
    n_classes, p = [(1, 9), (3, 11), (2, 17), (4, 7)][seed]
    W = rng.normal(size=(n_classes, p))
    for k in (1, 3, p // 2, None):
        sizes = range(1, p + 1) if k is None else [k]
        subset, value, search = most_balanced_subset(W, k)
        expected_subset, expected_value = brute_force(W, sizes)
        assert search == "exhaustive"
        assert value == pytest.approx(expected_value, rel=1e-9, abs=1e-12)
        assert subset == expected_subset


def test_heuristic_swaps_repair_the_greedy_choice():
    # Greedy takes 0.1 (smallest) then -0.6 (sum -0.5); swapping 0.1 for 1.0
    # gives {1.0, -0.6} = 0.4, the optimum over all ten pairs.
    W = np.array([[1.0, -0.6, -0.6, 0.1, 5.0]])
    subset, value, search = most_balanced_subset(W, 2, exhaustive_limit=0)
    assert search == "heuristic"
    assert subset == (0, 1) and value == pytest.approx(0.4)
    assert most_balanced_subset(W, 2)[:2] == (subset, pytest.approx(value))


def test_heuristic_beyond_the_exhaustive_limit(uci_dir):
    ds = load_dataset(uci_dir / "wdbc.arff")   # 30 attributes > 20
    X, y = ds.numeric_matrix(), ds.y
    model = KNaiveBayes(k=4).fit(X, y)
    assert model.structure_info_["search"] == "heuristic"
    assert len(model.naive_features_) == 4
    weights = np.array(list(model.structure_info_["mean_log_ddr"].values()))
    assert model.imbalance_ == pytest.approx(abs(weights[model.naive_features_].sum()))
    # No single swap of a naive for a dependent attribute is better (local optimum).
    others = np.setdiff1d(np.arange(30), model.naive_features_)
    for i in model.naive_features_:
        for j in others:
            swapped = weights[model.naive_features_].sum() - weights[i] + weights[j]
            assert abs(swapped) >= model.imbalance_ - 1e-12


def correlated(rng, rho, n, shift=0.0):
    a = rng.normal(size=n)
    return np.column_stack([a, rho * a + np.sqrt(1 - rho ** 2) * rng.normal(size=n)]) + shift


def test_known_subset_independent_attributes_are_chosen():
    # Attributes 0-2 are independent in both classes (ddr near 1); attributes
    # 3-4 are strongly dependent in class 0 only (ddr far from 1, same sign).
    rng = np.random.default_rng(7)
    n = 1500
    X = np.vstack([np.column_stack([rng.normal(0, 1, (n, 3)), correlated(rng, 0.9, n)]),
                   rng.normal(1, 1, (n, 5))])
    y = np.repeat([0, 1], n)
    for strong in (False, True):
        model = KNaiveBayes(k=3, strong=strong).fit(X, y)
        np.testing.assert_array_equal(model.naive_features_, [0, 1, 2])
        assert model.structure_info_["dependent"] == ["x3", "x4"]


def test_known_subset_opposite_dependences_cancel():
    # Attributes 0-1 are dependent in class 0, attributes 2-3 equally in class 1:
    # their ddrs point to opposite classes, so a balanced pair takes one of each
    # (Zhang: dependences that cancel out do not hurt naive Bayes).
    rng = np.random.default_rng(3)
    n = 1500
    X = np.vstack([np.column_stack([correlated(rng, 0.8, n), rng.normal(0, 1, (n, 2))]),
                   np.column_stack([rng.normal(1, 1, (n, 2)), correlated(rng, 0.8, n, 1.0)])])
    y = np.repeat([0, 1], n)
    model = KNaiveBayes(k=2).fit(X, y)
    ddr = np.array(list(model.structure_info_["mean_log_ddr"].values()))
    assert (ddr[:2] > 0.1).all() and (ddr[2:] < -0.1).all()
    first, second = model.naive_features_
    assert first in (0, 1) and second in (2, 3)


@pytest.mark.parametrize("strong", [False, True])
def test_limiting_cases(uci_dir, strong):
    ds = load_dataset(uci_dir / "wine.arff")
    X, y = ds.numeric_matrix(), ds.y
    p = X.shape[1]
    all_naive = KNaiveBayes(k=p, strong=strong).fit(X, y)
    np.testing.assert_allclose(all_naive.predict_proba(X), GaussianNB().fit(X, y).predict_proba(X),
                               atol=1e-12)
    none_naive = KNaiveBayes(k=0, strong=strong).fit(X, y)
    np.testing.assert_allclose(none_naive.predict_proba(X),
                               LinearFullBayes().fit(X, y).predict_proba(X), atol=1e-12)
    if strong:   # one dependent attribute has nothing left to depend on
        np.testing.assert_allclose(KNaiveBayes(k=p - 1, strong=True).fit(X, y).predict_proba(X),
                                   GaussianNB().fit(X, y).predict_proba(X), atol=1e-12)


def test_multiclass_imbalance_is_rms_of_pairwise_log_ddr(uci_dir):
    ds = load_dataset(uci_dir / "wine.arff")
    model = KNaiveBayes(k=4).fit(ds.numeric_matrix(), ds.y)
    w = model.mean_log_dd_[:, model.naive_features_].sum(axis=1)
    pairs = [w[a] - w[b] for a, b in itertools.combinations(range(3), 2)]
    assert model.imbalance_ == pytest.approx(np.sqrt(np.mean(np.square(pairs))), rel=1e-12)
    assert "mean_log_ddr" not in model.structure_info_


def test_absent_class_and_dataframe_and_clone(uci_dir):
    ds = load_dataset(uci_dir / "glass.arff")
    frame = pd.DataFrame(ds.numeric_matrix(), columns=ds.attribute_names)
    model = clone(KNaiveBayes(k=3, strong=True)).fit(frame, ds.y, n_classes=ds.n_classes)
    absent = np.setdiff1d(np.arange(ds.n_classes), ds.y)
    np.testing.assert_array_equal(model.predict_proba(frame)[:, absent], 0.0)
    np.testing.assert_array_equal(model.mean_log_dd_[absent], 0.0)
    assert set(model.structure_info_["naive"]) <= set(ds.attribute_names)
    summary = model.structure_summary()
    assert summary.startswith("strong 3-naive bayes, naive={") and "\n" not in summary
    assert clone(model).get_params() == model.get_params()


def test_bad_hyperparameters():
    with pytest.raises(ClassifierError, match="'k' must be None or an integer in 0..2"):
        KNaiveBayes(k=3).fit(TINY_X, TINY_Y)
    with pytest.raises(ClassifierError, match="'k' must be"):
        KNaiveBayes(k=True).fit(TINY_X, TINY_Y)
    with pytest.raises(ClassifierError, match="residual_variance"):
        KNaiveBayes(residual_variance="pooled").fit(TINY_X, TINY_Y)


def test_wdbc_naive_bayes_f_score_matches_paper(uci_dir):
    # Paper 000, Section 3.5: Gaussian naive Bayes on the ten mean attributes of
    # WDBC reaches an F-score of .878 for the malignant class. Its protocol is
    # 10-fold cross-validation; three shufflings give 0.877-0.879 here.
    ds = load_dataset(uci_dir / "wdbc.arff")
    X, y = ds.numeric_matrix()[:, :10], ds.y
    malignant = ds.class_names.index("M")
    scores = []
    for seed in range(3):
        pred = np.empty_like(y)
        for train, test in StratifiedKFold(10, shuffle=True, random_state=seed).split(X, y):
            pred[test] = GaussianNB().fit(X[train], y[train]).predict(X[test])
        scores.append(f1_score(y, pred, pos_label=malignant))
    assert np.mean(scores) == pytest.approx(0.878, abs=0.005)


def test_rank_orders_the_one_naive_subsets_by_the_distance_of_their_weight_from_one():
    # Paper 000, sec. 3.3: the 1-weak classifier forced onto each attribute, the four ordered
    # by how far the attribute's weight (the mean ddr, here its log) lies from 1 (log 0).
    # Hand-computed on the worked example: mean log ddr = (3/56, 3/14), so attribute 0 is
    # the closer (rank 0) and attribute 1 the farther (rank 1).
    far = KNaiveBayes(k=1, rank=1, var_smoothing=0.0).fit(TINY_X, TINY_Y)
    np.testing.assert_array_equal(far.naive_features_, [1])
    assert far.imbalance_ == pytest.approx(3 / 14)
    assert "rank 1" in far.structure_summary()
    # Four attributes: the ranks visit every attribute once, in the order of |sum log ddr|
    # that itertools gives from the recorded per-attribute weights.
    rng = np.random.default_rng(5)
    X = rng.standard_normal((200, 4))
    X[:100, 1] += 0.9 * X[:100, 0]
    X[100:, 3] -= 0.5 * X[100:, 2]
    y = np.repeat(["neg", "pos"], 100)
    chosen = [int(KNaiveBayes(k=1, rank=r).fit(X, y).naive_features_[0]) for r in range(4)]
    log_ddr = np.array(list(KNaiveBayes(k=1).fit(X, y).structure_info_["mean_log_ddr"].values()))
    assert chosen == sorted(range(4), key=lambda i: abs(log_ddr[i]))
    # Pairs: the rank-r subset's |weight| is the r-th smallest over the six pairs.
    pairs = sorted(abs(log_ddr[list(s)].sum()) for s in itertools.combinations(range(4), 2))
    for r in range(6):
        model = KNaiveBayes(k=2, rank=r).fit(X, y)
        assert model.imbalance_ == pytest.approx(pairs[r], rel=1e-9)


def test_a_rank_needs_a_fixed_size_and_a_subset_to_take():
    with pytest.raises(ClassifierError, match="rank.*k is fixed"):
        KNaiveBayes(k=None, rank=1).fit(TINY_X, TINY_Y)
    with pytest.raises(ClassifierError, match=r"rank.*0\.\.1"):
        KNaiveBayes(k=1, rank=2).fit(TINY_X, TINY_Y)
