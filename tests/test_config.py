"""Config validation: every mistake reported at once with its key path, before any work."""
import math
import os
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import key_paths, load_config, override, parse_config
from bayesbench.data import load_dataset
from bayesbench.errors import ConfigError, DataError
from bayesbench.evaluation.plan import plan
from bayesbench.spec import resolved_config


@pytest.fixture
def data_dir(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    (d / "toy.csv").write_text("a,b,class\n1,x,p\n2,y,q\n3,x,p\n4,y,q\n")
    return d


def _problems(raw, base_dir):
    with pytest.raises(ConfigError) as info:
        parse_config(raw, base_dir=base_dir)
    return dict(info.value.problems)


def test_five_mistakes_are_reported_together_and_nothing_is_written(tmp_path, data_dir,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "bad.yaml"
    config.write_text(textwrap.dedent(f"""\
        name: bad
        seed: one
        colour: blue
        datasets: [{data_dir / 'toy.csv'}, {data_dir / 'missing.csv'}]
        classifiers:
          - nb
          - name: no_such_learner
          - name: nb
            params: {{alpha: 1.0, k: 3}}
        """))
    result = CliRunner().invoke(main, ["run", str(config)])
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 5, result.output
    for key in ("seed:", "colour:", "datasets[1]:", "classifiers[1].name:",
                "classifiers[2].params.k:"):
        assert sum(key in ln for ln in lines) == 1, (key, result.output)
    assert "Traceback" not in result.output
    assert not (tmp_path / "results").exists()


def test_nested_key_paths_and_types(tmp_path, data_dir):
    problems = _problems({
        "name": "x", "datasets": [str(data_dir / "toy.csv"), {"path": 3}, {"name": "toy",
                                                                          "sep": ";"}],
        "preprocess": {"impute": "median", "bins": 1.5, "noise": {"fraction": 2, "on": "all"}},
        "cv": {"folds": 1, "stratified": "yes"},
        "classifiers": [{"name": "nb", "params": {"alpha": [1, 2]}, "lable": "z"}],
        "metrics": ["accuracy", "kapa"], "jobs": 0, "format": "pdf"}, tmp_path)
    assert set(problems) == {
        "datasets[1].path", "datasets[2].sep", "datasets[2].name", "preprocess.impute",
        "preprocess.bins",
        "preprocess.noise.fraction", "preprocess.noise.on", "cv.folds", "cv.stratified",
        "classifiers[0].lable", "metrics[1]", "jobs", "format"}
    assert "median" in problems["preprocess.impute"] and "mean_mode" in problems[
        "preprocess.impute"]
    assert "did you mean 'label'" in problems["classifiers[0].lable"]


def test_cv_kinds_exclude_each_other(tmp_path, data_dir):
    base = {"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"]}
    problems = _problems(dict(base, cv={"folds": 5, "loo": True}), tmp_path)
    assert "cv" in problems
    cv = parse_config(dict(base, cv={"holdout": 0.25, "repeats": 3}), base_dir=tmp_path).experiment.cv
    assert (cv.kind, cv.setting("holdout"), cv.n_repetitions) == ("holdout", 0.25, 3)
    cv = parse_config(dict(base, cv={"resubstitution": True}), base_dir=tmp_path).experiment.cv
    assert (cv.kind, cv.n_repetitions) == ("resubstitution", 1)


def test_fold_size_is_a_k_fold_choice_named_by_its_key(tmp_path, data_dir):
    base = {"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"]}
    cv = parse_config(dict(base, cv={"folds": 2, "fold_size": "floor"}),
                      base_dir=tmp_path).experiment.cv
    assert cv.setting("fold_size") == "floor"
    assert parse_config(base, base_dir=tmp_path).experiment.cv.setting("fold_size") is None  # the default, left out
    problems = _problems(dict(base, cv={"folds": 2, "fold_size": "int"}), tmp_path)
    assert set(problems) == {"cv.fold_size"}
    assert "balanced" in problems["cv.fold_size"] and "floor" in problems["cv.fold_size"]
    problems = _problems(dict(base, cv={"holdout": 0.5, "fold_size": "floor"}), tmp_path)
    assert "k-fold only" in problems["cv.fold_size"]


def test_parameter_lists_expand_to_a_grid(tmp_path, data_dir):
    cfg = parse_config({"name": "g", "datasets": [str(data_dir / "toy.csv")],
                        "classifiers": [{"name": "nb", "params": {"alpha": [0.5, 1],
                                                                  "log": [True, False]}},
                                        {"name": "nb", "label": "plain"}]},
                       base_dir=tmp_path).experiment
    labels = [c.label for c in cfg.classifiers]
    assert labels == ["nb(alpha=0.5,log=True)", "nb(alpha=0.5,log=False)",
                      "nb(alpha=1,log=True)", "nb(alpha=1,log=False)", "plain"]
    assert cfg.classifiers[1].params == {"alpha": 0.5, "log": False}


