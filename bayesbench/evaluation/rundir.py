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
import re
import socket
import sys
from contextlib import contextmanager
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Iterator

import yaml

from ..data.chunks import chunk_files, is_chunked
from ..data.yaml_file import read_yaml
from ..errors import ConfigChangedError, ConfigError, DataChangedError, ResultStoreError
from ..spec import Experiment, RunOptions, resolved_config
from . import predictions
from .executors import describe, worker_threads
from .ownership import ARMS, RUN, check_claimable, claim, refusal
from .provenance import classifier_provenance
from .store import TASKS, RecordWriter, RunLock, drop_records, read_records, repair


def check_outputs(experiment: Experiment, options: RunOptions) -> None:
    """Refuse (:class:`ResultStoreError`), before anything runs, every directory of
    ``experiment`` (with its arms) that is not bayesbench's to write
    (:mod:`.ownership`): each run's result directory, unless ``force`` writes beside it,
    and the directory that holds the arms and their comparison."""
    for run in experiment.runs():
        if not options.force:
            check_claimable(options.run_dir(run), RUN)
    if experiment.arms:
        check_claimable(options.run_dir(experiment), ARMS)


def claim_arms(experiment: Experiment, options: RunOptions) -> None:
    """Make (and mark) the directory of ``experiment``'s arms, which holds their comparison."""
    if experiment.arms:
        claim(options.run_dir(experiment), ARMS)


def choose_run_dir(experiment: Experiment, options: RunOptions) -> tuple[Path, bool]:
    """The directory to write and whether it already holds this experiment."""
    run_dir = options.run_dir(experiment)
    not_ours = refusal(run_dir, RUN)
    if not_ours and not options.force:
        raise ResultStoreError(not_ours)
    stored = run_dir / CONFIG
    if not stored.exists() and not not_ours:
        return run_dir, False
    identity = json.loads(json.dumps(experiment.identity()))
    try:
        previous = stored_config(run_dir)
        changed = differences({k: previous.get(k) for k in identity}, identity)
    except (ResultStoreError, AttributeError):
        changed = ["config.yaml (unreadable)"]  # or not ours: forced beside it below
    same = not changed
    if options.force:
        n = 2
        while Path(f"{run_dir}-{n}").exists():
            n += 1
        return Path(f"{run_dir}-{n}"), False
    if same or options.resume:
        return run_dir, True
    shown = ", ".join(changed[:6]) + (f" and {len(changed) - 6} more" if len(changed) > 6 else "")
    raise ConfigChangedError(f"{run_dir} holds results of a different configuration (it "
                             f"differs in {shown})", run_dir=run_dir, changed=changed)


# The experiment as run, every default filled in: what a later session must match.
CONFIG = "config.yaml"


