"""Fold preparation: noise on the chosen side of each fold."""
import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.evaluation.plan import plan
from bayesbench.errors import ConfigError, PreprocessError
from bayesbench.evaluation.prepare import DataCache, prepare_fold
from bayesbench.spec import DatasetSpec, NoiseSpec, PreprocessSpec
from helpers import small_config


@pytest.mark.parametrize("on", ["train", "test", "both"])
def test_noise_shuffles_the_same_attributes_on_the_chosen_side(uci_dir, tmp_path, on):
    cfg = small_config(uci_dir, tmp_path, datasets=["iris"], classifiers=["gnb"],
                       cv={"folds": 3}, preprocess={"noise": {"fraction": 0.5, "on": on}})
    job = plan(cfg.experiment).jobs[1]
    train, test = prepare_fold(job)["continuous"]()
    iris = load_dataset(uci_dir / "iris.arff")
    clean = iris.numeric_matrix()
    changed = {}
    for side, part, rows in (("train", train, job.train), ("test", test, job.test)):
        X, X0 = part.numeric_matrix(), clean[rows]
        np.testing.assert_array_equal(part.y, iris.y[rows])  # rows and class untouched
        # Shuffled columns keep their values (a permutation), in another order.
        np.testing.assert_array_equal(np.sort(X, axis=0), np.sort(X0, axis=0))
        changed[side] = {j for j in range(4) if not np.array_equal(X[:, j], X0[:, j])}
    expect = {"train": ("train",), "test": ("test",), "both": ("train", "test")}[on]
    for side in ("train", "test"):
        assert len(changed[side]) == (2 if side in expect else 0)
    if on == "both":
        assert changed["train"] == changed["test"]
    # Discrete learners see the same attributes shuffled.
    side = "test" if on == "test" else "train"
    discrete = dict(zip(("train", "test"), prepare_fold(job)["discrete"]()))[side]
    continuous = {"train": train, "test": test}[side]
    names = [iris.attributes[j].name for j in sorted(changed[side])]
    assert discrete.notes[-1] == continuous.notes[-1]
    assert discrete.notes[-1].endswith(str(names))


def test_noise_drawn_once_alters_the_data_set_before_it_is_split(uci_dir, tmp_path):
    # Paper 003 alters each data set once, then runs its folds (issue 34, class 10).
    cfg = small_config(uci_dir, tmp_path, datasets=["iris"], classifiers=["gnb"],
                       cv={"folds": 3, "repeats": 2},
                       preprocess={"noise": {"fraction": 0.5, "when": "once"}})
    assert cfg.experiment.preprocess.noise == NoiseSpec(0.5, "both", "attributes", "once")
    clean = load_dataset(uci_dir / "iris.arff").numeric_matrix()
    altered = np.full_like(clean, np.nan)
    jobs = plan(cfg.experiment).jobs
    assert len(jobs) == 6
    for job in jobs:
        train, test = prepare_fold(job)["continuous"]()
        for part, rows in ((train, job.train), (test, job.test)):
            X = part.numeric_matrix()
            seen = ~np.isnan(altered[rows])
            # every fold of every repetition cuts the one altered copy
            np.testing.assert_array_equal(X[seen], altered[rows][seen])
            altered[rows] = X
    assert not np.isnan(altered).any()
    changed = [j for j in range(4) if not np.array_equal(altered[:, j], clean[:, j])]
    assert len(changed) == 2  # round(0.5 x 4) attributes, each a permutation of its values
    np.testing.assert_array_equal(np.sort(altered, axis=0), np.sort(clean, axis=0))


@pytest.mark.parametrize("noise, problem", [
    ({"fraction": 0.1, "when": "once", "on": "train"}, "preprocess.noise.on"),
    ({"fraction": 0.1, "when": "twice"}, "preprocess.noise.when")])
def test_noise_drawn_once_takes_both_parts_and_a_known_when(uci_dir, tmp_path, noise, problem):
    with pytest.raises(ConfigError, match=problem.replace(".", r"\.")):
        small_config(uci_dir, tmp_path, datasets=["iris"], classifiers=["gnb"],
                     preprocess={"noise": noise})


