"""Cross-validation of a chunked data set (:mod:`bayesbench.data.chunks`) in two passes.

No step holds all rows. Fold membership is a seeded hash of the global row index, or of
each row's rank among its class's rows when the folds are stratified
(:mod:`.chunked_folds`). Then:

1. **count**: one task per file counts each fold's test rows, chunk by chunk, into
   :class:`~bayesbench.models.core.sufficient.Statistics` (``Statistics + Statistics``); only
   these counts travel back. Their sum is the data set's; each fold's model is
   ``fit_statistics(total - fold)``, fitted in the calling process, or ``fit_chunks`` for a
   learner that also counts tables beyond pairs (kDB of ``k >= 2``, A2DE) or fits in passes
   (SKDB): it reads the fold's training rows file by file in the calling process.
2. **score**: one task per file predicts each chunk's rows with their fold's model and
   accumulates the fold's confusion matrix and the sums of the log losses and Brier
   scores (:class:`Tally`), and, when asked, each model's log-likelihoods of its training
   rows; the tallies of the files add up.

With numeric attributes discretized per fold (``preprocess.scope: fold``), a first pass
finds each fold's cut points (:func:`~.chunked_folds.fold_sources`), and the count pass
counts each fold's training rows coded with its own cut points.

The records have the fields of an in-memory run's, but ``auc_ovr`` (:data:`NOT_CHUNKED`:
it ranks every test row, which no sum over chunks gives); the config check refuses it, and
classifiers without ``fit_statistics`` or ``fit_chunks``, for a chunked data set. Every
other metric is a sum over the test rows (``rmse`` from the Brier score's) or, for the model
scores, over the training rows.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace

import numpy as np

from ..data.chunks import CHUNK_ROWS, ChunkedSource, coded
from ..measures.likelihood_scores import aic, bic
from ..models.registry import classifier_class, make_classifier
from ..models.core.sufficient import Statistics
from ..spec import ClassifierSpec, DatasetSpec
from .adapter import aligned_proba
from .chunked_folds import Dealing, dealt_chunks, fold_sources
from .seeding import seed_task
from .metrics import brier_losses, confusion_scores, log_losses, rmse_of_brier

#: The metrics a chunked run leaves out of its records (and the config check refuses).
NOT_CHUNKED = ("auc_ovr",)


@dataclass(frozen=True)
class HashedFold:
    """One fold of a repetition dealt by :class:`~.chunked_folds.Dealing`: what a task id
    reads of a split (its rows are known only by reading the files)."""

    repetition: int
    fold: int
    seed: int
    folds: int
    stratified: bool = False

    @property
    def fold_id(self) -> str:
        kind = "stratified-hashed" if self.stratified else "hashed"
        text = f"{kind}:{self.seed}:{self.folds}:{self.repetition}:{self.fold}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ChunkedJob:
    """The cross-validation of one chunked data set: ``cells`` are its tasks still to run,
    as ``(repetition, fold, classifier index, task id)``. ``discretize`` is the cut-point
    method (:class:`~bayesbench.preprocess.cut_method.CutMethod`) when the numeric attributes
    are discretized per fold (their cut points then in ``fold_sources``,
    ``[repetition][fold]``); ``requested`` the scores asked for beyond every record's
    (``rmse``), ``scored`` whether the model scores are."""

    dataset: DatasetSpec
    source: ChunkedSource
    seed: int
    folds: int
    repetitions: int
    classifiers: tuple[ClassifierSpec, ...]
    cells: tuple[tuple[int, int, int, str], ...]
    stratified: bool = False
    discretize: object = None
    requested: tuple[str, ...] = ()
    scored: bool = False
    fold_sources: tuple = ()

    @property
    def dealing(self) -> Dealing:
        return Dealing(self.seed, self.source.name, self.folds, self.repetitions,
                       self.stratified)

    def pending(self, done) -> ChunkedJob | None:
        """The job restricted to the tasks not in ``done`` (None: none left)."""
        cells = tuple(c for c in self.cells if c[3] not in done)
        return replace(self, cells=cells) if cells else None


@dataclass(frozen=True)
class FileTask:
    """One file of a chunked job, for a worker: counted (no ``models``) or scored (and the
    models' training rows' likelihoods summed when ``scored``)."""

    source: ChunkedSource
    index: int
    dealing: Dealing
    models: dict = field(default_factory=dict)
    chunk_rows: int = CHUNK_ROWS
    fold_sources: tuple = ()
    scored: bool = False

    def chunks(self):
        """Each chunk of the file as a :class:`Chunk`."""
        for columns, y, dealt in dealt_chunks(self.source, self.index, self.dealing,
                                              self.chunk_rows):
            yield Chunk(self, columns, y, dealt)


class Chunk:
    """One chunk of a file, its rows dealt into folds: each fold's test rows and training
    rows, coded as the fold's model reads them (coded once for every fold when the cut
    points are the data set's). A fold's test rows are a slice of the chunk's rows sorted
    by fold (one gather for all the folds, rather than a copy by a mask per fold); both keep
    the rows' order."""

    def __init__(self, task: FileTask, columns: list, y: np.ndarray, dealt: list):
        self.task, self.columns, self.y, self.dealt = task, columns, y, dealt
        self.X = None if task.fold_sources else coded(task.source, columns, y.size)
        self._sorted: dict = {}

    def _by_fold(self, rep: int):
        if rep not in self._sorted:
            fold_of = self.dealt[rep]
            order = np.argsort(fold_of, kind="stable")
            bounds = np.searchsorted(fold_of[order], np.arange(self.task.dealing.folds + 1))
            X = None if self.X is None else self.X[order]
            self._sorted[rep] = order, bounds, X, self.y[order]
        return self._sorted[rep]

    def test(self, rep: int, fold: int) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)`` of the rows of ``fold`` in repetition ``rep``."""
        order, bounds, X, y = self._by_fold(rep)
        part = slice(bounds[fold], bounds[fold + 1])
        return (X[part] if X is not None else self._coded(rep, fold, order[part])), y[part]

    def training(self, rep: int, fold: int) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)`` of the rows of the other folds in repetition ``rep``."""
        rows = np.flatnonzero(self.dealt[rep] != fold)
        return (self.X[rows] if self.X is not None else self._coded(rep, fold, rows)), \
            self.y[rows]

    def _coded(self, rep: int, fold: int, rows: np.ndarray) -> np.ndarray:
        return coded(self.task.fold_sources[rep][fold], [c[rows] for c in self.columns],
                     rows.size)


