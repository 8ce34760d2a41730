"""Run an experiment: every (data set, repetition, fold, classifier) task, resumably.

The unit of work sent to an executor is one fold: the data set is split, the
training fold's imputer and discretizer are fitted once, and every classifier
still to run on that fold is fitted and scored on the same prepared data. All
randomness of a fold comes from ``(seed, data set, repetition, fold)``, so the
records are the same whatever the executor or the order of the work.

Order of preparation, per fold: impute (fitted on the training fold), then
discretize (fitted on the imputed training fold; discrete learners only), then
noise (paper 003: shuffle the values of a random fraction of the attributes
across examples of the training part, the test part or both). Continuous
learners get the numeric attributes of the imputed data (nominal attributes are
left out), with the same noise. With ``scope: global`` the imputer and
discretizer are fitted on the whole data set before splitting.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import socket
import sys
import time
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

import numpy as np

from ..config import ClassifierSpec, DatasetSpec, ExperimentConfig, PreprocessSpec
from ..errors import BayesbenchError, ConfigError, ResultStoreError
from .metrics import evaluate
from ..data.folds import fold_rng
from .splits import make_splits
from .store import TASKS, RecordWriter, RunLock, read_records, repair

TIMING_FIELDS = ("fit_seconds", "predict_seconds")

# Streams of randomness within one fold, so that adding one use never shifts another.
_IMPUTE, _NOISE, _CLASSIFIER, _GLOBAL_IMPUTE = 1, 2, 3, 4


@dataclass(frozen=True)
class FoldJob:
    """Everything a worker needs to run the remaining classifiers of one fold."""

    dataset: DatasetSpec
    preprocess: PreprocessSpec
    seed: int
    repetition: int
    fold: int
    fold_id: str
    train: np.ndarray
    test: np.ndarray
    classifiers: tuple[ClassifierSpec, ...]
    task_ids: tuple[str, ...]


# ---------------------------------------------------------------- data, per process
_CACHE: dict = {}


def load_prepared(spec: DatasetSpec, preprocess: PreprocessSpec, seed: int):
    """``(imputed, discretized)`` versions of the data set before splitting.

    With ``scope: fold`` both are the raw data set (nothing is fitted before
    splitting). With ``scope: global`` the imputer and discretizer are fitted
    on the whole data set here. Cached per process.
    """
    key = (spec, preprocess, seed)
    if key not in _CACHE:
        from ..data import load_dataset

        ds = load_dataset(spec.path, spec.class_attribute)
        if spec.attributes is not None:
            ds = ds.select(spec.attributes)
        ds.name = spec.name
        if preprocess.scope == "global":
            rng = fold_rng(seed, spec.name, 0, 0, _GLOBAL_IMPUTE)
            imputed, _ = _impute(ds, ds, preprocess.impute, rng)
            discretized, _ = _discretize(imputed, imputed, preprocess)
            _CACHE[key] = (imputed, discretized)
        else:
            _CACHE[key] = (ds, ds)
    return _CACHE[key]


def _impute(train, test, strategy: str, rng):
    if strategy == "none":
        return train, test
    from ..preprocess.impute import Imputer

    imputer = Imputer(strategy).fit(train)
    return imputer.transform(train, rng=rng), imputer.transform(test, rng=rng)


def _discretize(train, test, preprocess: PreprocessSpec):
    if preprocess.discretize == "none" or train.nominal_mask.all():
        return train, test
    from ..preprocess.discretize import Discretizer

    disc = Discretizer(preprocess.discretize, bins=preprocess.bins).fit(train)
    return disc.transform(train), disc.transform(test)


def _noise(train, test, job: FoldJob):
    noise = job.preprocess.noise
    if noise is None or noise.fraction == 0:
        return train, test
    from ..preprocess.noise import shuffle_attributes

    # Both sides start from the same stream, so `both` shuffles the same attributes in
    # the training and the test part (each with its own permutations of its rows).
    def rng():
        return fold_rng(job.seed, job.dataset.name, job.repetition, job.fold, _NOISE)

    if noise.on in ("train", "both"):
        train = shuffle_attributes(train, noise.fraction, rng())
    if noise.on in ("test", "both"):
        test = shuffle_attributes(test, noise.fraction, rng())
    return train, test


def prepare_fold(job: FoldJob) -> dict:
    """The fold's data for each kind of learner: ``{"discrete": (train, test), "continuous": ...}``.

    A value is a callable so that a kind no classifier of the fold needs is
    never computed, and one that fails (say, a numeric attribute and
    ``discretize: none``) fails only the classifiers that need it.
    """
    imputed, discretized = load_prepared(job.dataset, job.preprocess, job.seed)
    cache = {}

    def imputed_fold():
        if "imputed" not in cache:
            train, test = imputed.take(job.train), imputed.take(job.test)
            if job.preprocess.scope == "fold":
                rng = fold_rng(job.seed, job.dataset.name, job.repetition, job.fold, _IMPUTE)
                train, test = _impute(train, test, job.preprocess.impute, rng)
            cache["imputed"] = (train, test)
        return cache["imputed"]

    def discrete():
        if "discrete" not in cache:
            if job.preprocess.scope == "global":
                train, test = discretized.take(job.train), discretized.take(job.test)
            else:
                train, test = _discretize(*imputed_fold(), job.preprocess)
            cache["discrete"] = _noise(train, test, job)
        return cache["discrete"]

    def continuous():
        if "continuous" not in cache:
            cache["continuous"] = _noise(*imputed_fold(), job)
        return cache["continuous"]

    return {"discrete": discrete, "continuous": continuous}


# --------------------------------------------------------------------- one fold
def task_seed(seed: int, dataset: str, repetition: int, fold: int) -> int:
    """The ``random_state`` given to a classifier whose own is left None."""
    return int(fold_rng(seed, dataset, repetition, fold, _CLASSIFIER).integers(2 ** 31 - 1))


def _matrices(kind: str, train, test):
    # Named columns, so that learned structures in the records read with attribute names.
    import pandas as pd

    if kind == "continuous":
        names = [a.name for a in train.attributes if not a.is_nominal]
        if not names:
            raise BayesbenchError("the data set has no numeric attributes for a continuous learner")
        return (pd.DataFrame(train.numeric_matrix(), columns=names),
                pd.DataFrame(test.numeric_matrix(), columns=names), {})
    names = train.attribute_names
    return (pd.DataFrame(train.codes(), columns=names), pd.DataFrame(test.codes(), columns=names),
            {"cardinalities": train.cardinalities})


def _run_classifier(spec: ClassifierSpec, views, job: FoldJob) -> dict:
    from ..models.registry import classifier_class

    cls = classifier_class(spec.learner)
    params = dict(spec.params)
    if "random_state" in cls._param_names() and params.get("random_state") is None:
        params["random_state"] = task_seed(job.seed, job.dataset.name, job.repetition, job.fold)
    record = {"learner": spec.learner, "params": params, "status": "ok",
              "n_train": int(job.train.size), "n_test": int(job.test.size)}
    kind = getattr(cls, "input_kind", "discrete")
    try:
        train, test = views[kind]()
        X_train, X_test, extra = _matrices(kind, train, test)
        n_classes = train.n_classes
        record.update(n_train=int(train.n_rows), n_test=int(test.n_rows),
                      classes=list(train.class_names))
        clf = cls(**params)
        t0 = time.perf_counter()
        clf.fit(X_train, train.y, n_classes=n_classes, **extra)
        t1 = time.perf_counter()
        proba = np.asarray(clf.predict_proba(X_test), dtype=np.float64)
        t2 = time.perf_counter()
        if proba.shape != (test.n_rows, n_classes) or not np.isfinite(proba).all():
            raise BayesbenchError(f"predict_proba returned an unusable array of shape "
                                  f"{proba.shape} (non-finite values or wrong shape)")
        scores = evaluate(test.y, proba.argmax(axis=1), proba, n_classes)
        structure = getattr(clf, "structure_", None)
        summary = (structure.summary() if structure is not None else
                   clf.structure_summary() if hasattr(clf, "structure_summary") else "")
        record.update(confusion=scores["confusion"].tolist(), metrics=scores["metrics"],
                      per_class={k: v.tolist() for k, v in scores["per_class"].items()},
                      fit_seconds=t1 - t0, predict_seconds=t2 - t1,
                      structure=summary)
    except Exception as exc:  # noqa: BLE001 - a learner that fails is recorded, the run goes on
        record.update(status="error", error=f"{type(exc).__name__}: {exc}",
                      fit_seconds=0.0, predict_seconds=0.0)
    return record


def run_fold(job: FoldJob) -> list[dict]:
    """Run every classifier of a fold job; return one record per classifier."""
    views = prepare_fold(job)
    records = []
    for spec, task_id in zip(job.classifiers, job.task_ids):
        record = {"dataset": job.dataset.name, "repetition": job.repetition, "fold": job.fold,
                  "classifier": spec.label, "seed": job.seed, "fold_id": job.fold_id,
                  "task_id": task_id}
        record.update(_run_classifier(spec, views, job))
        records.append(record)
    return records


# -------------------------------------------------------------------- the run
@dataclass
class Task:
    dataset: str
    repetition: int
    fold: int
    classifier: str
    task_id: str


@dataclass
class RunResult:
    """What a run did: its directory, task counts, and the records of the experiment."""

    run_dir: Path
    n_tasks: int
    n_skipped: int
    n_run: int
    errors: list[dict] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)
    summary_files: list[Path] = field(default_factory=list)


def _task_id(config: ExperimentConfig, dataset: DatasetSpec, split, clf: ClassifierSpec) -> str:
    ident = config.identity()
    key = {"dataset": [dataset.name, dataset.path, dataset.class_attribute] + (
               [] if dataset.attributes is None else [list(dataset.attributes)]),
           "preprocess": ident["preprocess"], "cv": ident["cv"], "seed": config.seed,
           "repetition": split.repetition, "fold": split.fold, "fold_id": split.fold_id,
           "classifier": [clf.label, clf.learner, clf.params]}
    blob = json.dumps(key, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def plan(config: ExperimentConfig) -> tuple[list[FoldJob], dict[str, list[str]]]:
    """All fold jobs of the experiment, and the task ids per data set.

    Loads every data set; any that cannot be used is reported, with every
    other such problem, as one :class:`ConfigError` naming ``datasets[i]``.
    """
    problems, jobs, tasks = [], [], {}
    per_class = _per_class_metrics(config)
    for i, spec in enumerate(config.datasets):
        try:
            imputed, _ = load_prepared(spec, config.preprocess, config.seed)
            for key, (metric, cls) in per_class.items():
                if cls not in imputed.class_names:
                    problems.append((key, f"'{metric}': '{cls}' is not a class of {spec.name} "
                                          f"(its classes: {', '.join(imputed.class_names)})"))
            splits = [s for rep in range(config.cv.n_repetitions)
                      for s in make_splits(imputed.y, config.cv, seed=config.seed,
                                           dataset=spec.name, repetition=rep)]
        except ConfigError as exc:
            problems += [(k or f"datasets[{i}]", m) for k, m in exc.problems]
            continue
        except BayesbenchError as exc:
            problems.append((f"datasets[{i}]", str(exc)))
            continue
        tasks[spec.name] = []
        for split in splits:
            ids = tuple(_task_id(config, spec, split, c) for c in config.classifiers)
            tasks[spec.name] += ids
            jobs.append(FoldJob(spec, config.preprocess, config.seed, split.repetition,
                                split.fold, split.fold_id, split.train, split.test,
                                tuple(config.classifiers), ids))
    if problems:
        raise ConfigError(problems, path=config.source)
    return jobs, tasks


def _per_class_metrics(config: ExperimentConfig) -> dict:
    """Key path -> (metric, class) of every per-class metric the config names."""
    from .metrics import per_class_metric

    named = [(f"metrics[{j}]", m) for j, m in enumerate(config.metrics)]
    if config.compare.metric is not None:
        named.append(("compare.metric", config.compare.metric))
    return {key: (m, per_class_metric(m)[1]) for key, m in named if per_class_metric(m)}


def _choose_dir(config: ExperimentConfig, resume: bool, force: bool) -> tuple[Path, bool]:
    """The directory to write and whether it already holds this experiment."""
    import yaml

    run_dir = config.run_dir
    stored = run_dir / "config.yaml"
    if not stored.exists():
        return run_dir, False
    try:
        previous = yaml.safe_load(stored.read_text())
        same = {k: previous.get(k) for k in config.identity()} == _plain(config.identity())
    except (yaml.YAMLError, AttributeError, OSError):
        same = False
    if force:
        n = 2
        while Path(f"{run_dir}-{n}").exists():
            n += 1
        return Path(f"{run_dir}-{n}"), False
    if same or resume:
        return run_dir, True
    raise ResultStoreError(
        f"{run_dir} holds results of a different configuration; use --resume to continue it "
        "with this configuration (finished tasks that still match are kept) or --force to "
        "write into a new directory")


def _plain(obj):
    return json.loads(json.dumps(obj))


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
    # A kill mid-write must not leave a half file that makes the next run refuse the directory.
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _write_json(path: Path, obj) -> None:
    _write_atomic(path, json.dumps(obj, indent=2, default=str) + "\n")


def run_experiment(config: ExperimentConfig, *, output=None, jobs: int | None = None,
                   scheduler=None, resume: bool = False, force: bool = False,
                   formats=None, quiet: bool = False, stream=None,
                   command: list[str] | None = None) -> RunResult:
    """Run (or resume) an experiment and write its result directory.

    Arguments override the config keys of the same meaning (``output``,
    ``jobs``, ``scheduler`` (an address or a ``distributed.Client``),
    ``formats``). Finished tasks already in the directory are skipped. Raises
    :class:`ConfigError` for unusable data sets before anything is written, and
    :class:`ResultStoreError` when the directory is locked by another run or
    holds a different configuration (unless ``resume`` or ``force``).
    """
    import yaml

    from .executors import execute
    from .progress import Progress
    from .summary import write_summary

    if resume and force:
        raise BayesbenchError("--resume and --force exclude each other")
    config = replace(config, output=str(output) if output is not None else config.output,
                     jobs=jobs or config.jobs,
                     scheduler=scheduler if scheduler is not None else config.scheduler,
                     formats=list(formats) if formats else config.formats)
    fold_jobs, tasks = plan(config)
    run_dir, existing = _choose_dir(config, resume, force)
    run_dir.mkdir(parents=True, exist_ok=True)
    with RunLock(run_dir):
        (run_dir / "summary").mkdir(exist_ok=True)
        resolved = config.to_dict()
        resolved["output"] = str(run_dir)
        if not isinstance(config.scheduler, (str, type(None))):
            resolved["scheduler"] = "client"
        _write_atomic(run_dir / "config.yaml", yaml.safe_dump(resolved, sort_keys=False))
        _write_atomic(run_dir / TASKS, "".join(f"{t}\n" for ids in tasks.values() for t in ids))
        env_path = run_dir / "environment.json"
        env, session = _open_session(env_path, config, existing, command)

        dropped = repair(run_dir)
        wanted = {t for ids in tasks.values() for t in ids}
        done = {r["task_id"] for r in read_records(run_dir) if r.get("task_id") in wanted}
        todo = _pending(fold_jobs, done)
        progress = Progress({d: len(ids) for d, ids in tasks.items()},
                            {d: sum(t in done for t in ids) for d, ids in tasks.items()},
                            stream=stream, quiet=quiet)
        if dropped and not quiet:
            print(f"{run_dir}: {dropped} damaged record(s) dropped; their tasks run again",
                  file=progress.stream)
        if done and not quiet:
            print(f"{run_dir}: {len(done)} of {len(wanted)} tasks already done; running the rest",
                  file=progress.stream)
        n_run = 0
        try:
            with RecordWriter(run_dir) as writer:
                for _, records in execute(run_fold, todo, jobs=config.jobs,
                                          scheduler=config.scheduler):
                    for record in records:
                        writer.append(record)
                    n_run += len(records)
                    progress.update(records[0]["dataset"], len(records),
                                    sum(r["status"] != "ok" for r in records))
        except KeyboardInterrupt:
            # The session says how it ended, so environment.json does not show a run in progress.
            session.update(end=_now(), tasks_run=n_run, interrupted=True)
            _write_json(env_path, env)
            raise
        finally:
            progress.close()
        final = _current_records(run_dir, wanted)
        files = write_summary(run_dir / "summary", config, final, config.formats)
        session["end"] = _now()
        session["tasks_run"] = n_run
        _write_json(env_path, env)
    return RunResult(run_dir=run_dir, n_tasks=len(wanted), n_skipped=len(done), n_run=n_run,
                     errors=[r for r in final if r["status"] != "ok"], records=final,
                     summary_files=files)


def run_config(config: ExperimentConfig, *, output=None, repeats: int | None = None,
               datasets=None, **kwargs) -> list[RunResult]:
    """Run an experiment, or each of its arms, and return one result per run.

    ``output``, ``repeats`` and ``datasets`` override the config (see
    :func:`bayesbench.config.override`); the other arguments go to
    :func:`run_experiment`. Every arm is planned before any runs, so a data
    problem in one arm stops all of them before anything is written. With arms,
    ``<output>/comparison.*`` compares the classifiers of all arms (labels
    ``<arm>/<classifier>``) as the config's ``compare`` asks.
    """
    from ..config import override

    config = override(config, repeats=repeats, datasets=datasets, output=output)
    runs = config.runs()
    if len(runs) > 1:
        for run in runs:
            plan(run)
    results = [run_experiment(run, **kwargs) for run in runs]
    if config.arms:
        _compare_arms(config, results, kwargs.get("formats") or config.formats)
    return results


def _compare_arms(config: ExperimentConfig, results: list[RunResult], formats) -> list[Path]:
    from .store import records_frame
    from .summary import write_comparison

    frame = records_frame([r.run_dir for r in results], failed=True)
    wanted = {r["task_id"] for result in results for r in result.records}
    frame = frame[frame["task_id"].isin(wanted)] if len(frame) else frame
    baseline = config.compare.baseline
    if baseline is not None and "/" not in baseline:
        baseline = f"{results[0].run_dir.name}/{baseline}"
    return write_comparison(results[0].run_dir.parent, frame, config, formats, baseline)


def _open_session(env_path: Path, config: ExperimentConfig, existing: bool, command):
    """The environment record with a new session (this invocation) appended, written."""
    from .executors import describe

    env = json.loads(env_path.read_text()) if existing and env_path.exists() else {
        "seed": config.seed, "sessions": []}
    session = {"start": _now(), "end": None, "command": command or sys.argv,
               "cwd": os.getcwd(), "host": socket.gethostname(),
               "platform": platform.platform(), "cpus": os.cpu_count(),
               "executor": describe(config.jobs, config.scheduler),
               "versions": _versions(config.scheduler),
               "data_sha256": {d.name: _sha256(d.path) for d in config.datasets}}
    if config.missing:
        session["skipped_datasets"] = dict(config.missing)
    env["sessions"].append(session)
    env.update(seed=config.seed, bayesbench=session["versions"]["bayesbench"])
    _write_json(env_path, env)
    return env, session


def _pending(fold_jobs: list[FoldJob], done: set[str]) -> list[FoldJob]:
    """The fold jobs restricted to their unfinished classifiers; empty ones dropped."""
    todo = []
    for job in fold_jobs:
        keep = [i for i, t in enumerate(job.task_ids) if t not in done]
        if keep:
            todo.append(replace(job, classifiers=tuple(job.classifiers[i] for i in keep),
                                task_ids=tuple(job.task_ids[i] for i in keep)))
    return todo


def _current_records(run_dir: Path, wanted: set[str]) -> list[dict]:
    """The records of this configuration's tasks, one per task (the first written).

    Sorted, so that summaries do not depend on the order in which tasks
    finished (floating-point sums depend on the order of their terms).
    """
    seen, out = set(), []
    for record in read_records(run_dir):
        tid = record.get("task_id")
        if tid in wanted and tid not in seen:
            seen.add(tid)
            out.append(record)
    return stable_order(out)


def without_timings(record: dict) -> dict:
    """A record minus the fields that vary between identical runs (timings, checksum)."""
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS and k != "checksum"}


def stable_order(records: list[dict]) -> list[dict]:
    """Records sorted by (data set, repetition, fold, classifier)."""
    return sorted(records, key=lambda r: (r["dataset"], r["repetition"], r["fold"],
                                          r["classifier"]))


__all__ = ["FoldJob", "RunResult", "plan", "run_config", "run_experiment", "run_fold",
           "stable_order", "task_seed", "without_timings"]
