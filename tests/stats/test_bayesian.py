"""The Bayesian correlated t-test and signed-rank test, against baycomp on the same inputs.

baycomp orders its arguments the other way round from its names: its ``left``
is the first classifier being better, which is ours too, so ``p_left`` here is
compared with baycomp's first probability for the same (a, b).
"""
import doctest
import itertools

import baycomp
import numpy as np
import pytest

from bayesbench.data import bundled_dir, find_dataset, load_dataset
from bayesbench.data.fold_assignment import fold_rng, kfold_assignment
from bayesbench.errors import StatsError
from bayesbench.models.registry import make_classifier
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.stats import bayesian
from bayesbench.stats.bayesian import bayesian_correlated_ttest, bayesian_signed_rank

TOL = 1e-6


def _probs(res):
    return np.array([res.p_left, res.p_rope, res.p_right])


def _baycomp_signed_rank(a, b, rope, seed, n_samples):
    probs = baycomp.SignedRankTest.probs(np.asarray(a, float), np.asarray(b, float), rope,
                                         nsamples=n_samples, random_state=seed)
    return np.array(probs) if rope > 0 else np.array([probs[0], 0.0, probs[1]])


def _baycomp_ttest(a, b, rope, runs):
    probs = baycomp.CorrelatedTTest.probs(np.asarray(a, float), np.asarray(b, float), rope, runs)
    return np.array(probs) if rope > 0 else np.array([probs[0], 0.0, probs[1]])


@pytest.fixture(scope="module")
def table6(demsar):
    t = demsar["table6"]
    return t["classifiers"], np.array(t["auc"], dtype=float)


# A quick-start-like run: the quick-start's data sets, seed and 10-fold stratified CV,
# naive Bayes and TAN on MDL-discretized training folds, accuracy per fold.
QUICK_DATASETS = ("iris", "wine", "glass", "diabetes")
QUICK_FOLDS = 10


def _fold_accuracies(name):
    ds = load_dataset(find_dataset(name, [bundled_dir()]))
    folds = kfold_assignment(ds.y, QUICK_FOLDS, fold_rng(1, ds.name, 0), stratified=True)
    scores = {"nb": [], "tan": []}
    for k in range(QUICK_FOLDS):
        train, test = ds.take(folds != k), ds.take(folds == k)
        disc = Discretizer("mdl").fit(train)
        train, test = disc.transform(train), disc.transform(test)
        for learner in scores:
            clf = make_classifier(learner).fit(train.codes(), train.y, cardinalities=train.cardinalities,
                                               n_classes=train.n_classes)
            scores[learner].append(float(np.mean(clf.predict(test.codes()) == test.y)))
    return {learner: np.array(v) for learner, v in scores.items()}


@pytest.fixture(scope="module")
def quick_run():
    return {name: _fold_accuracies(name) for name in QUICK_DATASETS}


# ------------------------------------------------------------------ correlated t-test
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.03])
def test_correlated_ttest_matches_baycomp_on_quickstart_folds(quick_run, rope):
    for name, scores in quick_run.items():
        for a, b in (("tan", "nb"), ("nb", "tan")):
            res = bayesian_correlated_ttest(scores[a], scores[b], rho=1 / QUICK_FOLDS, rope=rope)
            expected = _baycomp_ttest(scores[a], scores[b], rope, runs=1)
            np.testing.assert_allclose(_probs(res), expected, atol=TOL, rtol=0, err_msg=name)
            assert res.df == QUICK_FOLDS - 1
            assert res.mean == pytest.approx(np.mean(scores[a] - scores[b]), abs=1e-15)


def test_quickstart_folds_are_not_all_ties(quick_run):
    # The comparisons above mean something only if the two learners differ on some folds.
    assert any(np.any(s["nb"] != s["tan"]) for s in quick_run.values())


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_correlated_ttest_matches_baycomp_on_repeated_cv(ttest_ref, rope):
    # 10 x 10-fold CV: baycomp's runs=10 is rho = runs / n = 1/10.
    for example in (ttest_ref, ttest_ref["second_example"]):
        a, b = np.array(example["accuracy_A"], float), np.array(example["accuracy_B"], float)
        res = bayesian_correlated_ttest(a, b, rho=0.1, rope=rope)
        np.testing.assert_allclose(_probs(res), _baycomp_ttest(a, b, rope, runs=10), atol=TOL, rtol=0)
        assert res.df == 99


