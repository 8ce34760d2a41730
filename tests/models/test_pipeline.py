"""steps: transformers fitted inside each training fold before a classifier, as scikit-learn's
Pipeline does; and a module beside the config importable without PYTHONPATH."""
import numpy as np
import pytest
import yaml
from click.testing import CliRunner
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from bayesbench.cli import main
from bayesbench.config import parse_config
from bayesbench.data import load_dataset, locate_dataset
from bayesbench.errors import ConfigError
from bayesbench.evaluation.splits import make_splits
from bayesbench.evaluation.store import read_records
from bayesbench.evaluation.schemes import KFold

SEED, FOLDS = 4, 5
STEPS = {
    "scaled": (["sklearn.preprocessing:StandardScaler"], lambda: [StandardScaler()]),
    "pca": (["sklearn.preprocessing:StandardScaler",
             {"name": "sklearn.decomposition:PCA", "params": {"n_components": 3}}],
            lambda: [StandardScaler(), PCA(n_components=3)]),
}


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("steps")
    config = tmp / "steps.yaml"
    config.write_text(yaml.safe_dump({
        "name": "steps", "seed": SEED, "datasets": ["wine", "iris"], "cv": {"folds": FOLDS},
        "classifiers": [{"name": "sklearn.linear_model:LogisticRegression", "label": label,
                         "steps": steps} for label, (steps, _) in STEPS.items()]}))
    res = CliRunner().invoke(main, ["run", str(config), "-o", str(tmp / "run"), "-j", "2",
                                    "-q"])
    assert res.exit_code == 0, res.output
    return read_records(tmp / "run")


@pytest.mark.parametrize("dataset", ["wine", "iris"])
@pytest.mark.parametrize("label", list(STEPS))
def test_steps_give_scikit_learns_pipeline_scores_on_the_same_folds(records, dataset, label):
    ds = load_dataset(locate_dataset(dataset))
    folds = [(s.train, s.test) for s in make_splits(ds.y, KFold.spec(folds=FOLDS), seed=SEED,
                                                    dataset=dataset, repetition=0)]
    ours = {r["fold"]: r for r in records if r["dataset"] == dataset and r["classifier"] == label}
    assert all(r["status"] == "ok" for r in ours.values())
    # The runner seeds random_state per task; lbfgs does not draw, so scikit-learn's own
    # default gives the same model.
    expected = cross_val_score(make_pipeline(*STEPS[label][1](), LogisticRegression()),
                               ds.numeric_matrix(), ds.y, cv=folds, scoring="accuracy")
    got = np.array([ours[f]["metrics"]["accuracy"] for f in range(FOLDS)])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_scaling_changes_the_scores_it_is_compared_on(records):
    # Guard: the comparison above would pass if the steps were ignored and scaling did not
    # matter; PCA to 3 components must change something.
    by = {}
    for r in records:
        by.setdefault(r["classifier"], []).append(r["metrics"]["log_loss"])
    assert by["scaled"] != by["pca"]


def test_a_step_that_is_not_a_transformer_or_takes_no_such_parameter_is_a_config_error(tmp_path):
    raw = {"name": "bad", "datasets": ["iris"], "classifiers": [
        {"name": "nb", "steps": ["sklearn.preprocessing:StandardScaler",
                                 {"name": "sklearn.decomposition:PCA", "params": {"k": 3}},
                                 "sklearn.linear_model:LogisticRegression", "scaler"]}]}
    with pytest.raises(ConfigError) as err:
        parse_config(raw, base_dir=tmp_path)
    keys = [k for k, _ in err.value.problems]
    assert keys == ["classifiers[0].steps[1].params.k", "classifiers[0].steps[2].name",
                    "classifiers[0].steps[3].name"]
    assert "not a transformer" in err.value.problems[1][1]
    assert "import path" in err.value.problems[2][1]


def test_a_module_beside_the_config_is_importable_in_the_workers(tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / "beside_config_models.py").write_text(
        "import numpy as np\n\n\n"
        "class First:\n"
        "    def __init__(self):\n        pass\n\n"
        "    def fit(self, X, y):\n        self.first_ = int(y[0])\n        return self\n\n"
        "    def predict(self, X):\n        return np.full(len(X), self.first_)\n")
    (project / "exp.yaml").write_text(yaml.safe_dump({
        "name": "beside", "datasets": ["iris"], "cv": {"folds": 3},
        "classifiers": ["nb", "beside_config_models:First"]}))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    res = CliRunner().invoke(main, ["run", str(project / "exp.yaml"), "-o", "run", "-j", "2",
                                    "-q"])
    assert res.exit_code == 0, res.output
    records = read_records(elsewhere / "run")
    assert [r["status"] for r in records if r["classifier"] == "First"] == ["ok"] * 3


def test_steps_are_part_of_a_tasks_identity(tmp_path):
    from bayesbench.evaluation.plan import plan

    def ids(classifier):
        raw = {"name": "ids", "datasets": ["iris"], "cv": {"folds": 2},
               "classifiers": [classifier]}
        return plan(parse_config(raw, base_dir=tmp_path).experiment).task_ids

    bare = {"name": "sklearn.linear_model:LogisticRegression", "label": "lr"}
    scaled = {**bare, "steps": ["sklearn.preprocessing:StandardScaler"]}
    # Resuming after adding a step must not keep the unscaled records as the scaled ones.
    assert not ids(bare) & ids(scaled)
