"""`compare` and `bayesbench compare`: Demšar's tables as CSV, records of runs, LaTeX, the CD diagram."""
import csv
import io
import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bayesbench import stats as S
from bayesbench.cli import main
from bayesbench.errors import StatsError
from bayesbench.report.comparison import compare, compare_paths, compare_scores, read_scores_csv


@pytest.fixture
def table6_csv(demsar, tmp_path):
    t = demsar["table6"]
    path = tmp_path / "table6.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", *t["classifiers"]])
        for name, row in zip(t["datasets"], t["auc"]):
            w.writerow([name, *row])
    return path


@pytest.fixture
def table2_csv(demsar, tmp_path):
    path = tmp_path / "table2.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "C4.5", "C4.5+m"])
        for row in demsar["table2"]["rows"]:
            w.writerow(row[:3])
    return path


def _csv_sections(text):
    """Split the CSV output into its tables (separated by blank lines), notes dropped."""
    blocks, current = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                blocks.append(current)
            current = []
        else:
            current.append(line)
    if current:
        blocks.append(current)
    return [list(csv.reader(io.StringIO("\n".join(b)))) for b in blocks]


# ---- Demšar's examples through the command line ----------------------------------------------

def test_table6_csv_through_cli_reproduces_friedman_and_cd(table6_csv, demsar, tmp_path):
    plot = tmp_path / "cd.png"
    res = CliRunner().invoke(main, ["compare", str(table6_csv), "--format", "csv", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    scores, tests, posthoc = _csv_sections(res.stdout)
    header, rows = scores[0], {r[0]: r[1:] for r in scores[1:]}
    assert header[1:] == demsar["table6"]["classifiers"]
    exact = demsar["quick_oracle"]["friedman_table6"]["exact_from_printed_aucs"]
    ranks = [float(v) for v in rows["average rank (14 data sets)"]]
    np.testing.assert_allclose(ranks, exact["avg_ranks"], atol=5e-4)
    stats = {r[0]: r[1:] for r in tests[1:]}
    # Ranking the printed AUCs: 9.857 / 3.987 (the paper's rank table gives 9.28 / 3.69, see test_stats).
    chi2 = stats["Friedman chi2_F (Demsar 2006, no tie correction)"]
    assert float(chi2[0]) == pytest.approx(exact["chi2_F"], abs=1e-6)
    assert float(stats["Friedman chi2_F, tie-corrected (scipy)"][0]) == pytest.approx(
        exact["scipy_friedmanchisquare_tie_corrected"], abs=1e-6)
    ff = stats["Iman-Davenport F_F (from uncorrected chi2_F)"]
    assert float(ff[0]) == pytest.approx(exact["F_F"], abs=1e-6)
    assert ff[1] == "3, 39"
    assert float(ff[2]) == pytest.approx(exact["p_F"], abs=1e-6)
    cd = next(v for k, v in stats.items() if k.startswith("Nemenyi"))
    assert float(cd[0]) == pytest.approx(1.253559, abs=1e-6)
    assert round(float(cd[0]), 2) == float(demsar["posthoc"]["paper"]["nemenyi"]["CD_0.05"])
    # Post-hoc against C4.5 on the recomputed ranks: Holm rejects C4.5+m+cf and C4.5+m.
    ref = {r["classifier"]: r for r in demsar["posthoc"]["recomputed"]["control_C4.5_from_recomputed_ranks"]}
    head = posthoc[0]
    for row in posthoc[1:]:
        name = row[0]
        assert float(row[head.index("z")]) == pytest.approx(ref[name]["z"], abs=1e-4)
        assert float(row[head.index("p")]) == pytest.approx(ref[name]["p"], abs=1e-5)
        assert (row[head.index("Holm")] == "reject") == ref[name]["holm_reject"]
        assert (row[head.index("Bonferroni-Dunn")] == "reject") == ref[name]["bonferroni_dunn_reject"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table2_csv_reproduces_wilcoxon_example(table2_csv, demsar):
    res = CliRunner().invoke(main, ["compare", str(table2_csv), "--format", "csv"])
    assert res.exit_code == 0, res.output
    posthoc = _csv_sections(res.stdout)[2]
    head, row = posthoc[0], posthoc[1]
    paper = demsar["wilcoxon_example"]["paper"]
    assert row[0] == "C4.5+m"
    assert float(row[head.index("Wilcoxon T")]) == paper["T"] == 12
    # Demšar's zero rule, then scipy's auto choice (normal approximation with ties) for N = 14.
    assert float(row[head.index("Wilcoxon p")]) == pytest.approx(
        demsar["wilcoxon_example"]["recomputed"]["scipy.stats.wilcoxon(d) variants"]
        ["zero_method=zsplit, method=auto"]["pvalue"], abs=1e-6)
    assert row[head.index("sign wins")] == "11/14"
    assert float(row[head.index("sign p")]) == pytest.approx(0.057373, abs=1e-6)


def test_csv_and_cli_errors_are_one_line(tmp_path, table6_csv):
    bad = tmp_path / "bad.csv"
    bad.write_text("dataset,A,B\niris,0.9,0.8\nwine,0.7,n/a?\n")
    res = CliRunner().invoke(main, ["compare", str(bad)])
    assert res.exit_code == 1
    assert res.stderr.strip() == ("bayesbench: error: " + str(bad) +
                                  ": column 'B', data set 'wine': 'n/a?' is not a number")
    res = CliRunner().invoke(main, ["compare", str(table6_csv), "--baseline", "C5.0"])
    assert res.exit_code == 2 and "baseline 'C5.0' is not among the classifiers" in res.stderr
    # An infinite score would be shown as '-' and its data set dropped as if it were missing.
    bad.write_text("dataset,A,B\niris,0.9,0.8\nwine,0.7,-inf\nglass,0.6,0.5\n")
    res = CliRunner().invoke(main, ["compare", str(bad)])
    assert res.exit_code == 1
    assert res.stderr.strip().endswith(": column 'B', data set 'wine': '-inf' is not a finite number")
    # pandas would rename a repeated column to 'A.1' and compare it as a classifier of its own.
    bad.write_text("dataset,A,B,A\niris,0.9,0.8,0.7\nwine,0.7,0.6,0.5\n")
    res = CliRunner().invoke(main, ["compare", str(bad)])
    assert res.exit_code == 1
    assert res.stderr.strip() == f"bayesbench: error: {bad}: classifier column(s) A appear more than once"
    res = CliRunner().invoke(main, ["compare", str(table6_csv), str(tmp_path)])
    assert res.exit_code == 1 and "not both" in res.stderr


def test_lower_is_better_reverses_ranks(table6_csv, demsar):
    scores = read_scores_csv(table6_csv)
    up = compare_scores(scores)
    down = compare_scores(1 - scores, lower_is_better=True)
    np.testing.assert_allclose(down.average_ranks, up.average_ranks)
    assert down.friedman.statistic == pytest.approx(up.friedman.statistic)
    assert "0.2020 •" in down.render("text")  # adult: 1 - 0.798, the lowest


# ---- LaTeX -----------------------------------------------------------------------------------

def _check_latex(text):
    assert "\x02" not in text and "\x03" not in text and "\x04" not in text
    envs = re.findall(r"\\(begin|end)\{(table|tabular)\}", text)
    depth = []
    for kind, env in envs:
        if kind == "begin":
            depth.append(env)
        else:
            assert depth and depth.pop() == env
    assert not depth and envs
    for block in re.findall(r"\\begin\{tabular\}\{([lrc]+)\}(.*?)\\end\{tabular\}", text, re.S):
        ncols, body = len(block[0]), block[1]
        lines = [ln for ln in body.strip().splitlines() if ln.endswith(r"\\")]
        assert lines
        for ln in lines:
            cells = re.split(r"(?<!\\)&", ln[:-2])
            assert len(cells) == ncols, ln
        assert body.count(r"\toprule") == body.count(r"\bottomrule") == 1
    # Every brace opened is closed, and no raw special character slipped through.
    stripped = re.sub(r"\\[{}%&_#$]", "", text)
    assert stripped.count("{") == stripped.count("}")
    body_lines = [ln for ln in text.splitlines() if not ln.startswith("%")]
    assert not any(re.search(r"(?<!\\)[_#%]", ln) for ln in body_lines)


def test_latex_output_is_a_well_formed_table(table6_csv):
    text = compare_scores(read_scores_csv(table6_csv), metric="AUC").render("latex")
    _check_latex(text)
    assert text.count(r"\begin{table}") == 3
    assert r"\textbf{0.7980}" in text


# ---- records of runs -------------------------------------------------------------------------

def _records(dataset, label, values, *, n_train=450, n_test=50, folds=10, salt="", run="run"):
    rows = []
    for j, v in enumerate(values):
        rep, fold = divmod(j, folds)
        rows.append({"dataset": dataset, "repetition": rep, "fold": fold, "classifier": label,
                     "learner": label.lower(), "seed": 1, "fold_id": f"{dataset}-{rep}-{fold}{salt}",
                     "n_train": n_train, "n_test": n_test, "accuracy": v, "error": 1 - v, "run": run})
    return rows


@pytest.fixture(scope="module")
def ttest_frame(ttest_ref):
    """Two data sets whose folds are the corrected-t reference vectors (B is the baseline)."""
    ex2 = ttest_ref["second_example"]
    rows = (_records("ex1", "B", ttest_ref["accuracy_B"]) + _records("ex1", "A", ttest_ref["accuracy_A"])
            + _records("ex2", "B", ex2["accuracy_B"]) + _records("ex2", "A", ex2["accuracy_A"]))
    return pd.DataFrame(rows)


def test_fold_tests_mark_cells_like_weka(ttest_frame, ttest_ref):
    cmp = compare(ttest_frame)  # baseline: the first classifier, B
    assert cmp.baseline == "B" and cmp.classifiers == ["B", "A"]
    assert cmp.pvalue.at["ex1", "A"] == pytest.approx(ttest_ref["expected"]["p_two_sided"], abs=1e-9)
    assert cmp.pvalue.at["ex2", "A"] == pytest.approx(
        ttest_ref["second_example"]["expected"]["p_two_sided"], abs=1e-9)
    assert cmp.sign["A"].tolist() == [0, 1]
    assert cmp.mean.at["ex1", "A"] == pytest.approx(ttest_ref["expected"]["mean_A"])
    assert cmp.std.at["ex1", "A"] == pytest.approx(np.std(ttest_ref["accuracy_A"], ddof=1))
    text = cmp.render("text")
    assert "0.8556 ± 0.0601 • v" in text  # ex2: A best in its row and significantly better than B
    assert "(1/1/0)" in text and "2/0/0" in text
    # The uncorrected paired t-test also flags ex1 (p = 0.0052); the reversed baseline gives '*'.
    assert compare(ttest_frame, test="paired-t").sign["A"].tolist() == [1, 1]
    assert compare(ttest_frame, baseline="A").sign["B"].tolist() == [0, -1]
    wil = compare(ttest_frame, test="wilcoxon")
    direct = S.wilcoxon(ttest_ref["accuracy_A"], ttest_ref["accuracy_B"])
    assert wil.pvalue.at["ex1", "A"] == pytest.approx(direct.pvalue)
    _check_latex(cmp.render("latex"))
    assert r"$\pm$" in cmp.render("latex")


def test_error_metric_is_lower_is_better(ttest_frame):
    cmp = compare(ttest_frame, metric="error")
    assert cmp.lower_is_better
    assert cmp.sign["A"].tolist() == [0, 1]  # less error = better: still 'v'
    assert cmp.win_tie_loss["A"] == S.WinTieLoss(2, 0, 0)


def test_paired_tests_refuse_different_folds(ttest_frame, ttest_ref):
    other = pd.DataFrame(_records("ex1", "C", ttest_ref["accuracy_B"], salt="-seed2"))
    frame = pd.concat([ttest_frame, other], ignore_index=True)
    with pytest.raises(StatsError, match="data set 'ex1': 'C' and 'B' were not evaluated on the same folds"):
        compare(frame)
    unpaired = compare(frame, test="unpaired-t")
    a, b = ttest_ref["accuracy_B"], ttest_ref["accuracy_B"]
    assert unpaired.pvalue.at["ex1", "C"] == pytest.approx(S.unpaired_ttest(a, b).pvalue)
    assert np.isnan(unpaired.pvalue.at["ex2", "C"])  # C has no ex2: no test, no mark
    assert "left out of the ranks" in unpaired.render("text")


def test_single_data_set_skips_tests_over_data_sets(ttest_frame):
    cmp = compare(ttest_frame[ttest_frame["dataset"] == "ex1"])
    assert cmp.friedman is None
    assert "need at least 2 data sets" in cmp.render("markdown")
    with pytest.raises(StatsError, match="at least 2 data sets"):
        cmp.plot_cd("x.png")


def test_unknown_metric_and_empty_frame(ttest_frame):
    with pytest.raises(StatsError, match="unknown metric 'auc'.*accuracy, error"):
        compare(ttest_frame, metric="auc")
    with pytest.raises(StatsError, match="no finished records"):
        compare(ttest_frame.iloc[:0])


def _write_run(run_dir, rows):
    from bayesbench.evaluation.store import RecordWriter
    run_dir.mkdir(parents=True)
    with RecordWriter(run_dir) as w:
        for r in rows:
            record = {k: v for k, v in r.items() if k not in ("accuracy", "error", "run")}
            record.update(status="ok", metrics={"accuracy": r["accuracy"], "error": r["error"]})
            w.append(record)


def test_cli_reads_run_directories_and_prefixes_shared_labels(tmp_path, ttest_ref):
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    _write_run(tmp_path / "results" / "first", _records("ex1", "nb", b) + _records("ex2", "nb", a))
    _write_run(tmp_path / "results" / "second", _records("ex1", "nb", a) + _records("ex2", "nb", b)
               + _records("ex1", "tan", a) + _records("ex2", "tan", a))
    res = CliRunner().invoke(main, ["compare", str(tmp_path / "results"), "--format", "markdown",
                                    "--baseline", "first/nb"])
    assert res.exit_code == 0, res.output
    header = next(ln for ln in res.stdout.splitlines() if ln.startswith("| data set"))
    assert [c.strip() for c in header.strip("|").split("|")] == ["data set", "first/nb", "second/nb", "tan"]
    assert "**0.8344 ± 0.0556** |" in res.stdout  # ex1: second/nb (= A) best ...
    out = tmp_path / "cmp.tex"
    res = CliRunner().invoke(main, ["compare", str(tmp_path / "results" / "second"), "--format", "latex",
                                    "-o", str(out)])
    assert res.exit_code == 0 and res.stdout == ""
    assert "second/nb" not in out.read_text() and "nb" in out.read_text()


# ---- the critical-difference diagram ---------------------------------------------------------

def test_cd_diagram_svg_names_every_classifier_and_groups(table6_csv, tmp_path, demsar):
    cmp = compare_scores(read_scores_csv(table6_csv), alpha=0.10)
    # At 0.10 (CD 1.118) C4.5 is separated from C4.5+m and C4.5+m+cf; C4.5+cf sits in both groups.
    assert cmp.groups() == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]
    svg = cmp.plot_cd(tmp_path / "cd.svg").read_text()
    for name in demsar["table6"]["classifiers"]:
        assert f">{name}  (" in svg
    assert "CD = 1.118" in svg
    again = cmp.plot_cd(tmp_path / "again.svg").read_text()
    assert again == svg  # deterministic output
    with pytest.raises(StatsError, match=".png, .svg or .pdf"):
        cmp.plot_cd(tmp_path / "cd.jpg")


def test_table_does_not_depend_on_record_order(ttest_frame):
    # Parallel runs write records in completion order: data sets are ordered by the given
    # (config) order, else by name, never by arrival.
    reordered = pd.concat([ttest_frame[ttest_frame["dataset"] == "ex2"],
                           ttest_frame[ttest_frame["dataset"] == "ex1"].iloc[::-1]])
    assert compare(reordered).render("csv") == compare(ttest_frame).render("csv")
    assert compare(reordered).datasets == ["ex1", "ex2"]
    assert compare(ttest_frame, datasets=["ex2", "ex1", "unused"]).datasets == ["ex2", "ex1"]


# ---- failed tasks ----------------------------------------------------------------------------

def _with_failures(frame, failures):
    """``frame`` with the given (data set, classifier, repetition) tasks turned into failed
    records (fold 4 of the repetition, or every fold when the repetition is None)."""
    frame = frame.assign(status="ok")
    for ds, label, rep in failures:
        hit = (frame["dataset"] == ds) & (frame["classifier"] == label)
        if rep is not None:
            hit &= (frame["repetition"] == rep) & (frame["fold"] == 4)
        frame.loc[hit, ["accuracy", "error"]] = np.nan
        frame.loc[hit, "status"] = "error"
    return frame


def _three_datasets(ttest_ref):
    ex2 = ttest_ref["second_example"]
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    rows = []
    for ds, (va, vb, vc) in {"ex1": (a, b, ex2["accuracy_A"]), "ex2": (ex2["accuracy_A"], b, a),
                             "ex3": (b, ex2["accuracy_B"], a)}.items():
        rows += _records(ds, "A", va) + _records(ds, "B", vb) + _records(ds, "C", vc)
    return pd.DataFrame(rows)


def test_a_failed_fold_empties_its_cell_and_names_the_data_set(ttest_ref):
    # Before: a classifier that failed on one fold had 9 folds against the baseline's 10, and
    # compare refused the whole comparison as if the runs had used different folds.
    full = _three_datasets(ttest_ref)
    frame = _with_failures(full, [("ex2", "B", 0)])
    cmp = compare(frame)
    assert np.isnan(cmp.mean.at["ex2", "B"]) and cmp.sign.at["ex2", "B"] == 0
    assert cmp.mean.at["ex2", "C"] == pytest.approx(np.mean(ttest_ref["accuracy_A"]))
    assert cmp.complete == ["ex1", "ex3"]
    # The tests over data sets are those of the two complete data sets alone.
    alone = compare(full[full["dataset"] != "ex2"])
    assert cmp.friedman.statistic == pytest.approx(alone.friedman.statistic)
    assert cmp.average_ranks.tolist() == pytest.approx(alone.average_ranks.tolist())
    text = cmp.render("text")
    assert "B on ex2 (1 of 100 folds without a score, 1 of them failed)" in text
    assert "left out of the ranks and the tests over data sets: ex2;" in text
    # A cell whose every fold failed is reported as such; the classifier keeps its column.
    all_failed = compare(_with_failures(full, [("ex3", "C", None)]))
    assert all_failed.classifiers == ["A", "B", "C"] and np.isnan(all_failed.mean.at["ex3", "C"])
    assert "C on ex3 (failed on all 100 folds)" in all_failed.render("text")
    with pytest.raises(StatsError, match="all 300 tasks failed"):
        compare(_with_failures(full[full["dataset"] == "ex1"],
                               [("ex1", c, None) for c in "ABC"]))


def test_cli_compare_reads_failed_records(tmp_path, ttest_ref):
    from bayesbench.evaluation.store import RecordWriter
    frame = _with_failures(_three_datasets(ttest_ref), [("ex1", "C", None)])
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    with RecordWriter(run_dir) as w:
        for r in frame.to_dict("records"):
            record = {k: v for k, v in r.items() if k not in ("accuracy", "error", "run")}
            if r["status"] == "ok":
                record["metrics"] = {"accuracy": r["accuracy"], "error": r["error"]}
            else:
                record["error"] = "ClassifierError: cannot take this data set"
            w.append(record)
    res = CliRunner().invoke(main, ["compare", str(run_dir)])
    assert res.exit_code == 0, res.output
    assert "C on ex1 (failed on all 100 folds)" in res.stdout
    assert "data sets: ex1;" in res.stdout
    row = next(ln for ln in res.stdout.splitlines() if ln.startswith("ex1"))
    assert row.split()[-1] == "-"


def test_an_infinite_iman_davenport_statistic_is_explained():
    # Two data sets that rank A over B over C alike: chi2_F = N(k-1), so F_F's denominator is 0.
    cmp = compare_scores(pd.DataFrame({"A": [0.9, 0.8], "B": [0.7, 0.6], "C": [0.5, 0.4]},
                                      index=["d1", "d2"]))
    assert cmp.friedman.statistic == pytest.approx(4.0)
    assert cmp.friedman.pvalue == pytest.approx(np.exp(-2.0))  # chi-square, 2 df: exp(-x/2)
    assert np.isinf(cmp.friedman.f_statistic)
    assert "F_F is infinite (p = 0) because every data set ranks the classifiers in the same order" \
        in cmp.render("text")
    assert "F_F is infinite" not in compare_scores(pd.DataFrame(
        {"A": [0.9, 0.6], "B": [0.7, 0.8]}, index=["d1", "d2"])).render("text")


def test_runs_of_the_same_name_in_different_directories_stay_apart(tmp_path, ttest_ref):
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    _write_run(tmp_path / "x" / "quick", _records("ex1", "nb", a) + _records("ex2", "nb", b))
    _write_run(tmp_path / "y" / "quick", _records("ex1", "nb", b) + _records("ex2", "nb", a))
    # Before: both runs were called 'quick', their nb merged into one column, and one run's
    # records silently replaced the other's.
    res = CliRunner().invoke(main, ["compare", str(tmp_path / "x" / "quick"), str(tmp_path / "y" / "quick"),
                                    "--format", "csv"])
    assert res.exit_code == 0, res.output
    assert "x/quick/nb" in res.stdout and "y/quick/nb" in res.stdout
    cmp = compare_paths([tmp_path / "x" / "quick", tmp_path / "y" / "quick"])
    assert cmp.mean.at["ex1", "x/quick/nb"] == pytest.approx(np.mean(a))
    assert cmp.mean.at["ex1", "y/quick/nb"] == pytest.approx(np.mean(b))
    # The same directory named twice is read once.
    from bayesbench.evaluation.store import records_frame
    assert len(records_frame([tmp_path / "x" / "quick", tmp_path / "x" / ".." / "x" / "quick"])) == 2 * len(a)


def test_a_csv_with_one_classifier_or_one_data_set_is_an_error(tmp_path):
    table = tmp_path / "scores.csv"
    table.write_text("dataset,A\nd1,0.5\nd2,0.6\n")
    res = CliRunner().invoke(main, ["compare", str(table)])
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.strip() == f"bayesbench: error: {table}: one classifier column (A); a comparison needs at least 2"
    table.write_text("dataset,A,B\nd1,0.5,0.6\n")
    res = CliRunner().invoke(main, ["compare", str(table)])
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.strip() == (f"bayesbench: error: {table}: one data set row (d1); the tests over "
                                  f"data sets need at least 2")


def test_a_run_with_one_classifier_is_an_error_for_the_command(tmp_path, ttest_ref):
    run = tmp_path / "solo"
    _write_run(run, _records("ex1", "nb", ttest_ref["accuracy_A"]))
    res = CliRunner().invoke(main, ["compare", str(run)])
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.strip().startswith(f"bayesbench: error: {run}: one classifier (nb); "
                                         f"a comparison needs at least 2")
