"""Counting and smoothing, against straightforward loops written here."""
import numpy as np

from bayesbench.models.counting import (class_log_prior, counts, joint_index, log_table,
                                        node_tables)
from bayesbench.models.structure import Node, Structure
from helpers import random_codes


# ------------------------------------------------------------------- counting
def test_joint_index_matches_ravel_multi_index():
    rng = np.random.default_rng(1)
    cards = [3, 4, 2, 5]
    X = random_codes(rng, 200, cards)
    got = joint_index(X, [3, 0, 2], cards)
    want = np.ravel_multi_index((X[:, 3], X[:, 0], X[:, 2]), (5, 3, 2))
    np.testing.assert_array_equal(got, want)
    X[5, 0] = -1
    X[6, 2] = 9
    got = joint_index(X, [3, 0, 2], cards)
    assert got[5] == -1 and got[6] == -1


def test_counts_match_a_loop_with_missing_values():
    rng = np.random.default_rng(2)
    cards = [3, 2, 4, 2]
    X = random_codes(rng, 300, cards, missing=0.1)
    y = rng.integers(0, 3, 300)
    s = Structure((Node((0,)), Node((1, 3), (0,)), Node((2,), (1, 0))), 4)
    got = counts(s, X, y, cards, 3)
    for node, table in zip(s.nodes, got):
        pa_shape = [cards[p] for p in node.parents]
        val_shape = [cards[a] for a in node.attributes]
        want = np.zeros([3] + pa_shape + val_shape)
        for row, c in zip(X, y):
            cells = [row[p] for p in node.parents] + [row[a] for a in node.attributes]
            if min(cells) >= 0:
                want[(c, *cells)] += 1
        np.testing.assert_array_equal(table, want.reshape(table.shape))


def test_log_table_is_additive_smoothing():
    n = np.array([[[3.0, 0.0, 1.0], [0.0, 0.0, 0.0]]])
    t = np.exp(log_table(n, 0.5))
    np.testing.assert_allclose(t[0, 0], [3.5 / 5.5, 0.5 / 5.5, 1.5 / 5.5])
    np.testing.assert_allclose(t[0, 1], [1 / 3] * 3)
    t0 = log_table(n, 0.0)
    assert t0[0, 0, 1] == -np.inf
    np.testing.assert_allclose(np.exp(t0[0, 1]), [1 / 3] * 3)  # unseen parent config
    np.testing.assert_allclose(np.exp(class_log_prior(np.array([0, 0, 1]), 3, 1.0)),
                               [3 / 6, 2 / 6, 1 / 6])


def test_node_tables_are_normalised():
    rng = np.random.default_rng(3)
    cards = [3, 2, 4]
    X = random_codes(rng, 100, cards)
    y = rng.integers(0, 2, 100)
    s = Structure((Node((0, 1)), Node((2,), (0, 1))), 3)
    for t in node_tables(s, X, y, cards, 2, alpha=0.5):
        np.testing.assert_allclose(np.exp(t).sum(axis=-1), 1.0)
