"""`compare` and `compare_scores`: fold tests like Weka's, the tests over data sets like Demšar's."""
import numpy as np
import pandas as pd
import pytest
from helpers import check_latex, fold_records, table6_scores, three_datasets, with_failures

from bayesbench import stats as S
from bayesbench.errors import StatsError
from bayesbench.report.analysis import compare, compare_scores
from bayesbench.report.figures.cdplot import plot_cd
from bayesbench.report.render import render_comparison
from bayesbench.spec import CompareSpec


@pytest.fixture(scope="module")
def ttest_frame(ttest_ref):
    """Two data sets whose folds are the corrected-t reference vectors (B is the baseline)."""
    ex2 = ttest_ref["second_example"]
    rows = (fold_records("ex1", "B", ttest_ref["accuracy_B"])
            + fold_records("ex1", "A", ttest_ref["accuracy_A"])
            + fold_records("ex2", "B", ex2["accuracy_B"]) + fold_records("ex2", "A", ex2["accuracy_A"]))
    return pd.DataFrame(rows)


def test_lower_is_better_reverses_ranks(demsar):
    scores = table6_scores(demsar)
    up = compare_scores(scores)
    down = compare_scores(1 - scores, lower_is_better=True)
    np.testing.assert_allclose(down.average_ranks, up.average_ranks)
    assert down.friedman.statistic == pytest.approx(up.friedman.statistic)
    assert "0.2020 •" in render_comparison(down, "text")  # adult: 1 - 0.798, the lowest


def test_fold_tests_mark_cells_like_weka(ttest_frame, ttest_ref):
    cmp = compare(ttest_frame)  # baseline: the first classifier, B
    assert cmp.baseline == "B" and cmp.classifiers == ["B", "A"]
    assert cmp.pvalue.at["ex1", "A"] == pytest.approx(ttest_ref["expected"]["p_two_sided"], abs=1e-9)
    assert cmp.pvalue.at["ex2", "A"] == pytest.approx(
        ttest_ref["second_example"]["expected"]["p_two_sided"], abs=1e-9)
    assert cmp.sign["A"].tolist() == [0, 1]
    assert cmp.mean.at["ex1", "A"] == pytest.approx(ttest_ref["expected"]["mean_A"])
    assert cmp.std.at["ex1", "A"] == pytest.approx(np.std(ttest_ref["accuracy_A"], ddof=1))
    text = render_comparison(cmp, "text")
    assert "0.8556 ± 0.0601 • v" in text  # ex2: A best in its row and significantly better than B
    assert "(1/1/0)" in text and "2/0/0" in text
    # The uncorrected paired t-test also flags ex1 (p = 0.0052); the reversed baseline gives '*'.
    assert compare(ttest_frame, CompareSpec(test="paired-t")).sign["A"].tolist() == [1, 1]
    assert compare(ttest_frame, CompareSpec(baseline="A")).sign["B"].tolist() == [0, -1]
    wil = compare(ttest_frame, CompareSpec(test="wilcoxon"))
    direct = S.wilcoxon(ttest_ref["accuracy_A"], ttest_ref["accuracy_B"])
    assert wil.pvalue.at["ex1", "A"] == pytest.approx(direct.pvalue)
    check_latex(render_comparison(cmp, "latex"))
    assert r"$\pm$" in render_comparison(cmp, "latex")


def test_error_metric_is_lower_is_better(ttest_frame):
    cmp = compare(ttest_frame, CompareSpec(metric="error"))
    assert cmp.lower_is_better
    assert cmp.sign["A"].tolist() == [0, 1]  # less error = better: still 'v'
    assert cmp.win_tie_loss["A"] == S.WinTieLoss(2, 0, 0)


def test_paired_tests_refuse_different_folds(ttest_frame, ttest_ref):
    other = pd.DataFrame(fold_records("ex1", "C", ttest_ref["accuracy_B"], salt="-seed2"))
    frame = pd.concat([ttest_frame, other], ignore_index=True)
    with pytest.raises(StatsError, match="data set 'ex1': 'C' and 'B' were not evaluated on the same folds"):
        compare(frame)
    unpaired = compare(frame, CompareSpec(test="unpaired-t"))
    a, b = ttest_ref["accuracy_B"], ttest_ref["accuracy_B"]
    assert unpaired.pvalue.at["ex1", "C"] == pytest.approx(S.unpaired_ttest(a, b).pvalue)
    assert np.isnan(unpaired.pvalue.at["ex2", "C"])  # C has no ex2: no test, no mark
    assert "left out of the ranks" in render_comparison(unpaired, "text")


