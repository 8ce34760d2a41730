"""Information measures against loops over the counts written here."""
import itertools
import math

import numpy as np
import pytest

from bayesbench.measures import information
from bayesbench.measures.information import (cmi_from_counts, cmi_from_counts_many,
                                           conditional_mutual_information_matrix,
                                           ddr_information_matrix,
                                           mutual_information_with_class, pair_count_matrix,
                                           pair_counts, value_offsets)
from helpers import random_codes


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


@pytest.mark.parametrize("budget, width", [(None, 8), (300, 8), (None, 0)])
def test_pair_counts_match_a_loop(monkeypatch, budget, width):
    # Gram matrices in one block, in many tiny blocks, and one bincount per pair.
    monkeypatch.setattr(information, "GRAM_MAX_WIDTH", width)
    if budget is not None:
        # A few hundred bytes: one attribute per block of counts, a few rows per product.
        monkeypatch.setattr(information, "_GRAM_BYTES", budget)
    rng = np.random.default_rng(9)
    cards = [2, 3, 1, 4, 3]
    X = random_codes(rng, 200, cards, missing=0.1)
    X[rng.random(X.shape) < 0.05] = 7          # unknown codes are left out like missing ones
    y = rng.integers(0, 3, 200)
    y[y == 1] = 2                               # a class without rows
    got = list(pair_counts(X, y, cards, 3))
    assert [(i, j) for i, j, _ in got] == list(itertools.combinations(range(5), 2))
    for i, j, n in got:
        assert n.shape == (3, cards[i], cards[j]) and n.dtype == np.float64
        for c, a, b in itertools.product(range(3), range(cards[i]), range(cards[j])):
            assert n[c, a, b] == np.sum((y == c) & (X[:, i] == a) & (X[:, j] == b))
    # All pairs as one matrix, each attribute with itself included.
    matrix = pair_count_matrix(X, y, cards, 3)
    s = value_offsets(cards)
    assert matrix.shape == (3, sum(cards), sum(cards)) and s[-1] == sum(cards)
    for i, j in itertools.product(range(5), repeat=2):
        for c, a, b in itertools.product(range(3), range(cards[i]), range(cards[j])):
            want = np.sum((y == c) & (X[:, i] == a) & (X[:, j] == b))
            assert matrix[c, s[i] + a, s[j] + b] == want


def test_cmi_of_many_tables_equals_one_at_a_time_to_the_last_bit():
    rng = np.random.default_rng(8)
    shapes = [(2, 3, 3), (3, 2, 4), (2, 3, 3), (1, 5, 2), (3, 9, 9), (2, 3, 3)]
    tables = [rng.integers(0, 4, s).astype(np.float64) for s in shapes]
    tables.append(np.zeros((2, 2, 2)))
    tables[1][0] = 0                                   # an empty stratum
    got = cmi_from_counts_many(tables)
    assert got == [cmi_from_counts(t) for t in tables]
    for t, value in zip(tables, got):
        c, a, b = np.nonzero(t >= 0)
        rows = np.repeat(np.arange(c.size), t[c, a, b].astype(int))
        if rows.size:
            assert value == pytest.approx(cmi_loop(a[rows], b[rows], c[rows]), abs=1e-12)


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
