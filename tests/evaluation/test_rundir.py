"""The result directory: a run killed with SIGKILL, or left with a damaged record, resumes to
the uninterrupted result; another experiment's directory is refused; the lock holds."""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
import yaml

from bayesbench.config import load_config
from bayesbench.errors import ResultStoreError
from bayesbench.evaluation.store import RECORDS, read_records
from helpers import run, small_config, stable_order, without_timings


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


def _n_lines(path):
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _cli(config, out, *extra):
    return [sys.executable, "-m", "bayesbench.cli", "run", str(config), "--output", str(out),
            "--quiet", "--format", "csv", *extra]


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
        while _n_lines(records) < threshold and proc.poll() is None:
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
    assert _n_lines(path) == first.n_tasks  # the damaged line is gone, not kept beside


def test_different_config_is_refused_unless_resume_or_force(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb"])
    first = run(cfg, jobs=1, quiet=True)
    changed = small_config(uci_dir, tmp_path, datasets=["lenses"], classifiers=["nb", "tan"])
    with pytest.raises(ResultStoreError, match=r"different configuration \(it differs in classifiers\)"):
        run(changed, jobs=1, quiet=True)
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
    out = tmp_path / "out"
    out.mkdir()
    (out / "lock").write_text(f"{socket.gethostname()} {os.getpid()}\n")  # a live owner
    with pytest.raises(ResultStoreError, match="in use by another run"):
        run(cfg, jobs=1, quiet=True)
    assert not (out / "records.jsonl").exists()
