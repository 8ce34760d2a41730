"""The result directory on disk: append-only task records, a lock, and the reading API.

``records.jsonl`` holds one JSON object per finished task, one line each. Each
line is written with a single ``write`` on a file opened in append mode, then
flushed and ``fsync``-ed, and carries a ``checksum`` (SHA-256 of the record's
canonical JSON without the checksum). A run killed at any moment therefore
leaves at most one damaged line, the last; :func:`read_records` drops any line
that is truncated, not JSON, or whose checksum does not match, and
:func:`repair` rewrites the file without them (atomically, through a temporary
file and ``os.replace``) so that the tasks they stood for are run again.

Every record written carries ``schema_version`` (:data:`SCHEMA_VERSION`; a record
without it is of version 1); docs/results.md documents the fields of each version.

Only one process writes a result directory at a time: :class:`RunLock` creates
``lock`` with ``O_CREAT | O_EXCL`` and writes its host and pid into it; a lock
left by a dead process on the same host is stale and is taken over.
"""
from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import socket
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import ResultStoreError
from .provenance import recorded_params

RECORDS = "records.jsonl"
LOCK = "lock"
TASKS = "tasks.txt"
# 2: records carry schema_version, the metrics kappa and cpu_seconds, and the first fold's
# learned network (docs/results.md).
SCHEMA_VERSION = 2
# The field (true) of the record of a bootstrap's apparent error, a model of every row tested on
# them: the estimate reads it (report/run/bootstrap_estimates.py); it is no score of the
# validation, so no table, comparison or frame of scores holds it.
APPARENT = "apparent"


def validation_records(records):
    """``records`` but those of apparent errors (:data:`APPARENT`), in their order."""
    return [r for r in records if not r.get(APPARENT)]


