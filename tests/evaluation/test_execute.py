"""Per-fold execution: a learner's randomness is derived from the fold when left unset;
classifiers of any origin, tuned or failing, in a run."""
import numpy as np
import pytest

from bayesbench.config import parse_config
from bayesbench.data import load_dataset
from bayesbench.data.fold_assignment import fold_rng
from bayesbench.errors import ConfigError
from bayesbench.evaluation.seeding import task_seed
from bayesbench.evaluation.plan import plan
from bayesbench.evaluation.prepare import TUNE_STREAM
from bayesbench.evaluation.store import read_records
from bayesbench.evaluation.adapter import FitContext
from bayesbench.evaluation.tune import tune
from bayesbench.models.registry import make_classifier
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.spec import TuneSpec
from helpers import run


def test_random_state_is_derived_per_fold_when_left_none(finished):
    _, result = finished
    for r in read_records(result.run_dir):
        if r["learner"] == "fss":
            assert r["params"]["random_state"] == task_seed(3, r["dataset"], r["repetition"],
                                                            r["fold"])
        else:
            assert "random_state" not in r["params"]


def _hdp_run(tmp_path, name, jobs):
    hdp = {"estimator": "hdp", "iterations": 30}
    raw = {"name": "hdp", "seed": 3, "datasets": ["iris"], "cv": {"folds": 3},
           "preprocess": {"discretize": "mdl"},
           "classifiers": ["nb", {"name": "nb", "label": "nb-hdp", "params": hdp},
                           {"name": "nb", "label": "nb-hdp-0",
                            "params": {**hdp, "random_state": 0}},
                           {"name": "kdb", "label": "kdb-hdp", "params": {"k": 2, **hdp}}],
           "metrics": ["accuracy", "log_loss"], "output": str(tmp_path / name)}
    result = run(parse_config(raw, base_dir=tmp_path), jobs=jobs, quiet=True)
    assert not result.errors
    return {(r["classifier"], r["fold"]): r for r in read_records(result.run_dir)}


def test_hdp_estimates_are_seeded_from_the_task_seed_and_only_they(tmp_path):
    serial = _hdp_run(tmp_path, "serial", 1)
    processes = _hdp_run(tmp_path, "processes", 2)
    for (label, fold), r in serial.items():
        if label == "nb":  # a deterministic fit's record holds no seed
            assert "random_state" not in r["params"]
        elif label == "nb-hdp-0":  # a seed written in the config is kept
            assert r["params"]["random_state"] == 0
        else:
            assert r["params"]["random_state"] == task_seed(3, "iris", 0, fold)
        # the same numbers in processes as serially
        assert r["params"] == processes[label, fold]["params"]
        assert r["metrics"]["log_loss"] == processes[label, fold]["metrics"]["log_loss"]
    # the task's seed, not a fixed one, drew the estimates
    assert any(serial["nb-hdp", f]["metrics"]["log_loss"] !=
               serial["nb-hdp-0", f]["metrics"]["log_loss"] for f in range(3))


def test_the_first_folds_network_is_kept_and_matches_its_summary(finished):
    # The record's network is the structure its one-line summary describes; only the first
    # fold's record holds it, and naive Bayes (nothing learned) has none.
    from bayesbench.models.core.structure import Node, Structure

    _, result = finished
    records = read_records(result.run_dir)
    held = [r for r in records if "network" in r]
    assert held and {(r["repetition"], r["fold"]) for r in held} == {(0, 0)}
    assert {r["learner"] for r in held} == {"fss"}
    for r in held:
        net = r["network"]
        structure = Structure([Node(a, p) for a, p in net["nodes"]], len(net["attributes"]),
                              attribute_names=net["attributes"])
        assert structure.summary() == r["structure"]
    assert all(r["metrics"]["cpu_seconds"] >= 0 for r in records if r["status"] == "ok")