@dataclass
class Counted:
    """What pass 1 adds up: the statistics of each fold's test rows, ``[repetition][fold]``,
    or (``training``: cut points per fold) of its training rows coded with its cut points,
    and the number of test rows of each fold."""

    parts: list
    test_rows: np.ndarray
    training: bool = False

    def __add__(self, other: Counted) -> Counted:
        return Counted([[a + b for a, b in zip(mine, theirs)]
                        for mine, theirs in zip(self.parts, other.parts)],
                       self.test_rows + other.test_rows, self.training)


def count_file(task: FileTask) -> Counted:
    """Pass 1 on one file: the statistics of each fold's rows in it (:class:`Counted`)."""
    s, d = task.source, task.dealing
    sources = task.fold_sources or ((s,) * d.folds,) * d.repetitions
    out = [[Statistics.empty(f.cardinalities, s.n_classes, s.attribute_names) for f in rep]
           for rep in sources]
    tests = np.zeros((d.repetitions, d.folds), dtype=np.int64)
    training = bool(task.fold_sources)
    for chunk in task.chunks():
        for rep, fold_of in enumerate(chunk.dealt):
            tests[rep] += np.bincount(fold_of, minlength=d.folds)
            for f in range(d.folds):
                X, y = chunk.training(rep, f) if training else chunk.test(rep, f)
                out[rep][f] = out[rep][f] + Statistics.from_codes(
                    X, y, sources[rep][f].cardinalities, s.n_classes, s.attribute_names)
    return Counted(out, tests, training)


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
    log losses and Brier scores (exact), prediction time, and the first error (if any);
    with the model scores asked for, the sums of the log-likelihoods ``log p(c, x)`` (None:
    not a normalised likelihood, under attribute weights) and ``log p(c | x)`` of the
    training rows, and the model's free parameters (None: it has no model scores)."""

    confusion: np.ndarray
    log_loss: ExactSum = ExactSum()
    brier: ExactSum = ExactSum()
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    error: str | None = None
    loglik: ExactSum | None = ExactSum()
    cll: ExactSum = ExactSum()
    n_parameters: int | None = None

    def __add__(self, other: Tally) -> Tally:
        loglik = None if self.loglik is None or other.loglik is None else \
            self.loglik + other.loglik
        return Tally(self.confusion + other.confusion, self.log_loss + other.log_loss,
                     self.brier + other.brier, self.seconds + other.seconds,
                     self.cpu_seconds + other.cpu_seconds, self.error or other.error,
                     loglik, self.cll + other.cll, self.n_parameters
                     if self.n_parameters is not None else other.n_parameters)


