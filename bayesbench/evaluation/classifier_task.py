"""One task: fit and score one classifier on one prepared fold, as the fields of its record.

A learner that fails is recorded as a failed task (the record's ``status`` and ``error``),
and the run goes on.
"""
from __future__ import annotations

import time

import numpy as np

from ..data.encode import encode, feature_names, used_attributes
from ..data.fold_assignment import fold_rng
from ..models.core.base import BaseClassifier
from ..models.core.sufficient import fits_from_statistics
from ..models.pipeline import Steps, make_model
from ..models.registry import classifier_class, default_input, make_classifier
from ..spec import ClassifierSpec
from .adapter import FitContext, fit_predict
from .fitted import NETWORKS, model_scores, network, network_files, structure_text
from .metrics import REQUESTED_SCORES, evaluate
from .plan import FoldJob
from .predictions import FIELD as PREDICTIONS, kept
from .prepare import TUNE_STREAM
from .provenance import is_foreign, model_provenance
from .seeding import seed_task
from .tune import tune

__all__ = ["VIEW_OF", "run_classifier"]


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
        if kind != "frame":  # a frame keeps its categorical columns (kernel_nb's nominal ones)
            X_train = None if X_train is None else np.asfortranarray(X_train)
            X_test = np.asfortranarray(X_test)
    record.update(n_train=int(n_train), n_test=int(test.n_rows),
                  classes=list(train.class_names))
    used = used_attributes(train, kind)
    if len(used) < train.n_attributes:
        record.update(attributes=used, n_attributes=train.n_attributes)
    return train, test, X_train, X_test, names


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
        outcome = fit_predict(clf, X_train, y_train, X_test,
                              FitContext(train.n_classes, cards, names), statistics=counted)
        record.update(_scores(outcome, test, job.requested), structure=structure_text(clf))
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
        texts = network_files(clf, train, networks, views, job.preprocess)
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


def _tuned(spec: ClassifierSpec, params: dict, X_train, train, cards, job, record) -> dict:
    """The values ``spec.tune`` chooses on the training part (kept in ``record``)."""
    t0 = time.perf_counter()
    rng = fold_rng(job.seed, job.dataset.name, job.repetition, job.fold, TUNE_STREAM)
    tuned = tune(lambda **c: make_model(spec.learner, {**params, **c}, spec.steps),
                 spec.tune, X_train, train.y, FitContext(train.n_classes, cards), rng)
    record.update(tuned=tuned.params, tune_scores=list(tuned.scores),
                  tune_seconds=time.perf_counter() - t0)
    return tuned.params
