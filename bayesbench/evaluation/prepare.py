"""Fold preparation: a data set read once per run, and each fold's data for each kind of learner.

Order of preparation, per fold: impute (fitted on the training fold), then
discretize (fitted on the imputed training fold; discrete learners only), then
noise (paper 003: shuffle the values of a random fraction of the attributes
across examples of the training part, the test part or both); noise drawn
``once`` alters the data set as it is read, before anything else. Continuous
learners get the numeric attributes of the imputed data (nominal attributes are
left out), with the same noise. With ``scope: global`` the imputer and
discretizer are fitted on the whole data set before splitting.

Cross-validation by count subtraction: when every fold's discrete view is coded as the
whole data set is (:func:`counts_subtract`: nominal data, or preprocessing fitted
globally, and no noise), the whole data set's :class:`~bayesbench.models.core.sufficient.
Statistics` are counted once (:func:`with_total_statistics`) and each training part's are
``total - test part`` (the ``statistics`` view), so that a learner with ``fit_statistics``
never recounts the nine tenths of the rows the other folds share.

All randomness of a fold comes from ``(seed, data set, repetition, fold)`` and one
stream number per use, so that adding one use never shifts another.
"""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field, replace
from functools import partial

from ..data import Dataset, load_dataset
from ..data.chunks import ChunkedSource, scan
from ..data.fold_assignment import fold_rng
from ..models.core.sufficient import Statistics
from ..preprocess.discretize import Discretizer, chunked_cut_method, discretize_chunked
from ..preprocess.impute import Imputer
from ..preprocess.noise import NOISE_MODES
from ..spec import DatasetSpec, PreprocessSpec
from .executors import map_jobs

# Where preprocessing is fitted, and which part of a fold noise goes to (config choices).
SCOPES = ("fold", "global")
NOISE_SIDES = ("train", "test", "both")
# When noise is drawn: in each fold, or once on the whole data set before it is split.
NOISE_WHEN = ("fold", "once")

# Streams of randomness within one fold.
IMPUTE_STREAM, NOISE_STREAM, CLASSIFIER_STREAM, GLOBAL_IMPUTE_STREAM, TUNE_STREAM = 1, 2, 3, 4, 5
TRAIN_SIZE_STREAM = 6  # a learning curve's subsamples (train_sizes.py)
NOISE_ONCE_STREAM = 7  # noise drawn once on the whole data set (noise.when: once)


@dataclass(frozen=True)
class PreparedData:
    """A data set before splitting: ``imputed`` and ``discretized`` are the raw data set
    with ``scope: fold`` (nothing is fitted before splitting), and fitted on the whole data
    set with ``scope: global``."""

    imputed: Dataset
    discretized: Dataset
    #: The counts of every row of ``discretized`` (:func:`with_total_statistics`), or None.
    statistics: Statistics | None = None
    #: The cut points of ``discretized``'s numeric attributes (``scope: global``), by name.
    cuts: dict = field(default_factory=dict)


def counts_subtract(preprocess: PreprocessSpec, data: PreparedData) -> bool:
    """Whether each fold's discrete view holds the codes of the whole data set's rows as
    they are (nothing fitted per training fold, no noise), so that a training part's counts
    are the whole data set's minus the test part's."""
    noise = preprocess.noise
    if noise is not None and noise.fraction != 0:
        return False
    if preprocess.scope == "global":
        return bool(data.discretized.nominal_mask.all())
    # Per fold, only nominal data without imputation keep the data set's codes.
    return preprocess.impute == "none" and bool(data.imputed.nominal_mask.all())


def statistics_of(ds: Dataset) -> Statistics:
    """The sufficient statistics of the rows of a nominal data set."""
    return Statistics.from_codes(ds.codes(), ds.y, ds.cardinalities, ds.n_classes,
                                 ds.attribute_names)


def with_total_statistics(data: PreparedData) -> PreparedData:
    """``data`` with the statistics of all its rows (counted once, here)."""
    if data.statistics is not None:
        return data
    return replace(data, statistics=statistics_of(data.discretized))