def _clean(value):
    # JSON has no NaN: an undefined score (e.g. AUC on a one-class fold) is stored as null.
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _canonical(record: dict) -> bytes:
    body = {k: v for k, v in record.items() if k != "checksum"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")


def checksum(record: dict) -> str:
    return hashlib.sha256(_canonical(record)).hexdigest()[:16]


def encode_record(record: dict) -> bytes:
    """One line of ``records.jsonl``: the record with its checksum, newline-terminated."""
    record = _clean(dict(record))
    record["checksum"] = checksum(record)
    return json.dumps(record, sort_keys=True, separators=(",", ":"),
                      allow_nan=False).encode("utf-8") + b"\n"


def _parse(line: bytes):
    if not line.endswith(b"\n"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("checksum"), str):
        return None
    if _written_checksum(line, record["checksum"]) or record["checksum"] == checksum(record):
        return record
    return None


def _written_checksum(line: bytes, stored: str) -> bool:
    """Whether ``line`` is a record as :func:`encode_record` wrote it, checksum right.

    Such a line is the canonical JSON of the record with the checksum entry inserted, so
    hashing the line without that entry checks it without serialising the record again
    (most of the cost of reading a large directory). Any other line, e.g. one written by
    another JSON library, is checked the slow way by the caller.
    """
    entry = b'"checksum":"' + stored.encode("ascii", "replace") + b'"'
    at = line.find(entry)
    if at < 1:
        return False
    end = at + len(entry)
    if line[at - 1:at] == b"{":  # the first key: drop the comma after it
        body = line[:at] + line[end + 1:-1] if line[end:end + 1] == b"," else line[:at] + line[end:-1]
    else:
        body = line[:at - 1] + line[end:-1]
    return hashlib.sha256(body).hexdigest()[:16] == stored


def iter_records(run_dir):
    """The valid records of a result directory, one at a time, in the order written
    (damaged lines skipped): a directory is never held in memory as a whole."""
    path = Path(run_dir) / RECORDS
    if not path.exists():
        return
    if not path.is_file():  # a device or FIFO would be read without end
        raise ResultStoreError(f"{path}: not a regular file")
    with open(path, "rb") as fh:
        for line in fh:
            if line.strip():
                record = _parse(line)
                if record is not None:
                    yield record


def first_record(run_dir, limit: int = 1 << 24) -> dict | None:
    """The first line of ``records.jsonl`` as a record, if it is one whose checksum holds
    (None otherwise, also for a line of more than ``limit`` bytes): bayesbench's signature on
    a directory it wrote before it left its marker (:mod:`.ownership`). Only that line is
    read."""
    path = Path(run_dir) / RECORDS
    try:
        if not path.is_file():
            return None
        with open(path, "rb") as fh:
            line = fh.readline(limit + 1)
    except OSError:
        return None
    return _parse(line) if len(line) <= limit else None


def scan(run_dir) -> tuple[list[dict], int]:
    """``(valid records, number of damaged lines)`` of a result directory."""
    path = Path(run_dir) / RECORDS
    if not path.exists():
        return [], 0
    if not path.is_file():  # a device or FIFO would be read without end
        raise ResultStoreError(f"{path}: not a regular file")
    records, damaged = [], 0
    with open(path, "rb") as fh:
        for line in fh:
            if not line.strip():
                continue
            record = _parse(line)
            if record is None:
                damaged += 1
            else:
                records.append(record)
    return records, damaged


def read_records(run_dir) -> list[dict]:
    """Every valid record of a result directory, in the order written."""
    return scan(run_dir)[0]


def current_tasks(run_dir) -> set[str] | None:
    """The task ids of the directory's current config (``tasks.txt``), or None if unknown.

    After ``--resume`` with a changed config, ``records.jsonl`` still holds the records of
    tasks the config no longer has; readers keep to these ids, as the summary tables do.
    """
    tasks = task_list(run_dir)
    return None if tasks is None else set(tasks)


def task_list(run_dir) -> list[str] | None:
    """The task ids of ``tasks.txt`` in the config's order, or None if there is none."""
    path = Path(run_dir) / TASKS
    return path.read_text().split() if path.exists() else None


def task_rank(tasks):
    """The canonical order of a run's records, as a sort key of a task id: its place in
    ``tasks`` (the run's task list, ``tasks.txt``: the plan's order, data sets, then
    repetitions and folds, training sizes and classifiers, each as the config lists them),
    any other task id after them, by id. Every table, figure and comparison of a run reads
    its records in this order (:func:`in_task_order`), never in the order its workers
    finished them: a mean is then the same sum, in the same order, to the last bit, however
    the tasks interleaved (a mean on a rounding boundary printed 74.6 or 74.7 from run to
    run)."""
    position = {task: i for i, task in enumerate(tasks or ())}
    last = len(position)
    return lambda task: (position.get(task, last), "" if task in position else str(task))


def in_task_order(records, tasks) -> list[dict]:
    """``records`` in the canonical order of :func:`task_rank` (``tasks``: the run's task
    ids in order, its ``tasks.txt``; records of one task keep the order they were written)."""
    rank = task_rank(tasks)
    return sorted(records, key=lambda r: rank(r.get("task_id")))


def repair(run_dir) -> int:
    """Drop damaged lines from ``records.jsonl``; return how many were dropped."""
    records, damaged = scan(run_dir)
    if damaged:
        _rewrite(run_dir, records)
    return damaged


def drop_records(run_dir, drop) -> int:
    """Remove from ``records.jsonl`` the valid records for which ``drop(record)`` is true
    (damaged lines go too); return how many were removed."""
    records, _ = scan(run_dir)
    kept = [r for r in records if not drop(r)]
    if len(kept) < len(records):
        _rewrite(run_dir, kept)
    return len(records) - len(kept)


def _rewrite(run_dir, records) -> None:
    """Replace ``records.jsonl`` by ``records``, atomically (a temporary file, then
    ``os.replace``), so that a kill leaves either the old file or the new one."""
    path = Path(run_dir) / RECORDS
    tmp = path.with_suffix(".jsonl.tmp")
    with open(tmp, "wb") as fh:
        fh.write(b"".join(encode_record(r) for r in records))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class RecordWriter:
    """Appends records to ``records.jsonl``, each durable before :meth:`append` returns."""

    def __init__(self, run_dir):
        self.path = Path(run_dir) / RECORDS
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(self, record: dict) -> dict:
        """Write ``record``; return it as :func:`read_records` will read it back (with its
        checksum, undefined scores as None), so that what a run keeps in memory is what
        it stored."""
        data = encode_record({"schema_version": SCHEMA_VERSION, **record})
        view = memoryview(data)
        try:
            # A write may take part of the line only (a nearly full disk, a signal): the
            # rest follows; a line cut short by a failure is dropped when next read.
            while view:
                written = os.write(self._fd, view)
                if written == 0:  # nothing taken and no error: the device is full
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                view = view[written:]
            os.fsync(self._fd)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise ResultStoreError(f"{self.path}: no space left on device") from None
            raise OSError(exc.errno, exc.strerror, str(self.path)) from None
        return json.loads(data)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunLock:
    """An exclusive lock on a result directory (a ``lock`` file holding host and pid)."""

    def __init__(self, run_dir):
        self.path = Path(run_dir) / LOCK
        self.held = False

    def acquire(self) -> "RunLock":
        host = socket.gethostname()
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                owner_host, owner_pid = self._owner()
                if owner_host == host and owner_pid is not None and not _alive(owner_pid):
                    # Left by a process that died (e.g. SIGKILL): take it over.
                    self.path.unlink(missing_ok=True)
                    continue
                raise ResultStoreError(
                    f"{self.path.parent} is in use by another run (host {owner_host}, "
                    f"pid {owner_pid}); if that run is gone, delete {self.path}") from None
            with os.fdopen(fd, "w") as fh:
                fh.write(f"{host} {os.getpid()}\n")
            self.held = True
            return self
        raise ResultStoreError(f"cannot take the lock {self.path}")

    def _owner(self):
        try:
            host, pid = self.path.read_text().split()
            return host, int(pid)
        except (OSError, ValueError):
            return None, None

    def release(self) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)
            self.held = False

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