# ------------------------------------------------------------- open classifiers in a run
def _config(tmp_path, classifiers, datasets=("iris", "vote"), **over):
    raw = {"name": "open", "seed": 5, "datasets": list(datasets), "cv": {"folds": 3},
           "classifiers": classifiers, "output": str(tmp_path / "out"), **over}
    return parse_config(raw, base_dir=tmp_path)


def test_a_failing_classifier_loses_nothing_else(tmp_path):
    result = run(_config(tmp_path, ["nb", {"name": "helpers:Unseen", "label": "unseen"},
                                    {"name": "helpers:Raises", "label": "raises"},
                                    {"name": "helpers:Majority", "label": "majority"}]),
                 jobs=1, quiet=True)
    by = {}
    for r in result.records:
        by.setdefault(r["classifier"], []).append(r)
    assert all(r["status"] == "ok" for c in ("nb", "majority") for r in by[c])
    assert {r["error"] for r in by["raises"]} == {"RuntimeError: singular matrix in fold"}
    assert all(r["status"] == "error" and "predict returned labels not seen in training"
               in r["error"] for r in by["unseen"])
    # A classifier without predict_proba has no probability metrics, and its record says so.
    assert all(r["probabilities"] is False and r["metrics"]["log_loss"] is None
               for r in by["majority"])
    assert all("probabilities" not in r for r in by["nb"])
    errors = (result.run_dir / "summary" / "failed_tasks.txt").read_text()
    assert "singular matrix in fold" in errors


@pytest.mark.parametrize("name, fragment", [
    ("no_such_module:Clf", "no module named 'no_such_module'"),
    ("helpers:NoFit", "NoFit has no fit method"),
])
def test_an_unusable_class_is_a_config_error_before_anything_runs(tmp_path, name, fragment):
    with pytest.raises(ConfigError) as err:
        _config(tmp_path, ["nb", name])
    [(key, message)] = err.value.problems
    assert key == "classifiers[1].name" and fragment in message
    assert not (tmp_path / "out").exists()


def test_a_tuned_tan_records_the_alpha_each_outer_fold_chose(tmp_path, uci_dir):
    grid = [0.1, 1, 10]
    config = _config(tmp_path, ["tan", {"name": "tan", "label": "tuned", "tune": {
        "params": {"alpha": grid}, "folds": 4}}], datasets=["iris"])
    records = [r for r in run(config, jobs=1, quiet=True).records if r["classifier"] == "tuned"]
    assert len(records) == 3
    ds = load_dataset(uci_dir / "iris.arff")
    jobs = {job.fold: job for job in plan(config.experiment).jobs}
    for r in records:
        job = jobs[r["fold"]]
        # The same choice made by hand on the outer training part alone.
        train = Discretizer("mdl").fit_transform(ds.take(job.train))
        expected = tune(lambda **c: make_classifier("tan", **c), TuneSpec({"alpha": grid}, 4, "accuracy"),
                        train.codes(), train.y, FitContext(3, train.cardinalities),
                        fold_rng(5, "iris", 0, r["fold"], TUNE_STREAM))
        assert r["tuned"] == expected.params and r["params"] == expected.params
        assert r["tune_scores"] == pytest.approx(list(expected.scores))
        assert r["tuned"]["alpha"] in grid


def test_records_keep_the_attributes_when_a_learner_saw_fewer(tmp_path, uci_dir):
    result = run(_config(tmp_path, ["nb", "gnb", {"name": "gnb", "label": "gnb-onehot",
                                                 "input": "onehot"}],
                         datasets=[str(uci_dir / "german-credit.arff")]), jobs=1, quiet=True)
    ds = load_dataset(uci_dir / "german-credit.arff")
    numeric = [a.name for a in ds.attributes if not a.is_nominal]
    for r in result.records:
        if r["classifier"] == "gnb":
            assert r["attributes"] == numeric and r["n_attributes"] == ds.n_attributes == 20
        else:
            assert "attributes" not in r, r["classifier"]
    assert {r["input"] for r in result.records if r["classifier"] == "gnb-onehot"} == {"onehot"}
    table = (result.run_dir / "summary" / "accuracy.txt").read_text()
    assert (f"Note: german-credit: the classifiers saw different attributes (nb 20 of 20, "
            f"gnb {len(numeric)} of 20, gnb-onehot 20 of 20)") in table
    assert np.isfinite([r["metrics"]["accuracy"] for r in result.records]).all()


