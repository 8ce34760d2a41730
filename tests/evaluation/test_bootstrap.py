"""The bootstrap (``cv: {bootstrap: B, estimate: ...}``, Efron and Tibshirani 1997): its
replicates drawn from ``(seed, data set, replicate)``, one record each with the learner fitted
on every copy of a drawn row, and its .632 and .632+ estimates equal to a direct computation
(numpy, and bayesbench's naive Bayes fitted by hand on each bootstrap sample, after MDL cut
points fitted on that sample); resumed and in processes, the serial run's records."""
import shutil

import numpy as np
import pandas as pd
import pytest

from bayesbench import load_results
from bayesbench.config import parse_config
from bayesbench.data import load_dataset
from bayesbench.data.fold_assignment import fold_rng
from bayesbench.errors import ConfigError, PlanError
from bayesbench.evaluation.predictions import load_predictions
from bayesbench.evaluation.schemes import Bootstrap
from bayesbench.evaluation.splits import make_splits
from bayesbench.evaluation.store import RECORDS, read_records
from bayesbench.models.learners.naive_bayes import NaiveBayes
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.report.compare.inputs import read_runs
from bayesbench.report.run.bootstrap_estimates import COLUMNS
from helpers import run, stable_order, without_timings

SEED, B = 5, 12


def _y(counts):
    return np.repeat(np.arange(len(counts)), counts)


# ------------------------------------------------------------------ the replicates
def test_a_replicate_is_n_draws_with_replacement_from_its_own_generator():
    y = _y([30, 20])
    spec = Bootstrap.spec(bootstrap=B)
    for b in (0, 7):
        [split] = make_splits(y, spec, seed=SEED, dataset="d", repetition=b)
        drawn = np.sort(fold_rng(SEED, "d", b).integers(0, 50, 50))
        assert (split.repetition, split.fold) == (b, 0)
        np.testing.assert_array_equal(split.train, drawn)  # every copy kept, sorted
        np.testing.assert_array_equal(split.test, np.setdiff1d(np.arange(50), drawn))
        assert np.unique(split.train).size < 50  # some row drawn twice
    other = make_splits(y, spec, seed=SEED, dataset="e", repetition=0)[0]
    assert not np.array_equal(other.train, make_splits(y, spec, seed=SEED, dataset="d",
                                                       repetition=0)[0].train)


def test_a_stratified_replicate_keeps_the_class_counts():
    y = _y([40, 9, 1])
    [split] = make_splits(y, Bootstrap.spec(bootstrap=3, stratified=True), seed=1, dataset="d",
                          repetition=2)
    assert np.bincount(y[split.train]).tolist() == [40, 9, 1]
    assert np.isin(split.test, split.train, invert=True).all()


def test_no_row_out_of_bag_is_a_plan_error_naming_the_key():
    with pytest.raises(PlanError) as info:
        make_splits(np.array([0]), Bootstrap.spec(bootstrap=2), seed=0, dataset="one",
                    repetition=0)
    assert info.value.problems[0][0] == ("cv", "bootstrap")


# ------------------------------------------------------------------ the config
def _problems(tmp_path, **over):
    data = tmp_path / "toy.csv"
    data.write_text("a,b,class\n" + "".join(f"{i % 3},{i % 5},{'pq'[i % 2]}\n"
                                           for i in range(30)))
    raw = {"name": "x", "datasets": [str(data)], "classifiers": ["nb"],
           "cv": {"bootstrap": 10}, **over}
    with pytest.raises(ConfigError) as info:
        parse_config(raw, base_dir=tmp_path)
    return dict(info.value.problems)


@pytest.mark.parametrize("over, key, words", [
    ({"cv": {"bootstrap": 1}}, "cv.bootstrap", "between 2 and 1000"),
    ({"cv": {"bootstrap": True}}, "cv.bootstrap", "expected an integer"),
    ({"cv": {"bootstrap": 10, "estimate": 633}}, "cv.estimate", "'633' is not one of oob, 632, "
                                                                "632plus"),
    ({"cv": {"bootstrap": 10, "estimate": ".632+"}}, "cv.estimate", "not one of"),
    ({"cv": {"bootstrap": 10, "repeats": 2}}, "cv.repeats", "not bootstrap"),
    ({"cv": {"bootstrap": 10, "folds": 5}}, "cv", "choose one of"),
    ({"cv": {"bootstrap": 10, "train_sizes": [0.5]}}, "cv.train_sizes", "not of bootstrap"),
    ({"classifiers": [{"name": "nb", "tune": {"params": {"alpha": [0.5, 1]}}}]},
     "classifiers[0].tune", "inner folds would test copies"),
    ({"preprocess": {"impute": "drop"}}, "cv", "impute: drop removes test rows"),
])
def test_bad_values_are_refused_in_one_line_naming_the_key(tmp_path, over, key, words):
    problems = _problems(tmp_path, **over)
    assert words in problems[key] and "\n" not in problems[key]


