"""Inference: the joint log-likelihood against hand-computed products and a loop over rows."""
import itertools
import math

import numpy as np
import pytest
import scipy.special

from bayesbench.errors import ClassifierError
from bayesbench.models.core import inference, marginal
from bayesbench.models.core.base import log_posterior
from bayesbench.models.core.inference import joint_log_likelihood, node_log_probs
from bayesbench.models.core.structure import Node, Structure


def test_joint_log_likelihood_by_hand_with_missing_values():
    # Two attributes, x1 has parent x0; hand-written tables.
    s = Structure((Node((0,)), Node((1,), (0,))), 2, cardinalities=(2, 2))
    p0 = np.array([[0.2, 0.8], [0.6, 0.4]])               # p(x0 | c)
    p1 = np.array([[[0.1, 0.9], [0.7, 0.3]],              # p(x1 | x0, c=0)
                   [[0.5, 0.5], [0.2, 0.8]]])             # p(x1 | x0, c=1)
    tables = [np.log(p0)[:, None, :], np.log(p1)]
    prior = np.log([0.3, 0.7])
    X = np.array([[1, 0], [-1, 1], [0, -1], [-1, -1]])
    got = np.exp(joint_log_likelihood(s, tables, X, prior))
    want = np.array([
        [0.3 * 0.8 * 0.7, 0.7 * 0.4 * 0.2],
        [0.3, 0.7],                 # x0 missing: x0 left out, x1 (its child) too
        [0.3 * 0.2, 0.7 * 0.6],     # x1 missing: left out
        [0.3, 0.7]])
    np.testing.assert_allclose(got, want)
    plain = np.exp(joint_log_likelihood(s, tables, X, prior, plain=True))
    np.testing.assert_allclose(plain, want)


def _random_model(rng, cards, n_classes, nodes):
    """Structure, log tables, unseen log-probabilities and log prior with random numbers."""
    s = Structure(tuple(nodes), len(cards), cardinalities=tuple(cards))
    tables, unseen = [], []
    for node in s.nodes:
        n_pa = math.prod(cards[p] for p in node.parents)
        n_val = math.prod(cards[a] for a in node.attributes)
        p = rng.dirichlet(np.ones(n_val), size=(n_classes, n_pa))
        tables.append(np.log(p))
        unseen.append(np.log(rng.uniform(0.01, 0.2, size=(n_classes, n_pa))))
    prior = np.log(rng.dirichlet(np.ones(n_classes)))
    return s, tables, unseen, prior


def _by_hand(s, tables, unseen, prior, X, cards, weights=None, plain=False):
    """The module docstring's rules, row by row and node by node, in Python floats."""
    out = np.empty((X.shape[0], prior.size))
    for r, row in enumerate(X.tolist()):
        for c in range(prior.size):
            total = math.exp(prior[c]) if plain else float(prior[c])
            for v, node in enumerate(s.nodes):
                pa_vals = [row[p] for p in node.parents]
                vals = [row[a] for a in node.attributes]
                if any(x < 0 or x >= cards[p] for x, p in zip(pa_vals, node.parents)) \
                        or any(x < 0 for x in vals):
                    term = 0.0
                else:
                    pa = 0
                    for x, p in zip(pa_vals, node.parents):
                        pa = pa * cards[p] + x
                    if any(x >= cards[a] for x, a in zip(vals, node.attributes)):
                        term = 0.0 if unseen is None else float(unseen[v][c, pa])
                    else:
                        val = 0
                        for x, a in zip(vals, node.attributes):
                            val = val * cards[a] + x
                        term = float(tables[v][c, pa, val])
                if weights is not None:
                    term = weights[v] * term if weights[v] else 0.0
                if plain:
                    total *= math.exp(term)
                else:
                    total += term
            out[r, c] = (math.log(total) if total > 0 else -math.inf) if plain else total
    return out


# Nodes with no parent, one, two; a joined pair of attributes; attribute 7 in no node.
MIXED_NODES = [Node((0,)), Node((1,), (0,)), Node((2,), (0, 1)), Node((3, 4), (2,)),
               Node((5,)), Node((6,), (5, 3))]


def _codes(rng, n, cards):
    """Codes with some missing (-1) and some beyond the cardinality (unseen at fit)."""
    X = np.column_stack([rng.integers(0, c, size=n) for c in cards])
    holes = rng.random(X.shape)
    X[holes < 0.05] = -1
    X[holes > 0.97] += np.asarray(cards)[np.nonzero(holes > 0.97)[1]]
    return X.astype(np.int8)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_joint_log_likelihood_is_the_row_by_row_sum_to_the_bit(n_classes):
    # Several blocks of rows (the last one partial), every node shape, missing and unseen
    # values: the sum in node order after the prior, exactly as a loop over rows adds.
    rng = np.random.default_rng(3)
    cards = [2, 3, 4, 2, 3, 5, 2, 3]
    s, tables, unseen, prior = _random_model(rng, cards, n_classes, MIXED_NODES)
    X = _codes(rng, 2 * inference._block_rows(len(s.nodes) + 1, n_classes) + 37, cards)
    got = joint_log_likelihood(s, tables, X, prior, unseen=unseen)
    np.testing.assert_array_equal(got, _by_hand(s, tables, unseen, prior, X, cards))
    no_unseen = joint_log_likelihood(s, tables, X, prior)
    np.testing.assert_array_equal(no_unseen, _by_hand(s, tables, None, prior, X, cards))
    clean = np.where((X < 0) | (X >= np.asarray(cards)), 0, X)
    np.testing.assert_array_equal(joint_log_likelihood(s, tables, clean, prior),
                                  _by_hand(s, tables, None, prior, clean, cards))