# ------------------------------------------------------------- model scores in records
def test_model_scores_in_records_equal_the_model_refitted_on_the_training_rows(tmp_path):
    # Requested as metrics, the scores describe each fold's model on its own training rows;
    # a classifier that has none (scikit-learn's) leaves them out, so tables show them empty.
    from bayesbench.evaluation.metrics import MODEL_SCORES

    experiment = _config(tmp_path, ["nb", "tan", {"name": "sklearn.dummy:DummyClassifier",
                                                  "label": "dummy"}],
                         datasets=("vote",), metrics=["accuracy", *MODEL_SCORES])
    result = run(experiment, jobs=1, quiet=True)
    jobs = {(j.repetition, j.fold): j for j in plan(experiment.experiment).jobs}
    data = load_dataset("vote")
    X, y = data.codes(), data.y
    for r in read_records(result.run_dir):
        if r["classifier"] == "dummy":
            assert r["status"] == "ok" and not set(MODEL_SCORES) & set(r["metrics"])
            continue
        train = jobs[(r["repetition"], r["fold"])].train
        clf = make_classifier(r["learner"]).fit(X[train], y[train],
                                                cardinalities=data.cardinalities,
                                                n_classes=data.n_classes)
        ll, k = clf.log_likelihood(X[train], y[train]), clf.n_free_parameters()
        assert r["metrics"]["loglik"] == pytest.approx(ll, rel=1e-9)
        assert r["metrics"]["cll"] == pytest.approx(
            clf.conditional_log_likelihood(X[train], y[train]), rel=1e-9)
        assert r["metrics"]["n_parameters"] == k
        assert r["metrics"]["bic"] == pytest.approx(k * np.log(train.size) - 2 * ll, rel=1e-9)


def test_asking_for_a_model_score_gives_the_tasks_other_ids(tmp_path):
    # A record written without model scores is not reused for a run that asks for them.
    plain = plan(_config(tmp_path, ["nb"], datasets=("vote",)).experiment).task_ids
    scored = plan(_config(tmp_path, ["nb"], datasets=("vote",), metrics=["bic"]).experiment).task_ids
    assert plain and scored and not plain & scored


# ------------------------------------------------------------------ count subtraction
COUNTED = [{"name": "nb", "params": {"alpha": [0, 0.5, 1]}}, "tan", "ddr_tan",
           {"name": "tan", "label": "tan_bic", "params": {"criterion": "bic", "root": 1}},
           {"name": "kdb", "params": {"k": [0, 1, 2, 4]}}, "aode",
           {"name": "ande", "params": {"n": [1, 2]}},
           {"name": "ande", "label": "ande_sr", "params": {"subsumption": 10}},
           {"name": "nb", "label": "manb", "params": {"weights": "manb"}}]


