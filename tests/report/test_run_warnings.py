"""A classifier's warnings reach the terminal, summary/warnings.csv and report.html, each
once per data set and classifier with the folds that raised it."""
import csv
import html

import yaml
from click.testing import CliRunner

from bayesbench.cli import main

MESSAGE = "UserWarning: lbfgs failed to converge (status=1)"


def test_a_classifier_that_warns_in_every_fit_shows_once_per_data_set(tmp_path):
    config = tmp_path / "warns.yaml"
    config.write_text(yaml.safe_dump({
        "name": "warns", "seed": 3, "datasets": ["iris", "vote"], "cv": {"folds": 3},
        "classifiers": ["nb", {"name": "helpers:WarnsInFit", "label": "warns"}]}))
    out = tmp_path / "run"
    res = CliRunner().invoke(main, ["run", str(config), "-o", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    # The terminal: one line per data set, each with its count of folds (3 of 3), though
    # every fit warned twice.
    lines = [line for line in res.stderr.splitlines() if "lbfgs" in line]
    assert lines == [f"bayesbench: warning: {d} / warns: 3 of 3 folds: {MESSAGE}"
                     for d in ("iris", "vote")]
    with open(out / "summary" / "warnings.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows == [{"dataset": d, "classifier": "warns", "folds": "3", "of": "3",
                     "warning": MESSAGE} for d in ("iris", "vote")]
    page = (out / "report.html").read_text()
    section = page[page.index(">Warnings<"):]
    assert section.count(html.escape(MESSAGE)) == 2  # once per data set
    for d in ("iris", "vote"):
        assert f"<td>{d}</td><td>warns</td><td>3</td><td>3</td>" in section.replace("\n", "")


def test_a_run_without_warnings_has_no_warnings_file(tmp_path):
    config = tmp_path / "quiet.yaml"
    config.write_text(yaml.safe_dump({"name": "q", "datasets": ["iris"], "cv": {"folds": 2},
                                      "classifiers": ["nb"]}))
    res = CliRunner().invoke(main, ["run", str(config), "-o", str(tmp_path / "run"),
                                    "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "warning" not in res.stderr
    assert not (tmp_path / "run" / "summary" / "warnings.csv").exists()
    assert ">Warnings<" not in (tmp_path / "run" / "report.html").read_text()


def test_warnings_csv_has_its_documented_columns(tmp_path):
    from helpers import check_summary_csvs

    config = tmp_path / "w.yaml"
    config.write_text(yaml.safe_dump({"name": "w", "datasets": ["iris"], "cv": {"folds": 2},
                                      "classifiers": ["helpers:WarnsInFit"],
                                      "metrics": ["accuracy"]}))
    res = CliRunner().invoke(main, ["run", str(config), "-o", str(tmp_path / "run"), "-j", "1",
                                    "-q"])
    assert res.exit_code == 0, res.output
    # --quiet hides progress and tables, never a warning (as pip's -q): it was hidden
    # (issue 34, class 9); the file and the page keep it too.
    assert res.stdout == ""
    assert res.stderr.splitlines() == [f"bayesbench: warning: iris / WarnsInFit: 2 of 2 folds: "
                                       f"{MESSAGE}"]
    assert "warnings" in check_summary_csvs(tmp_path / "run" / "summary", ["accuracy"])
