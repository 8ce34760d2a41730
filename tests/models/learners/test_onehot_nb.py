"""Naive Bayes over one-hot columns (paper 003's model) against the paper's procedure written
out literally: pandas' get_dummies over the training rows, then for every column
(count + 1) / (N_c + number of columns), the product over the columns and the unsmoothed
class prior (paper 003, sec. 2: feature_prob_given_class, class_probability, classify_one)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import bayesbench


def _paper(train: pd.DataFrame, y_train, test: pd.DataFrame):
    """Posterior scores of each class for each test row, as the paper's code computes them."""
    onehot = pd.get_dummies(train.astype(str)).astype(int)
    width = onehot.shape[1]
    scores = []
    for _, row in test.astype(str).iterrows():
        per_class = {}
        for c in sorted(set(y_train)):
            rows = onehot[np.asarray(y_train) == c]
            product = len(rows) / len(onehot)
            for column in onehot.columns:
                attribute, _, value = column.partition("_")
                b = int(row[attribute] == value)
                product *= ((rows[column] == b).sum() + 1) / (len(rows) + width)
            per_class[c] = product
        scores.append(per_class)
    return scores


def test_posterior_is_the_papers_product_over_one_hot_columns():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(40, 4))
    X[:, 3] = rng.integers(0, 2, size=40)
    y = (X[:, 0] + rng.integers(0, 2, size=40) > 1).astype(int)
    X_test = rng.integers(0, 3, size=(10, 4))
    X_test[:, 3] = rng.integers(0, 2, size=10)
    X_test[0, 2] = 2 if 2 not in X[:, 2] else X_test[0, 2]
    model = bayesbench.make_classifier("nb_onehot").fit(X, y, cardinalities=[3, 3, 3, 2],
                                                         n_classes=2)
    frame = pd.DataFrame(X, columns=list("abcd"))
    expected = _paper(frame, y, pd.DataFrame(X_test, columns=list("abcd")))
    proba = model.predict_proba(X_test)
    for p, e in zip(proba, expected):
        e = np.array([e[0], e[1]])
        np.testing.assert_allclose(p, e / e.sum(), rtol=1e-10)
    # The width is the number of one-hot columns of the training rows.
    assert model.width_ == pd.get_dummies(frame.astype(str)).shape[1]


def test_a_value_unseen_in_training_has_no_column():
    X = np.array([[0], [0], [1], [1], [1]])
    y = np.array([0, 0, 1, 1, 1])
    model = bayesbench.make_classifier("nb_onehot").fit(X, y, cardinalities=[3], n_classes=2)
    # Value 2 switches no column on: both columns off, (N_c - N + 1) / (N_c + 2) each.
    p0 = 2 / 5 * (2 + 1) / (2 + 2) * (0 + 1) / (2 + 2)
    p1 = 3 / 5 * (0 + 1) / (3 + 2) * (3 + 1) / (3 + 2)
    np.testing.assert_allclose(model.predict_proba(np.array([[2]]))[0],
                               [p0 / (p0 + p1), p1 / (p0 + p1)])


def test_alpha_must_be_positive():
    with pytest.raises(bayesbench.errors.ClassifierError, match="alpha"):
        bayesbench.make_classifier("nb_onehot", alpha=0).fit(np.zeros((2, 1), int), [0, 1])
