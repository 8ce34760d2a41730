"""Experiment configuration: YAML in, a validated :class:`Config` out.

The config layer is the only place that knows config key paths. Validation collects
every problem (unknown key, wrong type or value, missing data file, unknown classifier,
parameter or parameter value) with its key path, such as ``classifiers[2].params.k``,
and raises them together as one :class:`~bayesbench.errors.ConfigError` before any work
starts; :func:`key_paths` does the same for the problems found when the experiment is
planned on its data. docs/configuration.md documents each key.
"""
from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from ..errors import ClassifierError, ConfigError, PlanError
from ..evaluation import bias_variance_sets
from ..evaluation.executors import scheduler_problem, unused_threads
from ..evaluation.metrics import DEFAULT_METRICS, METRIC_NAMES, is_metric
from ..evaluation.schemes import SCHEMES
from ..models.core.export import NETWORK_FORMATS
from ..models.registry import classifier_class
from ..report.figures.plotting import FORMAT_NAMES, figure_format_problem
from ..report.tables import format_names
from ..spec import CVSpec, Experiment, FigureSpec, RunOptions
from . import sections
from ..data.chunks import is_chunked
from ..data.load import DATA_ENV
from .chunked_checks import chunked_problems
from .datasets import DATASET_KEYS, data_dirs, datasets
from .problems import Problems, kind_of, shown
from ..data.yaml_file import read_yaml

__all__ = ["Config", "DATA_ENV", "key_path", "key_paths", "load_config", "override",
           "parse_config"]

TOP_KEYS = ("name", "seed", "datasets", "data_dirs", "preprocess", "cv", "classifiers",
            "metrics", "output", "jobs", "scheduler", "format", "compare", "arms",
            "max_table_cells", "predictions", "pooled", "max_predictions_bytes", "published",
            "worker_threads", "save_networks", "evaluation", "figure_format",
            "consensus_threshold")
# Every mapping a config holds and the keys it accepts, by where it lies: the tables the
# parser checks against, which docs/configuration.md must document (tests/test_config_docs.py).
KEY_TABLES = {"": TOP_KEYS, "datasets[]": DATASET_KEYS, "preprocess": sections.PREPROCESS_KEYS,
              "preprocess.noise": sections.NOISE_KEYS, "cv": sections.CV_KEYS,
              "classifiers[]": sections.CLASSIFIER_KEYS, "classifiers[].tune": sections.TUNE_KEYS,
              "classifiers[].steps[]": sections.STEP_KEYS,
              "compare": sections.COMPARE_KEYS, "arms[]": sections.ARM_KEYS,
              "evaluation": sections.EVALUATION_KEYS}


class Config(NamedTuple):
    """A validated config: the experiment, the run options its keys set (``output``,
    ``jobs``, ``scheduler``, ``format``, ``data_dirs``, the data sets skipped), and the
    file it came from."""

    experiment: Experiment
    options: RunOptions
    source: str | None = None


def load_config(path, *, skip_missing: bool = False) -> Config:
    """Read and validate a YAML experiment file.

    With ``skip_missing``, a data set given by name that is found nowhere is
    left out and listed in ``options.skipped`` instead of being an error.

    The config file's directory becomes importable (last on ``sys.path``, so that it never
    hides an installed package): a ``mymodels.py`` beside it is named
    ``mymodels:MyClassifier`` without setting PYTHONPATH, here and in the worker processes
    forked from here.
    """
    path = Path(path)
    importable(path.resolve().parent)
    return parse_config(read_yaml(path), base_dir=path.resolve().parent, source=path,
                        skip_missing=skip_missing)


def importable(directory: Path) -> None:
    """Append ``directory`` to ``sys.path`` unless it is there."""
    if str(directory) not in sys.path:
        sys.path.append(str(directory))


