"""Tuning inside an outer training part agrees with scikit-learn's GridSearchCV on the same
inner folds, for a bayesbench learner and a scikit-learn one, in either metric direction."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, PredefinedSplit

from bayesbench import make_classifier
from bayesbench.data.fold_assignment import fold_rng, kfold_assignment
from bayesbench.errors import BayesbenchError
from bayesbench.evaluation.adapter import FitContext
from bayesbench.evaluation.tune import candidates, tune
from bayesbench.preprocess.transformers import MDLDiscretizer
from bayesbench.spec import TuneSpec
from helpers import Majority


@pytest.fixture(scope="module")
def iris_codes(uci_dir):
    from bayesbench.data import load_dataset

    ds = load_dataset(uci_dir / "iris.arff")
    X = MDLDiscretizer().fit_transform(ds.numeric_matrix(), ds.y).astype(int)
    return X, ds.y, ds.numeric_matrix()


def _grid_search(estimator, grid, X, y, folds, seed, scoring, **fit_params):
    assignment = kfold_assignment(y, folds, fold_rng(seed, "iris", 0), stratified=True)
    search = GridSearchCV(estimator, grid, cv=PredefinedSplit(assignment), scoring=scoring,
                          refit=False).fit(X, y, **fit_params)
    return search


def test_tan_alpha_is_chosen_as_grid_search_chooses_it(iris_codes):
    X, y, _ = iris_codes
    grid = {"alpha": [0.01, 0.5, 1.0, 20.0]}
    tuned = tune(lambda **c: make_classifier("tan", **c), TuneSpec(grid, 5, "accuracy"), X, y,
                 FitContext(3, cardinalities=[3, 3, 3, 3]), fold_rng(9, "iris", 0))
    search = _grid_search(make_classifier("tan"), grid, X, y, 5, 9, "accuracy",
                          cardinalities=[3, 3, 3, 3], n_classes=3)
    np.testing.assert_allclose(tuned.scores, search.cv_results_["mean_test_score"])
    assert tuned.params == search.best_params_


def test_a_scikit_learn_classifier_tuned_on_log_loss_lower_is_better(iris_codes):
    _, y, X = iris_codes
    grid = {"C": [0.001, 0.1, 10.0]}
    tuned = tune(lambda **c: LogisticRegression(max_iter=1000, **c), TuneSpec(grid, 3, "log_loss"),
                 X, y, FitContext(3), fold_rng(4, "iris", 0))
    search = _grid_search(LogisticRegression(max_iter=1000), grid, X, y, 3, 4, "neg_log_loss")
    np.testing.assert_allclose(tuned.scores, -search.cv_results_["mean_test_score"], rtol=1e-9)
    assert tuned.params == search.best_params_


def test_candidates_vary_the_last_parameter_fastest():
    assert candidates({"a": [1, 2], "b": ["x", "y"]}) == [
        {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]


def test_a_probability_metric_without_predict_proba_is_an_error(iris_codes):
    X, y, _ = iris_codes
    with pytest.raises(BayesbenchError, match="log_loss needs predict_proba"):
        tune(lambda **c: Majority(**c), TuneSpec({"shift": [0]}, 3, "log_loss"), X, y,
             FitContext(3), fold_rng(1, "iris", 0))
