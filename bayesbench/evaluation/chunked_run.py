"""Cross-validation of a chunked data set (:mod:`bayesbench.data.chunks`) in two passes.

No step holds all rows. Fold membership is a seeded hash of the global row index
(:func:`~bayesbench.data.fold_assignment.hashed_folds`; not stratified). Then:

1. **count**: one task per file counts each fold's test rows, chunk by chunk, into
   :class:`~bayesbench.models.core.sufficient.Statistics` (``Statistics + Statistics``); only
   these counts travel back. Their sum is the data set's; each fold's model is
   ``fit_statistics(total - fold)``, fitted in the calling process.
2. **score**: one task per file predicts each chunk's rows with their fold's model and
   accumulates the fold's confusion matrix and the sums of the log losses and Brier
   scores (:class:`Tally`); the tallies of the files add up.

The records have the fields of an in-memory run's, but the metrics that a sum over
chunks cannot give exactly (:data:`NOT_CHUNKED`: ``auc_ovr`` ranks every test row, and
the model scores read the training rows; the scores held on request are not made) are left out; the config check refuses them,
and classifiers without ``fit_statistics``, for a chunked data set.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..data.chunks import CHUNK_ROWS, ChunkedSource, chunks
from ..data.fold_assignment import fold_rng, hashed_folds
from ..models.registry import classifier_class, make_classifier
from ..models.core.sufficient import Statistics, fits_from_chunks
from ..spec import ClassifierSpec, DatasetSpec
from .adapter import aligned_proba
from .seeding import seed_task
from .metrics import (MODEL_SCORES, REQUESTED_SCORES, brier_losses, confusion_scores,
                      log_losses)

#: The metrics a chunked run leaves out of its records (and the config check refuses).
NOT_CHUNKED = ("auc_ovr", *MODEL_SCORES, *REQUESTED_SCORES)
# The stream of the fold hash's salt (prepare.py numbers the fold's other streams 1 to 5).
FOLD_HASH_STREAM = 6


@dataclass(frozen=True)
class HashedFold:
    """One fold of a repetition dealt by :func:`~bayesbench.data.fold_assignment.hashed_folds`: what a
    task id reads of a split (its rows are known only by reading the files)."""

    repetition: int
    fold: int
    seed: int
    folds: int

    @property
    def fold_id(self) -> str:
        text = f"hashed:{self.seed}:{self.folds}:{self.repetition}:{self.fold}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ChunkedJob:
    """The cross-validation of one chunked data set: ``cells`` are its tasks still to run,
    as ``(repetition, fold, classifier index, task id)``."""

    dataset: DatasetSpec
    source: ChunkedSource
    seed: int
    folds: int
    repetitions: int
    classifiers: tuple[ClassifierSpec, ...]
    cells: tuple[tuple[int, int, int, str], ...]

    def pending(self, done) -> ChunkedJob | None:
        """The job restricted to the tasks not in ``done`` (None: none left)."""
        cells = tuple(c for c in self.cells if c[3] not in done)
        return replace(self, cells=cells) if cells else None


@dataclass(frozen=True)
class FileTask:
    """One file of a chunked job, for a worker: counted (no ``models``) or scored."""

    source: ChunkedSource
    index: int
    seed: int
    folds: int
    repetitions: int
    models: dict = field(default_factory=dict)
    chunk_rows: int = CHUNK_ROWS


def _dealt(task: FileTask, start: int, n: int) -> list[np.ndarray]:
    """The fold of rows ``start .. start + n - 1`` in each repetition."""
    rows = np.arange(start, start + n)
    return [hashed_folds(rows, task.folds, fold_rng(task.seed, task.source.name, rep,
                                                    FOLD_HASH_STREAM))
            for rep in range(task.repetitions)]


def count_file(task: FileTask) -> list[list[Statistics]]:
    """Pass 1 on one file: the statistics of each fold's rows in it, ``[repetition][fold]``."""
    s = task.source
    out = [[Statistics.empty(s.cardinalities, s.n_classes, s.attribute_names)
            for _ in range(task.folds)] for _ in range(task.repetitions)]
    for start, X, y in chunks(s, task.index, task.chunk_rows):
        for rep, fold_of in enumerate(_dealt(task, start, y.size)):
            for f in range(task.folds):
                rows = fold_of == f
                out[rep][f] = out[rep][f] + Statistics.from_codes(
                    X[rows], y[rows], s.cardinalities, s.n_classes, s.attribute_names)
    return out


#: The exponent of the unit of :class:`ExactSum`: below the least subnormal's last bit.
_UNIT = -1126


