"""Gaussian NB, full (QDA) Bayes and Barrow's linear covariance model.

References: scikit-learn's GaussianNB and QuadraticDiscriminantAnalysis on
real UCI data, and a small example worked out by hand.
"""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError, NotFittedError
from bayesbench.models.learners.gaussian import FullBayes, GaussianNB, LinearFullBayes


def numeric(uci_dir, name):
    ds = load_dataset(uci_dir / f"{name}.arff")
    return ds.numeric_matrix(), ds.y, ds


def halves(X, y):
    """Fit on the even rows, score the odd ones: agreement off the training data too."""
    return X[::2], y[::2], X[1::2]


@pytest.mark.parametrize("name", ["iris", "wine", "wdbc", "glass", "vehicle",
                                  "pima-indians-diabetes", "segment"])
@pytest.mark.parametrize("var_smoothing", [1e-9, 1e-2])
def test_gnb_matches_sklearn(uci_dir, name, var_smoothing):
    X, y, _ = numeric(uci_dir, name)
    Xtr, ytr, Xte = halves(X, y)
    ours = GaussianNB(var_smoothing=var_smoothing).fit(Xtr, ytr)
    ref = SkGaussianNB(var_smoothing=var_smoothing).fit(Xtr, ytr)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_allclose(ours.theta_, ref.theta_, rtol=1e-12)
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-10)
    assert ours.epsilon_ == pytest.approx(ref.epsilon_, rel=1e-12)
    for data in (Xtr, Xte):
        np.testing.assert_allclose(ours.predict_proba(data), ref.predict_proba(data),
                                   rtol=0, atol=1e-9)
        np.testing.assert_allclose(ours.predict_log_proba(data), ref.predict_log_proba(data),
                                   rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(ours.predict(data), ref.predict(data))


# QDA refuses a class whose scatter is rank deficient, so reg_param = 0 is
# compared only where every class has full rank.
@pytest.mark.parametrize("name,reg_params", [
    ("iris", [0.0, 0.1, 0.7]), ("wine", [0.0, 0.3]), ("vehicle", [0.0, 0.05]),
    ("pima-indians-diabetes", [0.0, 0.5]), ("wdbc", [0.1]), ("glass", [0.2]),
    ("segment", [0.5])])
def test_full_bayes_matches_qda(uci_dir, name, reg_params):
    X, y, _ = numeric(uci_dir, name)
    for reg in reg_params:
        ours = FullBayes(reg_param=reg, var_smoothing=0.0).fit(X, y)
        ref = QuadraticDiscriminantAnalysis(reg_param=reg, store_covariance=True).fit(X, y)
        np.testing.assert_allclose(ours.theta_, ref.means_, rtol=1e-12)
        np.testing.assert_allclose(ours.covariance_, np.asarray(ref.covariance_),
                                   rtol=1e-8, atol=1e-12 * np.abs(ours.covariance_).max())
        np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=0, atol=1e-9)
        np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_full_bayes_default_smoothing_keeps_collinear_data_finite(uci_dir):
    X, y, _ = numeric(uci_dir, "iris")
    X = np.column_stack([X, X[:, 0] * 2.0])   # an exactly collinear attribute
    with pytest.raises(ClassifierError, match="singular"):
        FullBayes(reg_param=0.0, var_smoothing=0.0).fit(X, y)
    proba = FullBayes().fit(X, y).predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_full_bayes_class_with_one_row_is_finite_and_documented():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 1, (30, 3)), [[5.0, 5.0, 5.0]]])
    y = np.array([0] * 30 + [1])
    model = FullBayes(reg_param=0.25).fit(X, y)
    # The single row has zero scatter: its covariance is (reg_param + epsilon) I.
    expected = (0.25 + model.epsilon_) * np.eye(3)
    np.testing.assert_allclose(model.covariance_[1], expected)
    np.testing.assert_allclose(model.theta_[1], [5.0, 5.0, 5.0])
    proba = model.predict_proba(np.array([[5.0, 5.0, 5.0], [0.0, 0.0, 0.0]]))
    assert np.isfinite(proba).all()
    assert proba[0, 1] > 0.99 and proba[1, 0] > 0.99
    with pytest.raises(ClassifierError, match="class '1' is singular"):
        FullBayes(reg_param=0.0, var_smoothing=0.0).fit(X, y)


@pytest.mark.parametrize("cls", [GaussianNB, FullBayes, LinearFullBayes])
def test_absent_class_gets_probability_zero(uci_dir, cls):
    X, y, ds = numeric(uci_dir, "glass")   # glass declares 7 classes, one never occurs
    assert len(np.unique(y)) == ds.n_classes - 1
    model = cls().fit(X, y, n_classes=ds.n_classes)
    np.testing.assert_array_equal(model.classes_, np.arange(ds.n_classes))
    proba = model.predict_proba(X)
    absent = np.setdiff1d(np.arange(ds.n_classes), y)
    assert proba.shape == (len(y), ds.n_classes)
    np.testing.assert_array_equal(proba[:, absent], 0.0)
    present = np.setdiff1d(np.arange(ds.n_classes), absent)
    np.testing.assert_allclose(proba[:, present], cls().fit(X, y).predict_proba(X), atol=1e-12)


