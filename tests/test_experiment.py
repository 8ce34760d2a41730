"""Running an experiment end to end: records, paired folds, preprocessing per fold, resuming,
and result directories written by an earlier version resumed without recomputing anything."""
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from bayesbench.cli import main
from bayesbench.config import load_config, override
from bayesbench.data import load_dataset
from bayesbench.evaluation.splits import make_splits
from bayesbench.evaluation.store import read_records
from bayesbench.experiment import run_experiment
from bayesbench.models.learners.naive_bayes import NaiveBayes
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.evaluation.schemes import KFold
from click.testing import CliRunner
from helpers import run, small_config, stable_order, without_timings

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "run-d38ed37"
# The fixture's config names its data files by this absolute path (task ids hash it), so
# the files are put back there before the fixture is resumed.
DATA = Path("/tmp/bayesbench-fixture-d38ed37/data")


def _place_data():
    DATA.mkdir(parents=True, exist_ok=True)
    for source in (FIXTURE / "data").iterdir():
        target = DATA / source.name
        if not target.exists() or target.read_bytes() != source.read_bytes():
            tmp = target.with_suffix(".tmp")
            shutil.copyfile(source, tmp)
            tmp.replace(target)  # atomic: a concurrent test run never reads half a file


def _fixture_config(output):
    cfg = override(load_config(FIXTURE / "fixture.yaml"), output=output, jobs=1, quiet=True)
    return cfg.experiment, cfg.options


def test_a_run_directory_of_commit_d38ed37_resumes_with_nothing_to_do(tmp_path):
    # Written by `bayesbench run fixture.yaml -o run -j 1 -q --format csv` at commit d38ed37
    # (before issue 10): two arms, three data sets, four classifiers, failed tasks included.
    _place_data()
    run = tmp_path / "run"
    shutil.copytree(FIXTURE / "run", run)
    before = {p.relative_to(run): p.read_bytes() for p in run.rglob("*") if p.is_file()}
    result = CliRunner().invoke(main, ["run", str(FIXTURE / "fixture.yaml"), "-o", str(run),
                                       "-j", "1", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("(36 already done, 0 run, 6 failed)") == 2, result.stdout
    for arm in ("clean", "noisy"):
        for name in ("records.jsonl", "tasks.txt"):
            assert (run / arm / name).read_bytes() == before[Path(arm, name)]
    # Summaries written again, from the same records, are the same bytes (their layout has
    # changed since d38ed37, so the comparison is with a second resumption's).
    once = {p.relative_to(run): p.read_bytes() for p in run.rglob("*")
            if p.is_file() and p.suffix in (".csv", ".svg", ".dot")}
    again = CliRunner().invoke(main, ["run", str(FIXTURE / "fixture.yaml"), "-o", str(run),
                                      "-j", "1", "--format", "csv"])
    assert again.exit_code == 0, again.output
    assert {name: (run / name).read_bytes() for name in once} == once
    assert Path("comparison.csv") in once and Path("clean/summary/scores.csv") in once


def test_the_fixture_experiment_run_afresh_gives_the_same_records(tmp_path):
    _place_data()
    [clean, noisy] = run_experiment(*_fixture_config(tmp_path / "run"))
    for result in (clean, noisy):
        written = FIXTURE / "run" / result.run_dir.name
        old = [without_timings(r) for r in stable_order(read_records(written))]
        # Records have gained fields since (schema_version 2: kappa, CPU seconds, the first
        # fold's network); every field the old records have is unchanged.
        new = [{k: ({m: v[m] for m in o["metrics"]} if k == "metrics" else v)
                for k, v in without_timings(r).items() if k in o}
               for r, o in zip(stable_order(result.records), old)]
        assert new == old
        assert (result.run_dir / "tasks.txt").read_text() == (written / "tasks.txt").read_text()


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
        for split in make_splits(ds.y, KFold.spec(folds=4), seed=3, dataset="iris", repetition=rep):
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
    split = make_splits(ds.y, KFold.spec(folds=4), seed=3, dataset="iris", repetition=1)[2]
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


def test_same_command_again_skips_every_task(finished):
    cfg, result = finished
    again = run(cfg, jobs=1, quiet=True)
    assert (again.n_skipped, again.n_run) == (result.n_tasks, 0)
    assert len(read_records(result.run_dir)) == result.n_tasks


def test_quickstart_writes_every_table(tmp_path):
    from bayesbench.data import bundled_dir, find_dataset

    cfg = load_config(Path(__file__).resolve().parents[1] / "configs" / "quickstart.yaml")
    experiment = cfg.experiment
    # A plain install has them (in a checkout, datasets/ may hold copies that come first).
    assert all(find_dataset(d.name, [bundled_dir()]) for d in experiment.datasets)
    result = run(cfg, output=tmp_path / "qs", jobs=1, quiet=True)
    assert (result.n_tasks == len(experiment.datasets) * 10 * len(experiment.classifiers)
            and not result.errors)
    names = {p.name for p in (tmp_path / "qs" / "summary").iterdir()}
    for stem in ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro",
                 "per_class", "confusion", "timings", "comparison"):
        assert {f"{stem}.{ext}" for ext in ("txt", "md", "csv", "tex")} <= names
    tex = (tmp_path / "qs" / "summary" / "accuracy.tex").read_text()
    assert tex.startswith(r"\begin{table}") and "diabetes" in tex


def test_global_scope_fits_the_discretizer_and_drop_on_all_data(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["iris", "house-votes-84"],
                       classifiers=["nb"], preprocess={"scope": "global", "impute": "drop"},
                       cv={"folds": 3})
    result = run(cfg, jobs=1, quiet=True)
    records = read_records(result.run_dir)
    votes = load_dataset(uci_dir / "house-votes-84.arff")
    complete = int((~votes.missing_mask().any(axis=1)).sum())
    assert sum(r["n_test"] for r in records if r["dataset"] == "house-votes-84") == complete
    iris = load_dataset(uci_dir / "iris.arff")
    whole = Discretizer("mdl").fit(iris).transform(iris)
    split = make_splits(iris.y, KFold.spec(folds=3), seed=3, dataset="iris", repetition=0)[1]
    nb = NaiveBayes().fit(whole.codes()[split.train], iris.y[split.train],
                          cardinalities=whole.cardinalities, n_classes=3)
    pred = nb.predict(whole.codes()[split.test])
    record = next(r for r in records if r["dataset"] == "iris" and r["fold"] == 1)
    assert record["metrics"]["accuracy"] == pytest.approx(np.mean(pred == iris.y[split.test]))


def test_compare_reads_only_the_tasks_of_the_current_config_after_resume(uci_dir, tmp_path):
    from bayesbench.evaluation.store import records_frame
    from bayesbench.report.compare.inputs import compare_paths

    first = run(small_config(uci_dir, tmp_path, datasets=["lenses", "iris"],
                             classifiers=["nb", "tan"], cv={"folds": 3}), jobs=1, quiet=True)
    changed = small_config(uci_dir, tmp_path, datasets=["lenses", "iris"],
                           classifiers=["nb", "aode"], cv={"folds": 4})
    resumed = run(changed, jobs=1, quiet=True, resume=True)
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
