"""Gaussian TAN and kDB (conditional linear Gaussian networks) against known true models.

References: data drawn from a known conditional Gaussian tree and a known 2-dependence
network (their Bayes rate by Monte Carlo on a seeded test set of 200 000 rows, each row's
exact posterior computed from the true model with scipy.stats.norm); least-squares
regressions by numpy, densities by scipy.stats.multivariate_normal and norm; scikit-learn's
GaussianNB and our QDA-tested FullBayes at the two ends of k.
"""
import doctest

import numpy as np
import pytest
from scipy.stats import multivariate_normal, norm
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from bayesbench.errors import ClassifierError
from bayesbench.models.learners import gaussian_network
from bayesbench.models.learners.gaussian import FullBayes, GaussianNB
from bayesbench.models.learners.gaussian_network import GaussianKDB, GaussianTAN


def true_model(parents, theta, coefficients, variances, prior):
    """``(prior, theta, B, v, parents)`` of a two-class conditional linear Gaussian network."""
    theta = np.array(theta, dtype=float)
    B = np.zeros((2, theta.shape[1], theta.shape[1]))
    for c, coef in enumerate(coefficients):
        for (i, j), b in coef.items():
            B[c, i, j] = b
    return np.array(prior), theta, B, np.array(variances, dtype=float), parents


# A tree rooted at x0: x0 -> x1, x0 -> x2, x2 -> x3, x2 -> x4, each class its own
# coefficients, means and variances.
TREE = true_model(
    [(), (0,), (0,), (2,), (2,)],
    [[0, 0, 0, 0, 0], [0.6, 0.4, -0.3, 0.5, 0.2]],
    [{(1, 0): 0.9, (2, 0): -0.8, (3, 2): 0.9, (4, 2): 0.7},
     {(1, 0): 0.5, (2, 0): -0.3, (3, 2): 1.2, (4, 2): 0.2}],
    [[1, 0.3, 0.3, 0.3, 0.3], [1.2, 0.4, 0.35, 0.25, 0.5]], [0.45, 0.55])
# A 2-dependence network: x2 <- x0, x1; x3 <- x1, x2; x4 <- x2, x3; the class means
# shrink along the order, so that Sahami's order by I(X; C) is the topological one.
KDB2 = true_model(
    [(), (0,), (0, 1), (1, 2), (2, 3)],
    [[0, 0, 0, 0, 0], [1.6, 0.8, 0.6, 0.5, 0.2]],
    [{(1, 0): 0.8, (2, 0): 0.5, (2, 1): -0.6, (3, 1): 0.7, (3, 2): 0.6, (4, 2): -0.7,
      (4, 3): 0.5},
     {(1, 0): 0.3, (2, 0): -0.4, (2, 1): 0.5, (3, 1): 0.2, (3, 2): 1.0, (4, 2): 0.2,
      (4, 3): -0.6}],
    [[1, 0.5, 0.5, 0.5, 0.5], [1, 0.5, 0.5, 0.5, 0.5]], [0.5, 0.5])


def sample(model, n, rng):
    prior, theta, B, v, parents = model
    y = rng.choice(len(prior), size=n, p=prior)
    X = np.zeros((n, theta.shape[1]))
    for i in range(len(parents)):  # both networks list parents before children
        mean = theta[y, i] + sum(B[y, i, j] * (X[:, j] - theta[y, j]) for j in parents[i])
        X[:, i] = mean + np.sqrt(v[y, i]) * rng.standard_normal(n)
    return X, y


def true_log_joint(model, X):
    """``log p(c, x)`` of the true network, factor by factor with scipy.stats.norm."""
    prior, theta, B, v, parents = model
    out = np.log(prior) + np.zeros((X.shape[0], 1))
    for c in range(len(prior)):
        for i, pa in enumerate(parents):
            mean = theta[c, i] + sum(B[c, i, j] * (X[:, j] - theta[c, j]) for j in pa)
            out[:, c] += norm.logpdf(X[:, i], mean, np.sqrt(v[c, i]))
    return out


@pytest.fixture(scope="module", params=["tan", "kdb"])
def experiment(request):
    truth, model = {"tan": (TREE, GaussianTAN(var_smoothing=0.0)),
                    "kdb": (KDB2, GaussianKDB(k=2, var_smoothing=0.0))}[request.param]
    rng = np.random.default_rng(2006)
    X, y = sample(truth, 20_000, rng)
    X_test, y_test = sample(truth, 200_000, rng)
    return truth, model.fit(X, y), X, y, X_test, y_test


def test_recovers_the_true_structure(experiment):
    truth, model = experiment[:2]
    assert [set(node.parents) for node in model.structure_.nodes] == [set(p) for p in truth[4]]


