"""Splits: they cover the data, stratify, and depend only on (seed, data set, repetition)."""
import subprocess
import sys
import zlib

import numpy as np
import pytest

from bayesbench.data.fold_assignment import fold_rng, stable_hash
from bayesbench.evaluation.splits import make_splits
from bayesbench.spec import CVSpec


def _y(counts):
    return np.repeat(np.arange(len(counts)), counts)


@pytest.mark.parametrize("counts,k", [([50, 50, 50], 10), ([7, 23, 1], 5), ([3, 4], 7)])
def test_kfold_partitions_and_stratifies(counts, k):
    y = _y(counts)
    splits = make_splits(y, CVSpec(folds=k), seed=3, dataset="d", repetition=0)
    assert len(splits) == k
    tests = np.concatenate([s.test for s in splits])
    np.testing.assert_array_equal(np.sort(tests), np.arange(y.size))  # each row tested once
    for s in splits:
        assert np.intersect1d(s.train, s.test).size == 0
        np.testing.assert_array_equal(np.union1d(s.train, s.test), np.arange(y.size))
    sizes = [s.test.size for s in splits]
    assert max(sizes) - min(sizes) <= 1
    for c, n_c in enumerate(counts):
        per_fold = [np.sum(y[s.test] == c) for s in splits]
        # Each class is spread as evenly as possible: n_c // k or n_c // k + 1 per fold.
        assert min(per_fold) >= n_c // k and max(per_fold) <= -(-n_c // k)


def test_unstratified_kfold_still_partitions():
    y = _y([90, 10])
    splits = make_splits(y, CVSpec(folds=4, stratified=False), seed=0, dataset="d", repetition=0)
    np.testing.assert_array_equal(np.sort(np.concatenate([s.test for s in splits])),
                                  np.arange(100))


def test_folds_depend_on_seed_dataset_and_repetition_only():
    y = _y([30, 30])
    spec = CVSpec(folds=5)
    a = make_splits(y, spec, seed=1, dataset="iris", repetition=0)
    b = make_splits(y, spec, seed=1, dataset="iris", repetition=0)
    assert [s.fold_id for s in a] == [s.fold_id for s in b]
    for other in (dict(seed=2, dataset="iris", repetition=0),
                  dict(seed=1, dataset="wine", repetition=0),
                  dict(seed=1, dataset="iris", repetition=1)):
        c = make_splits(y, spec, **other)
        assert [s.fold_id for s in c] != [s.fold_id for s in a]


def test_stable_hash_is_not_pythons_salted_hash():
    assert stable_hash("iris") == zlib.crc32(b"iris")
    # A fresh interpreter (another hash salt) draws the same numbers.
    code = ("from bayesbench.data.fold_assignment import fold_rng; "
            "print(fold_rng(5, 'iris', 2).integers(10**9))")
    out = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONHASHSEED": str(s), "PATH": ""}, check=True).stdout
           for s in (1, 2)}
    assert out == {f"{fold_rng(5, 'iris', 2).integers(10**9)}\n"}


def test_holdout_is_stratified_and_disjoint():
    y = _y([40, 60])
    (s,) = make_splits(y, CVSpec(kind="holdout", fraction=0.25), seed=0, dataset="d",
                       repetition=0)
    assert np.sum(y[s.test] == 0) == 10 and np.sum(y[s.test] == 1) == 15
    assert np.intersect1d(s.train, s.test).size == 0 and s.train.size + s.test.size == 100


def test_resubstitution_trains_and_tests_on_everything():
    (s,) = make_splits(_y([3, 4]), CVSpec(kind="resubstitution"), seed=0, dataset="d",
                       repetition=0)
    np.testing.assert_array_equal(s.train, np.arange(7))
    np.testing.assert_array_equal(s.test, np.arange(7))


def test_leave_one_out():
    splits = make_splits(_y([2, 3]), CVSpec(kind="loo"), seed=0, dataset="d", repetition=0)
    assert [s.test.tolist() for s in splits] == [[0], [1], [2], [3], [4]]
    assert all(s.train.size == 4 and s.test[0] not in s.train for s in splits)