@dataclass(frozen=True)
class ExactSum:
    """A sum of floats held exactly, as an integer number of units of ``2 ** -1126`` (and
    the plain sum of any infinite or NaN terms): however the terms are grouped into files
    and chunks, and in whatever order the groups are added, :attr:`value` is the same (the
    exactly rounded sum), so the records of a chunked run do not depend on its files."""

    units: int = 0
    special: float = 0.0

    @classmethod
    def of(cls, values: np.ndarray) -> ExactSum:
        """The sum of ``values`` (float64): each is ``mantissa * 2 ** exponent`` with a
        53-bit integer mantissa, split in two 27-bit halves whose sums per exponent are
        exact in float64 for fewer than 2 ** 26 terms."""
        values = np.asarray(values, dtype=np.float64).ravel()
        finite = np.isfinite(values)
        special = float(values[~finite].sum()) if not finite.all() else 0.0
        mantissa, exponent = np.frexp(values[finite])
        ints = (mantissa * 2.0 ** 53).astype(np.int64)
        exps, at = np.unique(exponent - 53 - _UNIT, return_inverse=True)
        high = np.bincount(at, weights=ints >> 27, minlength=exps.size)
        low = np.bincount(at, weights=ints & ((1 << 27) - 1), minlength=exps.size)
        units = sum(((int(h) << 27) + int(lo)) << int(e) for h, lo, e in zip(high, low, exps))
        return cls(units, special)

    def __add__(self, other: ExactSum) -> ExactSum:
        return ExactSum(self.units + other.units, self.special + other.special)

    @property
    def value(self) -> float:
        from fractions import Fraction  # lazy: keeps `bayesbench --help` fast

        return float(Fraction(self.units, 1 << -_UNIT)) + self.special


@dataclass
class Tally:
    """What pass 2 adds up for one task: the test rows' confusion matrix, the sums of their
    log losses and Brier scores (exact), prediction time, and the first error (if any)."""

    confusion: np.ndarray
    log_loss: ExactSum = ExactSum()
    brier: ExactSum = ExactSum()
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    error: str | None = None

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.confusion + other.confusion, self.log_loss + other.log_loss,
                     self.brier + other.brier, self.seconds + other.seconds,
                     self.cpu_seconds + other.cpu_seconds, self.error or other.error)


def _predict_into(tally: Tally, model, X: np.ndarray, y: np.ndarray, names) -> None:
    import pandas as pd  # lazy: keeps `bayesbench --help` fast

    cpu, t0 = time.thread_time(), time.perf_counter()
    k = tally.confusion.shape[0]
    proba = aligned_proba(model, pd.DataFrame(X, columns=list(names)), k)
    labels = proba.argmax(axis=1)  # bayesbench's learners predict the most probable class
    tally.seconds += time.perf_counter() - t0
    tally.cpu_seconds += time.thread_time() - cpu
    tally.confusion += np.bincount(y * k + labels, minlength=k * k).reshape(k, k)
    tally.log_loss = tally.log_loss + ExactSum.of(log_losses(y, proba))
    tally.brier = tally.brier + ExactSum.of(brier_losses(y, proba))


def score_file(task: FileTask) -> dict:
    """Pass 2 on one file: a :class:`Tally` per key ``(repetition, fold, classifier index)``
    of ``task.models``, from the rows of that fold in the file."""
    s = task.source
    tallies = {key: Tally(np.zeros((s.n_classes, s.n_classes), dtype=np.int64))
               for key in task.models}
    for start, X, y in chunks(s, task.index, task.chunk_rows):
        dealt = _dealt(task, start, y.size)
        for (rep, fold, ci), model in task.models.items():
            rows = dealt[rep] == fold
            tally = tallies[(rep, fold, ci)]
            if tally.error is None and rows.any():
                try:
                    _predict_into(tally, model, X[rows], y[rows], s.attribute_names)
                except Exception as exc:  # noqa: BLE001 - a learner that fails is recorded
                    tally.error = f"{type(exc).__name__}: {exc}"
    return tallies


@dataclass(frozen=True)
class Fitted:
    """A fold's model fitted from its training statistics, or why it could not be."""

    model: object | None
    seconds: float
    cpu_seconds: float
    error: str | None = None


def training_rows(job: ChunkedJob, repetition: int, fold: int):
    """A function returning a fresh iterator over the chunks ``(X, y)`` of the training
    rows of ``fold`` in ``repetition`` (every file's rows dealt to another fold), for the
    learners that fit in passes over the rows (``fit_chunks``)."""
    def read():
        for task in _tasks(job):
            salt = fold_rng(task.seed, task.source.name, repetition, FOLD_HASH_STREAM)
            for start, X, y in chunks(task.source, task.index, task.chunk_rows):
                keep = hashed_folds(np.arange(start, start + y.size), task.folds, salt) != fold
                yield X[keep], y[keep]
    return read