def parse_config(raw, *, base_dir=None, source=None, skip_missing: bool = False) -> Config:
    """Validate a config mapping (as ``yaml.safe_load`` returns it).

    Relative data set paths and ``data_dirs`` are taken relative to
    ``base_dir`` (the config file's directory) first, then to the working
    directory.
    """
    base_dir = Path(base_dir) if base_dir is not None else Path.cwd()
    problems = Problems()
    if not isinstance(raw, dict):
        # Nothing else can be checked: one line, not a cascade of "required" keys.
        got = "an empty file" if raw is None else kind_of(raw)
        raise ConfigError([("", f"expected a mapping of keys (name, datasets, classifiers, ...), "
                                f"got {got}")], path=source)
    raw = problems.mapping(raw, "", TOP_KEYS)
    missing = [] if skip_missing else None
    experiment, dirs, origins = _experiment(raw, problems, base_dir, missing)
    options = _options(raw, problems, dirs, missing or [])
    if "published" in raw:
        options = replace(options, published=_published(raw["published"], problems, base_dir))
    arms = (sections.arms(raw.get("arms"), problems, raw.get("preprocess", {}), raw.get("cv", {}))
            if "arms" in raw else [])
    if raw.get("compare") is not None:
        experiment = replace(experiment, compare=sections.compare(
            raw["compare"], problems, [c.label for c in experiment.classifiers], [a for a, _, _ in arms]))
    chunked_problems(raw, with_arms(experiment, arms), origins, problems)
    _prediction_problems(with_arms(experiment, arms), problems)
    _scheme_problems(raw, with_arms(experiment, arms), origins, problems)
    _network_problems(experiment, options, problems)
    problems.raise_any(source)
    return Config(with_arms(experiment, arms), options, None if source is None else str(source))


def _experiment(raw: dict, problems: Problems, base_dir: Path, missing
                ) -> tuple[Experiment, list, list]:
    """The experiment the keys describe (without arms and comparison), ``data_dirs``, and
    the index of each classifier's entry in ``classifiers``."""
    name = None
    if "name" not in raw:
        problems.add("name", "required (it names the result directory)")
    else:
        name = problems.typed(raw["name"], "name", str)
    if name is not None and not sections.NAME.match(name):
        problems.add("name", f"{shown(name)} must be at most 100 letters, digits, '_', '.', '+' or '-' "
                      "(it names the result directory)")
    seed = problems.typed(raw["seed"], "seed", int, low=0) if "seed" in raw else 0
    dirs = data_dirs(raw["data_dirs"], problems, base_dir) if "data_dirs" in raw else []
    found = datasets(raw, problems, base_dir, dirs, missing)
    preprocess = sections.preprocess(raw.get("preprocess", {}), problems)
    cv = sections.cv(raw.get("cv", {}), problems)
    origins = []
    classifiers = sections.classifiers(raw, problems, origins)
    metrics = list(DEFAULT_METRICS)
    if "metrics" in raw:
        metrics = problems.str_list(raw["metrics"], "metrics", METRIC_NAMES, accept=is_metric)
    kept = {k: problems.optional(raw, k, bool) or False for k in ("predictions", "pooled")}
    evaluation = (sections.evaluation(raw["evaluation"], problems)
                  if raw.get("evaluation") is not None else None)
    return Experiment(name=name, seed=seed, datasets=tuple(found), preprocess=preprocess, cv=cv,
                      classifiers=tuple(classifiers), metrics=tuple(metrics),
                      evaluation=evaluation, **kept), dirs, origins


