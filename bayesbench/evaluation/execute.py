"""Per-fold execution: fit and score every classifier of a fold job, one record each.

A worker only computes; the calling process receives the records as folds finish
and hands each one to the result directory, so a record is never written twice or
interleaved. A learner that fails is recorded as a failed task and the run goes on.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..data.folds import fold_rng
from ..errors import BayesbenchError
from ..models.registry import make_classifier
from ..spec import ClassifierSpec, RunOptions
from .executors import execute as map_jobs
from .metrics import evaluate
from .plan import FoldJob, Plan
from .prepare import CLASSIFIER_STREAM, prepare_fold
from .progress import Progress

def task_seed(seed: int, dataset: str, repetition: int, fold: int) -> int:
    """The ``random_state`` given to a classifier whose own is left None."""
    return int(fold_rng(seed, dataset, repetition, fold, CLASSIFIER_STREAM).integers(2 ** 31 - 1))


def _matrices(kind: str, train, test):
    # Named columns, so that learned structures in the records read with attribute names.
    if kind == "continuous":
        names = [a.name for a in train.attributes if not a.is_nominal]
        if not names:
            raise BayesbenchError("the data set has no numeric attributes for a continuous learner")
        return (pd.DataFrame(train.numeric_matrix(), columns=names),
                pd.DataFrame(test.numeric_matrix(), columns=names), {})
    names = train.attribute_names
    return (pd.DataFrame(train.codes(), columns=names), pd.DataFrame(test.codes(), columns=names),
            {"cardinalities": train.cardinalities})


def _fit_and_score(clf, train, test, matrices) -> dict:
    """The record fields of ``clf`` fitted on ``train`` and scored on ``test`` (whose
    ``matrices`` the learner reads)."""
    X_train, X_test, extra = matrices
    n_classes = train.n_classes
    cpu, t0 = time.thread_time(), time.perf_counter()
    clf.fit(X_train, train.y, n_classes=n_classes, **extra)
    t1 = time.perf_counter()
    proba = np.asarray(clf.predict_proba(X_test), dtype=np.float64)
    t2 = time.perf_counter()
    # This thread's CPU time: other tasks running in threads of the same worker do not count.
    cpu = time.thread_time() - cpu
    if proba.shape != (test.n_rows, n_classes) or not np.isfinite(proba).all():
        raise BayesbenchError(f"predict_proba returned an unusable array of shape "
                              f"{proba.shape} (non-finite values or wrong shape)")
    scores = evaluate(test.y, proba.argmax(axis=1), proba, n_classes)
    structure = getattr(clf, "structure_", None)
    summary = (structure.summary() if structure is not None else
               clf.structure_summary() if hasattr(clf, "structure_summary") else "")
    return {"confusion": scores["confusion"].tolist(),
            "metrics": {**scores["metrics"], "cpu_seconds": cpu},
            "per_class": {k: v.tolist() for k, v in scores["per_class"].items()},
            "fit_seconds": t1 - t0, "predict_seconds": t2 - t1, "structure": summary,
            "network": network(structure, train.target.name)}


def network(structure, class_name: str):
    """A learned structure as record data (``class``, ``attributes``, ``nodes`` as
    ``[attributes, parents]`` index lists), or None when there is none to draw: no
    structure, or plain naive Bayes over every attribute (naive Bayes, AODE)."""
    if structure is None or (not structure.arcs() and not structure.dropped
                             and all(len(n.attributes) == 1 for n in structure.nodes)):
        return None
    return {"class": class_name, "attributes": list(structure.names()),
            "nodes": [[list(n.attributes), list(n.parents)] for n in structure.nodes]}


def run_classifier(spec: ClassifierSpec, views, job: FoldJob) -> dict:
    """The outcome fields of one task's record: parameters, sizes, classes, scores."""
    params = dict(spec.params)
    defaults = make_classifier(spec.learner).get_params()
    if "random_state" in defaults and params.get("random_state") is None:
        params["random_state"] = task_seed(job.seed, job.dataset.name, job.repetition, job.fold)
    record = {"learner": spec.learner, "params": params, "status": "ok",
              "n_train": int(job.train.size), "n_test": int(job.test.size)}
    try:
        clf = make_classifier(spec.learner, **params)
        kind = getattr(clf, "input_kind", "discrete")
        train, test = views[kind]()
        matrices = _matrices(kind, train, test)
        record.update(n_train=int(train.n_rows), n_test=int(test.n_rows),
                      classes=list(train.class_names))
        fitted = _fit_and_score(clf, train, test, matrices)
        learned = fitted.pop("network")
        record.update(fitted)
        # The first fold's network is kept for the run's drawing of it (docs/results.md); the
        # other folds' would make every record as long as the data set is wide.
        if learned is not None and (job.repetition, job.fold) == (0, 0):
            record["network"] = learned
    except Exception as exc:  # noqa: BLE001 - a learner that fails is recorded, the run goes on
        record.update(status="error", error=f"{type(exc).__name__}: {exc}",
                      fit_seconds=0.0, predict_seconds=0.0)
    return record


def run_fold(job: FoldJob) -> list[dict]:
    """Run every classifier of a fold job; return one record per classifier."""
    views = prepare_fold(job)
    records = []
    for spec, tid in zip(job.classifiers, job.task_ids):
        record = {"dataset": job.dataset.name, "repetition": job.repetition, "fold": job.fold,
                  "classifier": spec.label, "seed": job.seed, "fold_id": job.fold_id,
                  "task_id": tid}
        record.update(run_classifier(spec, views, job))
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
        if run.dropped and not options.quiet:
            print(f"{run.path}: {run.dropped} damaged record(s) dropped; their tasks run again",
                  file=progress.stream)
        if done and not options.quiet:
            print(f"{run.path}: {len(done)} of {sum(totals.values())} tasks already done; "
                  f"running the rest", file=progress.stream)
        for _, records in map_jobs(run_fold, todo, jobs=options.jobs, scheduler=options.scheduler):
            new += [run.keep(record) for record in records]
            progress.update(records[0]["dataset"], len(records),
                            sum(r["status"] != "ok" for r in records))
    return new
