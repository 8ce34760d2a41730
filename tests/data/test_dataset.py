"""The Dataset's compact codes: the smallest integer type, no silent wrap-around, same models."""
import numpy as np
import pandas as pd
import pytest

from bayesbench.data import Attribute, Dataset, load_dataset
from bayesbench.data.dataset import code_dtype
from bayesbench.models.registry import classifier_class, list_classifiers, make_classifier


def test_code_dtype_is_the_smallest_signed_type_holding_the_codes():
    for cardinality, dtype in [(1, np.int8), (2, np.int8), (128, np.int8), (129, np.int16),
                               (32768, np.int16), (32769, np.int32), (2 ** 31, np.int32),
                               (2 ** 31 + 1, np.int64)]:
        assert code_dtype(cardinality) == dtype, cardinality
        info = np.iinfo(dtype)
        assert info.min <= -1 and cardinality - 1 <= info.max


def test_nominal_columns_and_class_are_stored_compactly(uci_dir):
    ds = load_dataset(uci_dir / "nursery.arff")  # 12960 rows, eight nominal attributes
    assert all(c.dtype == np.int8 for c in ds.columns) and ds.y.dtype == np.int8
    assert sum(c.nbytes for c in ds.columns) == ds.n_rows * ds.n_attributes  # int64: 8 times
    assert ds.codes().dtype == np.int8
    wide = Dataset("w", [Attribute("few", "nominal", ("a", "b")),
                         Attribute("many", "nominal", tuple(f"v{i}" for i in range(300)))],
                   [np.array([0, 1, -1]), np.array([299, -1, 5])],
                   Attribute("c", "nominal", ("p", "q")), [0, 1, 0])
    assert [c.dtype for c in wide.columns] == [np.int8, np.int16]
    assert wide.codes().dtype == np.int16
    np.testing.assert_array_equal(wide.codes(), [[0, 299], [1, -1], [-1, 5]])
    frame = wide.to_frame()
    assert frame["many"].tolist()[0] == "v299" and pd.isna(frame["few"].iloc[2])


@pytest.mark.parametrize("codes", [[0, 1, 200], [0, -2, 1], [0.5, 1, 0]])
def test_a_code_out_of_range_is_refused_not_wrapped(codes):
    # 200 cast to int8 would become -56, a missing value
    with pytest.raises(ValueError, match="'x'"):
        Dataset("bad", [Attribute("x", "nominal", ("a", "b", "c"))], [np.array(codes)],
                Attribute("c", "nominal", ("p", "q")), [0, 1, 0])


def discrete_learners():
    return [n for n in list_classifiers() if classifier_class(n).input_kind == "discrete"]


@pytest.mark.parametrize("name", discrete_learners())
def test_every_discrete_learner_predicts_alike_from_compact_and_int64_codes(uci_dir, name):
    ds = load_dataset(uci_dir / "car.arff").take(np.arange(0, 1728, 6))
    train, test = ds.take(np.arange(0, 200)), ds.take(np.arange(200, ds.n_rows))
    names = train.attribute_names
    cards = train.cardinalities
    out = []
    for dtype in (None, np.int64):
        X_train = pd.DataFrame(train.codes() if dtype is None else train.codes().astype(dtype),
                               columns=names)
        X_test = pd.DataFrame(test.codes() if dtype is None else test.codes().astype(dtype),
                              columns=names)
        y = train.y if dtype is None else train.y.astype(dtype)
        clf = make_classifier(name).fit(X_train, y, cardinalities=cards,
                                        n_classes=train.n_classes)
        out.append(clf.predict_proba(X_test))
    assert train.codes().dtype == np.int8
    np.testing.assert_array_equal(out[0], out[1])


def test_nominal_columns_are_one_column_major_matrix_that_codes_and_take_share(uci_dir):
    ds = load_dataset(uci_dir / "nursery.arff")
    reference = np.stack([np.asarray(c, dtype=np.int64) for c in ds.columns], axis=1)
    X = ds.codes()
    # The learners count and gather column by column: one contiguous column each, no copy.
    assert X.flags.f_contiguous and X.dtype == np.int8 and not X.flags.writeable
    assert all(np.shares_memory(X, c) for c in ds.columns)
    assert X.base is ds.codes().base  # the same matrix on every call
    np.testing.assert_array_equal(X, reference)
    rows = np.random.default_rng(0).permutation(ds.n_rows)[:1000]
    for index in (rows, np.isin(np.arange(ds.n_rows), rows)):
        part = ds.take(index)
        np.testing.assert_array_equal(part.codes(), reference[index])
        np.testing.assert_array_equal(part.y, ds.y[index])
        assert part.codes().flags.f_contiguous and np.shares_memory(part.codes(),
                                                                    part.columns[-1])
    # Writing into the codes a learner is given is refused; the columns stay writable.
    with pytest.raises(ValueError, match="read-only"):
        X[0, 0] = 1
    chosen = ds.select(ds.attribute_names[::-2])
    np.testing.assert_array_equal(chosen.codes(), reference[:, ::-2])
    # Sent to a worker, the matrix arrives whole: its columns are still its columns.
    import pickle
    sent = pickle.loads(pickle.dumps(ds))
    assert sent.codes().flags.f_contiguous and np.shares_memory(sent.codes(), sent.columns[3])
    np.testing.assert_array_equal(sent.codes(), reference)
    assert sent.attributes == ds.attributes and sent.name == ds.name


def test_columns_of_other_types_or_numeric_ones_are_kept_as_given():
    wide = [np.array([0, 1, -1], dtype=np.int8), np.array([299, -1, 5], dtype=np.int16)]
    ds = Dataset("w", [Attribute("few", "nominal", ("a", "b")),
                       Attribute("many", "nominal", tuple(f"v{i}" for i in range(300)))],
                 wide, Attribute("c", "nominal", ("p", "q")), [0, 1, 0])
    assert ds.columns[0] is wide[0] and ds.columns[1] is wide[1]
    assert ds.codes().flags.f_contiguous
    np.testing.assert_array_equal(ds.take([2, 0]).codes(), [[-1, 5], [0, 299]])
    size = np.array([1.5, np.nan, 2.0])
    mixed = Dataset("m", [Attribute("few", "nominal", ("a", "b")), Attribute("s", "numeric")],
                    [wide[0], size], Attribute("c", "nominal", ("p", "q")), [0, 1, 0])
    assert mixed.columns[0] is wide[0]
    np.testing.assert_array_equal(mixed.take([1]).numeric_matrix(), [[np.nan]])