def test_single_data_set_skips_tests_over_data_sets(ttest_frame):
    cmp = compare(ttest_frame[ttest_frame["dataset"] == "ex1"])
    assert cmp.friedman is None
    assert "need at least 2 data sets" in render_comparison(cmp, "markdown")
    with pytest.raises(StatsError, match="at least 2 data sets"):
        plot_cd(cmp, "x.png")


def test_unknown_metric_and_empty_frame(ttest_frame):
    with pytest.raises(StatsError, match="unknown metric 'auc'.*accuracy, error"):
        compare(ttest_frame, CompareSpec(metric="auc"))
    with pytest.raises(StatsError, match="no finished records"):
        compare(ttest_frame.iloc[:0])


def test_table_does_not_depend_on_record_order(ttest_frame):
    # Parallel runs write records in completion order: data sets are ordered by the given
    # (config) order, else by name, never by arrival.
    reordered = pd.concat([ttest_frame[ttest_frame["dataset"] == "ex2"],
                           ttest_frame[ttest_frame["dataset"] == "ex1"].iloc[::-1]])
    assert render_comparison(compare(reordered), "csv") == render_comparison(compare(ttest_frame), "csv")
    assert compare(reordered).datasets == ["ex1", "ex2"]
    assert compare(ttest_frame, datasets=["ex2", "ex1", "unused"]).datasets == ["ex2", "ex1"]


def test_a_failed_fold_empties_its_cell_and_names_the_data_set(ttest_ref):
    # Before: a classifier that failed on one fold had 9 folds against the baseline's 10, and
    # compare refused the whole comparison as if the runs had used different folds.
    full = three_datasets(ttest_ref)
    frame = with_failures(full, [("ex2", "B", 0)])
    cmp = compare(frame)
    assert np.isnan(cmp.mean.at["ex2", "B"]) and cmp.sign.at["ex2", "B"] == 0
    assert cmp.mean.at["ex2", "C"] == pytest.approx(np.mean(ttest_ref["accuracy_A"]))
    assert cmp.complete == ["ex1", "ex3"]
    # The tests over data sets are those of the two complete data sets alone.
    alone = compare(full[full["dataset"] != "ex2"])
    assert cmp.friedman.statistic == pytest.approx(alone.friedman.statistic)
    assert cmp.average_ranks.tolist() == pytest.approx(alone.average_ranks.tolist())
    text = render_comparison(cmp, "text")
    assert "B on ex2 (1 of 100 folds without a score, 1 of them failed)" in text
    assert "left out of the ranks and the tests over data sets: ex2;" in text
    # A cell whose every fold failed is reported as such; the classifier keeps its column.
    all_failed = compare(with_failures(full, [("ex3", "C", None)]))
    assert all_failed.classifiers == ["A", "B", "C"] and np.isnan(all_failed.mean.at["ex3", "C"])
    assert "C on ex3 (failed on all 100 folds)" in render_comparison(all_failed, "text")
    with pytest.raises(StatsError, match="all 300 tasks failed"):
        compare(with_failures(full[full["dataset"] == "ex1"],
                               [("ex1", c, None) for c in "ABC"]))


def test_an_infinite_iman_davenport_statistic_is_explained():
    # Two data sets that rank A over B over C alike: chi2_F = N(k-1), so F_F's denominator is 0.
    cmp = compare_scores(pd.DataFrame({"A": [0.9, 0.8], "B": [0.7, 0.6], "C": [0.5, 0.4]},
                                      index=["d1", "d2"]))
    assert cmp.friedman.statistic == pytest.approx(4.0)
    assert cmp.friedman.pvalue == pytest.approx(np.exp(-2.0))  # chi-square, 2 df: exp(-x/2)
    assert np.isinf(cmp.friedman.f_statistic) and np.isnan(cmp.friedman.f_pvalue)
    assert cmp.friedman.exact_pvalue == pytest.approx(1 / 6)  # 3! of 3!^2 arrangements agree
    text = render_comparison(cmp, "text")
    assert "F_F is infinite and its p-value undefined: every data set ranks the classifiers " \
        "in the same order" in text
    assert "< 0.0001" not in text
    iman = next(line for line in text.splitlines() if line.startswith("Iman-Davenport"))
    assert iman.split()[-4:] == ["inf", "2,", "2", "-"]  # F_F's p-value undefined, not 0
    exact = next(line for line in text.splitlines() if "exact p" in line)
    assert exact.rstrip().endswith("0.1667")
    assert "F_F is infinite" not in render_comparison(compare_scores(pd.DataFrame(
        {"A": [0.9, 0.6], "B": [0.7, 0.8]}, index=["d1", "d2"])), "text")
