"""All-pairs post-hoc tests on Demšar's Table 6: Nemenyi against scikit-posthocs' recorded
p-values, Holm-adjusted Wilcoxon against scipy.stats.wilcoxon and Holm by hand."""
import doctest
import itertools

import numpy as np
import pytest
from scipy import stats as st

from bayesbench.errors import StatsError
from bayesbench.stats import pairwise
from bayesbench.stats import nemenyi
from bayesbench.stats.pairwise import nemenyi_pairs, nemenyi_pairwise, wilcoxon_pairwise


@pytest.fixture(scope="module")
def table6(demsar):
    t = demsar["table6"]
    return t["classifiers"], np.array(t["auc"], dtype=float)


def test_pairs_are_in_row_major_order(table6):
    _, auc = table6
    res = nemenyi_pairwise(auc)
    assert res.pairs == tuple(itertools.combinations(range(4), 2))
    assert res.n_classifiers == 4


def test_nemenyi_matches_scikit_posthocs(demsar, table6):
    names, auc = table6
    recorded = demsar["third_party"]["scikit-posthocs"]["nemenyi_p"]  # rounded to 6 decimals
    res = nemenyi_pairwise(auc)
    for (i, j), p, p_adj in zip(res.pairs, res.pvalue, res.pvalue_adjusted):
        assert p == pytest.approx(recorded[f"{names[i]} vs {names[j]}"], abs=5e-7)
        assert p_adj == p
    matrix = res.pvalue_matrix()
    assert np.array_equal(matrix, matrix.T) and np.all(np.diag(matrix) == 1.0)
    assert matrix[0, 3] == pytest.approx(recorded["C4.5 vs C4.5+m+cf"], abs=5e-7)


def test_nemenyi_pairs_of_a_nemenyi_test_match_scikit_posthocs(demsar, table6):
    names, auc = table6
    recorded = demsar["third_party"]["scikit-posthocs"]["nemenyi_p"]  # rounded to 6 decimals
    avg = demsar["table6_recomputed"]["average_rank"]  # from the printed AUCs
    res = nemenyi_pairs(nemenyi(avg, len(auc), 0.05), avg)
    assert res.pairs == tuple(itertools.combinations(range(4), 2)) and res.method == "nemenyi"
    for (i, j), p, diff, reject in zip(res.pairs, res.pvalue, res.statistic, res.reject):
        assert p == pytest.approx(recorded[f"{names[i]} vs {names[j]}"], abs=5e-6)
        assert diff == pytest.approx(avg[i] - avg[j], abs=1e-12)
        assert reject == (p <= 0.05)


def test_nemenyi_statistic_is_the_difference_of_average_ranks(demsar, table6):
    _, auc = table6
    avg = demsar["table6_recomputed"]["average_rank"]  # from the printed AUCs
    res = nemenyi_pairwise(auc)
    for (i, j), diff in zip(res.pairs, res.statistic):
        assert diff == pytest.approx(avg[i] - avg[j], abs=1e-6)
    # Lower is better ranks the other way round: every difference changes sign.
    flipped = nemenyi_pairwise(auc, lower_is_better=True)
    np.testing.assert_allclose(flipped.statistic, -res.statistic, atol=1e-12)
    np.testing.assert_allclose(flipped.pvalue, res.pvalue, atol=1e-12)


@pytest.mark.parametrize("alpha, cd", [(0.05, "nemenyi_0.05"), (0.10, "nemenyi_0.10")])
def test_nemenyi_rejects_where_the_rank_gap_exceeds_the_critical_difference(demsar, table6, alpha, cd):
    _, auc = table6
    critical = demsar["quick_oracle"]["critical_differences_k4_N14"]["exact"][cd]
    res = nemenyi_pairwise(auc, alpha=alpha)
    np.testing.assert_array_equal(res.reject, np.abs(res.statistic) > critical)
    np.testing.assert_array_equal(res.reject, res.pvalue <= alpha)
    assert res.reject.any() == (alpha == 0.10)  # C4.5 against C4.5+m+cf: p = 0.062


def _holm_by_hand(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit", "pratt"])
@pytest.mark.parametrize("method", ["auto", "exact", "approx"])
def test_wilcoxon_pairs_match_scipy_and_holm_by_hand(table6, zero_method, method):
    _, auc = table6
    res = wilcoxon_pairwise(auc, zero_method=zero_method, method=method)
    scipy_method = "asymptotic" if method == "approx" else method
    raw = []
    for (i, j), t, p in zip(res.pairs, res.statistic, res.pvalue):
        # The printed AUCs have 3 decimals: differences rounded to them, as Demšar ranks them.
        ref = st.wilcoxon(np.round(auc[:, i] - auc[:, j], 3), zero_method=zero_method,
                          method=scipy_method)
        assert t == pytest.approx(ref.statistic, abs=1e-12)
        assert p == pytest.approx(ref.pvalue, abs=1e-12)
        raw.append(ref.pvalue)
    np.testing.assert_allclose(res.pvalue_adjusted, _holm_by_hand(raw), atol=1e-12, rtol=0)
    np.testing.assert_array_equal(res.reject, np.array(_holm_by_hand(raw)) <= 0.05)


def test_wilcoxon_pairs_reject_after_holm(table6):
    # C4.5 against C4.5+m (p = 0.011, Demšar's zeros, normal approximation) has the
    # smallest of six p-values and C4.5 against C4.5+m+cf (0.016) the next: Holm multiplies
    # them by 6 and 5, so both reject at 0.10 and neither at 0.05; the third (0.030 x 4) stops.
    _, auc = table6
    strict = wilcoxon_pairwise(auc, alpha=0.05, method="approx")
    loose = wilcoxon_pairwise(auc, alpha=0.10, method="approx")
    assert int(np.argmin(strict.pvalue)) == 0 and strict.pairs[0] == (0, 1)
    assert strict.pvalue[0] < 0.05
    assert strict.pvalue_adjusted[0] == pytest.approx(6 * strict.pvalue[0])
    assert not strict.reject.any()
    assert loose.reject.tolist() == [True, False, True, False, False, False]


@pytest.mark.parametrize("scores", [[[0.1, 0.2]], [[0.1], [0.2]], [[0.1, np.nan], [0.2, 0.3]],
                                    [0.1, 0.2, 0.3]])
def test_pairwise_rejects_bad_score_matrices(scores):
    with pytest.raises(StatsError):
        nemenyi_pairwise(scores)
    with pytest.raises(StatsError):
        wilcoxon_pairwise(scores)


def test_examples_run_as_doctests():
    result = doctest.testmod(pairwise)
    assert result.attempted > 0 and result.failed == 0
