"""Joint indices against numpy's own, columns' extremes against numpy's reductions, and the
bound on a table's size counted without overflow."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayesbench.measures.codes import (TableTooLarge, check_table_size, column_extreme,
                                      joint_index)
from helpers import random_codes


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


@pytest.mark.parametrize("rows, columns", [(1, 3), (1023, 8), (1024, 8), (11664, 8), (10001, 7),
                                           (3000, 0), (600, 1), (5, 5000), (20000, 3)])
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64, np.float64])
def test_column_extremes_are_numpys_reductions(rows, columns, dtype):
    rng = np.random.default_rng(rows + columns)
    values = rng.integers(-1, 100, (rows, columns))
    values[rng.integers(0, rows), :] = 120  # one row holds every column's maximum
    values = values.astype(dtype) if dtype != np.uint64 else values.astype(dtype) + 2 ** 63
    for X in (values, np.asfortranarray(values), values[::2] if rows > 1 else values):
        for ufunc in (np.maximum, np.minimum):
            got, want = column_extreme(ufunc, X), ufunc.reduce(X, axis=0)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)


def test_sizes_beyond_int64_are_counted_exactly():
    # 2^40 values on each of two attributes: the mixed-radix index would overflow int64.
    with pytest.raises(TableTooLarge) as info:
        check_table_size((2 ** 40, 2 ** 40, 2), (3, 4))
    assert f"{2 ** 81:,} cells" in str(info.value)


# ----------------------------------- all pairs' tables bounded together (issue 25, class 6)

PAIR_LEARNERS = {"aode": True, "tan": False, "kdb": False}  # all-pairs table square, or summed


@pytest.mark.parametrize("name", sorted(PAIR_LEARNERS))
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(cards=st.lists(st.integers(2, 5), min_size=2, max_size=12), k=st.integers(2, 3),
       limit=st.integers(60, 3000))
def test_the_pairs_tables_are_bounded_in_all_before_they_are_counted(name, cards, k, limit):
    """AODE's all-pairs table and TAN's and kDB's pair weights bypassed max_table_cells: each
    pair's table was checked, never all of them (5,000 binary attributes took 2.5 GB)."""
    import itertools

    import bayesbench
    from bayesbench.measures.codes import table_limit

    rng = np.random.default_rng(len(cards))
    X = np.column_stack([np.arange(40) % c for c in cards])  # every value seen, none missing
    y = rng.integers(0, k, 40)
    y[:k] = np.arange(k)
    by_hand = k * (sum(cards) ** 2 if PAIR_LEARNERS[name] else
                   sum(a * b for a, b in itertools.combinations(cards, 2)))
    try:
        with table_limit(limit):
            bayesbench.make_classifier(name).fit(X, y)
        refused = None
    except bayesbench.errors.ClassifierError as exc:
        refused = str(exc)
    widest = sorted(cards)[-2:]
    if widest[0] * widest[1] * k > limit:  # one pair alone: named by its attributes
        assert refused is not None and refused.startswith("the table of attribute(s) at positions")
    elif by_hand > limit:
        assert refused is not None and refused.startswith(
            f"the tables of all pairs of the {len(cards)} attributes ({sum(cards)} values) "
            f"would have {by_hand:,} cells")
        assert refused.endswith(f"over the limit of {limit:,} (max_table_cells)")
    else:
        assert refused is None or "all pairs" not in refused