def test_issue_14_options_validate_and_bad_values_name_their_key(tmp_path, data_dir):
    # Paper 002's STAN (select: true), TAN by a score, weights, a hill-climbing search.
    base = {"name": "o", "datasets": [str(data_dir / "toy.csv")]}
    good = [{"name": "stan", "params": {"select": True, "significance": 0.05}},
            {"name": "tan", "params": {"criterion": "bic", "weights": "wanbia"}},
            {"name": "kdb_hc", "params": {"k": 1, "accept_ties": True, "weights": "awnb"}}]
    cfg = parse_config(dict(base, classifiers=good), base_dir=tmp_path).experiment
    assert [c.params for c in cfg.classifiers] == [g["params"] for g in good]
    bad = [{"name": "stan", "params": {"select": "yes"}},
           {"name": "nb", "params": {"weights": "mnb"}},
           {"name": "tan", "params": {"criterion": "entropy"}},
           {"name": "tan_hc", "params": {"accept_ties": 1}}]
    problems = _problems(dict(base, classifiers=bad), tmp_path)
    assert problems == {
        "classifiers[0].params.select":
            "STAN: parameter 'select' must be True or False, got 'yes'",
        "classifiers[1].params.weights":
            "NaiveBayes: parameter 'weights' must be None or one of 'awnb', 'manb', 'wanbia', "
            "got 'mnb'",
        "classifiers[2].params.criterion":
            "TAN: parameter 'criterion' must be one of 'aic', 'bic', 'cmi', 'loglik', "
            "got 'entropy'",
        "classifiers[3].params.accept_ties":
            "TANHC: parameter 'accept_ties' must be True or False, got 1"}


def test_duplicate_labels_are_refused(tmp_path, data_dir):
    problems = _problems({"name": "d", "datasets": [str(data_dir / "toy.csv")],
                          "classifiers": ["nb", "nb"]}, tmp_path)
    assert "used more than once" in problems["classifiers"]


def test_datasets_by_name_from_data_dirs_and_environment(tmp_path, data_dir, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "env_only.csv").write_text("a,class\n1,p\n2,q\n")
    monkeypatch.setenv("BAYESBENCH_DATA", str(other))
    cfg = parse_config({"name": "n", "data_dirs": ["data"],
                        "datasets": ["toy", "env_only", {"name": "toy2", "path": "data/toy.csv",
                                                         "class": "b"}],
                        "classifiers": ["nb"]}, base_dir=tmp_path)
    assert [(d.name, Path(d.path).name, d.class_attribute) for d in cfg.experiment.datasets] == [
        ("toy", "toy.csv", None), ("env_only", "env_only.csv", None),
        ("toy2", "toy.csv", "b")]
    problems = _problems({"name": "n", "datasets": ["nowhere"], "classifiers": ["nb"]}, tmp_path)
    assert "not found" in problems["datasets[0]"] and str(other) in problems["datasets[0]"]


def test_resolved_config_loads_back_to_the_same_experiment(tmp_path, data_dir):
    path = tmp_path / "exp.yaml"
    path.write_text(yaml.safe_dump({
        "name": "r", "seed": 4, "datasets": ["data/toy.csv"],
        "preprocess": {"discretize": "width", "bins": 3, "noise": {"fraction": 0.5}},
        "cv": {"folds": 2, "repeats": 2}, "classifiers": [{"name": "nb",
                                                           "params": {"alpha": [1, 2]}}]}))
    cfg = load_config(path)
    again = tmp_path / "resolved.yaml"
    again.write_text(yaml.safe_dump(resolved_config(cfg.experiment, cfg.options, tmp_path)))
    assert load_config(again).experiment.identity() == cfg.experiment.identity()
    preprocess = cfg.experiment.preprocess
    assert preprocess.noise.on == "train" and preprocess.scope == "fold"


def test_max_cuts_bounds_mdl_only_and_leaves_older_identities_alone(tmp_path, data_dir):
    base = {"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"]}
    problems = _problems({**base, "preprocess": {"discretize": "pki", "max_cuts": 2}}, tmp_path)
    assert "mdl only" in problems["preprocess.max_cuts"]
    problems = _problems({**base, "preprocess": {"max_cuts": 0}}, tmp_path)
    assert set(problems) == {"preprocess.max_cuts"}
    bounded = parse_config({**base, "preprocess": {"max_cuts": 3}}, base_dir=tmp_path)
    assert bounded.experiment.preprocess.identity()["max_cuts"] == 3
    plain = parse_config({**base, "preprocess": {"discretize": "wpki"}}, base_dir=tmp_path)
    # Absent when unset: the result directories of older configs keep their identity.
    assert "max_cuts" not in plain.experiment.preprocess.identity()