def test_correlated_ttest_at_rope_zero_is_the_corrected_ttest(ttest_ref):
    # The same Student posterior: with rho = n_test / n_total = 50/500, rho / (1 - rho) is
    # Weka's n_test / n_train, and P(b better) is half the two-sided p of Weka's
    # PairedStatsCorrected (mean(A) > mean(B) here).
    for example, weka in ((ttest_ref, ttest_ref["weka_check"]["example_1"]),
                          (ttest_ref["second_example"], ttest_ref["weka_check"]["second_example"])):
        a, b = np.array(example["accuracy_A"], float), np.array(example["accuracy_B"], float)
        res = bayesian_correlated_ttest(a, b, rho=50 / 500, rope=0.0)
        assert res.mean > 0
        assert res.p_right == pytest.approx(weka["p_corrected"] / 2, rel=1e-9)
        assert res.p_left + res.p_right == pytest.approx(1.0, abs=1e-12)
        assert res.p_rope == 0.0


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.02])
@pytest.mark.parametrize("shift", [0.0, 5 / 256, -1 / 256, -0.01])
def test_correlated_ttest_zero_variance_follows_baycomp(rope, shift):
    # Multiples of 1/256, so that every difference is exactly ``shift``.
    b = 0.5 + np.arange(10) / 256
    a = b + shift
    assert np.var(a - b) == 0
    res = bayesian_correlated_ttest(a, b, rho=0.1, rope=rope)
    np.testing.assert_allclose(_probs(res), _baycomp_ttest(a, b, rope, runs=1), atol=TOL, rtol=0)
    assert res.scale == 0.0


def test_correlated_ttest_lower_is_better_swaps_the_classifiers(quick_run):
    err = {k: 1.0 - v for k, v in quick_run["glass"].items()}
    low = bayesian_correlated_ttest(err["tan"], err["nb"], rho=0.1, rope=0.01, lower_is_better=True)
    swapped = bayesian_correlated_ttest(err["nb"], err["tan"], rho=0.1, rope=0.01)
    assert _probs(low) == pytest.approx(_probs(swapped), abs=1e-12)
    assert low.mean == pytest.approx(np.mean(err["tan"] - err["nb"]), abs=1e-15)


@pytest.mark.parametrize("kwargs, message", [
    ({"rho": 1.0}, "rho"), ({"rho": -0.1}, "rho"), ({"rho": float("nan")}, "rho"),
    ({"rho": 0.1, "rope": -0.01}, "rope"), ({"rho": 0.1, "rope": float("inf")}, "rope"),
])
def test_correlated_ttest_rejects_bad_parameters(kwargs, message):
    with pytest.raises(StatsError, match=message):
        bayesian_correlated_ttest([0.1, 0.2, 0.3], [0.2, 0.2, 0.2], **kwargs)


@pytest.mark.parametrize("a, b", [([0.1], [0.2]), ([0.1, 0.2], [0.1, 0.2, 0.3]),
                                  ([0.1, np.nan], [0.1, 0.2]), ([[0.1, 0.2]], [[0.1, 0.2]])])
def test_correlated_ttest_rejects_bad_scores(a, b):
    with pytest.raises(StatsError):
        bayesian_correlated_ttest(a, b, rho=0.1)


# ------------------------------------------------------------------ signed-rank test
@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01])
def test_signed_rank_matches_baycomp_on_demsar_table6(table6, rope):
    names, auc = table6
    for i, j in itertools.permutations(range(len(names)), 2):
        seed = 10 * i + j
        res = bayesian_signed_rank(auc[:, i], auc[:, j], rope=rope, seed=seed, n_samples=10000)
        expected = _baycomp_signed_rank(auc[:, i], auc[:, j], rope, seed, 10000)
        np.testing.assert_allclose(_probs(res), expected, atol=TOL, rtol=0,
                                   err_msg=f"{names[i]} vs {names[j]}")


