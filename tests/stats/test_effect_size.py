"""Effect sizes against scipy, Weka's corrected t, and Demšar's printed rank sums."""
import doctest

import numpy as np
import pytest
from scipy import stats as st

from bayesbench.errors import StatsError
from bayesbench.stats import effect_size
from bayesbench.stats.effect_size import cohens_dz, mean_difference_ci, rank_biserial


@pytest.fixture(scope="module")
def table2(demsar):
    rows = demsar["table2"]["rows"]
    c45 = np.array([float(r[1]) for r in rows])
    c45m = np.array([float(r[2]) for r in rows])
    return c45, c45m


def _ab(example):
    return np.array(example["accuracy_A"], float), np.array(example["accuracy_B"], float)


# ------------------------------------------------------------------ mean difference
@pytest.mark.parametrize("level", [0.90, 0.95, 0.99])
def test_uncorrected_interval_is_scipys_paired_interval(table2, ttest_ref, level):
    for a, b in ((table2[1], table2[0]), _ab(ttest_ref)):
        res = mean_difference_ci(a, b, confidence_level=level)
        ref = st.ttest_rel(a, b).confidence_interval(confidence_level=level)
        assert res.low == pytest.approx(ref.low, abs=1e-12)
        assert res.high == pytest.approx(ref.high, abs=1e-12)
        assert res.estimate == pytest.approx(np.mean(a - b), abs=1e-15)
        assert res.df == a.size - 1


def test_corrected_interval_from_wekas_t(ttest_ref):
    # Weka's corrected t = m / SE (n_test/n_train = 50/450), so SE = m / t and the 95 %
    # interval is m -/+ t_crit m / t, t_crit the 0.975 quantile recorded beside it.
    a, b = _ab(ttest_ref)
    exp = ttest_ref["expected"]
    m = exp["mean_diff"]
    se = m / float(ttest_ref["weka_check"]["example_1"]["t_from_weka_fields"])
    res = mean_difference_ci(a, b, test_train_ratio=50 / 450)
    assert res.estimate == pytest.approx(m, abs=1e-12)
    assert res.standard_error == pytest.approx(se, rel=1e-9)
    assert res.low == pytest.approx(m - exp["t_critical_0.975_df99"] * se, rel=1e-9)
    assert res.high == pytest.approx(m + exp["t_critical_0.975_df99"] * se, rel=1e-9)


def test_corrected_interval_excludes_zero_exactly_when_weka_rejects(ttest_ref):
    # Second example: Weka's corrected p = 0.0188, so 0 is outside the 95 % interval
    # and inside the 99 % one; first example: p = 0.41, inside both.
    second = _ab(ttest_ref["second_example"])
    p2 = ttest_ref["weka_check"]["second_example"]["p_corrected"]
    assert 0.01 < p2 < 0.05
    assert mean_difference_ci(*second, test_train_ratio=1 / 9, confidence_level=0.95).low > 0
    assert mean_difference_ci(*second, test_train_ratio=1 / 9, confidence_level=0.99).low < 0
    # At confidence 1 - p the interval ends at 0.
    assert mean_difference_ci(*second, test_train_ratio=1 / 9, confidence_level=1 - p2).low \
        == pytest.approx(0.0, abs=1e-12)
    first = _ab(ttest_ref)
    assert mean_difference_ci(*first, test_train_ratio=1 / 9).low < 0


def test_interval_of_constant_differences_is_a_point():
    b = np.arange(10) / 64
    res = mean_difference_ci(b + 0.25, b)
    assert (res.low, res.estimate, res.high, res.standard_error) == (0.25, 0.25, 0.25, 0.0)


@pytest.mark.parametrize("kwargs", [{"confidence_level": 1.0}, {"confidence_level": 0.0},
                                    {"test_train_ratio": -0.1}, {"test_train_ratio": float("nan")}])
def test_interval_rejects_bad_parameters(kwargs):
    with pytest.raises(StatsError):
        mean_difference_ci([0.1, 0.2, 0.3], [0.2, 0.2, 0.1], **kwargs)


@pytest.mark.parametrize("a, b", [([0.1], [0.2]), ([0.1, 0.2], [0.1]), ([0.1, np.inf], [0.1, 0.2])])
def test_interval_rejects_bad_scores(a, b):
    with pytest.raises(StatsError):
        mean_difference_ci(a, b)


# ------------------------------------------------------------------ Cohen's d_z
def test_cohens_dz_is_scipys_paired_t_over_root_n(demsar, table2):
    c45, c45m = table2
    t = demsar["paired_t_test_on_table2"]["t"]  # scipy.stats.ttest_rel(C4.5+m, C4.5)
    assert cohens_dz(c45m, c45) == pytest.approx(t / np.sqrt(14), abs=1e-6)
    assert cohens_dz(c45, c45m) == pytest.approx(-t / np.sqrt(14), abs=1e-6)