def test_yaml_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: x\ndatasets: [a, b\nclassifiers: [nb]\n")
    with pytest.raises(ConfigError, match=r"broken.yaml: line \d+: not valid YAML"):
        load_config(path)


def test_arms_compare_attributes_and_per_class_metrics_report_key_paths(tmp_path, data_dir):
    problems = _problems({
        "name": "x", "datasets": [{"path": str(data_dir / "toy.csv"), "attributes": ["a", "a"]}],
        "classifiers": ["nb"], "metrics": ["accuracy", "f1[p]", "f1_p"],
        "arms": [{"name": "clean", "preprocess": {"impute": "median"}},
                 {"name": "cv", "cv": {"folds": 1}}, {"name": "clean"}, {"cv": {"folds": 3}},
                 {"name": "b", "colour": 1}],
        "compare": {"baseline": "dirty/nb", "test": "t", "metric": "f1"},
    }, tmp_path)
    assert set(problems) == {
        "datasets[0].attributes", "metrics[2]", "arms[0].preprocess.impute", "arms[1].cv.folds",
        "arms[2].name", "arms[3].name", "arms[4].colour", "compare.baseline", "compare.test",
        "compare.metric"}
    assert "clean/nb" in problems["compare.baseline"]


def test_arms_override_the_top_level_keys_and_write_their_own_directories(tmp_path, data_dir):
    config = parse_config({
        "name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"],
        "preprocess": {"impute": "mean_mode", "discretize": "width", "bins": 2},
        "cv": {"folds": 2, "repeats": 3},
        "arms": [{"name": "clean"}, {"name": "noisy", "preprocess": {"noise": {"fraction": 0.5}}},
                 {"name": "resub", "cv": {"resubstitution": True}}],
        "compare": {"baseline": "clean/nb"},
    }, base_dir=tmp_path)
    clean, noisy, resub = config.experiment.runs()
    assert [a.arm for a in config.experiment.runs()] == ["clean", "noisy", "resub"]
    assert noisy.preprocess.noise.fraction == 0.5 and noisy.preprocess.bins == 2
    assert noisy.preprocess.impute == "mean_mode" and clean.preprocess.noise is None
    assert resub.cv.kind == "resubstitution" and clean.cv.n_repetitions == 3
    assert config.options.run_dir(clean) == Path("results") / "x" / "clean"
    assert clean.compare.baseline == "nb" and config.experiment.compare.baseline == "clean/nb"
    moved = override(config, repeats=1, output=tmp_path / "out")
    assert [moved.options.run_dir(r) for r in moved.experiment.runs()] == [
        tmp_path / "out" / a for a in ("clean", "noisy", "resub")]
    assert [r.cv.n_repetitions for r in moved.experiment.runs()] == [1, 1, 1]
    assert moved.experiment.runs()[2].cv.kind == "resubstitution"
    with pytest.raises(ConfigError, match="nope: not a data set of the config"):
        override(config, datasets=["nope"])


def test_problems_found_on_the_data_are_named_by_their_key_paths(tmp_path, data_dir):
    cfg = parse_config({"name": "x", "datasets": [str(data_dir / "toy.csv")],
                        "cv": {"holdout": 0.01}, "classifiers": ["nb"]}, base_dir=tmp_path)
    with pytest.raises(ConfigError) as info, key_paths("exp.yaml"):
        plan(cfg.experiment)  # 1 % of two examples per class is no test example at all
    [(key, message)] = info.value.problems
    assert key == "cv.holdout" and "empty train or test set on 4 examples" in message
    assert str(info.value).startswith("exp.yaml: cv.holdout: ")


# ------------------------------------------------------------------ bounded reading (issue 15)

def _refusal(path) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    [(key, message)] = info.value.problems
    return message


def test_billion_laughs_are_refused_before_they_expand(tmp_path):
    # Nine aliases of nine aliases ...: 9^9 = 387,420,489 strings in a few hundred bytes;
    # quoting the value in an error message ran out of memory.
    lines = ["x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 9)}]" for i in range(1, 9)]
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines + ["name: *x8", "datasets: [iris]", "classifiers: [nb]"]))
    assert path.stat().st_size < 1000
    assert "aliases expand to more than 100,000 values" in _refusal(path)


def test_aliases_within_the_limit_still_work(tmp_path, data_dir):
    path = tmp_path / "exp.yaml"
    path.write_text(f"data_dirs: [{data_dir}]\nname: x\ndatasets: [toy]\nclassifiers:\n"
                    "  - {name: nb, params: &p {alpha: 2}}\n  - {name: tan, params: *p}\n")
    cfg = load_config(path)
    assert [c.params for c in cfg.experiment.classifiers] == [{"alpha": 2}, {"alpha": 2}]


@pytest.mark.parametrize("text, words", [
    ("a: &a [1, *a]\n", "refers to a value that contains it"),
    ("name: " + "[" * 60 + "]" * 60 + "\n", "nested more than 50 levels"),
    ("name: " + "[" * 5000 + "]" * 5000 + "\n", "nested more than 50 levels"),
    ("seed: " + "9" * 5000 + "\n", "not a usable value"),
])
def test_recursive_deep_or_huge_values_are_refused_in_one_line(tmp_path, text, words):
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    assert words in _refusal(path)


def test_a_config_over_one_megabyte_is_refused_unread(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("name: x\n# " + "x" * (1 << 20) + "\n")
    assert "larger than 1,048,576 bytes" in _refusal(path)


def _loads_within(path, seconds=10.0):
    """load_config(path) in a thread: what it raised, or "blocked" after ``seconds``."""
    import threading

    outcome = []

    def target():
        try:
            load_config(path)
        except ConfigError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    return outcome[0] if outcome else "blocked"


def test_devices_and_fifos_are_refused_without_reading(tmp_path):
    # /dev/zero was read without end, and a FIFO waited for a writer forever.
    fifo = tmp_path / "exp.yaml"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo):
        outcome = _loads_within(path)
        assert isinstance(outcome, ConfigError), outcome
        assert "not a regular file" in str(outcome)


