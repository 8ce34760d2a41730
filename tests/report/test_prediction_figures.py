"""The figures of kept predictions: the ROC AUC, average precision and calibration each
figure shows equal scikit-learn's on the same stored rows; report.html shows the figures."""
import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import average_precision_score, roc_auc_score

import bayesbench
from bayesbench.evaluation import curves
from helpers import check_page, run, small_config


@pytest.fixture(scope="module")
def kept_run(uci_dir, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("figures")
    cfg = small_config(uci_dir, tmp, datasets=["iris", "glass"], classifiers=["nb", "tan"],
                       cv={"folds": 5, "repeats": 1}, predictions=True)
    return run(cfg, jobs=1, quiet=True).run_dir


def test_the_areas_shown_equal_scikit_learns_on_the_stored_rows(kept_run):
    frame = bayesbench.load_predictions(kept_run)
    for dataset in ("iris", "glass"):
        svg = (kept_run / "figures" / f"roc-{dataset}.svg").read_text()
        rows = frame[frame.dataset == dataset]
        classes = [c[2:] for c in frame.columns[7:] if rows[c].notna().all()]
        for classifier in ("nb", "tan"):
            part = rows[rows.classifier == classifier]
            for cls in classes:
                positive = (part["true"] == cls).to_numpy()
                if positive.all() or not positive.any():
                    continue
                score = part[f"p_{cls}"].to_numpy()
                auc = roc_auc_score(positive, score)
                ap = average_precision_score(positive, score)
                assert f"{classifier} (AUC {auc:.3f})" in svg
                assert f"{classifier} (AP {ap:.3f})" in svg


def test_the_calibration_shown_equals_scikit_learns_on_the_stored_rows(kept_run):
    frame = bayesbench.load_predictions(kept_run)
    part = frame[(frame.dataset == "iris") & (frame.classifier == "tan")]
    proba = part[["p_Iris-setosa", "p_Iris-versicolor", "p_Iris-virginica"]].to_numpy()
    correct = proba.argmax(axis=1) == part["true"].map(
        {"Iris-setosa": 0, "Iris-versicolor": 1, "Iris-virginica": 2}).to_numpy()
    confidence = np.clip(proba.max(axis=1), 0, 1)
    observed, predicted = calibration_curve(correct, confidence, n_bins=10)
    ours = curves.calibration_curve(correct, confidence, 10)
    np.testing.assert_allclose(ours[0], observed, atol=1e-15)
    np.testing.assert_allclose(ours[1], predicted, atol=1e-15)
    counts = np.bincount(np.minimum((confidence * 10).astype(int), 9), minlength=10)
    ece = np.sum(counts[counts > 0] / len(confidence) * np.abs(observed - predicted))
    svg = (kept_run / "figures" / "calibration-iris.svg").read_text()
    assert f"tan (ECE {ece:.3f})" in svg


def test_report_shows_the_prediction_figures(kept_run):
    page = check_page(kept_run / "report.html")
    text = " ".join(page.text)
    for dataset in ("iris", "glass"):
        assert f"{dataset}: one-vs-rest ROC (top) and precision-recall" in text
        assert f"{dataset}: reliability diagram of the predicted class" in text
        assert (kept_run / "figures" / f"calibration-{dataset}.png").is_file()
