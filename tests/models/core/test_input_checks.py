"""Input checks: codes, categorical frames whose categories differ between fit and predict,
code types, targets and cardinalities, as a researcher meets them through the learners."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bayesbench
from bayesbench.errors import ClassifierError
from bayesbench.models.core.input_checks import check_discrete_X

DATAFRAME_LEARNERS = ["nb", "map", "tan", "aode"]


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


def weather_frame(rng, n=80):
    colour = rng.choice(["red", "green", "blue"], n)
    size = rng.choice(["s", "l"], n)
    y = np.where(colour == "red", "hot", np.where(size == "s", "mild", "cold"))
    frame = pd.DataFrame({"colour": pd.Categorical(colour, categories=["red", "green", "blue"]),
                          "size": pd.Categorical(size, categories=["s", "l"])})
    return frame, y


@pytest.mark.parametrize("name", DATAFRAME_LEARNERS)
def test_predict_reads_values_not_the_predict_frames_own_category_codes(name):
    frame, y = weather_frame(np.random.default_rng(0))
    model = bayesbench.make_classifier(name).fit(frame, y)
    values = {"colour": ["red", "green", "blue", None], "size": ["s", "s", "l", "s"]}
    same = pd.DataFrame({"colour": pd.Categorical(values["colour"],
                                                  categories=["red", "green", "blue"]),
                         "size": pd.Categorical(values["size"], categories=["s", "l"])})
    # The same values, but categories listed in another order (or only those present),
    # as when a test frame is built on its own: its codes mean different values.
    reordered = pd.DataFrame({"colour": pd.Categorical(values["colour"],
                                                       categories=["blue", "red", "green"]),
                              "size": pd.Categorical(values["size"])})
    as_strings = pd.DataFrame({"colour": pd.Series(values["colour"], dtype=object),
                               "size": pd.Series(values["size"], dtype=object)})
    expected = model.predict_proba(same)
    np.testing.assert_allclose(model.predict_proba(reordered), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(model.predict_proba(as_strings), expected, rtol=0, atol=1e-12)
    assert list(model.predict(reordered)[:3]) == ["hot", "mild", "cold"]


@pytest.mark.parametrize("name", DATAFRAME_LEARNERS)
def test_a_category_unknown_at_fit_is_an_unseen_value_not_another_category(name):
    frame, y = weather_frame(np.random.default_rng(1))
    model = bayesbench.make_classifier(name).fit(frame, y)
    # "purple" has code 0 in the predict frame, the code of "red" at fit.
    unknown = pd.DataFrame({"colour": pd.Categorical(["purple", "purple"]),
                            "size": pd.Categorical(["s", "l"], categories=["s", "l"])})
    beyond = np.array([[3, 0], [3, 1]])   # a code past the fitted cardinality of colour
    np.testing.assert_allclose(model.predict_proba(unknown), model.predict_proba(beyond),
                               rtol=0, atol=1e-12)
    red = np.array([[0, 0], [0, 1]])
    assert not np.allclose(model.predict_proba(unknown), model.predict_proba(red))


def test_nullable_integer_and_boolean_columns_are_codes_with_na_missing():
    y = np.array([0, 1, 1, 0, 1, 0])
    frame = pd.DataFrame({"a": pd.array([0, 1, None, 0, 1, 0], dtype="Int64"),
                          "b": [True, True, False, False, True, False],
                          "c": pd.array([True, None, False, False, True, False], dtype="boolean")})
    codes = np.array([[0, 1, 1], [1, 1, -1], [-1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 0, 0]])
    model = bayesbench.make_classifier("nb").fit(frame, y)
    reference = bayesbench.make_classifier("nb").fit(codes, y)
    np.testing.assert_allclose(model.predict_proba(frame), reference.predict_proba(codes),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["nb", "map", "aode", "gnb"])
@pytest.mark.parametrize("y, n_classes, words", [
    (np.array([0.5, 1.0, 0.0, 1.0]), 2, "integer class codes"),   # was truncated to 0
    (np.array(["a", "b", "a", "b"]), 2, "integer class codes"),
    (np.array([0, 1, 0, 1]), "2", "n_classes"),
    (np.array([0.0, 1.0, np.nan, 1.0]), None, "missing class at row 2"),  # was a class "nan"
    (np.array(["a", None, "a", "b"], dtype=object), None, "missing class at row 1"),
    (np.array([0.0, 1.0, 1.0, np.inf]), None, "infinite class value at row 3"),
])
def test_a_bad_target_is_a_clear_error(name, y, n_classes, words):
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1]])
    model = bayesbench.make_classifier(name)
    with pytest.raises(ClassifierError, match=words):
        if model.input_kind == "discrete":
            model.fit(X, y, cardinalities=[2, 2], n_classes=n_classes)
        else:
            model.fit(X + np.arange(8).reshape(4, 2) * 0.1, y, n_classes=n_classes)


def test_integral_float_codes_with_n_classes_are_still_accepted():
    X = np.array([[0], [1], [0], [1]])
    model = bayesbench.make_classifier("nb").fit(X, np.array([0.0, 2.0, 0.0, 2.0]),
                                                 cardinalities=[2], n_classes=3)
    assert model.class_count_.tolist() == [2.0, 0.0, 2.0]


@pytest.mark.parametrize("name", [n for n in bayesbench.list_classifiers()
                                  if bayesbench.models.registry.classifier_class(n).input_kind
                                  == "discrete"])
def test_every_discrete_learner_refuses_zero_rows(name):
    # MAP used to fit an empty table (and, without n_classes, no class at all).
    with pytest.raises(ClassifierError, match="zero rows"):
        bayesbench.make_classifier(name).fit(np.zeros((0, 2), dtype=np.int64),
                                             np.zeros(0, dtype=np.int64),
                                             cardinalities=[2, 2], n_classes=2)


@pytest.mark.parametrize("name", ["nb", "tan", "map", "aode"])
def test_nan_in_a_float_array_is_a_missing_value(name):
    # The estimator tags tell scikit-learn that NaN is allowed; it used to raise.
    rng = np.random.default_rng(5)
    codes = rng.integers(-1, 3, (40, 3))
    y = rng.integers(0, 2, 40)
    floats = np.where(codes < 0, np.nan, codes).astype(np.float64)
    on_codes = bayesbench.make_classifier(name).fit(codes, y, cardinalities=[3, 3, 3], n_classes=2)
    on_floats = bayesbench.make_classifier(name).fit(floats, y, cardinalities=[3, 3, 3], n_classes=2)
    np.testing.assert_allclose(on_floats.predict_proba(floats), on_codes.predict_proba(codes),
                               rtol=0, atol=1e-12)
    with pytest.raises(ClassifierError, match="non-integer"):
        on_codes.predict(floats + 0.5)


def test_a_frame_of_integer_codes_keeps_no_categories():
    # The runner's frames: predict reads them as codes, with no per-call recoding.
    frame = pd.DataFrame({"a": [0, 1, 1, 0], "b": [1, 1, 0, 0]})
    model = bayesbench.make_classifier("nb").fit(frame, [0, 1, 1, 0], cardinalities=[2, 2], n_classes=2)
    assert model.categories_ is None


@pytest.mark.parametrize("name", DATAFRAME_LEARNERS)
def test_a_frame_with_other_columns_than_at_fit_is_refused_not_read_by_position(name):
    frame, y = weather_frame(np.random.default_rng(4))
    model = bayesbench.make_classifier(name).fit(frame, y)
    assert list(model.feature_names_in_) == ["colour", "size"]
    with pytest.raises(ClassifierError, match=r"columns differ.*\['size', 'colour'\]"):
        model.predict(frame[["size", "colour"]])
    # An array is read by position, as always; a refit on one forgets the names.
    codes = np.column_stack([frame["colour"].cat.codes, frame["size"].cat.codes])
    np.testing.assert_array_equal(model.predict(codes), model.predict(frame))
    model.fit(codes, y)
    assert not hasattr(model, "feature_names_in_")
    model.predict(frame[["size", "colour"]])


@pytest.mark.parametrize("cards", [[2.5, 3], [2, None], ["a", 2]])
def test_non_integer_cardinalities_are_an_error_not_truncated(cards):
    X = np.array([[0, 1], [1, 2], [1, 0]])
    with pytest.raises(ClassifierError, match="cardinalities must be integers"):
        bayesbench.make_classifier("nb").fit(X, [0, 1, 1], cardinalities=cards, n_classes=2)
    # Integral floats (as read from a JSON config) are fine.
    bayesbench.make_classifier("nb").fit(X, [0, 1, 1], cardinalities=[2.0, 3.0], n_classes=2)


def test_an_int8_code_127_is_checked_against_its_cardinality_not_wrapped():
    # 127 + 1 in int8 wraps to -128: the check would miss the code beyond the cardinality.
    X = np.array([[127], [0]], dtype=np.int8)
    np.testing.assert_array_equal(check_discrete_X(X)[1], [128])
    with pytest.raises(ClassifierError, match="holds code 127 but its cardinality is 100"):
        check_discrete_X(X, cardinalities=[100])


def test_a_frame_of_compact_codes_is_not_widened_to_int64():
    frame = pd.DataFrame({"a": pd.Categorical(["x", None, "z"], categories=["x", "y", "z"]),
                          "b": np.array([0, 1, 0], dtype=np.int8)})
    X, _ = check_discrete_X(frame)
    assert X.dtype == np.int8 and X.flags.f_contiguous
    np.testing.assert_array_equal(X, [[0, 0], [-1, 1], [2, 0]])
    # Unsigned 64-bit beside signed columns: no common integer type but int64, not floats.
    X, _ = check_discrete_X(pd.DataFrame({"u": np.array([1, 2], dtype=np.uint64),
                                          "s": np.array([0, -1], dtype=np.int8)}))
    assert X.dtype == np.int64
    np.testing.assert_array_equal(X, [[1, 0], [2, -1]])


@pytest.mark.parametrize("name", ["nb", "tan", "stan", "bsej", "kdb", "aode", "map", "gnb"])
def test_feature_names_name_an_arrays_columns_as_a_dataframes_would(name):
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (120, 4)).astype(np.int8, order="F")
    y = (X[:, 0] + X[:, 1] > 2).astype(int) if name != "gnb" else np.arange(120) % 2
    names = ["w", "x", "y", "z"]
    if name == "gnb":
        X = X + rng.random(X.shape)
    from_frame = bayesbench.make_classifier(name).fit(pd.DataFrame(X, columns=names), y)
    from_array = bayesbench.make_classifier(name).fit(X, y, feature_names=names)
    assert list(from_array.feature_names_in_) == list(from_frame.feature_names_in_) == names
    np.testing.assert_array_equal(from_array.predict_proba(X),
                                  from_frame.predict_proba(pd.DataFrame(X, columns=names)))
    if hasattr(from_frame, "structure_"):
        assert from_array.structure_.names() == from_frame.structure_.names()
        assert from_array.structure_.summary() == from_frame.structure_.summary()
    # Without them an array fit keeps no names (scikit-learn's convention).
    assert not hasattr(bayesbench.make_classifier(name).fit(X, y), "feature_names_in_")


def test_feature_names_must_match_the_columns():
    X, y = np.array([[0, 1], [1, 0]]), np.array([0, 1])
    with pytest.raises(ClassifierError, match="3 feature_names given for 2 attributes"):
        bayesbench.make_classifier("nb").fit(X, y, feature_names=["a", "b", "c"])
    with pytest.raises(ClassifierError, match="differ from the DataFrame's columns"):
        bayesbench.make_classifier("nb").fit(pd.DataFrame(X, columns=["a", "b"]), y,
                                             feature_names=["b", "a"])


# ------------------------------------------- codes that wrap or crash (issue 25, class 5)
DISCRETE_LEARNERS = [n for n in bayesbench.list_classifiers()
                     if bayesbench.models.registry.classifier_class(n).input_kind == "discrete"]
INT64_MAX = np.iinfo(np.int64).max
SMALL_X = np.array([[0, 1, 0], [1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]] * 2)
SMALL_Y = np.array([0, 1, 0, 1, 1, 0] * 2)
# a code at or over the table limit (2^25 cells): int64's largest (whose + 1 wraps),
# unsigned 64-bit beyond int64, and floats beyond int64 (a cast wraps 1e19 below -1)
huge_codes = st.one_of(
    st.integers(2 ** 25, INT64_MAX).map(lambda c: np.int64(c)),
    st.integers(2 ** 25, 2 ** 64 - 1).map(lambda c: np.uint64(c)),
    st.floats(2.0 ** 25, 1e300).map(lambda c: np.float64(np.floor(c))))


@pytest.mark.parametrize("name", DISCRETE_LEARNERS)
@settings(max_examples=8, deadline=None, derandomize=True, database=None)
@given(code=huge_codes, row=st.integers(0, 11), column=st.integers(0, 2))
def test_a_code_over_the_table_limit_is_refused_in_one_line_by_every_learner(name, code,
                                                                            row, column):
    """Through the Python API: no learner fits a wrapped cardinality of 1 (nb, tan, kdb,
    aode, map, ddr_tan did), raises numpy's errors (fss, ...) or dies of a double free (asb)."""
    X = SMALL_X.astype(np.asarray(code).dtype)
    X[row, column] = code
    with pytest.raises(ClassifierError) as caught:
        bayesbench.make_classifier(name).fit(X, SMALL_Y)
    message = str(caught.value)
    assert "\n" not in message and "over the limit of 33,554,432" in message
    assert f"at positions {column}" in message
    assert f"{int(code) + 1:,} cells" in message  # the code as given, not wrapped