def test_signed_rank_matches_baycomp_with_default_settings(table6):
    _, auc = table6
    res = bayesian_signed_rank(auc[:, 3], auc[:, 0], seed=2024)  # C4.5+m+cf against C4.5
    sample = baycomp.SignedRankTest(auc[:, 3], auc[:, 0], 0.01, random_state=2024).sample
    assert res.sample.shape == (50000, 3)
    np.testing.assert_allclose(res.sample, sample, atol=1e-12, rtol=0)
    np.testing.assert_allclose(_probs(res), _baycomp_signed_rank(auc[:, 3], auc[:, 0], 0.01, 2024, 50000),
                               atol=TOL, rtol=0)


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_signed_rank_matches_baycomp_on_quickstart_means(quick_run, rope):
    nb = np.array([quick_run[n]["nb"].mean() for n in QUICK_DATASETS])
    tan = np.array([quick_run[n]["tan"].mean() for n in QUICK_DATASETS])
    res = bayesian_signed_rank(tan, nb, rope=rope, seed=1, n_samples=20000)
    np.testing.assert_allclose(_probs(res), _baycomp_signed_rank(tan, nb, rope, 1, 20000), atol=TOL, rtol=0)


def test_signed_rank_prior_strength_and_lower_is_better_follow_baycomp(table6):
    _, auc = table6
    err = 1.0 - auc
    res = bayesian_signed_rank(err[:, 1], err[:, 2], rope=0.01, prior_strength=2.0, seed=5,
                               n_samples=10000, lower_is_better=True)
    # Lower is better is higher-is-better on the negated scores.
    probs = baycomp.SignedRankTest.probs(-err[:, 1], -err[:, 2], 0.01, prior=2.0, nsamples=10000,
                                         random_state=5)
    np.testing.assert_allclose(_probs(res), probs, atol=TOL, rtol=0)


def test_signed_rank_blocks_draw_what_one_call_draws(table6, monkeypatch):
    _, auc = table6
    monkeypatch.setattr(bayesian, "_BLOCK_ELEMENTS", 15 * 333)  # blocks of 333 draws
    res = bayesian_signed_rank(auc[:, 1], auc[:, 0], rope=0.01, seed=9, n_samples=3000)
    expected = _baycomp_signed_rank(auc[:, 1], auc[:, 0], 0.01, 9, 3000)
    np.testing.assert_allclose(_probs(res), expected, atol=TOL, rtol=0)


def test_signed_rank_identical_scores():
    # Every Walsh average is 0: with a rope it is all rope; without one, left and right
    # hold exactly half the mass in every draw, and by symmetry each gets 1/2.
    a = np.linspace(0.6, 0.9, 8)
    assert _probs(bayesian_signed_rank(a, a, rope=0.01)) == pytest.approx([0.0, 1.0, 0.0])
    assert _probs(bayesian_signed_rank(a, a, rope=0.0)) == pytest.approx([0.5, 0.0, 0.5])


def test_signed_rank_is_reproducible_and_seeded(table6):
    _, auc = table6
    one = bayesian_signed_rank(auc[:, 1], auc[:, 0], n_samples=2000, seed=3)
    two = bayesian_signed_rank(auc[:, 1], auc[:, 0], n_samples=2000, seed=3)
    other = bayesian_signed_rank(auc[:, 1], auc[:, 0], n_samples=2000, seed=4)
    np.testing.assert_array_equal(one.sample, two.sample)
    assert not np.array_equal(one.sample, other.sample)


@pytest.mark.parametrize("kwargs, message", [
    ({"rope": -1.0}, "rope"), ({"prior_strength": 0.0}, "prior_strength"),
    ({"n_samples": 0}, "n_samples"), ({"n_samples": 2.5}, "n_samples"),
    ({"seed": -1}, "seed"), ({"seed": True}, "seed"),
])
def test_signed_rank_rejects_bad_parameters(kwargs, message):
    with pytest.raises(StatsError, match=message):
        bayesian_signed_rank([0.1, 0.2], [0.2, 0.2], **kwargs)


