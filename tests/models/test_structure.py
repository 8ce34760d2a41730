"""The discrete core: Structure, counting, inference, input checks, information measures.

References are straightforward loops written here, independent of the
vectorised code under test.
"""
import itertools
import math

import numpy as np
import pandas as pd
import pytest

from bayesbench.errors import ClassifierError
from bayesbench.models.input import check_discrete_X
from bayesbench.models.counting import (class_log_prior, counts, joint_index, log_table,
                                        node_tables)
from bayesbench.models.inference import joint_log_likelihood
from bayesbench.models.information import (conditional_mutual_information_matrix,
                                           ddr_information_matrix,
                                           mutual_information_with_class)
from bayesbench.models.structure import Node, Structure


def random_codes(rng, n, cards, missing=0.0):
    X = np.column_stack([rng.integers(0, c, n) for c in cards])
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X


# ------------------------------------------------------------------ structure
def test_structure_rejects_invalid_graphs():
    with pytest.raises(ClassifierError, match="nodes 0 and 1"):
        Structure((Node((0,)), Node((0, 1))), 2)
    with pytest.raises(ClassifierError, match="outside"):
        Structure((Node((3,)),), 2)
    with pytest.raises(ClassifierError, match="in no node"):
        Structure((Node((0,), (1,)),), 2)
    with pytest.raises(ClassifierError, match="own attributes"):
        Structure((Node((0, 1), (1,)),), 2)
    with pytest.raises(ClassifierError, match="cycle"):
        Structure((Node((0,), (1,)), Node((1,), (0,))), 2)


def test_structure_queries_and_exports():
    s = Structure((Node((0,)), Node((1, 2), (0,)), Node((4,), (1, 2))), 5,
                  attribute_names=("a", "b", "c", "d", "e"))
    assert s.dropped == (3,)
    assert s.arcs() == [(0, 1), (0, 2), (1, 4), (2, 4)]
    assert s.edges() == [("class", "a"), ("class", "b+c"), ("class", "e"),
                         ("a", "b+c"), ("b+c", "e")]
    dot = s.to_dot()
    assert dot.startswith('digraph "anb" {') and dot.rstrip().endswith("}")
    assert '"b+c" [shape=box];' in dot and '"a" -> "b+c";' in dot
    assert dot.count("->") == 5
    assert s.summary() == "3 nodes; 1 joined (b+c); 4 arcs; 1 dropped (d): a->b+c, b+c->e"
    text = str(s).splitlines()
    assert text[1:] == ["  a <- class", "  b+c <- class, a", "  e <- class, b+c",
                        "  dropped: d"]


def test_from_parents_and_naive():
    s = Structure.from_parents([None, 0, (0, 1), 1])
    assert [n.parents for n in s.nodes] == [(), (0,), (0, 1), (1,)]
    assert Structure.naive(3, attributes=[2, 0]).dropped == (1,)


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


def test_node_tables_are_normalised():
    rng = np.random.default_rng(3)
    cards = [3, 2, 4]
    X = random_codes(rng, 100, cards)
    y = rng.integers(0, 2, 100)
    s = Structure((Node((0, 1)), Node((2,), (0, 1))), 3)
    for t in node_tables(s, X, y, cards, 2, alpha=0.5):
        np.testing.assert_allclose(np.exp(t).sum(axis=-1), 1.0)


# ---------------------------------------------------------------- input checks
def test_check_discrete_X_accepts_codes_and_categoricals():
    X, cards = check_discrete_X(np.array([[0, 2], [1, -1]]))
    np.testing.assert_array_equal(cards, [2, 3])
    df = pd.DataFrame({"a": pd.Categorical(["x", None, "z"], categories=["x", "y", "z"]),
                       "b": [0, 1, 0]})
    X, cards = check_discrete_X(df)
    np.testing.assert_array_equal(X, [[0, 0], [-1, 1], [2, 0]])
    np.testing.assert_array_equal(cards, [3, 2])
    X, cards = check_discrete_X(np.array([[0, 1]]), cardinalities=[4, 5])
    np.testing.assert_array_equal(cards, [4, 5])


@pytest.mark.parametrize("X, cards, match", [
    (np.array([[0.5, 1.0]]), None, "non-integer"),
    (np.array([[0, -2]]), None, "below -1"),
    (np.array([[0, 3]]), [2, 3], "cardinality is 3"),
    (np.array([[0, 1]]), [2], "1 cardinalities given for 2"),
    (np.array([0, 1]), None, "two-dimensional"),
    (pd.DataFrame({"a": [0.5, 1.5]}), None, "discretize"),
])
def test_check_discrete_X_errors(X, cards, match):
    with pytest.raises(ClassifierError, match=match):
        check_discrete_X(X, cards)


# ------------------------------------------------------------------ information
def cmi_loop(x1, x2, y):
    keep = (x1 >= 0) & (x2 >= 0)
    x1, x2, y = x1[keep], x2[keep], y[keep]
    n = len(y)
    total = 0.0
    for c in set(y):
        for a in set(x1):
            for b in set(x2):
                n_cab = np.sum((y == c) & (x1 == a) & (x2 == b))
                if n_cab == 0:
                    continue
                n_c = np.sum(y == c)
                n_ca = np.sum((y == c) & (x1 == a))
                n_cb = np.sum((y == c) & (x2 == b))
                total += n_cab / n * math.log(n_cab * n_c / (n_ca * n_cb))
    return total


def test_cmi_matrix_matches_a_loop():
    rng = np.random.default_rng(4)
    cards = [2, 3, 3, 4]
    X = random_codes(rng, 250, cards, missing=0.05)
    X[:, 1] = np.where(X[:, 0] >= 0, (X[:, 0] + rng.integers(0, 2, 250)) % 3, X[:, 1])
    y = rng.integers(0, 3, 250)
    got = conditional_mutual_information_matrix(X, y, cards, 3)
    for i, j in itertools.combinations(range(4), 2):
        assert got[i, j] == pytest.approx(cmi_loop(X[:, i], X[:, j], y), abs=1e-12)
        assert got[j, i] == got[i, j]
    assert np.all(np.diag(got) == 0)
    mi = mutual_information_with_class(X, y, cards, 3)
    for j in range(4):
        assert mi[j] == pytest.approx(cmi_loop(X[:, j], y, np.zeros_like(y)), abs=1e-12)


def test_ddr_information_two_classes_is_half_of_eq17():
    rng = np.random.default_rng(5)
    cards = [2, 3, 2]
    X = random_codes(rng, 300, cards)
    y = rng.integers(0, 2, 300)
    alpha = 1.0
    got = ddr_information_matrix(X, y, cards, 2, alpha)
    for i, j in itertools.combinations(range(3), 2):
        ri, rj = cards[i], cards[j]
        eq17 = 0.0
        for a in range(ri):
            for b in range(rj):
                p_ab = np.mean((X[:, i] == a) & (X[:, j] == b))
                lds = []
                for c in (0, 1):
                    n_c = np.sum(y == c)
                    def pj(a_, b_):
                        return (np.sum((y == c) & (X[:, i] == a_) & (X[:, j] == b_)) + alpha) / (
                            n_c + alpha * ri * rj)
                    p_a = sum(pj(a, bb) for bb in range(rj))
                    p_b = sum(pj(aa, b) for aa in range(ri))
                    # ln p(a | b, c) / p(a | c)
                    lds.append(math.log(pj(a, b) / p_b / p_a))
                eq17 += p_ab * (lds[0] - lds[1]) ** 2
        assert got[i, j] == pytest.approx(eq17 / 2, rel=1e-10)
