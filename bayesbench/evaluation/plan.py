"""Planning: an experiment in, its fold jobs and task ids out, before anything is written.

A task is one (data set, repetition, fold, classifier); its id hashes what decides its
record (the experiment's identity restricted to that task, and the fold's test rows), so
that a result directory keeps a finished task across runs as long as the task is the
same. The unit of work given to an executor is one fold: a :class:`FoldJob` carries the
fold's rows, the prepared data set and every classifier still to run on it.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace

import numpy as np

from ..data.chunks import is_chunked
from ..errors import BayesbenchError, ClassifierError, PlanError
from ..models.registry import classifier_class
from ..spec import ClassifierSpec, CVSpec, DatasetSpec, Experiment, PreprocessSpec
from .bias_variance_sets import bias_variance_splits
from .chunked_run import ChunkedJob, HashedFold
from .metrics import MODEL_SCORES, REQUESTED_SCORES, per_class_metric
from ..preprocess.discretize import chunked_cut_method
from .prepare import DataCache, PreparedData
from .splits import Split, apparent_split, make_splits
from .train_sizes import subsamples, too_large


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
    data: PreparedData
    model_scores: bool = False  # score each fitted model on its training rows (MODEL_SCORES)
    requested: tuple[str, ...] = ()  # the REQUESTED_SCORES its records hold
    predictions: bool = False  # keep each test row's prediction (evaluation/predictions.py)
    train_size: int | float | None = None  # a learning curve's size (train_sizes.py)
    apparent: bool = False  # the apparent error of a bootstrap's estimate (schemes/bootstrap.py)

    # The executors send a data set, which every fold job of it shares, once to a worker.
    def detach(self) -> tuple[FoldJob, PreparedData]:
        return replace(self, data=None), self.data

    def attach(self, data: PreparedData) -> FoldJob:
        return replace(self, data=data)


@dataclass(frozen=True)
class Plan:
    """The fold jobs of an experiment, and its task ids per data set (in config order)."""

    jobs: tuple[FoldJob | ChunkedJob, ...]
    tasks: dict[str, tuple[str, ...]]

    @property
    def task_ids(self) -> set[str]:
        return {t for ids in self.tasks.values() for t in ids}

    def pending(self, done) -> list[FoldJob]:
        """The fold jobs restricted to the classifiers whose task is not in ``done``;
        jobs left with none are dropped."""
        todo = []
        for job in self.jobs:
            if isinstance(job, ChunkedJob):
                rest = job.pending(done)
                todo += [rest] if rest is not None else []
                continue
            keep = [i for i, t in enumerate(job.task_ids) if t not in done]
            if keep:
                todo.append(replace(job, classifiers=tuple(job.classifiers[i] for i in keep),
                                    task_ids=tuple(job.task_ids[i] for i in keep)))
        return todo


# The cv an evaluation's tasks hash: the default's, which they hashed when a cv beside an
# evaluation was accepted and ignored (now refused), so that their ids stay the same.
_REPLACED_CV = CVSpec().identity()


def task_id(identity: dict, dataset: DatasetSpec, split: Split, clf: ClassifierSpec,
            model_scores: bool = False, requested=(), train_size=None) -> str:
    """The id of one task of the experiment whose :meth:`~Experiment.identity` is given;
    ``model_scores``: its record holds the model scores too; ``requested``: and these
    scores of :data:`~.metrics.REQUESTED_SCORES`; ``train_size``: its learning curve's size."""
    # The input kind, the tuning and the steps join the key only when given, so that the
    # tasks of result directories written before they existed keep their ids.
    extra = {k: v for k, v in clf.identity().items() if k in ("input", "tune", "steps")}
    key = {"dataset": [dataset.name, dataset.path, dataset.class_attribute] + (
               [] if dataset.attributes is None else [list(dataset.attributes)]) + (
               [] if dataset.delimiter is None else [{"delimiter": dataset.delimiter}]),
           "preprocess": identity["preprocess"], "cv": identity.get("cv", _REPLACED_CV),
           "seed": identity["seed"],
           "repetition": split.repetition, "fold": split.fold, "fold_id": split.fold_id,
           "classifier": [clf.label, clf.learner, clf.params] + ([extra] if extra else [])}
    if model_scores:  # a record without them is not this task's (resuming recomputes it)
        key["model_scores"] = True
    if requested:  # likewise
        key["requested"] = sorted(requested)
    if train_size is not None:  # one task per size, named by its own size only
        key["cv"] = {k: v for k, v in key["cv"].items() if k != "train_sizes"}
        key["train_size"] = train_size
    if "evaluation" in identity:  # likewise: the cv scheme's tasks keep their ids
        key["evaluation"] = identity["evaluation"]
    blob = json.dumps(key, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def plan(experiment: Experiment, cache: DataCache | None = None) -> Plan:
    """All fold jobs of ``experiment`` (one without arms) and its task ids per data set.

    Reads every data set (through ``cache``); every data set that cannot be used is
    reported, with every other such problem, in one :class:`PlanError`.
    """
    cache = cache if cache is not None else DataCache()
    identity = experiment.identity()
    named = (*experiment.metrics, experiment.compare.metric)
    scored = bool(set(MODEL_SCORES).intersection(named))
    requested = tuple(m for m in REQUESTED_SCORES if m in named)
    problems, jobs, tasks = [], [], {}
    for i, spec in enumerate(experiment.datasets):
        if spec.chunked or is_chunked(spec.path):
            if experiment.cv.train_sizes:
                problems.append((("cv", "train_sizes"), f"no learning curve of the chunked data "
                                                        f"set {spec.name}: its folds are hashed"))
                continue
            try:
                jobs.append(chunked_job(experiment, spec, cache, scored, requested))
            except BayesbenchError as exc:
                problems.append((("datasets", i), str(exc)))
                continue
            problems += _missing_classes(experiment, jobs[-1].source)
            tasks[spec.name] = tuple(cell[3] for cell in jobs[-1].cells)
            continue
        try:
            data = cache.prepared(spec, experiment.preprocess, experiment.seed)
            problems += _missing_classes(experiment, data.imputed)
            problems += _unmet_requirements(experiment, i, spec, data.imputed)
            splits = _splits(experiment, spec, data.imputed.y)
        except PlanError as exc:
            problems += exc.problems
            continue
        except BayesbenchError as exc:
            problems.append((("datasets", i), str(exc)))
            continue
        problems += _oversized(_train_sizes(experiment), spec, splits)
        tasks[spec.name] = ()
        for split in splits:
            for job in _fold_jobs(experiment, spec, split, data, identity, scored, requested):
                tasks[spec.name] += job.task_ids
                jobs.append(job)
    if problems:
        raise PlanError(problems)
    return Plan(tuple(jobs), tasks)


def _fold_jobs(experiment: Experiment, spec: DatasetSpec, split: Split, data: PreparedData,
               identity: dict, scored: bool, requested) -> list[FoldJob]:
    """The fold jobs of one split: one, or with a learning curve one per training size."""
    sizes = _train_sizes(experiment)
    parts = [(None, split.train)] if not sizes else subsamples(
        split.train, data.imputed.y, sizes, seed=experiment.seed, dataset=spec.name,
        repetition=split.repetition, fold=split.fold)
    return [FoldJob(spec, experiment.preprocess, experiment.seed, split.repetition, split.fold,
                    split.fold_id, train, split.test, experiment.classifiers,
                    tuple(task_id(identity, spec, split, c, scored, requested, size)
                          for c in experiment.classifiers),
                    data, scored, requested, experiment.keeps_predictions, size, split.apparent)
            for size, train in parts]


def _train_sizes(experiment: Experiment) -> tuple:
    """The learning curve's sizes (none under an evaluation, which replaces the cv scheme)."""
    return experiment.cv.train_sizes if experiment.evaluation is None else ()


def _oversized(sizes, spec: DatasetSpec, splits) -> list:
    """A problem for every count of ``sizes`` above the smallest training part of ``spec``."""
    if not sizes or not splits:
        return []
    smallest = min(s.train.size for s in splits)
    return [(("cv", "train_sizes", i), f"{size} rows is more than the smallest training part "
                                       f"of {spec.name} ({smallest} rows); give a fraction, "
                                       f"such as 1.0 for the whole part")
            for i, size in too_large(sizes, smallest)]
def _splits(experiment: Experiment, spec: DatasetSpec, y) -> list[Split]:
    """The train/test splits of one data set: the evaluation's, or the ``cv`` scheme's."""
    if experiment.evaluation is not None:
        return bias_variance_splits(len(y), experiment.evaluation, seed=experiment.seed,
                                    dataset=spec.name)
    apparent = apparent_split(y, experiment.cv)
    return [s for rep in range(experiment.cv.n_repetitions)
            for s in make_splits(y, experiment.cv, seed=experiment.seed, dataset=spec.name,
                                 repetition=rep)] + ([apparent] if apparent else [])


def chunked_job(experiment: Experiment, spec: DatasetSpec, cache: DataCache,
                scored: bool = False, requested: tuple = ()) -> ChunkedJob:
    """The k-fold cross-validation of the chunked data set ``spec`` (its first pass made
    here, through ``cache``), every task in it; ``scored`` and ``requested`` as
    :func:`task_id` takes them."""
    preprocess = experiment.preprocess
    source = cache.chunked(spec, preprocess)
    cv, identity = experiment.cv, experiment.identity()
    folds, stratified = cv.setting("folds"), cv.stratifies(chunked=True)
    cells = tuple((rep, fold, ci, task_id(identity, spec, HashedFold(
        rep, fold, experiment.seed, folds, stratified), clf, scored, requested))
                  for rep in range(cv.n_repetitions) for fold in range(folds)
                  for ci, clf in enumerate(experiment.classifiers))
    # numeric attributes not discretized on all the rows are, per fold, as the run goes
    per_fold = chunked_cut_method(source, preprocess.discretize, bins=preprocess.bins,
                                  max_cuts=preprocess.max_cuts) \
        if source.numeric_names and preprocess.scope != "global" else None
    return ChunkedJob(spec, source, experiment.seed, folds, cv.n_repetitions,
                      experiment.classifiers, cells, stratified, per_fold, requested, scored)


def _missing_classes(experiment: Experiment, data) -> list:
    """A problem for every per-class metric naming a class that ``data`` (a data set, or a
    chunked one's source) lacks."""
    named = [(("metrics", j), m) for j, m in enumerate(experiment.metrics)]
    if experiment.compare.metric is not None:
        named.append((("compare", "metric"), experiment.compare.metric))
    problems = []
    for field, metric in named:
        score_class = per_class_metric(metric)
        if score_class is not None and score_class[1] not in data.class_names:
            problems.append((field, f"'{metric}': '{score_class[1]}' is not a class of "
                                    f"{data.name} (its classes: {', '.join(data.class_names)})"))
    return problems


def _unmet_requirements(experiment: Experiment, i: int, spec: DatasetSpec, ds) -> list:
    """A problem for every classifier that requires of its data (its class's ``requires``,
    :data:`~bayesbench.models.core.input_checks.REQUIREMENTS`) what the data set ``ds``
    (``datasets[i]``, as imputed before splitting) lacks."""
    problems = []
    nominal = [a.name for a in ds.attributes if a.is_nominal]
    numeric = [j for j, a in enumerate(ds.attributes) if not a.is_nominal]
    holes = None  # the numeric attributes with missing values, found once
    for clf in experiment.classifiers:
        try:
            needs = getattr(classifier_class(clf.learner), "requires", ())
        except ClassifierError:
            continue  # its tasks record why it cannot be made
        at, says = ("datasets", i), f"{clf.label} cannot take data set {spec.name}"
        if "numeric" in needs and not numeric:
            problems.append((at, f"{says}: it has no numeric attribute"))
        elif "numeric" in needs and nominal and clf.input != "numeric":
            problems.append((at, f"{says}: it takes numeric attributes only, and "
                                 f"{_listed(nominal, 'nominal')}; give the classifier "
                                 f"'input: numeric' to leave them out"))
        if "complete" in needs and experiment.preprocess.impute == "none" and numeric:
            if holes is None:
                holes = [ds.attributes[numeric[j]].name for j in
                         np.flatnonzero(ds.missing_mask()[:, numeric].any(axis=0))]
            if holes:
                problems.append((at, f"{says}: {_listed(holes, 'missing values')}; set "
                                     f"preprocess.impute (mean_mode, weighted_random or "
                                     f"drop)"))
    return problems


def _listed(names: list[str], what: str) -> str:
    """``attribute 'a' is nominal`` / ``attributes 'a', 'b' and 3 more have missing
    values``: attribute names in a message, at most three."""
    shown = ", ".join(f"'{n}'" for n in names[:3])
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    verb = ("is" if len(names) == 1 else "are") if what == "nominal" else (
        "has" if len(names) == 1 else "have")
    return f"attribute{'' if len(names) == 1 else 's'} {shown}{more} {verb} {what}"
