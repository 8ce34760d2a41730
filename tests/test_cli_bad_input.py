"""Bad input on the command line: one line on standard error naming the file, a non-zero exit,
never a traceback, and nothing written."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import load_config


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
    assert load_config(path).classifiers[0].params == {"alpha": 2}


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
    one_line_error(res, 1, f"-o {target}", "does not exist")
    assert res.stdout == "" and not target.parent.exists()
    scores = tmp_path / "scores.csv"
    scores.write_text("dataset,A,B\nd1,0.5,0.6\nd2,0.6,0.7\nd3,0.7,0.9\n")
    res = invoke("compare", scores, "-o", tmp_path / "nowhere" / "cmp.txt")
    one_line_error(res, 1, "-o", "does not exist")
    res = invoke("compare", scores, "--plot", tmp_path / "nowhere" / "cd.png")
    one_line_error(res, 1, "--plot", "does not exist")
    assert res.stdout == ""
    res = invoke("compare", scores, "--plot", tmp_path / "cd.jpg")
    one_line_error(res, 1, "--plot", ".png, .svg, .pdf")
    assert res.stdout == ""  # refused before the tables were printed


def test_an_os_error_while_running_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers: [nb]\n")
    res = invoke("run", config, "-o", blocker / "out", "-q", "--jobs", "1")
    one_line_error(res, 1, str(blocker / "out"), "Not a directory")


def test_an_interrupted_run_says_how_to_resume(tmp_path, monkeypatch):
    import bayesbench.evaluation.runner as runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_config", interrupted)
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
    one_line_error(invoke("run", folder), 2, str(folder), "Is a directory")
    one_line_error(invoke("discretize", folder), 1, str(folder), "is a directory")
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: x\ndatasets: [{folder}]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", config), 2, f"datasets[0]: {folder} is a directory")
    one_line_error(invoke("compare", tmp_path / "missing"), 1, "missing: no such file or directory")


def test_an_output_of_the_wrong_kind_is_one_line(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\n")
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    one_line_error(invoke("run", config, "-o", a_file), 2, f"--output: {a_file} is a file")
    one_line_error(invoke("discretize", "iris", "-o", tmp_path), 1, f"-o {tmp_path}: is a directory")
    scores = tmp_path / "scores.csv"
    scores.write_text("dataset,A,B\nd1,0.5,0.6\nd2,0.6,0.7\n")
    one_line_error(invoke("compare", scores, "-o", tmp_path), 1, "is a directory")


def test_resume_and_force_together_are_a_command_line_error(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", config, "--resume", "--force", "-o", tmp_path / "out"), 2,
                   "--resume and --force exclude each other")
    assert not (tmp_path / "out").exists()


def test_a_malformed_scheduler_address_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: x\noutput: {tmp_path / 'out'}\ndatasets: [iris]\ncv: {{folds: 2}}\n"
                      "classifiers: [nb]\n")
    one_line_error(invoke("run", config, "-q", "--scheduler", "scheduler-without-port"), 1,
                   "--scheduler scheduler-without-port: not a scheduler address",
                   "tcp://scheduler-host:8786")


def test_a_directory_named_like_a_bundled_data_set_does_not_hide_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "iris").mkdir()
    res = invoke("discretize", "iris", "--format", "json")
    assert res.exit_code == 0, res.output
    assert list(json.loads(res.stdout)) == ["sepallength", "sepalwidth", "petallength", "petalwidth"]
