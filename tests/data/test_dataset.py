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