@pytest.mark.parametrize("over", [
    # Nominal data with missing values, fold-scoped preprocessing that keeps the codes.
    {"datasets": ["house-votes-84", "lenses", "primary-tumor"],
     "cv": {"folds": 5, "repeats": 1}, "classifiers": COUNTED},
    # Numeric data discretized on the whole data set, holdout and k-fold.
    {"datasets": ["iris", "glass"], "preprocess": {"discretize": "mdl", "scope": "global",
                                                   "impute": "mean_mode"},
     "cv": {"folds": 4}, "classifiers": COUNTED},
    {"datasets": ["house-votes-84"], "cv": {"holdout": 0.3},
     "classifiers": ["nb", "tan", "aode", "ande"]},
    # Discretization fitted per training fold: no subtraction.
    {"datasets": ["iris", "glass"], "preprocess": {"discretize": "mdl"},
     "classifiers": ["nb", "tan"]},
])
def test_count_subtraction_leaves_every_record_unchanged(uci_dir, tmp_path, monkeypatch, over):
    import bayesbench.evaluation.classifier_task as task
    import bayesbench.evaluation.fold_job as fold_job
    from bayesbench.models.core.sufficient import StatisticsLearner
    from helpers import small_config, stable_order, without_timings

    counted = []
    original = StatisticsLearner.fit_statistics
    monkeypatch.setattr(StatisticsLearner, "fit_statistics",
                        lambda self, stats: counted.append(1) or original(self, stats))
    with_counts = run(small_config(uci_dir, tmp_path / "a", **over), jobs=1, quiet=True)
    n_counted = len(counted)
    for module in (task, fold_job):  # no task fitted from counts, no fold given them
        monkeypatch.setattr(module, "fits_from_statistics", lambda clf: False)
    from_rows = run(small_config(uci_dir, tmp_path / "b", **over), jobs=1, quiet=True)
    assert len(counted) == n_counted  # the second run fitted every learner from rows
    # Counted exactly where the discrete view keeps the whole data set's codes.
    assert (n_counted > 0) is (over.get("preprocess", {}).get("scope", "global") == "global")
    a = [without_timings(r) for r in stable_order(with_counts.records)]
    b = [without_timings(r) for r in stable_order(from_rows.records)]
    assert len(a) == len(b) > 0 and a == b
    assert sum(r["status"] == "ok" for r in a) > len(a) / 2


def test_the_runners_learners_share_one_compact_code_matrix_per_fold(uci_dir, tmp_path,
                                                                     monkeypatch):
    import bayesbench.evaluation.classifier_task as task
    from bayesbench.evaluation.fold_job import run_fold, with_statistics
    from helpers import small_config
    given = []
    original = task.fit_predict
    monkeypatch.setattr(task, "fit_predict", lambda clf, X, y, X_test, context, **kw: given.append(
        (X, X_test, context.feature_names)) or original(clf, X, y, X_test, context, **kw))
    cfg = small_config(uci_dir, tmp_path, datasets=["house-votes-84"], cv={"folds": 3},
                       classifiers=["bsej", "fss", "kdb", "nb", "tan",
                                    {"name": "nb", "input": "onehot", "label": "nb1h"}])
    [job] = with_statistics([plan(cfg.experiment).jobs[0]])
    records = run_fold(job)
    assert [r["status"] for r in records] == ["ok"] * 6
    votes = load_dataset(uci_dir / "house-votes-84.arff")
    (bsej_X, bsej_test, names), (fss_X, fss_test, _) = given[:2]
    # The same int8 column-major matrices, no DataFrame, no copy; names beside them.
    assert fss_X.base is bsej_X.base and fss_test.base is bsej_test.base
    assert bsej_X.dtype == np.int8 and bsej_X.flags.f_contiguous
    np.testing.assert_array_equal(bsej_X, votes.codes()[job.train])
    assert names == votes.attribute_names
    # kdb (k = 2), nb and tan are fitted from the counts: no training matrix at all.
    assert [X is None for X, _, _ in given[2:5]] == [True, True, True]
    assert given[2][1].base is bsej_test.base
    onehot_names = given[5][2]
    assert given[5][0].dtype == np.float64 and onehot_names[0].startswith(names[0] + "=")


