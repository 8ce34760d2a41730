"""Cohen's kappa from a confusion matrix against scikit-learn's cohen_kappa_score on the labels."""
import doctest
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from bayesbench.errors import StatsError
from bayesbench.stats import agreement
from bayesbench.stats.agreement import KAPPA_WEIGHTS, cohen_kappa


@pytest.mark.parametrize("weights", KAPPA_WEIGHTS)
@pytest.mark.parametrize("n_classes", [2, 3, 7])
def test_kappa_matches_sklearn(weights, n_classes):
    rng = np.random.default_rng(n_classes)
    for trial in range(20):
        y_true = rng.integers(0, n_classes, 60)
        # Predictions right with probability 0.6, so kappa spreads around 0.5.
        y_pred = np.where(rng.random(60) < 0.6, y_true, rng.integers(0, n_classes, 60))
        labels = np.arange(n_classes)
        cm = confusion_matrix(y_true, y_pred, labels=labels)
        expected = cohen_kappa_score(y_true, y_pred, labels=labels, weights=weights)
        assert cohen_kappa(cm, weights=weights) == pytest.approx(expected, abs=1e-12)


def test_kappa_by_hand():
    # p_o = 0.7, p_e = (25 * 30 + 25 * 20) / 50^2 = 0.5: kappa = 0.2 / 0.5.
    assert cohen_kappa([[20, 5], [10, 15]]) == pytest.approx(0.4)
    assert cohen_kappa(np.diag([3, 4, 5])) == 1.0
    assert cohen_kappa([[0, 5], [5, 0]]) == pytest.approx(-1.0)


def test_kappa_undefined_is_nan_like_sklearn():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cohen_kappa_score([1], [1], labels=[0, 1])
    assert np.isnan(expected)
    assert np.isnan(cohen_kappa([[0, 0], [0, 1]]))


@pytest.mark.parametrize("confusion", [[[1, 2, 3]], [], [[1, -1], [0, 2]], [[0, 0], [0, 0]],
                                       [[1, np.nan], [0, 1]]])
def test_kappa_rejects_bad_matrices(confusion):
    with pytest.raises(StatsError):
        cohen_kappa(confusion)


def test_kappa_rejects_unknown_weights():
    with pytest.raises(StatsError, match="weights"):
        cohen_kappa([[1, 0], [0, 1]], weights="cubic")


def test_examples_run_as_doctests():
    result = doctest.testmod(agreement)
    assert result.attempted > 0 and result.failed == 0