def _predict_into(tally: Tally, model, X: np.ndarray, y: np.ndarray) -> None:
    cpu, t0 = time.thread_time(), time.perf_counter()
    k = tally.confusion.shape[0]
    # a matrix of codes, as the in-memory runner gives every classifier of codes (the
    # models know the attributes' names from their statistics)
    proba = aligned_proba(model, X, k)
    labels = proba.argmax(axis=1)  # bayesbench's learners predict the most probable class
    tally.seconds += time.perf_counter() - t0
    tally.cpu_seconds += time.thread_time() - cpu
    tally.confusion += np.bincount(y * k + labels, minlength=k * k).reshape(k, k)
    tally.log_loss = tally.log_loss + ExactSum.of(log_losses(y, proba))
    tally.brier = tally.brier + ExactSum.of(brier_losses(y, proba))


def _score_training_into(tally: Tally, model, X: np.ndarray, y: np.ndarray) -> None:
    """Add the model scores' sums over training rows ``(X, y)`` (a model without them:
    nothing)."""
    if not callable(getattr(model, "model_scores", None)):
        return
    scores = model.model_scores(X, y)
    tally.n_parameters = scores.n_free_parameters
    tally.cll = tally.cll + ExactSum.of(np.array([scores.conditional_log_likelihood]))
    tally.loglik = None if tally.loglik is None or scores.log_likelihood is None else \
        tally.loglik + ExactSum.of(np.array([scores.log_likelihood]))


