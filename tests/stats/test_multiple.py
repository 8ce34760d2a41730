"""The tests over data sets against Demšar (2006) and scipy."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sst

from bayesbench import stats as S
from bayesbench.errors import StatsError
from bayesbench.stats.multiple import average_ranks


@pytest.fixture(scope="module")
def table2(demsar):
    rows = demsar["table2"]["rows"]
    c45 = np.array([float(r[1]) for r in rows])
    c45m = np.array([float(r[2]) for r in rows])
    return c45, c45m


@pytest.fixture(scope="module")
def table6(demsar):
    t = demsar["table6"]
    return np.array(t["auc"], dtype=float), np.array(t["rank"], dtype=float)


# ---- Wilcoxon and sign test (Table 2) ------------------------------------------------------

def test_wilcoxon_reproduces_demsar_table2(table2, demsar):
    c45, c45m = table2
    paper = demsar["wilcoxon_example"]["paper"]
    res = S.wilcoxon(c45m, c45)
    assert (res.r_plus, res.r_minus, res.statistic) == (paper["R_plus"], paper["R_minus"], paper["T"])
    assert res.n == paper["N"]
    # The paper decides with the exact table: T = 12 <= 21 = critical value.
    assert S.wilcoxon_critical_value(14, 0.05) == paper["critical_value"] == 21
    assert S.wilcoxon_critical_value(14, 0.10) == 25
    assert res.pvalue < 0.05
    # Demšar's z has no tie correction (-2.5424); ours has (two tied pairs), as scipy's.
    z_paper = demsar["wilcoxon_example"]["recomputed"]["z_paper_formula_from_T"]
    assert res.zstatistic == pytest.approx(z_paper, abs=2e-3)
    assert res.zstatistic != pytest.approx(z_paper, abs=1e-4)


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit", "pratt"])
@pytest.mark.parametrize("method", ["auto", "exact", "approx"])
def test_wilcoxon_matches_scipy_variants_on_table2(table2, demsar, zero_method, method):
    c45, c45m = table2
    key = f"zero_method={zero_method}, method={method}"
    ref = demsar["wilcoxon_example"]["recomputed"]["scipy.stats.wilcoxon(d) variants"][key]
    res = S.wilcoxon(c45m, c45, zero_method=zero_method, method=method)
    assert res.statistic == ref["statistic"]
    assert res.pvalue == pytest.approx(ref["pvalue"], abs=1e-6)
    scipy_method = {"approx": "asymptotic"}.get(method, method)
    live = sst.wilcoxon(np.round(c45m - c45, 12), zero_method=zero_method, method=scipy_method)
    assert res.pvalue == pytest.approx(live.pvalue, rel=1e-9)


def test_wilcoxon_demsar_drops_one_zero_when_odd():
    a = np.array([0.5, 0.6, 0.7, 0.8, 0.9, 0.4, 0.3])
    b = a - np.array([0.0, 0.0, 0.0, 0.01, 0.02, -0.03, 0.04])
    res = S.wilcoxon(a, b)  # three zeros: one dropped, ranks 1.5, 1.5 split, then 3, 4, 5, 6
    assert res.n == 6
    assert res.r_plus == pytest.approx(1.5 + 3 + 4 + 6)
    assert res.r_minus == pytest.approx(1.5 + 5)
    zsplit = S.wilcoxon(a, b, zero_method="zsplit")
    assert zsplit.n == 7 and zsplit.r_plus == pytest.approx(3 + 4 + 5 + 7)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=4, max_size=13),
       st.sampled_from(["wilcox", "zsplit", "pratt"]))
def test_wilcoxon_auto_matches_scipy_with_ties(diffs, zero_method):
    d = np.array(diffs, dtype=float) / 100
    if np.count_nonzero(d) < 2:
        return
    ours = S.wilcoxon(d, np.zeros_like(d), zero_method=zero_method)
    ref = sst.wilcoxon(d, zero_method=zero_method)  # a full permutation test at this size
    assert ours.statistic == pytest.approx(ref.statistic)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_sign_test_on_table2(table2, demsar):
    c45, c45m = table2
    res = S.sign_test(c45m, c45)
    rec = demsar["sign_test_example"]["recomputed"]
    assert (res.wins, res.losses, res.ties) == (rec["wins"], rec["losses"], rec["ties"])
    assert res.statistic == demsar["sign_test_example"]["paper"]["wins_counted"] == 11
    # Two-sided exact p: not significant, although the paper's (one-sided) Table 3 says so.
    assert res.pvalue == pytest.approx(rec["binomtest_two_sided_p(11 of 14)"], abs=1e-6)
    dropped = S.sign_test(c45m, c45, ties="drop")
    assert (dropped.statistic, dropped.n) == (10, 12)
    assert dropped.pvalue == pytest.approx(rec["binomtest_two_sided_p_ties_dropped(10 of 12)"], abs=1e-6)


def test_win_tie_loss_with_and_without_significance(table2):
    c45, c45m = table2
    assert str(S.win_tie_loss(c45m, c45)) == "10/2/2"
    sig = np.abs(c45m - c45) > 0.02
    assert S.win_tie_loss(c45m, c45, significant=sig) == S.WinTieLoss(5, 9, 0)  # 0.033, 0.063, 0.022, 0.047, 0.021
    assert S.win_tie_loss(c45m, c45, lower_is_better=True) == S.WinTieLoss(2, 2, 10)


# ---- Friedman, Iman-Davenport, post-hoc (Table 6) ------------------------------------------

def test_ranks_of_printed_aucs(table6, demsar):
    auc, _ = table6
    ranks = S.rank_scores(auc)
    np.testing.assert_array_equal(ranks, demsar["table6_recomputed"]["rank"])
    np.testing.assert_array_equal(S.rank_scores(-auc, lower_is_better=True), ranks)
    np.testing.assert_allclose(ranks.mean(axis=0), demsar["table6_recomputed"]["average_rank"], atol=1e-6)


def test_friedman_on_paper_rank_table_gives_printed_values(table6, demsar):
    _, paper_ranks = table6
    res = S.friedman(paper_ranks)
    paper = demsar["friedman_example"]["paper"]
    assert [round(r, 3) for r in res.average_ranks] == [float(v) for v in demsar["table6"]["average_rank"]]
    assert round(res.statistic, 2) == float(paper["chi2_F"]) == 9.28
    assert round(res.f_statistic, 2) == float(paper["F_F"]) == 3.69
    assert (res.df, res.f_df) == (3, (3, 39))
    exact = demsar["quick_oracle"]["friedman_table6"]["exact_from_paper_ranks"]
    assert res.statistic == pytest.approx(exact["chi2_F"], abs=1e-6)
    assert res.f_pvalue == pytest.approx(exact["p_F"], abs=1e-6)
    assert sst.f.ppf(0.95, *res.f_df) == pytest.approx(float(paper["critical_value_F_3_39_alpha0.05"]), abs=5e-3)


def test_friedman_on_printed_aucs_and_scipy_tie_correction(table6, demsar):
    auc, _ = table6
    res = S.friedman(S.rank_scores(auc))
    exact = demsar["quick_oracle"]["friedman_table6"]["exact_from_printed_aucs"]
    assert res.statistic == pytest.approx(exact["chi2_F"], abs=1e-6)  # 9.857, not the paper's 9.28
    assert res.f_statistic == pytest.approx(exact["F_F"], abs=1e-6)  # 3.987, not 3.69
    assert res.f_pvalue == pytest.approx(exact["p_F"], abs=1e-6)
    ref = sst.friedmanchisquare(*auc.T)
    assert res.corrected_statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.corrected_pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_friedman_without_ties_equals_scipy():
    scores = np.random.default_rng(3).random((12, 5))
    res, ref = S.friedman(S.rank_scores(scores)), sst.friedmanchisquare(*scores.T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.corrected_statistic == pytest.approx(res.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


# ---- Friedman at its boundaries (issue 25, class 8) -----------------------------------------

def brute_force_exact_p(ranks) -> float:
    """P(sum_j R_j^2 >= observed) over every arrangement of every row's ranks, enumerated."""
    import itertools

    ranks = np.asarray(ranks, dtype=float)
    observed = np.sum(ranks.sum(axis=0) ** 2)
    rows = [list(itertools.permutations(row)) for row in ranks]
    hits = total = 0
    for choice in itertools.product(*rows):
        total += 1
        hits += np.sum(np.sum(choice, axis=0) ** 2) >= observed - 1e-9
    return hits / total


