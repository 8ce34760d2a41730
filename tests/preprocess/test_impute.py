"""Imputation: fitted on training data only, checked against pandas and by counting draws."""
import numpy as np
import pytest

from bayesbench.data import MISSING, Attribute, Dataset, load_dataset
from bayesbench.errors import DataError, PreprocessError
from bayesbench.preprocess.impute import STRATEGIES, Imputer


def small():
    atts = [Attribute("x", "numeric"), Attribute("c", "nominal", ("a", "b", "z"))]
    target = Attribute("cls", "nominal", ("p", "q"))
    x = np.array([1.0, np.nan, 3.0, 8.0, np.nan, 0.0])
    c = np.array([0, 1, 1, MISSING, 1, MISSING])
    return Dataset("small", atts, [x, c], target, [0, 1, 0, 1, 0, 1])


def test_mean_mode_uses_training_statistics(uci_dir):
    ds = load_dataset(uci_dir / "imports-85.arff")
    train, test = ds.take(np.arange(0, 150)), ds.take(np.arange(150, ds.n_rows))
    imp = Imputer("mean_mode").fit(train)
    out = imp.transform(test)
    assert not out.missing_mask().any()
    frame = train.to_frame()
    for att, before, after in zip(test.attributes, test.columns, out.columns):
        if att.is_nominal:
            holes = before == MISSING
            mode = frame[att.name].value_counts(sort=False).idxmax()
            assert all(att.categories[v] == mode for v in after[holes])
        else:
            holes = np.isnan(before)
            np.testing.assert_allclose(after[holes], frame[att.name].mean())
        np.testing.assert_array_equal(after[~holes], before[~holes])


def test_mode_ties_go_to_the_lowest_code_and_unseen_columns_are_kept():
    ds = small()
    imp = Imputer().fit(ds)
    assert imp.fill_ == {"x": 3.0, "c": 1}
    out = imp.transform(ds)
    np.testing.assert_array_equal(out.columns[0], [1, 3, 3, 8, 3, 0])
    assert out.columns[1].tolist() == [0, 1, 1, 1, 1, 1]
    assert out.y.tolist() == ds.y.tolist()
    assert ds.columns[1].tolist() == [0, 1, 1, MISSING, 1, MISSING]  # input untouched


def test_weighted_random_follows_the_observed_distribution_and_the_seed():
    n = 20000
    col = np.full(n, MISSING)
    col[:4000] = 0  # observed: 3000 x 'a' (0.75), 1000 x 'b' (0.25), 0 x 'z'
    col[3000:4000] = 1
    atts = [Attribute("c", "nominal", ("a", "b", "z")), Attribute("x", "numeric")]
    x = np.where(np.arange(n) % 2 == 0, np.nan, 2.0)
    ds = Dataset("w", atts, [col, x], Attribute("y", "nominal", ("p", "q")), np.arange(n) % 2)
    imp = Imputer("weighted_random").fit(ds)
    np.testing.assert_allclose(imp.distributions_["c"], [0.75, 0.25, 0.0])
    a = imp.transform(ds, rng=np.random.default_rng(5))
    b = imp.transform(ds, rng=np.random.default_rng(5))
    np.testing.assert_array_equal(a.columns[0], b.columns[0])
    drawn = a.columns[0][4000:]
    counts = np.bincount(drawn, minlength=3)
    assert counts[2] == 0
    # 16000 draws with p = 0.75: the binomial sd is 55, allow 5 sd
    assert abs(counts[0] - 12000) < 5 * np.sqrt(16000 * 0.75 * 0.25)
    np.testing.assert_array_equal(a.columns[1], 2.0)  # numeric: the mean
    c = imp.transform(ds, rng=np.random.default_rng(6))
    assert not np.array_equal(a.columns[0], c.columns[0])
    with pytest.raises(TypeError, match="Generator"):
        imp.transform(ds)


def test_drop_removes_incomplete_rows_like_pandas_dropna(uci_dir):
    ds = load_dataset(uci_dir / "breast-cancer-wisconsin.arff")
    out = Imputer("drop").fit(ds).transform(ds)
    assert out.n_rows == 683 == len(ds.to_frame().dropna())
    assert "dropped 16 rows with missing values" in out.notes


def test_none_keeps_missing_values():
    ds = small()
    out = Imputer("none").fit(ds).transform(ds)
    assert out.missing_mask().sum() == 4


def test_errors():
    ds = small()
    with pytest.raises(PreprocessError, match="strategy"):
        Imputer("median").fit(ds)
    only_missing = ds.take(np.array([1, 4]))
    with pytest.raises(DataError, match="'x'"):
        Imputer().fit(only_missing)
    imp = Imputer().fit(ds.select(["x"]))
    with pytest.raises(DataError, match="differ"):
        imp.transform(ds)


def test_strategy_list_and_its_error_in_domain_words():
    assert STRATEGIES == ("mean_mode", "weighted_random", "drop", "none")
    with pytest.raises(PreprocessError) as err:
        Imputer("median").fit(small())
    assert str(err.value) == ("unknown imputation strategy 'median'; expected one of "
                              "mean_mode, weighted_random, drop, none")


def test_an_infinite_training_mean_is_not_used_as_a_fill():
    ds = small()
    ds.columns[0][0] = np.inf
    imp = Imputer().fit(ds)
    with pytest.raises(PreprocessError, match="attribute 'x'.*infinit"):
        imp.transform(ds)
    # a column without missing values needs no fill: infinities pass through
    complete = ds.take(np.array([0, 2, 3]))
    np.testing.assert_array_equal(Imputer().fit(complete).transform(complete).columns[0],
                                  [np.inf, 3.0, 8.0])
