"""The result directory: a run killed with SIGKILL, or left with a damaged record, resumes to
the uninterrupted result; another experiment's directory is refused; the lock holds."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from bayesbench.config import load_config
from bayesbench.errors import ConfigChangedError, DataChangedError, ResultStoreError
from bayesbench.evaluation.ownership import MARKER, RUN, claim, owning_run
from bayesbench.evaluation.store import RECORDS, read_records
from bayesbench.experiment import run_experiment
from helpers import n_lines, run, small_config, stable_order, without_timings


@pytest.fixture
def experiment(uci_dir, tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(yaml.safe_dump({
        "name": "resume", "seed": 5, "data_dirs": [str(uci_dir)],
        "datasets": ["house-votes-84", "iris", "glass", "lenses"],
        "preprocess": {"impute": "weighted_random", "noise": {"fraction": 0.2}},
        "cv": {"folds": 10, "repeats": 2},
        "classifiers": ["nb", "tan", "aode", {"name": "fss", "params": {"inner_folds": 2}}]}))
    return path


def _final(run_dir):
    return [without_timings(r) for r in stable_order(read_records(run_dir))]


def _cli(config, out, *extra):
    return [sys.executable, "-m", "bayesbench.cli", "run", str(config), "--output", str(out),
            "--quiet", "--format", "csv", *extra]


@pytest.mark.slow
def test_sigkill_at_several_moments_then_resume(experiment, tmp_path):
    reference = run(load_config(experiment), output=tmp_path / "reference", jobs=1,
                               quiet=True)
    n_tasks = reference.n_tasks
    out = tmp_path / "killed"
    records = out / RECORDS
    kills = 0
    for threshold, jobs in ((1, "1"), (n_tasks // 3, "2"), (2 * n_tasks // 3, "1")):
        # A new session, so the kill takes the worker processes too, as a crash would.
        proc = subprocess.Popen(_cli(experiment, out, "--jobs", jobs), start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while n_lines(records) < threshold and proc.poll() is None:
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.005)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        assert (out / "lock").exists() or proc.returncode == 0
    assert kills >= 2, "the run finished before it could be killed"
    assert len(read_records(out)) < n_tasks
    done = subprocess.run(_cli(experiment, out), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not (out / "lock").exists()
    assert _final(out) == _final(reference.run_dir)
    for table in ("accuracy.csv", "per_class.csv", "comparison.csv"):
        assert (out / "summary" / table).read_text() == (
            reference.run_dir / "summary" / table).read_text()
    sessions = json.loads((out / "environment.json").read_text())["sessions"]
    assert len(sessions) == 4 and sessions[-1]["end"] is not None


@pytest.mark.parametrize("damage", ["truncate_last", "corrupt_middle"])
def test_damaged_record_is_detected_and_redone(experiment, tmp_path, damage):
    cfg = load_config(experiment)
    first = run(cfg, output=tmp_path / "run", jobs=1, quiet=True)
    expected = _final(first.run_dir)
    path = first.run_dir / RECORDS
    lines = path.read_bytes().splitlines(keepends=True)
    if damage == "truncate_last":
        lines[-1] = lines[-1][: len(lines[-1]) // 2]
    else:
        victim = json.loads(lines[7])
        victim["metrics"]["accuracy"] = 0.123  # valid JSON, wrong checksum
        lines[7] = json.dumps(victim).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    assert len(read_records(first.run_dir)) == first.n_tasks - 1
    again = run(cfg, output=tmp_path / "run", jobs=1, quiet=True)
    assert again.n_run == 1
    assert _final(first.run_dir) == expected
    assert n_lines(path) == first.n_tasks  # the damaged line is gone, not kept beside


def test_different_config_is_refused_unless_resume_or_force(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    first = run(cfg, jobs=1, quiet=True)
    changed = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb", "tan"])
    with pytest.raises(ConfigChangedError, match=r"different configuration \(it differs in classifiers\)") as info:
        run(changed, jobs=1, quiet=True)
    # The library names what differs, never the command line's flags (docs/design.md).
    assert "--" not in str(info.value) and info.value.changed == ("classifiers",)
    # The keys that differ are named, down to the one value that changed.
    seeded = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"], seed=4,
                          cv={"folds": 3, "repeats": 2})
    with pytest.raises(ResultStoreError, match=r"\(it differs in seed, cv\.folds\)"):
        run(seeded, jobs=1, quiet=True)
    resumed = run(changed, jobs=1, quiet=True, resume=True)
    assert resumed.run_dir == first.run_dir
    assert (resumed.n_skipped, resumed.n_run) == (first.n_tasks, first.n_tasks)
    forced = run(changed, jobs=1, quiet=True, force=True)
    assert forced.run_dir == tmp_path / "out-2" and forced.n_run == 2 * first.n_tasks
    stored = yaml.safe_load((first.run_dir / "config.yaml").read_text())
    assert [c["label"] for c in stored["classifiers"]] == ["nb", "tan"]


def test_a_second_writer_is_refused_by_the_lock(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    out = claim(tmp_path / "out", RUN)  # as a live run has claimed it
    (out / "lock").write_text(f"{socket.gethostname()} {os.getpid()}\n")  # a live owner
    with pytest.raises(ResultStoreError, match="in use by another run"):
        run(cfg, jobs=1, quiet=True)
    assert not (out / "records.jsonl").exists()


# ------------------------------------------------------------------ results match their inputs

def _lenses_copy(uci_dir, tmp_path):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    shutil.copy(uci_dir / "lenses.arff", data / "lenses.arff")
    shutil.copy(uci_dir / "iris.arff", data / "iris.arff")
    return data


def _change_a_value(path):
    lines = path.read_text().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if line.strip() and not line.startswith("%"))
    first, rest = lines[last].split(",", 1)
    values = {"young", "pre-presbyopic", "presbyopic"} - {first.strip()}
    lines[last] = f"{sorted(values)[0]},{rest}"
    path.write_text("".join(lines))


def test_a_data_file_changed_in_place_is_refused_then_rerun_on_request(uci_dir, tmp_path):
    # Before, the run said "all already done" and kept the accuracies of the old data,
    # although environment.json recorded the new SHA-256.
    data = _lenses_copy(uci_dir, tmp_path)
    cfg = small_config(uci_dir, tmp_path, data_dirs=[str(data)], classifiers=["nb"])
    first = run(cfg, jobs=1, quiet=True)
    _change_a_value(data / "lenses.arff")
    out = first.run_dir
    before = {name: (out / name).read_bytes() for name in ("config.yaml", "environment.json",
                                                           "tasks.txt", RECORDS)}
    with pytest.raises(DataChangedError) as info:
        run(cfg, jobs=1, quiet=True)
    assert info.value.exit_code == 2 and info.value.datasets == ("lenses",)
    assert str(data / "lenses.arff") in str(info.value) and "\n" not in str(info.value)
    assert {name: (out / name).read_bytes() for name in before} == before  # nothing written
    assert not (out / "lock").exists()

    again = run(cfg, jobs=1, quiet=True, rerun_changed=True)
    n_lenses = sum(r["dataset"] == "lenses" for r in first.records)
    assert (again.n_skipped, again.n_run) == (first.n_tasks - n_lenses, n_lenses)
    fresh = run(small_config(uci_dir, tmp_path / "fresh", data_dirs=[str(data)],
                             classifiers=["nb"]), jobs=1, quiet=True)
    assert _final(out) == _final(fresh.run_dir)
    assert run(cfg, jobs=1, quiet=True).n_run == 0  # the new data is what is recorded now


def test_a_changed_data_file_without_finished_tasks_is_no_conflict(uci_dir, tmp_path):
    data = _lenses_copy(uci_dir, tmp_path)
    cfg = small_config(uci_dir, tmp_path, data_dirs=[str(data)], classifiers=["nb"],
                       datasets=["iris"])
    run(cfg, jobs=1, quiet=True)
    _change_a_value(data / "lenses.arff")  # not a data set of this run
    assert run(cfg, jobs=1, quiet=True).n_run == 0


def _comparison_baseline(run_dir):
    # The rows (one value per cell) as a set: the classifiers' listed order may change the
    # row order, never a value, a rank or a mark while the baseline stays.
    rows = set((run_dir / "summary" / "comparison.csv").read_text().splitlines())
    return yaml.safe_load((run_dir / "config.yaml").read_text())["compare"]["baseline"], rows


def test_the_baseline_is_a_property_of_the_directory(uci_dir, tmp_path, capsys):
    # Resuming after listing another classifier first silently changed the baseline.
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses", "iris"], classifiers=["nb", "tan"])
    first = run(cfg, jobs=1, quiet=True)
    stored, table = _comparison_baseline(first.run_dir)
    assert stored == "nb"
    reordered = small_config(uci_dir, tmp_path, datasets=["lenses", "iris"],
                             classifiers=["tan", "nb"])
    capsys.readouterr()
    run(reordered, jobs=1, quiet=True, resume=True)
    assert ("the comparison's baseline stays 'nb', as the directory stored it, although "
            "'tan' is now listed first") in capsys.readouterr().err
    assert _comparison_baseline(first.run_dir) == ("nb", table)
    explicit = small_config(uci_dir, tmp_path, datasets=["lenses", "iris"],
                            classifiers=["tan", "nb"], compare={"baseline": "tan"})
    run(explicit, jobs=1, quiet=True, resume=True)
    assert "the comparison's baseline changes from 'nb' to 'tan'" in capsys.readouterr().err
    assert _comparison_baseline(first.run_dir)[0] == "tan"


def test_owning_run_names_the_files_a_result_directory_owns(finished, tmp_path):
    _, result = finished
    run_dir = result.run_dir.resolve()
    for name in ("records.jsonl", "config.yaml", "environment.json", "tasks.txt", "lock",
                 "records.jsonl.tmp", "summary/accuracy.txt", "summary/new.csv", "report.html",
                 "figures/cd.svg", "notes.txt", "."):
        assert owning_run(run_dir / name) == run_dir, name
    (tmp_path / "link.jsonl").symlink_to(run_dir / "records.jsonl")
    assert owning_run(tmp_path / "link.jsonl") == run_dir
    for other in (tmp_path / "records.jsonl", tmp_path / "summary" / "x", tmp_path):
        assert owning_run(other) is None, other


# ------------------------------------------------- outputs never written over (issue 25, class 2)

def _users_directory(path):
    """A directory of the user's: a report, a task list and a figure bayesbench did not write."""
    (path / "figures").mkdir(parents=True)
    files = {"report.html": "<p>mine</p>", "tasks.txt": "my tasks\n",
             "figures/cd.svg": "<svg>mine</svg>"}
    for name, text in files.items():
        (path / name).write_text(text)
    return files


