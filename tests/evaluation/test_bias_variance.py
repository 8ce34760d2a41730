"""The training and test sets of a bias-variance decomposition, drawn as Weka 3.6's
BVDecompose and BVDecomposeSegCVSub draw them (their sizes as those classes compute them,
read from weka/classifiers/BVDecompose*.java), and the config's evaluation key."""
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import load_config, override, parse_config
from bayesbench.errors import ConfigError, PlanError
from bayesbench.evaluation.bias_variance_sets import bias_variance_splits, n_folds
from bayesbench.evaluation.plan import plan, task_id
from bayesbench.evaluation.splits import Split
from bayesbench.spec import CVSpec, EvaluationSpec

KW = EvaluationSpec(method="kohavi_wolpert", iterations=20, train_fraction=0.5)
SUB = EvaluationSpec(method="subsampled_cv", iterations=20, train_fraction=0.5)


def test_kohavi_wolpert_pool_half_of_it_and_the_same_test_set():
    # BVDecompose -T 479 on 958 rows: a pool of 479, training sets of 479 / 2 = 239 rows
    # drawn from it, every iteration tested on the other 479 rows.
    splits = bias_variance_splits(958, KW, seed=3, dataset="tic-tac-toe")
    assert [s.repetition for s in splits] == list(range(20))
    test = splits[0].test
    assert test.size == 479
    pool = np.setdiff1d(np.arange(958), test)
    for s in splits:
        assert np.array_equal(s.test, test)
        assert s.train.size == 239 and np.unique(s.train).size == 239
        assert np.isin(s.train, pool).all()
    assert len({s.train.tobytes() for s in splits}) == 20  # each iteration draws anew


def test_draws_are_seeded():
    a = bias_variance_splits(200, SUB, seed=1, dataset="d")
    b = bias_variance_splits(200, SUB, seed=1, dataset="d")
    c = bias_variance_splits(200, SUB, seed=2, dataset="d")
    assert all(np.array_equal(x.train, y.train) and np.array_equal(x.test, y.test)
               for x, y in zip(a, b))
    assert any(not np.array_equal(x.train, y.train) for x, y in zip(a, c))


@pytest.mark.parametrize("n, m, k", [
    # Weka's k = ceil(tps / (tps - m)) with tps = ceil(m / p + 1) and its default
    # p = m / (n - 1), by hand: m / p = n - 1, so tps = n.
    (958, 479, 2), (10, 5, 2), (100, 75, 4), (12, 3, 2), (100, 90, 10), (200, 100, 2)])
def test_folds_as_weka_computes_them(n, m, k):
    assert n_folds(n, m) == k


def test_subsampled_cv_fold_sizes_as_weka_deals_them():
    # n = 11, m = 7: k = ceil(11 / 4) = 3; Weka's fold size ceil(11 / 3) = 4 for the first
    # 11 % 3 = 2 folds, then 3.
    spec = EvaluationSpec(method="subsampled_cv", iterations=2, train_fraction=7 / 11 + 1e-9)
    splits = bias_variance_splits(11, spec, seed=0, dataset="d")
    assert [s.test.size for s in splits] == [4, 4, 3, 4, 4, 3]
    assert all(s.train.size == 7 for s in splits)


@pytest.mark.parametrize("n, fraction", [(958, 0.5), (101, 0.75), (50, 0.2)])
def test_subsampled_cv_classifies_every_row_once_per_iteration(n, fraction):
    spec = EvaluationSpec(method="subsampled_cv", iterations=5, train_fraction=fraction)
    m = int(fraction * n)
    splits = bias_variance_splits(n, spec, seed=0, dataset="d")
    for i in range(5):
        mine = [s for s in splits if s.repetition == i]
        tested = np.concatenate([s.test for s in mine])
        assert np.array_equal(np.sort(tested), np.arange(n))
        for s in mine:
            assert s.train.size == m and not np.isin(s.train, s.test).any()


def test_an_unusable_fraction_is_a_plan_error_naming_the_key():
    with pytest.raises(PlanError) as info:
        bias_variance_splits(3, EvaluationSpec(train_fraction=0.5), seed=0, dataset="tiny")
    assert info.value.problems[0][0] == ("evaluation", "train_fraction")


def _problems(evaluation, tmp_path):
    data = tmp_path / "toy.csv"
    data.write_text("a,class\n" + "".join(f"{i % 3},{'pq'[i % 2]}\n" for i in range(20)))
    with pytest.raises(ConfigError) as info:
        parse_config({"name": "x", "datasets": [str(data)], "classifiers": ["nb"],
                      "evaluation": evaluation}, base_dir=tmp_path)
    return dict(info.value.problems)


@pytest.mark.parametrize("evaluation, key", [
    ({"method": "kohavi_wolpert"}, "evaluation.kind"),
    ({"kind": "bias-variance"}, "evaluation.kind"),
    ({"kind": "bias_variance", "method": "bootstrap"}, "evaluation.method"),
    ({"kind": "bias_variance", "iterations": 1}, "evaluation.iterations"),
    ({"kind": "bias_variance", "iterations": 10 ** 6}, "evaluation.iterations"),
    ({"kind": "bias_variance", "train_fraction": 0.7}, "evaluation.train_fraction"),
    ({"kind": "bias_variance", "method": "subsampled_cv", "train_fraction": 1.0},
     "evaluation.train_fraction"),
    ({"kind": "bias_variance", "folds": 3}, "evaluation.folds"),
    ("bias_variance", "evaluation")])
