"""Properties every registered discrete learner must keep, on small random data with
missing values, absent classes, one-valued and all-missing attributes, unseen codes."""
import numpy as np
import pytest
from sklearn.base import clone

import bayesbench
from bayesbench.errors import ClassifierError, NotFittedError
from bayesbench.models.core.base import StructureLearner
from bayesbench.models.registry import classifier_class
from bayesbench.models.parameters.weighting import WEIGHTS

DISCRETE = [name for name in bayesbench.list_classifiers()
            if classifier_class(name).input_kind == "discrete"]


def cases():
    """(label, X_train, y, cardinalities, n_classes, X_test): one seeded data set each."""
    rng = np.random.default_rng(20261121)
    out = []
    for case in range(4):
        n, m, k = int(rng.integers(8, 40)), int(rng.integers(1, 6)), int(rng.integers(2, 5))
        cards = rng.integers(1, 5, m)
        X = np.column_stack([rng.integers(0, c, n) for c in cards])
        X[rng.random(X.shape) < 0.2] = -1
        y = rng.integers(0, k, n)
        if case == 1:
            y[y == k - 1] = 0                       # class k-1 absent from training
            X[:, 0] = -1                            # a column with nothing observed
        X_test = np.column_stack([rng.integers(-1, c + 2, 15) for c in cards])  # unseen codes
        out.append((f"case{case}", X, y, cards, k, X_test))
    out.append(("one row", np.array([[1, 0]]), np.array([1]), np.array([2, 1]), 3,
                np.array([[0, 0], [1, 0], [-1, -1], [5, 3]])))
    out.append(("no attributes", np.zeros((6, 0), dtype=np.int64), np.array([0, 1, 1, 0, 1, 1]),
                np.zeros(0, dtype=np.int64), 2, np.zeros((3, 0), dtype=np.int64)))
    return out


CASES = cases()


def params_for(name, alpha):
    cls = classifier_class(name)
    params = {}
    if "random_state" in cls._param_names():
        params["random_state"] = 0
    if "inner_folds" in cls._param_names():
        params["inner_folds"] = 2
    if alpha is not None and "alpha" in cls._param_names():
        params["alpha"] = alpha
    return params


@pytest.mark.parametrize("name", DISCRETE)
@pytest.mark.parametrize("alpha", [None, 0.5, 0.0])
def test_posteriors_are_distributions_and_predict_is_their_argmax(name, alpha):
    if alpha == 0.0 and name in ("fss", "bsej", "asb", "tan_hc", "tan_hcsp", "kdb_hc", "fssj",
                                 "nb_onehot"):
        # Documented: the wrappers refuse alpha = 0 (unseen inner-fold values would get
        # probability 0), and so does nb_onehot (paper 003's smoothing is over the one-hot
        # width), with an error naming alpha rather than a crash or a NaN.
        _, X, y, cards, k, _ = CASES[0]
        with pytest.raises(ClassifierError, match="alpha"):
            bayesbench.make_classifier(name, **params_for(name, alpha)).fit(
                X, y, cardinalities=cards, n_classes=k)
        return
    for label, X, y, cards, k, X_test in CASES:
        model = bayesbench.make_classifier(name, **params_for(name, alpha))
        assert model.fit(X, y, cardinalities=cards, n_classes=k) is model, label
        for Xp in (X, X_test):
            proba = model.predict_proba(Xp)
            assert proba.shape == (Xp.shape[0], k), label
            assert np.isfinite(proba).all(), label
            assert np.all(proba >= 0), label
            np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12, err_msg=label)
            np.testing.assert_allclose(np.exp(model.predict_log_proba(Xp)), proba,
                                       atol=1e-12, err_msg=label)
            assert np.array_equal(model.predict(Xp), model.classes_[np.argmax(proba, axis=1)]), \
                label
        twin = clone(model)
        assert twin.get_params() == model.get_params()
        assert not hasattr(twin, "classes_")
        twin.fit(X, y, cardinalities=cards, n_classes=k)
        np.testing.assert_allclose(twin.predict_proba(X_test),
                                   model.predict_proba(X_test), atol=1e-12, err_msg=label)


WEIGHTED = [n for n in DISCRETE if "weights" in classifier_class(n)._param_names()]