def test_within_a_point_and_a_half_of_the_bayes_rate_and_above_gnb(experiment):
    truth, model, X, y, X_test, y_test = experiment
    joint = true_log_joint(truth, X_test)
    posterior = np.exp(joint - joint.max(axis=1, keepdims=True))
    posterior /= posterior.sum(axis=1, keepdims=True)
    # The Bayes rate by Monte Carlo: the mean of 1 - max_c p(c | x) over the test rows
    # (standard error about 3e-4 here), and the Bayes classifier's own errors on them.
    bayes_error = float(np.mean(1.0 - posterior.max(axis=1)))
    assert np.mean(posterior.argmax(axis=1) != y_test) == pytest.approx(bayes_error, abs=0.003)
    accuracy = np.mean(model.predict(X_test) == y_test)
    gnb = np.mean(GaussianNB().fit(X, y).predict(X_test) == y_test)
    assert accuracy >= 1.0 - bayes_error - 0.015
    assert accuracy > gnb + 0.05


def regressions(model, X, y):
    """Each class's least-squares fit of every attribute on its learned parents (with an
    intercept), by numpy: ``(mean, coefficients, residual variance)`` per node."""
    fits = {}
    for c in (0, 1):
        rows = X[y == c]
        for i, node in enumerate(model.structure_.nodes):
            pa = list(node.parents)
            design = np.column_stack([np.ones(len(rows))] + [rows[:, j] for j in pa])
            beta = np.linalg.lstsq(design, rows[:, i], rcond=None)[0]
            residual = rows[:, i] - design @ beta
            fits[c, i] = (beta, pa, np.mean(residual ** 2))
    return fits


def test_maximum_likelihood_parameters_and_log_likelihood(experiment):
    truth, model, X, y, X_test, _ = experiment
    fits = regressions(model, X, y)
    rows = X_test[:2000]
    direct = np.zeros((len(rows), 2))
    for c in (0, 1):
        p = X.shape[1]
        B, v, intercept = np.zeros((p, p)), np.zeros(p), np.zeros(p)
        for i in range(p):
            beta, pa, var = fits[c, i]
            intercept[i], B[i, pa], v[i] = beta[0], beta[1:], var
            np.testing.assert_allclose(model.coef_[c, i, pa], beta[1:], rtol=1e-9)
            assert model.residual_var_[c, i] == pytest.approx(var, rel=1e-9)
        # The network's joint normal: x = (I - B)^-1 (intercept + e), e ~ N(0, diag v).
        inverse = np.linalg.inv(np.eye(p) - B)
        mvn = multivariate_normal(inverse @ intercept, inverse @ np.diag(v) @ inverse.T)
        direct[:, c] = np.log(np.mean(y == c)) + mvn.logpdf(rows)
    np.testing.assert_allclose(model._joint_log_likelihood(rows), direct, rtol=1e-9, atol=1e-9)


def test_the_root_leaves_the_maximum_likelihood_density_unchanged():
    X, y = sample(TREE, 3000, np.random.default_rng(1))
    root0 = GaussianTAN(root=0, var_smoothing=0.0).fit(X, y)
    root3 = GaussianTAN(root=3, var_smoothing=0.0).fit(X, y)
    assert root0.structure_.arcs() != root3.structure_.arcs()
    np.testing.assert_allclose(root0._joint_log_likelihood(X), root3._joint_log_likelihood(X),
                               rtol=1e-9)


def test_k_spans_gaussian_naive_bayes_to_one_normal_per_class(uci_dir):
    from bayesbench.data import load_dataset

    ds = load_dataset(uci_dir / "wine.arff")
    X, y = ds.numeric_matrix(), ds.y
    naive = GaussianKDB(k=0).fit(X, y)
    np.testing.assert_allclose(naive.predict_proba(X), SkGaussianNB().fit(X, y).predict_proba(X),
                               atol=1e-9)
    full = GaussianKDB(k=X.shape[1] - 1, var_smoothing=0.0).fit(X, y)
    np.testing.assert_allclose(full._joint_log_likelihood(X),
                               FullBayes(var_smoothing=0.0).fit(X, y)._joint_log_likelihood(X),
                               rtol=1e-8)


def test_refusals_are_one_line():
    X = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    with pytest.raises(ClassifierError, match=r"parameter 'root' must be an attribute index "
                                              r"in 0\.\.1, got 2"):
        GaussianTAN(root=2).fit(X, [0, 0, 1, 1])
    with pytest.raises(ClassifierError, match="parameter 'k'"):
        GaussianKDB(k=-1).fit(X, [0, 0, 1, 1])
    # x1 = 2 x0 in each class: no residual variance without smoothing
    with pytest.raises(ClassifierError, match="zero residual variance.*var_smoothing"):
        GaussianTAN(var_smoothing=0.0).fit(X, [0, 0, 1, 1])
    with pytest.raises(ClassifierError, match="missing"):
        GaussianTAN().fit([[0.0, np.nan], [1.0, 2.0]], [0, 1])


def test_structure_is_drawn_and_summarised():
    X, y = sample(TREE, 2000, np.random.default_rng(5))
    model = GaussianTAN().fit(X, y)
    dot = model.to_dot()
    assert '"x0" -> "x1"' in dot and '"x2" -> "x3"' in dot
    assert model.structure_.summary().endswith("x0->x1, x0->x2, x2->x3, x2->x4")
    assert set(model.structure_.info["tree"]) == {(0, 1), (0, 2), (2, 3), (2, 4)}


def test_docstring_examples():
    assert doctest.testmod(gaussian_network).failed == 0