def test_cohens_dz_by_hand():
    # d = (2, 4, 6): mean 4, sd 2, d_z = 2.
    assert cohens_dz([3.0, 5.0, 7.0], [1.0, 1.0, 1.0]) == 2.0


def test_cohens_dz_of_constant_differences():
    assert cohens_dz([0.5, 0.75], [0.5, 0.75]) == 0.0
    assert cohens_dz([0.5, 0.75], [0.25, 0.5]) == np.inf
    assert cohens_dz([0.25, 0.5], [0.5, 0.75]) == -np.inf


# ------------------------------------------------------------------ rank-biserial
def test_rank_biserial_from_demsars_rank_sums(demsar, table2):
    c45, c45m = table2
    paper = demsar["wilcoxon_example"]["paper"]  # R+ = 93, R- = 12 (zeros split)
    r_plus, r_minus = paper["R_plus"], paper["R_minus"]
    assert rank_biserial(c45m, c45) == pytest.approx((r_plus - r_minus) / (r_plus + r_minus), abs=1e-12)
    assert rank_biserial(c45, c45m) == pytest.approx((r_minus - r_plus) / (r_plus + r_minus), abs=1e-12)
    # Zeros dropped, as scipy's default: R+ = 71.5, R- = 6.5.
    dropped = demsar["wilcoxon_example"]["recomputed"]["zero_method=wilcox_rank_sums_after_dropping_zeros"]
    assert rank_biserial(c45m, c45, zero_method="wilcox") == pytest.approx(
        (dropped["R_plus"] - dropped["R_minus"]) / (dropped["R_plus"] + dropped["R_minus"]), abs=1e-12)


def test_rank_biserial_by_hand():
    # d = (+1, -2, +3, +4): ranks 1, 2, 3, 4; R+ = 8, R- = 2; r = 6 / 10.
    assert rank_biserial([2.0, 0.0, 3.0, 4.0], [1.0, 2.0, 0.0, 0.0]) == pytest.approx(0.6)
    assert rank_biserial([1.0, 2.0], [0.0, 1.0]) == 1.0
    assert rank_biserial([0.5, 0.5], [0.5, 0.5]) == 0.0


def test_rank_biserial_equals_scipys_statistic_relation(table2):
    # scipy's one-sided statistic is R+ (zeros dropped), n(n+1)/2 the total: r = 2 R+ / total - 1.
    c45, c45m = table2
    d = np.round(c45m - c45, 3)
    n = np.count_nonzero(d)
    r_plus = st.wilcoxon(d, alternative="greater").statistic
    assert rank_biserial(c45m, c45, zero_method="wilcox") == pytest.approx(4 * r_plus / (n * (n + 1)) - 1)


def test_examples_run_as_doctests():
    result = doctest.testmod(effect_size)
    assert result.attempted > 0 and result.failed == 0


def test_the_rows_version_is_the_one_pair_interval_on_every_row():
    from bayesbench.stats import mean_difference_ci, mean_difference_rows
    rng = np.random.default_rng(4)
    a, b = rng.uniform(0.6, 0.9, (5, 10)), rng.uniform(0.6, 0.9, (5, 10))
    a[0, 6:] = np.nan
    ratio = np.array([1 / 9, 1 / 4, 0.0, 1 / 9, 1 / 9])
    rows = mean_difference_rows(a, b, test_train_ratio=ratio)
    for i in range(5):
        used = np.isfinite(a[i])
        one = mean_difference_ci(a[i, used], b[i, used], test_train_ratio=ratio[i])
        assert [rows.estimate[i], rows.low[i], rows.high[i]] == pytest.approx(
            [one.estimate, one.low, one.high], abs=1e-12)


def test_rows_interval_uses_scipys_t_quantile_bit_for_bit():
    # Rows with 1 to 6 paired scores (NaN pads the rest): a row of one pair has no
    # interval, every other row's half width is scipy.stats.t.ppf's quantile times its SE.
    rng = np.random.default_rng(3)
    a, b = rng.random((6, 6)), rng.random((6, 6))
    for i in range(6):
        a[i, i + 1:] = np.nan
    res = effect_size.mean_difference_rows(a, b, confidence_level=0.9)
    assert np.isnan(res.low[0]) and np.isnan(res.high[0])
    k = np.arange(2, 7)
    half = st.t.ppf(0.95, k - 1) * res.standard_error[1:]
    assert np.array_equal(res.high[1:], res.estimate[1:] + half)
    assert np.array_equal(res.low[1:], res.estimate[1:] - half)