def test_messages_quote_a_short_excerpt_of_a_long_value(tmp_path):
    path = tmp_path / "exp.yaml"
    long_name = "y" * 200_000
    path.write_text(f"name: [{long_name}]\ndatasets: [{long_name}]\nclassifiers: [{long_name}]\n"
                    f"{long_name[:1000]}: 1\n")  # PyYAML's longest simple key
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()
    assert len(lines) == 4 and max(map(len, lines)) < 600, [len(line) for line in lines]


def test_a_grid_of_a_hundred_million_settings_is_refused_with_its_size(tmp_path, data_dir):
    # Five lists of 40 values, 1.3 KB of YAML: 40^5 = 102,400,000 classifiers, which ran
    # out of memory while they were expanded and checked.
    values = {"alpha": [1.0 + i for i in range(40)], "inner_folds": list(range(2, 42)),
              "epsilon": [i / 100 for i in range(40)], "significance": [i / 100 for i in range(1, 41)],
              "random_state": list(range(40))}
    path = _write(tmp_path, {"name": "x", "datasets": [str(data_dir / "toy.csv")],
                             "classifiers": [{"name": "asb", "params": values}]})
    assert Path(path).stat().st_size < 2500
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.problems == [("classifiers[0].params", "a grid of 102,400,000 settings "
                                    "(40 x 40 x 40 x 40 x 40); at most 1,000")]


def test_more_than_a_thousand_classifiers_in_all_are_refused(tmp_path, data_dir):
    entry = {"name": "nb", "params": {"alpha": [1.0 + i for i in range(600)]}}
    labelled = [dict(entry, label=f"nb{i}") for i in range(2)]
    problems = _problems({"name": "x", "datasets": [str(data_dir / "toy.csv")],
                          "classifiers": labelled}, data_dir)
    assert "more than 1,000 classifiers in all" in problems["classifiers"]
    cfg = parse_config({"name": "x", "datasets": [str(data_dir / "toy.csv")],
                        "classifiers": labelled[:1]}, base_dir=data_dir)
    assert len(cfg.experiment.classifiers) == 600


def test_every_setting_of_a_grid_is_checked_against_the_constraints(tmp_path, data_dir):
    problems = _problems({"name": "x", "datasets": [str(data_dir / "toy.csv")],
                          "classifiers": [{"name": "nb", "params": {"alpha": [1, 0.5, -1]}},
                                          {"name": "kdb", "params": {"k": "two"}}]}, data_dir)
    assert set(problems) == {"classifiers[0].params.alpha", "classifiers[1].params.k"}
    assert problems["classifiers[0].params.alpha"].endswith("must be a number >= 0, got -1")
    assert "got 'two'" in problems["classifiers[1].params.k"]
    res = CliRunner().invoke(main, ["run", _write(tmp_path, {
        "name": "x", "datasets": [str(data_dir / "toy.csv")], "output": str(tmp_path / "out"),
        "classifiers": [{"name": "nb", "params": {"alpha": [1, -1]}}]})])
    assert res.exit_code == 2 and "classifiers[0].params.alpha" in res.stderr
    assert not (tmp_path / "out").exists()


def _write(tmp_path, raw) -> str:
    path = tmp_path / "exp.yaml"
    path.write_text(yaml.safe_dump(raw))
    return str(path)


@pytest.mark.parametrize("key, value, words", [
    ("metrics", [], "the list is empty"), ("format", [], "the list is empty"),
    ("max_table_cells", 0, "expected a value at least 1"),
    ("cv", {"repeats": 1001}, "expected a value between 1 and 1000"),
])
def test_empty_lists_and_limits_out_of_range_are_config_errors(tmp_path, data_dir, key, value,
                                                                words):
    # `metrics: []` ran every task and then crashed in the summary; `format: []` wrote all
    # the tables; `cv.repeats: 10^9` planned for ever.
    raw = {"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"],
           "output": str(tmp_path / "out"), key: value}
    res = CliRunner().invoke(main, ["run", _write(tmp_path, raw)])
    assert res.exit_code == 2 and words in res.stderr, res.stderr
    assert not (tmp_path / "out").exists()


@given(st.text(alphabet=" \t\n", max_size=3))
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_an_empty_output_or_data_set_name_is_refused_before_any_work(tmp_path, data_dir,
                                                                    monkeypatch, blank):
    # `output: ""` is the working directory as a path: the run was written among the user's
    # files; an empty data set name was looked up as a file called "".
    for raw, key in (({"output": blank}, "output"),
                     ({"datasets": [blank]}, "datasets[0]"),
                     ({"datasets": [{"path": str(data_dir / "toy.csv"), "name": blank}]},
                      "datasets[0].name")):
        cwd = tmp_path / f"cwd{len(list(tmp_path.iterdir()))}"
        cwd.mkdir()
        monkeypatch.chdir(cwd)
        full = {"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"],
                "output": str(cwd / "out"), **raw}
        res = CliRunner().invoke(main, ["run", _write(cwd, full), "-q"])
        assert res.exit_code == 2 and f"{key}: is empty" in res.stderr, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1
        assert sorted(p.name for p in cwd.iterdir()) == ["exp.yaml"]
    # The command line's -o too.
    res = CliRunner().invoke(main, ["run", _write(tmp_path, {
        "name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"]}),
        "-o", blank])
    assert res.exit_code == 2 and "--output: is empty" in res.stderr, res.stderr


