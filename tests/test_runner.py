"""The runner end to end: records, paired folds, preprocessing per fold, summary tables."""
import csv
import io
import os
import socket

import numpy as np
import pandas as pd
import pytest
import yaml
from click.testing import CliRunner
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from bayesbench.cli import main
from bayesbench.config import parse_config
from bayesbench.data import load_dataset
from bayesbench.errors import ResultStoreError
from bayesbench.evaluation.runner import run_experiment, task_seed
from bayesbench.evaluation.splits import CVSpec, make_splits
from bayesbench.evaluation.store import read_records
from bayesbench.models.naive_bayes import NaiveBayes
from bayesbench.preprocess.discretize import Discretizer


def _config(uci_dir, tmp_path, **over):
    raw = {"name": "t", "seed": 3, "data_dirs": [str(uci_dir)],
           "datasets": ["iris", "lenses"], "cv": {"folds": 4, "repeats": 2},
           "classifiers": ["nb", "gnb", {"name": "fss", "params": {"inner_folds": 3}}],
           "output": str(tmp_path / "out")}
    raw.update(over)
    return parse_config(raw, base_dir=tmp_path)


@pytest.fixture(scope="module")
def finished(uci_dir, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("run")
    cfg = _config(uci_dir, tmp)
    result = run_experiment(cfg, jobs=1, quiet=True)
    return cfg, result


def test_one_record_per_task_with_shared_folds(finished, uci_dir):
    cfg, result = finished
    records = read_records(result.run_dir)
    assert len(records) == result.n_tasks == 2 * 2 * 4 * 3
    frame = pd.DataFrame(records)
    # Paired comparisons need identical folds for every classifier.
    assert (frame.groupby(["dataset", "repetition", "fold"])["fold_id"].nunique() == 1).all()
    for name, n in (("iris", 150), ("lenses", 24)):
        ok = frame[(frame.dataset == name) & (frame.classifier == "nb")]
        assert (ok.groupby("repetition")["n_test"].sum() == n).all()
        assert all(np.sum(c) == t for c, t in zip(ok.confusion, ok.n_test))
    # gnb cannot take lenses (no numeric attribute): recorded as an error, the run went on.
    failed = frame[frame.status == "error"]
    assert set(zip(failed.dataset, failed.classifier)) == {("lenses", "gnb")}
    assert failed.error.str.contains("no numeric attributes").all()
    assert {e["classifier"] for e in result.errors} == {"gnb"}


def test_recorded_structures_name_the_attributes(finished, uci_dir):
    _, result = finished
    frame = pd.DataFrame(read_records(result.run_dir))
    fss = frame[(frame.dataset == "lenses") & (frame.classifier == "fss")]
    names = set(load_dataset(uci_dir / "lenses.arff").attribute_names)
    dropped = fss.structure.str.extract(r"dropped \(([^)]*)\)")[0].dropna()
    assert len(dropped) > 0
    assert all(set(d.split(", ")) <= names for d in dropped)


def test_gaussian_fold_scores_match_sklearn_on_the_same_folds(finished, uci_dir):
    cfg, result = finished
    ds = load_dataset(uci_dir / "iris.arff")
    records = {(r["repetition"], r["fold"]): r for r in read_records(result.run_dir)
               if r["dataset"] == "iris" and r["classifier"] == "gnb"}
    X = ds.numeric_matrix()
    for rep in range(2):
        for split in make_splits(ds.y, CVSpec(folds=4), seed=3, dataset="iris", repetition=rep):
            r = records[rep, split.fold]
            assert r["fold_id"] == split.fold_id
            sk = SkGaussianNB().fit(X[split.train], ds.y[split.train])
            proba = sk.predict_proba(X[split.test])
            expected = np.mean(proba.argmax(axis=1) == ds.y[split.test])
            assert r["metrics"]["accuracy"] == pytest.approx(expected)
            true_p = proba[np.arange(split.test.size), ds.y[split.test]]
            assert r["metrics"]["log_loss"] == pytest.approx(
                -np.mean(np.log(np.clip(true_p, 1e-300, 1))), rel=1e-6)


def test_discretizer_is_fitted_on_the_training_fold_only(finished, uci_dir):
    cfg, result = finished
    ds = load_dataset(uci_dir / "iris.arff")
    split = make_splits(ds.y, CVSpec(folds=4), seed=3, dataset="iris", repetition=1)[2]
    disc = Discretizer("mdl").fit(ds.take(split.train))
    train, test = disc.transform(ds.take(split.train)), disc.transform(ds.take(split.test))
    nb = NaiveBayes().fit(train.codes(), train.y, cardinalities=train.cardinalities,
                          n_classes=3)
    proba = nb.predict_proba(test.codes())
    record = next(r for r in read_records(result.run_dir) if r["dataset"] == "iris" and
                  r["classifier"] == "nb" and r["repetition"] == 1 and r["fold"] == 2)
    assert record["confusion"] == pd.crosstab(
        pd.Categorical(test.y, categories=range(3)),
        pd.Categorical(proba.argmax(axis=1), categories=range(3)), dropna=False).values.tolist()


def test_random_state_is_derived_per_fold_when_left_none(finished):
    _, result = finished
    for r in read_records(result.run_dir):
        if r["learner"] == "fss":
            assert r["params"]["random_state"] == task_seed(3, r["dataset"], r["repetition"],
                                                            r["fold"])
        else:
            assert "random_state" not in r["params"]


def _read_csv(path):
    return list(csv.reader(io.StringIO(path.read_text())))


def test_summary_tables_agree_with_the_records(finished):
    cfg, result = finished
    summary = result.run_dir / "summary"
    for stem in ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro",
                 "per_class", "confusion", "timings", "errors", "comparison"):
        for ext in ("txt", "md", "csv", "tex"):
            assert (summary / f"{stem}.{ext}").stat().st_size > 0, (stem, ext)
    frame = pd.DataFrame([r for r in read_records(result.run_dir) if r["status"] == "ok"])
    frame["f1_macro"] = [m["f1_macro"] for m in frame.metrics]
    rows = _read_csv(summary / "f1_macro.csv")
    header = rows[0]
    for row in rows[1:]:
        for clf in ("nb", "fss"):
            values = frame[(frame.dataset == row[0]) & (frame.classifier == clf)]["f1_macro"]
            assert float(row[header.index(f"{clf} mean")]) == pytest.approx(values.mean())
            assert float(row[header.index(f"{clf} std")]) == pytest.approx(values.std(ddof=1))
    # Confusion cells summed over every fold of both repetitions.
    cells = _read_csv(summary / "confusion.csv")
    iris_nb = [int(c[4]) for c in cells[1:] if c[0] == "iris" and c[1] == "nb"]
    assert len(iris_nb) == 9 and sum(iris_nb) == 300
    text = (summary / "confusion.txt").read_text()
    assert "rows = true class, columns = predicted class" in text and "Iris-setosa" in text
    # Per-class recall of the summed matrix.
    per_class = _read_csv(summary / "per_class.csv")
    setosa = next(r for r in per_class if r[:3] == ["iris", "nb", "Iris-setosa"])
    diag = next(int(c[4]) for c in cells[1:] if c[:4] == ["iris", "nb", "Iris-setosa",
                                                          "Iris-setosa"])
    assert float(setosa[5]) == pytest.approx(diag / 100)


