"""G-tests of (conditional) independence against scipy and hand-worked tables."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import chi2, chi2_contingency

from bayesbench.measures import independence
from bayesbench.measures.independence import (
    conditional_independence_test, g_test_table, independence_test, independence_tests,
    is_reliable, pairwise_conditional_tests)


def contingency_table(*codes_and_cards):
    codes = [c for c, _ in codes_and_cards]
    table = np.zeros([r for _, r in codes_and_cards], dtype=np.int64)
    np.add.at(table, tuple(codes), 1)
    return table


def scipy_conditional_g(table):
    """Sum over class strata of scipy's log-likelihood (G) statistic, no Yates correction."""
    return sum(chi2_contingency(t, correction=False, lambda_="log-likelihood").statistic
               for t in table)


def dense_table(rng, r_c, r_x, r_y):
    # Every count >= 1 so that scipy, which refuses zero margins, accepts each stratum.
    return rng.integers(1, 30, size=(r_c, r_x, r_y))


@pytest.mark.parametrize("shape", [(1, 2, 2), (2, 2, 2), (3, 4, 2), (4, 3, 5)])
def test_conditional_statistic_and_pvalue_match_scipy(shape):
    table = dense_table(np.random.default_rng(sum(shape)), *shape)
    result = g_test_table(table)
    expected = scipy_conditional_g(table)
    r_c, r_x, r_y = shape
    assert result.statistic == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert result.dof == (r_x - 1) * (r_y - 1) * r_c
    assert result.pvalue == pytest.approx(chi2.sf(expected, result.dof), rel=1e-9, abs=1e-12)
    assert result.mutual_information == pytest.approx(expected / (2 * table.sum()), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_codes_route_matches_scipy_on_random_data(r_x, r_y, r_c, seed):
    rng = np.random.default_rng(seed)
    n = 400
    c = rng.integers(0, r_c, n)
    x = rng.integers(0, r_x, n)
    # y depends on x in some draws, so both small and large statistics are checked.
    y = np.where(rng.random(n) < rng.random(), x % r_y, rng.integers(0, r_y, n))
    table = contingency_table((c, r_c), (x, r_x), (y, r_y))
    strata = [t for t in table if (t.sum(0) > 0).all() and (t.sum(1) > 0).all()]
    if len(strata) != r_c:
        return  # scipy cannot take a stratum with an empty row or column
    result = conditional_independence_test(x, y, c, (r_x, r_y, r_c))
    assert result.statistic == pytest.approx(scipy_conditional_g(table), rel=1e-9, abs=1e-9)
    assert result.n == n


def test_unconditional_test_matches_scipy_without_correction():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 3, 300)
    c = (x + (rng.random(300) < 0.3)) % 2
    result = independence_test(x, c, 3, 2)
    table = contingency_table((x, 3), (c, 2))
    ref = chi2_contingency(table, correction=False, lambda_="log-likelihood")
    assert result.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert result.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert result.dof == ref.dof == 2


def test_two_by_two_by_hand():
    # n = 40, n_x = n_y = (20, 20), diagonal 15/5: G = 2 * (2*15 ln(1.5) + 2*5 ln(0.5)).
    result = g_test_table([[15, 5], [5, 15]])
    assert result.statistic == pytest.approx(2 * (30 * np.log(1.5) + 10 * np.log(0.5)), rel=1e-12)
    assert result.dof == 1
    assert result.reliable  # 40 / 4 = 10 >= 5


def test_independent_table_gives_zero_and_pvalue_one():
    result = g_test_table(np.outer([1, 2, 3], [2, 4]))
    assert result.statistic == 0.0
    assert result.pvalue == pytest.approx(1.0)


def test_reliability_rule_boundary_and_no_rejection_when_unreliable():
    assert is_reliable(40, 8) and not is_reliable(39, 8)
    # A perfect dependence on too few cases: significant, yet unreliable, so not rejected.
    x = np.array([0, 1, 2, 3] * 4)
    result = conditional_independence_test(x, x, np.zeros(16, int), (4, 4, 1))
    assert result.pvalue < 1e-3
    assert not result.reliable and not result.rejects(0.05)
    # Declared cardinalities, not observed ones, set dof and cells.
    wider = conditional_independence_test(x, x, np.zeros(16, int), (10, 10, 2))
    assert wider.statistic == pytest.approx(result.statistic)
    assert wider.dof == 9 * 9 * 2 and wider.cells == 200


