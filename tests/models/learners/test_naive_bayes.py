"""Discrete naive Bayes against scikit-learn's CategoricalNB, hand computations and paper 004's modes."""
import numpy as np
import pandas as pd
import pytest

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.models.learners.naive_bayes import NaiveBayes
from bayesbench.preprocess.discretize import Discretizer

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import CategoricalNB  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.preprocessing import FunctionTransformer  # noqa: E402

UCI_NAMES = sorted(p.stem for p in __import__("pathlib").Path(
    __file__).resolve().parents[3].joinpath("datasets").glob("*.arff"))


def one_split(uci_dir, name):
    """The first of 3 stratified folds as test; MDL fitted on the training part."""
    ds = load_dataset(uci_dir / f"{name}.arff")
    train, test = next(StratifiedKFold(3, shuffle=True, random_state=0).split(ds.y, ds.y))
    disc = Discretizer("mdl").fit(ds.take(train))
    return disc.transform(ds.take(train)), disc.transform(ds.take(test))


@pytest.mark.filterwarnings("ignore:The least populated class")
@pytest.mark.parametrize("alpha", [1.0, 0.5])
@pytest.mark.parametrize("name", UCI_NAMES)
def test_nb_matches_categorical_nb(uci_dir, name, alpha):
    train, test = one_split(uci_dir, name)
    # CategoricalNB knows no missing value: both models see "missing" as one more category.
    cards = train.cardinalities + 1
    Xtr = np.where(train.codes() < 0, cards - 1, train.codes())
    Xte = np.where(test.codes() < 0, cards - 1, test.codes())
    # Classes absent from the training part are left out by both (n_classes not given).
    present, n_c = np.unique(train.y, return_counts=True)
    ours = NaiveBayes(alpha=alpha).fit(Xtr, train.y, cardinalities=cards)
    # Our class prior is smoothed like every table; CategoricalNB takes it as given.
    prior = (n_c + alpha) / (len(train.y) + alpha * len(present))
    ref = CategoricalNB(alpha=alpha, class_prior=prior, min_categories=cards)
    ref.fit(Xtr, train.y)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_allclose(ours.predict_proba(Xte), ref.predict_proba(Xte),
                               rtol=0, atol=1e-9)


def test_missing_values_are_skipped_in_counts_and_product():
    X = np.array([[0, 1], [1, -1], [0, 0], [-1, 1], [1, 1]])
    y = np.array([0, 0, 1, 1, 1])
    m = NaiveBayes(alpha=1).fit(X, y, cardinalities=[2, 2])
    # Class 0: x0 seen {0, 1}; x1 seen {1} (one missing). Class 1: x0 {0, 1}, x1 {0, 1, 1}.
    p_c = np.array([3 / 7, 4 / 7])
    p_x0_is_0 = np.array([2 / 4, 2 / 4])
    p_x1_is_1 = np.array([2 / 3, 3 / 5])
    got = m.predict_proba(np.array([[0, -1], [-1, 1], [0, 1]]))
    for row, joint in zip(got, [p_c * p_x0_is_0, p_c * p_x1_is_1,
                                p_c * p_x0_is_0 * p_x1_is_1]):
        np.testing.assert_allclose(row, joint / joint.sum())


def test_unseen_values_get_the_smoothed_probability():
    X = np.array([[0], [0], [1]])
    y = np.array([0, 1, 1])
    # Declared cardinality 3: value 2 is never seen but has its table cell.
    m = NaiveBayes(alpha=1).fit(X, y, cardinalities=[3])
    joint = np.array([2 / 5 * 1 / 4, 3 / 5 * 1 / 5])
    np.testing.assert_allclose(m.predict_proba([[2]])[0], joint / joint.sum())
    # Inferred cardinality 2: code 2 is beyond it, and still gets alpha / (N_c + alpha r).
    m = NaiveBayes(alpha=1).fit(X, y)
    joint = np.array([2 / 5 * 1 / 3, 3 / 5 * 1 / 4])
    np.testing.assert_allclose(m.predict_proba([[2]])[0], joint / joint.sum())


def test_alpha_zero_makes_a_class_impossible():
    X = np.array([[0, 0], [0, 1], [1, 1], [1, 0]])
    y = np.array([0, 0, 1, 1])
    m = NaiveBayes(alpha=0).fit(X, y)
    proba = m.predict_proba([[0, 1], [1, 1]])
    np.testing.assert_array_equal(proba, [[1.0, 0.0], [0.0, 1.0]])
    # Every class impossible: the posterior is uniform, not NaN.
    m = NaiveBayes(alpha=0).fit(np.array([[0, 0], [1, 1]]), np.array([0, 1]))
    np.testing.assert_array_equal(m.predict_proba([[0, 1]]), [[0.5, 0.5]])