def stored_config(run_dir):
    """A result directory's ``config.yaml`` as loaded, read as a config is (bounded:
    :mod:`~bayesbench.data.yaml_file`); None when there is none. Any other reason it cannot
    be read (not YAML, not a regular file, too large) is one :class:`ResultStoreError`
    naming the file and the line."""
    path = Path(run_dir) / CONFIG
    if not path.exists() and not path.is_symlink():
        return None
    try:
        return read_yaml(path, what="result directory's config")
    except ConfigError as exc:
        raise ResultStoreError(str(exc)) from None


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
    ``dropped`` counts the damaged records removed on opening; ``baseline`` is the
    comparison's baseline, a property of the directory (:func:`stored_baseline`), and
    ``notes`` says what the user should know about this session (a baseline that changes,
    tasks run again because their data changed)."""

    def __init__(self, path: Path, writer: RecordWriter, records: list[dict], dropped: int,
                 baseline: str | None = None, notes=()):
        self.path = path
        self.records = records
        self.dropped = dropped
        self.baseline = baseline
        self.notes = list(notes)
        self.n_run = 0
        # {task id: arrays} of the predictions this session wrote: the figures drawn at the
        # end of the run read them here instead of back from their files.
        self.predictions: dict[str, dict] = {}
        self._writer = writer

    @property
    def done(self) -> set[str]:
        return {r["task_id"] for r in self.records}

    def keep(self, record: dict) -> dict:
        """Store a new record durably and keep it; return it as stored. Its predictions, if
        it carries them, go to their own file first (:mod:`.predictions`): a kill between
        the two leaves a file without a record, which the next session deletes. The fitted
        networks it carries (``_networks``, :func:`~.classifier_task.run_classifier`) are written to
        ``networks/<data set>/<classifier>/<repetition>-<fold>.<suffix>``, not stored."""
        kept = record.get(predictions.FIELD)
        if kept is not None:
            record = {k: v for k, v in record.items() if k != predictions.FIELD}
            record[predictions.DIGEST] = predictions.write(self.path, record["task_id"], kept)
            self.predictions[record["task_id"]] = kept
        for suffix, text in (record.pop("_networks", None) or {}).items():
            where = self.path / "networks" / _slug(record["dataset"]) / _slug(record["classifier"])
            where.mkdir(parents=True, exist_ok=True)
            # UTF-8, as the XMLBIF text declares, whatever the locale.
            _write_atomic(where / f"{record['repetition']}-{record['fold']}{suffix}", text,
                          encoding="utf-8")
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
    claim(path, RUN)
    with RunLock(path):
        env_path = path / "environment.json"
        env = _read_json(env_path)  # config.yaml deleted: the checksums still count
        shas = {d.name: _sha256(d.path) for d in experiment.datasets}
        # Checked before anything is written: a refused run leaves the directory as it was.
        notes = _changed_data(path, experiment, tasks, env, shas, options.rerun_changed)
        baseline, note = stored_baseline(experiment, _readable_config(path)
                                         if existing else None)
        notes += [note] if note else []
        (path / "summary").mkdir(exist_ok=True)
        config = resolved_config(_with_baseline(experiment, baseline), options, path)
        _write_atomic(path / CONFIG, yaml.safe_dump(config, sort_keys=False))
        _write_atomic(path / TASKS, "".join(f"{t}\n" for ids in tasks.values() for t in ids))
        env, session = _open_session(env_path, env, experiment, options, shas)
        dropped = repair(path)
        notes += _reconciled(path, experiment, tasks)
        with RecordWriter(path) as writer:
            run = RunDirectory(path, writer, _current_records(path, tasks), dropped, baseline,
                               notes)
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


def _reconciled(path: Path, experiment: Experiment, tasks) -> list[str]:
    """Delete predictions without a record; with ``predictions``, drop the records of
    finished tasks that have none (they run again) and say so."""
    if not experiment.keeps_predictions and not (path / predictions.DIRECTORY).is_dir():
        return []  # nothing to reconcile, and a large directory is not read once more
    wanted = {t for ids in tasks.values() for t in ids} if experiment.keeps_predictions else set()
    missing = predictions.reconcile(path, read_records(path), wanted)
    if not missing:
        return []
    drop_records(path, lambda r: r.get("task_id") in missing)
    return [f"{len(missing)} finished task(s) have no kept predictions: they run again"]


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


def _changed_data(path: Path, experiment: Experiment, tasks, env, shas: dict,
                  rerun: bool) -> list[str]:
    """Refuse (or, with ``rerun``, drop the records of) the finished tasks of every data
    set whose file's SHA-256 differs from the one its last session recorded; return what
    was dropped, as notes."""
    recorded = _recorded_sha256(env)
    done = {r["task_id"] for r in read_records(path)}
    finished = [d for d in experiment.datasets if done.intersection(tasks.get(d.name, ()))]
    # No checksum to compare with (environment.json deleted, damaged, or from before
    # checksums): the finished tasks cannot be verified, which is refused as a change is.
    unverified = [d for d in finished if d.name not in recorded]
    changed = [d for d in finished if recorded.get(d.name, shas[d.name]) != shas[d.name]]
    if not changed and not unverified:
        return []
    counts = {d.name: len(done.intersection(tasks[d.name])) for d in changed + unverified}
    if not rerun:
        raise DataChangedError(_unverified_message(path, env, unverified, counts) if unverified
                               else _changed_message(path, changed, counts, recorded, shas),
                               datasets=[d.name for d in changed + unverified])
    names = {d.name for d in changed + unverified}
    drop_records(path, lambda r: r.get("dataset") in names)
    return [f"data set '{d.name}' changed since its {counts[d.name]} finished task(s) were "
            f"run ({d.path}): they run again" for d in changed] + [
        f"data set '{d.name}' could not be verified against its {counts[d.name]} finished "
        f"task(s) ({_env_state(path, env)}): they run again" for d in unverified]


def _changed_message(path: Path, changed, counts, recorded, shas) -> str:
    which = "; ".join(
        f"{d.path} (data set '{d.name}', {counts[d.name]} finished task(s); SHA-256 "
        f"{recorded[d.name][:12]}... recorded, {shas[d.name][:12]}... now)" for d in changed)
    return f"{path}: data file(s) changed since their tasks were run: {which}"


def _env_state(path: Path, env) -> str:
    """What is wrong with a result directory's environment.json that has no checksum."""
    env_path = path / "environment.json"
    if not env_path.exists():
        return f"{env_path} is missing"
    if not isinstance(env, dict) or not isinstance(env.get("sessions"), list):
        return f"{env_path} is damaged"
    return f"{env_path} records no SHA-256 of its data"


