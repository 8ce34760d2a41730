"""`bayesbench compare` on the command line: Demšar's tables as CSV, records of runs, errors."""
import csv
import io
import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import (fold_records, run_config_text, three_datasets, with_failures, write_run,
                     write_table6_csv)

from bayesbench.cli import main
from bayesbench.report.compare.inputs import compare_paths


@pytest.fixture
def table6_csv(demsar, tmp_path):
    return write_table6_csv(demsar, tmp_path / "table6.csv")


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


def test_table6_csv_through_cli_reproduces_friedman_and_cd(table6_csv, demsar, tmp_path):
    plot = tmp_path / "cd.png"
    res = CliRunner().invoke(main, ["compare", str(table6_csv), "--format", "csv", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    scores, tests, posthoc, _pairs = _csv_sections(res.stdout)
    header, rows = scores[0], scores[1:]
    assert header == ["dataset", "classifier", "mean", "std", "rank", "best", "mark"]
    names = list(dict.fromkeys(r[1] for r in rows))
    assert names == demsar["table6"]["classifiers"]
    exact = demsar["quick_oracle"]["friedman_table6"]["exact_from_printed_aucs"]
    ranks = [np.mean([float(r[4]) for r in rows if r[1] == name]) for name in names]
    np.testing.assert_allclose(ranks, exact["avg_ranks"], atol=5e-4)
    stats = {r[0]: r[1:] for r in tests[1:]}
    # Ranking the printed AUCs: 9.857 / 3.987 (the paper's rank table gives 9.28 / 3.69, see test_stats).
    chi2 = stats["Friedman chi2_F (Demsar 2006, no tie correction)"]
    assert float(chi2[0]) == pytest.approx(exact["chi2_F"], abs=1e-6)
    assert float(stats["Friedman chi2_F, tie-corrected (scipy)"][0]) == pytest.approx(
        exact["scipy_friedmanchisquare_tie_corrected"], abs=1e-6)
    ff = stats["Iman-Davenport F_F (from uncorrected chi2_F)"]
    assert float(ff[0]) == pytest.approx(exact["F_F"], abs=1e-6)
    assert ff[1:3] == ["3", "39"]
    assert float(ff[3]) == pytest.approx(exact["p_F"], abs=1e-6)
    cd = next(v for k, v in stats.items() if k.startswith("Nemenyi"))
    assert float(cd[0]) == pytest.approx(1.253559, abs=1e-6)
    assert round(float(cd[0]), 2) == float(demsar["posthoc"]["paper"]["nemenyi"]["CD_0.05"])
    # Post-hoc against C4.5 on the recomputed ranks: Holm rejects C4.5+m+cf and C4.5+m.
    ref = {r["classifier"]: r for r in demsar["posthoc"]["recomputed"]["control_C4.5_from_recomputed_ranks"]}
    head = posthoc[0]
    for row in posthoc[1:]:
        name = row[0]
        assert float(row[head.index("z")]) == pytest.approx(ref[name]["z"], abs=1e-4)
        assert float(row[head.index("pvalue")]) == pytest.approx(ref[name]["p"], abs=1e-5)
        assert (row[head.index("holm_reject")] == "True") == ref[name]["holm_reject"]
        assert (row[head.index("bonferroni_dunn_reject")] == "True") == ref[name]["bonferroni_dunn_reject"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table2_csv_reproduces_wilcoxon_example(table2_csv, demsar):
    res = CliRunner().invoke(main, ["compare", str(table2_csv), "--format", "csv"])
    assert res.exit_code == 0, res.output
    posthoc = _csv_sections(res.stdout)[2]
    head, row = posthoc[0], posthoc[1]
    paper = demsar["wilcoxon_example"]["paper"]
    assert row[0] == "C4.5+m"
    assert float(row[head.index("wilcoxon_statistic")]) == paper["T"] == 12
    # Demšar's zero rule, then scipy's auto choice (normal approximation with ties) for N = 14.
    assert float(row[head.index("wilcoxon_pvalue")]) == pytest.approx(
        demsar["wilcoxon_example"]["recomputed"]["scipy.stats.wilcoxon(d) variants"]
        ["zero_method=zsplit, method=auto"]["pvalue"], abs=1e-6)
    assert (float(row[head.index("sign_wins")]), int(row[head.index("sign_n")])) == (11, 14)
    assert float(row[head.index("sign_pvalue")]) == pytest.approx(0.057373, abs=1e-6)


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


def test_cli_reads_run_directories_and_prefixes_shared_labels(tmp_path, ttest_ref):
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    write_run(tmp_path / "results" / "first", fold_records("ex1", "nb", b) + fold_records("ex2", "nb", a))
    write_run(tmp_path / "results" / "second", fold_records("ex1", "nb", a) + fold_records("ex2", "nb", b)
               + fold_records("ex1", "tan", a) + fold_records("ex2", "tan", a))
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


def test_cli_compare_reads_failedfold_records(tmp_path, ttest_ref):
    from bayesbench.evaluation.store import RecordWriter
    frame = with_failures(three_datasets(ttest_ref), [("ex1", "C", None)])
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


def test_runs_of_the_same_name_in_different_directories_stay_apart(tmp_path, ttest_ref):
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    write_run(tmp_path / "x" / "quick", fold_records("ex1", "nb", a) + fold_records("ex2", "nb", b))
    write_run(tmp_path / "y" / "quick", fold_records("ex1", "nb", b) + fold_records("ex2", "nb", a))
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
    write_run(run, fold_records("ex1", "nb", ttest_ref["accuracy_A"]))
    res = CliRunner().invoke(main, ["compare", str(run)])
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.strip().startswith(f"bayesbench: error: {run}: one classifier (nb); "
                                         f"a comparison needs at least 2")


STORED_BASELINE = """\
name: stored
seed: 1
datasets: [iris, wine]
cv: {folds: 3}
classifiers: [tan, nb, gnb]
compare: {baseline: nb}
format: [csv]
"""


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory):
    """A real run whose stored baseline, nb, is neither its first classifier in record
    order (tan) nor in alphabetical order (gnb)."""
    return run_config_text(tmp_path_factory.mktemp("stored"), STORED_BASELINE, "stored")


def test_compare_of_one_run_takes_the_baseline_the_run_stored(stored_run):
    # Before: `compare RUN` tested against tan, the first classifier, while the run's own
    # summary (and config.yaml) said nb.
    res = CliRunner().invoke(main, ["compare", str(stored_run), "--format", "csv"])
    assert res.exit_code == 0, res.output
    _scores, _tests, posthoc, pvalues, _pairs = _csv_sections(res.stdout)
    assert [r[0] for r in posthoc[1:]] == ["tan", "gnb"]
    assert {r[1] for r in pvalues[1:]} == {"tan", "gnb"}
    # The run's own end-of-run comparison, written by `bayesbench run`, is the same table.
    with open(stored_run / "summary" / "comparison_posthoc.csv", newline="") as fh:
        assert posthoc == list(csv.reader(fh))
    assert f"# the baseline 'nb' is the one stored with the run {stored_run}" in res.stdout
    text = CliRunner().invoke(main, ["compare", str(stored_run)]).stdout
    assert "post-hoc tests against nb over 2 data sets" in text
    assert compare_paths([stored_run]).baseline == "nb"


def test_compare_format_csv_is_the_runs_own_comparison_files_table_for_table(stored_run):
    # compare --format csv printed other tables than the run's summary/comparison*.csv
    # (issue 25, class 9): now each of its sections is one of those files, cell for cell;
    # only the notes (lines starting with #) are the terminal's alone.
    res = CliRunner().invoke(main, ["compare", str(stored_run), "--format", "csv"])
    assert res.exit_code == 0, res.output
    sections = _csv_sections(res.stdout)
    for section, stem in zip(sections, ("comparison", "comparison_tests", "comparison_posthoc",
                                        "comparison_pvalues", "comparison_pairs")):
        with open(stored_run / "summary" / f"{stem}.csv", newline="") as fh:
            assert section == list(csv.reader(fh)), stem
    assert len(sections) == 5


def test_an_explicit_baseline_overrides_the_stored_one(stored_run):
    res = CliRunner().invoke(main, ["compare", str(stored_run), "--baseline", "tan", "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["baseline"] == "tan"
    assert [r["classifier"] for r in doc["tables"]["posthoc"]] == ["nb", "gnb"]
    assert not any("stored with the run" in note for note in doc["notes"])


def test_several_runs_keep_the_first_classifier_as_baseline(stored_run, tmp_path):
    for name in ("a", "b"):
        shutil.copytree(stored_run, tmp_path / "both" / name)
    cmp = compare_paths([tmp_path / "both"])
    assert cmp.baseline == cmp.classifiers[0] == "a/tan"
    assert not any("stored with the run" in note for note in cmp.notes)


def test_a_stored_baseline_without_records_falls_back_to_the_first_classifier(tmp_path, ttest_ref):
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    run = tmp_path / "run"
    write_run(run, fold_records("ex1", "A", a) + fold_records("ex2", "A", b)
              + fold_records("ex1", "B", b) + fold_records("ex2", "B", a))
    (run / "config.yaml").write_text("classifiers: [{label: B}, {label: A}]\n")  # no compare: key
    cmp = compare_paths([run])
    assert cmp.baseline == "B"  # an older directory: its first classifier when it was created
    (run / "config.yaml").write_text("classifiers: [{label: A}]\ncompare: {baseline: Z}\n")
    cmp = compare_paths([run])
    assert cmp.baseline == "A"
    assert cmp.notes[0] == (f"{run} stored the baseline 'Z', which has no records there; the "
                            f"first classifier is the baseline instead.")


def test_quiet_compare_prints_nothing_and_writes_what_it_is_asked(table6_csv, tmp_path):
    out, plot = tmp_path / "cmp.csv", tmp_path / "cd.svg"
    loud = CliRunner().invoke(main, ["compare", str(table6_csv), "--plot", str(plot)])
    assert loud.exit_code == 0 and "Friedman" in loud.stdout and "written to" in loud.stderr
    res = CliRunner().invoke(main, ["compare", str(table6_csv), "-q", "-o", str(out),
                                    "--format", "csv", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    assert res.stdout == "" and res.stderr == ""
    assert out.read_text().startswith("dataset,") and plot.stat().st_size > 0
    # Alone, -q prints no table either; a mistake is still reported.
    assert CliRunner().invoke(main, ["compare", str(table6_csv), "-q"]).stdout == ""
    bad = CliRunner().invoke(main, ["compare", str(table6_csv), "-q", "--baseline", "nope"])
    assert bad.exit_code == 2 and "nope" in bad.stderr


# ------------------------------------------ compare never writes over what is not its own (issue 25)

def _compared_run(tmp_path, ttest_ref):
    run = tmp_path / "run"
    write_run(run, three_datasets(ttest_ref).to_dict("records"))
    (run / "figures").mkdir()
    for name, text in {"report.html": "<p>the run's</p>", "figures/cd.svg": "<svg/>"}.items():
        (run / name).write_text(text)
    return run


@pytest.mark.parametrize("args, flag", [
    (["--report", "{run}"], "--report"),
    (["--report", "{run}/figures"], "--report"),
    (["-o", "{run}/report.html"], "--output"),
    (["--plot", "{run}/figures/cd.svg"], "--plot"),
])
def test_compare_never_writes_into_a_result_directory(tmp_path, ttest_ref, args, flag):
    run = _compared_run(tmp_path, ttest_ref)
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    res = CliRunner().invoke(main, ["compare", str(run), *[a.format(run=run) for a in args]])
    assert res.exit_code == 2
    [line] = res.stderr.splitlines()
    assert line.startswith(f"bayesbench: error: {flag}: ")
    assert f"belongs to the result directory {run}; write the output elsewhere" in line
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_compare_report_refuses_a_directory_of_the_users_and_reuses_its_own(tmp_path, ttest_ref):
    run = _compared_run(tmp_path, ttest_ref)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.html").write_text("<p>mine</p>")
    res = CliRunner().invoke(main, ["compare", str(run), "--report", str(mine)])
    assert res.exit_code == 2 and "not a comparison report of bayesbench's" in res.stderr
    assert "choose a new or empty directory" in res.stderr
    assert (mine / "report.html").read_text() == "<p>mine</p>"
    for _ in range(2):  # a new directory, then the same one again: its own
        res = CliRunner().invoke(main, ["compare", str(run), "--report", str(tmp_path / "cmp")])
        assert res.exit_code == 0, res.stderr
        assert (tmp_path / "cmp" / "report.html").is_file()
