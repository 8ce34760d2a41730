"""The runner's side of the classifier contract: what fit is given, and predictions read
and aligned to the data set's classes whatever the learner saw."""
import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from bayesbench import make_classifier
from bayesbench.errors import ClassifierError
from bayesbench.evaluation.adapter import FitContext, fit_options, fit_predict
from bayesbench.evaluation.metrics import PROBABILITY_METRICS, evaluate
from helpers import Majority, Unseen


def _data(seed=0, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = y[:, None] + rng.normal(0, 0.7, (n, 2))
    return X, y


def test_fit_is_given_cardinalities_and_n_classes_only_when_it_names_them():
    assert fit_options(make_classifier("nb"), cardinalities=[2, 3], n_classes=4) == {
        "cardinalities": [2, 3], "n_classes": 4}
    assert fit_options(LogisticRegression(), cardinalities=[2, 3], n_classes=4) == {}

    class OnlyClasses:
        def fit(self, X, y, *, n_classes=None):
            return self

    assert fit_options(OnlyClasses(), cardinalities=[2], n_classes=4) == {"n_classes": 4}
    assert fit_options(make_classifier("gnb"), n_classes=3) == {"n_classes": 3}
    # Names go only to a fit that names them: scikit-learn's learn them from a DataFrame.
    assert fit_options(LogisticRegression(), feature_names=["a", "b"]) == {}
    assert fit_options(OnlyClasses(), feature_names=["a"]) == {}


def test_bayesbench_learners_fitted_on_named_codes_equal_a_dataframe_fit():
    import pandas as pd
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, (90, 3)).astype(np.int8, order="F")
    y = (X[:, 0] == X[:, 2]).astype(int)
    names = ["a", "b", "c"]
    frame = pd.DataFrame(X, columns=names)
    for name in ("nb", "tan"):
        named = make_classifier(name)
        out = fit_predict(named, X[:60], y[:60], X[60:],
                          FitContext(2, cardinalities=[3, 3, 3], feature_names=names))
        reference = make_classifier(name).fit(frame[:60], y[:60], cardinalities=[3, 3, 3],
                                              n_classes=2)
        np.testing.assert_array_equal(out.proba, reference.predict_proba(frame[60:]))
        assert list(named.feature_names_in_) == names
        assert named.structure_.summary() == reference.structure_.summary()


def test_a_class_absent_from_training_gets_a_zero_column():
    X, y = _data()
    train = y != 1  # class 1 never seen in training
    out = fit_predict(LogisticRegression(), X[train], y[train], X, FitContext(3))
    reference = LogisticRegression().fit(X[train], y[train])
    assert out.proba.shape == (60, 3)
    np.testing.assert_array_equal(out.proba[:, 1], 0.0)
    np.testing.assert_allclose(out.proba[:, [0, 2]], reference.predict_proba(X))
    np.testing.assert_array_equal(out.labels, reference.predict(X))
    # Metrics stay aligned: the confusion matrix has a row for class 1, never predicted.
    cm = evaluate(y, out.labels, out.proba, 3)["confusion"]
    assert cm[1].sum() == (y == 1).sum() and cm[:, 1].sum() == 0


def test_bayesbench_learners_predict_the_most_probable_class():
    X, y = _data(1)
    codes = (X > 1).astype(int)
    out = fit_predict(make_classifier("nb"), codes, y, codes,
                      FitContext(3, cardinalities=[2, 2]))
    np.testing.assert_array_equal(out.labels, out.proba.argmax(axis=1))
    np.testing.assert_array_equal(
        out.labels, make_classifier("nb").fit(codes, y, cardinalities=[2, 2],
                                              n_classes=3).predict(codes))


def test_without_predict_proba_probability_metrics_are_not_computed():
    X, y = _data(2)
    out = fit_predict(Majority(), X, y, X, FitContext(3))
    assert out.proba is None
    np.testing.assert_array_equal(out.labels, np.bincount(y).argmax())
    metrics = evaluate(y, out.labels, out.proba, 3)["metrics"]
    assert all(np.isnan(metrics[m]) for m in PROBABILITY_METRICS)
    assert metrics["accuracy"] == pytest.approx(np.mean(y == np.bincount(y).argmax()))


def test_labels_never_seen_in_training_are_refused_in_one_line():
    X, y = _data(3)
    with pytest.raises(ClassifierError, match=r"predict returned labels not seen in training: "
                                              r"\d+ \(the training part's classes are 0, 1, 2\)"):
        fit_predict(Unseen(), X, y, X, FitContext(3))


def test_warnings_are_kept_once_each_not_printed():
    X, y = _data(4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning escaping the adapter fails the test
        out = fit_predict(LogisticRegression(max_iter=1), X, y, X, FitContext(3))
    assert len(out.warnings) == 1 and out.warnings[0].startswith("ConvergenceWarning: ")
