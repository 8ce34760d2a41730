"""Per-fold execution: fit and score every classifier of a fold job, one record each.

A worker only computes; the calling process receives the records as folds finish
and hands each one to the result directory, so a record is never written twice or
interleaved. A learner that fails is recorded as a failed task and the run goes on.
"""
from __future__ import annotations

import time
from dataclasses import replace
from functools import partial

import numpy as np

from ..data.encode import encode, feature_names, used_attributes
from ..data.fold_assignment import fold_rng
from ..models.core.base import BaseClassifier
from ..measures.codes import TableTooLarge, table_limit
from ..errors import ClassifierError
from ..models.core.export import NETWORK_FORMATS
from ..models.pipeline import Steps, make_model
from ..models.registry import classifier_class, default_input, make_classifier
from ..models.core.sufficient import fits_from_statistics
from ..spec import ClassifierSpec, RunOptions
from .adapter import fit_predict
from .chunked_run import ChunkedJob, run_chunked
from .executors import execute as map_jobs
from .metrics import REQUESTED_SCORES, evaluate
from .plan import FoldJob, Plan
from .predictions import FIELD as PREDICTIONS, kept
from .prepare import (TUNE_STREAM, counts_subtract, prepare_fold,
                      with_total_statistics)
from .progress import Progress
from .provenance import is_foreign, model_provenance
from .seeding import seed_task
from .tune import tune


# Which prepared view of a fold each input kind reads: codes need nominal attributes.
VIEW_OF = {"codes": "discrete", "onehot": "continuous", "numeric": "continuous",
           "frame": "continuous"}


def _scores(outcome, test, requested=()) -> dict:
    """The record fields of an outcome on the test part ``test``, with the scores of
    :data:`~.metrics.REQUESTED_SCORES` only when ``requested`` names them."""
    scores = evaluate(test.y, outcome.labels, outcome.proba, test.n_classes)
    metrics = {k: v for k, v in scores["metrics"].items()
               if k not in REQUESTED_SCORES or k in requested}
    out = {"confusion": scores["confusion"].tolist(),
           "metrics": {**metrics, "cpu_seconds": outcome.cpu_seconds},
           "per_class": {k: v.tolist() for k, v in scores["per_class"].items()},
           "fit_seconds": outcome.fit_seconds, "predict_seconds": outcome.predict_seconds}
    if outcome.proba is None:
        out["probabilities"] = False  # the probability metrics were not computed
    if outcome.warnings:
        out["warnings"] = list(outcome.warnings)
    return out


def model_scores(clf, X, y) -> dict:
    """The :data:`~.metrics.MODEL_SCORES` of a fitted model on its training rows; those it
    does not define (no ``model_scores`` method, or a likelihood under attribute weights)
    are left out, so that tables show them empty rather than as a number."""
    if not callable(getattr(clf, "model_scores", None)):
        return {}
    s = clf.model_scores(X, y)
    values = {"loglik": s.log_likelihood, "cll": s.conditional_log_likelihood,
              "n_parameters": float(s.n_free_parameters), "aic": s.aic, "bic": s.bic}
    return {k: v for k, v in values.items() if v is not None}


def network(clf, class_name: str):
    """A learned structure as record data (``class``, ``attributes``, ``nodes`` as
    ``[attributes, parents]`` index lists; a general network's also ``augmented: false``,
    the ``class_children`` node indices and the ``class_parents`` attribute indices), or
    None when there is none to draw: no ``structure_``, or plain naive Bayes over every
    attribute (naive Bayes, AODE, ``bayesnet``'s default)."""
    structure = getattr(clf, "structure_", None)
    if not hasattr(structure, "nodes") or (
            not structure.arcs() and not structure.dropped and not structure.class_parents
            and all(len(n.attributes) == 1 and n.class_parent for n in structure.nodes)):
        return None
    out = {"class": class_name, "attributes": list(structure.names()),
           "nodes": [[list(n.attributes), list(n.parents)] for n in structure.nodes]}
    if not structure.augmented:
        out.update(augmented=False, class_parents=list(structure.class_parents),
                   class_children=[k for k, n in enumerate(structure.nodes) if n.class_parent])
    return out


