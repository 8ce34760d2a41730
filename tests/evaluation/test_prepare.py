"""Fold preparation: noise on the chosen side of each fold."""
import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.evaluation.plan import plan
from bayesbench.evaluation.prepare import prepare_fold
from helpers import small_config


@pytest.mark.parametrize("on", ["train", "test", "both"])
def test_noise_shuffles_the_same_attributes_on_the_chosen_side(uci_dir, tmp_path, on):
    cfg = small_config(uci_dir, tmp_path, datasets=["iris"], classifiers=["gnb"],
                       cv={"folds": 3}, preprocess={"noise": {"fraction": 0.5, "on": on}})
    job = plan(cfg.experiment).jobs[1]
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
