"""AODE against a straightforward per-row reference."""
import numpy as np
import pytest

from bayesbench.models.aode import AODE
from bayesbench.models.naive_bayes import NaiveBayes


def aode_by_rows(X, y, Xt, k, cards, alpha, m_min):
    """Webb et al.'s AODE, one example and one super-parent at a time."""
    n, m = X.shape
    out = []
    for row in Xt:
        spodes = []
        for i in range(m):
            if row[i] < 0 or np.sum(X[:, i] == row[i]) < m_min:
                continue
            has_i = X[:, i] >= 0
            joint = []
            for c in range(k):
                n_ci = np.sum(has_i & (y == c) & (X[:, i] == row[i]))
                p = (n_ci + alpha) / (has_i.sum() + alpha * k * cards[i])
                for j in range(m):
                    if j == i or row[j] < 0:
                        continue
                    both = has_i & (X[:, j] >= 0) & (y == c) & (X[:, i] == row[i])
                    p *= (np.sum(both & (X[:, j] == row[j])) + alpha) / (both.sum() + alpha * cards[j])
                joint.append(p)
            spodes.append(joint)
        if spodes:
            out.append(np.mean(spodes, axis=0))
        else:
            out.append(None)
    return out


@pytest.mark.parametrize("m_min", [1, 25])
def test_aode_matches_a_row_by_row_computation(m_min):
    rng = np.random.default_rng(1)
    cards = [2, 3, 4, 2]
    X = np.column_stack([rng.integers(0, c, 150) for c in cards])
    X[rng.random(X.shape) < 0.08] = -1
    y = rng.integers(0, 3, 150)
    Xt = np.column_stack([rng.integers(0, c, 40) for c in cards])
    Xt[rng.random(Xt.shape) < 0.1] = -1
    model = AODE(alpha=1.0, min_frequency=m_min).fit(X, y, cardinalities=cards)
    proba = model.predict_proba(Xt)
    ref = aode_by_rows(X, y, Xt, 3, cards, 1.0, m_min)
    checked = 0
    for got, want in zip(proba, ref):
        if want is None:
            continue
        np.testing.assert_allclose(got, np.array(want) / np.sum(want), rtol=1e-10)
        checked += 1
    assert checked > 20


def test_aode_falls_back_to_naive_bayes():
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1]])
    y = np.array([0, 1, 0, 1])
    model = AODE(min_frequency=100).fit(X, y)
    nb = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), nb.predict_proba(X))