def test_same_command_again_skips_every_task(finished):
    cfg, result = finished
    again = run_experiment(cfg, jobs=1, quiet=True)
    assert (again.n_skipped, again.n_run) == (result.n_tasks, 0)
    assert len(read_records(result.run_dir)) == result.n_tasks


def test_different_config_is_refused_unless_resume_or_force(uci_dir, tmp_path):
    cfg = _config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    first = run_experiment(cfg, jobs=1, quiet=True)
    changed = _config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb", "tan"])
    with pytest.raises(ResultStoreError, match="different configuration"):
        run_experiment(changed, jobs=1, quiet=True)
    resumed = run_experiment(changed, jobs=1, quiet=True, resume=True)
    assert resumed.run_dir == first.run_dir
    assert (resumed.n_skipped, resumed.n_run) == (first.n_tasks, first.n_tasks)
    forced = run_experiment(changed, jobs=1, quiet=True, force=True)
    assert forced.run_dir == tmp_path / "out-2" and forced.n_run == 2 * first.n_tasks
    stored = yaml.safe_load((first.run_dir / "config.yaml").read_text())
    assert [c["label"] for c in stored["classifiers"]] == ["nb", "tan"]


def test_a_second_writer_is_refused_by_the_lock(uci_dir, tmp_path):
    cfg = _config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "lock").write_text(f"{socket.gethostname()} {os.getpid()}\n")  # a live owner
    with pytest.raises(ResultStoreError, match="in use by another run"):
        run_experiment(cfg, jobs=1, quiet=True)
    assert not (out / "records.jsonl").exists()


