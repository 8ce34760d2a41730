"""An experiment as frozen data: what determines the results, apart from how to run it.

:class:`Experiment` holds everything that decides the records and the tables made of
them: the data sets, their preprocessing, the cross-validation, the classifiers, the
seed, the metrics and the end-of-run comparison. Its :meth:`~Experiment.identity` is
what the task ids hash, so two experiments with equal identities share their finished
tasks. :class:`RunOptions` says how and where to run one (output directory, workers,
scheduler, resume or force, table formats, quiet) and never changes a record.

This module imports nothing from the package: every layer above reads it, and the
config layer is the one place that builds it from YAML.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class DatasetSpec:
    """One data set: the name used in records, its file, its class attribute (None: last),
    the attributes kept (None: all), for a CSV file its field separator (None: ','), and
    whether a single file is read in chunks (docs/large-data.md)."""

    name: str
    path: str
    class_attribute: str | None = None
    attributes: tuple[str, ...] | None = None
    delimiter: str | None = None
    chunked: bool = False  # a single file read in chunks (a directory or glob always is)

    def identity(self) -> dict:
        out = {"name": self.name, "path": self.path, "class": self.class_attribute}
        if self.attributes is not None:  # absent when unused, so older result directories match
            out["attributes"] = list(self.attributes)
        if self.delimiter is not None:  # likewise
            out["delimiter"] = self.delimiter
        if self.chunked:  # likewise
            out["chunked"] = True
        return out


@dataclass(frozen=True)
class NoiseSpec:
    """Paper 003's noise: shuffle ``fraction`` of the attributes (``mode`` ``attributes``)
    or of each attribute's values (``values``), on ``on`` (``train``, ``test`` or ``both``),
    drawn anew in each fold (``when`` ``fold``) or once on the whole data set before it is
    split (``once``, as paper 003 alters its data sets; ``on`` is then ``both``)."""

    fraction: float
    on: str = "train"
    mode: str = "attributes"
    when: str = "fold"

    def identity(self) -> dict:
        out = {"fraction": self.fraction, "on": self.on}
        # each absent when the default, so older directories match
        if self.mode != "attributes":
            out["mode"] = self.mode
        if self.when != "fold":
            out["when"] = self.when
        return out


@dataclass(frozen=True)
class PreprocessSpec:
    """Imputation strategy, discretization method and bins (``max_cuts``: at most that many
    MDL cut points per attribute), where they are fitted (``fold``: the training fold;
    ``global``: the whole data set) and the noise."""

    impute: str = "none"
    discretize: str = "mdl"
    bins: int = 10
    scope: str = "fold"
    noise: NoiseSpec | None = None
    max_cuts: int | None = None

    def identity(self) -> dict:
        noise = self.noise
        out = {"impute": self.impute, "discretize": self.discretize, "bins": self.bins,
               "scope": self.scope,
               "noise": None if noise is None else noise.identity()}
        if self.max_cuts is not None:  # absent when unused, so older directories match
            out["max_cuts"] = self.max_cuts
        return out


# Repetitions of a cross-validation: a bound on the work one experiment plans (published
# designs use 10; each repetition adds one task per fold and classifier).
MAX_REPEATS = 1000


@dataclass(frozen=True)
class CVSpec:
    """How to split: ``kind`` names a scheme of ``evaluation.schemes.SCHEMES`` (``kfold``,
    ``holdout``, ``resubstitution``, ``loo``, ``bootstrap``) and ``settings`` holds its own
    settings as ``(key, value)`` pairs, as its ``spec()`` builds them: exactly what identifies
    the scheme, so that task ids hash it (k-fold: ``folds``, ``repeats``, ``stratified`` and a
    ``fold_size`` other than ``balanced``; holdout: the test share ``holdout``, ``repeats``,
    ``stratified``; resubstitution and leave-one-out: their own name, true; the bootstrap:
    its replicates ``bootstrap``, ``estimate``, ``stratified``).
    ``train_sizes`` (schemes that take a learning curve): each training part subsampled to
    each size (an int: rows; a float in (0, 1]: a fraction of the part), every task run once
    per size (``evaluation/train_sizes.py``); empty: the whole part, once. ``written``: the
    settings the config wrote, beside their defaults (not part of the identity): a chunked
    data set stratifies its hashed folds only when ``stratified: true`` is written
    (:meth:`stratifies`).
    """

    kind: str = "kfold"
    settings: tuple[tuple[str, object], ...] = (("folds", 10), ("repeats", 1),
                                                 ("stratified", True))
    train_sizes: tuple[int | float, ...] = ()
    # What the scheme's class declares (its ``spec()`` copies them; not part of the identity,
    # which its settings are): the setting that counts its repetitions (the bootstrap's
    # replicates are ``bootstrap``), and whether its estimate reads every task's test
    # predictions, so that they are kept.
    repeated_by: str = "repeats"
    keeps_predictions: bool = False
    written: tuple[str, ...] = ()

    def setting(self, key: str, default=None):
        """The value of one of :attr:`settings` (``default`` where it is left out)."""
        return dict(self.settings).get(key, default)

    @property
    def n_repetitions(self) -> int:
        """Repetitions of the scheme: its ``repeats`` (a bootstrap's replicates), 1 for a
        scheme without."""
        return self.setting(self.repeated_by, 1)

    def stratifies(self, chunked: bool = False) -> bool:
        """Whether the splits are stratified by class (the ``stratified`` setting); for a
        chunked data set only when the config wrote it (``written``): its hashed folds were
        unstratified before the key applied to it, and those records stay as they were."""
        if chunked and "stratified" not in self.written:
            return False
        return bool(self.setting("stratified", False))

    def identity(self) -> dict:
        # train_sizes is absent when unused, so that older result directories match.
        sizes = {"train_sizes": list(self.train_sizes)} if self.train_sizes else {}
        return {**dict(self.settings), **sizes}


@dataclass(frozen=True)
class EvaluationSpec:
    """An evaluation other than the ``cv`` scheme: Kohavi and Wolpert's bias-variance
    decomposition of 0-1 loss (``kind`` ``bias_variance``), its training sets drawn by
    ``method`` (``kohavi_wolpert``: Weka's ``BVDecompose``; ``subsampled_cv``: Webb's
    sub-sampled cross-validation, Weka's ``BVDecomposeSegCVSub``) ``iterations`` times;
    ``train_fraction`` is the share of the data in the training pool (``kohavi_wolpert``,
    each training set half the pool) or in each training set (``subsampled_cv``);
    ``repeats`` independent decompositions, each drawn anew, give each quantity a standard
    error."""

    kind: str = "bias_variance"
    method: str = "kohavi_wolpert"
    iterations: int = 50
    train_fraction: float = 0.5
    repeats: int = 1

    def identity(self) -> dict:
        out = {"kind": self.kind, "method": self.method, "iterations": self.iterations,
               "train_fraction": self.train_fraction}
        if self.repeats != 1:  # absent when 1, so that older result directories match
            out["repeats"] = self.repeats
        return out


@dataclass(frozen=True)
class TuneSpec:
    """Tuning inside each outer training part: every combination of ``params``
    (``{name: (value, ...)}``) is scored by inner stratified ``folds``-fold
    cross-validation on ``metric``, and the best one is fitted."""

    params: dict
    folds: int = 5
    metric: str = "accuracy"

    def identity(self) -> dict:
        return {"params": {k: list(v) for k, v in self.params.items()}, "folds": self.folds,
                "metric": self.metric}


@dataclass(frozen=True)
class ClassifierSpec:
    """One classifier of the experiment: its label in results, its name (built-in, entry
    point or ``package.module:Class``), its parameters, the input kind it is given (None:
    the class's own), its tuning (None: none) and the transformers fitted before it in
    each training fold (``steps``: ``(import path, params)`` pairs)."""

    label: str
    learner: str
    params: dict = field(default_factory=dict)
    input: str | None = None
    tune: TuneSpec | None = None
    steps: tuple[tuple[str, dict], ...] = ()

    def identity(self) -> dict:
        out = {"label": self.label, "name": self.learner, "params": dict(self.params)}
        # Absent when unused, so that result directories written before they existed match.
        if self.input is not None:
            out["input"] = self.input
        if self.tune is not None:
            out["tune"] = self.tune.identity()
        if self.steps:
            out["steps"] = [{"name": name, "params": dict(params)} for name, params in self.steps]
        return out


@dataclass(frozen=True)
class CompareSpec:
    """The end-of-run comparison: metric (None: the first of ``metrics``), baseline
    (None: the first classifier; ``arm/label`` across arms), test over folds, level, and
    the half-width of practical equivalence of the Bayesian tests (in the metric's units)."""

    metric: str | None = None
    baseline: str | None = None
    test: str = "corrected-t"
    alpha: float = 0.05
    rope: float = 0.01

    def to_dict(self) -> dict:
        return {"metric": self.metric, "baseline": self.baseline, "test": self.test,
                "alpha": self.alpha, "rope": self.rope}


@dataclass(frozen=True)
class FigureSpec:
    """How a run draws its figures; nothing here changes a record. ``formats``: the files
    of every figure (``svg``, which report.html shows, and any of ``png``, ``pdf``);
    ``consensus_threshold``: the least share of the folds that learned an arc for a
    consensus network to draw it (0: every arc any fold learned; 1: those of every fold).
    The defaults are those of a config that names neither."""

    formats: tuple[str, ...] = ("svg", "png")
    consensus_threshold: float = 0.5


@dataclass(frozen=True)
class Experiment:
    """What to run, complete: every field changes the records or the tables made of them.

    With ``arms``, this experiment is only their parent: each arm is a complete
    experiment named ``<name>.<arm>`` (``arm`` holds the arm's name) that differs in its
    preprocessing or cross-validation, and :meth:`runs` lists them.
    """

    name: str
    seed: int
    datasets: tuple[DatasetSpec, ...]
    preprocess: PreprocessSpec
    cv: CVSpec
    classifiers: tuple[ClassifierSpec, ...]
    metrics: tuple[str, ...]
    compare: CompareSpec = CompareSpec()
    # Keep every test row's prediction (docs/results.md, "Predictions"). Not part of the
    # identity: a finished task without its predictions is run again instead (rundir.py).
    predictions: bool = False
    # Also score each repetition's test predictions pooled over its folds (summary/pooled.*).
    pooled: bool = False
    # None: the ``cv`` scheme; else the evaluation that replaces it (its tasks keep their
    # test predictions, which the decomposition is computed from).
    evaluation: EvaluationSpec | None = None
    arm: str | None = None
    arms: tuple["Experiment", ...] = ()

    @property
    def base_name(self) -> str:
        """The name of the experiment this arm belongs to (its own name if not an arm)."""
        return self.name[:-len(self.arm) - 1] if self.arm else self.name

    @property
    def keeps_predictions(self) -> bool:
        """Whether every task keeps its test predictions: asked for, or needed by the
        evaluation or by the estimate of the ``cv`` scheme (the bootstrap's)."""
        return self.predictions or self.evaluation is not None or self.cv.keeps_predictions

    def runs(self) -> tuple["Experiment", ...]:
        """The experiments to run: the arms, or this experiment itself."""
        return self.arms or (self,)

    def identity(self) -> dict:
        """What the task ids hash, and what a result directory's ``config.yaml`` must match
        to be continued (keys as in the config file, so that older directories match)."""
        out = {"name": self.name, "seed": self.seed,
               "datasets": [d.identity() for d in self.datasets],
               "preprocess": self.preprocess.identity(), "cv": self.cv.identity(),
               "classifiers": [c.identity() for c in self.classifiers]}
        if self.evaluation is not None:  # absent when unused, so older directories match
            out["evaluation"] = self.evaluation.identity()
            del out["cv"]  # which the evaluation replaces (its tasks hash the default cv)
        return out


@dataclass(frozen=True)
class RunOptions:
    """How and where to run an experiment; nothing here changes a record.

    ``output`` is the result directory (None: ``results/<name>``; an arm goes into its
    ``<arm>`` subdirectory), ``jobs`` the worker processes (None: all cores),
    ``scheduler`` a Dask scheduler address, ``"local"`` (a Dask cluster of ``jobs`` workers
    started on this machine for the run) or a ``distributed.Client``, ``formats`` the
    table formats (None: every one). ``data_dirs`` (where data sets given by name were
    looked for) and ``skipped`` (``(name, reason)`` of data sets found nowhere) are
    recorded with the run. ``command`` (None: ``sys.argv``) is recorded in each
    session; ``stream`` receives progress (None: standard error).
    ``max_table_cells`` bounds the tables of counts a learner may allocate (None: the
    models' default); a task whose table would be larger fails, and stays failed in
    that directory (a limit is about the machine, not the experiment).
    ``max_predictions_bytes`` bounds the predictions a run with ``predictions`` keeps
    (None: the default of :mod:`bayesbench.evaluation.predictions`); a larger run is refused
    before it starts.
    ``published``: the file of the numbers a paper printed for this experiment, which
    ``bayesbench check`` holds the run against.
    ``rerun_changed``: the finished tasks of a data file that changed since they ran
    are run again (their records dropped) instead of the run being refused.
    ``worker_threads`` limits the BLAS and OpenMP threads of each worker process or Dask
    worker (None: its share of the cores); the serial path leaves them alone.
    ``save_networks``: the formats (``bif``, ``xmlbif``) in which each fold's fitted
    Bayesian network is written to ``<run>/networks/``.
    ``figures``: the formats of the figures and the consensus networks' threshold.
    """

    output: str | None = None
    jobs: int | None = None
    scheduler: object = None
    resume: bool = False
    force: bool = False
    formats: tuple[str, ...] | None = None
    quiet: bool = False
    data_dirs: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()
    command: tuple[str, ...] | None = None
    stream: object = None
    max_table_cells: int | None = None
    rerun_changed: bool = False
    max_predictions_bytes: int | None = None
    published: str | None = None
    worker_threads: int | None = None
    save_networks: tuple[str, ...] = ()
    figures: FigureSpec = FigureSpec()

    def __post_init__(self):
        if self.resume and self.force:
            raise ValueError("resume and force exclude each other")

    def run_dir(self, experiment: Experiment) -> Path:
        """The result directory of ``experiment`` (an arm, or an experiment without arms)."""
        base = Path(self.output) if self.output is not None else Path("results") / (
            experiment.base_name)
        return base / experiment.arm if experiment.arm else base


def resolved_config(experiment: Experiment, options: RunOptions, run_dir) -> dict:
    """The config as run, every default filled in: a result directory's ``config.yaml``,
    which loads back to the same experiment."""
    out = experiment.identity()
    scheduler = options.scheduler
    out.update({"metrics": list(experiment.metrics), "output": str(run_dir),
                "jobs": options.jobs,
                "scheduler": scheduler if isinstance(scheduler, (str, type(None))) else "client",
                "format": list(options.formats or ()), "data_dirs": list(options.data_dirs),
                "compare": experiment.compare.to_dict()})
    if options.max_table_cells is not None:
        out["max_table_cells"] = options.max_table_cells
    # Absent when off, so that config.yaml stays as it was.
    out.update({k: True for k in ("predictions", "pooled") if getattr(experiment, k)})
    if options.max_predictions_bytes is not None:
        out["max_predictions_bytes"] = options.max_predictions_bytes
    if options.published is not None:
        out["published"] = options.published
    if options.worker_threads is not None:  # absent when unset, as config.yaml was before it
        out["worker_threads"] = options.worker_threads
    if options.save_networks:  # likewise
        out["save_networks"] = list(options.save_networks)
    if options.figures.formats != FigureSpec.formats:  # likewise
        out["figure_format"] = list(options.figures.formats)
    if options.figures.consensus_threshold != FigureSpec.consensus_threshold:  # likewise
        out["consensus_threshold"] = options.figures.consensus_threshold
    return out