def test_a_chunked_data_set_is_refused_in_one_line(tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "a.csv").write_text("a,class\nx,p\ny,q\n")
    with pytest.raises(ConfigError) as info:
        parse_config({"name": "x", "datasets": [str(tmp_path / "parts")], "classifiers": ["nb"],
                      "cv": {"bootstrap": 10}}, base_dir=tmp_path)
    assert [k for k, _ in info.value.problems] == ["cv"]
    assert "bootstrap splits need every row at once" in info.value.problems[0][1]


def test_the_estimate_632_may_be_written_as_a_number_and_stratified_defaults_to_false(tmp_path):
    data = tmp_path / "toy.csv"
    data.write_text("a,class\n" + "".join(f"{i % 3},{'pq'[i % 2]}\n" for i in range(30)))
    cv = parse_config({"name": "x", "datasets": [str(data)], "classifiers": ["nb"],
                       "cv": {"bootstrap": 10, "estimate": 632}}, base_dir=tmp_path).experiment.cv
    assert cv.identity() == {"bootstrap": 10, "estimate": "632", "stratified": False}
    assert (cv.n_repetitions, cv.keeps_predictions) == (10, True)


# ------------------------------------------------------------------ the run
def _config(uci_dir, out, estimate="632plus", classifiers=("nb",), replicates=B):
    return parse_config({
        "name": "boot", "seed": SEED, "data_dirs": [str(uci_dir)], "datasets": ["iris", "lenses"],
        "classifiers": list(classifiers), "metrics": ["error"], "format": ["csv"],
        "output": str(out), "cv": {"bootstrap": replicates, "estimate": estimate}},
        base_dir=out.parent)