@pytest.mark.parametrize("how", [{}, {"resume": True}])
def test_a_directory_bayesbench_did_not_make_is_refused_not_written_over(uci_dir, tmp_path, how):
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    out = tmp_path / "out"
    files = _users_directory(out)
    with pytest.raises(ResultStoreError) as info:
        run(cfg, jobs=1, quiet=True, **how)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{out} is not a result directory of "
                                                       "bayesbench's: it holds files")
    assert "choose a new or empty directory" in message
    assert {n: (out / n).read_text() for n in files} == files
    assert sorted(p.name for p in out.iterdir()) == ["figures", "report.html", "tasks.txt"]
    forced = run(cfg, jobs=1, quiet=True, force=True)  # a new directory beside it
    assert forced.run_dir == tmp_path / "out-2" and (forced.run_dir / MARKER).is_file()


def test_a_config_in_the_output_directory_is_never_replaced(uci_dir, tmp_path):
    """`run DIR/config.yaml -o DIR`, then --resume as the refusal used to advise, replaced the
    user's config and lost its comments."""
    out = tmp_path / "exp"
    out.mkdir()
    config = out / "config.yaml"
    config.write_text("# my comments\n" + yaml.safe_dump({
        "name": "t", "seed": 3, "data_dirs": [str(uci_dir)], "datasets": ["lenses"],
        "cv": {"folds": 3}, "classifiers": ["nb"]}))
    before = config.read_text()
    for how in ({}, {"resume": True}):
        with pytest.raises(ResultStoreError, match=r"it holds files bayesbench did not write "
                                                   r"\(config\.yaml\)"):
            run(load_config(config), output=out, jobs=1, quiet=True, **how)
        assert config.read_text() == before