def test_joint_log_likelihood_weighted_and_plain_match_the_row_by_row_products():
    rng = np.random.default_rng(4)
    cards = [2, 3, 4, 2, 3, 5, 2, 3]
    s, tables, unseen, prior = _random_model(rng, cards, 3, MIXED_NODES)
    tables[2][0, 1, :] = -np.inf            # alpha = 0: a value never seen with class 0
    weights = [0.5, 1.0, 0.0, 2.0, 0.25, 1.5]
    X = _codes(rng, 300, cards)
    got = joint_log_likelihood(s, tables, X, prior, unseen=unseen, node_weights=weights)
    np.testing.assert_array_equal(got, _by_hand(s, tables, unseen, prior, X, cards, weights))
    plain = joint_log_likelihood(s, tables, X, prior, unseen=unseen, plain=True)
    want = _by_hand(s, tables, unseen, prior, X, cards, plain=True)
    np.testing.assert_allclose(plain, want, rtol=1e-12, atol=0)
    assert np.isneginf(plain).any() and np.array_equal(np.isneginf(plain), np.isneginf(want))


def test_node_log_probs_are_the_terms_of_each_node():
    rng = np.random.default_rng(5)
    cards = [2, 3, 4, 2, 3, 5, 2, 3]
    s, tables, unseen, prior = _random_model(rng, cards, 2, MIXED_NODES)
    X = _codes(rng, 50, cards)
    terms = list(node_log_probs(s, tables, X, unseen=unseen))
    assert len(terms) == len(s.nodes)
    for v, term in enumerate(terms):
        weights = [1.0 if u == v else 0.0 for u in range(len(s.nodes))]
        alone = _by_hand(s, tables, unseen, np.zeros(2), X, cards, weights)
        np.testing.assert_array_equal(term, alone)


def test_joint_log_likelihood_of_no_rows_and_of_no_nodes():
    s = Structure((Node((0,)),), 1, cardinalities=(2,))
    prior = np.log([0.25, 0.75])
    empty = joint_log_likelihood(s, [np.log(np.full((2, 1, 2), 0.5))],
                                 np.zeros((0, 1), dtype=np.int64), prior)
    assert empty.shape == (0, 2)
    bare = Structure((), 2, cardinalities=(2, 3))
    np.testing.assert_array_equal(
        joint_log_likelihood(bare, [], np.array([[0, 2], [-1, 1]]), prior),
        np.tile(prior, (2, 1)))


def test_a_general_networks_terms_by_hand():
    # class <- x0 (3 values); x0 free of the class; x1 <- class, x0; x2 free of the class.
    s = Structure((Node((0,), class_parent=False), Node((1,), (0,)),
                   Node((2,), class_parent=False)), 3, cardinalities=(3, 2, 2),
                  class_parents=(0,), augmented=False)
    rng = np.random.default_rng(1)

    def log_distribution(*shape):
        p = rng.random(shape)
        return np.log(p / p.sum(axis=-1, keepdims=True))

    tables = [log_distribution(1, 1, 3), log_distribution(2, 3, 2), log_distribution(1, 1, 2)]
    prior = log_distribution(3, 2)                          # log p(c | x0)
    X = np.array([[2, 1, 0], [-1, 0, 1], [0, -1, 1], [5, 1, 0]])   # 5: a value never seen
    full = joint_log_likelihood(s, tables, X, prior)
    blanket = joint_log_likelihood(s, tables, X, prior, blanket=True)
    for row, (x0, x1, x2) in enumerate(X):
        for c in range(2):
            expected = tables[2][0, 0, x2]
            if 0 <= x0 < 3:  # a missing or unknown parent leaves the class's term out
                expected += prior[x0, c] + tables[0][0, 0, x0]
                if x1 >= 0:
                    expected += tables[1][c, x0, x1]
            assert full[row, c] == pytest.approx(expected, abs=1e-12)
            # The Markov blanket's terms: the class's own and its child x1's.
            assert blanket[row, c] - blanket[row, 0] == pytest.approx(
                full[row, c] - full[row, 0], abs=1e-12)
    assert np.allclose(blanket[0], prior[2] + tables[1][:, 2, 1])
    with pytest.raises(ClassifierError, match="general network"):
        joint_log_likelihood(s, tables, X, prior, missing="exact")


# --------------------------------------------------------------- missing="exact"

