"""Sufficient statistics against a direct loop over the rows written here."""
import numpy as np
import pytest

from bayesbench.errors import ClassifierError
from bayesbench.models.counting import TableTooLarge, table_limit
from bayesbench.models.statistics import Statistics, pair_count_matrix
from helpers import random_codes


def loop_pairs(X, y, cards, k):
    """``N(c, s_i + a, s_j + b)`` by visiting every row and every attribute pair."""
    starts = np.concatenate([[0], np.cumsum(cards)[:-1]])
    R = int(sum(cards))
    out = np.zeros((k, R, R), dtype=np.int64)
    for row, c in zip(X, y):
        for i, a in enumerate(row):
            for j, b in enumerate(row):
                if a < 0 or b < 0 or a >= cards[i] or b >= cards[j]:
                    continue
                if i == j and a != b:
                    continue
                out[c, starts[i] + a, starts[j] + b] += 1
    return out


@pytest.fixture
def data():
    rng = np.random.default_rng(11)
    cards = [2, 3, 1, 4, 3]
    X = random_codes(rng, 400, cards, missing=0.1)
    y = rng.integers(0, 3, 400)
    return X, y, cards


def test_pair_counts_match_a_loop(data):
    X, y, cards = data
    got = pair_count_matrix(X, y, cards, 3)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, loop_pairs(X, y, cards, 3))


def test_pair_counts_in_row_blocks_match_a_loop(data, monkeypatch):
    # Blocks of 7 rows: the sum over blocks is the single count.
    import bayesbench.models.statistics as module
    monkeypatch.setattr(module, "_BLOCK_CELLS", 7 * len(data[2]))
    X, y, cards = data
    np.testing.assert_array_equal(pair_count_matrix(X, y, cards, 3), loop_pairs(X, y, cards, 3))


def test_attribute_and_pair_views(data):
    X, y, cards = data
    s = Statistics.from_codes(X, y, cards, 3)
    assert s.class_counts.tolist() == [int(np.sum(y == c)) for c in range(3)]
    assert s.n_rows == 400 and s.n_attributes == 5
    for i, r in enumerate(cards):
        want = [[int(np.sum((y == c) & (X[:, i] == a))) for a in range(r)] for c in range(3)]
        assert s.attribute(i).tolist() == want
    for i, j in [(0, 1), (3, 1), (4, 0), (2, 3)]:
        want = [[[int(np.sum((y == c) & (X[:, i] == a) & (X[:, j] == b)))
                  for b in range(cards[j])] for a in range(cards[i])] for c in range(3)]
        assert s.pair(i, j).tolist() == want


def test_codes_beyond_cardinality_count_as_missing():
    X = np.array([[0, 2], [1, 1], [5, 0]])
    s = Statistics.from_codes(X, np.array([0, 0, 1]), [2, 3], 2)
    assert s.attribute(0).tolist() == [[1, 1], [0, 0]]
    assert s.pair(0, 1)[1].sum() == 0 and s.attribute(1)[1].tolist() == [1, 0, 0]


def test_add_and_subtract_are_exact(data):
    X, y, cards = data
    whole = Statistics.from_codes(X, y, cards, 3)
    part = Statistics.from_codes(X[:123], y[:123], cards, 3)
    rest = Statistics.from_codes(X[123:], y[123:], cards, 3)
    assert whole - part == rest
    assert part + rest == whole
    assert Statistics.empty(cards, 3) + whole == whole
    with pytest.raises(ClassifierError, match="cannot be combined"):
        whole + Statistics.empty([2, 3], 3)


def test_statistics_are_frozen(data):
    X, y, cards = data
    s = Statistics.from_codes(X, y, cards, 3)
    with pytest.raises(ValueError):
        s.pairs[0, 0, 0] = 5
    with pytest.raises(AttributeError):
        s.n_classes = 4


def test_table_size_is_checked_before_counting():
    X = np.zeros((3, 2), dtype=np.int64)
    with table_limit(1000), pytest.raises(TableTooLarge, match="over the limit of 1,000"):
        Statistics.from_codes(X, np.zeros(3, dtype=np.int64), [30, 30], 2)


def test_mismatched_input_is_refused():
    with pytest.raises(ClassifierError, match="class codes must lie in 0..1"):
        Statistics.from_codes(np.zeros((2, 1), dtype=int), np.array([0, 2]), [1], 2)
    with pytest.raises(ClassifierError, match="does not match"):
        Statistics.from_codes(np.zeros((2, 1), dtype=int), np.array([0, 1]), [1, 2], 2)