@pytest.mark.parametrize("name", WEIGHTED)
@pytest.mark.parametrize("weights", WEIGHTS)
def test_weighted_posteriors_are_distributions(name, weights):
    for label, X, y, cards, k, X_test in CASES:
        model = bayesbench.make_classifier(name, weights=weights, **params_for(name, 0.5))
        model.fit(X, y, cardinalities=cards, n_classes=k)
        for Xp in (X, X_test):
            proba = model.predict_proba(Xp)
            assert proba.shape == (Xp.shape[0], k) and np.isfinite(proba).all(), label
            np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12, err_msg=label)
        assert np.isfinite(model.conditional_log_likelihood(X, y)), label


@pytest.mark.parametrize("name", DISCRETE)
def test_refit_forgets_the_previous_data(name):
    rng = np.random.default_rng(3)
    X1, y1 = rng.integers(0, 3, (30, 4)), rng.integers(0, 3, 30)
    X2, y2 = rng.integers(0, 2, (25, 2)), rng.integers(0, 2, 25)
    model = bayesbench.make_classifier(name, **params_for(name, None))
    model.fit(X1, y1, cardinalities=[3] * 4, n_classes=3)
    model.fit(X2, y2, cardinalities=[2, 2], n_classes=2)
    fresh = bayesbench.make_classifier(name, **params_for(name, None))
    fresh.fit(X2, y2, cardinalities=[2, 2], n_classes=2)
    assert model.n_features_in_ == 2 and list(model.classes_) == [0, 1]
    np.testing.assert_array_equal(model.predict_proba(X2), fresh.predict_proba(X2))


@pytest.mark.parametrize("name", bayesbench.list_classifiers())
def test_a_failed_refit_leaves_the_model_unfitted_not_half_updated(name):
    rng = np.random.default_rng(8)
    model = bayesbench.make_classifier(name)
    discrete = model.input_kind == "discrete"
    X = rng.integers(0, 3, (30, 2)) if discrete else rng.normal(size=(30, 2))
    model.fit(X, rng.integers(0, 3, 30))
    with pytest.raises(ClassifierError):
        # Two classes now, and data the learner refuses (a code past the cardinality;
        # constant attributes, which leave no variance; an infinite value, which no kernel
        # estimate takes).
        if discrete:
            model.fit(X, rng.integers(0, 2, 30), cardinalities=[1, 1], n_classes=2)
        elif model.input_kind == "mixed":
            model.fit(np.full((30, 2), np.inf), rng.integers(0, 2, 30))
        else:
            model.fit(np.ones((30, 2)), rng.integers(0, 2, 30))
    # GaussianNB used to keep the new classes with zero variances (NaN scores, shown as a
    # uniform posterior), FullBayes the new classes with the old covariances.
    with pytest.raises(NotFittedError):
        model.predict_proba(X)


def breast_cancer():
    from bayesbench.data import bundled_dir, load_dataset

    ds = load_dataset(bundled_dir() / "breast-cancer.arff")
    return ds.codes(), np.asarray(ds.class_names)[ds.y]


def test_cross_val_score_of_tan_is_the_accuracy_of_each_fold_fit():
    from sklearn.metrics import accuracy_score
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    X, y = breast_cancer()          # string labels and missing values (-1)
    scores = cross_val_score(bayesbench.make_classifier("tan"), X, y)
    expected = [accuracy_score(y[test], bayesbench.make_classifier("tan")
                               .fit(X[train], y[train]).predict(X[test]))
                for train, test in StratifiedKFold(5).split(X, y)]
    np.testing.assert_allclose(scores, expected, rtol=0, atol=1e-15)
    assert 0.6 < np.mean(scores) < 0.8   # breast-cancer's usual range (majority class 0.70)


def test_grid_search_picks_the_alpha_with_the_best_mean_accuracy_without_a_scoring():
    from sklearn.model_selection import GridSearchCV, cross_val_score

    X, y = breast_cancer()
    grid = [0.01, 1.0, 20.0]
    search = GridSearchCV(bayesbench.make_classifier("nb"), {"alpha": grid}).fit(X, y)
    means = [np.mean(cross_val_score(bayesbench.make_classifier("nb", alpha=a), X, y))
             for a in grid]
    assert search.best_params_ == {"alpha": grid[int(np.argmax(means))]}
    assert search.best_score_ == pytest.approx(max(means), abs=1e-15)


def test_score_is_the_weighted_accuracy():
    from sklearn.metrics import accuracy_score

    X, y = breast_cancer()
    model = bayesbench.make_classifier("nb").fit(X, y)
    weights = np.random.default_rng(0).random(len(y))
    assert model.score(X, y) == pytest.approx(accuracy_score(y, model.predict(X)), abs=1e-15)
    assert model.score(X, y, sample_weight=weights) == pytest.approx(
        accuracy_score(y, model.predict(X), sample_weight=weights), abs=1e-15)


