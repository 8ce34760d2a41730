"""A run records, per classifier, the distribution and version providing its class and every
parameter its model had (scikit-learn's own get_params()), and load_results has them as columns."""
import hashlib
import json
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import bayesbench
from bayesbench.cli import main
from helpers import Majority


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("provenance")
    config = tmp / "prov.yaml"
    config.write_text(yaml.safe_dump({
        "name": "prov", "seed": 2, "datasets": ["iris"], "cv": {"folds": 2},
        "classifiers": [{"name": "sklearn.linear_model:LogisticRegression",
                         "params": {"C": 0.5}, "label": "lr"},
                        "nb", {"name": "helpers:Majority", "label": "majority"}]}))
    res = CliRunner().invoke(main, ["run", str(config), "-o", str(tmp / "run"), "-j", "1",
                                    "-q"])
    assert res.exit_code == 0, res.output
    return tmp / "run"


def test_the_session_records_each_classifiers_distribution_and_every_parameter(run_dir):
    import sklearn
    from sklearn.linear_model import LogisticRegression

    session = json.loads((run_dir / "environment.json").read_text())["sessions"][-1]
    lr = session["classifiers"]["lr"]
    assert lr["distribution"] == "scikit-learn" and lr["version"] == sklearn.__version__
    assert lr["class"] == "sklearn.linear_model._logistic.LogisticRegression"
    # Every value scikit-learn itself reports, the defaults the config did not write included.
    expected = json.loads(json.dumps(LogisticRegression(C=0.5).get_params(deep=False)))
    assert lr["params"] == expected and len(expected) > 10
    assert session["classifiers"]["nb"]["distribution"] == "bayesbench"
    assert session["classifiers"]["nb"]["version"] == bayesbench.__version__
    # A class of no installed distribution (a module on the path) says so, and its module
    # file's checksum names its code (issue 34, class 9: an edit left no trace).
    assert session["classifiers"]["majority"]["distribution"] is None
    helpers_file = Path(sys.modules[Majority.__module__].__file__)
    assert session["classifiers"]["majority"]["source_sha256"] == \
        hashlib.sha256(helpers_file.read_bytes()).hexdigest()
    assert "source_sha256" not in lr and "source_sha256" not in session["classifiers"]["nb"]
    # The command line (here the test runner's: click's runner leaves sys.argv alone).
    assert session["command"] and all(isinstance(a, str) for a in session["command"])


def test_load_results_has_every_parameter_as_a_column(run_dir):
    from sklearn.linear_model import LogisticRegression

    frame = bayesbench.load_results(run_dir)
    lr = frame[frame.classifier == "lr"]
    defaults = LogisticRegression().get_params()
    assert (lr["param_C"] == 0.5).all()
    assert (lr["param_max_iter"] == defaults["max_iter"]).all()
    assert (lr["param_tol"] == defaults["tol"]).all()
    # The seed each task gave the model, as its record holds it, not the default None.
    records = [r for r in bayesbench.evaluation.store.read_records(run_dir)
               if r["classifier"] == "lr"]
    assert sorted(lr["param_random_state"]) == sorted(r["params"]["random_state"]
                                                      for r in records)
    assert frame[frame.classifier == "lr"]["param_max_iter"].notna().all()
    # (nb has a max_iter too since its cll estimator; the helper's Majority has none)
    assert frame[frame.classifier == "majority"]["param_max_iter"].isna().all()