def score_file(task: FileTask) -> dict:
    """Pass 2 on one file: a :class:`Tally` per key ``(repetition, fold, classifier index)``
    of ``task.models``, from the rows of that fold in the file (and, ``task.scored``, from
    the training rows of that fold in the file for the model scores)."""
    s = task.source
    tallies = {key: Tally(np.zeros((s.n_classes, s.n_classes), dtype=np.int64))
               for key in task.models}
    for chunk in task.chunks():
        parts = {}
        for (rep, fold, ci), model in task.models.items():
            tally = tallies[(rep, fold, ci)]
            for test in (True, False) if task.scored else (True,):
                if (rep, fold, test) not in parts:  # the classifiers of a fold share its codes
                    parts[rep, fold, test] = (chunk.test if test else chunk.training)(rep, fold)
                X, y = parts[rep, fold, test]
                if tally.error is not None or not y.size:
                    continue
                try:
                    (_predict_into if test else _score_training_into)(tally, model, X, y)
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
    rows of ``fold`` in ``repetition`` (every file's rows dealt to another fold, coded as
    the fold's model reads them), for the learners that fit in passes over the rows
    (``fit_chunks``)."""
    def read():
        for task in _tasks(job):
            for chunk in task.chunks():
                yield chunk.training(repetition, fold)
    return read


def fit_fold(spec: ClassifierSpec, params: dict, train: Statistics, read=None) -> Fitted:
    """``spec``'s classifier with ``params`` fitted by ``fit_chunks(train, read)`` when it
    has it (passes over the training rows ``read()`` yields, in this process, for what the
    statistics do not hold), else ``fit_statistics(train)``."""
    cpu, t0 = time.thread_time(), time.perf_counter()
    try:
        model = make_classifier(spec.learner, **params)
        model = (model.fit_chunks(train, read) if callable(getattr(model, "fit_chunks", None))
                 else model.fit_statistics(train))
    except Exception as exc:  # noqa: BLE001 - a learner that fails is recorded, the run goes on
        return Fitted(None, 0.0, 0.0, f"{type(exc).__name__}: {exc}")
    return Fitted(model, time.perf_counter() - t0, time.thread_time() - cpu)


def _tasks(job: ChunkedJob, models: dict | None = None) -> list[FileTask]:
    return [FileTask(job.source, i, job.dealing, models or {}, fold_sources=job.fold_sources,
                     scored=job.scored and bool(models))
            for i in range(len(job.source.files))]


def fold_statistics(job: ChunkedJob, run_on) -> Counted:
    """Pass 1: each fold's statistics (:class:`Counted`), the files counted by
    ``run_on(count_file, tasks)`` (an executor) and added as they arrive."""
    folds = None
    for _, counts in run_on(count_file, _tasks(job)):
        folds = counts if folds is None else folds + counts
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


def _metrics(job: ChunkedJob, tally: Tally, fitted: Fitted, n_train: int, n_test: int) -> dict:
    """A record's metrics from its tally: those of the confusion matrix, the means of the
    losses, the ones asked for, and the model scores when asked for."""
    metrics = confusion_scores(tally.confusion)[0]
    n = max(n_test, 1)
    metrics.update(log_loss=tally.log_loss.value / n, brier=tally.brier.value / n)
    if "rmse" in job.requested:
        metrics["rmse"] = rmse_of_brier(metrics["brier"], job.source.n_classes)
    metrics["cpu_seconds"] = fitted.cpu_seconds + tally.cpu_seconds
    if job.scored and tally.n_parameters is not None:
        k, ll = tally.n_parameters, None if tally.loglik is None else tally.loglik.value
        scores = {"loglik": ll, "cll": tally.cll.value, "n_parameters": float(k),
                  "aic": None if ll is None else aic(ll, k),
                  "bic": None if ll is None or not n_train else bic(ll, k, n_train)}
        metrics.update({name: v for name, v in scores.items() if v is not None})
    return metrics


def _record(job: ChunkedJob, cell, params: dict, fitted: Fitted, tally: Tally | None,
            n_train: int, n_test: int) -> dict:
    rep, fold, ci, tid = cell
    spec = job.classifiers[ci]
    record = {"dataset": job.dataset.name, "repetition": rep, "fold": fold,
              "classifier": spec.label, "seed": job.seed,
              "fold_id": HashedFold(rep, fold, job.seed, job.folds, job.stratified).fold_id,
              "task_id": tid, "learner": spec.learner, "params": params, "status": "ok",
              "n_train": n_train, "n_test": n_test}
    if spec.input is not None:
        record["input"] = spec.input
    error = fitted.error or (tally.error if tally is not None else "no test rows")
    if error is not None:
        record.update(status="error", error=error, fit_seconds=0.0, predict_seconds=0.0)
        return record
    metrics = _metrics(job, tally, fitted, n_train, n_test)
    per_class = confusion_scores(tally.confusion)[1]
    record.update(classes=list(job.source.class_names), confusion=tally.confusion.tolist(),
                  metrics=metrics, per_class={k: v.tolist() for k, v in per_class.items()},
                  fit_seconds=fitted.seconds, predict_seconds=tally.seconds)
    return record


def run_chunked(job: ChunkedJob, run_on):
    """Yield ``(record, model)`` for every task of ``job`` (the model None if it failed;
    the caller describes its structure), the files' passes run by ``run_on(fn, tasks)``
    (an executor yielding ``(index, result)``; see :mod:`.executors`)."""
    if job.discretize is not None:
        job = replace(job, fold_sources=fold_sources(job.source, job.dealing, job.discretize,
                                                     run_on, CHUNK_ROWS))
    counted = fold_statistics(job, run_on)
    if counted.training:
        train = {(rep, fold): counted.parts[rep][fold] for rep, fold, _, _ in job.cells}
    else:
        totals = [sum(per_rep[1:], per_rep[0]) for per_rep in counted.parts]
        # Each training part's counts once, for all the classifiers of its fold and its records.
        train = {(rep, fold): totals[rep] - counted.parts[rep][fold]
                 for rep, fold, _, _ in job.cells}
    params = {(rep, fold, ci): _params(job, rep, fold, ci) for rep, fold, ci, _ in job.cells}
    fitted = {(rep, fold, ci): fit_fold(job.classifiers[ci], params[rep, fold, ci],
                                        train[rep, fold], training_rows(job, rep, fold))
              for rep, fold, ci, _ in job.cells}
    models = {key: f.model for key, f in fitted.items() if f.model is not None}
    tallies = fold_tallies(job, models, run_on)
    for cell in job.cells:
        rep, fold, ci, _ = cell
        n_test = int(counted.test_rows[rep, fold])
        record = _record(job, cell, params[cell[:3]], fitted[cell[:3]], tallies.get(cell[:3]),
                         train[rep, fold].n_rows, n_test)
        yield record, fitted[cell[:3]].model if record["status"] == "ok" else None
