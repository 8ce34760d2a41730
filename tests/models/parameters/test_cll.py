"""``estimator: cll`` (WANBIA-C, ALR) against scikit-learn's unregularised multinomial
``LogisticRegression`` on the one-hot coding of each node's family, against the objective
written out with dense matrices, and against the generative parameters it starts from."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.models.core.sufficient import Statistics, fits_from_statistics
from bayesbench.models.parameters.cll import ConditionalLikelihood
from helpers import random_codes
from logistic_reference import family_onehot

LEARNERS = {"nb": {}, "tan": {}, "kdb": {"k": 2}}
TIGHT = {"tol": 1e-8, "max_iter": 5000}


def noisy_data(seed, n, cards, k=3, missing=0.0):
    """The class depends on pairs of attributes, half of the labels drawn at random."""
    rng = np.random.default_rng(seed)
    X = random_codes(rng, n, cards)
    y = (X[:, 0] + X[:, 1] * X[:, 2]) % k
    y = np.where(rng.random(n) < 0.5, rng.integers(0, k, n), y)
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X, y, list(cards), k


def seen_with_every_class(onehot, y, k):
    """Whether every column of ``onehot`` is set in rows of every class: then no cell
    separates a class from the others, and the unregularised optimum is finite."""
    counts = np.vstack([np.asarray(onehot[y == c].sum(axis=0)) for c in range(k)])
    return bool((counts > 0).all())


@pytest.fixture(scope="module")
def fitted():
    """Each learner's cll model and scikit-learn's logistic regression on its families."""
    X, y, cards, k = noisy_data(0, 2000, [2, 2, 3, 2])
    Xt, _, _, _ = noisy_data(1, 400, [2, 2, 3, 2])
    out = {}
    for name, params in LEARNERS.items():
        model = make_classifier(name, estimator="cll", **params, **TIGHT).fit(
            X, y, cardinalities=cards)
        onehot = family_onehot(model.structure_, X, cards)
        assert seen_with_every_class(onehot, y, k), name
        lr = LogisticRegression(C=np.inf, tol=1e-8, max_iter=10000).fit(onehot, y)
        out[name] = model, lr, X, y, Xt, cards
    return out


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_cll_is_logistic_regression_on_the_one_hot_families(fitted, name):
    model, lr, X, y, Xt, cards = fitted[name]
    assert model.discriminative_.converged
    if name != "nb":
        assert any(node.parents for node in model.structure_.nodes)
    # On training and held-out rows; 1e-3 is asked for, 1.3e-7 measured (both at tol 1e-8).
    for rows in (X, Xt):
        want = lr.predict_proba(family_onehot(model.structure_, rows, cards))
        np.testing.assert_allclose(model.predict_proba(rows), want, rtol=0, atol=1e-6)


def test_nb_cll_is_multinomial_logistic_regression_on_one_hot_attributes():
    # scikit-learn's own one-hot coding of the attributes, the same problem as WANBIA-C's.
    from sklearn.preprocessing import OneHotEncoder

    X, y, cards, k = noisy_data(2, 1500, [4, 3, 3, 2])
    model = make_classifier("nb", estimator="cll", l2=0.0, **TIGHT).fit(X, y)
    onehot = OneHotEncoder(categories=[list(range(c)) for c in cards]).fit(X)
    assert seen_with_every_class(onehot.transform(X), y, k)
    lr = LogisticRegression(C=np.inf, tol=1e-8, max_iter=10000).fit(onehot.transform(X), y)
    np.testing.assert_allclose(model.predict_proba(X), lr.predict_proba(onehot.transform(X)),
                               rtol=0, atol=1e-3)


def dense_objective(model, X, y, l2):
    """``f(w)`` and its gradient written out with dense matrices: ``A`` the one-hot families
    (and a column of ones for the prior), ``L`` their generative log-probabilities per class."""
    structure, cards = model.structure_, model.cardinalities_
    A = np.hstack([np.ones((X.shape[0], 1)), family_onehot(structure, X, cards).toarray()])
    L = np.hstack([model.discriminative_.log_prior[:, None]
                   / model.discriminative_.prior_weights[:, None]]
                  + [(t / w).reshape(t.shape[0], -1) for t, w in
                     zip(model.discriminative_.tables, model.discriminative_.weights)])
    Y = np.eye(L.shape[0])[y]

    def f(w):
        W = w.reshape(L.shape)
        S = A @ (W * L).T
        S -= S.max(axis=1, keepdims=True)
        P = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
        value = -np.sum(np.log(P[np.arange(y.size), y])) + l2 / 2 * w @ w
        return value, ((P - Y).T @ A * L).ravel() + l2 * w
    return f


@pytest.mark.parametrize("l2", [0.0, 0.5])
def test_the_optimum_zeroes_the_written_out_gradient(l2):
    X, y, cards, k = noisy_data(3, 600, [3, 2, 3])
    model = make_classifier("tan", estimator="cll", l2=l2, **TIGHT).fit(X, y)
    found = model.discriminative_
    w = np.hstack([found.prior_weights[:, None]]
                  + [t.reshape(t.shape[0], -1) for t in found.weights]).ravel()
    value, gradient = dense_objective(model, X, y, l2)(w)
    # L-BFGS stops at tol 1e-8 on the gradient (or on a relative step below 1e-14).
    assert np.max(np.abs(gradient)) / y.size < 1e-7
    cll = model.conditional_log_likelihood(X, y)
    assert value == pytest.approx(-cll + l2 / 2 * w @ w, rel=1e-12)
    assert found.final_cll == pytest.approx(cll, rel=1e-12)


def test_the_gradient_is_the_objectives_derivative():
    # Away from the optimum, at weights drawn at random: central differences of f / N.
    from bayesbench.models.parameters.cll import _Objective, node_cells

    X, y, cards, k = noisy_data(4, 300, [3, 2, 3], missing=0.05)
    model = make_classifier("kdb", k=2).fit(X, y, cardinalities=cards)
    objective = _Objective(model.tables_, model.class_log_prior_,
                           node_cells(model.structure_, model.tables_, X), y, 0.3)
    rng = np.random.default_rng(5)
    w = rng.uniform(0.2, 2.0, int(objective.ends[-1]))
    _, gradient = objective(w)
    step = 1e-6
    numeric = np.array([(objective(w + step * e)[0] - objective(w - step * e)[0]) / (2 * step)
                        for e in np.eye(w.size)])
    np.testing.assert_allclose(gradient, numeric, rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("dataset", ["car", "vote", "breast-cancer", "tic-tac-toe"])
def test_cll_is_never_below_the_generative_parameters(dataset):
    data = load_dataset(dataset)
    X, y, cards = data.codes(), data.y, list(data.cardinalities)
    for name, params in LEARNERS.items():
        generative = make_classifier(name, **params).fit(X, y, cardinalities=cards)
        model = make_classifier(name, estimator="cll", **params).fit(X, y, cardinalities=cards)
        before = generative.conditional_log_likelihood(X, y)
        assert model.discriminative_.initial_cll == pytest.approx(before, rel=1e-12)
        assert model.conditional_log_likelihood(X, y) >= before, (dataset, name)


def test_fits_are_deterministic():
    X, y, cards, k = noisy_data(6, 500, [3, 2, 3, 3])
    a = make_classifier("kdb", k=2, estimator="cll").fit(X, y).predict_proba(X)
    b = make_classifier("kdb", k=2, estimator="cll").fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)


def test_a_value_unseen_in_training_is_left_out():
    X, y, cards, k = noisy_data(7, 400, [3, 2, 3])
    model = make_classifier("nb", estimator="cll").fit(X, y, cardinalities=cards)
    row = np.array([[1, 0, 2]])
    unseen, missing = row.copy(), row.copy()
    unseen[0, 2], missing[0, 2] = 7, -1
    np.testing.assert_array_equal(model.predict_proba(unseen), model.predict_proba(missing))


def test_bad_settings_are_refused_naming_the_parameter():
    X, y = np.array([[0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1])
    for name in LEARNERS:
        with pytest.raises(ClassifierError, match="parameter 'l2' must be a number >= 0") as err:
            make_classifier(name, estimator="cll", l2=-1.0)
        assert err.value.parameter == "l2"
        for key, value in (("max_iter", 0), ("tol", 0.0)):
            with pytest.raises(ClassifierError) as err:
                make_classifier(name, estimator="cll", **{key: value})
            assert err.value.parameter == key and "\n" not in str(err.value)
        with pytest.raises(ClassifierError, match="'weights' must be None with") as err:
            make_classifier(name, estimator="cll", weights="wanbia")
        assert err.value.parameter == "weights"
        with pytest.raises(ClassifierError, match="'alpha' must be > 0 with") as err:
            make_classifier(name, estimator="cll", alpha=0.0)
        assert err.value.parameter == "alpha"
        with pytest.raises(ClassifierError, match="'missing' must be 'skip' with") as err:
            make_classifier(name, estimator="cll", missing="exact")
        assert err.value.parameter == "missing"
        # And again at fit, for a model whose parameters were set afterwards.
        model = make_classifier(name, estimator="cll").set_params(alpha=0.0)
        with pytest.raises(ClassifierError, match="'alpha' must be > 0 with"):
            model.fit(X, y)
    # The estimator's settings are read by it alone: with laplace they change nothing.
    plain = make_classifier("nb").fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(make_classifier("nb", l2=3.0, tol=0.5).fit(X, y)
                                  .predict_proba(X), plain)


def test_a_cll_model_needs_its_rows_and_is_no_network():
    X, y, cards, k = noisy_data(8, 200, [3, 2, 3])
    model = make_classifier("tan", estimator="cll")
    assert not fits_from_statistics(model)
    with pytest.raises(ClassifierError, match="estimator='cll' learns its weights from the rows"):
        model.fit_statistics(Statistics.from_codes(X, y, cards, k))
    model.fit(X, y)
    with pytest.raises(ClassifierError, match="no Bayesian network"):
        model.bayesian_network()
    with pytest.raises(ClassifierError, match="undefined with estimator='cll'"):
        model.log_likelihood(X, y)
    scores = model.model_scores(X, y)
    assert scores.log_likelihood is None and scores.aic is None
    assert scores.conditional_log_likelihood == pytest.approx(model.discriminative_.final_cll)


def test_without_attributes_the_weights_fit_the_class_prior():
    from bayesbench.models.core.structure import Structure

    y = np.array([0, 0, 0, 1])
    found = ConditionalLikelihood(tol=1e-12).refine(
        Structure.naive(0, cardinalities=()), [], np.log([0.7, 0.3]),
        np.zeros((4, 0), dtype=np.int64), y)
    # Logistic regression with an intercept alone: the class frequencies.
    prior = np.exp(found.log_prior - np.logaddexp.reduce(found.log_prior))
    np.testing.assert_allclose(prior, [0.75, 0.25], atol=1e-6)
