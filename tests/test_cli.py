"""The command line: every mistake one line on standard error with the exit status that
`--help` documents, never a traceback, nothing written; `--help` pages that read like man
pages; `discretize` printing Weka's cut points; `run` printing the first metric's table."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import numpy as np
import pytest
import yaml
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import DATA_ENV, load_config
from bayesbench.data import load_dataset
from bayesbench.errors import ConfigError, DataError, Interrupted
from bayesbench.evaluation.store import read_records
from helpers import run, stable_order, without_timings


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(res, code, *fragments):
    assert res.exit_code == code, (res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bayesbench: error: "), res.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.mark.parametrize("text, got", [("- iris\n- nb\n", "a list"), ("", "an empty file"),
                                       ("just words\n", "a string")])
def test_a_config_that_is_not_a_mapping_is_one_line(tmp_path, text, got):
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    one_line_error(invoke("run", path), 2, str(path), "expected a mapping", got)


def test_a_config_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_bytes(b"name: x\ndatasets: [caf\xe9]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", path), 2, str(path), "line 2: not UTF-8")


def test_a_key_given_twice_is_refused_not_silently_overwritten(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\nclassifiers: [tan]\n")
    one_line_error(invoke("run", path), 2, "line 4", "key 'classifiers' given twice (lines 3 and 4)")
    path.write_text("name: x\ndatasets: [iris]\nclassifiers:\n  - {name: nb, params: {alpha: 1, alpha: 2}}\n")
    one_line_error(invoke("run", path), 2, "key 'alpha' given twice")
    # YAML merge keys may still be overridden: that is their purpose, not a repetition.
    path.write_text("name: x\ndatasets: [iris]\nbase: &b {alpha: 1}\n"
                    "classifiers:\n  - {name: nb, params: {<<: *b, alpha: 2}}\n")
    res = invoke("run", path)
    assert "given twice" not in res.stderr and "base: unknown key" in res.stderr
    path.write_text("name: x\ndatasets: [iris]\nclassifiers:\n  - {name: nb, params: {<<: {alpha: 1}, alpha: 2}}\n")
    assert load_config(path).experiment.classifiers[0].params == {"alpha": 2}


def test_discretize_a_data_set_without_numeric_attributes(tmp_path):
    one_line_error(invoke("discretize", "weather.nominal"), 1, "weather.nominal.arff",
                   "no numeric attribute to discretize")
    # semicolons and tabs are detected; another separator reads as one column
    pipes = tmp_path / "pipes.csv"
    pipes.write_text("a|b|c\n1|2|x\n3|4|y\n")
    one_line_error(invoke("discretize", pipes), 1, str(pipes),
                   "reads as a single column ('a|b|c')", "delimiter")


def test_output_into_a_missing_directory_is_refused_before_any_work(tmp_path):
    target = tmp_path / "nowhere" / "iris-mdl.arff"
    res = invoke("discretize", "iris", "-o", target)
    one_line_error(res, 2, f"--output: {target}", "does not exist")
    assert res.stdout == "" and not target.parent.exists()
    scores = tmp_path / "scores.csv"
    scores.write_text("dataset,A,B\nd1,0.5,0.6\nd2,0.6,0.7\nd3,0.7,0.9\n")
    res = invoke("compare", scores, "-o", tmp_path / "nowhere" / "cmp.txt")
    one_line_error(res, 2, "--output", "does not exist")
    res = invoke("compare", scores, "--plot", tmp_path / "nowhere" / "cd.png")
    one_line_error(res, 2, "--plot", "does not exist")
    assert res.stdout == ""
    res = invoke("compare", scores, "--plot", tmp_path / "cd.jpg")
    one_line_error(res, 2, "--plot", ".png, .svg, .pdf")
    assert res.stdout == ""  # refused before the tables were printed


def test_an_os_error_while_running_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers: [nb]\n")
    res = invoke("run", config, "-o", blocker / "out", "-q", "--jobs", "1")
    one_line_error(res, 1, str(blocker / "out"), "Not a directory")


def test_an_interrupted_run_says_how_to_resume(tmp_path, monkeypatch):
    import bayesbench.experiment

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bayesbench.experiment, "run_experiment", interrupted)
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: x\noutput: {tmp_path / 'out'}\ndatasets: [iris]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", config), 130, "interrupted", str(tmp_path / "out"),
                   "run the same command again to resume")


def test_ctrl_c_during_a_run_leaves_a_resumable_directory(tmp_path):
    # SIGINT to the whole process group, as a terminal's Ctrl-C sends it (workers included).
    config = tmp_path / "exp.yaml"
    out = tmp_path / "out"
    config.write_text(f"name: x\noutput: {out}\ndatasets: [vote, soybean]\ncv: {{folds: 10, repeats: 5}}\n"
                      "preprocess: {impute: mean_mode}\nclassifiers: [nb, bsej, asb]\n")

    def own_group():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgrp()

    proc = subprocess.Popen([sys.executable, "-m", "bayesbench.cli", "run", str(config), "-q",
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=own_group)
    records = out / "records.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if records.exists() and records.stat().st_size > 0:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    err = err.decode()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (f"bayesbench: error: interrupted; the finished tasks "
                                            f"are kept in {out}: run the same command again to resume")
    assert not (out / "lock").exists()
    from bayesbench.evaluation.store import scan
    kept, damaged = scan(out)
    assert kept and damaged == 0
    import json
    session = json.loads((out / "environment.json").read_text())["sessions"][-1]
    assert session["interrupted"] is True and session["end"] is not None
    assert session["tasks_run"] <= len(kept)


def test_an_unknown_format_option_is_a_command_line_error(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", config, "--format", "text,html"), 2,
                   "--format: unknown format(s) html")
    assert not (tmp_path / "results").exists()


def test_a_directory_where_a_file_is_expected(tmp_path):
    folder = tmp_path / "data.csv"
    folder.mkdir()
    one_line_error(invoke("run", folder), 2, str(folder), "is a directory")
    one_line_error(invoke("discretize", folder), 2, str(folder), "is a directory")
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: x\ndatasets: [{folder}]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", config), 2, f"datasets[0]: {folder} is a directory")
    one_line_error(invoke("compare", tmp_path / "missing"), 2, str(tmp_path / "missing"),
                   "does not exist")


def test_an_output_of_the_wrong_kind_is_one_line(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\n")
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    one_line_error(invoke("run", config, "-o", a_file), 2, "--output: ", str(a_file), "is a file")
    one_line_error(invoke("discretize", "iris", "-o", tmp_path), 2, "--output: ", str(tmp_path),
                   "is a directory")
    scores = tmp_path / "scores.csv"
    scores.write_text("dataset,A,B\nd1,0.5,0.6\nd2,0.6,0.7\n")
    one_line_error(invoke("compare", scores, "-o", tmp_path), 2, "is a directory")


def test_resume_and_force_together_are_a_command_line_error(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", config, "--resume", "--force", "-o", tmp_path / "out"), 2,
                   "--resume and --force exclude each other")
    assert not (tmp_path / "out").exists()


def test_a_directory_of_another_config_names_the_flags_that_go_on(tmp_path):
    # The library says what is wrong (ConfigChangedError, no flag named); the command line
    # adds how to go on with its own flags.
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [lenses]\nclassifiers: [nb]\ncv: {folds: 2}\n")
    assert invoke("run", config, "-q", "-j", "1", "-o", tmp_path / "out").exit_code == 0
    config.write_text("name: x\ndatasets: [lenses]\nclassifiers: [nb, tan]\ncv: {folds: 2}\n")
    one_line_error(invoke("run", config, "-q", "-j", "1", "-o", tmp_path / "out"), 1,
                   "holds results of a different configuration (it differs in classifiers)",
                   "use --resume to continue it", "--force to write into a new directory")


def test_a_malformed_scheduler_address_is_one_line(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: x\noutput: {tmp_path / 'out'}\ndatasets: [iris]\ncv: {{folds: 2}}\n"
                      "classifiers: [nb]\n")
    for value in ("scheduler-without-port", "locl"):
        one_line_error(invoke("run", config, "-q", "--scheduler", value), 2,
                       f"--scheduler: '{value}' is neither 'local' nor a Dask scheduler address",
                       "tcp://scheduler-host:8786")
    config.write_text(config.read_text() + "scheduler: locl\n")
    one_line_error(invoke("run", config, "-q"), 2,
                   "scheduler: 'locl' is neither 'local' nor a Dask scheduler address")
    assert not (tmp_path / "out").exists()


def test_a_directory_named_like_a_bundled_data_set_does_not_hide_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "iris").mkdir()
    res = invoke("discretize", "iris", "--format", "json")
    assert res.exit_code == 0, res.output
    assert list(json.loads(res.stdout)) == ["sepallength", "sepalwidth", "petallength", "petalwidth"]


FIXTURE_RUN = Path(__file__).resolve().parent / "fixtures" / "run-d38ed37" / "run" / "clean"
# A value that is wrong for each parameter of each command (the others being right).
BAD_VALUES = {
    "run": {"config": ["missing.yaml"], "output": ["-o", "taken"], "jobs": ["-j", "0"],
            "scheduler": ["--scheduler", "nowhere"], "formats": ["--format", "text,html"],
            "repeats": ["--repeats", "0"], "only": ["--datasets", "nope"],
            "max_table_cells": ["--max-table-cells", "0"],
            "worker_threads": ["--worker-threads", "0"],
            "figure_formats": ["--figure-format", "png"],
            "consensus_threshold": ["--consensus-threshold", "1.5"]},
    "discretize": {"data": ["nowhere"], "method": ["--method", "median"],
                   "bins": ["--bins", "0"], "max_cuts": ["--max-cuts", "0"],
                   "class_attribute": ["--class", "colour"],
                   "delimiter": ["--delimiter", ";;"], "output": ["-o", "nowhere/x.arff"],
                   "fmt": ["--format", "xml"]},
    "compare": {"inputs": ["missing"], "metric": ["--metric", "kapa"],
                "baseline": ["--baseline", "nope"], "test": ["--test", "t"],
                "alpha": ["--alpha", "2"], "rope": ["--rope", "-0.1"], "samples": ["--samples", "-1"], "fmt": ["--format", "html"],
                "output": ["-o", "/nonexistent/x.txt"], "plot": ["--plot", "cd.jpg"],
                "report_dir": ["--report", "taken"]},
    "classifiers": {"name": ["tann"]},
}
GOOD_ARGUMENTS = {"run": ["exp.yaml", "-q"], "discretize": ["iris"],
                  "compare": [str(FIXTURE_RUN)], "classifiers": ["tan"]}


def _walk():
    for command, bad in BAD_VALUES.items():
        for param in main.commands[command].params:
            if not (isinstance(param, click.Option) and param.is_flag):
                yield command, param.name


@pytest.mark.parametrize("command, param", list(_walk()))
def test_every_mistake_on_the_command_line_exits_2_with_one_line(command, param, tmp_path,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text("name: x\ndatasets: [iris]\ncv: {folds: 2}\n"
                                       "classifiers: [nb]\n")
    (tmp_path / "taken").write_text("a file, not a directory")
    assert param in BAD_VALUES[command], f"give {command}'s parameter {param} a bad value here"
    args = list(GOOD_ARGUMENTS[command])
    argument = next(p for p in main.commands[command].params if isinstance(p, click.Argument))
    if param == argument.name:
        args = args[1:]
    args = BAD_VALUES[command][param] + args
    res = CliRunner().invoke(main, [command, *args])
    one_line_error(res, 2)
    assert not (tmp_path / "results").exists() and not list(tmp_path.glob("*.arff"))


# ------------------------------------------------------------------ --help pages

def page(*args):
    res = CliRunner().invoke(main, [*args, "--help"])
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("command", ["run", "compare", "check", "discretize", "classifiers"])
def test_every_command_page_has_examples_that_name_the_command(command):
    text = page(command)
    examples = text.split("Examples:", 1)[1].split("Options:", 1)[0]
    lines = [ln.strip() for ln in examples.splitlines() if ln.strip().startswith("bayesbench ")]
    assert len(lines) >= 3 and all(ln.startswith(f"bayesbench {command} ") for ln in lines)


def test_the_group_page_lists_environment_and_the_exit_statuses_in_use():
    text = page()
    assert DATA_ENV in text
    for status in (DataError.exit_code, ConfigError.exit_code, Interrupted.exit_code):
        assert f"\n    {status} " in text
    # Short help of every command fits on the command list without being cut off.
    assert "..." not in text.split("Commands:", 1)[1]


def test_compare_page_says_what_happens_to_failed_cells():
    text = " ".join(page("compare").split())
    assert "gets an empty cell there" in text and "left out of the ranks" in text
    assert "'f1[M]'" in text


def test_compare_page_says_where_the_default_baseline_comes_from():
    text = " ".join(page("compare").split())
    assert "The baseline of one result directory is the one the run stored" in text
    assert "(default: for one result directory, the baseline the run stored" in text
    assert "as in the run's own summary; the notes say so. With several runs or a CSV it is the first" in text


# --------------------------------------------------------------- discretize

WEKA_JAR = Path("/usr/share/java/weka.jar")
needs_weka = pytest.mark.skipif(shutil.which("java") is None or not WEKA_JAR.exists(),
                                reason="java or Weka's jar not installed")


def discretize_ok(*args):
    result = CliRunner().invoke(main, ["discretize", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result


def test_json_prints_wekas_cut_points_for_iris(uci_dir, reference_dir):
    expected = json.loads((reference_dir / "weka_mdl_cuts.json").read_text())["cuts"]["iris"]
    got = json.loads(discretize_ok(uci_dir / "iris.arff", "--format", "json").stdout)
    assert list(got) == list(expected)
    for name in expected:
        np.testing.assert_allclose(got[name], expected[name], rtol=0, atol=1e-9)


def test_pki_prints_wekas_pki_cut_points_and_max_cuts_bounds_mdl(uci_dir, reference_dir):
    expected = json.loads((reference_dir / "weka_pki_cuts.json").read_text())["cuts"]["glass"]
    got = json.loads(discretize_ok(uci_dir / "glass.arff", "--method", "pki", "--format",
                                   "json").stdout)
    assert got == expected
    full = json.loads(discretize_ok(uci_dir / "glass.arff", "--format", "json").stdout)
    one = json.loads(discretize_ok(uci_dir / "glass.arff", "--max-cuts", "1", "--format",
                                   "json").stdout)
    assert all(len(one[a]) == min(1, len(c)) and set(one[a]) <= set(c) for a, c in full.items())
    result = CliRunner().invoke(main, ["discretize", "iris", "--method", "pki",
                                       "--max-cuts", "2"])
    assert result.exit_code == 2 and "'mdl' only" in result.output


def test_json_lists_numeric_attributes_only(uci_dir):
    got = json.loads(discretize_ok(uci_dir / "cmc.arff", "--format", "json").stdout)
    ds = load_dataset(uci_dir / "cmc.arff")
    assert list(got) == [a.name for a in ds.attributes if not a.is_nominal]


def test_table_is_the_default_and_shows_bins_and_cuts(uci_dir):
    out = discretize_ok(uci_dir / "iris.arff").stdout
    lines = out.strip().splitlines()
    assert lines[0].split() == ["attribute", "bins", "cut", "points"]
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in lines[2:]}
    assert rows["petallength"] == ["3", "2.45, 4.75"]
    assert rows["sepalwidth"] == ["3", "2.95, 3.35"]


@pytest.mark.parametrize("method, bins", [("fd", None), ("width", 4), ("frequency", 3)])
def test_unsupervised_methods_and_bins(uci_dir, method, bins):
    args = [uci_dir / "iris.arff", "--method", method, "--format", "json"]
    if bins:
        args += ["--bins", bins]
    got = json.loads(discretize_ok(*args).stdout)
    x = load_dataset(uci_dir / "iris.arff").columns[0]
    if method == "fd":
        np.testing.assert_allclose(got["sepallength"], np.histogram_bin_edges(x, "fd")[1:-1])
    elif method == "width":
        np.testing.assert_allclose(got["sepallength"], [5.2, 6.1, 7.0])
    else:
        assert len(got["sepallength"]) == 2


def test_bundled_name_and_class_option(tmp_path):
    got = json.loads(discretize_ok("iris", "--format", "json").stdout)
    assert len(got["petalwidth"]) == 2
    csv = tmp_path / "t.csv"
    csv.write_text("label;x\n" + "".join(f"{'ab'[i >= 20]};{i}\n" for i in range(40)))
    got = json.loads(discretize_ok(csv, "--class", "label", "--delimiter", ";", "--format", "json").stdout)
    assert got == {"x": [19.5]}


def test_output_arff_has_weka_range_labels_and_reads_back(uci_dir, tmp_path):
    out = tmp_path / "iris-mdl.arff"
    result = discretize_ok(uci_dir / "iris.arff", "-o", out)
    assert "petallength" in result.stdout  # the table is still printed
    text = out.read_text()
    assert "@attribute petallength {'(-inf-2.45]','(2.45-4.75]','(4.75-inf)'}" in text
    back = load_dataset(out)
    assert back.is_nominal
    original = load_dataset(uci_dir / "iris.arff")
    petal = original.columns[2]
    expected = np.where(petal <= 2.45, 0, np.where(petal <= 4.75, 1, 2))
    np.testing.assert_array_equal(back.columns[2], expected)
    np.testing.assert_array_equal(back.y, original.y)


def test_a_lone_cut_point_is_printed_as_written(tmp_path):
    data = tmp_path / "two.arff"
    rows = "".join(f"{v},{'ab'[v >= 20]}\n" for v in range(40))
    data.write_text("@relation n\n@attribute v numeric\n@attribute class {a,b}\n@data\n" + rows)
    assert discretize_ok(data).stdout.strip().splitlines()[-1].split() == ["v", "2", "19.5"]


def test_single_bin_is_all(tmp_path):
    data = tmp_path / "noise.arff"
    rows = "".join(f"{v},{c}\n" for v, c in zip([1, 2, 3, 4, 5, 6], "xyxyxy"))
    data.write_text("@relation n\n@attribute v numeric\n@attribute class {x,y}\n@data\n" + rows)
    out = tmp_path / "o.arff"
    table = discretize_ok(data, "-o", out).stdout.strip().splitlines()
    assert table[-1].split() == ["v", "1", "-"]
    assert "@attribute v {All}" in out.read_text()


@needs_weka
def test_weka_reads_the_output_and_bins_like_its_own_filter(uci_dir, tmp_path):
    source = uci_dir / "imports-85.arff"  # missing values, nominal and numeric attributes
    ours = tmp_path / "ours.arff"
    discretize_ok(source, "-o", ours)
    check = subprocess.run(["java", "-cp", str(WEKA_JAR), "weka.core.Instances", str(ours)],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    assert re.search(r"Num Instances:\s+205", check.stdout)
    assert re.search(r"Num Attributes:\s+26", check.stdout)

    weka_out = tmp_path / "weka.arff"
    filt = subprocess.run(["java", "-cp", str(WEKA_JAR),
                           "weka.filters.supervised.attribute.Discretize", "-c", "last",
                           "-i", str(source), "-o", str(weka_out)],
                          capture_output=True, text=True, timeout=120)
    assert filt.returncode == 0, filt.stderr
    theirs, mine = load_dataset(weka_out), load_dataset(ours)
    assert mine.attribute_names == theirs.attribute_names
    for a, b, ca, cb in zip(mine.attributes, theirs.attributes, mine.columns, theirs.columns):
        # Weka 3.6 keeps literal quotes inside its labels: '(-inf-75.5]' as a value
        assert a.categories == tuple(c.strip("'") for c in b.categories), a.name
        np.testing.assert_array_equal(ca, cb, err_msg=a.name)


# ---------------------------------------------------------------------- run

def test_cli_run_prints_the_accuracy_table(uci_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(yaml.safe_dump({
        "name": "cli", "data_dirs": [str(uci_dir)], "datasets": ["lenses"],
        "cv": {"resubstitution": True}, "classifiers": ["nb", "tan"],
        "preprocess": {"impute": "mean_mode", "noise": {"fraction": 0.5, "on": "test"}}}))
    result = CliRunner().invoke(main, ["run", "exp.yaml", "-j", "1", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    assert "| lenses" in result.output or "lenses" in result.output
    summary = tmp_path / "results" / "cli" / "summary"
    # scores.csv and arc_frequencies.csv always (tidy data, not tables), and warnings.csv
    # whenever a classifier warned, whatever the formats
    tables = [p for p in summary.iterdir()
              if p.stem not in ("scores", "arc_frequencies", "warnings")]
    assert sorted(p.suffix for p in tables) == [".md"] * len(tables)
    records = read_records(tmp_path / "results" / "cli")
    # Resubstitution: train = test = all 24 examples.
    assert {(r["n_train"], r["n_test"]) for r in records} == {(24, 24)}


def test_cli_run_prints_the_first_metric_in_the_format_written(uci_dir, tmp_path, monkeypatch):
    # Before: only summary/accuracy.txt was printed, so a run of f1[...] or of markdown tables
    # showed no table at all.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.yaml").write_text(yaml.safe_dump({
        "name": "cli", "data_dirs": [str(uci_dir)], "datasets": ["lenses"],
        "cv": {"folds": 3}, "classifiers": ["nb", "tan"], "metrics": ["f1_macro", "accuracy"]}))
    result = CliRunner().invoke(main, ["run", "exp.yaml", "-j", "1", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    table = (tmp_path / "results" / "cli" / "summary" / "f1_macro.md").read_text()
    assert result.stdout.startswith(table) and "| lenses" in result.stdout


# ------------------------------------------------------------- processes that die together

KILL_CONFIG = ("name: k\nseed: 4\ndatasets: [vote, soybean]\ncv: {folds: 5}\n"
               "preprocess: {impute: mean_mode}\nclassifiers: [nb, bsej, asb]\n")


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (zombies excepted)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(entry))
    return found


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The records of the kill tests' experiment, run without interruption."""
    where = tmp_path_factory.mktemp("kill-reference")
    (where / "exp.yaml").write_text(KILL_CONFIG)
    result = run(load_config(where / "exp.yaml"), output=where / "out", jobs=1, quiet=True)
    return [without_timings(r) for r in stable_order(result.records)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_parallel_run_leaves_no_process_and_resumes_to_the_same_records(
        sig, tmp_path, uninterrupted):
    # Killed with SIGKILL, the workers of `run --jobs 2` lived on under PID 1 holding the
    # output pipe (a reader such as `| head` waited for them); SIGTERM left the lock file.
    (tmp_path / "exp.yaml").write_text(KILL_CONFIG)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "bayesbench.cli", "run", str(tmp_path / "exp.yaml"),
               "-o", str(out), "--jobs", "2", "-q", "--format", "csv"]
    with open(tmp_path / "stderr", "wb") as err:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not (out / "records.jsonl").exists() or not (out / "records.jsonl").stat().st_size:
            assert proc.poll() is None and time.monotonic() < deadline, "no record was written"
            time.sleep(0.02)
        assert len(_session(proc.pid)) >= 2, "the workers had not started"
        os.kill(proc.pid, sig)  # the parent only, as a crash or `kill PID` would
        killed = time.monotonic()
        proc.wait(timeout=30)
        while _session(proc.pid) and time.monotonic() - killed < 5:
            time.sleep(0.05)
        assert _session(proc.pid) == [], "processes left 5 s after the kill"
        assert proc.stdout.read() == b""  # end of file: nobody holds the pipe any more
    finally:
        for pid in _session(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.stdout.close()
    n_kept = len(read_records(out))
    assert 0 < n_kept < len(uninterrupted), "the run was not killed in the middle"
    if sig == signal.SIGTERM:
        assert proc.returncode == 143
        assert not (out / "lock").exists()
        lines = (tmp_path / "stderr").read_text().strip().splitlines()
        assert lines == [f"bayesbench: error: terminated; the finished tasks are kept in {out}: "
                         "run the same command again to resume"]
        session = json.loads((out / "environment.json").read_text())["sessions"][-1]
        assert session["interrupted"] is True and session["end"] is not None
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert [without_timings(r) for r in stable_order(read_records(out))] == uninterrupted


def test_a_closed_standard_output_ends_the_command_quietly(tmp_path):
    # `bayesbench ... | head`: the reader is gone; no traceback, no error, exit 141.
    read_end, write_end = os.pipe()
    os.close(read_end)
    proc = subprocess.run([sys.executable, "-m", "bayesbench.cli", "compare", str(FIXTURE_RUN)],
                          stdout=write_end, stderr=subprocess.PIPE, timeout=120)
    os.close(write_end)
    assert (proc.returncode, proc.stderr) == (141, b"")


# ------------------------------------------------------------- outputs never destroy inputs

def test_compare_refuses_to_write_over_a_run_directory_or_its_own_input(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(FIXTURE_RUN, run_dir)
    records = (run_dir / "records.jsonl").read_bytes()
    for target in ("records.jsonl", "config.yaml", "environment.json", "summary/accuracy.csv"):
        line = one_line_error(invoke("compare", run_dir, "-o", run_dir / target), 2,
                              "--output", "belongs to the result directory")
        assert str(run_dir) in line
    one_line_error(invoke("compare", run_dir, "--plot", run_dir / "summary" / "cd.png"), 2,
                   "--plot", "belongs to the result directory")
    assert (run_dir / "records.jsonl").read_bytes() == records
    table = tmp_path / "scores.csv"
    table.write_text("dataset,a,b\nd1,0.9,0.8\nd2,0.7,0.75\nd3,0.6,0.65\n")
    before = table.read_text()
    one_line_error(invoke("compare", table, "-o", table), 2, "--output", "is an input")
    one_line_error(invoke("compare", table, "-o", tmp_path / "." / "scores.csv"), 2, "is an input")
    assert table.read_text() == before
    assert invoke("compare", table, "-o", tmp_path / "out.txt").exit_code == 0


def test_discretize_refuses_to_write_over_its_own_input(tmp_path):
    data = tmp_path / "glass.arff"
    shutil.copy(Path(__file__).resolve().parents[1] / "datasets" / "glass.arff", data)
    before = data.read_bytes()
    one_line_error(invoke("discretize", data, "-o", data), 2, "--output", "is an input")
    (tmp_path / "link.arff").symlink_to(data)
    one_line_error(invoke("discretize", data, "-o", tmp_path / "link.arff"), 2, "is an input")
    assert data.read_bytes() == before


def test_an_unreachable_scheduler_is_reported_before_any_directory_is_made(tmp_path,
                                                                           monkeypatch):
    import bayesbench.evaluation.executors as executors
    from bayesbench.errors import BayesbenchError

    def unreachable(address):
        raise BayesbenchError(f"cannot reach the Dask scheduler at {address}: refused")

    monkeypatch.setattr(executors, "connect", unreachable)
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: x\noutput: {tmp_path / 'out'}\ndatasets: [iris]\n"
                      "classifiers: [nb]\nscheduler: tcp://127.0.0.1:1\n")
    one_line_error(invoke("run", config), 1, "cannot reach the Dask scheduler")
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------- classifiers

def test_classifiers_lists_the_built_in_and_the_entry_point_ones(oner_plugin):
    from bayesbench.models.registry import list_classifiers

    res = invoke("classifiers")
    assert res.exit_code == 0, res.output
    rows = {line.split()[0]: line for line in res.stdout.splitlines()[2:]}
    assert list(rows) == list_classifiers() + ["oner"]
    assert rows["tan"].split()[1] == "codes" and "alpha=1.0, root=0" in rows["tan"]
    assert rows["gnb"].split()[1] == "numeric"
    assert "One rule on one attribute (Holte 1993)" in rows["oner"]
    assert "[bayesbench_oner:OneR]" in rows["oner"]


def test_classifiers_name_shows_parameters_and_the_whole_docstring():
    res = invoke("classifiers", "kdb")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "kdb (built-in: bayesbench.models.learners.kdb:KDB); input: codes"
    assert any(ln.split() == ["k=2", "an", "integer", ">=", "0"] for ln in lines), lines[:6]
    assert "Parameters\n----------" in res.stdout
    res = invoke("classifiers", "sklearn.tree:DecisionTreeClassifier")
    assert res.exit_code == 0 and "input: onehot" in res.stdout
    assert "  criterion='gini'\n" in res.stdout
    one_line_error(invoke("classifiers", "tann"), 2, "NAME: unknown classifier 'tann'",
                   "did you mean tan")


def test_a_full_disk_is_named_in_one_line(tmp_path, monkeypatch):
    # write() on a full disk raises ENOSPC without a file name: the message was "No space
    # left on device" alone (issue 25, class 9). /dev/full is a full disk for every write.
    full = Path("/dev/full")
    assert full.exists(), "the test needs Linux's /dev/full"
    toy = tmp_path / "toy.csv"
    toy.write_text("a,b,class\n1,x,p\n2,y,q\n3,x,p\n4,y,q\n")
    toy = str(toy)
    for args in (["discretize", toy, "-o", str(full)],
                 ["compare", str(_scores_csv(tmp_path)), "-o", str(full)]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 1 and res.stderr == (
            "bayesbench: error: /dev/full: No space left on device\n"), (args, res.stderr)
    # A run whose summary meets a full disk names its result directory.
    import errno  # lazy: this test alone

    import bayesbench.experiment as experiment  # lazy: to make its summary fail

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(experiment, "finalize_run", full_disk)
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({
        "name": "f", "datasets": [toy], "classifiers": ["nb"], "cv": {"folds": 2}}))
    res = CliRunner().invoke(main, ["run", str(tmp_path / "c.yaml"), "-o",
                                    str(tmp_path / "out"), "-j", "1", "-q"])
    assert res.exit_code == 1 and res.stderr == (
        f"bayesbench: error: {tmp_path / 'out'}: No space left on device\n"), res.stderr


def _scores_csv(tmp_path) -> Path:
    path = tmp_path / "scores.csv"
    path.write_text("dataset,a,b\nd1,0.5,0.6\nd2,0.7,0.4\nd3,0.2,0.3\n")
    return path
