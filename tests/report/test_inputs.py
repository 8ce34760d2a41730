"""Reading what `compare` compares: a run's own summary tables, long score tables, and refusals."""
import csv
import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bayesbench.cli import main
from bayesbench.errors import StatsError
from bayesbench.report.compare.inputs import compare_paths
from bayesbench.report.compare.score_csv import read_scores_csv
from bayesbench.spec import CompareSpec
from helpers import run_config_text

CONFIG = """\
name: small
seed: 1
datasets: [iris, wine, glass]
cv: {folds: 5}
classifiers: [nb, gnb, tan]
metrics: [accuracy, error]
format: [csv]
"""


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A real run, with its summary tables written by `bayesbench run` itself."""
    return run_config_text(tmp_path_factory.mktemp("small"), CONFIG, "small")


@pytest.mark.parametrize("metric", ["accuracy", "error"])
def test_a_summary_table_gives_the_ranks_of_its_run(small_run, metric):
    # Before: the std columns were read as classifiers of their own and Friedman said p < 0.0001.
    from_run = compare_paths([small_run], CompareSpec(metric=metric))
    table = small_run / "summary" / f"{metric}.csv"
    assert read_scores_csv(table).layout == "summary"
    from_table = compare_paths([table])
    assert from_table.classifiers == from_run.classifiers == ["nb", "gnb", "tan"]
    assert from_table.lower_is_better == from_run.lower_is_better == (metric == "error")
    assert from_table.average_ranks.tolist() == pytest.approx(from_run.average_ranks.tolist(), abs=1e-12)
    assert from_table.friedman.statistic == pytest.approx(from_run.friedman.statistic, abs=1e-9)
    res = CliRunner().invoke(main, ["compare", str(table), "--format", "csv"])
    assert res.exit_code == 0, res.output
    assert " std" not in res.stdout


def _write(path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def test_a_long_table_with_folds_gets_wekas_corrected_t_test(tmp_path, ttest_ref):
    ex2 = ttest_ref["second_example"]
    rows = []
    for ds, a, b in (("ex1", ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]),
                     ("ex2", ex2["accuracy_A"], ex2["accuracy_B"])):
        for label, values in (("B", b), ("A", a)):
            for j, v in enumerate(values):
                rep, fold = divmod(j, 10)
                rows += [[ds, label, rep, fold, 450, 50, "accuracy", v],
                         [ds, label, rep, fold, 450, 50, "error", 1 - v]]
    table = _write(tmp_path / "scores.csv", ["dataset", "classifier", "repetition", "fold", "n_train",
                                              "n_test", "metric", "value"], rows)
    cmp = compare_paths([table], CompareSpec(metric="accuracy"))
    assert cmp.baseline == "B" and cmp.test == "corrected-t"
    assert cmp.pvalue.at["ex1", "A"] == pytest.approx(ttest_ref["weka_check"]["example_1"]["p_corrected"],
                                                      abs=1e-12)
    assert cmp.pvalue.at["ex2", "A"] == pytest.approx(ttest_ref["weka_check"]["second_example"]["p_corrected"],
                                                      abs=1e-12)
    assert cmp.sign["A"].tolist() == [0, 1]
    assert compare_paths([table], CompareSpec(metric="error")).sign["A"].tolist() == [0, 1]  # less error: still better
    with pytest.raises(StatsError, match="holds the metrics accuracy, error; name the one to compare"):
        compare_paths([table])


def test_a_long_table_of_one_score_per_cell_is_demsars_table(tmp_path, demsar):
    t = demsar["table6"]
    rows = [[ds, c, v] for ds, row in zip(t["datasets"], t["auc"]) for c, v in zip(t["classifiers"], row)]
    table = _write(tmp_path / "long.csv", ["dataset", "classifier", "value"], rows)
    cmp = compare_paths([table])
    exact = demsar["quick_oracle"]["friedman_table6"]["exact_from_printed_aucs"]
    assert cmp.classifiers == t["classifiers"]
    np.testing.assert_allclose(cmp.average_ranks, exact["avg_ranks"], atol=5e-4)
    assert cmp.friedman.statistic == pytest.approx(exact["chi2_F"], abs=1e-6)


@pytest.mark.parametrize("header, rows, message", [
    (["dataset", "fold", "A", "B"], [["d1", 0, 0.5, 0.6], ["d2", 0, 0.5, 0.7]],
     "a column 'fold' but no 'classifier' column; expected a wide table"),
    (["dataset", "A mean", "A std", "B mean"], [["d1", 0.5, 0.1, 0.6], ["d2", 0.5, 0.1, 0.7]],
     "column 'B mean' breaks the '<classifier> mean', '<classifier> std' pairs of a summary table"),
    (["dataset", "A mean", "B std"], [["d1", 0.5, 0.1], ["d2", 0.5, 0.1]],
     "column 'B std' breaks the '<classifier> mean', '<classifier> std' pairs"),
    (["dataset", "classifier", "value"], [["d1", "A", 0.5], ["d1", "A", 0.6], ["d1", "B", 0.7]],
     "data set 'd1', classifier 'A' has several scores; without a 'fold' column"),
    (["dataset", "classifier", "fold", "value"], [["d1", "A", 0, 0.5], ["d1", "B", 0, "high"]],
     "line 3, column 'value': 'high' is not a number"),
    (["classifier", "value"], [["A", 0.5]], "a long table needs a 'dataset' column"),
])
def test_ambiguous_tables_are_refused_in_one_line(tmp_path, header, rows, message):
    table = _write(tmp_path / "t.csv", header, rows)
    res = CliRunner().invoke(main, ["compare", str(table), "--test", "paired-t"])
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and message in res.stderr


def test_the_corrected_t_test_needs_the_fold_sizes(tmp_path):
    rows = [[ds, c, f, 0.5 + 0.01 * f + (c == "B") * 0.02] for ds in ("d1", "d2") for c in "AB"
            for f in range(5)]
    table = _write(tmp_path / "t.csv", ["dataset", "classifier", "fold", "value"], rows)
    with pytest.raises(StatsError, match="the corrected resampled t-test needs the training and test "
                                         "set size of each fold"):
        compare_paths([table])
    cmp = compare_paths([table], CompareSpec(test="paired-t"))
    assert cmp.sign["B"].tolist() == [1, 1]  # B is 0.02 better on every fold


def _record(dataset, label, fold, accuracy, **extra):
    return {"dataset": dataset, "classifier": label, "learner": label, "params": {}, "repetition": 0,
            "fold": fold, "fold_id": f"{dataset}-{fold}", "seed": 1, "task_id": f"{dataset}-{label}-{fold}",
            "n_train": 40, "n_test": 10, "status": "ok", "classes": ["a", "b"],
            "metrics": {"accuracy": accuracy, "error": 1 - accuracy},
            "per_class": {"f1": [accuracy, None]}, **extra}


@pytest.mark.parametrize("metric", ["accuracy", "error", "f1[a]", "f1[b]", "kappa"])
def test_read_runs_holds_the_records_frame_columns_that_compare_reads(tmp_path, metric):
    from bayesbench.evaluation.store import RECORDS, TASKS, RecordWriter, records_frame
    from bayesbench.report.compare.inputs import read_runs

    records = {"one": [_record(ds, c, f, 0.5 + 0.1 * f + 0.01 * i) for i, c in enumerate("AB")
                       for ds in ("d1", "d2") for f in range(3)],
               "two": [_record("d1", "A", f, 0.7) for f in range(3)]}
    # A failed task (no scores), a record without fold sizes, a classifier without per-class
    # scores, and a task the directory's current config no longer has.
    records["one"][1] = {k: v for k, v in records["one"][1].items() if k not in ("metrics", "per_class")}
    records["one"][1].update(status="error", error="ClassifierError: no")
    del records["one"][2]["n_train"], records["one"][2]["n_test"]
    records["two"] = [{**r, "classes": ["b"], "per_class": {"f1": [0.4]}} for r in records["two"]]
    records["two"].append(_record("d9", "A", 0, 0.1, task_id="gone"))
    runs = []
    for name, rows in records.items():
        runs.append(tmp_path / name)
        runs[-1].mkdir()
        with RecordWriter(runs[-1]) as writer:
            for r in rows:
                writer.append(r)
    (runs[1] / TASKS).write_text("".join(f"{r['task_id']}\n" for r in records["two"][:-1]))
    assert (runs[0] / RECORDS).exists()
    frame, declared = read_runs(runs + [runs[0]], metric)  # a directory named twice is read once
    reference = records_frame(runs, failed=True, metrics=[metric])
    wanted = ["run", "dataset", "classifier", "repetition", "fold", "fold_id", "status", "n_train",
              "n_test", metric]
    assert sorted(frame.columns) == sorted(c for c in wanted if c in reference.columns)
    assert (metric in frame) == (metric != "kappa")  # a score no record holds is no column
    pd.testing.assert_frame_equal(frame, reference[list(frame.columns)])
    assert declared == []  # no config.yaml: the data sets in the order found


# ------------------------------------------------- names that pandas reads as missing (issue 25)

@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(["NA", "None", "null", "nan", "N/A", "NaN", "#N/A", "n/a",
                                 "1.0", "-", "x"]), min_size=2, max_size=5, unique=True))
def test_a_wide_table_reads_every_name_as_written(tmp_path_factory, names):
    """A data set named NA was read back as missing by compare."""
    path = tmp_path_factory.mktemp("na") / "scores.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", *names])
        for i, name in enumerate(names):
            w.writerow([name, *[0.5 + 0.01 * ((i + j) % 5) for j in range(len(names))]])
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    result = compare_paths([path])
    assert list(result.datasets) == [r[0] for r in rows[1:]]
    assert list(result.classifiers) == rows[0][1:]


# ------------------------------------------- scores too large to compare (issue 25, class 9)

@settings(max_examples=8, deadline=None, database=None)
@given(st.lists(st.floats(-1e150, 1e150), min_size=18, max_size=18),
       st.floats(1e150, 1.7e308, exclude_min=True), st.integers(0, 17))
def test_huge_scores_are_refused_in_one_line_and_smaller_ones_compare_without_warnings(
        tmp_path_factory, values, huge, where):
    # Scores of 1e308 printed numpy's overflow RuntimeWarnings, then "scores contain NaN or
    # infinite values" without a file: a difference of two of them overflows.
    tmp = tmp_path_factory.mktemp("huge")

    def write(cells):
        path = tmp / "scores.csv"
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["dataset", "a", "b", "c"])
            w.writerows([f"d{i}", *(repr(v) for v in cells[3 * i:3 * i + 3])] for i in range(6))
        return path

    path = write(values)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = CliRunner().invoke(main, ["compare", str(path), "-q"])
    assert res.exit_code == 0 and res.stderr == "", res.stderr
    values[where] = huge if where % 2 else -huge
    res = CliRunner().invoke(main, ["compare", str(write(values))])
    assert res.exit_code != 0
    assert res.stderr.strip() == (
        f"bayesbench: error: {path}: column '{'abc'[where % 3]}', data set 'd{where // 3}': "
        f"'{values[where]!r}' is not a number within ±1e+150 (rescale the scores)")
