"""ROC, precision-recall and reliability curves equal scikit-learn's; the expected calibration
error equals a hand-computed example."""
import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve as sk_calibration_curve

from bayesbench.evaluation import curves
from bayesbench.evaluation.metrics import binary_auc


def _case(seed, n, ties):
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.4
    score = np.clip(positive * 0.3 + rng.random(n) * 0.7, 0, 1)
    return positive, (score.round(1) if ties else score)


@pytest.mark.parametrize("seed,n,ties", [(0, 30, False), (1, 200, True), (2, 1000, True)])
def test_roc_and_precision_recall_equal_scikit_learn(seed, n, ties):
    positive, score = _case(seed, n, ties)
    fpr, tpr, _ = skm.roc_curve(positive, score, drop_intermediate=False)
    ours = curves.roc_curve(positive, score)
    np.testing.assert_allclose(ours[0], fpr, atol=1e-15)
    np.testing.assert_allclose(ours[1], tpr, atol=1e-15)
    assert binary_auc(positive, score) == pytest.approx(skm.roc_auc_score(positive, score),
                                                        abs=1e-14)
    precision, recall, _ = skm.precision_recall_curve(positive, score)
    ours = curves.precision_recall_curve(positive, score)
    np.testing.assert_allclose(ours[0], precision, atol=1e-15)
    np.testing.assert_allclose(ours[1], recall, atol=1e-15)
    assert curves.average_precision(positive, score) == pytest.approx(
        skm.average_precision_score(positive, score), abs=1e-14)


@pytest.mark.parametrize("bins", [5, 10, 15])
def test_calibration_curve_equals_scikit_learn(bins):
    rng = np.random.default_rng(bins)
    proba = rng.dirichlet(np.ones(3), 500)
    y = np.array([rng.choice(3, p=p) for p in proba])
    correct, confidence = curves.top_label(y, proba)
    expected = sk_calibration_curve(correct, confidence, n_bins=bins)
    ours = curves.calibration(correct, confidence, bins)
    np.testing.assert_allclose(ours[0], expected[0], atol=1e-15)
    np.testing.assert_allclose(ours[1], expected[1], atol=1e-15)


def test_expected_calibration_error_by_hand():
    # Bins of width 0.1: 0.05 -> [0, .1), 0.15 -> [.1, .2), two rows at 0.95 -> [.9, 1].
    # ECE = 1/4 |0 - .05| + 1/4 |0 - .15| + 2/4 |.5 - .95| = .0125 + .0375 + .225 = .275.
    ece = curves.calibration([0, 0, 1, 0], [0.05, 0.15, 0.95, 0.95], 10)[2]
    assert ece == pytest.approx(0.275, abs=1e-15)


def test_thinned_keeps_the_ends_and_at_most_the_points():
    x = np.linspace(0, 1, 10_001)
    tx, ty = curves.thinned(x, x ** 2, 100)
    assert tx.size <= 100 and tx[0] == 0 and tx[-1] == 1 and np.all(ty == tx ** 2)


@pytest.mark.parametrize("seed,n,ties", [(0, 30, False), (1, 200, True)])
def test_both_curves_from_one_sort_equal_scikit_learn(seed, n, ties):
    positive, score = _case(seed, n, ties)
    (fpr, tpr), auc, (precision, recall), ap = curves.both_curves(positive, score)
    np.testing.assert_allclose(fpr, skm.roc_curve(positive, score, drop_intermediate=False)[0])
    np.testing.assert_allclose(recall, skm.precision_recall_curve(positive, score)[1])
    assert auc == pytest.approx(skm.roc_auc_score(positive, score), abs=1e-14)
    assert ap == pytest.approx(skm.average_precision_score(positive, score), abs=1e-14)


def test_curves_of_scores_at_the_ends_and_one_bit_apart_equal_scikit_learn():
    # The curves sort each score packed with its label in one integer: 0.0 and -0.0 must be
    # one score, 1.0 the highest, and two scores one bit apart two scores.
    rng = np.random.default_rng(3)
    base = np.array([0.0, -0.0, 1.0, 0.5, np.nextafter(0.5, 1), np.nextafter(0.5, 0), 5e-324])
    score = rng.choice(base, 400)
    positive = rng.random(400) < 0.5
    (fpr, tpr), auc, (precision, recall), ap = curves.both_curves(positive, score)
    expected_fpr, expected_tpr, _ = skm.roc_curve(positive, score, drop_intermediate=False)
    np.testing.assert_array_equal(fpr, expected_fpr)
    np.testing.assert_array_equal(tpr, expected_tpr)
    expected_precision, expected_recall, _ = skm.precision_recall_curve(positive, score)
    np.testing.assert_array_equal(precision, expected_precision)
    np.testing.assert_array_equal(recall, expected_recall)
    assert auc == pytest.approx(skm.roc_auc_score(positive, score), abs=1e-14)
    assert ap == pytest.approx(skm.average_precision_score(positive, score), abs=1e-14)


@pytest.mark.parametrize("bad", [-0.1, np.nan])
def test_curves_refuse_a_negative_or_missing_score(bad):
    with pytest.raises(ValueError, match="non-negative"):
        curves.roc_curve([True, False, True], [0.2, bad, 0.9])


@pytest.mark.parametrize("n_classes", [2, 3, 4, 7])
def test_top_label_is_the_first_most_probable_class(n_classes):
    # Probabilities of a few values, so that rows hold ties: the first class of the largest
    # probability is the predicted one, as numpy's argmax picks it.
    rng = np.random.default_rng(n_classes)
    proba = rng.integers(0, 4, (3000, n_classes)) / 4.0
    y = rng.integers(0, n_classes, 3000)
    correct, confidence = curves.top_label(y, proba)
    np.testing.assert_array_equal(correct, np.argmax(proba, axis=1) == y)
    np.testing.assert_array_equal(confidence, np.max(proba, axis=1))