# ------------------------------------------------------------- open classifiers
def test_import_paths_input_and_tune_parse_into_the_spec(tmp_path, data_dir):
    cfg = parse_config({"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": [
        {"name": "sklearn.linear_model:LogisticRegression", "params": {"C": [0.5, 2]}},
        {"name": "sklearn.tree:DecisionTreeClassifier", "input": "frame"},
        {"name": "tan", "label": "tuned", "tune": {"params": {"alpha": [0.1, 1]}}}]},
        base_dir=tmp_path).experiment
    specs = cfg.classifiers
    # A class given by path is labelled by its class name.
    assert [c.label for c in specs] == ["LogisticRegression(C=0.5)", "LogisticRegression(C=2)",
                                        "DecisionTreeClassifier", "tuned"]
    assert specs[2].input == "frame" and specs[0].input is None
    assert (specs[3].tune.params, specs[3].tune.folds, specs[3].tune.metric) == (
        {"alpha": (0.1, 1)}, 5, "accuracy")
    assert specs[3].identity()["tune"] == {"params": {"alpha": [0.1, 1]}, "folds": 5,
                                          "metric": "accuracy"}
    # Unused, they are absent from the identity (so older result directories still match).
    assert set(specs[0].identity()) == {"label", "name", "params"}


def test_open_classifier_mistakes_are_named_by_key_path(tmp_path, data_dir):
    problems = _problems({"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": [
        {"name": "sklearn.linear_model:LogisticRegression", "params": {"C": -1}},
        {"name": "tan", "input": "pixels"},
        {"name": "tan", "label": "t2", "tune": {"params": {"alpha": [1, -2], "depth": [1]},
                                                "folds": 1, "metric": "f1"}},
        {"name": "tan", "label": "t3", "params": {"alpha": [1, 2]},
         "tune": {"params": {"alpha": [1]}}},
        {"name": "tan", "label": "t4", "tune": {"params": {"alpha": 1}, "fold": 3}},
        "no.such.module:Clf", "helpers:NoFit", "tann"]}, tmp_path)
    assert "'C' parameter of LogisticRegression" in problems["classifiers[0].params.C"]
    assert problems["classifiers[1].input"] == ("'pixels' is not one of codes, onehot, "
                                                "numeric, frame")
    assert "must be a number >= 0, got -2" in problems["classifiers[2].tune.params.alpha"]
    assert "has no parameter 'depth'" in problems["classifiers[2].tune.params.depth"]
    assert "at least 2" in problems["classifiers[2].tune.folds"]
    assert "'f1' is not one of accuracy" in problems["classifiers[2].tune.metric"]
    assert "also a list under params" in problems["classifiers[3].tune.params.alpha"]
    assert "expected a non-empty list" in problems["classifiers[4].tune.params.alpha"]
    assert "did you mean 'folds'" in problems["classifiers[4].tune.fold"]
    assert "no module named 'no'" in problems["classifiers[5].name"]
    assert "NoFit has no fit method" in problems["classifiers[6].name"]
    assert "did you mean tan, stan, tan_ld?" in problems["classifiers[7].name"]


def test_a_config_with_input_and_tune_resolves_and_loads_back(tmp_path, data_dir):
    raw = {"name": "x", "datasets": [str(data_dir / "toy.csv")], "classifiers": [
        {"name": "nb", "input": "codes"},
        {"name": "sklearn.tree:DecisionTreeClassifier", "label": "tree",
         "tune": {"params": {"max_depth": [1, 2]}, "folds": 2, "metric": "log_loss"}}]}
    cfg = parse_config(raw, base_dir=tmp_path)
    stored = resolved_config(cfg.experiment, cfg.options, tmp_path / "out")
    again = parse_config(yaml.safe_load(yaml.safe_dump(stored)), base_dir=tmp_path)
    assert again.experiment.identity() == cfg.experiment.identity()
    assert [c.tune for c in again.experiment.classifiers] == [
        c.tune for c in cfg.experiment.classifiers]


def test_a_csv_data_set_may_name_its_delimiter(tmp_path):
    # A semicolon-separated file read with its delimiter; one character only.
    (tmp_path / "semi.csv").write_text("a;b;class\n1;x;p\n2;y;q\n3;x;p\n4;y;q\n")
    cfg = parse_config({"name": "d", "datasets": [{"path": str(tmp_path / "semi.csv"),
                                                    "delimiter": ";"}],
                        "classifiers": ["nb"]}, base_dir=tmp_path)
    [spec] = cfg.experiment.datasets
    assert spec.delimiter == ";" and spec.identity()["delimiter"] == ";"
    from bayesbench.evaluation.prepare import load_prepared
    data = load_prepared(spec, cfg.experiment.preprocess, 0)
    assert data.imputed.attribute_names == ["a", "b"] and list(data.imputed.class_names) == ["p", "q"]
    problems = _problems({"name": "d", "datasets": [{"path": str(tmp_path / "semi.csv"),
                                                     "delimiter": ";;"}],
                          "classifiers": ["nb"]}, tmp_path)
    assert set(problems) == {"datasets[0].delimiter"}


def _two_csv_parts(folder):
    """A chunked data set ``parts/*.csv`` of two small CSV files in ``folder``."""
    (folder / "parts").mkdir()
    for i in range(2):
        (folder / "parts" / f"{i}.csv").write_text("a,class\nx,p\ny,q\n")