# The fields of a record that are not scores, in the order of a frame's columns; the
# hyper-parameters come after ``learner`` as ``param_<name>``.
ID_COLUMNS = ("run", "dataset", "classifier", "learner")
TASK_COLUMNS = ("repetition", "fold", "train_size", "fold_id", "seed", "task_id", "status", "error", "n_train",
                "n_test", "fit_seconds", "predict_seconds", "structure", "schema_version")
PARAM_PREFIX = "param_"


def records_frame(run_dirs, *, failed: bool = False, long: bool = False, metrics=None):
    """The records of result directories as a pandas frame (``bayesbench.load_results``).

    Wide (default): one row per ``ok`` record (``failed=True``: per record, failed tasks
    with ``status`` "error", ``error`` their message and no scores). Columns, in order:
    ``run`` (the directory's name, with its parents' when two runs share it), ``dataset``,
    ``classifier`` (the label), ``learner`` (the registry name), one ``param_<name>``
    column per hyper-parameter of any classifier (empty where a classifier lacks it;
    a list or mapping value as JSON text; a parameter the config left at its default
    has the default the model had, as the directory's ``environment.json`` recorded it),
    then ``repetition``, ``fold``, ``fold_id``,
    ``seed``, ``task_id``, ``status``, ``error``, ``n_train``, ``n_test``,
    ``fit_seconds``, ``predict_seconds``, ``structure``, ``schema_version``, and one
    column per metric (``accuracy``, ``f1_macro``, ..., ``kappa``, ``cpu_seconds``) and
    per-class score (``f1[M]``, ``recall[Iris-setosa]``); undefined scores are NaN.

    ``long=True``: one row per record and metric, the score columns replaced by
    ``metric`` and ``value`` (the tidy form: ``frame.pivot_table(...)``, seaborn).

    ``metrics`` (a list of names, per-class ones such as ``f1[M]`` included) keeps only
    those scores; the default keeps every metric, and per-class scores in the wide form only.
    Records are read one at a time and only the chosen columns are kept, so that large
    directories fit in memory. Records of tasks that the directory's current config no
    longer has (see :func:`current_tasks`) are left out, as are those of a bootstrap's
    apparent errors (:data:`APPARENT`: no scores of the validation).
    """
    if isinstance(run_dirs, (str, os.PathLike)):
        run_dirs = [run_dirs]
    run_dirs = list(dict.fromkeys(Path(d).resolve() for d in run_dirs))
    for run_dir in run_dirs:
        if not (run_dir / RECORDS).exists():
            raise ResultStoreError(f"{run_dir}: not a result directory (no {RECORDS})")

    task_lists = [task_list(d) for d in run_dirs]

    def current(run_dir, tasks):
        tasks = None if tasks is None else set(tasks)
        # Every parameter each model had, the defaults the config did not write included.
        full = recorded_params(run_dir)
        return (_with_defaults(r, full) for r in iter_records(run_dir)
                if tasks is None or r.get("task_id") in tasks)

    names = run_names(run_dirs)
    frame = records_to_frame((current(d, t) for d, t in zip(run_dirs, task_lists)), names,
                             failed=failed, long=long, metrics=metrics)
    return _in_task_order(frame, task_lists, names)