def test_signed_rank_rejects_bad_scores():
    with pytest.raises(StatsError):
        bayesian_signed_rank([], [])
    with pytest.raises(StatsError):
        bayesian_signed_rank([0.1, 0.2], [0.1])


def test_examples_run_as_doctests():
    result = doctest.testmod(bayesian)
    assert result.attempted > 0 and result.failed == 0


def test_the_rows_version_is_the_one_pair_test_on_every_row():
    from bayesbench.stats import correlated_ttest_rows
    rng = np.random.default_rng(3)
    a, b = rng.uniform(0.6, 0.9, (6, 10)), rng.uniform(0.6, 0.9, (6, 10))
    a[1, 7:] = b[1, 7:] = np.nan           # a row with 7 folds
    b[2] = a[2] - 0.05                      # every difference the same: a point mass
    rho = np.array([0.1, 0.2, 0.1, 0.1, 0.1, 0.1])
    for lower, rope in itertools.product((False, True), (0.0, 0.01)):
        rows = correlated_ttest_rows(a, b, rho=rho, rope=rope, lower_is_better=lower)
        for i in range(6):
            used = np.isfinite(a[i])
            one = bayesian_correlated_ttest(a[i, used], b[i, used], rho=rho[i], rope=rope,
                                            lower_is_better=lower)
            got = [rows.p_left[i], rows.p_rope[i], rows.p_right[i], rows.mean[i]]
            assert got == pytest.approx([one.p_left, one.p_rope, one.p_right, one.mean], abs=1e-12)
    short = correlated_ttest_rows([[0.5, np.nan]], [[0.4, np.nan]], rho=0.1)
    assert np.isnan(short.p_left[0])


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_signed_rank_masses_equal_the_double_sum_with_ties(rope):
    # The O(N)-per-draw masses against the formula's double sum over all pairs, on
    # differences full of exact ties, of Walsh sums equal to +-2 rope, and of zeros.
    rng = np.random.default_rng(3)
    a = rng.choice([0.70, 0.71, 0.72, 0.75, 0.80], size=40)
    b = a - rng.choice([-0.02, -0.01, 0.0, 0.01, 0.02, 0.05], size=40)
    res = bayesian_signed_rank(a, b, rope=rope, seed=4, n_samples=2000)
    z = np.concatenate(([0.0], a - b))
    walsh = z[:, None] + z[None, :]
    h_left = (walsh > 2 * rope) + 0.5 * (walsh == 2 * rope)
    h_right = (-walsh > 2 * rope) + 0.5 * (-walsh == 2 * rope)
    alpha = np.ones(z.size)
    alpha[0] = 0.5
    w = np.random.RandomState(4).dirichlet(alpha, 2000)
    right = np.einsum("si,ij,sj->s", w, h_right, w)
    left = 1.0 - right if rope == 0 else np.einsum("si,ij,sj->s", w, h_left, w)
    np.testing.assert_allclose(res.sample[:, 2], right, atol=1e-12, rtol=0)
    np.testing.assert_allclose(res.sample[:, 0], left, atol=1e-12, rtol=0)


def test_correlated_rows_are_scipys_shifted_t_bit_for_bit():
    # The posterior is Student's t located at the mean difference and scaled by its SE;
    # the row version computes its tails with scipy.special and must equal scipy.stats.t.
    from scipy import stats as st

    rng = np.random.default_rng(7)
    a, b = rng.random((5, 10)) * 0.1 + 0.8, rng.random((5, 10)) * 0.1 + 0.8
    rho, rope = 0.1, 0.01
    res = bayesian.correlated_ttest_rows(a, b, rho=rho, rope=rope)
    d = a - b
    n = d.shape[1]
    m = d.mean(axis=1)
    scale = np.sqrt(d.var(axis=1, ddof=1) * (1.0 / n + rho / (1.0 - rho)))
    assert np.allclose(res.scale, scale, rtol=1e-12)
    assert np.array_equal(res.p_left, st.t.sf(rope, n - 1, loc=res.mean, scale=res.scale))
    assert np.array_equal(res.p_right, st.t.cdf(-rope, n - 1, loc=res.mean, scale=res.scale))
    assert np.allclose(res.mean, m, rtol=1e-12)