def test_a_chunked_data_set_refuses_what_it_cannot_compute_by_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _two_csv_parts(tmp_path)
    config = tmp_path / "big.yaml"
    config.write_text(textwrap.dedent("""\
        name: big
        datasets: [parts/*.csv]
        cv: {folds: 2, stratified: true}
        preprocess: {impute: mean_mode}
        classifiers: [nb, gnb, {name: kdb, params: {k: [1, 2], weights: awnb}},
                      {name: tan, input: onehot}, {name: ande, params: {n: [1, 2]}}, skdb]
        metrics: [accuracy, error, auc_ovr, bic, rmse]
        """))
    result = CliRunner().invoke(main, ["run", str(config)])
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    for key, n in (("classifiers[1]:", 1), ("classifiers[2]:", 2), ("classifiers[3]:", 1),
                   ("metrics[2]:", 1), ("preprocess.impute:", 1)):
        assert sum(f"big.yaml: {key}" in ln for ln in lines) == n, (key, result.output)
    assert len(lines) == 6, result.output
    # AUC ranks every test row; attribute weights are learned from the rows themselves.
    assert "'auc_ovr' is not computed for the chunked data set 'parts' (datasets[0])" in \
        result.output
    # kdb of k >= 2 and A2DE count their tables beyond pairs in a pass over the files,
    # skdb fits in passes over them; bic and rmse are sums over rows; stratified is hashed.
    for key in ("classifiers[4]", "classifiers[5]", "metrics[3]", "metrics[4]",
                "cv.stratified"):
        assert key not in result.output
    assert not (tmp_path / "results").exists()


def test_a_chunked_data_set_refuses_the_floor_fold_size_by_key(tmp_path, monkeypatch):
    # Its folds are dealt by a hash of the row index: sizes are equal only in expectation,
    # so n // k rows per fold cannot be promised.
    monkeypatch.chdir(tmp_path)
    _two_csv_parts(tmp_path)
    config = tmp_path / "big.yaml"
    config.write_text("name: big\ndatasets: [parts/*.csv]\ncv: {folds: 2, fold_size: floor}\n"
                      "classifiers: [nb]\n")
    result = CliRunner().invoke(main, ["run", str(config)])
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "big.yaml: cv.fold_size: " in lines[0], result.output
    assert not (tmp_path / "results").exists()


def test_a_numeric_chunked_data_set_is_discretized_by_a_counting_method_or_refused_by_key(
        tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "0.csv").write_text("a,n,class\nx,1.5,p\ny,?,q\nx,2,q\n")
    base = {"name": "c", "datasets": ["parts/"], "classifiers": ["nb"],
            "cv": {"folds": 2, "stratified": False}}
    for scope in ("fold", "global"):
        problems = _problems({**base, "preprocess": {"discretize": "fd", "scope": scope}},
                             tmp_path)
        assert set(problems) == {"preprocess.discretize"} and "mdl or width" in \
            problems["preprocess.discretize"]
        for method in ("mdl", "width"):
            parse_config({**base, "preprocess": {"discretize": method, "scope": scope}},
                         base_dir=tmp_path)
    (tmp_path / "parts" / "0.csv").write_text("a,n,class\nx,1.5,p\ny,?,q\nx,two,q\n")
    parse_config(base, base_dir=tmp_path)  # nominal: the per-fold scope is harmless


def test_a_directory_or_glob_is_a_chunked_data_set_named_after_its_directory(tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "0.csv").write_text("a,class\nx,p\ny,q\n")
    for ref in ("parts/", "parts/*.csv"):
        config = parse_config({"name": "c", "datasets": [ref], "classifiers": ["nb"],
                               "cv": {"folds": 2}}, base_dir=tmp_path)
        [spec] = config.experiment.datasets
        assert spec.name == "parts"
    problems = _problems({"name": "c", "datasets": ["parts/*.arff"], "classifiers": ["nb"]},
                         tmp_path)
    assert "no file matches" in problems["datasets[0]"]


def test_a_single_file_is_chunked_only_when_declared_and_of_a_chunked_format(tmp_path):
    (tmp_path / "one.arff").write_text("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n"
                                       "@data\nx,p\ny,q\n")
    (tmp_path / "t.parquet").write_bytes(b"PAR1")
    (tmp_path / "d.libsvm").write_text("1 1:0.5\n2 1:1.5\n")
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "0.csv").write_text("a,class\nx,p\ny,q\n")
    config = parse_config({"name": "c", "datasets": [{"path": "one.arff", "chunked": True}],
                           "classifiers": ["nb"], "cv": {"folds": 2, "stratified": False}},
                          base_dir=tmp_path)
    [spec] = config.experiment.datasets
    assert spec.chunked and spec.name == "one" and spec.identity()["chunked"] is True
    base = {"name": "c", "classifiers": ["nb"]}
    assert _problems({**base, "datasets": [{"path": "t.parquet"}]}, tmp_path) == {
        "datasets[0]": "a Parquet file is read only in chunks: add 'chunked: true' "
                       "(docs/large-data.md)"}
    assert "always read in chunks" in _problems(
        {**base, "datasets": [{"path": "parts/", "chunked": False}]}, tmp_path)[
        "datasets[0].chunked"]
    assert "'.libsvm' files are not read in chunks" in _problems(
        {**base, "datasets": [{"path": "d.libsvm", "chunked": True}]}, tmp_path)[
        "datasets[0].chunked"]
    assert "datasets[0].chunked" in _problems(
        {**base, "datasets": [{"path": "one.arff", "chunked": "yes"}]}, tmp_path)


