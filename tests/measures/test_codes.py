"""Joint indices against numpy's own, and the bound on a table's size counted without overflow."""
import numpy as np
import pytest

from bayesbench.measures.codes import TableTooLarge, check_table_size, joint_index
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


def test_sizes_beyond_int64_are_counted_exactly():
    # 2^40 values on each of two attributes: the mixed-radix index would overflow int64.
    with pytest.raises(TableTooLarge) as info:
        check_table_size((2 ** 40, 2 ** 40, 2), (3, 4))
    assert f"{2 ** 81:,} cells" in str(info.value)