def test_perfect_agreement_of_two_on_three_is_the_exact_sign_test():
    """Same winner on 3 data sets: chi2_F = N(k-1) = 3, p 0.083; exact p = sign test 0.25."""
    res = S.friedman(S.rank_scores([[0.9, 0.8], [0.9, 0.7], [0.95, 0.6]]))
    assert res.statistic == pytest.approx(3.0)
    assert res.pvalue == pytest.approx(sst.chi2.sf(3.0, 1)) and round(res.pvalue, 3) == 0.083
    assert res.exact_pvalue == pytest.approx(sst.binomtest(3, 3, 0.5).pvalue) == 0.25
    assert res.f_statistic == np.inf and np.isnan(res.f_pvalue)  # never "p < 0.0001"


@pytest.mark.parametrize("ranks, p", [
    # Siegel (1956), Table N: k = 3, N = 3, chi2_r = 6.0 -> p = .028 (= 6 / 6^3)
    ([[1, 2, 3]] * 3, 1 / 36),
    # Siegel (1956), Table N: k = 4, N = 2, chi2_r = 6.0 -> p = .042 (= 24 / 24^2)
    ([[1, 2, 3, 4]] * 2, 1 / 24),
])
def test_exact_p_of_published_tables_at_perfect_agreement(ranks, p):
    res = S.friedman(ranks)
    assert res.statistic == pytest.approx(len(ranks) * (len(ranks[0]) - 1))
    assert res.exact_pvalue == pytest.approx(p, abs=1e-12)
    assert res.exact_pvalue == pytest.approx(brute_force_exact_p(ranks), abs=1e-12)
    assert np.isnan(res.f_pvalue)