def _options(raw: dict, problems: Problems, dirs: list, missing: list) -> RunOptions:
    """The run options the keys set (the command line may override them)."""
    formats = (problems.str_list(raw["format"], "format", format_names()) if "format" in raw
               else list(format_names()))
    output = problems.optional(raw, "output", str)
    if output is not None and not output.strip():
        # "" is the working directory as a path: the run would land among the user's files.
        problems.add("output", "is empty; give a directory, or leave the key out for "
                               "results/<name>")
    jobs = problems.optional(raw, "jobs", int, low=1)
    max_cells = problems.optional(raw, "max_table_cells", int, low=1)
    max_predictions = problems.optional(raw, "max_predictions_bytes", int, low=1)
    threads = problems.optional(raw, "worker_threads", int, low=1)
    networks = (problems.str_list(raw["save_networks"], "save_networks", tuple(NETWORK_FORMATS))
                if "save_networks" in raw else [])
    scheduler = problems.optional(raw, "scheduler", str)
    if scheduler is not None and scheduler_problem(scheduler):
        problems.add("scheduler", scheduler_problem(scheduler))
    if unused_threads(jobs, scheduler, threads):
        problems.add("worker_threads", unused_threads(jobs, scheduler, threads))
    return RunOptions(figures=_figures(raw, problems),
        # An output path is relative to the working directory, not to the config file.
        output=None if output is None else os.path.expanduser(output),
        jobs=jobs, scheduler=scheduler, formats=tuple(formats), data_dirs=tuple(dirs),
        skipped=tuple(missing), max_table_cells=max_cells,
        max_predictions_bytes=max_predictions, worker_threads=threads,
        save_networks=tuple(networks or ()))


def _figures(raw: dict, problems: Problems) -> FigureSpec:
    """The figures' formats and the consensus networks' threshold the keys set."""
    figures = FigureSpec()
    if "figure_format" in raw:
        names = problems.str_list(raw["figure_format"], "figure_format", FORMAT_NAMES)
        if names and figure_format_problem(names):
            problems.add("figure_format", figure_format_problem(names))
        figures = replace(figures, formats=tuple(n for n in FORMAT_NAMES if n in names))
    threshold = problems.optional(raw, "consensus_threshold", float, low=0.0, high=1.0)
    if threshold is not None and math.isnan(threshold):
        problems.add("consensus_threshold", "expected a value between 0.0 and 1.0, got nan")
    elif threshold is not None:
        figures = replace(figures, consensus_threshold=threshold)
    return figures


def _network_problems(experiment: Experiment, options: RunOptions, problems: Problems) -> None:
    """``save_networks`` where no classifier of the config has a network to save (AODE,
    Gaussian learners, scikit-learn's): the run wrote no ``networks/`` and said nothing."""
    if not options.save_networks or not experiment.classifiers:
        return
    try:
        classes = [classifier_class(spec.learner) for spec in experiment.classifiers]
    except ClassifierError:
        return  # a name that is no classifier is a problem of its own entry
    if not any(callable(getattr(cls, "bayesian_network", None)) for cls in classes):
        labels = ", ".join(spec.label for spec in experiment.classifiers)
        problems.add("save_networks", f"no classifier of the config learns one Bayesian "
                                      f"network to save ({labels}); leave it out, or add one "
                                      f"that does (docs/classifiers.md, 'Learned networks out')")


def _prediction_problems(experiment: Experiment, problems: Problems) -> None:
    """Kept predictions (asked for, or the ones a bias-variance decomposition or the
    bootstrap's estimate is computed from) name each test row by its index in the data file:
    refused where that index is lost (a chunked data set, rows dropped by imputation)."""
    if not any(run.keeps_predictions for run in experiment.runs()):
        return
    key = ("predictions" if experiment.predictions else
           "evaluation" if experiment.evaluation is not None else "cv")
    # A chunked data set refuses any scheme but k-fold, in one line of its own (chunked_checks).
    for i, d in enumerate(experiment.datasets if key != "cv" else ()):
        if d.chunked or is_chunked(d.path):
            problems.add(key, f"not kept for the chunked data set '{d.name}' "
                              f"(datasets[{i}]); leave it out of this run")
    for run in experiment.runs():
        if run.keeps_predictions and run.preprocess.impute == "drop":
            where = f"arm '{run.arm}': " if run.arm else ""
            problems.add(key, f"{where}impute: drop removes test rows, so they could not be "
                              f"matched to the data file's rows; choose another imputation")


