"""Value tokens, alike in every reader: numbers as Python's float reads them, nan missing."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from bayesbench.data.tokens import NAN_SPELLINGS, Factorized, is_nan, numbers, sorted_categories


def reference(text):
    """Python's float on ASCII text without digit separators; None when it refuses."""
    if not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def test_spellings_of_nan_and_inf():
    assert len(NAN_SPELLINGS) == 24 and all(is_nan(t) for t in NAN_SPELLINGS)
    assert not is_nan("nana") and not is_nan("inf")
    values, bad = numbers(["inf", "-Infinity", "NaN", "nan", "1e3", "?", None, "1_0", "\u0661"])
    assert values[0] == math.inf and values[1] == -math.inf and values[4] == 1000.0
    assert np.isnan(values[2]) and np.isnan(values[3]) and np.isnan(values[6])
    assert bad.tolist() == [False, False, False, False, False, True, False, True, True]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.eE+-infatyINFATY_", min_size=1, max_size=8))
def test_numbers_read_as_float_does(text):
    values, bad = numbers([text])
    expected = reference(text)
    if is_nan(text):
        assert np.isnan(values[0]) and not bad[0]
    elif expected is None:
        assert bad[0]
    else:
        assert not bad[0] and values[0] == expected


def test_categories_sort_numerically_when_all_are_numbers():
    assert sorted_categories(["10", "9", "-1", "inf"]) == ("-1", "9", "10", "inf")
    assert sorted_categories(["b", "10", "9"]) == ("10", "9", "b")
    assert sorted_categories([]) == ()


def test_factorized_codes_and_first_row():
    f = Factorized.of(["b", None, "a", "b"])
    assert f.uniques.tolist() == ["b", "a"] and f.codes.tolist() == [0, -1, 1, 0]
    assert f.recode(np.array([10, 20]), absent=-1).tolist() == [10, -1, 20, 10]
    assert f.first_row(np.array([False, True])) == 2
    assert f.first_row(np.array([False, False])) is None
