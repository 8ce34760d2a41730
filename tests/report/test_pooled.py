"""``pooled: true``: each repetition's test predictions scored together equal scikit-learn's
scores of the kept predictions of that repetition (accuracy, kappa, macro F1, log loss,
RMSE, one-vs-rest AUC); without kept predictions the pooled AUC is empty."""
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import (accuracy_score, cohen_kappa_score, f1_score, log_loss,
                             mean_squared_error, roc_auc_score)

import bayesbench
from bayesbench.report.run.pooled import POOLED_COLUMNS
from helpers import check_summary_csvs, run, small_config

METRICS = ["accuracy", "kappa", "f1_macro", "log_loss", "rmse", "auc_ovr", "cpu_seconds"]


def _sklearn(metric, part, classes):
    proba = part[[f"p_{c}" for c in classes]].to_numpy()
    y = part["true"].map({c: k for k, c in enumerate(classes)}).to_numpy()
    if metric == "accuracy":
        return accuracy_score(part["true"], part["predicted"])
    if metric == "kappa":
        return cohen_kappa_score(part["true"], part["predicted"])
    if metric == "f1_macro":
        return f1_score(part["true"], part["predicted"], average="macro")
    if metric == "log_loss":
        return log_loss(y, proba, labels=list(range(len(classes))))
    if metric == "rmse":
        return np.sqrt(mean_squared_error(np.eye(len(classes))[y], proba))
    # One-vs-rest over the classes present (glass declares a class it never has).
    return np.mean([roc_auc_score(y == k, proba[:, k]) for k in np.unique(y)])


def test_pooled_scores_equal_scikit_learn_on_the_kept_predictions(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["iris", "glass"], classifiers=["nb", "tan"],
                       metrics=METRICS, predictions=True, pooled=True)
    result = run(cfg, jobs=1, quiet=True)
    table = pd.read_csv(result.run_dir / "summary" / "pooled.csv")
    assert list(table.columns) == POOLED_COLUMNS
    assert "pooled" in check_summary_csvs(result.run_dir / "summary", METRICS)
    assert set(table["metric"]) == set(METRICS) - {"cpu_seconds"}  # not a score of predictions
    frame = bayesbench.load_predictions(result.run_dir)
    classes = {"iris": ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]}
    for row in table.itertuples():
        part = frame[(frame.dataset == row.dataset) & (frame.classifier == row.classifier)]
        names = classes.get(row.dataset) or [c[2:] for c in frame.columns[7:]
                                             if part[c].notna().all()]
        expected = [_sklearn(row.metric, rep, names) for _, rep in part.groupby("repetition")]
        assert row.repetitions == 2
        assert row.pooled == pytest.approx(np.mean(expected), abs=1e-12), row
        assert row.pooled_std == pytest.approx(np.std(expected, ddof=1), abs=1e-12), row


def test_without_kept_predictions_the_pooled_auc_is_empty(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["iris"], classifiers=["nb"],
                       metrics=["accuracy", "auc_ovr"], pooled=True)
    result = run(cfg, jobs=1, quiet=True)
    table = pd.read_csv(result.run_dir / "summary" / "pooled.csv").set_index("metric")
    assert np.isnan(table.loc["auc_ovr", "pooled"]) and table.loc["auc_ovr", "fold_mean"] > 0.9
    assert table.loc["accuracy", "pooled"] == pytest.approx(table.loc["accuracy", "fold_mean"],
                                                            abs=0.01)
    # Empty, as docs/results.md says, not 'nan' (issue 34, class 6).
    lines = (result.run_dir / "summary" / "pooled.csv").read_text().splitlines()
    assert lines[1:] and all("nan" not in line for line in lines)
    assert next(line for line in lines if ",auc_ovr," in line).split(",")[4] == ""