def test_linear_full_bayes_hand_computed():
    # Class a: rows (0,1), (2,3), (4,2): mean (2,2), ML variances 8/3 and 2/3,
    # covariance 2/3, so B_12 = (2/3)/(2/3) = 1 and B_21 = (2/3)/(8/3) = 1/4.
    # Class b: rows (0,0), (2,0), (0,2), (2,2): mean (1,1), unit variances, no
    # covariance, so its model is plain Gaussian naive Bayes.
    X = np.array([[0, 1], [2, 3], [4, 2], [0, 0], [2, 0], [0, 2], [2, 2]], dtype=float)
    y = np.array(["a"] * 3 + ["b"] * 4)
    model = LinearFullBayes(var_smoothing=0.0).fit(X, y)
    np.testing.assert_allclose(model.coef_[0], [[0.0, 1.0], [0.25, 0.0]])
    np.testing.assert_allclose(model.coef_[1], 0.0)
    # At x = (3,3): class a has z = (1,1), residuals r = (1 - 1, 1 - 1/4) = (0, 3/4),
    #   log p(x|a) = -log(2 pi)/2 * 2 - log(8/3)/2 - log(2/3)/2 - (9/16)/(2 * 2/3)
    #              = -log(2 pi) - log(4/3) - 27/64;
    # class b has z = (2,2): log p(x|b) = -log(2 pi) - 4. Priors 3/7 and 4/7, so
    # log p(a|x)/p(b|x) = log(3/4) - log(4/3) - 27/64 + 4 = 2 log(3/4) + 229/64.
    log_odds = 2 * np.log(0.75) + 229 / 64
    expected_a = 1 / (1 + np.exp(-log_odds))
    np.testing.assert_allclose(model.predict_proba([[3.0, 3.0]]), [[expected_a, 1 - expected_a]],
                               rtol=1e-12)
    # "fitted": residual variances are the training variances of r_1 = z_1 - z_2
    # (-1, -1, 2 -> 2) and r_2 = z_2 - z_1/4 (-1/2, 1, -1/2 -> 1/2) in class a.
    fitted = LinearFullBayes(var_smoothing=0.0, residual_variance="fitted").fit(X, y)
    np.testing.assert_allclose(fitted.residual_var_[0], [2.0, 0.5])
    np.testing.assert_allclose(fitted.residual_var_[1], [1.0, 1.0])


def test_linear_full_bayes_without_dependence_is_gaussian_nb(uci_dir):
    X, y, _ = numeric(uci_dir, "iris")
    for j in range(X.shape[1]):   # one attribute: nothing to depend on
        np.testing.assert_allclose(LinearFullBayes().fit(X[:, [j]], y).predict_proba(X[:, [j]]),
                                   GaussianNB().fit(X[:, [j]], y).predict_proba(X[:, [j]]),
                                   atol=1e-12)


@pytest.mark.parametrize("model", [GaussianNB(var_smoothing=1e-5), FullBayes(reg_param=0.1),
                                   LinearFullBayes(residual_variance="fitted")])
def test_clone_and_dataframe(uci_dir, model):
    X, y, ds = numeric(uci_dir, "wine")
    copy = clone(model)
    assert copy.get_params() == model.get_params() and copy is not model
    assert type(copy).input_kind == "continuous"
    frame = pd.DataFrame(X, columns=ds.attribute_names)
    on_frame = copy.fit(frame, y).predict_proba(frame)
    np.testing.assert_allclose(on_frame, clone(model).fit(X, y).predict_proba(X), atol=1e-12)
    assert list(copy.feature_names_in_) == ds.attribute_names
    with pytest.raises(ClassifierError, match="columns differ"):
        copy.predict_proba(frame[ds.attribute_names[::-1]])
    assert isinstance(copy.structure_summary(), str) and "\n" not in copy.structure_summary()


@pytest.mark.parametrize("cls", [GaussianNB, FullBayes, LinearFullBayes])
def test_bad_input_is_a_clear_error(cls):
    X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
    y = np.array([0, 0, 1, 1])
    with pytest.raises(NotFittedError):
        cls().predict(X)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ClassifierError, match="row 2, attribute 1.*impute"):
        cls().fit(bad, y)
    with pytest.raises(ClassifierError, match="4 rows but y has 3"):
        cls().fit(X, y[:3])
    with pytest.raises(ClassifierError, match="two-dimensional"):
        cls().fit(X[:, 0], y)
    with pytest.raises(ClassifierError, match="not numeric"):
        cls().fit(pd.DataFrame({"a": X[:, 0], "b": list("wxyz")}), y)
    with pytest.raises(ClassifierError, match="class codes"):
        cls().fit(X, y, n_classes=1)
    with pytest.raises(ClassifierError, match="'var_smoothing' must be"):
        cls(var_smoothing=-1.0).fit(X, y)
    with pytest.raises(ClassifierError, match=r"shape=\(4, 0\)"):
        cls().fit(X[:, :0], y)
    model = cls().fit(X, y)
    with pytest.raises(ClassifierError, match="X has 3 features, but .* is expecting 2 features"):
        model.predict(np.ones((1, 3)))
    with pytest.raises(ClassifierError, match="infinite"):
        model.predict(np.array([[np.inf, 0.0]]))
    constant = "(zero variance in|covariance of) class '0'.*var_smoothing"
    with pytest.raises(ClassifierError, match=constant):
        cls().fit(np.ones((4, 2)), y)


# --------------------------------------------------- values near 1e308 (issue 25, class 7)

@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(exponent=st.integers(0, 1018), seed=st.integers(0, 50))
def test_gaussian_nb_of_huge_values_is_scikit_learns_of_the_same_values_scaled_down(exponent,
                                                                                    seed):
    """Values near 1e308 overflowed to 0.5 for every class, with RuntimeWarnings: the
    posterior of x * 2^e is that of x (a power of two scales exactly), as scikit-learn
    computes it on x."""
    import warnings

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3)) + np.repeat([[0.0], [1.5]], 15, axis=0)
    y = np.repeat([0, 1], 15)
    big = X * 2.0 ** exponent
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, no invalid value
        got = GaussianNB().fit(big, y).predict_proba(big)
    want = SkGaussianNB().fit(X, y).predict_proba(X)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-12)
