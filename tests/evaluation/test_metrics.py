"""The fold metrics agree with scikit-learn's implementations."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

from bayesbench.evaluation.metrics import (
    CONFUSION_METRICS, METRICS, auc_ovr, brier_score, confusion_matrix, evaluate, log_loss,
    needs_pooling, per_class_scores, pooled)


def _case(seed, n, k, drop_class=None):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class occurs
    proba = rng.dirichlet(np.ones(k), n)
    # Make the predictions informative so that the scores are not all near chance.
    proba[np.arange(n), y] += rng.uniform(0, 1.5, n)
    proba /= proba.sum(axis=1, keepdims=True)
    if drop_class is not None:
        y[y == drop_class] = (drop_class + 1) % k
    return y, proba, proba.argmax(axis=1)


@pytest.mark.parametrize("seed,n,k", [(0, 40, 2), (1, 57, 3), (2, 200, 5), (3, 9, 4)])
def test_scores_match_sklearn(seed, n, k):
    y, proba, pred = _case(seed, n, k)
    labels = list(range(k))
    res = evaluate(y, pred, proba, k)
    m = res["metrics"]
    np.testing.assert_array_equal(res["confusion"], skm.confusion_matrix(y, pred, labels=labels))
    assert m["accuracy"] == pytest.approx(skm.accuracy_score(y, pred))
    assert m["error"] == pytest.approx(skm.zero_one_loss(y, pred))
    for avg in ("macro", "weighted"):
        assert m[f"precision_{avg}"] == pytest.approx(
            skm.precision_score(y, pred, average=avg, zero_division=0))
        assert m[f"recall_{avg}"] == pytest.approx(
            skm.recall_score(y, pred, average=avg, zero_division=0))
        assert m[f"f1_{avg}"] == pytest.approx(skm.f1_score(y, pred, average=avg, zero_division=0))
    np.testing.assert_allclose(res["per_class"]["precision"],
                               skm.precision_score(y, pred, labels=labels, average=None,
                                                   zero_division=0))
    np.testing.assert_allclose(res["per_class"]["f1"],
                               skm.f1_score(y, pred, labels=labels, average=None, zero_division=0))
    assert m["log_loss"] == pytest.approx(skm.log_loss(y, proba, labels=labels))
    assert m["brier"] == pytest.approx(
        skm.brier_score_loss(y, proba, labels=labels, scale_by_half=False)
        if k > 2 else 2 * skm.brier_score_loss(y, proba[:, 1]))
    expected_auc = (skm.roc_auc_score(y, proba[:, 1]) if k == 2 else
                    skm.roc_auc_score(y, proba, multi_class="ovr", average="macro",
                                      labels=labels))
    assert m["auc_ovr"] == pytest.approx(expected_auc)
    assert m["kappa"] == pytest.approx(skm.cohen_kappa_score(y, pred))


def test_pooled_scores_are_those_of_the_concatenated_predictions():
    # Leave-one-out: each fold's F1 of a class is 0 or 1; pooled over the folds it is the
    # F1 of all the predictions at once, as scikit-learn computes it on them.
    y, proba, pred = _case(5, 30, 3)
    cm = sum(confusion_matrix(y[i:i + 1], pred[i:i + 1], 3) for i in range(y.size))
    assert pooled(cm, ["a", "b", "c"], "f1[b]") == pytest.approx(
        skm.f1_score(y, pred, labels=[1], average=None)[0])
    assert pooled(cm, ["a", "b", "c"], "f1_macro") == pytest.approx(skm.f1_score(y, pred, average="macro"))
    assert pooled(cm, ["a", "b", "c"], "kappa") == pytest.approx(skm.cohen_kappa_score(y, pred))
    assert np.isnan(pooled(cm, ["a", "b", "c"], "f1[z]"))
    assert set(CONFUSION_METRICS) <= set(METRICS)
    assert needs_pooling("recall[b]") and needs_pooling("kappa") and not needs_pooling("accuracy")


def test_specificity_is_recall_of_the_negative_class():
    y, proba, pred = _case(7, 120, 4)
    spec = per_class_scores(confusion_matrix(y, pred, 4))["specificity"]
    for k in range(4):
        assert spec[k] == pytest.approx(skm.recall_score(y != k, pred != k))


def test_class_absent_from_the_fold():
    # Class 2 never occurs and is never predicted: macro averages skip it (sklearn's
    # default label set), weighted ones give it weight 0, AUC averages the classes present.
    y, proba, pred = _case(11, 60, 3, drop_class=2)
    pred = np.where(pred == 2, 0, pred)
    m = evaluate(y, pred, proba, 3)["metrics"]
    assert m["recall_macro"] == pytest.approx(skm.recall_score(y, pred, average="macro"))
    assert m["f1_macro"] == pytest.approx(skm.f1_score(y, pred, average="macro"))
    assert m["precision_weighted"] == pytest.approx(
        skm.precision_score(y, pred, average="weighted", zero_division=0))
    per_class_auc = [skm.roc_auc_score(y == k, proba[:, k]) for k in (0, 1)]
    assert m["auc_ovr"] == pytest.approx(np.mean(per_class_auc))


def test_confusion_orientation_rows_are_true_classes():
    cm = confusion_matrix([0, 0, 0, 1], [1, 1, 0, 1], 2)
    np.testing.assert_array_equal(cm, [[1, 2], [0, 1]])


def test_scores_with_ties_and_certain_predictions():
    y = np.array([0, 1, 1, 0, 2])
    proba = np.array([[1, 0, 0], [0.5, 0.5, 0], [0, 1, 0], [0.5, 0.5, 0], [0, 0, 1.0]])
    assert log_loss(y, proba) == pytest.approx(skm.log_loss(y, proba))
    assert brier_score(y, proba) == pytest.approx(2 * 0.25 * 2 / 5)
    assert auc_ovr(y, proba) == pytest.approx(
        skm.roc_auc_score(y, proba, multi_class="ovr", average="macro"))


def test_checking_a_config_and_scoring_a_fold_leave_scipy_stats_unimported():
    # The config check reads the metric names here and the test names in bayesbench.stats, and
    # every worker scores its folds here; scipy.stats (half a second) is imported only by the
    # statistical tests of the summary.
    quickstart = Path(__file__).resolve().parents[2] / "configs" / "quickstart.yaml"
    code = ("import sys; import bayesbench.cli; from bayesbench.config import load_config; "
            f"load_config({str(quickstart)!r}); "
            "from bayesbench.evaluation.metrics import evaluate; "
            "scores = evaluate([0, 1, 1], [0, 1, 0], [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5]], 2); "
            "assert scores['metrics']['auc_ovr'] == 1.0; "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("seed,n,k", [(0, 40, 2), (2, 200, 5)])
def test_rmse_is_scikit_learns_mean_squared_error_of_the_one_hot_truth(seed, n, k):
    y, proba, pred = _case(seed, n, k)
    expected = np.sqrt(skm.mean_squared_error(np.eye(k)[y], proba))
    assert evaluate(y, pred, proba, k)["metrics"]["rmse"] == pytest.approx(expected, abs=1e-14)


def test_rmse_equals_wekas_on_five_data_sets(reference_dir, tmp_path):
    import json

    from bayesbench.config import parse_config
    from bayesbench.evaluation.store import read_records
    from helpers import run

    root = reference_dir.parents[1]
    weka = json.loads((reference_dir / "weka_rmse.json").read_text())["naive_bayes_resubstitution"]
    cfg = parse_config({"name": "weka-rmse", "datasets": [str(root / f) for f in weka],
                        "preprocess": {"discretize": "none"}, "cv": {"resubstitution": True},
                        "classifiers": ["nb"], "metrics": ["rmse"],
                        "output": str(tmp_path / "out")})
    records = {r["dataset"]: r for r in read_records(run(cfg, jobs=1, quiet=True).run_dir)}
    for file, expected in weka.items():
        record = records[Path(file).stem]
        assert round(record["metrics"]["rmse"], 4) == float(expected["rmse"]), file
        assert np.trace(record["confusion"]) == expected["correct"], file


# Paper 000's appendix (TestHarness), transcribed as the reference: rows of the error matrix
# are the true classes (runLogTest: errormatrix[c][predicted] += 1).
def _tpr(m, c):
    return m[c][c] / sum(m[c])


def _fpr(m, c):
    return (sum(m[c]) - m[c][c]) / sum(m[c])


def _barrow_fscore(m, c):
    precision = _tpr(m, c) / (_tpr(m, c) + _fpr(m, c))
    recall = _tpr(m, c) / (_tpr(m, c) + _fpr(m, 1 - c))
    return 2 * precision * recall / (precision + recall)


@pytest.mark.parametrize("matrix, cls, printed", [
    ([[232, 120], [10, 198]], 0, 0.772),   # "full Bayes", sec. 3.5 (p. 52)
    ([[333, 14], [24, 185]], 1, 0.919),    # k-weak naive Bayes
])
def test_f_barrow2011_of_the_papers_printed_matrices(matrix, cls, printed):
    from bayesbench.evaluation.metrics import class_score, record_metric

    y_true = np.repeat([0, 0, 1, 1], [matrix[0][0], matrix[0][1], matrix[1][0], matrix[1][1]])
    y_pred = np.repeat([0, 1, 0, 1], [matrix[0][0], matrix[0][1], matrix[1][0], matrix[1][1]])
    scores = evaluate(y_true, y_pred, None, 2)
    ours = class_score(scores["per_class"], "f_barrow2011", cls)
    assert round(ours, 3) == printed
    assert ours == pytest.approx(_barrow_fscore(matrix, cls))
    # Not F1: the standard F1 of the same class and matrix differs.
    assert abs(scores["per_class"]["f1"][cls] - ours) > 0.005
    record = {"classes": ["B", "M"], "metrics": {},
              "per_class": {k: v.tolist() for k, v in scores["per_class"].items()}}
    assert record_metric(record, f"f_barrow2011[{'BM'[cls]}]") == pytest.approx(ours)
