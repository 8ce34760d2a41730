"""The record store: checksummed lines, damaged lines detected, the lock."""
import errno
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from bayesbench.errors import ResultStoreError
from bayesbench.evaluation.store import (
    RECORDS, RecordWriter, RunLock, drop_records, read_records, records_frame, repair, scan)


def _record(i, status="ok"):
    r = {"dataset": "iris", "repetition": 0, "fold": i, "classifier": "nb", "status": status,
         "task_id": f"t{i}", "fit_seconds": 0.5}
    if status == "ok":
        r["metrics"] = {"accuracy": 0.9 + i / 100, "auc_ovr": float("nan")}
    else:
        r["error"] = "boom"
    return r


def _write(tmp_path, n):
    with RecordWriter(tmp_path) as w:
        for i in range(n):
            w.append(_record(i))


def test_round_trip_and_nan_as_null(tmp_path):
    _write(tmp_path, 3)
    records = read_records(tmp_path)
    assert [r["fold"] for r in records] == [0, 1, 2]
    assert records[1]["metrics"] == {"accuracy": 0.91, "auc_ovr": None}
    lines = (tmp_path / RECORDS).read_bytes().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["checksum"] for line in lines)


def test_truncated_last_line_is_dropped_and_repaired(tmp_path):
    _write(tmp_path, 3)
    path = tmp_path / RECORDS
    data = path.read_bytes()
    path.write_bytes(data[:-20])  # a write cut short by a kill
    records, damaged = scan(tmp_path)
    assert [r["fold"] for r in records] == [0, 1] and damaged == 1
    assert repair(tmp_path) == 1
    assert scan(tmp_path) == (records, 0)
    # Appending after the repair gives whole lines again.
    with RecordWriter(tmp_path) as w:
        w.append(_record(2))
    assert [r["fold"] for r in read_records(tmp_path)] == [0, 1, 2]


def test_line_cut_exactly_at_a_closing_brace_is_detected(tmp_path):
    # JSON that parses but lacks its newline: the write did not finish.
    _write(tmp_path, 2)
    path = tmp_path / RECORDS
    path.write_bytes(path.read_bytes()[:-1])
    assert [r["fold"] for r in read_records(tmp_path)] == [0]


def test_corrupted_line_is_detected_by_its_checksum(tmp_path):
    _write(tmp_path, 3)
    path = tmp_path / RECORDS
    lines = path.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b'"accuracy":0.91', b'"accuracy":0.99')  # still valid JSON
    path.write_bytes(b"".join(lines))
    records, damaged = scan(tmp_path)
    assert [r["fold"] for r in records] == [0, 2] and damaged == 1