def _structure(clf) -> str:
    structure = getattr(clf, "structure_", None)
    summary = getattr(clf, "structure_summary", None)
    return (structure.summary() if structure is not None else
            summary() if callable(summary) else "")


def _inputs(cls, kind: str, views, record: dict, rows: bool = True):
    """The fold's training and test data, their matrices for a ``cls`` taking ``kind``
    (without ``rows``, no training matrix: None, and for ``codes`` no training rows either:
    the test part, whose attributes and classes are the same, stands for the training part)
    and the names to fit bayesbench's own learners with (None for others); notes in
    ``record`` the sizes, classes and (when fewer than all) attributes used.

    A ``codes`` matrix is the part's own (:meth:`~bayesbench.data.Dataset.codes`): every
    classifier of the fold is given the same compact codes, with no copy and no DataFrame.
    """
    if rows or kind != "codes":
        train, test = views[VIEW_OF[kind]]()
        n_train = train.n_rows
    else:
        test = train = views["discrete test"]()
        n_train = record["n_train"]
    X_train = encode(train, kind) if rows else None
    X_test = encode(test, kind)
    names = None
    if issubclass(cls, BaseClassifier):
        # bayesbench's learners keep the attribute names (for their structures), and read
        # columns: column-major matrices (the codes already are; the numbers as a
        # DataFrame gave them, so that their sums stay the same to the last bit).
        names = feature_names(train, kind)
        X_train = None if X_train is None else np.asfortranarray(X_train)
        X_test = np.asfortranarray(X_test)
    record.update(n_train=int(n_train), n_test=int(test.n_rows),
                  classes=list(train.class_names))
    used = used_attributes(train, kind)
    if len(used) < train.n_attributes:
        record.update(attributes=used, n_attributes=train.n_attributes)
    return train, test, X_train, X_test, names


# A record's fitted networks on their way to the calling process, which writes them into
# the result directory and drops the field (:meth:`~.rundir.RunDirectory.keep`).
NETWORKS = "_networks"


def network_texts(clf, class_name: str, formats) -> dict:
    """``{format: text}`` of the fitted ``clf``'s Bayesian network in each of ``formats``
    (:data:`~bayesbench.models.core.export.NETWORK_FORMATS`); empty for a model that is no
    one network (AODE, Gaussian, other classes; attribute weights)."""
    if not formats or not callable(getattr(clf, "bayesian_network", None)):
        return {}
    try:
        variables = clf.bayesian_network(class_name)
    except ClassifierError:
        return {}
    return {f: NETWORK_FORMATS[f][1](variables, type(clf).__name__) for f in formats}


