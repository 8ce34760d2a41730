"""kDB's parent choice, AODE and MAP against straightforward per-row references."""
import numpy as np
import pytest

from bayesbench.errors import ClassifierError
from bayesbench.models.aode import AODE
from bayesbench.models.kdb import KDB, kdb_parents
from bayesbench.models.map import MAPClassifier
from bayesbench.models.naive_bayes import NaiveBayes


def test_kdb_parents_by_hand():
    mi = np.array([0.1, 0.5, 0.3, 0.5])      # order: 1, 3 (tie, index order), 2, 0
    cmi = np.array([[0, .2, .9, .1],
                    [.2, 0, .4, .3],
                    [.9, .4, 0, .3],
                    [.1, .3, .3, 0]])
    order, parents = kdb_parents(mi, cmi, k=2)
    assert order == [1, 3, 2, 0]
    assert parents == [(2, 1), (), (1, 3), (1,)]
    _, parents = kdb_parents(mi, cmi, k=1)
    assert parents == [(2,), (), (1,), (1,)]
    _, parents = kdb_parents(mi, cmi, k=0)
    assert parents == [()] * 4


def test_kdb_structure_and_bad_k():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (500, 5))
    y = (X[:, 0] + X[:, 1] >= 3).astype(int)
    model = KDB(k=3).fit(X, y)
    assert max(len(n.parents) for n in model.structure_.nodes) == 3
    assert model.structure_.info["order"][:2] in ([0, 1], [1, 0])
    with pytest.raises(ClassifierError, match="'k' must be"):
        KDB(k=-1).fit(X, y)


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


def test_map_is_a_lookup_with_prior_fallback():
    X = np.array([[0, 1], [0, 1], [0, 1], [1, 0], [1, 0], [-1, 0]])
    y = np.array([0, 0, 1, 1, 1, 0])
    model = MAPClassifier().fit(X, y)
    np.testing.assert_allclose(model.predict_proba([[0, 1]]), [[2 / 3, 1 / 3]])
    np.testing.assert_allclose(model.predict_proba([[1, 0]]), [[0.0, 1.0]])
    # Missing is a value of its own; unseen configurations get the class prior.
    np.testing.assert_allclose(model.predict_proba([[-1, 0], [1, 1], [5, 5]]),
                               [[1.0, 0.0], [0.5, 0.5], [0.5, 0.5]])
    smoothed = MAPClassifier(alpha=1).fit(X, y)
    np.testing.assert_allclose(smoothed.predict_proba([[1, 0]]), [[1 / 4, 3 / 4]])
    assert model.structure_.nodes[0].attributes == (0, 1)
    assert model.structure_.info["n_configurations"] == 3


def test_map_matches_a_dictionary_on_random_data():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, (300, 3))
    y = rng.integers(0, 2, 300)
    table = {}
    for row, c in zip(map(tuple, X), y):
        table.setdefault(row, [0, 0])[c] += 1
    Xt = rng.integers(0, 4, (100, 3))
    model = MAPClassifier().fit(X, y)
    prior = np.bincount(y) / len(y)
    for row, got in zip(Xt, model.predict_proba(Xt)):
        counts = table.get(tuple(row))
        want = prior if counts is None else np.array(counts) / sum(counts)
        np.testing.assert_allclose(got, want)