def _unverified_message(path: Path, env, unverified, counts) -> str:
    which = ", ".join(f"'{d.name}' ({counts[d.name]} finished task(s))" for d in unverified)
    return (f"{path}: cannot verify that the data of finished tasks is unchanged: "
            f"{_env_state(path, env)}; data set(s) {which}")


def _recorded_sha256(env) -> dict:
    """Each data set's SHA-256 as the last session that read it recorded it."""
    out = {}
    for session in (env or {}).get("sessions", []):
        out.update(session.get("data_sha256") or {})
    return out


def stored_baseline(experiment: Experiment, previous) -> tuple[str, str | None]:
    """The comparison's baseline of a result directory and, if it is not what the user
    might expect, a note saying so.

    The baseline is the experiment's ``compare.baseline`` if given, else the one the
    directory's config (``previous``, None for a new directory) stored, else the first
    classifier: listing another classifier first when a run is resumed does not silently
    change what the others were tested against.
    """
    labels = [c.label for c in experiment.classifiers]
    given = experiment.compare.baseline
    stored = config_baseline(previous)
    if given is not None:
        changes = stored is not None and stored != given
        return given, (f"the comparison's baseline changes from '{stored}' to '{given}'"
                       if changes else None)
    if stored in labels:
        return stored, (f"the comparison's baseline stays '{stored}', as the directory "
                        f"stored it, although '{labels[0]}' is now listed first"
                        if stored != labels[0] else None)
    return labels[0], (f"the comparison's baseline changes from '{stored}', no longer a "
                       f"classifier of the run, to '{labels[0]}'" if stored else None)


def config_baseline(config):
    """The baseline a result directory's ``config.yaml`` (as loaded) stores: its
    ``compare.baseline``, else (a directory written before the baseline was stored) its
    first classifier's label; None when it holds neither."""
    if not isinstance(config, dict):
        return None
    compare = config.get("compare") if isinstance(config.get("compare"), dict) else {}
    classifiers = config.get("classifiers") or [{}]
    first = classifiers[0] if isinstance(classifiers, list) and isinstance(classifiers[0], dict) else {}
    return compare.get("baseline") or first.get("label")


def _with_baseline(experiment: Experiment, baseline: str) -> Experiment:
    return replace(experiment, compare=replace(experiment.compare, baseline=baseline))


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _readable_config(path: Path):
    """:func:`stored_config`, None when it cannot be read (a session replaces it)."""
    try:
        return stored_config(path)
    except ResultStoreError:
        return None


