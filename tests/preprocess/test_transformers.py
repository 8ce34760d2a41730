"""The discretizers as scikit-learn transformers: Weka's MDL cut points on arrays and
DataFrames, inside pipelines and cross_val_score, and scikit-learn's estimator checks."""
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.errors import NotFittedError, PreprocessError
from bayesbench.preprocess.discretize import CUT_METHODS
from bayesbench.preprocess.transformers import (TRANSFORMERS, EqualWidthDiscretizer,
                                                MDLDiscretizer)
from helpers import run_estimator_check


@pytest.fixture(scope="module")
def iris(uci_dir):
    ds = load_dataset(uci_dir / "iris.arff")
    return ds.numeric_matrix(), np.asarray(ds.class_names)[ds.y], ds.attribute_names


def test_one_transformer_per_discretization_method():
    assert sorted(TRANSFORMERS) == sorted(CUT_METHODS)


def test_mdl_cut_points_of_an_array_and_a_frame_are_wekas(iris, reference_dir):
    X, y, names = iris
    expected = json.loads((reference_dir / "weka_mdl_cuts.json").read_text())["cuts"]["iris"]
    from_array = MDLDiscretizer().fit(X, y)
    from_frame = MDLDiscretizer().fit(pd.DataFrame(X, columns=names), y)
    for fitted in (from_array, from_frame):
        for cuts, name in zip(fitted.cuts_, names):
            np.testing.assert_allclose(cuts, expected[name], rtol=0, atol=1e-9)
    # Right-closed bins: a value equal to a cut point falls into the lower bin.
    codes = from_array.transform(np.array([[4.3, 2.0, 2.45, 0.1], [8.0, 4.4, 2.46, 2.5]]))
    assert codes.dtype == np.float64
    np.testing.assert_array_equal(codes[:, 2], [0, 1])


def test_a_frame_gets_categorical_columns_with_wekas_labels_and_keeps_the_others(iris):
    X, y, names = iris
    frame = pd.DataFrame(X, columns=names).assign(
        colour=pd.Categorical(np.where(X[:, 0] > 5.8, "red", "blue")))
    frame.iloc[3, 2] = np.nan
    out = MDLDiscretizer().fit(frame, y).transform(frame)
    assert list(out.columns) == names + ["colour"]
    assert list(out["petallength"].cat.categories) == ["(-inf-2.45]", "(2.45-4.75]",
                                                        "(4.75-inf)"]
    assert out["petallength"].isna().tolist() == frame["petallength"].isna().tolist()
    pd.testing.assert_series_equal(out["colour"], frame["colour"])
    assert list(MDLDiscretizer().fit(frame, y).get_feature_names_out()) == names + ["colour"]


def test_mdl_and_tan_in_cross_val_score_and_grid_search(iris):
    X, y, names = iris
    pipeline = make_pipeline(MDLDiscretizer(), make_classifier("tan"))
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    scores = cross_val_score(pipeline, X, y, cv=folds)
    # The same folds by hand: cut points fitted on each training part only.
    by_hand = []
    for train, test in folds.split(X, y):
        disc = MDLDiscretizer().fit(X[train], y[train])
        model = make_classifier("tan").fit(disc.transform(X[train]), y[train])
        by_hand.append(np.mean(model.predict(disc.transform(X[test])) == y[test]))
    np.testing.assert_allclose(scores, by_hand)
    assert scores.mean() > 0.9
    frame_scores = cross_val_score(pipeline, pd.DataFrame(X, columns=names), y, cv=folds)
    np.testing.assert_allclose(frame_scores, scores)
    search = GridSearchCV(make_pipeline(EqualWidthDiscretizer(), make_classifier("nb")),
                          {"equalwidthdiscretizer__bins": [2, 5]}, cv=3).fit(X, y)
    assert search.best_params_["equalwidthdiscretizer__bins"] in (2, 5)


def test_mistakes_are_one_line_value_errors(iris):
    X, y, _ = iris
    with pytest.raises(PreprocessError, match="requires y to be passed"):
        MDLDiscretizer().fit(X)
    with pytest.raises(PreprocessError, match="parameter 'bins' must be an integer >= 1"):
        EqualWidthDiscretizer(bins=0).fit(X)
    with pytest.raises(PreprocessError, match="has no parameter 'k'"):
        EqualWidthDiscretizer().set_params(k=3)
    with pytest.raises(NotFittedError):
        MDLDiscretizer().transform(X)
    with pytest.raises(PreprocessError, match="X has 3 features, but MDLDiscretizer is "
                                              "expecting 4"):
        MDLDiscretizer().fit(X, y).transform(X[:, :3])


# One check fails, for the reason the classifiers give (tests/models/test_sklearn_checks.py).
EXPECTED_FAILURES = {
    "check_dtype_object":
        "a non-numeric object in X (a dict) is bayesbench's one-line PreprocessError, a "
        "ValueError, not numpy's TypeError",
}


@parametrize_with_checks([cls() for cls in TRANSFORMERS.values()])
def test_scikit_learn_estimator_check(estimator, check):
    run_estimator_check(check, estimator,
                        EXPECTED_FAILURES.get(getattr(check, "func", check).__name__))