def test_noise_drawn_in_each_fold_keeps_its_identity():
    # absent when the default, so that the result directories of before still match
    assert NoiseSpec(0.1).identity() == {"fraction": 0.1, "on": "train"}
    assert NoiseSpec(0.1, "both", when="once").identity()["when"] == "once"


@pytest.mark.parametrize("preprocess, subtract", [
    (dict(), True), (dict(impute="mean_mode"), False), (dict(scope="global", impute="mean_mode"), True),
    (dict(noise=NoiseSpec(0.5)), False), (dict(noise=NoiseSpec(0.0)), True)])
def test_counts_subtract_only_where_the_codes_are_the_data_sets(uci_dir, preprocess, subtract):
    from bayesbench.evaluation.prepare import PreparedData, counts_subtract
    votes = load_dataset(uci_dir / "house-votes-84.arff")
    assert counts_subtract(PreprocessSpec(**preprocess), PreparedData(votes, votes)) is subtract
    iris = load_dataset(uci_dir / "iris.arff")
    # Numeric data: only cut points fitted on the whole data set keep every fold's codes.
    assert not counts_subtract(PreprocessSpec(**preprocess), PreparedData(iris, iris))


def test_a_training_parts_statistics_are_its_rows_counts(uci_dir, tmp_path):
    from bayesbench.evaluation.fold_job import with_statistics
    from bayesbench.evaluation.prepare import statistics_of
    cfg = small_config(uci_dir, tmp_path, datasets=["house-votes-84"], classifiers=["tan"],
                       cv={"folds": 3})
    [job] = with_statistics([plan(cfg.experiment).jobs[2]])
    views = prepare_fold(job)
    assert views["statistics"]() == statistics_of(views["discrete"]()[0])
    assert views["statistics"]().attribute_names == tuple(job.data.imputed.attribute_names)


def test_a_chunked_data_set_numeric_beyond_the_first_rows_refuses_what_cannot_count(tmp_path):
    # The config check looks at the first rows only; the full scan decides.
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "0.csv").write_text("n,class\n?,p\n?,q\n")
    (tmp_path / "d" / "1.csv").write_text("n,class\n1.5,p\n2.5,q\n")
    spec, cache = DatasetSpec("d", str(tmp_path / "d")), DataCache()
    for scope in ("fold", "global"):
        with pytest.raises(PreprocessError, match=r"attribute 'n' of a chunked data set: "
                                                  r"discretization 'fd' is not available"):
            cache.chunked(spec, PreprocessSpec(discretize="fd", scope=scope))
    # per fold, the run finds the cut points (evaluation/chunked_folds.py)
    assert cache.chunked(spec, PreprocessSpec(scope="fold")).cuts == (None,)
    source = cache.chunked(spec, PreprocessSpec(discretize="width", bins=2, scope="global"))
    assert source.categories == (("(-inf-2]", "(2-inf)"),)


@pytest.mark.parametrize("preprocess, fitted_on_train", [
    ({}, False), ({"scope": "global", "impute": "mean_mode"}, False),
    ({"impute": "mean_mode"}, True), ({"noise": {"fraction": 0.5, "on": "both"}}, False)])
def test_the_discrete_test_part_alone_is_the_pairs_test_part(uci_dir, tmp_path, monkeypatch,
                                                             preprocess, fitted_on_train):
    from bayesbench.data import Dataset
    cfg = small_config(uci_dir, tmp_path, datasets=["house-votes-84"], classifiers=["nb"],
                       cv={"folds": 3}, preprocess=preprocess)
    job = plan(cfg.experiment).jobs[1]
    taken, take = [], Dataset.take
    monkeypatch.setattr(Dataset, "take",
                        lambda ds, rows: taken.append(len(rows)) or take(ds, rows))
    alone = prepare_fold(job)["discrete test"]()
    # Nothing fitted on the training part (no imputation per fold): its rows are not copied.
    assert (job.train.size in taken) is fitted_on_train
    train, test = prepare_fold(job)["discrete"]()
    np.testing.assert_array_equal(alone.codes(), test.codes())
    np.testing.assert_array_equal(alone.y, test.y)
    assert alone.notes == test.notes and test.n_rows == job.test.size
