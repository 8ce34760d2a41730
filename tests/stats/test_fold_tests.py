"""The tests over folds against Weka's corrected t-test and scipy."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sst

from bayesbench import stats as S
from bayesbench.errors import StatsError


# ---- over folds -------------------------------------------------------------------------

def test_corrected_ttest_reproduces_reference_and_weka(ttest_ref):
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    ratio = ttest_ref["setup"]["n_test"] / ttest_ref["setup"]["n_train"]
    res = S.corrected_ttest(a, b, ratio)
    exp = ttest_ref["expected"]
    assert res.statistic == pytest.approx(exp["t"], abs=1e-9)
    assert res.pvalue == pytest.approx(exp["p_two_sided"], abs=1e-9)
    assert res.pvalue == pytest.approx(ttest_ref["weka_check"]["example_1"]["p_corrected"], abs=1e-12)
    assert res.df == exp["df"]
    assert res.mean_difference == pytest.approx(exp["mean_diff"], abs=1e-12)
    assert res.pvalue > 0.05  # the corrected test does not reject ...
    plain = S.paired_ttest(a, b)  # ... where the naive paired test does
    assert plain.statistic == pytest.approx(exp["uncorrected_paired_t"], abs=1e-9)
    assert plain.pvalue == pytest.approx(exp["uncorrected_p"], abs=1e-9)


def test_corrected_ttest_second_example_rejects(ttest_ref):
    ex = ttest_ref["second_example"]
    res = S.corrected_ttest(ex["accuracy_A"], ex["accuracy_B"], 50 / 450)
    assert res.statistic == pytest.approx(ex["expected"]["t"], abs=1e-9)
    assert res.pvalue == pytest.approx(ex["expected"]["p_two_sided"], abs=1e-9)
    assert res.pvalue == pytest.approx(ttest_ref["weka_check"]["second_example"]["p_corrected"], abs=1e-12)
    assert res.pvalue < 0.05


def test_zero_variance_follows_weka(ttest_ref):
    a = np.linspace(0.7, 0.9, 10)
    same = S.corrected_ttest(a, a, 1 / 9)
    assert same.pvalue == ttest_ref["weka_check"]["edge_identical"]["p_corrected"] == 1.0
    assert np.isnan(same.statistic)
    shifted = S.corrected_ttest(a + 0.01, a, 1 / 9)
    assert shifted.pvalue == ttest_ref["weka_check"]["edge_constant_diff"]["p_corrected"] == 0.0
    assert shifted.statistic == np.inf


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=3, max_size=30))
def test_paired_ttest_matches_scipy(pairs):
    a, b = np.array(pairs).T
    d = a - b
    if np.ptp(d) < 1e-6:  # scipy's NaN on constant differences is covered by the Weka rule above
        return
    ours, ref = S.paired_ttest(a, b), sst.ttest_rel(a, b)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-12)
    # With n_test/n_train = 0 the correction vanishes: the corrected test is the paired test.
    assert S.corrected_ttest(a, b, 0.0).pvalue == pytest.approx(ours.pvalue, rel=1e-12)


@pytest.mark.parametrize("equal_var", [True, False])
def test_unpaired_ttest_matches_scipy(equal_var):
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.80, 0.03, 100), rng.normal(0.79, 0.05, 60)
    ours, ref = S.unpaired_ttest(a, b, equal_var=equal_var), sst.ttest_ind(a, b, equal_var=equal_var)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert ours.df == pytest.approx(ref.df, rel=1e-10)


def test_ttests_reject_bad_input():
    with pytest.raises(StatsError, match="as many scores"):
        S.paired_ttest([0.1, 0.2, 0.3], [0.1, 0.2])
    with pytest.raises(StatsError, match="at least 2"):
        S.unpaired_ttest([0.1], [0.2, 0.3])
    with pytest.raises(StatsError, match="NaN"):
        S.corrected_ttest([0.1, np.nan], [0.2, 0.3], 0.1)


# ---- many pairs at once ----------------------------------------------------------------------

def test_fold_tests_rows_match_scipy_and_the_reference(ttest_ref):
    rng = np.random.default_rng(3)
    a = rng.normal(0.80, 0.04, (50, 10))
    b = a + rng.normal(0.01, 0.02, (50, 10))
    a[7, 2] = b[9, :9] = np.nan  # a missing score, and a row with too few pairs
    paired = S.fold_tests("paired-t", a, b)
    unpaired = S.fold_tests("unpaired-t", a, b)
    for i in range(50):
        both = np.isfinite(a[i]) & np.isfinite(b[i])
        if i == 9:
            assert not paired.tested[i] and np.isnan(paired.pvalue[i])
            continue
        assert paired.pvalue[i] == pytest.approx(sst.ttest_rel(a[i, both], b[i, both]).pvalue, rel=1e-9)
        ref = sst.ttest_ind(a[i][np.isfinite(a[i])], b[i][np.isfinite(b[i])])
        assert unpaired.statistic[i] == pytest.approx(ref.statistic, rel=1e-9)
        assert unpaired.pvalue[i] == pytest.approx(ref.pvalue, rel=1e-9)
    # The corrected test on Weka's two examples, as rows, with 50 test and 450 training cases per fold.
    ex2 = ttest_ref["second_example"]
    rows_a = np.array([ttest_ref["accuracy_A"], ex2["accuracy_A"]])
    rows_b = np.array([ttest_ref["accuracy_B"], ex2["accuracy_B"]])
    res = S.fold_tests("corrected-t", rows_a, rows_b, n_train=np.full(rows_a.shape, 450),
                       n_test=np.full(rows_a.shape, 50))
    assert res.pvalue[0] == pytest.approx(ttest_ref["weka_check"]["example_1"]["p_corrected"], abs=1e-12)
    assert res.pvalue[1] == pytest.approx(ttest_ref["weka_check"]["second_example"]["p_corrected"], abs=1e-12)
    # Weka's zero-variance rule holds row by row.
    same = S.fold_tests("corrected-t", rows_a, rows_a, n_train=np.full(rows_a.shape, 450),
                        n_test=np.full(rows_a.shape, 50))
    assert same.pvalue.tolist() == [1.0, 1.0]


def test_fold_tests_refuse_unknown_tests_and_missing_sizes():
    with pytest.raises(StatsError, match="unknown test 'sign'; expected one of corrected-t, paired-t"):
        S.fold_tests("sign", [[0.1, 0.2]], [[0.2, 0.3]])
    with pytest.raises(StatsError, match="training and test set size"):
        S.fold_tests("corrected-t", [[0.1, 0.2]], [[0.2, 0.3]])
    assert list(S.FOLD_TESTS) == ["corrected-t", "paired-t", "unpaired-t", "wilcoxon"]
    assert {name for name, test in S.FOLD_TESTS.items() if test.paired} == {
        "corrected-t", "paired-t", "wilcoxon"}
    assert [name for name, test in S.FOLD_TESTS.items() if test.needs_sizes] == ["corrected-t"]


def test_the_default_fold_test_is_one_of_the_table_and_the_specs_default():
    from bayesbench.spec import CompareSpec

    # spec.py imports nothing from the package, so it repeats the default: they must agree.
    assert S.DEFAULT_FOLD_TEST in S.FOLD_TESTS
    assert CompareSpec().test == S.DEFAULT_FOLD_TEST


def test_a_new_fold_test_is_one_entry_of_the_table(monkeypatch):
    # Adding a test is one FoldTest: fold_tests dispatches through the table alone.
    import importlib
    import types

    module = importlib.import_module("bayesbench.stats.fold_tests")

    def sign_rows(a, b, n_train, n_test):
        wins = (a > b).sum(axis=1)
        return S.FoldTestsResult(wins.astype(float), np.full(len(a), 0.5), np.ones(len(a), bool))

    table = dict(module.FOLD_TESTS)
    table["sign"] = module.FoldTest("sign", "sign test", sign_rows, paired=True)
    monkeypatch.setattr(module, "FOLD_TESTS", types.MappingProxyType(table))
    res = S.fold_tests("sign", [[0.3, 0.4, 0.1]], [[0.2, 0.3, 0.2]])
    assert res.statistic.tolist() == [2.0] and res.pvalue.tolist() == [0.5]