def test_config_mistakes_name_their_key(evaluation, key, tmp_path):
    assert key in _problems(evaluation, tmp_path)


def test_a_data_set_too_small_is_refused_before_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.csv").write_text("a,class\n1,p\n2,q\n3,p\n")
    (tmp_path / "c.yaml").write_text(
        "name: tiny\ndatasets: [tiny.csv]\nclassifiers: [nb]\n"
        "evaluation: {kind: bias_variance, train_fraction: 0.5}\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "c.yaml")])
    assert result.exit_code == 2, result.output
    assert "evaluation.train_fraction:" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "results").exists()


def test_rows_dropped_by_imputation_are_refused_naming_evaluation(tmp_path):
    # The decomposition counts each test row's predictions by the row's index in the file.
    data = tmp_path / "toy.csv"
    data.write_text("a,class\n" + "".join(f"{i % 3},{'pq'[i % 2]}\n" for i in range(20)))
    with pytest.raises(ConfigError) as info:
        parse_config({"name": "x", "datasets": [str(data)], "classifiers": ["nb"],
                      "preprocess": {"impute": "drop"},
                      "evaluation": {"kind": "bias_variance"}}, base_dir=tmp_path)
    assert "impute: drop" in dict(info.value.problems)["evaluation"]


# ------------------------------------------------------------------ repeats
def test_repeated_decompositions_draw_anew_and_the_first_is_the_unrepeated_one():
    for method in ("kohavi_wolpert", "subsampled_cv"):
        one = bias_variance_splits(60, EvaluationSpec(method=method, iterations=4), seed=2,
                                   dataset="d")
        three = bias_variance_splits(60, EvaluationSpec(method=method, iterations=4, repeats=3),
                                     seed=2, dataset="d")
        per = len(one)
        assert len(three) == 3 * per
        assert [(s.repetition, s.fold) for s in three[:per]] == [(s.repetition, s.fold) for s in one]
        assert all(np.array_equal(a.train, b.train) and np.array_equal(a.test, b.test)
                   for a, b in zip(one, three[:per]))
        # decomposition r holds the repetitions r x iterations .. (r + 1) x iterations - 1
        assert sorted({s.repetition for s in three}) == list(range(12))
        firsts = [three[r * per] for r in range(3)]
        assert len({s.test.tobytes() for s in firsts}) == 3  # each shuffles the data anew


def test_the_shipped_decomposition_keeps_its_task_ids():
    # Its tasks hash the default cv, as they did when a cv beside evaluation was ignored:
    # the evaluation's identity no longer holds the cv, the task key still does.
    path = Path(__file__).resolve().parents[2] / "configs" / "examples" / "bias_variance.yaml"
    experiment = load_config(path).experiment
    assert "cv" not in experiment.identity() and experiment.evaluation.repeats == 1
    before = {**experiment.identity(), "cv": CVSpec().identity()}
    work = plan(experiment)
    ids = [task_id(before, job.dataset, Split(job.repetition, job.fold, job.train, job.test), c)
           for job in work.jobs for c in job.classifiers]
    assert ids == [t for job in work.jobs for t in job.task_ids] and len(ids) == 40


@pytest.mark.parametrize("evaluation, key", [
    ({"kind": "bias_variance", "repeats": 0}, "evaluation.repeats"),
    ({"kind": "bias_variance", "repeats": 101}, "evaluation.repeats"),
    ({"kind": "bias_variance", "repeats": "3"}, "evaluation.repeats")])
def test_bad_repeats_are_refused_naming_the_key(evaluation, key, tmp_path):
    assert key in _problems(evaluation, tmp_path)


def test_a_cv_beside_evaluation_is_refused_in_one_line_naming_it(tmp_path):
    data = tmp_path / "toy.csv"
    data.write_text("a,class\n" + "".join(f"{i % 3},{'pq'[i % 2]}\n" for i in range(20)))
    with pytest.raises(ConfigError) as info:
        parse_config({"name": "x", "datasets": [str(data)], "classifiers": ["nb"],
                      "cv": {"folds": 5}, "arms": [{"name": "a"}, {"name": "b", "cv": {"folds": 3}}],
                      "evaluation": {"kind": "bias_variance"}}, base_dir=tmp_path)
    problems = dict(info.value.problems)
    assert set(problems) == {"cv", "arms[1].cv"}
    assert problems["cv"] == ("not used beside evaluation, which draws its own training and "
                              "test sets; leave it out")


def test_the_command_lines_repeats_set_the_decompositions(tmp_path):
    data = tmp_path / "toy.csv"
    data.write_text("a,class\n" + "".join(f"{i % 3},{'pq'[i % 2]}\n" for i in range(20)))
    config = parse_config({"name": "x", "datasets": [str(data)], "classifiers": ["nb"],
                           "evaluation": {"kind": "bias_variance"}}, base_dir=tmp_path)
    repeated = override(config, repeats=4).experiment
    assert repeated.evaluation.repeats == 4 and repeated.cv == config.experiment.cv
    with pytest.raises(ConfigError) as info:
        override(config, repeats=500)
    assert info.value.problems[0][0] == "repeats"
    (tmp_path / "c.yaml").write_text(f"name: x\ndatasets: ['{data}']\nclassifiers: [nb]\n"
                                     f"evaluation: {{kind: bias_variance}}\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "c.yaml"), "--repeats", "500",
                                       "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and "--repeats" in result.output
    assert "at most 100" in result.output and not (tmp_path / "out").exists()