def test_noise_mode_values_is_opt_in_and_checked(tmp_path, data_dir):
    base = {"name": "v", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"]}
    plain = parse_config(dict(base, preprocess={"noise": {"fraction": 0.1}}), base_dir=tmp_path)
    # The default mode leaves the identity (and so every task id) as it was before modes.
    assert plain.experiment.preprocess.identity()["noise"] == {"fraction": 0.1, "on": "train"}
    values = parse_config(dict(base, preprocess={"noise": {"fraction": 0.1, "mode": "values"}}),
                          base_dir=tmp_path)
    assert values.experiment.preprocess.identity()["noise"]["mode"] == "values"
    problems = _problems(dict(base, preprocess={"noise": {"fraction": 0.1, "mode": "rows"}}),
                         tmp_path)
    assert "attributes" in problems["preprocess.noise.mode"]
    assert "values" in problems["preprocess.noise.mode"]


def test_published_names_a_file_beside_the_config_and_the_run_keeps_it(tmp_path, data_dir):
    (tmp_path / "pub.yaml").write_text("tables: []\n")
    base = {"name": "p", "datasets": [str(data_dir / "toy.csv")], "classifiers": ["nb"],
            "published": "pub.yaml"}
    cfg = parse_config(base, base_dir=tmp_path)
    assert cfg.options.published == str(tmp_path / "pub.yaml")
    assert resolved_config(cfg.experiment, cfg.options, tmp_path)["published"] == \
        str(tmp_path / "pub.yaml")
    # It changes no record: the identity the task ids hash is that of a config without it.
    bare = parse_config({k: v for k, v in base.items() if k != "published"}, base_dir=tmp_path)
    assert bare.experiment.identity() == cfg.experiment.identity()
    assert "no such file" in _problems(dict(base, published="gone.yaml"), tmp_path)["published"]


# ------------------------------------------------- tuning grids are bounded (issue 25, class 6)

@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(1, 200), min_size=1, max_size=4))
def test_a_tuning_grid_over_the_limit_is_refused_before_any_value_is_checked(tmp_path_factory,
                                                                            lengths):
    """A tune: grid of 40,000 settings ran past 60 s, one of 10^8 took 2.7 GB: the
    1,000-setting limit of params grids applies to tune: grids too."""
    names = ["alpha", "a", "b", "c"][:len(lengths)]
    grid = {n: [0.5 + i for i in range(m)] for n, m in zip(names, lengths)}
    tmp = tmp_path_factory.mktemp("tune")
    (tmp / "toy.csv").write_text("x,c\n0,a\n1,b\n0,a\n1,b\n")
    problems = _problems({"name": "x", "datasets": [str(tmp / "toy.csv")], "classifiers": [
        {"name": "tan", "tune": {"params": grid, "folds": 1}}]}, tmp)  # one problem always
    size = math.prod(lengths)
    message = problems.get("classifiers[0].tune.params", "")
    if size > 1000:
        assert message == (f"a tuning grid of {size:,} settings "
                           f"({' x '.join(map(str, lengths))}); at most 1,000 (docs/limits.md)")
    else:
        assert "tuning grid" not in message


def test_symbolic_link_loops_are_refused_in_one_line_naming_them(tmp_path, data_dir,
                                                                  monkeypatch):
    # A data path, a file of a chunked folder or the output that is a symbolic link loop
    # ended in pathlib's RuntimeError traceback, was left out of the data set without a word,
    # or was refused as "File exists" (issue 25, class 9).
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop.arff").symlink_to("loop.arff")
    folder = tmp_path / "parts"
    folder.mkdir()
    (folder / "a.csv").write_text((data_dir / "toy.csv").read_text())
    (folder / "b.csv").symlink_to("b.csv")
    (folder / "up").symlink_to("..")                # a loop of directories: not a CSV file
    (tmp_path / "out").symlink_to("out")
    base = {"name": "x", "classifiers": ["nb"], "preprocess": {"scope": "global"},
            "cv": {"folds": 2}}
    for raw, words in (
            ({"datasets": ["loop.arff"]}, "datasets[0]: loop.arff is a symbolic link to nothing"),
            ({"datasets": ["./parts"]}, f"datasets[0]: {folder / 'b.csv'}: is a symbolic link "
                                        f"to nothing (a loop, or its target is gone)"),
            ({"datasets": [str(data_dir / "toy.csv")], "output": "out"},
             "out is a symbolic link to nothing (a loop, or its target is gone); choose a new "
             "directory")):
        res = CliRunner().invoke(main, ["run", _write(tmp_path, {**base, **raw}), "-q"])
        assert res.exit_code != 0 and words in res.stderr, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.output
    with pytest.raises(DataError, match="loop.arff: is a symbolic link to nothing"):
        load_dataset(tmp_path / "loop.arff")


# ------------------------------------------------------ nothing silently ignored (issue 34, class 6)

_BV = {"kind": "bias_variance", "iterations": 3, "train_fraction": 0.5}