@pytest.fixture(scope="module")
def nb_run(uci_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("boot") / "run"
    return run(_config(uci_dir, out), jobs=1, quiet=True)


def _fitted(train, test):
    """bayesbench's naive Bayes fitted by hand on ``train`` (numeric attributes cut by MDL
    fitted on it, every copy of a row counted) and its probabilities on ``test``."""
    if not train.nominal_mask.all():
        cuts = Discretizer("mdl").fit(train)
        train, test = cuts.transform(train), cuts.transform(test)
    clf = NaiveBayes().fit(train.codes(), train.y, cardinalities=train.cardinalities,
                           n_classes=train.n_classes)
    return clf.predict_proba(test.codes())


def _direct(path, name):
    """Everything the bootstrap's estimate is made of, computed here: each replicate's
    probabilities on its out-of-bag rows, Err(1), err, gamma, R' and the estimates."""
    ds = load_dataset(path)
    n, y = ds.n_rows, ds.y
    losses, times, replicates = np.zeros(n), np.zeros(n), []
    for b in range(B):
        train = np.sort(fold_rng(SEED, name, b).integers(0, n, n))
        oob = np.setdiff1d(np.arange(n), train)
        proba = _fitted(ds.take(train), ds.take(oob))
        distinct = _fitted(ds.take(np.unique(train)), ds.take(oob))
        replicates.append((oob, proba, distinct))
        losses[oob] += proba.argmax(axis=1) != y[oob]
        times[oob] += 1
    seen = times > 0
    err1 = np.mean(losses[seen] / times[seen])
    predicted = _fitted(ds, ds).argmax(axis=1)
    err = np.mean(predicted != y)
    p = np.bincount(y, minlength=ds.n_classes) / n
    q = np.bincount(predicted, minlength=ds.n_classes) / n
    gamma = np.sum(p * (1 - q))
    clipped = min(err1, gamma)
    rate = (clipped - err) / (gamma - err) if err1 > err and gamma > err else 0.0
    e632 = 0.368 * err + 0.632 * err1
    plus = e632 + (clipped - err) * 0.368 * 0.632 * rate / (1 - 0.368 * rate)
    return dict(replicates=replicates, oob=err1, apparent=err, no_information=gamma,
                overfitting=rate, point632=e632, point632plus=plus, rows=int(seen.sum()))


@pytest.mark.parametrize("name", ["iris", "lenses"])
def test_632_and_632plus_equal_a_direct_computation(nb_run, uci_dir, name):
    want = _direct(uci_dir / f"{name}.arff", name)
    table = pd.read_csv(nb_run.run_dir / "summary" / "bootstrap.csv").set_index("dataset")
    assert list(table.reset_index().columns) == COLUMNS
    row = table.loc[name]
    assert (row["estimate"], row["replicates"], row["rows"]) == ("632plus", B, want["rows"])
    for column in ("oob", "apparent", "no_information", "overfitting"):
        assert row[column] == pytest.approx(want[column], abs=1e-12), column
    assert row["error"] == pytest.approx(want["point632plus"], abs=1e-12)
    assert 0 < want["overfitting"] < 1  # the case that weighs .632+ away from .632
    assert want["point632plus"] != pytest.approx(want["point632"], abs=1e-6)
    # The out-of-bag probabilities of every replicate are those of the model fitted by hand
    # on every copy of its drawn rows, and not those of a model of its distinct rows.
    kept = load_predictions(nb_run.run_dir)
    kept = kept[kept["dataset"] == name]
    columns = [c for c in kept.columns if c.startswith("p_") and kept[c].notna().any()]
    differs = False
    for b, (oob, proba, distinct) in enumerate(want["replicates"]):
        mine = kept[kept["repetition"] == b]
        np.testing.assert_array_equal(mine["row"].to_numpy(), oob)
        np.testing.assert_allclose(mine[columns].to_numpy(), proba, rtol=0, atol=1e-12)
        differs |= not np.allclose(distinct, proba, rtol=0, atol=1e-6)
    assert differs


def test_records_per_replicate_and_one_apparent_task(nb_run, uci_dir):
    records = read_records(nb_run.run_dir)
    assert len(records) == 2 * (B + 1) and all(r["status"] == "ok" for r in records)
    for name, n in (("iris", 150), ("lenses", 24)):
        mine = sorted((r for r in records if r["dataset"] == name), key=lambda r: r["repetition"])
        assert [(r["repetition"], r["fold"]) for r in mine] == [(b, 0) for b in range(B + 1)]
        for b, r in enumerate(mine[:B]):
            drawn = np.unique(fold_rng(SEED, name, b).integers(0, n, n))
            assert (r["n_train"], r["n_test"]) == (n, n - drawn.size)
            assert "apparent" not in r
        assert mine[B]["apparent"] is True and (mine[B]["n_train"], mine[B]["n_test"]) == (n, n)
    # No table of scores averages the apparent error: the metric table has B folds, the
    # scores, load_results and compare's reading have no repetition B.
    error = pd.read_csv(nb_run.run_dir / "summary" / "error.csv")
    assert error["folds"].tolist() == [B, B]
    scores = pd.read_csv(nb_run.run_dir / "summary" / "scores.csv")
    assert scores["repetition"].max() == B - 1
    assert load_results(nb_run.run_dir)["repetition"].max() == B - 1
    assert read_runs([nb_run.run_dir], "error")[0]["repetition"].max() == B - 1


def test_the_oob_estimate_runs_no_apparent_task(uci_dir, tmp_path):
    result = run(_config(uci_dir, tmp_path / "oob", estimate="oob"), jobs=1, quiet=True)
    assert len(result.records) == 2 * B and not any(r.get("apparent") for r in result.records)
    table = pd.read_csv(result.run_dir / "summary" / "bootstrap.csv").set_index("dataset")
    assert table.loc["lenses", "error"] == pytest.approx(
        _direct(uci_dir / "lenses.arff", "lenses")["oob"], abs=1e-12)
    assert table["apparent"].isna().all()


def _records(run_dir):
    return [without_timings(r) for r in stable_order(read_records(run_dir))]


def test_resumed_and_in_processes_the_records_of_the_serial_run(uci_dir, tmp_path):
    def config(out):
        return _config(uci_dir, out, "632", ("nb",), replicates=6)

    serial = run(config(tmp_path / "serial"), jobs=1, quiet=True)
    processes = run(config(tmp_path / "jobs"), jobs=2, quiet=True)
    assert _records(processes.run_dir) == _records(serial.run_dir)
    # A run stopped half way (the records written so far), then run again in processes.
    resumed = tmp_path / "resumed"
    shutil.copytree(serial.run_dir, resumed)
    lines = (resumed / RECORDS).read_text().splitlines(keepends=True)
    (resumed / RECORDS).write_text("".join(lines[:len(lines) // 2]))
    again = run(config(resumed), jobs=2, quiet=True)
    assert again.n_skipped == len(lines) // 2 and again.n_run == len(lines) - len(lines) // 2
    assert _records(resumed) == _records(serial.run_dir)
    for out in (processes.run_dir, resumed):
        pd.testing.assert_frame_equal(pd.read_csv(out / "summary" / "bootstrap.csv"),
                                      pd.read_csv(serial.run_dir / "summary" / "bootstrap.csv"))
