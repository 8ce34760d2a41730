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


def _barrow_harness_sizes(npoints, folds):
    """Paper 000's TestHarness.crossValidatedTest (appendix 4.5), its slicing alone: the
    test and training sizes of each fold and the rows never tested (positions in its
    shuffled list)."""
    foldsize = int(npoints / folds)
    tempdata = list(range(npoints))
    sizes, tested = [], set()
    for _ in range(folds):
        testdata = tempdata[0:foldsize]
        tempdata = tempdata[foldsize:]
        sizes.append((len(tempdata), len(testdata)))
        tested |= set(testdata)
        tempdata = tempdata + testdata
    return sizes, set(range(npoints)) - tested


@pytest.mark.parametrize("stratified", [False, True])
def test_floor_fold_size_tests_int_n_over_k_rows_as_paper_000(stratified):
    # WDBC's classes: 357 benign, 212 malignant; the paper's harness tests 560 of them.
    y = _y([357, 212])
    sizes, untested = _barrow_harness_sizes(569, 10)
    assert sizes == [(513, 56)] * 10 and len(untested) == 9
    spec = CVSpec(folds=10, stratified=stratified, fold_size="floor")
    splits = make_splits(y, spec, seed=1, dataset="wdbc", repetition=0)
    assert [(s.train.size, s.test.size) for s in splits] == sizes
    tests = np.concatenate([s.test for s in splits])
    assert np.unique(tests).size == tests.size == 560   # no row tested twice
    never = np.setdiff1d(np.arange(569), tests)
    assert never.size == len(untested)
    for s in splits:  # the rows never tested are in every training part
        assert np.intersect1d(s.train, s.test).size == 0
        assert np.isin(never, s.train).all()
    if stratified:
        for c, n_c in enumerate([357, 212]):
            per_fold = [np.sum(y[s.test] == c) for s in splits]
            assert max(per_fold) - min(per_fold) <= 1
    again = make_splits(y, spec, seed=1, dataset="wdbc", repetition=0)
    assert all(np.array_equal(a.test, b.test) for a, b in zip(splits, again))
    other = make_splits(y, spec, seed=1, dataset="wdbc", repetition=1)
    assert not np.array_equal(np.setdiff1d(np.arange(569), np.concatenate(
        [s.test for s in other])), never)


def test_the_default_fold_size_leaves_the_task_identity_as_it_was():
    # Records written before fold_size existed keep their task ids: the key is absent
    # from the identity unless it is set.
    assert CVSpec(folds=10, repeats=10).identity() == {"folds": 10, "repeats": 10,
                                                       "stratified": True}
    assert CVSpec(fold_size="floor").identity()["fold_size"] == "floor"


def test_floor_on_a_multiple_of_k_is_the_balanced_deal_in_size():
    y = _y([30, 30])
    floor = make_splits(y, CVSpec(folds=6, fold_size="floor"), seed=0, dataset="d",
                        repetition=0)
    assert [s.test.size for s in floor] == [10] * 6
    np.testing.assert_array_equal(np.sort(np.concatenate([s.test for s in floor])),
                                  np.arange(60))


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