class DataCache:
    """The data sets of one run, each read and prepared once (arms share them). A chunked
    data set's files are scanned by ``jobs`` local processes (None: all the cores; 1: this
    process), each limited to ``threads`` BLAS threads (:func:`.executors.map_jobs`); with
    ``keep_ids``, the scan keeps the rows' ids on disk for the passes after it
    (data/chunk_cache.py), until :meth:`close`."""

    def __init__(self, keep_ids: bool = False, jobs: int | None = 1,
                 threads: int | None = None):
        self._prepared: dict = {}
        self.keep_ids, self._caches = keep_ids, []
        # local processes even under a Dask scheduler: the ids they keep are on this disk
        self._run_on = partial(map_jobs, jobs=jobs, threads=threads)

    def close(self) -> None:
        """Remove the chunked data sets' ids kept on disk by their scans."""
        for directory in self._caches:
            shutil.rmtree(directory, ignore_errors=True)
        self._caches.clear()

    def prepared(self, spec: DatasetSpec, preprocess: PreprocessSpec, seed: int) -> PreparedData:
        key = (spec, preprocess, seed)
        if key not in self._prepared:
            self._prepared[key] = load_prepared(spec, preprocess, seed)
        return self._prepared[key]

    def chunked(self, spec: DatasetSpec, preprocess: PreprocessSpec) -> ChunkedSource:
        """A chunked data set's first pass (:func:`~bayesbench.data.chunks.scan`) and, if it
        has numeric attributes and ``preprocess`` discretizes on all the rows (global
        scope), their discretization, made once; per fold, the run discretizes them
        (:mod:`.chunked_folds`)."""
        if spec not in self._prepared:
            if self.keep_ids:
                self._caches.append(tempfile.mkdtemp(prefix="bayesbench-chunks-"))
            self._prepared[spec] = scan(spec.path, spec.class_attribute, name=spec.name,
                                        attributes=spec.attributes, delimiter=spec.delimiter,
                                        cache=self._caches[-1] if self.keep_ids else None,
                                        run_on=self._run_on)
        source = self._prepared[spec]
        if not source.numeric_names:
            return source
        if preprocess.scope != "global":
            chunked_cut_method(source, preprocess.discretize, bins=preprocess.bins,
                               max_cuts=preprocess.max_cuts)
            return source
        key = (spec, preprocess.discretize, preprocess.bins, preprocess.max_cuts)
        if key not in self._prepared:
            self._prepared[key] = discretize_chunked(source, preprocess.discretize,
                                                     preprocess.bins,
                                                     max_cuts=preprocess.max_cuts)
        return self._prepared[key]


def load_prepared(spec: DatasetSpec, preprocess: PreprocessSpec, seed: int) -> PreparedData:
    """Read the data set of ``spec`` and prepare it as ``preprocess`` asks before splitting."""
    ds = load_dataset(spec.path, spec.class_attribute, delimiter=spec.delimiter)
    if spec.attributes is not None:
        ds = ds.select(spec.attributes)
    ds.name = spec.name
    noise = preprocess.noise
    if noise is not None and noise.when == "once" and noise.fraction != 0:
        # paper 003 alters each data set once, then cross-validates the altered copy
        rng = fold_rng(seed, spec.name, 0, 0, NOISE_ONCE_STREAM)
        ds = NOISE_MODES[noise.mode](ds, noise.fraction, rng)
    if preprocess.scope != "global":
        return PreparedData(ds, ds)
    rng = fold_rng(seed, spec.name, 0, 0, GLOBAL_IMPUTE_STREAM)
    imputed, _ = impute(ds, ds, preprocess.impute, rng)
    discretized, _, cuts = discretize(imputed, imputed, preprocess)
    return PreparedData(imputed, discretized, cuts=cuts)


def impute(train, test, strategy: str, rng):
    """``(train, test)`` imputed by an imputer fitted on ``train`` (``none``: as they are)."""
    if strategy == "none":
        return train, test
    imputer = Imputer(strategy).fit(train)
    return imputer.transform(train, rng=rng), imputer.transform(test, rng=rng)