def test_a_continuous_learner_given_arrays_scores_as_fitted_on_a_dataframe(uci_dir, tmp_path):
    # Sums over the rows of a column-major matrix, as a DataFrame's numbers are: the same
    # probabilities to the last bit (row-major ones differ in the last bit on some folds).
    import pandas as pd

    from bayesbench.evaluation.fold_job import run_fold
    from bayesbench.evaluation.metrics import evaluate
    from helpers import small_config
    cfg = small_config(uci_dir, tmp_path, datasets=["wine", "glass"], seed=1,
                       cv={"folds": 10}, classifiers=["gnb"])
    for job in plan(cfg.experiment).jobs:
        [record] = run_fold(job)
        ds = job.data.imputed
        X = pd.DataFrame(ds.numeric_matrix(), columns=ds.attribute_names)
        clf = make_classifier("gnb").fit(X.iloc[job.train], ds.y[job.train],
                                         n_classes=ds.n_classes)
        proba = clf.predict_proba(X.iloc[job.test])
        expected = evaluate(ds.y[job.test], proba.argmax(axis=1), proba, ds.n_classes)
        for metric in ("log_loss", "brier"):
            assert record["metrics"][metric] == expected["metrics"][metric], (ds.name, metric)


def test_save_networks_writes_each_folds_network_that_pgmpy_reads(tmp_path):
    import json
    from pathlib import Path

    from pgmpy.readwrite import BIFReader, XMLBIFReader

    from bayesbench.models.core.export import bif_name
    from bayesbench.preprocess.discretize import range_labels

    raw = {"name": "nets", "seed": 1, "datasets": ["car", "iris"], "cv": {"folds": 3},
           "classifiers": ["nb", "tan", "aode", "gnb"], "save_networks": ["bif", "xmlbif"],
           "output": str(tmp_path / "run")}
    config = parse_config(raw, base_dir=tmp_path)
    result = run(config, jobs=2, quiet=True)
    where = result.run_dir / "networks" / "car"
    # One network per fold of each learner whose model is one network; none for the others.
    assert sorted(p.name for p in where.iterdir()) == ["nb", "tan"]
    assert sorted(p.name for p in (where / "tan").iterdir()) == sorted(
        f"0-{f}{s}" for f in range(3) for s in (".bif", ".bifxml"))
    first = next(r for r in result.records if r["classifier"] == "tan" and r["fold"] == 0
                 and r["dataset"] == "car")
    for network in (BIFReader(str(where / "tan" / "0-0.bif")).get_model(),
                    XMLBIFReader(str(where / "tan" / "0-0.bifxml")).get_model()):
        assert network.check_model()
        # The tree the record describes: each attribute's parent besides the class.
        names = first["network"]["attributes"]
        expected = {names[a[0]]: sorted(["class", *(names[p] for p in parents)])
                    for a, parents in first["network"]["nodes"]}
        assert {v: sorted(network.get_parents(v)) for v in expected} == expected
        # States are the data's values, in the order of the file's declaration.
        assert network.get_cpds("buying").state_names["buying"] == ["vhigh", "high", "med", "low"]
        assert network.get_cpds("doors").state_names["doors"] == ["2", "3", "4", "5more"]
        assert network.get_cpds("class").state_names["class"] == ["unacc", "acc", "good", "vgood"]
    # Iris is discretized in each fold: its cut points lie beside each network, those of a
    # discretizer fitted on the fold's training rows, and name the network's states (Weka's
    # range labels, as the BIF grammar takes them).
    jobs = [j for j in plan(config.experiment).jobs if j.dataset.name == "iris"]
    for job in jobs:
        stem = result.run_dir / "networks" / "iris" / "nb" / f"0-{job.fold}"
        cuts = json.loads(Path(f"{stem}.cuts.json").read_text())
        assert cuts["method"] == "mdl" and cuts["scope"] == "fold"
        fitted = Discretizer("mdl").fit(job.data.imputed.take(job.train)).cuts_
        assert {n: e["cut_points"] for n, e in cuts["attributes"].items()} == {
            n: c.tolist() for n, c in fitted.items()}
        network = BIFReader(f"{stem}.bif").get_model()
        for name, entry in cuts["attributes"].items():
            assert entry["states"] == list(range_labels(fitted[name]))
            assert network.get_cpds(name).state_names[name] == [bif_name(s, state=True)
                                                                  for s in entry["states"]]
    # The records themselves carry no network text.
    assert all("_networks" not in r for r in read_records(result.run_dir))