def _scheme_problems(raw: dict, experiment: Experiment, origins: list,
                     problems: Problems) -> None:
    """A ``cv`` beside ``evaluation`` (which draws its own training sets: the ``cv`` would be
    ignored), and tuning by inner cross-validation where training parts repeat rows (the
    bootstrap: copies of a row would be on both sides of an inner fold)."""
    if experiment.evaluation is not None:
        arms = raw.get("arms") if isinstance(raw.get("arms"), list) else []
        given = (["cv"] if "cv" in raw else []) + [
            f"arms[{k}].cv" for k, arm in enumerate(arms) if isinstance(arm, dict) and "cv" in arm]
        for key in given:
            problems.add(key, "not used beside evaluation, which draws its own training and "
                              "test sets; leave it out")
        return
    for run in experiment.runs():
        if not SCHEMES[run.cv.kind].repeats_rows:
            continue
        for spec, i in zip(experiment.classifiers, origins):
            if spec.tune is not None:
                problems.add(f"classifiers[{i}].tune", (
                    f"not with {SCHEMES[run.cv.kind].title}: its training parts hold rows more "
                    f"than once, so inner folds would test copies of their training rows"))


def _published(value, problems: Problems, base_dir: Path) -> str | None:
    """The file of a paper's printed numbers (``bayesbench check``), relative to the config."""
    value = problems.typed(value, "published", str)
    if value is None:
        return None
    path = Path(os.path.realpath(base_dir / os.path.expanduser(value)))  # a loop is no file
    if not path.is_file():
        problems.add("published", f"{shown(value)}: no such file (looked for {path})")
        return None
    return str(path)


def with_arms(experiment: Experiment, arms) -> Experiment:
    """``experiment`` with its arms, each ``(name, preprocess, cv)``, as complete experiments
    named ``<name>.<arm>`` (written to ``<output>/<arm>``)."""
    # Within one arm, an `arm/label` baseline is just the label (its config.yaml must load).
    own = replace(experiment.compare,
                  baseline=(experiment.compare.baseline or "").rpartition("/")[2] or None)
    parent = replace(experiment, arms=())
    return replace(parent, arms=tuple(
        replace(parent, name=f"{experiment.name}.{arm}", preprocess=preprocess, cv=cv,
                arm=arm, compare=own)
        for arm, preprocess, cv in arms))


def override(config: Config, *, repeats: int | None = None, datasets=None, **options) -> Config:
    """``config`` with the command line's overrides, the one place they are applied:
    ``repeats`` replaces ``cv.repeats``, or ``evaluation.repeats`` when the experiment has
    an evaluation, ``datasets`` keeps the data sets it names (in the config's order), and
    every other keyword given (not None) replaces the run option of that name (``output``,
    ``jobs``, ``formats``, ...). An override that would be ignored (``repeats`` other than 1
    of a scheme that runs once; ``worker_threads`` of a serial run) or a data set the
    config does not list is a :class:`ConfigError` whose key is the override's name. The
    figures' ``figure_formats`` and ``consensus_threshold`` replace those of ``figures``."""
    experiment, run = config.experiment, config.options
    figures = {name: options.pop(key) for key, name in (("figure_formats", "formats"), (
        "consensus_threshold", "consensus_threshold")) if options.get(key) is not None}
    if figures:
        options["figures"] = replace(run.figures, **figures)
    if datasets is not None:
        experiment, run = _only(config, list(dict.fromkeys(datasets)))
    if repeats is not None:
        _check_repeats(config, repeats)
        experiment = _each_run(experiment, lambda e: _repeated(e, repeats))
    run = replace(run, **{k: v for k, v in options.items() if v is not None})
    unused = unused_threads(run.jobs, run.scheduler, run.worker_threads)
    if unused and (options.get("jobs") is not None or options.get("worker_threads") is not None):
        key = "worker_threads" if options.get("worker_threads") is not None else "jobs"
        raise ConfigError([(key, unused)], path=config.source)
    return config._replace(experiment=experiment, options=run)