def test_all_ties_give_no_evidence():
    res = S.friedman(S.rank_scores(np.full((4, 3), 0.5)))
    assert res.statistic == 0 and res.pvalue == 1 and res.exact_pvalue == pytest.approx(1.0)
    assert res.f_statistic == 0 and res.f_pvalue == pytest.approx(1.0)
    assert res.corrected_pvalue == 1


def test_two_data_sets():
    ranks = [[1, 2, 3], [2, 1, 3]]
    res = S.friedman(ranks)
    assert res.exact_pvalue == pytest.approx(brute_force_exact_p(ranks), abs=1e-12)
    assert np.isfinite(res.f_statistic) and 0 < res.f_pvalue < 1


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.sampled_from([(2, 2), (2, 5), (3, 2), (3, 4), (4, 2)]).flatmap(lambda kn: st.lists(
    st.lists(st.integers(0, 2), min_size=kn[0], max_size=kn[0]), min_size=2, max_size=kn[1])))
def test_exact_p_equals_enumeration_ties_included(scores):
    ranks = S.rank_scores(scores)
    res = S.friedman(ranks)
    assert res.exact_pvalue == pytest.approx(brute_force_exact_p(ranks), abs=1e-12)
    assert not (res.f_pvalue == 0)  # an F p-value of exactly 0 is the boundary's symptom


def test_exact_p_is_left_out_beyond_its_bound():
    ranks = S.rank_scores(np.random.default_rng(0).random((3, 8)))  # 8! arrangements a row
    assert np.isnan(S.friedman_exact_pvalue(ranks))
    assert np.isnan(S.friedman(ranks).exact_pvalue)


def test_friedman_rejects_non_ranks():
    with pytest.raises(StatsError, match="k\\(k\\+1\\)/2"):
        S.friedman([[1, 1], [1, 2]])
    with pytest.raises(StatsError, match="at least 2 data sets"):
        S.friedman([[1, 2]])


def test_critical_values_table5(demsar):
    t5 = demsar["posthoc"]
    ks = t5["table5a_nemenyi"]["n_classifiers"]
    for alpha in ("0.05", "0.10"):
        # The paper's Table 5(a) is off by one in the third decimal in three places: tolerance 1e-3.
        np.testing.assert_allclose([S.nemenyi_q(k, float(alpha)) for k in ks],
                                   [float(v) for v in t5["table5a_nemenyi"][f"q_{alpha}"]], atol=1e-3)
        ours = np.array([S.bonferroni_dunn_q(k, float(alpha)) for k in ks])
        printed = np.array([float(v) for v in t5["table5b_bonferroni_dunn"][f"q_{alpha}"]])
        off = np.abs(ours - printed) > 1e-3
        # Only the paper's typo (2.724 for k = 9 at 0.05; the value is 2.734) differs.
        assert [k for k, bad in zip(ks, off) if bad] == ([9] if alpha == "0.05" else [])
    assert S.bonferroni_dunn_q(9, 0.05) == pytest.approx(2.7344, abs=1e-4)


