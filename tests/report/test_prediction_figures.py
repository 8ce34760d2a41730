"""The figure of kept predictions: the ROC AUC, average precision and calibration it shows
equal scikit-learn's on the same stored rows; report.html shows it."""
import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import average_precision_score, roc_auc_score

import bayesbench
from bayesbench.evaluation import curves
from helpers import check_page, run, small_config

DATASETS = ("iris", "glass", "house-votes-84")


@pytest.fixture(scope="module")
def kept_run(uci_dir, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("figures")
    cfg = small_config(uci_dir, tmp, datasets=list(DATASETS), classifiers=["nb", "tan"],
                       cv={"folds": 5, "repeats": 1}, predictions=True)
    return run(cfg, jobs=1, quiet=True).run_dir


def _scored(frame, dataset, classifier):
    rows = frame[(frame.dataset == dataset) & (frame.classifier == classifier)]
    classes = [c[2:] for c in frame.columns[7:] if rows[c].notna().all()]
    proba = rows[[f"p_{c}" for c in classes]].to_numpy()
    y = rows["true"].astype(str).map({c: k for k, c in enumerate(classes)}).to_numpy()
    return classes, y, proba


def test_the_areas_shown_equal_scikit_learns_on_the_stored_rows(kept_run):
    frame = bayesbench.load_predictions(kept_run)
    for dataset in DATASETS:
        svg = (kept_run / "figures" / f"predictions-{dataset}.svg").read_text()
        for classifier in ("nb", "tan"):
            classes, y, proba = _scored(frame, dataset, classifier)
            if len(classes) == 2:  # the second class against the first
                auc = roc_auc_score(y == 1, proba[:, 1])
                ap = average_precision_score(y == 1, proba[:, 1])
            else:  # scikit-learn's micro-average of the one-vs-rest curves
                onehot = np.eye(len(classes))[y]
                auc = roc_auc_score(onehot, proba, average="micro")
                ap = average_precision_score(onehot, proba, average="micro")
            assert f"{classifier} (AUC {auc:.3f})" in svg, (dataset, classifier)
            assert f"{classifier} (AP {ap:.3f})" in svg, (dataset, classifier)


def test_the_calibration_shown_equals_scikit_learns_on_the_stored_rows(kept_run):
    frame = bayesbench.load_predictions(kept_run)
    for dataset in DATASETS:
        svg = (kept_run / "figures" / f"predictions-{dataset}.svg").read_text()
        for classifier in ("nb", "tan"):
            _, y, proba = _scored(frame, dataset, classifier)
            correct = proba.argmax(axis=1) == y
            confidence = np.clip(proba.max(axis=1), 0, 1)
            observed, predicted = calibration_curve(correct, confidence, n_bins=10)
            ours = curves.calibration(correct, confidence, 10)
            np.testing.assert_allclose(ours[0], observed, atol=1e-15)
            np.testing.assert_allclose(ours[1], predicted, atol=1e-15)
            edges = np.linspace(0, 1, 11)[1:-1]
            counts = np.bincount(np.searchsorted(edges, confidence), minlength=10)
            ece = np.sum(counts[counts > 0] / len(confidence) * np.abs(observed - predicted))
            assert f"{classifier} (ECE {ece:.3f})" in svg, (dataset, classifier)


def test_report_shows_the_prediction_figures(kept_run):
    page = check_page(kept_run / "report.html")
    text = " ".join(page.text)
    for dataset in DATASETS:
        assert f"{dataset}: ROC and precision-recall curves of every test prediction" in text
        # In the default formats, as every figure (docs/results.md).
        assert (kept_run / "figures" / f"predictions-{dataset}.svg").is_file()
        assert (kept_run / "figures" / f"predictions-{dataset}.png").read_bytes().startswith(
            b"\x89PNG")
