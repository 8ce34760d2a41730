"""The open experiment of configs/examples: bayesbench's learners beside scikit-learn's and a
plugin's (examples/oner, registered by an entry point) give the same records serially, in
worker processes and on Dask, resume after SIGKILL, and compare; the plugin itself is OneR."""
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy.stats import rankdata

from bayesbench.cli import main
from bayesbench.config import load_config
from bayesbench.data import load_dataset
from bayesbench.evaluation.store import RECORDS, read_records
from helpers import run, stable_order, without_timings

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "examples" / "open_experiment.yaml"
LABELS = ["nb", "tan", "aode", "logistic", "tree", "oner"]


def _records(run_dir):
    return [without_timings(r) for r in stable_order(read_records(run_dir))]


@pytest.fixture(scope="module")
def serial(oner_plugin, tmp_path_factory):
    out = tmp_path_factory.mktemp("open") / "serial"
    result = run(load_config(CONFIG), output=str(out), jobs=1, quiet=True)
    assert result.n_tasks == 5 * 2 * 5 * 6 and not result.errors, result.errors[:1]
    return out


def test_the_config_names_six_classifiers_of_three_origins(oner_plugin):
    experiment = load_config(CONFIG).experiment
    assert [c.label for c in experiment.classifiers] == LABELS
    assert [c.learner for c in experiment.classifiers][3:] == [
        "sklearn.linear_model:LogisticRegression", "sklearn.tree:DecisionTreeClassifier", "oner"]
    assert len(experiment.datasets) == 5 and (experiment.cv.setting("folds"), experiment.cv.n_repetitions) == (2, 5)


def test_every_classifier_is_fitted_on_the_input_it_takes(serial):
    records = read_records(serial)
    by_learner = {r["classifier"]: r for r in records if r["dataset"] == "glass"}
    assert by_learner["oner"]["structure"].startswith("rule on attribute ")
    assert by_learner["tan"]["structure"].startswith("9 nodes; 8 arcs: RI->")  # named columns
    assert by_learner["logistic"]["structure"] == ""
    # Probabilities of every classifier, aligned to the data set's classes.
    assert all(r["metrics"]["log_loss"] is not None for r in records)


def test_worker_processes_give_the_serial_records(serial, tmp_path):
    out = tmp_path / "jobs2"
    run(load_config(CONFIG), output=str(out), jobs=2, quiet=True)
    assert _records(out) == _records(serial)


def test_dask_workers_import_the_classes_by_path_and_entry_point(serial, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask"
    # The workers are new processes: they find the plugin through PYTHONPATH, as a cluster's
    # workers find an installed package.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        result = CliRunner().invoke(main, ["run", str(CONFIG), "--scheduler",
                                           cluster.scheduler_address, "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert _records(out) == _records(serial)


def _n_lines(path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def _cli(out, *extra):
    return [sys.executable, "-m", "bayesbench.cli", "run", str(CONFIG), "-o", str(out), "-q",
            "--format", "csv", *extra]


def test_a_run_killed_with_sigkill_resumes_to_the_serial_records(serial, tmp_path):
    out = tmp_path / "killed"
    proc = subprocess.Popen(_cli(out, "--jobs", "2"), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while proc.poll() is None and _n_lines(out / RECORDS) < 100:
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 100 <= len(read_records(out)) < 300
    done = subprocess.run(_cli(out, "--jobs", "1"), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _records(out) == _records(serial)


def test_compare_ranks_all_six(serial):
    result = CliRunner().invoke(main, ["compare", str(serial), "--format", "csv"])
    assert result.exit_code == 0, result.output
    records = pd.DataFrame([{"dataset": r["dataset"], "classifier": r["classifier"],
                             "accuracy": r["metrics"]["accuracy"]} for r in read_records(serial)])
    means = records.pivot_table("accuracy", "dataset", "classifier")[LABELS]
    expected = rankdata(-means.to_numpy(), axis=1).mean(axis=0)
    # The tidy scores table: one row per data set and classifier, its rank in a column.
    scores = pd.read_csv(io.StringIO(result.stdout.split("\n\n")[0]))
    ranks = scores.groupby("classifier")["rank"].mean()[LABELS]
    np.testing.assert_allclose(ranks.to_numpy(), expected)


# --------------------------------------------------------------------------- OneR itself
def test_oner_keeps_the_attribute_with_fewest_training_errors(oner_plugin):
    # Holte's rule written out with pandas, on a nominal data set with missing values.
    from bayesbench_oner import OneR

    ds = load_dataset(Path(__file__).resolve().parents[1] / "bayesbench" / "datasets" /
                      "breast-cancer.arff")
    X, y = ds.codes(), ds.y
    model = OneR().fit(X, y, cardinalities=ds.cardinalities, n_classes=ds.n_classes)
    frame = pd.DataFrame(X).assign(y=y)
    errors = [len(frame) - frame.groupby(j)["y"].agg(lambda s: s.value_counts().max()).sum()
              for j in range(X.shape[1])]  # groupby keeps -1 (missing) as a value of its own
    assert model.attribute_ == int(np.argmin(errors))
    # the most frequent class of each value, the lowest class code among equals
    majority = frame.groupby(model.attribute_)["y"].agg(
        lambda s: s.value_counts().sort_index().idxmax())
    predicted = model.predict(X)
    np.testing.assert_array_equal(predicted, majority.loc[X[:, model.attribute_]].to_numpy())
    assert (predicted != y).sum() == min(errors)