def test_cli_run_prints_the_accuracy_table(uci_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(yaml.safe_dump({
        "name": "cli", "data_dirs": [str(uci_dir)], "datasets": ["lenses"],
        "cv": {"resubstitution": True}, "classifiers": ["nb", "tan"],
        "preprocess": {"impute": "mean_mode", "noise": {"fraction": 0.5, "on": "test"}}}))
    result = CliRunner().invoke(main, ["run", "exp.yaml", "-j", "1", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    assert "| lenses" in result.output or "lenses" in result.output
    summary = tmp_path / "results" / "cli" / "summary"
    assert sorted(p.suffix for p in summary.iterdir()) == [".md"] * len(list(summary.iterdir()))
    records = read_records(tmp_path / "results" / "cli")
    # Resubstitution: train = test = all 24 examples.
    assert {(r["n_train"], r["n_test"]) for r in records} == {(24, 24)}


def test_quickstart_writes_every_table(tmp_path):
    from pathlib import Path

    from bayesbench.config import load_config
    from bayesbench.data import bundled_dir, find_dataset

    cfg = load_config(Path(__file__).resolve().parents[1] / "configs" / "quickstart.yaml")
    # A plain install has them (in a checkout, datasets/ may hold copies that come first).
    assert all(find_dataset(d.name, [bundled_dir()]) for d in cfg.datasets)
    result = run_experiment(cfg, output=tmp_path / "qs", jobs=1, quiet=True)
    assert result.n_tasks == len(cfg.datasets) * 10 * len(cfg.classifiers) and not result.errors
    names = {p.name for p in (tmp_path / "qs" / "summary").iterdir()}
    for stem in ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro",
                 "per_class", "confusion", "timings", "comparison"):
        assert {f"{stem}.{ext}" for ext in ("txt", "md", "csv", "tex")} <= names
    tex = (tmp_path / "qs" / "summary" / "accuracy.tex").read_text()
    assert tex.startswith(r"\begin{table}") and "diabetes" in tex


def test_global_scope_fits_the_discretizer_and_drop_on_all_data(uci_dir, tmp_path):
    cfg = _config(uci_dir, tmp_path, datasets=["iris", "house-votes-84"], classifiers=["nb"],
                  preprocess={"scope": "global", "impute": "drop"}, cv={"folds": 3})
    result = run_experiment(cfg, jobs=1, quiet=True)
    records = read_records(result.run_dir)
    votes = load_dataset(uci_dir / "house-votes-84.arff")
    complete = int((~votes.missing_mask().any(axis=1)).sum())
    assert sum(r["n_test"] for r in records if r["dataset"] == "house-votes-84") == complete
    iris = load_dataset(uci_dir / "iris.arff")
    whole = Discretizer("mdl").fit(iris).transform(iris)
    split = make_splits(iris.y, CVSpec(folds=3), seed=3, dataset="iris", repetition=0)[1]
    nb = NaiveBayes().fit(whole.codes()[split.train], iris.y[split.train],
                          cardinalities=whole.cardinalities, n_classes=3)
    pred = nb.predict(whole.codes()[split.test])
    record = next(r for r in records if r["dataset"] == "iris" and r["fold"] == 1)
    assert record["metrics"]["accuracy"] == pytest.approx(np.mean(pred == iris.y[split.test]))


def test_plan_reports_unusable_data_sets_before_creating_the_directory(uci_dir, tmp_path):
    from bayesbench.errors import ConfigError

    cfg = _config(uci_dir, tmp_path, datasets=[{"name": "iris", "class": "colour"}, "lenses"],
                  cv={"folds": 30})
    with pytest.raises(ConfigError) as info:
        run_experiment(cfg, jobs=1, quiet=True)
    keys = [k for k, _ in info.value.problems]
    assert keys == ["datasets[0]", "cv.folds"]
    assert "colour" in info.value.problems[0][1] and "lenses" in info.value.problems[1][1]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("on", ["train", "test", "both"])
def test_noise_shuffles_the_same_attributes_on_the_chosen_side(uci_dir, tmp_path, on):
    from bayesbench.evaluation.runner import plan, prepare_fold

    cfg = _config(uci_dir, tmp_path, datasets=["iris"], classifiers=["gnb"], cv={"folds": 3},
                  preprocess={"noise": {"fraction": 0.5, "on": on}})
    job = plan(cfg)[0][1]
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


def test_summary_marks_a_mean_over_the_folds_that_did_not_fail():
    from bayesbench.evaluation.summary import metric_table

    def record(fold, status, accuracy=None):
        r = {"dataset": "d", "classifier": "c", "repetition": 0, "fold": fold, "status": status}
        return r | ({"metrics": {"accuracy": accuracy}} if status == "ok" else {"error": "boom"})

    records = [record(0, "ok", 0.5), record(1, "ok", 0.7), record(2, "error"),
               record(0, "ok", 0.9)]
    records[3]["classifier"] = "full"
    rows, _ = metric_table(records, "accuracy", ["d"], ["c", "full"], "text")
    assert rows == [["d", f"0.6000 ± {np.std([0.5, 0.7], ddof=1):.4f} (1 of 3 folds failed)",
                     "0.9000 ± 0.0000"]]
    rows, _ = metric_table(records, "accuracy", ["d"], ["c", "full"], "csv")
    assert rows[0][1] == pytest.approx(0.6)


def test_compare_reads_only_the_tasks_of_the_current_config_after_resume(uci_dir, tmp_path):
    from bayesbench.evaluation.store import records_frame
    from bayesbench.report.comparison import compare_paths

    first = run_experiment(_config(uci_dir, tmp_path, datasets=["lenses", "iris"],
                                   classifiers=["nb", "tan"], cv={"folds": 3}), jobs=1, quiet=True)
    changed = _config(uci_dir, tmp_path, datasets=["lenses", "iris"], classifiers=["nb", "aode"],
                      cv={"folds": 4})
    resumed = run_experiment(changed, jobs=1, quiet=True, resume=True)
    assert len(read_records(first.run_dir)) == first.n_tasks + resumed.n_tasks  # stale ones stay
    frame = records_frame(first.run_dir)
    assert sorted(frame["task_id"]) == sorted(r["task_id"] for r in resumed.records)
    # Before: tan's 3-fold records came back as a classifier of the run, and nb's means mixed
    # folds of both protocols.
    cmp = compare_paths([first.run_dir])
    assert cmp.classifiers == ["nb", "aode"]
    iris_nb = [r["metrics"]["accuracy"] for r in resumed.records
               if r["dataset"] == "iris" and r["classifier"] == "nb"]
    assert len(iris_nb) == 4 and cmp.mean.at["iris", "nb"] == pytest.approx(np.mean(iris_nb))


def test_cli_run_prints_the_first_metric_in_the_format_written(uci_dir, tmp_path, monkeypatch):
    # Before: only summary/accuracy.txt was printed, so a run of f1[...] or of markdown tables
    # showed no table at all.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(yaml.safe_dump({
        "name": "cli", "data_dirs": [str(uci_dir)], "datasets": ["lenses"],
        "cv": {"folds": 3}, "classifiers": ["nb", "tan"], "metrics": ["f1_macro", "accuracy"]}))
    result = CliRunner().invoke(main, ["run", "exp.yaml", "-j", "1", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    table = (tmp_path / "results" / "cli" / "summary" / "f1_macro.md").read_text()
    assert result.stdout.startswith(table) and "| lenses" in result.stdout
