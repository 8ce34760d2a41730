"""Efron and Tibshirani's (1997) bootstrap estimates of the error rate against cases computed by
hand from the formulas of docs/statistics.md ("The bootstrap: estimates of the error rate"),
the clipping of the relative overfitting rate included."""
import pytest

from bayesbench.errors import StatsError
from bayesbench.stats.bootstrap_error import (bootstrap_error, leave_one_out_bootstrap,
                                              no_information_rate)


def test_leave_one_out_bootstrap_averages_each_row_then_the_rows():
    # Row 0 out of bag in three replicates, wrong once: 1/3; row 1 twice, wrong twice: 1;
    # row 2 once, right: 0; row 3 never out of bag, left out. Err(1) = (1/3 + 1 + 0) / 3 = 4/9,
    # not the share of wrong out-of-bag predictions, 3/6.
    err1, rows = leave_one_out_bootstrap([0, 1, 0, 2, 0, 1], [1, 1, 0, 0, 0, 1])
    assert err1 == pytest.approx(4 / 9, abs=1e-15) and rows == 3


def test_no_information_rate_of_a_three_class_confusion_matrix():
    # p = (4, 4, 2) / 10 (row sums), q = (5, 3, 2) / 10 (column sums):
    # gamma = .4 x .5 + .4 x .7 + .2 x .8 = .64.
    confusion = [[3, 1, 0], [2, 2, 0], [0, 0, 2]]
    assert no_information_rate(confusion) == pytest.approx(0.64, abs=1e-15)


def test_632_and_632plus_in_the_usual_case():
    # err = .1, Err(1) = .3, gamma = .5: Err(.632) = .0368 + .1896 = .2264; R' = .2 / .4 = .5;
    # w = .632 / (1 - .184) = .632 / .816; Err(.632+) = .1 + w .2 = .1 + .1264 / .816.
    r = bootstrap_error(0.3, 0.1, 0.5)
    assert r.point632 == pytest.approx(0.2264, abs=1e-15)
    assert r.overfitting == pytest.approx(0.5, abs=1e-15)
    assert r.point632plus == pytest.approx(0.1 + 0.1264 / 0.816, abs=1e-15)
    assert (r.oob, r.apparent, r.no_information) == (0.3, 0.1, 0.5)


def test_no_overfitting_gives_the_632_estimate():
    # Err(1) <= err: R' = 0 and the .632+ estimate is the .632 one (.368 x .2 + .632 x .15).
    r = bootstrap_error(0.15, 0.2, 0.5)
    assert r.overfitting == 0.0
    assert r.point632plus == r.point632 == pytest.approx(0.0736 + 0.0948, abs=1e-15)


def test_worse_than_no_information_is_clipped_to_total_overfitting():
    # Err(1) = .6 > gamma = .5 > err = .1: Err(1)' = .5, R' = 1, w = .632 / .632 = 1:
    # Err(.632+) = Err(.632) + (.5 - .1) x .368 = .632 x .6 + .368 x .5.
    r = bootstrap_error(0.6, 0.1, 0.5)
    assert r.overfitting == 1.0
    assert r.point632plus == pytest.approx(0.632 * 0.6 + 0.368 * 0.5, abs=1e-15)


def test_no_information_at_or_below_the_apparent_error_means_no_overfitting():
    # gamma <= err: Err(1)' = min(Err(1), gamma) <= err, so R' = 0 (no division by zero).
    r = bootstrap_error(0.4, 0.3, 0.3)
    assert r.overfitting == 0.0 and r.point632plus == r.point632


def test_without_the_apparent_error_only_err1_is_a_number():
    r = bootstrap_error(0.25)
    assert r.oob == 0.25
    assert all(v != v for v in r[1:])  # NaN


@pytest.mark.parametrize("call", [lambda: leave_one_out_bootstrap([], []),
                                  lambda: leave_one_out_bootstrap([0, 1], [1]),
                                  lambda: no_information_rate([[0, 0], [0, 0]]),
                                  lambda: no_information_rate([[1, 2, 3]])])
def test_unusable_inputs_are_stats_errors(call):
    with pytest.raises(StatsError):
        call()