def run_classifier(spec: ClassifierSpec, views, job: FoldJob, networks=()) -> dict:
    """The outcome fields of one task's record: parameters, sizes, classes, scores (and,
    for each of the formats ``networks``, the fitted network's text under :data:`NETWORKS`).

    Any failure (the class cannot be imported here, its input cannot be made, it
    raises, it returns unusable predictions) is the task's recorded error.
    """
    params = dict(spec.params)
    record = {"learner": spec.learner, "params": params, "status": "ok",
              "n_train": int(job.train.size), "n_test": int(job.test.size)}
    if spec.input is not None:
        record["input"] = spec.input
    try:
        cls = classifier_class(spec.learner)
        seed_task(cls, params, job.seed, job.dataset.name, job.repetition, job.fold)
        kind = spec.input or default_input(cls, spec.learner)
        counted = _counted(spec, params, kind, views)
        # The model scores read the training rows even when the counts replace them for fitting.
        # A classifier behind steps is fitted as any other class: on arrays, without names.
        train, test, X_train, X_test, names = _inputs(Steps if spec.steps else cls, kind,
                                                      views, record,
                                                      counted is None or job.model_scores)
        cards = train.cardinalities if kind == "codes" else None
        if spec.tune is not None:
            params.update(_tuned(spec, params, X_train, train, cards, job, record))
        clf = make_model(spec.learner, params, spec.steps)
        if is_foreign(cls):
            record["provenance"] = model_provenance(clf.classifier if spec.steps else clf)
        y_train = None if X_train is None else train.y  # no rows: fitted from the counts
        outcome = fit_predict(clf, X_train, y_train, X_test, statistics=counted,
                              n_classes=train.n_classes, cardinalities=cards,
                              feature_names=names)
        record.update(_scores(outcome, test, job.requested), structure=_structure(clf))
        if job.predictions:
            record[PREDICTIONS] = _predictions(job, test, outcome)
        if job.model_scores:
            record["metrics"].update(model_scores(clf, X_train, train.y))
        # Tuning is part of fitting a tuned learner: its cost counts in the timings.
        record["fit_seconds"] += record.get("tune_seconds", 0.0)
        # The first fold's network is kept for the run's drawing of it (docs/results.md); the
        # other folds' would make every record as long as the data set is wide.
        learned = network(clf, train.target.name) if (job.repetition, job.fold) == (0, 0) else None
        if learned is not None:
            record["network"] = learned
        texts = network_texts(clf, train.target.name, networks)
        if texts:  # the calling process writes them (their size is no record's business)
            record[NETWORKS] = texts
    except Exception as exc:  # noqa: BLE001 - a learner that fails is recorded, the run goes on
        record.update(status="error", error=f"{type(exc).__name__}: {exc}",
                      fit_seconds=0.0, predict_seconds=0.0)
    return record


def _predictions(job: FoldJob, test, outcome) -> dict:
    """The task's predictions, each test row named by its index in the data file."""
    if test.n_rows != job.test.size:  # the config refuses what drops test rows (impute: drop)
        raise ValueError(f"{test.n_rows} test rows left of {job.test.size}: their indices "
                         f"in the data file are unknown, so no predictions can be kept")
    return kept(job.test, test.y, outcome.labels, outcome.proba)


def _counted(spec: ClassifierSpec, params: dict, kind: str, views):
    """The training part's statistics when the classifier is fitted from them: it takes codes,
    is not tuned, has ``fit_statistics`` for its parameters, and the fold has them."""
    if kind != "codes" or spec.tune is not None or spec.steps:
        return None
    if not fits_from_statistics(make_classifier(spec.learner, **params)):
        return None
    return views["statistics"]()


def _uses_statistics(job: FoldJob) -> bool:
    """Whether some classifier of ``job`` would be fitted from the fold's statistics."""
    if not counts_subtract(job.preprocess, job.data):
        return False
    for spec in job.classifiers:
        try:
            if spec.tune is None and not spec.steps and fits_from_statistics(make_classifier(spec.learner,
                                                                          **spec.params)):
                return True
        except Exception:  # noqa: BLE001 - a learner that cannot be made fails in its task
            continue
    return False


def with_statistics(jobs: list[FoldJob]) -> list[FoldJob]:
    """``jobs``, each data set's carrying the statistics of all its rows (counted once here,
    shared by its jobs) when some classifier of the job can be fitted from them."""
    totals, out = {}, []
    for job in jobs:
        if _uses_statistics(job):
            key = id(job.data)
            if key not in totals:
                try:
                    totals[key] = with_total_statistics(job.data)
                except TableTooLarge:
                    # All pairs in one table exceed the limit; each fold counts its own pairs.
                    totals[key] = job.data
            job = replace(job, data=totals[key])
        out.append(job)
    return out