def discretize(train, test, preprocess: PreprocessSpec):
    """``(train, test, cuts)``: both parts discretized by cut points fitted on ``train``, and
    those cut points by attribute name (empty when nothing is discretized)."""
    if preprocess.discretize == "none" or train.nominal_mask.all():
        return train, test, {}
    disc = Discretizer(preprocess.discretize, bins=preprocess.bins,
                       max_cuts=preprocess.max_cuts).fit(train)
    return disc.transform(train), disc.transform(test), disc.cuts_


def add_noise(train, test, job):
    """``(train, test)`` with the fold job's noise on the side(s) it names."""
    return noisy(train, "train", job), noisy(test, "test", job)


def noisy(part, side: str, job):
    """The ``side`` (``train`` or ``test``) part ``part`` of a fold with the fold job's noise,
    if it names that side."""
    noise = job.preprocess.noise
    if (noise is None or noise.fraction == 0 or noise.when != "fold"
            or noise.on not in (side, "both")):
        return part
    # Both sides start from the same stream, so `both` shuffles the same attributes in
    # the training and the test part (each with its own permutations of its rows).
    rng = fold_rng(job.seed, job.dataset.name, job.repetition, job.fold, NOISE_STREAM)
    return NOISE_MODES[noise.mode](part, noise.fraction, rng)


def prepare_fold(job) -> dict:
    """The fold's data for each kind of learner: ``{"discrete": (train, test), "continuous": ...}``,
    ``"discrete test"`` the discrete test part alone, ``"statistics"`` the training
    part's counts (or None), and ``"cuts"`` the cut points of the discrete view's
    discretized attributes (by name; empty for nominal data).

    A value is a callable so that a kind no classifier of the fold needs is
    never computed, and one that fails (say, a numeric attribute and
    ``discretize: none``) fails only the classifiers that need it. The discrete test part
    alone does not copy the training rows when nothing is fitted on them (preprocessing
    fitted globally, or nominal data without imputation): a fold whose learners are all
    fitted from the statistics never holds them.
    """
    fold = _Fold(job)
    return {"discrete": fold.discrete, "discrete test": fold.discrete_test,
            "continuous": fold.continuous, "statistics": fold.statistics, "cuts": fold.cuts}


class _Fold:
    """The views of :func:`prepare_fold`, each computed once (a failure is not kept: it is
    raised again to every classifier that asks)."""

    def __init__(self, job):
        self.job, self.data, self.memo = job, job.data, {}
        # Nothing is fitted on the training part: the discrete parts are rows of `discretized`.
        self.as_whole = job.preprocess.scope == "global" or (
            job.preprocess.impute == "none" and bool(self.data.imputed.nominal_mask.all()))

    def _once(self, key, make):
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def imputed(self):
        def make():
            job = self.job
            train, test = self.data.imputed.take(job.train), self.data.imputed.take(job.test)
            if job.preprocess.scope == "fold":
                rng = fold_rng(job.seed, job.dataset.name, job.repetition, job.fold,
                               IMPUTE_STREAM)
                train, test = impute(train, test, job.preprocess.impute, rng)
            return train, test
        return self._once("imputed", make)

    def discrete(self):
        def make():
            if self.as_whole:
                train = self.data.discretized.take(self.job.train)
                return noisy(train, "train", self.job), self.discrete_test()
            train, test, self.memo["cuts"] = discretize(*self.imputed(), self.job.preprocess)
            return add_noise(train, test, self.job)
        return self._once("discrete", make)

    def cuts(self) -> dict:
        if self.as_whole:  # cut on the whole data set (global scope), or nothing to cut
            return self.data.cuts
        self.discrete()
        return self.memo["cuts"]

    def discrete_test(self):
        def make():
            if self.as_whole:
                return noisy(self.data.discretized.take(self.job.test), "test", self.job)
            return self.discrete()[1]
        return self._once("discrete test", make)

    def continuous(self):
        return self._once("continuous", lambda: add_noise(*self.imputed(), self.job))

    def statistics(self):
        def make():
            # None unless the job carries the total and its parts are complements (a bootstrap
            # replicate's n draws and its out-of-bag rows are more than n rows: it is fitted
            # from its rows, every drawn copy counted).
            data, job = self.data, self.job
            if data.statistics is None or \
                    job.train.size + job.test.size != data.discretized.n_rows:
                return None
            return data.statistics - statistics_of(self.discrete_test())
        return self._once("statistics", make)