def _in_task_order(frame: pd.DataFrame, task_lists, names) -> pd.DataFrame:
    """The rows run by run, each run's in the canonical order of its ``tasks.txt``
    (``task_lists``; :func:`task_rank`), not the order its workers finished them in. Rows of
    one task stay in the order read."""
    if frame.empty or "task_id" not in frame.columns:
        return frame
    ranks = {name: task_rank(tasks) for name, tasks in zip(names, task_lists)}
    where = {name: i for i, name in enumerate(names)}
    # Ranked once per task (a long frame has a row per metric), then every row by its task's.
    codes, tasks = pd.factorize(pd.MultiIndex.from_arrays(
        [frame["run"], frame["task_id"].fillna("").astype(str)]))
    keys = [(where[run], *ranks[run](task)) for run, task in tasks]
    rank = np.empty(len(keys), dtype=np.int64)
    rank[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
    return frame.iloc[np.argsort(rank[codes], kind="stable")].reset_index(drop=True)


def _with_defaults(record: dict, full: dict) -> dict:
    # A record's own provenance (a class from outside bayesbench) is what its task ran.
    own = record.get("provenance")
    defaults = own.get("params") if isinstance(own, dict) else None
    defaults = defaults if isinstance(defaults, dict) else full.get(record.get("classifier"))
    if not defaults:
        return record
    return {**record, "params": {**defaults, **(record.get("params") or {})}}


def records_to_frame(runs, names, *, failed: bool = False, long: bool = False, metrics=None):
    """The frame of :func:`records_frame` from records in memory: ``runs`` holds each run's
    records (any iterable), ``names`` each run's name (its ``run`` column)."""
    from .metrics import METRIC_NAMES  # lazy: metrics imports scipy, which reading needs not

    wanted = _Wanted(metrics) if metrics is not None else None
    rows = []
    for records, run_name in zip(runs, names):
        for record in records:
            if (record.get("status") != "ok" and not failed) or record.get(APPARENT):
                continue
            row = _task_fields(record, run_name)
            scores = _scores(record, wanted, per_class=not long or wanted is not None)
            if long:
                names_ = list(scores) or list(METRIC_NAMES)  # a failed task: every metric NaN
                rows += [{**row, "metric": m, "value": scores.get(m, math.nan)} for m in names_]
            else:
                row.update(scores)
                rows.append(row)
    frame = pd.DataFrame(rows)
    if wanted is not None and len(frame):  # a score no record holds is not there at all
        absent = [m for m in wanted.names if m not in wanted.found]
        frame = (frame[~frame["metric"].isin(absent)].reset_index(drop=True) if long
                 else frame.drop(columns=absent))
    return _ordered(frame, long)


def _task_fields(record: dict, run_name: str) -> dict:
    row = {"run": run_name}
    for key in ("dataset", "classifier", "learner"):
        row[key] = record.get(key)
    for name, value in (record.get("params") or {}).items():
        row[PARAM_PREFIX + name] = (json.dumps(value, sort_keys=True)
                                    if isinstance(value, (dict, list)) else value)
    for key in TASK_COLUMNS:
        if key in record:
            row[key] = record[key]
    return row


def _scores(record: dict, wanted, *, per_class: bool) -> dict:
    """``{metric: value}`` of a record (NaN for undefined), restricted to ``wanted`` (a
    :class:`_Wanted`) when given."""
    metrics = record.get("metrics") or {}
    if wanted is not None:
        return wanted.scores(record, metrics)
    out = {name: math.nan if value is None else value for name, value in metrics.items()}
    if per_class:
        classes = record.get("classes") or []
        for score, values in (record.get("per_class") or {}).items():
            for cls, value in zip(classes, values):
                out[f"{score}[{cls}]"] = math.nan if value is None else value
    return out


class _Wanted:
    """The scores to keep, told apart once: metrics by name, per-class scores by
    ``(score, class)``, so that each record costs a few dictionary look-ups."""

    def __init__(self, names):
        from .metrics import class_score, per_class_metric  # lazy: metrics imports scipy

        self.class_score = class_score
        self.names = list(names)
        self.per_class = {name: per_class_metric(name) for name in self.names}
        self.found = set()  # the names some record holds; the others are no column at all

    def scores(self, record: dict, metrics: dict) -> dict:
        out = {}
        for name, score_class in self.per_class.items():
            if score_class is None:
                held, value = name in metrics, metrics.get(name)
            else:
                score, cls = score_class
                classes = record.get("classes") or []
                value = (self.class_score(record.get("per_class") or {}, score,
                                          classes.index(cls)) if cls in classes else None)
                held = value is not None
            if held:
                self.found.add(name)
            out[name] = math.nan if value is None else value
        return out


def _ordered(frame: pd.DataFrame, long: bool) -> pd.DataFrame:
    """The columns in the documented order: identity, parameters, task fields, scores."""
    params = sorted(c for c in frame.columns if c.startswith(PARAM_PREFIX))
    first = [c for c in (*ID_COLUMNS, *params, *TASK_COLUMNS) if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]]


def run_names(run_dirs) -> list[str]:
    """Each directory's name, with as many parent directories as it takes to tell runs apart
    (``a/quick`` and ``b/quick``): runs of one name would otherwise merge into one."""
    run_dirs = [Path(d) for d in run_dirs]
    for depth in range(1, max((len(d.parts) for d in run_dirs), default=1) + 1):
        names = ["/".join(d.parts[-depth:]) for d in run_dirs]
        if len(set(names)) == len(names):
            return names
    return [str(d) for d in run_dirs]