@pytest.mark.parametrize("name", bayesbench.list_classifiers())
def test_tags_say_which_learners_take_categorical_input(name):
    from sklearn.base import is_classifier
    from sklearn.utils import get_tags

    model = bayesbench.make_classifier(name)
    discrete = name in DISCRETE
    missing = discrete or model.input_kind == "mixed"  # NaN a missing value (kernel_nb too)
    tags = get_tags(model)
    assert is_classifier(model) and tags.target_tags.required
    assert tags.input_tags.categorical is discrete
    assert tags.input_tags.allow_nan is missing
    assert tags.input_tags.positive_only is discrete
    old = model._more_tags()                        # scikit-learn before 1.6
    assert ("categorical" in old["X_types"]) is discrete and old["allow_nan"] is missing


@pytest.mark.parametrize("name", bayesbench.list_classifiers())
def test_every_structure_learner_draws_its_learned_network(name):
    import re

    label, X, y, cards, k, _ = CASES[0]
    model = bayesbench.make_classifier(name, **params_for(name, None))
    if not isinstance(model, StructureLearner):
        assert name not in DISCRETE and not hasattr(model, "to_dot")  # no graph to draw
        return
    with pytest.raises(NotFittedError):
        model.to_dot()
    if name in DISCRETE:
        model.fit(X, y, cardinalities=cards, n_classes=k)
    else:  # the Gaussian networks
        model.fit(np.random.default_rng(2).normal(size=(40, 4)), np.arange(40) % 2)
    dot = model.to_dot()
    assert dot.startswith(f'digraph "{type(model).__name__}" {{')
    arcs = re.findall(r'^  "([^"]+)" -> "([^"]+)";$', dot, flags=re.M)
    assert arcs == model.structure_.edges()
    drawn = set(re.findall(r'^  "([^"]+)" \[shape=(?:box|ellipse)\];$', dot, flags=re.M))
    assert drawn == {model.structure_.node_label(n) for n in model.structure_.nodes}


@pytest.mark.parametrize("name", bayesbench.list_classifiers())
def test_every_fit_takes_feature_names_and_the_runner_sees_it(name):
    import inspect

    from bayesbench.evaluation.adapter import fit_options
    clf = bayesbench.make_classifier(name)
    param = inspect.signature(clf.fit).parameters["feature_names"]
    assert param.kind is param.KEYWORD_ONLY and param.default is None
    assert fit_options(clf, feature_names=["a"]) == {
        **fit_options(clf), "feature_names": ["a"]}


def test_names_given_to_one_fit_reach_neither_a_failed_fit_nor_the_next():
    X, y = np.array([[0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1])
    clf = bayesbench.make_classifier("tan")
    with pytest.raises(ClassifierError):
        clf.fit(X, y, feature_names=["a", "b", "c"])
    assert not hasattr(clf, "classes_")
    assert not hasattr(bayesbench.make_classifier("nb").fit(X, y), "feature_names_in_")


@pytest.mark.parametrize("n_classes", range(1, 10))
def test_the_posterior_is_scipys_logsumexp_to_the_bit(n_classes):
    """Fewer than 8 classes are normalised a column at a time (bayesbench's own steps of
    scipy's logsumexp): the same numbers as scipy's, on rows of every kind."""
    from scipy.special import logsumexp

    from bayesbench.models.core.base import log_posterior

    rng = np.random.default_rng(n_classes)
    for trial in range(60):
        jll = rng.normal(0, 10 ** rng.uniform(-3, 3), (int(rng.integers(1, 200)), n_classes))
        if trial % 2:
            jll[rng.random(jll.shape) < 0.25] = -np.inf     # impossible classes
        if trial % 3 == 0:
            jll[rng.integers(0, jll.shape[0])] = -np.inf    # an impossible row
        if trial % 5 == 0:
            jll = np.round(jll)                            # ties for the largest
        if trial % 7 == 0:
            jll[rng.random(jll.shape) < 0.05] = np.inf
        if trial % 11 == 0:
            jll[rng.random(jll.shape) < 0.05] = np.nan
        if trial % 13 == 0:
            jll = jll * 1e300
        with np.errstate(all="ignore"):
            want = jll - logsumexp(jll, axis=1, keepdims=True)
            bad = ~np.isfinite(logsumexp(jll, axis=1))
            want[bad] = -np.log(n_classes)
            got = log_posterior(jll)
        assert got.tobytes() == want.tobytes()
