"""The summary tables of a run agree with its records, load as tidy CSV, and never disagree."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from helpers import check_summary_csvs

from bayesbench.evaluation.store import read_records
from bayesbench.report.run import summary_tables as S
from bayesbench.report.run.summary_tables import metric_table

def test_summary_tables_agree_with_the_records(finished):
    cfg, result = finished
    summary = result.run_dir / "summary"
    for stem in ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro",
                 "per_class", "confusion", "timings", "failed_tasks", "comparison"):
        for ext in ("txt", "md", "csv", "tex"):
            assert (summary / f"{stem}.{ext}").stat().st_size > 0, (stem, ext)
    frame = pd.DataFrame([r for r in read_records(result.run_dir) if r["status"] == "ok"])
    frame["f1_macro"] = [m["f1_macro"] for m in frame.metrics]
    table = pd.read_csv(summary / "f1_macro.csv")
    for _, row in table.iterrows():
        values = frame[(frame.dataset == row["dataset"]) & (frame.classifier == row["classifier"])]
        if len(values):
            assert row["mean"] == pytest.approx(values["f1_macro"].mean())
            assert row["std"] == pytest.approx(values["f1_macro"].std(ddof=1))
            assert row["folds"] == len(values) and not row["pooled"]
    # Confusion cells summed over every fold of both repetitions.
    cells = pd.read_csv(summary / "confusion.csv")
    iris_nb = cells[(cells.dataset == "iris") & (cells.classifier == "nb")]
    assert len(iris_nb) == 9 and iris_nb["count"].sum() == 300
    text = (summary / "confusion.txt").read_text()
    assert "rows = true class, columns = predicted class" in text and "Iris-setosa" in text
    # Per-class recall: every repetition tests each example once, so the mean over the
    # repetitions is the recall of the summed matrix.
    per_class = pd.read_csv(summary / "per_class.csv").set_index(["dataset", "classifier", "class"])
    diag = iris_nb[(iris_nb.true_class == "Iris-setosa") & (iris_nb.predicted_class == "Iris-setosa")]
    assert per_class.loc[("iris", "nb", "Iris-setosa"), "recall"] == pytest.approx(
        diag["count"].item() / 100)
    assert per_class.loc[("iris", "nb", "Iris-setosa"), "support"] == 50


def test_every_summary_csv_loads_into_its_documented_columns(finished):
    cfg, result = finished
    summary = result.run_dir / "summary"
    stems = check_summary_csvs(summary, cfg.experiment.metrics)
    # One complete data set (gnb fails on lenses): no tests over data sets, so no tests,
    # post-hoc or pairs tables (the quick-start test checks those).
    assert {"comparison", "comparison_pvalues", "scores", "failed_tasks"} <= stems
    scores = pd.read_csv(summary / "scores.csv")
    assert list(scores.columns[:4]) == ["dataset", "classifier", "learner", "param_inner_folds"]
    assert list(scores.columns[-2:]) == ["metric", "value"]
    ok = [r for r in read_records(result.run_dir) if r["status"] == "ok"]
    accuracy = scores[scores.metric == "accuracy"].dropna(subset=["value"])
    assert len(accuracy) == len(ok)
    assert accuracy["value"].sum() == pytest.approx(sum(r["metrics"]["accuracy"] for r in ok))
    parquet = pd.read_parquet(summary / "scores.parquet")
    assert parquet.shape == scores.shape and list(parquet.columns) == list(scores.columns)


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
    rows, headers = metric_table(records, "accuracy", ["d"], ["c", "full"], "csv")
    assert headers == S.METRIC_COLUMNS
    assert rows[0][:3] == ["d", "c", pytest.approx(0.6)] and rows[0][4:6] == [2, 1]


LOO_CONFIG = """\
name: loo
seed: 1
data_dirs: [{data}]
datasets: [wdbc]
cv: {{loo: true}}
classifiers: [nb]
metrics: [accuracy, "f1[M]", f1_macro, kappa]
compare: {{metric: "f1[M]"}}
format: [csv, text]
"""


def test_leave_one_out_f1_of_wdbc_class_m_is_the_same_in_every_file(uci_dir, tmp_path):
    # Before: f1_M said 0.34 +- 0.48 (the mean over one-example folds) and per_class 0.93.
    from click.testing import CliRunner

    from bayesbench.cli import main
    config = tmp_path / "loo.yaml"
    config.write_text(LOO_CONFIG.format(data=uci_dir))
    out = tmp_path / "run"
    res = CliRunner().invoke(main, ["run", str(config), "-o", str(out), "-j", "2", "-q"])
    assert res.exit_code == 0, res.output
    records = [r for r in read_records(out) if r["status"] == "ok"]
    truth = np.array([r["classes"].index(next(c for c, row in zip(r["classes"], r["confusion"])
                                              if sum(row))) for r in records])
    pred = np.array([int(np.argmax(np.asarray(r["confusion"]).sum(axis=0))) for r in records])
    m = records[0]["classes"].index("M")
    expected = skm.f1_score(truth, pred, labels=[m], average=None)[0]  # all predictions at once
    summary = out / "summary"
    f1_m = pd.read_csv(summary / "f1_M.csv").iloc[0]
    per_class = pd.read_csv(summary / "per_class.csv").set_index("class")
    compared = pd.read_csv(summary / "comparison.csv").iloc[0]
    assert f1_m["mean"] == pytest.approx(expected, abs=1e-12) and f1_m["pooled"]
    assert per_class.loc["M", "f1"] == pytest.approx(expected, abs=1e-12)
    assert compared["mean"] == pytest.approx(expected, abs=1e-12)
    assert "pooled over the folds" in (summary / "f1_M.txt").read_text()
    kappa = pd.read_csv(summary / "kappa.csv").iloc[0]["mean"]
    assert kappa == pytest.approx(skm.cohen_kappa_score(truth, pred), abs=1e-12)
    macro = pd.read_csv(summary / "f1_macro.csv").iloc[0]["mean"]
    assert macro == pytest.approx(skm.f1_score(truth, pred, average="macro"), abs=1e-12)
    check_summary_csvs(summary, ["accuracy", "f1_M", "f1_macro", "kappa"])


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
    table = pd.read_csv(summary / "log_loss.csv").set_index("classifier")
    assert np.isnan(table.loc["majority", "mean"])


# ------------------------------------------- one file per table, names that never collide (issue 25)

@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.text(st.sampled_from("ab_/ .émacro-"), min_size=1, max_size=6),
                min_size=2, max_size=6, unique=True))
def test_per_class_tables_get_distinct_stable_file_names(labels):
    """f1[a/b], f1[a_b] and f1[a b] shared one file name and the last written won."""
    from bayesbench.report.run.summary_tables import file_stem

    metrics = [f"f1[{label}]" for label in labels] + ["f1_macro", "accuracy"]
    stems = [file_stem(m) for m in metrics]
    assert len(set(stems)) == len(stems)
    assert stems == [file_stem(m) for m in metrics]  # the same name every run
    for label, stem in zip(labels, stems):
        assert "/" not in stem and "[" not in stem and " " not in stem
        if all(c.isalnum() or c in "._+-" for c in label) and label.isascii() \
                and f"f1_{label}" != "f1_macro":
            assert stem == f"f1_{label}"  # a plain label keeps its plain name (f1[M]: f1_M)


# ------------------------------------- the same records, the same bytes (issue 34, class 8)

def _files(directory):
    return {p.relative_to(directory): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def curve_run(uci_dir, tmp_path_factory):
    """A finished run whose tasks share (data set, repetition, fold, classifier): a learning
    curve, with pooled scores."""
    from helpers import run, small_config

    cfg = small_config(uci_dir, tmp_path_factory.mktemp("curve"), datasets=["iris", "lenses"],
                       classifiers=["nb", "tan"], cv={"folds": 3, "train_sizes": [0.5, 1.0]},
                       metrics=["accuracy", "log_loss"], pooled=True, format=["csv", "text"])
    return cfg, run(cfg, jobs=1, quiet=True)


@settings(max_examples=8, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_summary_is_the_same_bytes_whatever_order_its_records_arrive_in(curve_run, tmp_path_factory,
                                                                         rnd):
    # Records arrive in the order their tasks finished, which --jobs interleaves; ties of
    # (data set, repetition, fold, classifier) among the sizes of a learning curve kept that
    # order, and scores.csv changed from run to run.
    from bayesbench.evaluation.store import in_task_order, task_list
    from bayesbench.report.run.summary import write_run_summary

    cfg, result = curve_run
    records = read_records(result.run_dir)
    tasks = task_list(result.run_dir)
    shuffled = list(records)
    rnd.shuffle(shuffled)
    assert in_task_order(shuffled, tasks) == in_task_order(records, tasks)
    a, b = tmp_path_factory.mktemp("a"), tmp_path_factory.mktemp("b")
    for out, given_records in ((a, records), (b, shuffled)):
        write_run_summary(out, cfg.experiment, in_task_order(given_records, tasks), ("csv",))
    assert _files(a) == _files(b)


def test_a_run_whose_records_were_written_in_another_order_writes_the_same_summary(
        uci_dir, tmp_path):
    # End to end: the records of a finished run (with arms, a learning curve and pooled
    # scores) reordered, as another interleaving of its tasks writes them; resuming it
    # (nothing to run) writes every summary file, the arms' comparison and report.html again
    # from them: the same bytes, timings included (the records are the same).
    import random

    from helpers import run_config_text

    out = run_config_text(tmp_path, f"""
name: order
seed: 2
data_dirs: [{uci_dir}]
datasets: [lenses]
cv: {{folds: 3, train_sizes: [0.5, 1.0]}}
classifiers: [nb, tan]
metrics: [accuracy, log_loss]
pooled: true
format: [csv]
arms: [{{name: a}}, {{name: b, preprocess: {{discretize: fd}}}}]
""", "order")
    once = _files(out)
    compared = _compared(out)
    for records in out.rglob("records.jsonl"):
        lines = records.read_bytes().splitlines(keepends=True)
        random.Random(7).shuffle(lines)
        records.write_bytes(b"".join(lines))
    again = run_config_text(tmp_path, (tmp_path / "order.yaml").read_text(), "order")
    changed = {p for p, data in _files(again).items() if once.get(p) != data}
    assert {p.name for p in changed} <= {"records.jsonl", "environment.json"}, sorted(changed)
    assert _compared(out) == compared  # compare reads them in the same order


def _compared(out):
    from click.testing import CliRunner

    from bayesbench.cli import main

    res = CliRunner().invoke(main, ["compare", str(out / "a"), str(out / "b"), "--samples", "0",
                                    "--format", "csv"])
    assert res.exit_code == 0, res.output
    return res.stdout
