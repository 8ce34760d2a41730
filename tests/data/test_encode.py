"""A data set encoded as each input kind: pandas' own encodings are the reference."""
import numpy as np
import pandas as pd
import pytest

from bayesbench.data import Attribute, Dataset
from bayesbench.data.encode import INPUT_KINDS, encode, feature_names, used_attributes
from bayesbench.errors import BayesbenchError, DataError


@pytest.fixture
def mixed():
    # A declared category ("green") that no row holds, a missing nominal value and a NaN.
    return Dataset("mixed", [Attribute("colour", "nominal", ("red", "blue", "green")),
                             Attribute("size", "numeric"),
                             Attribute("shape", "nominal", ("round", "square"))],
                   [np.array([0, 1, -1, 0]), np.array([1.5, np.nan, 3.0, 4.0]),
                    np.array([1, 0, 0, 1])],
                   Attribute("class", "nominal", ("a", "b")), np.array([0, 1, 0, 1]))


def test_onehot_is_pandas_get_dummies_over_the_declared_categories(mixed):
    frame = mixed.to_frame().drop(columns="class")
    expected = pd.get_dummies(frame, prefix_sep="=", dtype=float)
    # get_dummies puts numeric columns first; ours keep the attribute order.
    expected = expected[feature_names(mixed, "onehot")]
    assert list(expected.columns) == ["colour=red", "colour=blue", "colour=green", "size",
                                      "shape=round", "shape=square"]
    np.testing.assert_array_equal(encode(mixed, "onehot"), expected.to_numpy())


def test_frame_has_declared_categories_and_missing_values(mixed):
    frame = encode(mixed, "frame")
    pd.testing.assert_frame_equal(frame, mixed.to_frame().drop(columns="class"))
    assert list(frame["colour"].cat.categories) == ["red", "blue", "green"]
    assert frame["colour"].isna().tolist() == [False, False, True, False]


def test_numeric_and_codes(mixed):
    np.testing.assert_array_equal(encode(mixed, "numeric"), [[1.5], [np.nan], [3.0], [4.0]])
    assert used_attributes(mixed, "numeric") == ["size"]
    assert used_attributes(mixed, "onehot") == ["colour", "size", "shape"]
    with pytest.raises(DataError, match="must be discretized first"):
        encode(mixed, "codes")
    nominal = mixed.select(["colour", "shape"])
    np.testing.assert_array_equal(encode(nominal, "codes"), [[0, 1], [1, 0], [-1, 0], [0, 1]])
    with pytest.raises(BayesbenchError, match="no numeric attributes"):
        encode(nominal, "numeric")
    assert set(INPUT_KINDS) == {"codes", "onehot", "numeric", "frame"}
