"""Kohavi and Wolpert's decomposition as Weka 3.6's BVDecompose estimates it, against a
tiny example computed by hand from the formulas in docs/statistics.md."""
import math

import pytest

from bayesbench.errors import StatsError
from bayesbench.stats.bias_variance import kohavi_wolpert


# Three test rows, two classes, four training sets. Counts of each predicted class:
#   row A, true 0: [4, 0]  P = (1, 0)      bias terms 0,                    variance 1 - 1 = 0
#   row B, true 0: [2, 2]  P = (1/2, 1/2)  2 * (1/4 - (1/4)/3) = 1/3,       variance 1 - 1/2 = 1/2
#   row C, true 1: [3, 1]  P = (3/4, 1/4)  2 * (9/16 - (3/16)/3) = 1,       variance 1 - 10/16 = 3/8
# bias² = (0 + 1/3 + 1) / (2 * 3) = 2/9; variance = (0 + 1/2 + 3/8) / 6 = 7/48;
# error = (0 + 2 + 3) wrong of 12 = 5/12; sigma² = 0 (one label per row).
TRUE = [0, 0, 1]
COUNTS = [[4, 0], [2, 2], [3, 1]]


def test_hand_computed_example():
    out = kohavi_wolpert(TRUE, COUNTS)
    assert out.bias == pytest.approx(2 / 9, abs=1e-15)
    assert out.variance == pytest.approx(7 / 48, abs=1e-15)
    assert out.error == pytest.approx(5 / 12, abs=1e-15)
    assert out.sigma == 0.0


def test_error_is_bias_plus_variance_plus_the_correction():
    # Uncorrected, bias² + variance is the error exactly when sigma² is zero (Kohavi and
    # Wolpert 1996); Weka's estimate of bias² subtracts sum_c P(1-P)/(N-1), halved and
    # averaged: (0 + (1/4 + 1/4)/3 + (3/16 + 3/16)/3) / 6 = 7/144.
    out = kohavi_wolpert(TRUE, COUNTS)
    assert out.bias + out.variance + 7 / 144 == pytest.approx(out.error, abs=1e-15)


def test_a_stable_classifier_has_no_variance():
    out = kohavi_wolpert([0, 1, 2], [[5, 0, 0], [5, 0, 0], [0, 0, 5]])
    assert out.variance == 0.0
    assert out.error == pytest.approx(1 / 3)
    assert out.bias == pytest.approx(1 / 3)  # row 2: (1 + 1) / 2, averaged over 3 rows


@pytest.mark.parametrize("counts", [[[4, 0], [2, 1], [3, 1]], [[1, 0], [0, 1], [1, 0]]])
def test_rows_classified_unequally_or_once_are_refused(counts):
    with pytest.raises(StatsError):
        kohavi_wolpert(TRUE, counts)


def test_no_nan():
    out = kohavi_wolpert([1], [[0, 2]])
    assert all(math.isfinite(v) for v in out)