def _check_repeats(config: Config, repeats: int) -> None:
    """Refuse ``repeats`` where it would be ignored: where the ``cv`` scheme's own
    ``repeats`` setting refuses the number (leave-one-out and resubstitution are
    deterministic and run once), or the scheme has none (a bootstrap's replicates are its
    ``bootstrap``). An evaluation's repeats are its decompositions (:func:`_repeated`)."""
    for e in config.experiment.runs():
        if e.evaluation is not None:
            continue
        where = f"arm '{e.arm}': " if e.arm else ""
        setting = {s.key: s for s in SCHEMES[e.cv.kind].settings}.get("repeats")
        why = (None if setting is None and repeats == 1 else
               f"{SCHEMES[e.cv.kind].title} has no repetitions (it runs once)"
               if setting is None else
               setting.check(repeats) if setting.check is not None else None)
        if why:
            raise ConfigError([("repeats", f"{where}{why}")], path=config.source)


def _only(config: Config, wanted: list[str]):
    experiment, options = config.experiment, config.options
    known = {d.name for d in experiment.datasets} | {name for name, _ in options.skipped}
    unknown = [d for d in wanted if d not in known]
    if unknown:
        raise ConfigError([("datasets", f"{', '.join(unknown)}: not a data set of the config; "
                                        f"it lists {', '.join(sorted(known))}")],
                          path=config.source)
    experiment = _each_run(experiment, lambda e: replace(
        e, datasets=tuple(d for d in e.datasets if d.name in wanted)))
    if not experiment.datasets:
        raise ConfigError([("datasets", "none of the chosen data sets was found")],
                          path=config.source)
    return experiment, replace(options, skipped=tuple(m for m in options.skipped
                                                      if m[0] in wanted))


def _each_run(experiment: Experiment, change) -> Experiment:
    """``change`` applied to ``experiment`` and to each of its arms."""
    return replace(change(experiment), arms=tuple(change(arm) for arm in experiment.arms))


def _repeated(experiment: Experiment, repeats: int) -> Experiment:
    """``experiment`` repeated ``repeats`` times: its evaluation's decompositions, else its
    ``cv`` scheme's repetitions."""
    if experiment.evaluation is not None:
        if repeats > bias_variance_sets.MAX_REPEATS:
            raise ConfigError([("repeats", f"{repeats} decompositions; evaluation.repeats is at "
                                           f"most {bias_variance_sets.MAX_REPEATS}")])
        return replace(experiment, evaluation=replace(experiment.evaluation, repeats=repeats))
    return replace(experiment, cv=_with_repeats(experiment.cv, repeats))


def _with_repeats(cv: CVSpec, repeats: int) -> CVSpec:
    """``cv`` repeated ``repeats`` times, if its scheme repeats at all (a deterministic one
    runs once, and :func:`_check_repeats` refused any other number)."""
    settings = dict(cv.settings)
    return replace(cv, settings=tuple({**settings, "repeats": repeats}.items())
                   ) if "repeats" in settings else cv


def key_path(field: tuple) -> str:
    """The config key path of a part of the experiment, such as ``("datasets", 0)``."""
    out = ""
    for part in field:
        out = f"{out}[{part}]" if isinstance(part, int) else f"{out}.{part}" if out else part
    return out


@contextmanager
def key_paths(source=None):
    """Turn a :class:`~bayesbench.errors.PlanError` raised inside into a
    :class:`ConfigError` that names the key path of each problem."""
    try:
        yield
    except PlanError as exc:
        raise ConfigError([(key_path(f), m) for f, m in exc.problems], path=source) from None
