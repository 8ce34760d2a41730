"""The summary tables of a run agree with its records."""
import csv
import io

import numpy as np
import pandas as pd
import pytest

from bayesbench.evaluation.store import read_records
from bayesbench.report.summary import metric_table


def _read_csv(path):
    return list(csv.reader(io.StringIO(path.read_text())))


def test_summary_tables_agree_with_the_records(finished):
    cfg, result = finished
    summary = result.run_dir / "summary"
    for stem in ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro",
                 "per_class", "confusion", "timings", "errors", "comparison"):
        for ext in ("txt", "md", "csv", "tex"):
            assert (summary / f"{stem}.{ext}").stat().st_size > 0, (stem, ext)
    frame = pd.DataFrame([r for r in read_records(result.run_dir) if r["status"] == "ok"])
    frame["f1_macro"] = [m["f1_macro"] for m in frame.metrics]
    rows = _read_csv(summary / "f1_macro.csv")
    header = rows[0]
    for row in rows[1:]:
        for clf in ("nb", "fss"):
            values = frame[(frame.dataset == row[0]) & (frame.classifier == clf)]["f1_macro"]
            assert float(row[header.index(f"{clf} mean")]) == pytest.approx(values.mean())
            assert float(row[header.index(f"{clf} std")]) == pytest.approx(values.std(ddof=1))
    # Confusion cells summed over every fold of both repetitions.
    cells = _read_csv(summary / "confusion.csv")
    iris_nb = [int(c[4]) for c in cells[1:] if c[0] == "iris" and c[1] == "nb"]
    assert len(iris_nb) == 9 and sum(iris_nb) == 300
    text = (summary / "confusion.txt").read_text()
    assert "rows = true class, columns = predicted class" in text and "Iris-setosa" in text
    # Per-class recall of the summed matrix.
    per_class = _read_csv(summary / "per_class.csv")
    setosa = next(r for r in per_class if r[:3] == ["iris", "nb", "Iris-setosa"])
    diag = next(int(c[4]) for c in cells[1:] if c[:4] == ["iris", "nb", "Iris-setosa",
                                                          "Iris-setosa"])
    assert float(setosa[5]) == pytest.approx(diag / 100)


def test_summary_marks_a_mean_over_the_folds_that_did_not_fail():
    def record(fold, status, accuracy=None):
        r = {"dataset": "d", "classifier": "c", "repetition": 0, "fold": fold, "status": status}
        return r | ({"metrics": {"accuracy": accuracy}} if status == "ok" else {"error": "boom"})

    records = [record(0, "ok", 0.5), record(1, "ok", 0.7), record(2, "error"),
               record(0, "ok", 0.9)]
    records[3]["classifier"] = "full"
    rows, _ = metric_table(records, "accuracy", ["d"], ["c", "full"], "text")
    assert rows == [["d", f"0.6000 ± {np.std([0.5, 0.7], ddof=1):.4f} (1 of 3 folds failed)",
                     "0.9000 ± 0.0000"]]
    rows, _ = metric_table(records, "accuracy", ["d"], ["c", "full"], "csv")
    assert rows[0][1] == pytest.approx(0.6)


def test_a_probability_table_names_the_classifiers_without_predict_proba(tmp_path):
    from bayesbench.config import parse_config
    from helpers import run

    cfg = parse_config({"name": "p", "datasets": ["iris"], "cv": {"folds": 3},
                        "classifiers": ["nb", {"name": "helpers:Majority", "label": "majority"}],
                        "metrics": ["accuracy", "log_loss"], "output": str(tmp_path / "out")},
                       base_dir=tmp_path)
    summary = run(cfg, jobs=1, quiet=True).run_dir / "summary"
    note = "majority: no predict_proba, so no log loss (left empty)"
    assert f"Note: {note}\n" in (summary / "log_loss.txt").read_text()
    assert f"Note: {note}\n" in (summary / "log_loss.md").read_text()
    assert note.replace("_", r"\_") in (summary / "log_loss.tex").read_text()
    assert "Note" not in (summary / "log_loss.csv").read_text()
    assert "Note" not in (summary / "accuracy.txt").read_text()
    rows = _read_csv(summary / "log_loss.csv")
    assert rows[1][rows[0].index("majority mean")] == "nan"