def test_critical_differences(demsar):
    exact = demsar["quick_oracle"]["critical_differences_k4_N14"]["exact"]
    assert S.critical_difference(4, 14, 0.05) == pytest.approx(exact["nemenyi_0.05"], abs=1e-6)
    assert S.critical_difference(4, 14, 0.10) == pytest.approx(exact["nemenyi_0.10"], abs=1e-6)
    bd = S.critical_difference(4, 14, 0.05, method="bonferroni-dunn")
    assert bd == pytest.approx(exact["bonferroni_dunn_0.05"], abs=1e-6)  # 1.168; the paper truncates to 1.16
    assert round(S.critical_difference(4, 14, 0.05), 2) == 1.25


def test_nemenyi_pairwise_pvalues_match_scikit_posthocs(table6, demsar):
    auc, _ = table6
    names = demsar["table6"]["classifiers"]
    res = S.nemenyi(S.rank_scores(auc).mean(axis=0), 14, 0.05)
    for pair, p in demsar["third_party"]["scikit-posthocs"]["nemenyi_p"].items():
        i, j = (names.index(n) for n in pair.split(" vs "))
        assert res.pvalue[i, j] == pytest.approx(p, abs=1e-6)
    assert not res.reject.any()  # at 0.05 Nemenyi finds nothing (best - worst = 1.21 < 1.25)
    at10 = S.nemenyi(S.rank_scores(auc).mean(axis=0), 14, 0.10)
    assert at10.reject[0, 1] and at10.reject[0, 3] and not at10.reject[0, 2]


def test_holm_and_bonferroni_dunn_against_control(table6, demsar):
    _, paper_ranks = table6
    avg = paper_ranks.mean(axis=0)
    ctl = S.control_ztest(avg, 14, control=0)
    assert ctl.se == pytest.approx(0.488, abs=5e-4)
    exact = {r["classifier"]: r for r in demsar["quick_oracle"]["holm_control_C4.5"]["exact_from_paper_ranks"]}
    names = demsar["table6"]["classifiers"]
    for i, name in enumerate(names[1:], start=1):
        assert ctl.statistic[i] == pytest.approx(exact[name]["z"], abs=1e-4)
        assert ctl.pvalue[i] == pytest.approx(exact[name]["p"], abs=1e-5)
    assert np.isnan(ctl.pvalue[0])
    # Paper: Holm rejects C4.5+m+cf and C4.5+m, not C4.5+cf (p 0.608; the paper prints 0.607).
    h = S.holm(ctl.pvalue[1:], 0.05)
    assert h.reject.tolist() == [True, False, True]
    np.testing.assert_allclose(h.threshold, [0.05 / 2, 0.05 / 1, 0.05 / 3])
    rows = demsar["posthoc"]["recomputed"]["control_C4.5_from_paper_rank_table_exact"]
    sm_holm = {r["classifier"]: r["statsmodels_holm_adj_p"] for r in rows}
    np.testing.assert_allclose(h.pvalue_adjusted, [sm_holm[n] for n in names[1:]], atol=1e-5)
    # Bonferroni-Dunn only rejects C4.5+m+cf (1.179 > CD 1.168 > 1.143).
    bd = S.bonferroni(ctl.pvalue[1:], 0.05)
    assert bd.reject.tolist() == [False, False, True]
    cd = S.critical_difference(4, 14, 0.05, method="bonferroni-dunn")
    assert ((avg[0] - avg[1:]) > cd).tolist() == bd.reject.tolist()


def test_holm_matches_hand_computation():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    h = S.holm(p, 0.05)
    # sorted 0.005, 0.01, 0.03, 0.04 vs 0.0125, 0.01667, 0.025, 0.05: stops at 0.03.
    assert h.reject.tolist() == [True, False, False, True]
    np.testing.assert_allclose(h.pvalue_adjusted, [0.03, 0.06, 0.06, 0.02])


