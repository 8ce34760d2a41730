"""Splits: they cover the data, stratify, and depend only on (seed, data set, repetition)."""
import subprocess
import sys
import zlib

import numpy as np
import pytest

from bayesbench.data.fold_assignment import fold_rng, stable_hash
from bayesbench.evaluation.splits import make_splits
from bayesbench.evaluation.schemes import Holdout, KFold, LeaveOneOut, Resubstitution


def _y(counts):
    return np.repeat(np.arange(len(counts)), counts)


@pytest.mark.parametrize("counts,k", [([50, 50, 50], 10), ([7, 23, 1], 5), ([3, 4], 7)])
def test_kfold_partitions_and_stratifies(counts, k):
    y = _y(counts)
    splits = make_splits(y, KFold.spec(folds=k), seed=3, dataset="d", repetition=0)
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
    splits = make_splits(y, KFold.spec(folds=4, stratified=False), seed=0, dataset="d", repetition=0)
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
    spec = KFold.spec(folds=10, stratified=stratified, fold_size="floor")
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
    assert KFold.spec(folds=10, repeats=10).identity() == {"folds": 10, "repeats": 10,
                                                       "stratified": True}
    assert KFold.spec(fold_size="floor").identity()["fold_size"] == "floor"


def test_floor_on_a_multiple_of_k_is_the_balanced_deal_in_size():
    y = _y([30, 30])
    floor = make_splits(y, KFold.spec(folds=6, fold_size="floor"), seed=0, dataset="d",
                        repetition=0)
    assert [s.test.size for s in floor] == [10] * 6
    np.testing.assert_array_equal(np.sort(np.concatenate([s.test for s in floor])),
                                  np.arange(60))


def test_folds_depend_on_seed_dataset_and_repetition_only():
    y = _y([30, 30])
    spec = KFold.spec(folds=5)
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
    (s,) = make_splits(y, Holdout.spec(holdout=0.25), seed=0, dataset="d",
                       repetition=0)
    assert np.sum(y[s.test] == 0) == 10 and np.sum(y[s.test] == 1) == 15
    assert np.intersect1d(s.train, s.test).size == 0 and s.train.size + s.test.size == 100


def test_resubstitution_trains_and_tests_on_everything():
    (s,) = make_splits(_y([3, 4]), Resubstitution.spec(), seed=0, dataset="d",
                       repetition=0)
    np.testing.assert_array_equal(s.train, np.arange(7))
    np.testing.assert_array_equal(s.test, np.arange(7))


def test_leave_one_out():
    splits = make_splits(_y([2, 3]), LeaveOneOut.spec(), seed=0, dataset="d", repetition=0)
    assert [s.test.tolist() for s in splits] == [[0], [1], [2], [3], [4]]
    assert all(s.train.size == 4 and s.test[0] not in s.train for s in splits)


# ------------------------------------------------ one table of schemes
def test_the_default_spec_is_the_default_schemes_and_the_page_lists_the_table():
    from helpers import documents_choices
    from bayesbench.evaluation.schemes import DEFAULT_SCHEME, SCHEMES
    from bayesbench.spec import CVSpec

    # spec.py imports nothing from the package, so it repeats the default: they must agree.
    assert CVSpec() == SCHEMES[DEFAULT_SCHEME].spec()
    assert list(SCHEMES) == ["kfold", "holdout", "resubstitution", "loo", "bootstrap"]
    assert Holdout.spec().identity() == {"holdout": 0.3, "repeats": 1, "stratified": True}
    assert LeaveOneOut.spec().identity() == {"loo": True}
    assert documents_choices("configuration.md", SCHEMES)


def test_a_new_scheme_is_one_entry_seen_by_the_config_the_run_and_the_docs(
        uci_dir, tmp_path, monkeypatch):
    # Weka's -split-percentage P -preserve-order: the first P% of the rows train, the rest test.
    from bayesbench.errors import ConfigError
    from bayesbench.evaluation import schemes
    from bayesbench.evaluation.schemes import CVScheme, Setting, Split
    from helpers import documents_choices, run, small_config

    class OrderedSplit(CVScheme):
        name = "ordered_split"
        title = "an ordered split"
        summary = "the first rows train, the rest test (Weka's -preserve-order)"
        settings = (Setting("ordered_split", float, 0.5, low=0.0, high=1.0),)

        def splits(self, y, spec, rng, dataset, repetition):
            n_train = int(round(self.value(spec, "ordered_split") * y.shape[0]))
            return [Split(repetition, 0, np.arange(n_train), np.arange(n_train, y.shape[0]))]

        def describe(self, spec):
            return f"the first {self.value(spec, 'ordered_split'):.0%} of the rows trained on"

    over = {"datasets": ["iris"], "classifiers": ["nb"], "cv": {"ordered_split": 0.6}}
    with pytest.raises(ConfigError, match=r"cv\.ordered_split: unknown key"):
        small_config(uci_dir, tmp_path, **over)
    monkeypatch.setitem(schemes._TABLE, "ordered_split", OrderedSplit)
    with pytest.raises(ConfigError, match=r"choose one of folds, .*, ordered_split; got folds"):
        small_config(uci_dir, tmp_path, **dict(over, cv={"ordered_split": 0.6, "folds": 3}))
    with pytest.raises(ConfigError, match=r"cv\.stratified: applies to k-fold, holdout and "
                                          r"the bootstrap only, not ordered_split"):
        small_config(uci_dir, tmp_path, **dict(over, cv={"ordered_split": 0.6,
                                                         "stratified": True}))
    config = small_config(uci_dir, tmp_path, **over)
    assert config.experiment.cv.identity() == {"ordered_split": 0.6}
    result = run(config, jobs=1, quiet=True)
    [record] = result.records
    # iris is sorted by class: the last 60 rows are 10 versicolor and 50 virginica
    assert (record["n_train"], record["n_test"]) == (90, 60)
    assert np.asarray(record["confusion"]).sum(axis=1).tolist() == [0, 10, 50]
    summary = (result.run_dir / "summary" / "accuracy.md").read_text()
    assert "the first 60% of the rows trained on" in summary
    assert not documents_choices("configuration.md", schemes.SCHEMES)
