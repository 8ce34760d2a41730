"""``bayesbench check``: a run held against a published table. Hand-built result
directories whose fold scores give hand-computed means, standard errors and tolerances;
Friedman's test against scipy; the command's exits; and a real reduced run of paper 003."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import scipy.stats
import yaml
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.errors import CheckError, NoPublishedTable
from bayesbench.evaluation.store import RecordWriter, records_frame
from bayesbench.report.check.against import check_run

ROOT = Path(__file__).resolve().parents[2]


def _build(run_dir: Path, scores: dict, published: Path | None) -> Path:
    """A result directory whose records hold ``scores``: {(dataset, label): [accuracy, ...]}."""
    run_dir.mkdir(parents=True)
    config = {"name": run_dir.name, "seed": 0}
    if published is not None:
        config["published"] = str(published)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config))
    with RecordWriter(run_dir) as writer:
        for (dataset, label), accuracies in scores.items():
            for fold, acc in enumerate(accuracies):
                writer.append({"task_id": f"{dataset}-{label}-{fold}", "dataset": dataset,
                               "classifier": label, "learner": "nb", "repetition": 0,
                               "fold": fold, "fold_id": f"{dataset}-{fold}", "status": "ok",
                               "n_train": 90, "n_test": 10,
                               "metrics": {"accuracy": acc, "error": 1 - acc}})
    return run_dir


def _published(path: Path, d2=(70.0, 1.0), **extra) -> Path:
    table = {"table": "Table 9", "page": 7, "metric": "accuracy", "scale": 100, "spread": "sd",
             "folds": 4, "digits": 1, "columns": ["a", "b"],
             "values": {"d1": [[84.0, 2.0], [60.0, None]], "d2": [list(d2), None]}}
    path.write_text(yaml.safe_dump({"paper": "Someone 2020", "tables": [table], **extra}))
    return path


def test_cells_hold_hand_computed_tolerances(tmp_path):
    published = _published(tmp_path / "pub.yaml")
    run = _build(tmp_path / "run", {("d1", "a"): [0.80, 0.82, 0.84, 0.86],
                                    ("d1", "b"): [0.5, 0.5, 0.5, 0.5]}, published)
    result = check_run(run)
    cells = {(c.dataset, c.classifier): c for c in result.cells}
    a = cells["d1", "a"]
    # a: mean 83.0, sd sqrt(20/3) = 2.582 over 4 folds -> se 1.291; the paper's sd 2.0 over
    # 4 folds -> se 1.0; tolerance 2 sqrt(1.291^2 + 1) = 3.266; difference -1.0: within.
    assert a.ours == pytest.approx(83.0)
    assert a.ours_sd == pytest.approx(math.sqrt(20 / 3))
    assert a.tolerance == pytest.approx(2 * math.sqrt(20 / 3 / 4 + 1.0))
    assert a.difference == pytest.approx(-1.0) and a.within
    # b: every fold 50 %, no printed spread: tolerance 0, and 10 points off.
    b = cells["d1", "b"]
    assert b.tolerance == 0 and b.difference == pytest.approx(-10.0) and not b.within
    assert (a.table, a.page, a.arm) == ("Table 9", 7, None)
    # d2 is printed but not run; its second column is not printed at all.
    assert result.not_run == (("d2", "a"),)
    assert result.counts == {"cells": 2, "within": 1, "off": 1, "not_run": 1}


def test_a_difference_within_the_printed_rounding_is_within(tmp_path):
    # Every fold 70.04 %, printed 70.0 with no spread: the paper's one decimal cannot tell
    # them apart (half a unit of its last digit, 0.05).
    published = _published(tmp_path / "pub.yaml")
    run = _build(tmp_path / "run", {("d2", "a"): [0.7004] * 4}, published)
    (cell,) = check_run(run).cells
    assert cell.tolerance == pytest.approx(2 * 1.0 / 2)  # the paper's se only: 1.0 / sqrt(4)
    assert cell.within
    _published(published, d2=(70.0, None))
    (cell,) = check_run(run).cells
    assert cell.tolerance == 0 and cell.within
    run2 = _build(tmp_path / "run2", {("d2", "a"): [0.7006] * 4}, published)
    assert not check_run(run2).cells[0].within


def test_arms_are_told_apart_by_their_directories(tmp_path):
    published = tmp_path / "pub.yaml"
    published.write_text(yaml.safe_dump({"paper": "P", "tables": [
        {"table": "T", "metric": "accuracy", "scale": 100, "spread": "none", "digits": 1,
         "columns": ["clean/nb", ["noisy/nb", "noisy/other"]],
         "values": {"d": [90.0, 80.0]}}]}))
    parent = tmp_path / "arms"
    _build(parent / "clean", {("d", "nb"): [0.9, 0.9]}, published)
    _build(parent / "noisy", {("d", "nb"): [0.7, 0.7], ("d", "other"): [0.8, 0.8]}, published)
    cells = {(c.arm, c.classifier): c.ours for c in check_run(parent).cells}
    assert cells == {("clean", "nb"): pytest.approx(90.0), ("noisy", "nb"): pytest.approx(70.0),
                     ("noisy", "other"): pytest.approx(80.0)}
    # One arm's directory alone: the other arm's columns are not run.
    alone = check_run(parent / "clean")
    assert [(c.arm, c.classifier) for c in alone.cells] == [("clean", "nb")]
    assert alone.not_run == (("d", "noisy/nb / noisy/other"),)


def test_friedman_ranks_beside_the_papers_match_scipy(tmp_path):
    published = tmp_path / "pub.yaml"
    published.write_text(yaml.safe_dump({"paper": "P", "tables": [
        {"table": "T", "metric": "accuracy", "scale": 100, "spread": "none", "digits": 1,
         "columns": ["a"], "values": {d: [90.0] for d in "xyzwv"}}],
        "not_run": {"v": "no public copy"},
        "ranks": {"table": "Table 2", "metric": "accuracy", "values": {"a": 1.2, "b": 2.1, "c": 2.7},
                  "friedman_pvalue": 0.2, "iman_davenport_pvalue": 0.2}}))
    scores = {}
    for d, base in (("x", 0.9), ("y", 0.8), ("z", 0.7), ("w", 0.6)):
        for label, minus in (("a", 0.0), ("b", 0.05), ("c", 0.1)):
            scores[d, label] = [base - minus + 0.01 * k for k in range(3)]
    run = _build(tmp_path / "run", scores, published)
    ranks = check_run(run).ranks
    assert {c: v["ours"] for c, v in ranks["ranks"].items()} == {"a": 1.0, "b": 2.0, "c": 3.0}
    assert ranks["ranks"]["b"]["paper"] == 2.1
    means = {d: [sum(scores[d, c]) / 3 for c in "abc"] for d in "xyzw"}
    expected = scipy.stats.friedmanchisquare(*zip(*means.values())).pvalue
    assert ranks["friedman_pvalue"]["ours"] == pytest.approx(expected)
    assert ranks["friedman_pvalue"]["paper"] == 0.2 and ranks["datasets"] == 4
    # A run without one of the paper's data sets gets no ranks to set beside the paper's.
    partial = _build(tmp_path / "partial", {k: v for k, v in scores.items() if k[0] != "w"},
                     published)
    assert check_run(partial).ranks["note"] == ("not computed: the run has 3 of the paper's 4 "
                                                "data sets")


def test_command_prints_cells_and_counts_and_json(tmp_path):
    published = _published(tmp_path / "pub.yaml")
    run = _build(tmp_path / "run", {("d1", "a"): [0.80, 0.82, 0.84, 0.86],
                                    ("d1", "b"): [0.5, 0.5, 0.5, 0.5]}, published)
    text = CliRunner().invoke(main, ["check", str(run)])
    assert text.exit_code == 0, text.output  # exit 0 although a cell is off
    assert "2 cells: 1 within, 1 off; 1 printed cells not run, of d2" in text.output
    assert "within" in text.output and "off" in text.output and "3.266" in text.output
    out = CliRunner().invoke(main, ["check", str(run), "--format", "json"])
    assert out.exit_code == 0
    doc = json.loads(out.output)
    assert {"dataset", "classifier", "arm", "ours", "paper", "tolerance", "within"} <= set(
        doc["cells"][0])
    assert [c["within"] for c in doc["cells"]] == [True, False]
    assert doc["counts"] == {"cells": 2, "within": 1, "off": 1, "not_run": 1}


def test_a_run_without_a_published_table_exits_2_in_one_line(tmp_path):
    run = _build(tmp_path / "run", {("d1", "a"): [0.8, 0.8]}, None)
    with pytest.raises(NoPublishedTable):
        check_run(run)
    result = CliRunner().invoke(main, ["check", str(run)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "names no published table" in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("content, message", [
    ("tables: [{metric: accuracy, columns: [a], values: {d: [1, 2]}}]",
     "tables[0].values.d: expected 1 values"),
    ("tables: [{metric: accuracy, columns: [a], spread: sd, values: {d: [[1, 2]]}}]",
     "tables[0].folds: an sd needs"),
    ("tables: [{metric: accuracy, columns: [a], spread: range, values: {}}]",
     "tables[0].spread: 'range' is not one of sd, se, none"),
    ("tables: [{columns: [a], values: {}}]", "tables[0]: 'metric' is required"),
    ("tables: [a: b: c]", "pub.yaml: line 1: not valid YAML"),
])
def test_a_bad_published_file_is_one_line_naming_it(tmp_path, content, message):
    published = tmp_path / "pub.yaml"
    published.write_text(content)
    run = _build(tmp_path / "run", {("d", "a"): [0.8, 0.8]}, published)
    with pytest.raises(CheckError, match="pub.yaml"):
        check_run(run)
    result = CliRunner().invoke(main, ["check", str(run)])
    assert result.exit_code == 1 and message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_not_a_result_directory(tmp_path):
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1 and "neither a result directory" in result.output


def test_a_config_naming_a_missing_published_file_is_a_config_error(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("name: c\ndatasets: [iris]\nclassifiers: [nb]\npublished: nowhere.yaml\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "-o", str(out)])
    assert result.exit_code == 2 and "published: 'nowhere.yaml': no such file" in result.output
    assert not out.exists()


def test_a_reduced_paper_003_run_against_its_tables(tmp_path, monkeypatch):
    monkeypatch.delenv("BAYESBENCH_DATA", raising=False)
    out = tmp_path / "hurley"
    ran = CliRunner().invoke(main, ["run", str(ROOT / "configs/papers/hurley_ellingsen.yaml"),
                                    "--datasets", "iris,soybean-small", "-q", "-o", str(out),
                                    "--jobs", "1"])
    assert ran.exit_code == 0, ran.output
    result = check_run(out)
    # Two data sets x two printed tables (recall, 0/1 loss) x six of ours: the clean column
    # against nb and nb_onehot in the clean arm, the noisy one against both in the two noise
    # arms; the other three data sets of the paper are printed and not run.
    assert len(result.cells) == 2 * 2 * 6 and len(result.not_run) == 3 * 2
    frame = records_frame([out / "clean", out / "noisy"])
    frame = frame[frame.classifier == "nb"]
    cells = {(c.dataset, c.arm, c.metric): c for c in result.cells if c.classifier == "nb"}
    iris = frame[(frame.dataset == "iris") & (frame.run == "clean")]
    assert cells["iris", "clean", "accuracy"].ours == pytest.approx(100 * iris.accuracy.mean())
    assert cells["iris", "clean", "accuracy"].paper == 92.67  # Table 2
    assert cells["soybean-small", "noisy", "errors"].paper == 1.5  # Table 5
    pvalues = result.tests[0]["pvalues"]
    assert pvalues["iris"]["paper"] == 0.016 and pvalues["glass"]["ours"] is None
    expected = scipy.stats.ttest_ind(
        frame[(frame.dataset == "iris") & (frame.run == "noisy")].accuracy, iris.accuracy).pvalue
    assert pvalues["iris"]["ours"] == pytest.approx(expected)


def test_a_test_between_data_sets_matches_scipy_under_both_readings(tmp_path):
    # Paper 003, sec. 4: the fold scores of a group of data sets against another data set's,
    # Student's t-test: every fold score of the group, or its mean at each fold position.
    scores = {("g1", "a"): [0.90, 0.95, 0.92, 0.97], ("g2", "a"): [0.80, 0.86, 0.83, 0.90],
              ("g3", "a"): [0.88, 0.84, 0.91, 0.85], ("h", "a"): [0.40, 0.35, 0.42, 0.33]}
    published = tmp_path / "pub.yaml"
    published.write_text(yaml.safe_dump({"paper": "P", "tables": [], "tests": [
        {"table": "sec. 4", "test": "unpaired-t", "metric": "accuracy", "classifier": "a",
         "group": ["g1", "g2", "g3"], "against": {"h": 1e-9, "missing": 0.5}}]}))
    result = check_run(_build(tmp_path / "run", scores, published))
    between = result.tests[0]["between"]
    group = [scores["g1", "a"], scores["g2", "a"], scores["g3", "a"]]
    folds = scipy.stats.ttest_ind(sum(group, []), scores["h", "a"]).pvalue
    average = scipy.stats.ttest_ind([sum(x) / 3 for x in zip(*group)], scores["h", "a"]).pvalue
    assert between["h"]["ours"] == {"folds": pytest.approx(folds),
                                    "average": pytest.approx(average)}
    assert between["h"]["paper"] == 1e-9
    assert between["missing"]["ours"] == {"folds": None, "average": None}
    shown = CliRunner().invoke(main, ["check", str(tmp_path / "run")])
    assert f"- h: p ours {folds:.3g} / {average:.3g}, paper 1e-09" in shown.output


def test_a_between_test_with_an_unknown_reading_names_its_key(tmp_path):
    published = tmp_path / "pub.yaml"
    published.write_text("tables: []\ntests: [{classifier: a, group: [d], against: {e: 0.1}, "
                         "readings: [median]}]\n")
    with pytest.raises(CheckError, match=r"pub.yaml: tests\[0\].readings: 'median' is not one"):
        check_run(_build(tmp_path / "run", {("d", "a"): [0.8, 0.8]}, published))


@pytest.mark.parametrize("content, message", [
    (b"a: [b\n", "config.yaml: line 2: not valid YAML"),                 # the example
    (b"\xff\xfegarbage", "config.yaml: line 1: not UTF-8 text"),           # was UnicodeDecodeError
    (b"published: [a, b]\n", "published: expected the published table's file name, got list"),
    (b"x: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + b"".join(
        f"{k}: &{k} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n".encode()
        for p, k in zip("abcdefg", "bcdefgh")), "aliases expand to more than 100,000 values"),
    (None, "config.yaml: not a regular file"),                          # a FIFO: check waited
    ("dir", "config.yaml: not a regular file"),                  # was "3: Is a directory"
    (b"# a comment\n", "config.yaml: empty; the result directory's config"),  # was "missing"
])
@pytest.mark.timeout(60)
def test_a_run_whose_config_cannot_be_read_is_one_line(tmp_path, content, message):
    import os

    run = _build(tmp_path / "run", {("d", "a"): [0.8, 0.8], ("d", "b"): [0.7, 0.8]}, None)
    (run / "config.yaml").unlink()
    if content is None:
        os.mkfifo(run / "config.yaml")
    elif content == "dir":
        (run / "config.yaml").mkdir()
    else:
        (run / "config.yaml").write_bytes(content)
    # compare reads it for the order of the data sets and the baseline, which have defaults
    compared = CliRunner().invoke(main, ["compare", str(run), "--samples", "0"])
    assert compared.exit_code == 0 and isinstance(compared.exception, (SystemExit, type(None)))
    result = CliRunner().invoke(main, ["check", str(run)])
    assert result.exit_code == 1 and message in result.output
    assert len(result.output.strip().splitlines()) == 1