def fit_fold(spec: ClassifierSpec, params: dict, train: Statistics, read=None) -> Fitted:
    """``spec``'s classifier with ``params`` fitted by ``fit_chunks(train, read)`` when it
    has it (passes over the training rows ``read()`` yields, in this process), else
    ``fit_statistics(train)``."""
    cpu, t0 = time.thread_time(), time.perf_counter()
    try:
        model = make_classifier(spec.learner, **params)
        model = (model.fit_chunks(train, read) if fits_from_chunks(model)
                 else model.fit_statistics(train))
    except Exception as exc:  # noqa: BLE001 - a learner that fails is recorded, the run goes on
        return Fitted(None, 0.0, 0.0, f"{type(exc).__name__}: {exc}")
    return Fitted(model, time.perf_counter() - t0, time.thread_time() - cpu)


def _tasks(job: ChunkedJob, models: dict | None = None) -> list[FileTask]:
    return [FileTask(job.source, i, job.seed, job.folds, job.repetitions, models or {})
            for i in range(len(job.source.files))]


def fold_statistics(job: ChunkedJob, run_on) -> list[list[Statistics]]:
    """Pass 1: each fold's statistics ``[repetition][fold]``, the files counted by
    ``run_on(count_file, tasks)`` (an executor) and added as they arrive."""
    folds = None
    for _, counts in run_on(count_file, _tasks(job)):
        folds = counts if folds is None else [[a + b for a, b in zip(mine, theirs)]
                                              for mine, theirs in zip(folds, counts)]
    return folds


def fold_tallies(job: ChunkedJob, models: dict, run_on) -> dict:
    """Pass 2: the :class:`Tally` of every model of ``models`` over all the files, added in
    file order whatever order they finish in (float sums depend on the order)."""
    per_file = dict(run_on(score_file, _tasks(job, models)))
    out = {}
    for i in sorted(per_file):
        out = {key: out[key] + t if key in out else t for key, t in per_file[i].items()}
    return out


def _params(job: ChunkedJob, rep: int, fold: int, ci: int) -> dict:
    """A task's parameters: the config's, and the task's seed for a stochastic learner."""
    spec = job.classifiers[ci]
    params = dict(spec.params)
    # the config check made every chunked learner: its class imports
    seed_task(classifier_class(spec.learner), params, job.seed, job.dataset.name, rep, fold)
    return params


def _record(job: ChunkedJob, cell, params: dict, fitted: Fitted, tally: Tally | None,
            train: Statistics, test: Statistics) -> dict:
    rep, fold, ci, tid = cell
    spec = job.classifiers[ci]
    record = {"dataset": job.dataset.name, "repetition": rep, "fold": fold,
              "classifier": spec.label, "seed": job.seed,
              "fold_id": HashedFold(rep, fold, job.seed, job.folds).fold_id, "task_id": tid,
              "learner": spec.learner, "params": params, "status": "ok",
              "n_train": train.n_rows, "n_test": test.n_rows}
    if spec.input is not None:
        record["input"] = spec.input
    error = fitted.error or (tally.error if tally is not None else "no test rows")
    if error is not None:
        record.update(status="error", error=error, fit_seconds=0.0, predict_seconds=0.0)
        return record
    metrics, per_class = confusion_scores(tally.confusion)
    n = max(test.n_rows, 1)
    metrics.update(log_loss=tally.log_loss.value / n, brier=tally.brier.value / n,
                   cpu_seconds=fitted.cpu_seconds + tally.cpu_seconds)
    record.update(classes=list(job.source.class_names), confusion=tally.confusion.tolist(),
                  metrics=metrics, per_class={k: v.tolist() for k, v in per_class.items()},
                  fit_seconds=fitted.seconds, predict_seconds=tally.seconds)
    return record


def run_chunked(job: ChunkedJob, run_on):
    """Yield ``(record, model)`` for every task of ``job`` (the model None if it failed;
    the caller describes its structure), the files' passes run by ``run_on(fn, tasks)``
    (an executor yielding ``(index, result)``; see :mod:`.executors`)."""
    folds = fold_statistics(job, run_on)
    totals = [sum(per_rep[1:], per_rep[0]) for per_rep in folds]
    # Each training part's counts once, for all the classifiers of its fold and its records.
    train = {(rep, fold): totals[rep] - folds[rep][fold] for rep, fold, _, _ in job.cells}
    params = {(rep, fold, ci): _params(job, rep, fold, ci) for rep, fold, ci, _ in job.cells}
    fitted = {(rep, fold, ci): fit_fold(job.classifiers[ci], params[rep, fold, ci],
                                        train[rep, fold], training_rows(job, rep, fold))
              for rep, fold, ci, _ in job.cells}
    models = {key: f.model for key, f in fitted.items() if f.model is not None}
    tallies = fold_tallies(job, models, run_on)
    for cell in job.cells:
        rep, fold, ci, _ = cell
        record = _record(job, cell, params[cell[:3]], fitted[cell[:3]], tallies.get(cell[:3]),
                         train[rep, fold], folds[rep][fold])
        yield record, fitted[cell[:3]].model if record["status"] == "ok" else None