def test_an_empty_directory_is_claimed_and_marked(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    (tmp_path / "out").mkdir()
    first = run(cfg, jobs=1, quiet=True)
    assert json.loads((first.run_dir / MARKER).read_text())["kind"] == RUN
    assert run(cfg, jobs=1, quiet=True).n_run == 0  # its own directory: continued


# ------------------------------------------------------ resume without integrity (class 4)

@pytest.mark.parametrize("damage, words", [
    ("delete", "environment.json is missing"),
    ("truncate", "environment.json is damaged"),
    ("no checksums", "environment.json records no SHA-256 of its data"),
])
def test_resume_refuses_when_the_data_cannot_be_verified(uci_dir, tmp_path, damage, words):
    data = _lenses_copy(uci_dir, tmp_path)
    cfg = small_config(uci_dir, tmp_path, data_dirs=[str(data)], classifiers=["nb"],
                       datasets=["lenses"])
    first = run(cfg, jobs=1, quiet=True)
    env = first.run_dir / "environment.json"
    if damage == "delete":
        env.unlink()
    elif damage == "truncate":
        env.write_text(env.read_text()[:40])
    else:
        record = json.loads(env.read_text())
        for session in record["sessions"]:
            session.pop("data_sha256")
        env.write_text(json.dumps(record))
    _change_a_value(data / "lenses.arff")  # which nothing can tell any more
    before = (first.run_dir / RECORDS).read_bytes()
    with pytest.raises(DataChangedError) as info:
        run(cfg, jobs=1, quiet=True, resume=True)
    message = str(info.value)
    assert words in message and str(first.run_dir) in message and "\n" not in message
    assert "'lenses' (" in message and info.value.datasets == ("lenses",)
    assert (first.run_dir / RECORDS).read_bytes() == before
    again = run(cfg, jobs=1, quiet=True, rerun_changed=True)
    assert (again.n_skipped, again.n_run) == (0, first.n_tasks)
    fresh = run(small_config(uci_dir, tmp_path / "fresh", data_dirs=[str(data)],
                             classifiers=["nb"], datasets=["lenses"]), jobs=1, quiet=True)
    assert _final(first.run_dir) == _final(fresh.run_dir)


def test_a_deleted_config_does_not_hide_a_changed_data_file(uci_dir, tmp_path):
    data = _lenses_copy(uci_dir, tmp_path)
    cfg = small_config(uci_dir, tmp_path, data_dirs=[str(data)], classifiers=["nb"],
                       datasets=["lenses"])
    first = run(cfg, jobs=1, quiet=True)
    (first.run_dir / "config.yaml").unlink()
    _change_a_value(data / "lenses.arff")
    with pytest.raises(DataChangedError, match="data file\\(s\\) changed since their tasks"):
        run(cfg, jobs=1, quiet=True, resume=True)


@given(st.lists(st.text("ab_/ ()=.", min_size=1, max_size=5), min_size=2, max_size=8,
                unique=True))
def test_saved_networks_of_different_names_never_share_a_directory(names):
    # networks/<data set>/<classifier>/: nb(a/b) and nb(a_b) were one directory, the last
    # fold written replacing the other's network (issue 25, class 7).
    from bayesbench.evaluation.rundir import _slug  # lazy: the rule alone, no run
    slugs = [_slug(n) for n in names]
    assert len(set(slugs)) == len(names)
    assert all(s not in (".", "..") and "/" not in s for s in slugs)
    assert slugs == [_slug(n) for n in names]                  # the same name, the same place
    assert _slug("kdb(k=2)") == "kdb(k=2)"                     # readable names stay as they are


# ------------------------------------- ownership rests on bayesbench's marker (issue 34, class 4)

@pytest.mark.parametrize("files", [
    {"environment.json": "{}"},                                   # the example
    {"environment.json": "{}", "records.jsonl": '{"a": 1}\n', "tasks.txt": "0123456789abcdef\n"},
    {"records.jsonl": '{"checksum": "0000000000000000", "task_id": "x"}\n',
     "tasks.txt": "0123456789abcdef\n", "config.yaml": "name: mine\n"},
    {".bayesbench": '{"kind": "result directory"}\n', "config.yaml": "name: mine\n"},
])
def test_bayesbench_file_names_alone_do_not_make_a_directory_ours(uci_dir, tmp_path, files):
    # `run -o DIR` wrote into a directory that merely held an environment.json of {} (or
    # records.jsonl), over the user's files; a marker not made by bayesbench is no marker.
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    out = tmp_path / "out"
    out.mkdir()
    files = {**files, "report.html": "<p>mine</p>"}
    for name, text in files.items():
        (out / name).write_text(text)
    for how in ({}, {"resume": True}):
        with pytest.raises(ResultStoreError, match="it holds files bayesbench did not write"):
            run(cfg, jobs=1, quiet=True, **how)
    assert {p.name: p.read_text() for p in out.iterdir()} == files


@given(st.dictionaries(st.sampled_from(["environment.json", "records.jsonl", "tasks.txt",
                                        "config.yaml", "report.html", "comparison.csv",
                                        "lock", MARKER]),
                       st.text(max_size=80), min_size=1))
def test_no_directory_of_the_users_is_taken_for_bayesbench_s(files):
    # Whatever the names and texts of a user's files, only bayesbench's signature (a marker
    # it wrote, or a first record whose checksum holds beside a task list) claims a directory.
    import tempfile

    from bayesbench.evaluation.ownership import ARMS, COMPARE_REPORT, refusal

    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            (Path(tmp) / name).write_text(text)
        for kind in (RUN, ARMS, COMPARE_REPORT):
            assert refusal(tmp, kind) is not None


def test_a_result_directory_from_before_the_marker_resumes_and_is_marked(finished, tmp_path):
    cfg, result = finished
    old = Path(shutil.copytree(result.run_dir, tmp_path / "old"))
    (old / MARKER).unlink()  # as every directory written before the marker existed
    before = (old / RECORDS).read_bytes()
    again = run(cfg, output=str(old), jobs=1, quiet=True)
    assert (again.n_skipped, again.n_run) == (result.n_tasks, 0)
    assert (old / RECORDS).read_bytes() == before
    assert json.loads((old / MARKER).read_text())["kind"] == RUN
    # Its signature is its records' checksum: the same directory with a first record
    # changed by one value, or without its task list, is not bayesbench's.
    for damage in ("record", "tasks"):
        copy = Path(shutil.copytree(old, tmp_path / damage))
        (copy / MARKER).unlink()
        if damage == "record":
            lines = (copy / RECORDS).read_bytes().splitlines(keepends=True)
            first = json.loads(lines[0])
            first["fold"] += 1
            (copy / RECORDS).write_bytes(json.dumps(first).encode() + b"\n" + b"".join(lines[1:]))
        else:
            (copy / "tasks.txt").unlink()
        with pytest.raises(ResultStoreError, match="it holds files bayesbench did not write"):
            run(cfg, output=str(copy), jobs=1, quiet=True)


def test_the_directory_of_arms_is_claimed_before_any_arm_runs(uci_dir, tmp_path):
    # The comparison of the arms went into -o DIR over the user's comparison.csv.
    arms = [{"name": "a"}, {"name": "b", "preprocess": {"discretize": "fd"}}]
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"], arms=arms,
                       format=["csv"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "comparison.csv").write_text("mine\n")
    with pytest.raises(ResultStoreError, match=r"out is not a directory of arms of "
                                               r"bayesbench's: it holds files bayesbench did "
                                               r"not write \(comparison.csv\)"):
        run_experiment(cfg.experiment, replace(cfg.options, jobs=1, quiet=True))
    assert [p.name for p in out.iterdir()] == ["comparison.csv"]  # no arm was run
    (out / "comparison.csv").unlink()
    made = run_experiment(cfg.experiment, replace(cfg.options, jobs=1, quiet=True))
    assert json.loads((out / MARKER).read_text())["kind"] == "directory of arms"
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "a", "b", "comparison.csv",
                                                     "comparison_pvalues.csv"]
    # A directory of arms from before its marker: its arms beside their comparison.
    (out / MARKER).unlink()
    again = run_experiment(cfg.experiment, replace(cfg.options, jobs=1, quiet=True))
    assert [r.n_run for r in again] == [0, 0] and [r.n_tasks for r in made] == [8, 8]
    # A result directory is not a directory of arms, nor the other way round.
    plain = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    with pytest.raises(ResultStoreError, match="it is a directory of arms"):
        run(plain, jobs=1, quiet=True)


def test_quiet_keeps_what_the_user_must_know(uci_dir, tmp_path):
    # -q hides progress and tables, as pip's -q, never a warning (issue 34, class 9).
    from click.testing import CliRunner

    from bayesbench.cli import main

    config = tmp_path / "q.yaml"
    config.write_text(yaml.safe_dump({"name": "q", "data_dirs": [str(uci_dir)],
                                      "datasets": ["lenses"], "cv": {"folds": 2},
                                      "classifiers": ["nb"]}))
    args = ["run", str(config), "-o", str(tmp_path / "out"), "-j", "1", "-q", "--format", "csv"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0 and first.stdout == "" and first.stderr == ""
    records = tmp_path / "out" / RECORDS
    records.write_bytes(records.read_bytes()[:-5])  # the last record cut short
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and again.stdout == ""
    assert again.stderr.splitlines() == [f"{tmp_path / 'out'}: 1 damaged record(s) dropped; "
                                         f"their tasks run again"]