def test_missing_rows_are_left_out():
    x = np.array([0, 1, 0, 1, -1, 0])
    y = np.array([0, 1, 0, 1, 1, -1])
    c = np.zeros(6, int)
    full = conditional_independence_test(x[:4], y[:4], c[:4], (2, 2, 1))
    assert conditional_independence_test(x, y, c, (2, 2, 1)) == full
    assert full.n == 4


def test_huge_declared_cardinality_needs_no_huge_table():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 50, 200) * 10**12  # codes of a joined variable with 10**14 values
    y = rng.integers(0, 2, 200)
    c = rng.integers(0, 2, 200)
    big = conditional_independence_test(x, y, c, (10**14, 2, 2))
    _, small_x = np.unique(x, return_inverse=True)
    small = conditional_independence_test(small_x, y, c, (50, 2, 2))
    assert big.statistic == pytest.approx(small.statistic, rel=1e-12)
    assert big.dof == (10**14 - 1) * 2 and not big.reliable


@pytest.mark.parametrize("seed, batch_cells", [(0, None), (1, None), (2, 40), (3, 1)])
def test_batched_tests_match_scipy_and_the_single_tests_exactly(monkeypatch, seed, batch_cells):
    if batch_cells is not None:
        # A few tables per bincount, down to one.
        monkeypatch.setattr(independence, "_BATCH_CELLS", batch_cells)
    rng = np.random.default_rng(seed)
    n, cards, r_c = 500, [2, 3, 4, 6, 1], 3
    X = np.column_stack([rng.integers(0, r, n) for r in cards])
    X[:, 1] = np.where(rng.random(n) < 0.5, X[:, 2] % 3, X[:, 1])   # a dependence
    X[rng.random(X.shape) < 0.05] = -1
    c = rng.integers(0, r_c, n)
    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    results = pairwise_conditional_tests(X, c, cards, r_c)
    assert len(results) == len(pairs)
    for (i, j), result in zip(pairs, results):
        keep = (X[:, i] >= 0) & (X[:, j] >= 0)
        table = contingency_table((c[keep], r_c), (X[keep, i], cards[i]), (X[keep, j], cards[j]))
        strata = [t[t.sum(1) > 0][:, t.sum(0) > 0] for t in table]
        expected = sum(chi2_contingency(t, correction=False, lambda_="log-likelihood").statistic
                       for t in strata if min(t.shape) > 1)
        assert result.statistic == pytest.approx(expected, rel=1e-9, abs=1e-9)
        assert result.n == keep.sum() and result.dof == (cards[i] - 1) * (cards[j] - 1) * r_c
        if result.dof:
            assert result.pvalue == pytest.approx(chi2.sf(expected, result.dof), rel=1e-9)
        # The batch computes what the single test computes, to the last bit.
        assert result == conditional_independence_test(X[:, i], X[:, j], c,
                                                        (cards[i], cards[j], r_c))
    singles = independence_tests(X, c, cards, r_c)
    for j, result in enumerate(singles):
        keep = X[:, j] >= 0
        table = contingency_table((X[keep, j], cards[j]), (c[keep], r_c))
        table = table[table.sum(1) > 0]
        if table.shape[0] > 1:
            ref = chi2_contingency(table, correction=False, lambda_="log-likelihood")
            assert result.statistic == pytest.approx(ref.statistic, rel=1e-9)
            assert result.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
        assert result == independence_test(X[:, j], c, cards[j], r_c)


def test_batched_tests_relabel_huge_declared_cardinalities():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 50, 200) * 10**12
    codes = np.column_stack([x, rng.integers(0, 2, 200)])
    c = rng.integers(0, 2, 200)
    (pair,) = pairwise_conditional_tests(codes, c, [10**14, 2], 2)
    assert pair == conditional_independence_test(codes[:, 0], codes[:, 1], c, (10**14, 2, 2))
    assert pair.dof == (10**14 - 1) * 2 and not pair.reliable
