"""Paper 003's attribute noise: a fraction of the attributes shuffled across rows."""
import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.errors import PreprocessError
from bayesbench.preprocess.noise import n_shuffled, shuffle_attributes


def test_how_many_attributes():
    assert n_shuffled(0.1, 4) == 1      # at least one when the fraction is positive
    assert n_shuffled(0.1, 34) == 3
    assert n_shuffled(0.1, 35) == 4     # 3.5 rounds up
    assert n_shuffled(0.0, 34) == 0
    assert n_shuffled(1.0, 9) == 9


def test_shuffled_columns_are_permutations_and_the_rest_is_untouched(uci_dir):
    ds = load_dataset(uci_dir / "ionosphere.arff")
    out = shuffle_attributes(ds, 0.1, np.random.default_rng(3))
    changed = [j for j in range(ds.n_attributes)
               if not np.array_equal(ds.columns[j], out.columns[j])]
    assert 1 <= len(changed) <= 3
    for j in range(ds.n_attributes):
        np.testing.assert_array_equal(np.sort(out.columns[j]), np.sort(ds.columns[j]))
    np.testing.assert_array_equal(out.y, ds.y)
    assert out.notes[-1].startswith("shuffled the values of 3 attributes")


def test_same_seed_same_noise_and_class_link_is_broken(uci_dir):
    ds = load_dataset(uci_dir / "iris.arff")
    a = shuffle_attributes(ds, 1.0, np.random.default_rng(7))
    b = shuffle_attributes(ds, 1.0, np.random.default_rng(7))
    for x, y in zip(a.columns, b.columns):
        np.testing.assert_array_equal(x, y)
    # petal length separates setosa perfectly before shuffling, not after
    petal = ds.columns[2]
    assert petal[ds.y == 0].max() < petal[ds.y != 0].min()
    shuffled = a.columns[2]
    assert shuffled[ds.y == 0].max() > shuffled[ds.y != 0].min()


def test_fraction_is_checked(uci_dir):
    ds = load_dataset(uci_dir / "iris.arff")
    with pytest.raises(PreprocessError, match="fraction") as err:
        shuffle_attributes(ds, 1.5, np.random.default_rng(0))
    assert "noise.fraction" not in str(err.value)
    with pytest.raises(TypeError, match="Generator"):
        shuffle_attributes(ds, 0.5, 0)


def test_shuffle_values_permutes_a_tenth_of_each_attributes_rows(uci_dir):
    from bayesbench.preprocess.noise import shuffle_values

    ds = load_dataset(uci_dir / "iris.arff")
    out = shuffle_values(ds, 0.1, np.random.default_rng(5))
    for j in range(ds.n_attributes):
        before, after = ds.columns[j], out.columns[j]
        # The same values, and at most round(0.1 x 150) = 15 rows of each attribute moved.
        np.testing.assert_array_equal(np.sort(after), np.sort(before))
        assert 0 < np.sum(before != after) <= 15
    np.testing.assert_array_equal(out.y, ds.y)
    assert out.notes[-1] == "shuffled the values of 15 of 150 rows in each attribute"
    again = shuffle_values(ds, 0.1, np.random.default_rng(5))
    for x, y in zip(out.columns, again.columns):
        np.testing.assert_array_equal(x, y)
    with pytest.raises(PreprocessError, match="fraction of values"):
        shuffle_values(ds, 1.5, np.random.default_rng(5))
