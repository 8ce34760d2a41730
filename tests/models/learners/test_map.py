"""MAP: a lookup of whole configurations, against a dictionary."""
import numpy as np

import bayesbench
from bayesbench.models.learners.map import MAPClassifier


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


def test_map_does_not_wrap_a_large_unseen_code_onto_a_seen_configuration():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5, dtype=np.int8)
    y = np.array([0, 1, 1, 1] * 5)
    model = bayesbench.make_classifier("map").fit(X, y)
    # 256 is 0 in int8; the configuration (256, 0) was never seen.
    assert model.lookup(np.array([[256, 0], [0, 0]])).tolist() == [-1, 0]
    np.testing.assert_allclose(model.predict_proba(np.array([[256, 0]]))[0], [0.25, 0.75])