def _open_session(env_path: Path, env, experiment: Experiment, options: RunOptions, shas):
    """The environment record with a new session (this invocation) appended, written."""
    if not isinstance(env, dict) or not isinstance(env.get("sessions"), list):
        env = {"seed": experiment.seed, "sessions": []}
    session = {"start": _now(), "end": None, "command": list(options.command or sys.argv),
               "cwd": os.getcwd(), "host": socket.gethostname(),
               "platform": platform.platform(), "cpus": os.cpu_count(),
               "executor": describe(options.jobs, options.scheduler),
               # Each worker's BLAS and OpenMP threads (None: serial, left alone).
               "worker_threads": worker_threads(options.jobs, options.scheduler,
                                                options.worker_threads),
               "versions": _versions(options.scheduler), "data_sha256": dict(shas),
               "classifiers": classifier_provenance(experiment)}
    if options.skipped:
        session["skipped_datasets"] = dict(options.skipped)
    env["sessions"].append(session)
    env.update(seed=experiment.seed, bayesbench=session["versions"]["bayesbench"])
    _write_json(env_path, env)
    return env, session


#: The extras whose libraries a run uses whenever they are installed: pyarrow writes the
#: prediction files (whose SHA-256 each record keeps) and summary/scores.parquet, and reads
#: Parquet data sets; matplotlib draws the figures.
RUN_EXTRAS = ("parquet", "plots")


def _versions(scheduler) -> dict:
    """Python's version, bayesbench's and that of each library it requires, as its own
    metadata lists them (numba and threadpoolctl were left out of a list written here);
    those of :data:`RUN_EXTRAS` that are installed (pyarrow's was left out, though it wrote
    the files the records' checksums name), and Dask's when the run uses it."""
    out = {"python": platform.python_version()}
    names = ["bayesbench", *_requirements()]
    if scheduler is not None:
        names += ["dask", "distributed"]
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    for name in _requirements(RUN_EXTRAS):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass  # not installed: the run did without it
    return out


def _requirements(extras=()) -> list[str]:
    """The distributions bayesbench requires, by name: those it always requires, or (given
    ``extras``) those of these extras."""
    try:
        required = metadata.requires("bayesbench") or []
    except metadata.PackageNotFoundError:  # not installed: nothing to say which
        return []
    wanted = {f'extra == "{e}"' for e in extras}
    return [re.match(r"[A-Za-z0-9._-]+", r)[0] for r in required
            if (r.partition(";")[2].strip() in wanted if extras
                else "extra" not in r.partition(";")[2])]


def _sha256(path) -> str:
    """A data file's SHA-256; a chunked data set's hashes each file's name and bytes, in order."""
    digest = hashlib.sha256()
    chunked = is_chunked(path)
    for name in chunk_files(path) if chunked else [path]:
        if chunked:
            digest.update(Path(name).name.encode() + b"\0")
        with open(name, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _slug(text: str) -> str:
    """``text`` as a directory name (a label such as ``kdb(k=2)`` stays readable). A name
    that does not stay as it is gets 8 hex digits of its SHA-256: the records are written
    one by one, so ``nb(a/b)`` and ``nb(a_b)`` cannot be told apart by order, and each
    keeps its own directory whatever else the run holds."""
    text = str(text)
    kept = re.sub(r"[^A-Za-z0-9._+=,()-]+", "_", text).strip("_") or "_"
    if kept == text and text not in (".", ".."):
        return kept
    return f"{kept}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _write_atomic(path: Path, text: str, encoding: str | None = None) -> None:
    """Write ``text`` to ``path`` through a temporary file: a kill mid-write never leaves
    a half file that would make the next run refuse the directory."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding=encoding)
    os.replace(tmp, path)


def _write_json(path: Path, obj) -> None:
    _write_atomic(path, json.dumps(obj, indent=2, default=str) + "\n")