def test_each_record_of_a_scikit_learn_classifier_carries_its_version_and_every_parameter(
        run_dir):
    import sklearn
    from sklearn.linear_model import LogisticRegression

    records = bayesbench.evaluation.store.read_records(run_dir)
    lr = [r for r in records if r["classifier"] == "lr"]
    assert len(lr) == 2
    for record in lr:
        own = record["provenance"]
        assert own["distribution"] == "scikit-learn" and own["version"] == sklearn.__version__
        # scikit-learn's own get_params() of the model the task fitted, its seed included.
        model = LogisticRegression(C=0.5, random_state=record["params"]["random_state"])
        assert own["params"] == json.loads(json.dumps(model.get_params(deep=False)))
    # A module of no distribution says so; bayesbench's own learners' records stay as they were
    # (their version is the run's, in environment.json).
    majority = [r for r in records if r["classifier"] == "majority"]
    assert majority and all(r["provenance"]["distribution"] is None for r in majority)
    assert len({r["provenance"]["source_sha256"] for r in majority}) == 1
    assert all("provenance" not in r for r in records if r["classifier"] == "nb")


def test_a_records_own_parameters_win_over_the_sessions(run_dir, tmp_path):
    # A run resumed under another version: the session's defaults are the last session's, a
    # record's are what its task ran, and load_results shows the record's.
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    env = json.loads((copy / "environment.json").read_text())
    env["sessions"][-1]["classifiers"]["lr"]["params"]["max_iter"] = 12345
    (copy / "environment.json").write_text(json.dumps(env))
    frame = bayesbench.load_results(copy)
    from sklearn.linear_model import LogisticRegression

    default = LogisticRegression().get_params()["max_iter"]
    assert (frame[frame.classifier == "lr"]["param_max_iter"] == default).all()


# ------------------------------------------------------------- what stays hidden (issue 34, class 9)

def test_the_environment_records_numba_and_every_library_bayesbench_requires(run_dir):
    import numba
    import threadpoolctl

    versions = json.loads((run_dir / "environment.json").read_text())["sessions"][-1]["versions"]
    assert versions["numba"] == numba.__version__  # the kernels' compiler: was left out
    assert versions["threadpoolctl"] == threadpoolctl.__version__
    assert versions["bayesbench"] == bayesbench.__version__
    assert None not in versions.values()


def test_the_environment_records_the_optional_libraries_the_run_used(run_dir):
    # pyarrow wrote the prediction files whose SHA-256 the records keep, and the summary's
    # scores.parquet; matplotlib drew the figures: neither version was recorded.
    import matplotlib
    import pyarrow

    versions = json.loads((run_dir / "environment.json").read_text())["sessions"][-1]["versions"]
    assert versions["pyarrow"] == pyarrow.__version__
    assert versions["matplotlib"] == matplotlib.__version__
    assert "pgmpy" not in versions and "pytest" not in versions  # the tests' extras: unused


def test_a_distribution_installed_after_the_first_look_is_recorded(tmp_path, monkeypatch):
    # The map of packages to distributions was made once per process: a plugin installed
    # after a first run was recorded as "distribution: null" by every later run in it.
    import importlib

    from bayesbench.evaluation.provenance import distribution_of

    site = tmp_path / "site"
    site.mkdir()
    (site / "late_plugin.py").write_text("class Clf:\n    pass\n")
    monkeypatch.syspath_prepend(str(site))
    cls = importlib.import_module("late_plugin").Clf
    assert distribution_of(cls) == (None, None)  # a module on the path, of no distribution
    info = site / "late_plugin-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: late-plugin\nVersion: 1.2\n")
    (info / "top_level.txt").write_text("late_plugin\n")
    assert distribution_of(cls) == ("late-plugin", "1.2")
    monkeypatch.delitem(sys.modules, "late_plugin")


def test_an_edit_of_a_module_of_no_distribution_changes_its_checksum(tmp_path, monkeypatch):
    import importlib

    from bayesbench.evaluation.provenance import source_sha256

    module = tmp_path / "beside_config.py"
    module.write_text("class Model:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = importlib.import_module("beside_config").Model
    before = source_sha256(first)
    assert before == hashlib.sha256(module.read_bytes()).hexdigest()
    module.write_text("class Model:\n    shift = 1\n")
    after = source_sha256(first)
    assert after == hashlib.sha256(module.read_bytes()).hexdigest() != before
    sys.modules.pop("beside_config")
