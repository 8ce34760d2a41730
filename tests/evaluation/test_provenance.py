"""A run records, per classifier, the distribution and version providing its class and every
parameter its model had (scikit-learn's own get_params()), and load_results has them as columns."""
import json

import pytest
import yaml
from click.testing import CliRunner

import bayesbench
from bayesbench.cli import main


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
    # A class of no installed distribution (a module on the path) says so.
    assert session["classifiers"]["majority"]["distribution"] is None
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
    assert frame[frame.classifier == "nb"]["param_max_iter"].isna().all()