def test_plain_and_log_modes_agree_until_underflow():
    rng = np.random.default_rng(0)
    n, m = 400, 30
    y = rng.integers(0, 2, n)
    X = np.where(rng.random((n, m)) < 0.7, y[:, None], 1 - y[:, None]) * 2 + rng.integers(0, 2, (n, m))
    for alpha in (1.0, 0.0):
        log = NaiveBayes(alpha=alpha, log=True).fit(X, y)
        plain = NaiveBayes(alpha=alpha, log=False).fit(X, y)
        np.testing.assert_array_equal(log.predict(X), plain.predict(X))
        np.testing.assert_allclose(log.predict_proba(X), plain.predict_proba(X), atol=1e-12)
    # 2000 attributes: every plain product underflows to 0 and the plain mode loses.
    X = np.repeat(X, 70, axis=1)
    plain = NaiveBayes(log=False).fit(X, y)
    log = NaiveBayes(log=True).fit(X, y)
    np.testing.assert_array_equal(plain.predict_proba(X[:5]), np.full((5, 2), 0.5))
    assert (log.predict(X) == y).mean() > 0.9


def test_absent_class_keeps_its_column():
    X = np.array([[0], [1], [1]])
    m = NaiveBayes().fit(X, np.array([0, 2, 2]), n_classes=3)
    np.testing.assert_array_equal(m.classes_, [0, 1, 2])
    proba = m.predict_proba([[1]])
    assert proba.shape == (1, 3) and 0 < proba[0, 1] < proba[0, 2]


def test_string_labels_and_dataframe_of_categoricals():
    df = pd.DataFrame({"colour": pd.Categorical(["red", "blue", "red", None]),
                       "size": pd.Categorical(["s", "l", "l", "s"])})
    y = np.array(["yes", "no", "yes", "no"])
    m = NaiveBayes().fit(df, y)
    assert list(m.classes_) == ["no", "yes"]
    assert m.structure_.attribute_names == ("colour", "size")
    assert m.predict(df).tolist() == ["yes", "no", "yes", "no"]


def test_sklearn_clone_and_pipeline():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, (200, 4))
    y = (X[:, 0] > 0).astype(int)
    m = make_classifier("nb", alpha=0.5, log=False)
    c = clone(m)
    assert c is not m and c.get_params() == {"alpha": 0.5, "log": False, "weights": None,
                                             "estimator": "laplace", "iterations": 1000,
                                             "tying": "level", "random_state": None, "width": "values",
                                             "missing": "skip", "l2": 0.0, "max_iter": 1000,
                                             "tol": 1e-4}
    pipe = Pipeline([("shift", FunctionTransformer(lambda a: a + 0)), ("nb", c)])
    pipe.set_params(nb__alpha=2.0)
    pipe.fit(X, y)
    direct = NaiveBayes(alpha=2.0, log=False).fit(X, y)
    np.testing.assert_allclose(pipe.predict_proba(X), direct.predict_proba(X))


def test_large_unknown_codes_are_unseen_values_not_missing():
    X = np.array([[0], [0], [1]])
    y = np.array([0, 1, 1])
    m = NaiveBayes(alpha=1).fit(X, y)
    # 300 does not fit the compact int8 codes used inside; it must stay "unseen".
    np.testing.assert_allclose(m.predict_proba([[300]]), m.predict_proba([[2]]))
    assert not np.allclose(m.predict_proba([[300]]), m.predict_proba([[-1]]))


def test_width_classes_is_paper_004s_laplace_correction():
    # Paper 004, sec. 3.2: P_L(X_j = x_j | w_k) = (|{x in S_k, X_j = x_j}| + p) / (|S_k| + p V_k),
    # V_k the number of classes, p = 1. One attribute of three values, two classes; computed
    # by hand from the counts: class 0 holds values (0, 0, 1), class 1 holds (2, 2).
    X = np.array([[0], [0], [1], [2], [2]])
    y = np.array([0, 0, 0, 1, 1])
    model = make_classifier("nb", width="classes").fit(X, y, cardinalities=[3], n_classes=2)
    prior = np.log([(3 + 1) / (5 + 2), (2 + 1) / (5 + 2)])   # the prior as with width "values"
    table = np.log([[(2 + 1) / (3 + 2), (1 + 1) / (3 + 2), (0 + 1) / (3 + 2)],
                    [(0 + 1) / (2 + 2), (0 + 1) / (2 + 2), (2 + 1) / (2 + 2)]])
    for value in range(3):
        joint = prior + table[:, value]
        expected = np.exp(joint - np.logaddexp.reduce(joint))
        np.testing.assert_allclose(model.predict_proba(np.array([[value]]))[0], expected)
    # With two classes and two values the two corrections are one.
    X2, y2 = np.array([[0], [1], [1], [0]]), np.array([0, 0, 1, 1])
    a = make_classifier("nb", width="classes").fit(X2, y2, cardinalities=[2], n_classes=2)
    b = make_classifier("nb").fit(X2, y2, cardinalities=[2], n_classes=2)
    np.testing.assert_allclose(a.predict_proba(X2), b.predict_proba(X2))