def test_records_frame_flattens_metrics_and_skips_errors(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    _write(a, 2)
    with RecordWriter(b) as w:
        w.append(_record(0))
        w.append(_record(1, status="error"))
    frame = records_frame([a, b])
    assert len(frame) == 3
    assert sorted(frame["run"]) == ["a", "a", "b"]
    assert frame["accuracy"].tolist() == [0.9, 0.91, 0.9]
    assert frame["auc_ovr"].isna().all()


def test_records_carry_the_schema_version_and_read_back_unchanged(tmp_path):
    from bayesbench.evaluation.store import SCHEMA_VERSION, encode_record
    _write(tmp_path, 2)
    records = read_records(tmp_path)
    assert [r["schema_version"] for r in records] == [SCHEMA_VERSION] * 2
    # A line written by another JSON library (spaces, other key order) is still checked,
    # the slow way: a good one is read, a tampered one is dropped.
    good = json.loads(encode_record({**_record(5), "schema_version": 1}))
    bad = dict(good, fold=6)
    with open(tmp_path / RECORDS, "a") as fh:
        fh.write(json.dumps(good, indent=None) + "\n" + json.dumps(bad) + "\n")
    records, damaged = scan(tmp_path)
    assert [r["fold"] for r in records] == [0, 1, 5] and damaged == 1
    assert encode_record(records[0]) == (tmp_path / RECORDS).read_bytes().splitlines(True)[0]


def test_records_frame_has_parameters_and_a_long_form(tmp_path):
    import bayesbench
    with RecordWriter(tmp_path) as w:
        for i, (label, params) in enumerate([("kdb(k=1)", {"k": 1}), ("kdb(k=2)", {"k": 2}),
                                             ("nb", {})]):
            r = _record(i)
            r.update(classifier=label, learner=label[:3], params=params, classes=["a", "b"],
                     per_class={"f1": [0.25, 0.75]})
            w.append(r)
        w.append(_record(3, status="error"))
    frame = bayesbench.load_results(tmp_path)
    assert list(frame.columns[:5]) == ["run", "dataset", "classifier", "learner", "param_k"]
    assert frame["param_k"].tolist()[:2] == [1, 2] and np.isnan(frame["param_k"][2])
    assert frame["f1[b]"].tolist() == [0.75] * 3
    long = records_frame(tmp_path, long=True)
    assert list(long.columns[-2:]) == ["metric", "value"] and len(long) == 3 * 2
    assert long.pivot_table(index="classifier", columns="metric", values="value")[
        "accuracy"].tolist() == [0.9, 0.91, 0.92]
    some = records_frame(tmp_path, long=True, failed=True, metrics=["accuracy", "f1[a]", "f1[z]"])
    assert sorted(set(some["metric"])) == ["accuracy", "f1[a]"]  # no record has a class z
    assert some[some["status"] == "error"]["value"].isna().all()
    wide = records_frame(tmp_path, metrics=["f1[a]"])
    assert [c for c in wide.columns if "[" in c or c in ("accuracy", "auc_ovr")] == ["f1[a]"]


def test_records_frame_rejects_a_directory_without_records(tmp_path):
    with pytest.raises(ResultStoreError, match="not a result directory"):
        records_frame(tmp_path)


def test_lock_refuses_a_second_writer(tmp_path):
    with RunLock(tmp_path):
        with pytest.raises(ResultStoreError, match="in use by another run"):
            RunLock(tmp_path).acquire()
    with RunLock(tmp_path):  # released: can be taken again
        assert (tmp_path / "lock").read_text().split()[1] == str(os.getpid())
    assert not (tmp_path / "lock").exists()


def test_stale_lock_of_a_dead_process_is_taken_over(tmp_path):
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    import socket
    (tmp_path / "lock").write_text(f"{socket.gethostname()} {child.stdout.strip()}\n")
    with RunLock(tmp_path):
        assert (tmp_path / "lock").read_text().split()[1] == str(os.getpid())


def _records_fd(fd) -> bool:
    try:
        return os.readlink(f"/proc/self/fd/{fd}").endswith(RECORDS)
    except OSError:
        return False


def test_a_full_disk_is_reported_as_such_not_as_a_short_write(tmp_path, monkeypatch):
    real_write = os.write

    def full(fd, data):
        if _records_fd(fd):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    with RecordWriter(tmp_path) as writer, pytest.raises(ResultStoreError) as info:
        writer.append(_record(0))
    assert str(info.value) == f"{tmp_path / RECORDS}: no space left on device"


def test_a_write_that_takes_part_of_a_line_is_continued(tmp_path, monkeypatch):
    # A nearly full disk (or a signal) lets write() take part of the data; the rest used to
    # be reported as a "short write" and the record lost.
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(
        fd, bytes(data)[:7] if _records_fd(fd) else data))
    with RecordWriter(tmp_path) as writer:
        stored = [writer.append(_record(i)) for i in range(3)]
    assert read_records(tmp_path) == stored and len(stored) == 3


def test_drop_records_removes_exactly_the_records_asked(tmp_path):
    _write(tmp_path, 5)
    assert drop_records(tmp_path, lambda r: r["fold"] % 2 == 1) == 2
    assert [r["fold"] for r in read_records(tmp_path)] == [0, 2, 4]
    assert drop_records(tmp_path, lambda r: False) == 0


def test_a_records_file_that_is_not_a_regular_file_is_refused(tmp_path):
    os.mkfifo(tmp_path / RECORDS)  # reading would wait for a writer forever
    with pytest.raises(ResultStoreError, match="not a regular file"):
        read_records(tmp_path)


def test_a_frame_follows_the_task_list_not_the_order_records_were_written(tmp_path):
    # Workers finish in any order; a mean over the frame's rows must be one sum in one order.
    # Values whose float sum depends on the order: 0.1 + 0.2 + 0.3 != 0.3 + 0.2 + 0.1.
    values = [0.1, 0.2, 0.3, 1e16, -1e16]
    serial, shuffled = tmp_path / "serial", tmp_path / "shuffled"
    for run_dir, order in ((serial, range(5)), (shuffled, [3, 0, 4, 2, 1])):
        run_dir.mkdir()
        (run_dir / "tasks.txt").write_text("\n".join(f"t{i}" for i in range(5)) + "\n")
        with RecordWriter(run_dir) as w:
            for i in order:
                w.append({**_record(i), "metrics": {"accuracy": values[i]}})
    a, b = records_frame(serial), records_frame(shuffled)
    assert list(b.task_id) == [f"t{i}" for i in range(5)] == list(a.task_id)
    assert a.accuracy.sum() == b.accuracy.sum()
    assert sum(values) != sum(values[i] for i in [3, 0, 4, 2, 1])