@pytest.mark.parametrize("name", DISCRETE_LEARNERS)
def test_unsigned_codes_fit_as_the_same_signed_codes(name):
    def seeded():  # the searches' inner folds are dealt at random
        model = bayesbench.make_classifier(name)
        return model.set_params(random_state=0) if "random_state" in model.get_params() else model

    signed = seeded().fit(SMALL_X, SMALL_Y)
    unsigned = seeded().fit(SMALL_X.astype(np.uint64), SMALL_Y.astype(np.uint64))
    np.testing.assert_array_equal(unsigned.predict_proba(SMALL_X.astype(np.uint64)),
                                  signed.predict_proba(SMALL_X))
    np.testing.assert_array_equal(signed.cardinalities_, [2, 2, 2])


@pytest.mark.parametrize("name", DISCRETE_LEARNERS + ["gnb"])
def test_labels_of_mixed_types_and_huge_class_counts_are_one_line_errors(name):
    model = bayesbench.make_classifier(name)
    X = SMALL_X if model.input_kind == "discrete" else SMALL_X + 0.1 * np.arange(36).reshape(12, 3)
    with pytest.raises(ClassifierError, match=r"^y mixes labels of types int, str; give"):
        model.fit(X, np.array([1, "a"] * 6, dtype=object))
    # 10^10 classes would allocate 74.5 GiB before anything else: refused first
    with pytest.raises(ClassifierError, match=r"^n_classes 10,000,000,000 is over the limit"):
        model.fit(X, SMALL_Y, n_classes=10 ** 10)


def test_a_cardinality_over_the_limit_is_refused_before_tables_are_sized():
    with pytest.raises(ClassifierError, match=r"at positions 1 would have 18,446,744,073,709,551,615"):
        check_discrete_X(SMALL_X, np.array([2, 2 ** 64 - 1, 2], dtype=np.uint64))