def test_exact_marginal_by_hand():
    # The hand-written model of the first test: x0 missing, x1 observed is summed over x0;
    # x1 missing is a leaf (barren): the skip rule's number, exact.
    s = Structure((Node((0,)), Node((1,), (0,))), 2, cardinalities=(2, 2))
    p0 = np.array([[0.2, 0.8], [0.6, 0.4]])
    p1 = np.array([[[0.1, 0.9], [0.7, 0.3]], [[0.5, 0.5], [0.2, 0.8]]])
    tables = [np.log(p0)[:, None, :], np.log(p1)]
    prior = np.log([0.3, 0.7])
    X = np.array([[-1, 1], [0, -1], [-1, -1]])
    got = np.exp(joint_log_likelihood(s, tables, X, prior, missing="exact"))
    want = np.array([[0.3 * (0.2 * 0.9 + 0.8 * 0.3), 0.7 * (0.6 * 0.5 + 0.4 * 0.8)],
                     [0.3 * 0.2, 0.7 * 0.6],
                     [0.3, 0.7]])
    np.testing.assert_allclose(got, want, rtol=1e-14)


def _completions(s, tables, unseen, prior, X, cards):
    """``exact`` by its definition: the log of the sum, over every completion of a row's
    missing attributes (those some node holds or reads), of the complete rows' joint."""
    held = sorted({a for node in s.nodes for a in (*node.attributes, *node.parents)})
    out = []
    for row in X.tolist():
        gaps = [a for a in held if row[a] < 0]
        filled = np.array([row] * math.prod(cards[a] for a in gaps), dtype=np.int64)
        for j, combo in enumerate(itertools.product(*(range(cards[a]) for a in gaps))):
            filled[j, gaps] = combo
        jll = joint_log_likelihood(s, tables, filled, prior, unseen=unseen)
        out.append(scipy.special.logsumexp(jll, axis=0))
    return np.asarray(out)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_exact_is_the_sum_over_every_completion_of_the_missing_values(n_classes, monkeypatch):
    # Every node shape (a joined node partly missing among them), values unseen at fit beside
    # missing ones, rows of many missing patterns; in blocks of one row too.
    rng = np.random.default_rng(6)
    cards = [2, 3, 4, 2, 3, 5, 2, 3]
    s, tables, unseen, prior = _random_model(rng, cards, n_classes, MIXED_NODES)
    X = _codes(rng, 80, cards)
    X[rng.random(X.shape) < 0.3] = -1
    want = _completions(s, tables, unseen, prior, X, cards)
    got = joint_log_likelihood(s, tables, X, prior, unseen=unseen, missing="exact")
    # A node whose parent value is unseen is left out, a factor the same for every class:
    # summed over its own missing value it counts once (barren) or once per value, so the
    # joints agree on the rows without unseen values, the posteriors on all.
    known = ((X < np.asarray(cards)) | (X < 0)).all(axis=1)
    assert 20 < known.sum() < len(X)
    np.testing.assert_allclose(got[known], want[known], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(log_posterior(got), log_posterior(want), rtol=0, atol=1e-12)
    monkeypatch.setattr(marginal, "_BLOCK_CELLS", 1)
    np.testing.assert_allclose(joint_log_likelihood(s, tables, X, prior, unseen=unseen,
                                                    missing="exact"), got, rtol=0, atol=1e-13)


def test_exact_is_skip_to_the_bit_where_they_are_the_same_marginal():
    # Complete rows; naive Bayes (every node a leaf); and a zero probability (alpha = 0) that
    # makes a class impossible: -inf, never NaN.
    rng = np.random.default_rng(7)
    cards = [2, 3, 4, 2, 3, 5, 2, 3]
    s, tables, unseen, prior = _random_model(rng, cards, 3, MIXED_NODES)
    X = _codes(rng, 200, cards)
    complete = np.where(X < 0, 0, X)
    np.testing.assert_array_equal(
        joint_log_likelihood(s, tables, complete, prior, unseen=unseen, missing="exact"),
        joint_log_likelihood(s, tables, complete, prior, unseen=unseen))
    naive, nb_tables, nb_unseen, _ = _random_model(rng, cards, 3, [Node((a,)) for a in range(8)])
    np.testing.assert_array_equal(
        joint_log_likelihood(naive, nb_tables, X, prior, unseen=nb_unseen, missing="exact"),
        joint_log_likelihood(naive, nb_tables, X, prior, unseen=nb_unseen))
    tables[1][0] = -np.inf  # p(x1 | x0, class 0) = 0 everywhere: class 0 impossible
    got = joint_log_likelihood(s, tables, np.full((1, 8), -1) + np.eye(8, dtype=int)[1] * 1,
                               prior, unseen=unseen, missing="exact")
    assert np.isneginf(got[0, 0]) and np.isfinite(got[0, 1:]).all()
    with pytest.raises(ClassifierError, match="no network"):
        joint_log_likelihood(s, tables, X, prior, node_weights=[1.0] * 6, missing="exact")