@pytest.mark.parametrize("extra, key", [
    ({"cv": {"train_sizes": [0.5]}}, "cv"),              # the issue's example
    ({"arms": [{"name": "a"}, {"name": "b", "cv": {"train_sizes": [0.5]}}]}, "arms[1].cv"),
])
def test_a_learning_curve_under_an_evaluation_is_refused_naming_the_key(tmp_path, extra, key):
    problems = _problems({"name": "bv", "datasets": ["iris"], "classifiers": ["nb"],
                          "evaluation": _BV, **extra}, tmp_path)
    assert problems[key].startswith("not used beside evaluation")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(["vote", "house-votes-84", "PATH", {"path": "PATH", "name": "hv"}]),
       st.integers(2, 4))
def test_one_file_read_the_same_way_is_one_data_set_whatever_it_is_called(tmp_path, uci_dir,
                                                                          names, n):
    # An alias and its canonical name ran as two data sets, dealt other folds (class 6).
    path = str(uci_dir / "house-votes-84.arff")
    entries = [path if e == "PATH" else {**e, "path": path} if isinstance(e, dict) else e
               for e in names[:n]]
    # (a name and a path that call it the same are refused as one name used twice)
    with pytest.raises(ConfigError, match=r"datasets\[1\]: ('[a-z0-9-]+' is the data set of "
                                          r"datasets\[0\] .*read the same way; list it once|"
                                          r"data set name '[a-z0-9-]+' is used twice)"):
        parse_config({"name": "twice", "datasets": entries, "classifiers": ["nb"]},
                     base_dir=tmp_path)


def test_one_file_read_two_ways_stays_two_data_sets(tmp_path, uci_dir):
    path = str(uci_dir / "house-votes-84.arff")
    cfg = parse_config({"name": "two", "classifiers": ["nb"], "datasets": [
        "house-votes-84", {"path": path, "name": "hv-few", "attributes": ["handicapped-infants"]}]},
        base_dir=tmp_path)
    assert [d.name for d in cfg.experiment.datasets] == ["house-votes-84", "hv-few"]


def test_worker_threads_of_a_serial_run_are_refused(tmp_path):
    raw = {"name": "t", "datasets": ["iris"], "classifiers": ["nb"], "worker_threads": 2}
    assert "jobs 1 runs every task in this process" in _problems({**raw, "jobs": 1},
                                                                 tmp_path)["worker_threads"]
    cfg = parse_config(raw, base_dir=tmp_path)
    for flags, key in (({"jobs": 1}, "jobs"), ({"jobs": 1, "worker_threads": 3}, "worker_threads")):
        with pytest.raises(ConfigError) as info:
            override(cfg, **flags)
        assert info.value.problems[0][0] == key
    assert override(cfg, jobs=2).options.worker_threads == 2


def test_save_networks_without_a_network_learner_is_refused(tmp_path):
    # AODE is an ensemble and gnb Gaussian: the run wrote no networks/ and said nothing.
    raw = {"name": "t", "datasets": ["iris"], "save_networks": ["bif"]}
    problem = _problems({**raw, "classifiers": ["aode", "gnb"]}, tmp_path)["save_networks"]
    assert "no classifier of the config learns one Bayesian network" in problem
    assert "aode, gnb" in problem
    assert parse_config({**raw, "classifiers": ["aode", "tan"]},
                        base_dir=tmp_path).options.save_networks == ("bif",)


@pytest.mark.parametrize("args, flag, words", [
    (["--worker-threads", "2", "-j", "1"], "--worker-threads", "jobs 1 runs every task"),
    (["--repeats", "2", "-j", "2"], "--repeats", "loo is deterministic; repeats must be 1"),
])
def test_an_ignored_option_of_run_is_a_usage_error(tmp_path, monkeypatch, args, flag, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loo.yaml").write_text("name: loo\ndatasets: [lenses]\nclassifiers: [nb]\n"
                                       "cv: {loo: true}\n")
    res = CliRunner().invoke(main, ["run", "loo.yaml", "-o", "out", "-q", *args])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith(f"bayesbench: error: {flag}: ") and words in res.output
    assert not (tmp_path / "out").exists()


def test_repeats_of_a_deterministic_scheme_other_than_one_are_refused(tmp_path):
    cfg = parse_config({"name": "loo", "datasets": ["iris"], "classifiers": ["nb"],
                        "cv": {"loo": True}}, base_dir=tmp_path)
    with pytest.raises(ConfigError, match="loo is deterministic; repeats must be 1"):
        override(cfg, repeats=3)
    assert override(cfg, repeats=1).experiment.cv == cfg.experiment.cv  # a smoke test's 1
    # A bootstrap's replicates are its `bootstrap`: more repeats were ignored.
    arms = [{"name": "k"}, {"name": "b", "cv": {"bootstrap": 5}}]
    both = parse_config({"name": "b", "datasets": ["iris"], "classifiers": ["nb"],
                         "arms": arms}, base_dir=tmp_path)
    with pytest.raises(ConfigError, match="arm 'b': the bootstrap has no repetitions"):
        override(both, repeats=2)
    assert override(both, repeats=1).experiment.arms[1].cv == both.experiment.arms[1].cv


def test_a_missing_data_dir_of_datasets_is_a_usage_error(tmp_path):
    res = CliRunner().invoke(main, ["datasets", "-d", str(tmp_path / "nowhere"), "iris"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith("bayesbench: error: --data-dir: ") and "nowhere" in res.output