# ---- many pairs at once (a comparison of many classifiers) -----------------------------------

def _random_rows(rng, m=60, n=8):
    """Fold accuracies on small test sets: many ties and zero differences; some pairs missing.
    (Small: scipy's permutation test takes half a second a row from 10 pairs on.)"""
    a = rng.binomial(20, 0.8, (m, n)) / 20
    b = rng.binomial(20, 0.8, (m, n)) / 20
    b[rng.random((m, n)) < 0.1] = np.nan
    return a, b


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit", "pratt"])
def test_wilcoxon_rows_match_scipy_with_ties_and_zeros(zero_method):
    rng = np.random.default_rng(11)
    a, b = _random_rows(rng)
    rows = S.wilcoxon_rows(a, b, zero_method=zero_method)
    checked = 0
    for i in range(a.shape[0]):
        used = np.isfinite(b[i])
        d = np.round(a[i, used] - b[i, used], 12)
        if np.count_nonzero(d) < 2:
            continue
        ref = sst.wilcoxon(d, zero_method=zero_method)
        assert rows.statistic[i] == pytest.approx(ref.statistic)
        assert rows.pvalue[i] == pytest.approx(ref.pvalue, rel=1e-9)
        checked += 1
    assert checked > 45


def test_wilcoxon_rows_demsar_zeros_match_scipy_zsplit_after_dropping_one():
    rng = np.random.default_rng(12)
    a, b = _random_rows(rng, n=9)
    rows = S.wilcoxon_rows(a, b)  # Demšar's rule: split the zeros, one dropped when odd
    odd = 0
    for i in range(a.shape[0]):
        used = np.isfinite(b[i])
        d = np.round(a[i, used] - b[i, used], 12)
        zeros = np.flatnonzero(d == 0)
        if zeros.size % 2:
            d, odd = np.delete(d, zeros[0]), odd + 1
        if np.count_nonzero(d) < 2:
            continue
        # scipy chooses its method on the pairs given, before the dropped zero.
        method = "exact" if (used.sum() <= 50 and zeros.size == 0
                             and np.unique(np.abs(d)).size == d.size) else "auto"
        ref = sst.wilcoxon(d, zero_method="zsplit", method=method)
        assert rows.pvalue[i] == pytest.approx(ref.pvalue, rel=1e-9)
        assert rows.n[i] == d.size
    assert odd > 10


def test_wilcoxon_rows_without_pairs_and_large_rows():
    rng = np.random.default_rng(13)
    a = rng.normal(0.8, 0.05, (3, 60))
    b = a + rng.normal(0.01, 0.02, (3, 60))
    b[1] = np.nan  # no pair at all: nothing to test
    rows = S.wilcoxon_rows(a, b)
    assert rows.n[1] == 0 and rows.pvalue[1] == 1.0
    for i in (0, 2):  # 60 pairs without ties: scipy's normal approximation
        ref = sst.wilcoxon(np.round(a[i] - b[i], 12), zero_method="zsplit")
        assert rows.method[i] == "approx"
        assert rows.pvalue[i] == pytest.approx(ref.pvalue, rel=1e-9)
    with pytest.raises(StatsError, match="m x n arrays"):
        S.wilcoxon_rows(a[0], b[0])


@pytest.mark.parametrize("values", [
    np.random.default_rng(0).integers(0, 5, 200).astype(float),    # many ties
    np.random.default_rng(1).random(101),                           # none
    np.round(np.random.default_rng(2).dirichlet(np.ones(3), 60)[:, 0], 2),
    np.array([3, 1, 2, 2, 7, 1], dtype=np.int64), np.array([0.5]), np.array([]),
    np.array([0.2, np.nan, 0.1]),
])
def test_average_ranks_are_scipys_rankdata_bit_for_bit(values):
    expected = sst.rankdata(values)
    got = average_ranks(values)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_rank_scores_are_scipys_row_rankdata_bit_for_bit():
    # Demšar's rule (best = 1, ties share the mean rank) row by row, as rankdata(axis=1).
    scores = np.round(np.random.default_rng(5).random((30, 6)), 1)
    np.testing.assert_array_equal(S.rank_scores(scores), sst.rankdata(-scores, axis=1))
    np.testing.assert_array_equal(S.rank_scores(scores, lower_is_better=True),
                                  sst.rankdata(scores, axis=1))