def _tuned(spec: ClassifierSpec, params: dict, X_train, train, cards, job, record) -> dict:
    """The values ``spec.tune`` chooses on the training part (kept in ``record``)."""
    t0 = time.perf_counter()
    rng = fold_rng(job.seed, job.dataset.name, job.repetition, job.fold, TUNE_STREAM)
    tuned = tune(lambda **c: make_model(spec.learner, {**params, **c}, spec.steps),
                 spec.tune.params, X_train, train.y, n_classes=train.n_classes,
                 folds=spec.tune.folds, metric=spec.tune.metric, rng=rng, cardinalities=cards)
    record.update(tuned=tuned.params, tune_scores=list(tuned.scores),
                  tune_seconds=time.perf_counter() - t0)
    return tuned.params


def run_fold(job: FoldJob, max_table_cells: int | None = None, networks=()) -> list[dict]:
    """Run every classifier of a fold job; return one record per classifier. A learner
    whose table of counts would exceed ``max_table_cells`` fails (None: the default);
    ``networks``: the formats its fitted network is returned in (:func:`run_classifier`)."""
    with table_limit(max_table_cells):
        return _run_fold(job, networks)


def _run_fold(job: FoldJob, networks=()) -> list[dict]:
    views = prepare_fold(job)
    records = []
    for spec, tid in zip(job.classifiers, job.task_ids):
        record = {"dataset": job.dataset.name, "repetition": job.repetition, "fold": job.fold,
                  "classifier": spec.label, "seed": job.seed, "fold_id": job.fold_id,
                  "task_id": tid}
        if job.train_size is not None:  # absent without a learning curve, as records were
            record["train_size"] = job.train_size
        record.update(run_classifier(spec, views, job, networks))
        records.append(record)
    return records


def execute(work: Plan, run, options: RunOptions) -> list[dict]:
    """Run the tasks of ``work`` that the open result directory ``run`` has not finished,
    on the executor ``options`` chooses; hand each record to ``run.keep`` as its fold
    finishes, reporting progress; return the new records as stored."""
    done = run.done
    todo = work.pending(done)
    totals = {d: len(ids) for d, ids in work.tasks.items()}
    finished = {d: sum(t in done for t in ids) for d, ids in work.tasks.items()}
    new = []
    with Progress(totals, finished, stream=options.stream, quiet=options.quiet) as progress:
        for note in run.notes:  # said even when quiet: they concern the results
            print(f"{run.path}: {note}", file=progress.stream)
        if run.dropped and not options.quiet:
            print(f"{run.path}: {run.dropped} damaged record(s) dropped; their tasks run again",
                  file=progress.stream)
        if done and not options.quiet:
            print(f"{run.path}: {len(done)} of {sum(totals.values())} tasks already done; "
                  f"running the rest", file=progress.stream)
        task = partial(run_fold, max_table_cells=options.max_table_cells,
                       networks=options.save_networks)
        chunked = [job for job in todo if isinstance(job, ChunkedJob)]
        with table_limit(options.max_table_cells):
            todo = with_statistics([job for job in todo if not isinstance(job, ChunkedJob)])
        for _, records in map_jobs(task, todo, jobs=options.jobs, scheduler=options.scheduler,
                                    threads=options.worker_threads):
            new += [run.keep(record) for record in records]
            progress.update(records[0]["dataset"], len(records),
                            sum(r["status"] != "ok" for r in records))
        for job in chunked:
            for record in chunked_records(job, options):
                new.append(run.keep(record))
                progress.update(record["dataset"], 1, int(record["status"] != "ok"))
    return new


def chunked_records(job: ChunkedJob, options: RunOptions):
    """The records of a chunked data set's tasks (:mod:`~bayesbench.config.chunked_checks`), each file's passes run
    on the executor ``options`` chooses, with their models' structures as
    :func:`run_classifier` describes them."""
    def run_on(fn, tasks):
        return map_jobs(fn, tasks, jobs=options.jobs, scheduler=options.scheduler,
                        threads=options.worker_threads)

    with table_limit(options.max_table_cells):
        for record, model in run_chunked(job, run_on):
            if model is not None:
                record["structure"] = _structure(model)
                learned = network(model, job.source.class_name) if (
                    record["repetition"], record["fold"]) == (0, 0) else None
                if learned is not None:
                    record["network"] = learned
            yield record
