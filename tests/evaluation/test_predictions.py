"""Kept predictions (``predictions: true``): one file per task, exactly for the tasks with
records (also after SIGKILL and resume), every row of the data file once per repetition,
and their scores equal to scikit-learn's and to the records' confusion matrices."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import arff
import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, mean_squared_error, roc_auc_score

import bayesbench
from bayesbench.config import load_config
from bayesbench.errors import ConfigError
from bayesbench.evaluation import predictions
from bayesbench.evaluation.store import RECORDS, read_records
from helpers import n_lines, run, small_config


def _task_files(run_dir):
    directory = run_dir / predictions.DIRECTORY
    return {p.name.partition(".")[0] for p in directory.iterdir()} if directory.is_dir() else set()


def _ok_tasks(run_dir):
    return {r["task_id"] for r in read_records(run_dir) if r["status"] == "ok"}


def _sorted(frame):
    return frame.sort_values(["dataset", "classifier", "repetition", "fold", "row"]
                             ).reset_index(drop=True)


@pytest.fixture
def kept_config(uci_dir, tmp_path):
    return small_config(uci_dir, tmp_path, predictions=True,
                        metrics=["accuracy", "rmse", "auc_ovr"])


def test_predictions_cover_every_row_once_per_repetition_with_the_file_classes(
        kept_config, uci_dir):
    result = run(kept_config, jobs=1, quiet=True)
    frame = bayesbench.load_predictions(result.run_dir)
    assert list(frame.columns[:7]) == predictions.COLUMNS
    # gnb fails on lenses (no numeric attribute): a failed task keeps no predictions.
    assert _task_files(result.run_dir) == _ok_tasks(result.run_dir)
    assert len(_ok_tasks(result.run_dir)) < len(read_records(result.run_dir))
    # Independent reference: liac-arff's reading of the file, row by row in file order.
    with open(uci_dir / "iris.arff") as fh:
        truth = [row[-1] for row in arff.load(fh)["data"]]
    iris = frame[frame.dataset == "iris"]
    for (_, _), part in iris.groupby(["classifier", "repetition"]):
        assert sorted(part["row"]) == list(range(len(truth)))
        assert list(part["true"]) == [truth[i] for i in part["row"]]
    probabilities = iris[[f"p_{c}" for c in sorted(set(truth))]].to_numpy()
    assert np.allclose(probabilities.sum(axis=1), 1.0)
    assert (iris["predicted"].to_numpy() ==
            np.asarray(sorted(set(truth)))[probabilities.argmax(axis=1)]).mean() > 0.99


def test_scores_of_the_predictions_equal_scikit_learn_and_the_records(kept_config):
    result = run(kept_config, jobs=1, quiet=True)
    frame = bayesbench.load_predictions(result.run_dir)
    for record in read_records(result.run_dir):
        if record["status"] != "ok":
            continue
        rows = frame[(frame.dataset == record["dataset"]) & (frame.classifier == record["classifier"])
                     & (frame.repetition == record["repetition"]) & (frame.fold == record["fold"])]
        classes = record["classes"]
        proba = rows[[f"p_{c}" for c in classes]].to_numpy()
        y = rows["true"].map({c: k for k, c in enumerate(classes)}).to_numpy()
        assert confusion_matrix(rows["true"], rows["predicted"], labels=classes).tolist() == \
            record["confusion"]
        present = np.unique(y)
        if present.size == len(classes):  # scikit-learn's ovr AUC needs every class in y
            auc = roc_auc_score(y, proba, multi_class="ovr", labels=list(range(len(classes))))
            assert record["metrics"]["auc_ovr"] == pytest.approx(auc, abs=1e-12)
        onehot = np.eye(len(classes))[y]
        assert record["metrics"]["rmse"] == pytest.approx(
            np.sqrt(mean_squared_error(onehot, proba)), abs=1e-12)
    # Pooled over a repetition: accuracy from the predictions is that of the summed matrices.
    for (dataset, classifier, rep), part in frame.groupby(["dataset", "classifier", "repetition"]):
        summed = sum(np.asarray(r["confusion"]) for r in read_records(result.run_dir)
                     if (r["dataset"], r["classifier"], r["repetition"]) == (dataset, classifier, rep))
        assert (part["true"] == part["predicted"]).mean() == pytest.approx(
            np.trace(summed) / summed.sum(), abs=1e-15)


def test_records_hold_rmse_only_when_named(uci_dir, tmp_path):
    plain = run(small_config(uci_dir, tmp_path / "a", classifiers=["nb"]), jobs=1, quiet=True)
    assert all("rmse" not in r["metrics"] for r in read_records(plain.run_dir))
    assert not (plain.run_dir / predictions.DIRECTORY).exists()
    asked = run(small_config(uci_dir, tmp_path / "b", classifiers=["nb"], metrics=["rmse"]),
                jobs=1, quiet=True)
    assert all(r["metrics"]["rmse"] > 0 for r in read_records(asked.run_dir))


def test_without_pyarrow_the_npz_files_load_the_same(kept_config, uci_dir, tmp_path,
                                                     monkeypatch):
    parquet = run(kept_config, jobs=1, quiet=True)
    monkeypatch.setattr(predictions, "parquet_available", lambda: False)
    npz = run(kept_config, output=str(tmp_path / "npz"), jobs=1, quiet=True)
    assert {p.suffix for p in (npz.run_dir / predictions.DIRECTORY).iterdir()} == {".npz"}
    pd.testing.assert_frame_equal(_sorted(bayesbench.load_predictions(parquet.run_dir)),
                                  _sorted(bayesbench.load_predictions(npz.run_dir)))


def test_orphans_are_deleted_and_records_without_predictions_run_again(kept_config):
    first = run(kept_config, jobs=1, quiet=True)
    reference = _sorted(bayesbench.load_predictions(first.run_dir))
    directory = first.run_dir / predictions.DIRECTORY
    victim = sorted(_ok_tasks(first.run_dir))[0]
    next(directory.glob(f"{victim}.*")).unlink()  # a record without its predictions
    (directory / "0123456789abcdef.parquet").write_bytes(b"orphan")  # predictions, no record
    (directory / "feedfacefeedface.parquet.tmp").write_bytes(b"half")
    again = run(kept_config, jobs=1, quiet=True)
    assert again.n_run == 1
    assert _task_files(first.run_dir) == _ok_tasks(first.run_dir)
    pd.testing.assert_frame_equal(_sorted(bayesbench.load_predictions(first.run_dir)), reference)


def test_a_file_that_lost_its_bytes_in_a_crash_runs_its_task_again(kept_config):
    # Files are not fsync-ed: a machine crash may leave one renamed but zeroed or cut short.
    # Its record names the file's SHA-256, so the next session finds it out.
    first = run(kept_config, jobs=1, quiet=True)
    reference = _sorted(bayesbench.load_predictions(first.run_dir))
    directory = first.run_dir / predictions.DIRECTORY
    zeroed, cut = sorted(_ok_tasks(first.run_dir))[:2]
    path = next(directory.glob(f"{zeroed}.*"))
    path.write_bytes(bytes(path.stat().st_size))
    path = next(directory.glob(f"{cut}.*"))
    path.write_bytes(path.read_bytes()[:-10])
    again = run(kept_config, jobs=1, quiet=True)
    assert again.n_run == 2
    assert {r["task_id"] for r in again.records[-2:]} == {zeroed, cut}
    pd.testing.assert_frame_equal(_sorted(bayesbench.load_predictions(first.run_dir)), reference)


def test_turning_predictions_on_reruns_finished_tasks(uci_dir, tmp_path):
    plain = small_config(uci_dir, tmp_path, classifiers=["nb"])
    first = run(plain, jobs=1, quiet=True)
    kept = small_config(uci_dir, tmp_path, classifiers=["nb"], predictions=True)
    again = run(kept, jobs=1, quiet=True)
    assert again.n_run == first.n_tasks
    assert _task_files(again.run_dir) == _ok_tasks(again.run_dir)
    assert len(read_records(again.run_dir)) == first.n_tasks


def test_too_many_predictions_are_refused_before_anything_is_written(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, predictions=True, max_predictions_bytes=1000)
    with pytest.raises(ConfigError, match=r"predictions: the run would keep [0-9,]+ predictions, "
                                          r"[0-9,]+ bytes before compression, over the limit "
                                          r"of 1,000 bytes \(max_predictions_bytes\)"):
        from bayesbench.config import key_paths
        with key_paths(cfg.source):
            run(cfg, jobs=1, quiet=True)
    assert not (tmp_path / "out").exists()


def test_unmatchable_rows_are_a_config_error(uci_dir, tmp_path):
    with pytest.raises(ConfigError, match="predictions: impute: drop removes test rows"):
        small_config(uci_dir, tmp_path, predictions=True, preprocess={"impute": "drop"})
    with pytest.raises(ConfigError, match="predictions: expected true or false"):
        small_config(uci_dir, tmp_path, predictions="yes")


@pytest.mark.slow
def test_sigkill_then_resume_keeps_predictions_exactly_for_the_records(uci_dir, tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(yaml.safe_dump({
        "name": "killed", "seed": 5, "data_dirs": [str(uci_dir)], "predictions": True,
        "datasets": ["house-votes-84", "iris", "glass"], "cv": {"folds": 10, "repeats": 2},
        "classifiers": ["nb", "tan", "aode"]}))
    reference = run(load_config(path), output=tmp_path / "reference", jobs=1, quiet=True)
    out, kills = tmp_path / "killed", 0
    cli = [sys.executable, "-m", "bayesbench.cli", "run", str(path), "--output", str(out),
           "--quiet", "--format", "csv"]
    for threshold, jobs in ((1, "1"), (reference.n_tasks // 3, "2"),
                            (2 * reference.n_tasks // 3, "1")):
        proc = subprocess.Popen([*cli, "--jobs", jobs], start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while n_lines(out / RECORDS) < threshold and proc.poll() is None:
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.002)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        # Killed: every record has its predictions (a file may lack its record until resumed).
        assert _ok_tasks(out) <= _task_files(out)
    assert kills >= 2, "the run finished before it could be killed"
    done = subprocess.run(cli, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _task_files(out) == _ok_tasks(out) == _ok_tasks(reference.run_dir)
    pd.testing.assert_frame_equal(_sorted(bayesbench.load_predictions(out)),
                                  _sorted(bayesbench.load_predictions(reference.run_dir)))


# ------------------------------------- files read as their records promise them (issue 34, class 2)

@pytest.fixture(scope="module")
def kept_run(uci_dir, tmp_path_factory):
    """A finished run that kept its predictions (iris only: every task has a file)."""
    tmp = tmp_path_factory.mktemp("kept")
    cfg = small_config(uci_dir, tmp, predictions=True, datasets=["iris"], classifiers=["nb", "gnb"],
                       cv={"folds": 3, "repeats": 1})
    return run(cfg, jobs=1, quiet=True).run_dir


def _copy(run_dir, tmp_path):
    import shutil

    return Path(shutil.copytree(run_dir, tmp_path / "copy"))


def _files(run_dir):
    return sorted((run_dir / predictions.DIRECTORY).iterdir())


def _refused(run_dir):
    with pytest.raises(bayesbench.BayesbenchError) as info:
        bayesbench.load_predictions(run_dir)
    message = str(info.value)
    assert "\n" not in message and str(run_dir / predictions.DIRECTORY) in message
    return message


@pytest.mark.timeout(60)
def test_swapped_deleted_and_truncated_files_are_refused_naming_the_file(kept_run, tmp_path):
    # Each gave 300 rows, 250 rows and pyarrow's ArrowInvalid (issue 34, class 2).
    assert len(bayesbench.load_predictions(kept_run)) == 300
    copy = _copy(kept_run, tmp_path)
    a, b = _files(copy)[:2]
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    message = _refused(copy)
    # (either file is named: the first in the records' order, which -j 2 leaves open)
    assert any(f"{x}: not the predictions the record of iris / " in message for x in (a, b))
    assert "recorded" in message and "found" in message
    a.write_bytes(data_a)
    b.unlink()
    message = _refused(copy)
    assert f"no file {b.name.partition('.')[0]}.parquet or .npz" in message
    b.write_bytes(data_b[:100])
    assert "cut short" in _refused(copy)
    b.unlink()
    os.mkfifo(b)  # was read without end: a FIFO is no file
    assert f"no file {b.name.partition('.')[0]}.parquet or .npz" in _refused(copy)
    b.unlink()
    b.write_bytes(data_b)
    assert len(bayesbench.load_predictions(copy)) == 300


def test_a_damaged_file_of_a_record_without_checksum_is_one_error(kept_run, tmp_path):
    # Records written before they named their file's SHA-256 trust the file: a damaged one is
    # still one line naming it, not pyarrow's exception, and one of other rows is refused.
    from bayesbench.evaluation.store import _rewrite

    copy = _copy(kept_run, tmp_path)
    _rewrite(copy, [{k: v for k, v in r.items() if k != predictions.DIGEST}
                    for r in read_records(copy)])
    assert len(bayesbench.load_predictions(copy)) == 300  # intact: read as before
    first, second = _files(copy)[:2]
    data = first.read_bytes()
    first.write_bytes(data[: len(data) // 2])
    assert "not a readable predictions file (ArrowInvalid" in _refused(copy)
    first.write_bytes(data)
    records = read_records(copy)
    fewer = next(r for r in records if r["n_test"] != 50 or r["fold"] == 0)
    _rewrite(copy, [{**r, "n_test": 49} if r is fewer else r for r in records])
    assert "its record 49 test rows" in _refused(copy)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 5), at=st.floats(0, 1, exclude_max=True),
       change=st.one_of(st.integers(1, 255), st.none()))
def test_any_change_to_a_file_is_refused_never_read(kept_run, which, at, change):
    # A byte changed anywhere (a new value XOR-ed in), or the file cut there: never read as
    # if it were the task's predictions, never another exception than the one-line error.
    path = _files(kept_run)[which]
    data = path.read_bytes()
    cut = int(at * len(data))
    damaged = data[:cut] if change is None else (
        data[:cut] + bytes([data[cut] ^ change]) + data[cut + 1:])
    try:
        path.write_bytes(damaged)
        assert "changed, cut short or swapped" in _refused(kept_run)
    finally:
        path.write_bytes(data)
