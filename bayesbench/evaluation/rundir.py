"""The result directory of a run: which one, its lock, its provenance and its sessions.

A run writes into ``<output>`` (see :meth:`RunOptions.run_dir`): ``config.yaml``, the
experiment as run with every default filled in; ``tasks.txt``, the task ids of that
experiment; ``environment.json``, the seed and one session per invocation (command,
host, versions, executor, checksums of the data files, how it ended); and the records
(:mod:`.store`). A directory that holds the same experiment is continued; one that holds
another is refused unless the run resumes it (its matching tasks are kept) or is forced
into a new directory ``<output>-2``, ``-3``, ...
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import socket
import sys
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Iterator

import yaml

from ..errors import ResultStoreError
from ..spec import Experiment, RunOptions, resolved_config
from .executors import describe
from .store import TASKS, RecordWriter, RunLock, read_records, repair


def choose_run_dir(experiment: Experiment, options: RunOptions) -> tuple[Path, bool]:
    """The directory to write and whether it already holds this experiment."""
    run_dir = options.run_dir(experiment)
    stored = run_dir / "config.yaml"
    if not stored.exists():
        return run_dir, False
    identity = json.loads(json.dumps(experiment.identity()))
    try:
        previous = yaml.safe_load(stored.read_text())
        changed = differences({k: previous.get(k) for k in identity}, identity)
    except (yaml.YAMLError, AttributeError, OSError):
        changed = ["config.yaml (unreadable)"]
    same = not changed
    if options.force:
        n = 2
        while Path(f"{run_dir}-{n}").exists():
            n += 1
        return Path(f"{run_dir}-{n}"), False
    if same or options.resume:
        return run_dir, True
    shown = ", ".join(changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "")
    raise ResultStoreError(
        f"{run_dir} holds results of a different configuration (it differs in {shown}); use "
        "--resume to continue it with this configuration (finished tasks that still match are "
        "kept) or --force to write into a new directory")


def differences(old, new, at: str = "") -> list[str]:
    """Where two experiment identities differ, as the config keys that hold them
    (``cv.folds``, ``classifiers[1].params.k``; a list of another length as a whole)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [d for k in dict.fromkeys([*old, *new])
                for d in differences(old.get(k), new.get(k), f"{at}.{k}" if at else str(k))]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in differences(a, b, f"{at}[{i}]")]
    return [] if old == new else [at or "the config"]


class RunDirectory:
    """A result directory open for one session: ``records`` holds the valid records of the
    experiment's tasks, in the order written (one per task), those of this session included;
    ``dropped`` counts the damaged records removed on opening."""

    def __init__(self, path: Path, writer: RecordWriter, records: list[dict], dropped: int):
        self.path = path
        self.records = records
        self.dropped = dropped
        self.n_run = 0
        self._writer = writer

    @property
    def done(self) -> set[str]:
        return {r["task_id"] for r in self.records}

    def keep(self, record: dict) -> dict:
        """Store a new record durably and keep it; return it as stored."""
        stored = self._writer.append(record)
        self.records.append(stored)
        self.n_run += 1
        return stored


@contextmanager
def open_run_dir(experiment: Experiment, options: RunOptions,
                 tasks: dict[str, tuple[str, ...]]) -> Iterator[RunDirectory]:
    """Choose, lock and open the result directory of ``experiment`` for one session.

    Writes ``config.yaml``, ``tasks.txt`` and a new session in ``environment.json``,
    and drops damaged records; on leaving, the session says how it ended (after Ctrl-C:
    ``interrupted``). Raises :class:`ResultStoreError` when another run holds the
    directory or it holds a different experiment (unless ``resume`` or ``force``).
    """
    path, existing = choose_run_dir(experiment, options)
    path.mkdir(parents=True, exist_ok=True)
    with RunLock(path):
        (path / "summary").mkdir(exist_ok=True)
        config = resolved_config(experiment, options, path)
        _write_atomic(path / "config.yaml", yaml.safe_dump(config, sort_keys=False))
        _write_atomic(path / TASKS, "".join(f"{t}\n" for ids in tasks.values() for t in ids))
        env_path = path / "environment.json"
        env, session = _open_session(env_path, experiment, options, existing)
        dropped = repair(path)
        with RecordWriter(path) as writer:
            run = RunDirectory(path, writer, _current_records(path, tasks), dropped)
            try:
                yield run
            except KeyboardInterrupt:
                # The session says how it ended, so environment.json does not show a run
                # in progress.
                session.update(end=_now(), tasks_run=run.n_run, interrupted=True)
                _write_json(env_path, env)
                raise
        session.update(end=_now(), tasks_run=run.n_run)
        _write_json(env_path, env)


def _current_records(path: Path, tasks) -> list[dict]:
    """The directory's records of these tasks, one per task (the first written)."""
    wanted = {t for ids in tasks.values() for t in ids}
    seen, out = set(), []
    for record in read_records(path):
        tid = record.get("task_id")
        if tid in wanted and tid not in seen:
            seen.add(tid)
            out.append(record)
    return out


def _open_session(env_path: Path, experiment: Experiment, options: RunOptions, existing: bool):
    """The environment record with a new session (this invocation) appended, written."""
    env = json.loads(env_path.read_text()) if existing and env_path.exists() else {
        "seed": experiment.seed, "sessions": []}
    session = {"start": _now(), "end": None, "command": list(options.command or sys.argv),
               "cwd": os.getcwd(), "host": socket.gethostname(),
               "platform": platform.platform(), "cpus": os.cpu_count(),
               "executor": describe(options.jobs, options.scheduler),
               "versions": _versions(options.scheduler),
               "data_sha256": {d.name: _sha256(d.path) for d in experiment.datasets}}
    if options.skipped:
        session["skipped_datasets"] = dict(options.skipped)
    env["sessions"].append(session)
    env.update(seed=experiment.seed, bayesbench=session["versions"]["bayesbench"])
    _write_json(env_path, env)
    return env, session


def _versions(scheduler) -> dict:
    out = {"python": platform.python_version()}
    names = ["bayesbench", "numpy", "scipy", "pandas", "pyyaml", "liac-arff", "tabulate", "click"]
    if scheduler is not None:
        names += ["dask", "distributed"]
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file: a kill mid-write never leaves
    a half file that would make the next run refuse the directory."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _write_json(path: Path, obj) -> None:
    _write_atomic(path, json.dumps(obj, indent=2, default=str) + "\n")
