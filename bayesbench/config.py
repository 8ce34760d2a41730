"""Experiment configuration: YAML in, a validated :class:`ExperimentConfig` out.

Validation collects every problem (unknown key, wrong type or value, missing
data file, unknown classifier or parameter) with its key path, such as
``classifiers[2].params.k``, and raises them together as one
:class:`~bayesbench.errors.ConfigError` before any work starts. The README's
``## Configuration`` section documents each key.
"""
from __future__ import annotations

import difflib
import itertools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import BayesbenchError, ConfigError
from .evaluation.metrics import METRIC_NAMES
from .evaluation.splits import CVSpec
from .report.tables import FORMATS

IMPUTE = ("mean_mode", "weighted_random", "drop", "none")
DISCRETIZE = ("mdl", "fd", "width", "frequency", "none")
SCOPES = ("fold", "global")
NOISE_ON = ("train", "test", "both")
DEFAULT_METRICS = ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro")
DATA_ENV = "BAYESBENCH_DATA"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclass(frozen=True)
class DatasetSpec:
    """One data set: the name used in records, its file, and its class attribute (None: last)."""

    name: str
    path: str
    class_attribute: str | None = None


@dataclass(frozen=True)
class NoiseSpec:
    """Paper 003's noise: shuffle the values of ``fraction`` of the attributes, on ``on``."""

    fraction: float
    on: str = "train"


@dataclass(frozen=True)
class PreprocessSpec:
    impute: str = "none"
    discretize: str = "mdl"
    bins: int = 10
    scope: str = "fold"
    noise: NoiseSpec | None = None


@dataclass(frozen=True)
class ClassifierSpec:
    """One classifier of the experiment: its label in results, registry name and parameters."""

    label: str
    learner: str
    params: dict = field(default_factory=dict)


@dataclass
class ExperimentConfig:
    """A validated experiment: what to run (identity) and how (output, jobs, scheduler, formats)."""

    name: str
    seed: int
    datasets: list[DatasetSpec]
    preprocess: PreprocessSpec
    cv: CVSpec
    classifiers: list[ClassifierSpec]
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    output: str | None = None
    jobs: int | None = None
    scheduler: str | None = None
    formats: list[str] = field(default_factory=lambda: list(FORMATS))
    data_dirs: list[str] = field(default_factory=list)
    source: str | None = None

    @property
    def run_dir(self) -> Path:
        return Path(self.output) if self.output else Path("results") / self.name

    def identity(self) -> dict:
        """The part of the config that determines the results (not where or how fast)."""
        pre = self.preprocess
        cv = {"folds": self.cv.folds, "repeats": self.cv.repeats,
              "stratified": self.cv.stratified} if self.cv.kind == "kfold" else (
            {"holdout": self.cv.fraction, "repeats": self.cv.repeats,
             "stratified": self.cv.stratified} if self.cv.kind == "holdout" else
            {self.cv.kind: True})
        return {
            "name": self.name,
            "seed": self.seed,
            "datasets": [{"name": d.name, "path": d.path, "class": d.class_attribute}
                         for d in self.datasets],
            "preprocess": {"impute": pre.impute, "discretize": pre.discretize, "bins": pre.bins,
                           "scope": pre.scope,
                           "noise": None if pre.noise is None else
                           {"fraction": pre.noise.fraction, "on": pre.noise.on}},
            "cv": cv,
            "classifiers": [{"label": c.label, "name": c.learner, "params": dict(c.params)}
                            for c in self.classifiers],
        }

    def to_dict(self) -> dict:
        """The resolved config, every default filled in, as written to ``config.yaml``."""
        out = self.identity()
        out.update({"metrics": list(self.metrics), "output": str(self.run_dir),
                    "jobs": self.jobs, "scheduler": self.scheduler,
                    "format": list(self.formats), "data_dirs": list(self.data_dirs)})
        return out


class _Problems:
    def __init__(self):
        self.items: list[tuple[str, str]] = []

    def add(self, key: str, message: str) -> None:
        self.items.append((key, message))

    def mapping(self, value, key: str, allowed: tuple[str, ...]) -> dict:
        if not isinstance(value, dict):
            self.add(key, f"expected a mapping, got {_kind(value)}")
            return {}
        for k in value:
            if k not in allowed:
                self.add(_join(key, k), f"unknown key{_suggest(k, allowed)}; expected one of "
                                        f"{', '.join(allowed)}")
        return value

    def typed(self, value, key: str, kind, *, low=None, high=None, choices=None):
        """``value`` if it has type ``kind`` (and lies in range / in choices), else None."""
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            self.add(key, f"expected {_KIND_NAMES.get(kind, kind.__name__)}, "
                          f"got {_kind(value)} {value!r}")
            return None
        if choices is not None and value not in choices:
            self.add(key, f"'{value}' is not one of {', '.join(choices)}")
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            self.add(key, f"expected a value {bounds}, got {value!r}")
            return None
        return value


_KIND_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a mapping"}


def _suggest(word, options) -> str:
    close = difflib.get_close_matches(str(word), list(options), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _kind(value) -> str:
    if value is None:
        return "nothing"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


def _join(key: str, child) -> str:
    if isinstance(child, int):
        return f"{key}[{child}]"
    return f"{key}.{child}" if key else str(child)


TOP_KEYS = ("name", "seed", "datasets", "data_dirs", "preprocess", "cv", "classifiers",
            "metrics", "output", "jobs", "scheduler", "format")


def load_config(path) -> ExperimentConfig:
    """Read and validate a YAML experiment file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([("", f"cannot read the config: {exc.strerror}")], path=path) from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ConfigError([("", f"{where}not valid YAML ({getattr(exc, 'problem', exc)})")],
                          path=path) from None
    return parse_config(raw, base_dir=path.resolve().parent, source=path)


def parse_config(raw, *, base_dir=None, source=None) -> ExperimentConfig:
    """Validate a config mapping (as ``yaml.safe_load`` returns it).

    Relative data set paths and ``data_dirs`` are taken relative to
    ``base_dir`` (the config file's directory) first, then to the working
    directory.
    """
    base_dir = Path(base_dir) if base_dir is not None else Path.cwd()
    p = _Problems()
    raw = p.mapping(raw if raw is not None else {}, "", TOP_KEYS)

    name = None
    if "name" not in raw:
        p.add("name", "required (it names the result directory)")
    else:
        name = p.typed(raw["name"], "name", str)
    if name is not None and not _NAME.match(name):
        p.add("name", f"'{name}' must be letters, digits, '_', '.', '+' or '-' "
                      "(it names the result directory)")
        name = None
    seed = p.typed(raw["seed"], "seed", int, low=0) if "seed" in raw else 0

    data_dirs = []
    if "data_dirs" in raw:
        dirs = p.typed(raw["data_dirs"], "data_dirs", list) or []
        for i, d in enumerate(dirs):
            if p.typed(d, f"data_dirs[{i}]", str) is not None:
                resolved = _relative(d, base_dir)
                if not resolved.is_dir():
                    p.add(f"data_dirs[{i}]", f"no such directory: {d}")
                data_dirs.append(str(resolved))
    datasets = _datasets(raw.get("datasets"), "datasets" in raw, p, base_dir, data_dirs)
    preprocess = _preprocess(raw.get("preprocess", {}), p)
    cv = _cv(raw.get("cv", {}), p)
    classifiers = _classifiers(raw.get("classifiers"), "classifiers" in raw, p)

    metrics = list(DEFAULT_METRICS)
    if "metrics" in raw:
        metrics = _str_list(raw["metrics"], "metrics", p, choices=METRIC_NAMES)
    formats = list(FORMATS)
    if "format" in raw:
        formats = _str_list(raw["format"], "format", p, choices=FORMATS)
    output = p.typed(raw["output"], "output", str) if raw.get("output") is not None else None
    jobs = p.typed(raw["jobs"], "jobs", int, low=1) if raw.get("jobs") is not None else None
    scheduler = (p.typed(raw["scheduler"], "scheduler", str)
                 if raw.get("scheduler") is not None else None)

    if p.items:
        raise ConfigError(p.items, path=source)
    if output is not None:
        output = os.path.expanduser(output)  # an output path is relative to the working directory
    return ExperimentConfig(name=name, seed=seed, datasets=datasets, preprocess=preprocess,
                            cv=cv, classifiers=classifiers, metrics=metrics, output=output,
                            jobs=jobs, scheduler=scheduler, formats=formats,
                            data_dirs=data_dirs, source=None if source is None else str(source))


def _relative(path: str, base_dir: Path) -> Path:
    """An input path: relative to the config file's directory, else to the working directory."""
    path = Path(os.path.expanduser(path))
    if path.is_absolute():
        return path
    if not (base_dir / path).exists() and path.exists():
        return path.resolve()
    return (base_dir / path).resolve()


def _str_list(value, key, p: _Problems, choices) -> list[str]:
    items = [value] if isinstance(value, str) else p.typed(value, key, list) or []
    out = []
    for i, item in enumerate(items):
        item_key = key if isinstance(value, str) else f"{key}[{i}]"
        if p.typed(item, item_key, str, choices=choices) is not None:
            out.append(item)
    return out


def search_dirs(data_dirs) -> list[Path]:
    """Where a data set given by name is looked for, in order."""
    dirs = [Path.cwd() / "datasets", *map(Path, data_dirs)]
    dirs += [Path(d) for d in os.environ.get(DATA_ENV, "").split(os.pathsep) if d]
    from .data import bundled_dir
    return dirs + [bundled_dir()]


_DATA_SUFFIXES = (".arff", ".csv", ".libsvm", ".svm")


def _datasets(value, present, p: _Problems, base_dir, data_dirs) -> list[DatasetSpec]:
    from .data import find_dataset

    if not present:
        p.add("datasets", "required: a list of data set names or paths")
        return []
    items = p.typed(value, "datasets", list)
    if items is None:
        return []
    if not items:
        p.add("datasets", "the list is empty")
    out, seen = [], {}
    dirs = search_dirs(data_dirs)
    for i, item in enumerate(items):
        key = f"datasets[{i}]"
        class_attribute = label = None
        if isinstance(item, dict):
            item = p.mapping(item, key, ("path", "name", "class"))
            ref = item.get("path", item.get("name"))
            if ref is None:
                p.add(key, "needs 'path' or 'name'")
                continue
            ref_key = _join(key, "path" if "path" in item else "name")
            if p.typed(ref, ref_key, str) is None:
                continue
            if item.get("class") is not None:
                class_attribute = p.typed(item["class"], _join(key, "class"), str)
            if "path" in item and "name" in item:
                label = p.typed(item["name"], _join(key, "name"), str)
        else:
            ref_key = key
            ref = p.typed(item, key, str)
            if ref is None:
                continue
        looks_like_path = os.sep in ref or "/" in ref or Path(ref).suffix.lower() in _DATA_SUFFIXES
        path = _relative(ref, base_dir) if looks_like_path else find_dataset(ref, dirs)
        if path is None or not Path(path).is_file():
            where = ("" if looks_like_path else
                     "; searched " + ", ".join(str(d) for d in dirs))
            p.add(ref_key, f"data file not found: {ref}{where}")
            continue
        name = label or Path(path).stem
        if name in seen:
            p.add(key, f"data set name '{name}' is used twice (also {seen[name]}); "
                       "give one a different 'name'")
            continue
        seen[name] = key
        out.append(DatasetSpec(name, str(Path(path).resolve()), class_attribute))
    return out


def _preprocess(value, p: _Problems) -> PreprocessSpec:
    value = p.mapping(value, "preprocess", ("impute", "discretize", "bins", "scope", "noise"))
    kw = {}
    for key, choices in (("impute", IMPUTE), ("discretize", DISCRETIZE), ("scope", SCOPES)):
        if key in value:
            kw[key] = p.typed(value[key], f"preprocess.{key}", str, choices=choices)
    if "bins" in value:
        kw["bins"] = p.typed(value["bins"], "preprocess.bins", int, low=2)
    if value.get("noise") is not None:
        noise = value["noise"]
        if isinstance(noise, dict) and True in noise and "on" not in noise:
            # YAML 1.1 (PyYAML) reads a bare key `on` as the boolean true.
            noise = {("on" if k is True else k): v for k, v in noise.items()}
        noise = p.mapping(noise, "preprocess.noise", ("fraction", "on"))
        if "fraction" not in noise and isinstance(value["noise"], dict):
            p.add("preprocess.noise.fraction", "required")
        fraction = p.typed(noise.get("fraction", 0.0), "preprocess.noise.fraction", float,
                           low=0.0, high=1.0)
        on = p.typed(noise.get("on", "train"), "preprocess.noise.on", str, choices=NOISE_ON)
        if fraction is not None and on is not None:
            kw["noise"] = NoiseSpec(fraction, on)
    return PreprocessSpec(**{k: v for k, v in kw.items() if v is not None})


def _cv(value, p: _Problems) -> CVSpec:
    value = p.mapping(value, "cv", ("folds", "repeats", "stratified", "holdout",
                                    "resubstitution", "loo"))
    kinds = [k for k in ("holdout", "resubstitution", "loo") if k in value]
    if len(kinds) > 1 or (kinds and "folds" in value):
        p.add("cv", f"choose one of folds, holdout, resubstitution, loo; got "
                    f"{', '.join(k for k in ('folds', *kinds) if k in value)}")
        return CVSpec()
    kw = {}
    if "repeats" in value:
        kw["repeats"] = p.typed(value["repeats"], "cv.repeats", int, low=1)
    if "stratified" in value:
        kw["stratified"] = p.typed(value["stratified"], "cv.stratified", bool)
    if "folds" in value:
        kw["folds"] = p.typed(value["folds"], "cv.folds", int, low=2)
    if kinds == ["holdout"]:
        fraction = p.typed(value["holdout"], "cv.holdout", float, low=0.0, high=1.0)
        if fraction in (0.0, 1.0):
            p.add("cv.holdout", "the test fraction must lie strictly between 0 and 1")
        kw.update(kind="holdout", fraction=fraction)
    elif kinds:
        flag = p.typed(value[kinds[0]], f"cv.{kinds[0]}", bool)
        if flag is False:
            p.add(f"cv.{kinds[0]}", "write it as true, or leave it out for k-fold")
        kw["kind"] = kinds[0]
        if "repeats" in value and value["repeats"] != 1:
            p.add("cv.repeats", f"{kinds[0]} is deterministic; repeats must be 1")
    return CVSpec(**{k: v for k, v in kw.items() if v is not None})


def _classifiers(value, present, p: _Problems) -> list[ClassifierSpec]:
    if not present:
        p.add("classifiers", "required: a list of classifiers")
        return []
    items = p.typed(value, "classifiers", list)
    if items is None:
        return []
    if not items:
        p.add("classifiers", "the list is empty")
    from .models.registry import classifier_class, list_classifiers

    out = []
    for i, item in enumerate(items):
        key = f"classifiers[{i}]"
        if isinstance(item, str):
            item = {"name": item}
        item = p.mapping(item, key, ("name", "params", "label"))
        if "name" not in item:
            if isinstance(items[i], dict):
                p.add(_join(key, "name"), "required")
            continue
        learner = p.typed(item["name"], _join(key, "name"), str)
        label = p.typed(item["label"], _join(key, "label"), str) if "label" in item else None
        params = item.get("params") or {}
        if not isinstance(params, dict):
            p.add(_join(key, "params"), f"expected a mapping, got {_kind(params)}")
            params = {}
        if learner is None:
            continue
        try:
            cls = classifier_class(learner)
        except (BayesbenchError, KeyError, ImportError, AttributeError):
            p.add(_join(key, "name"), f"unknown classifier '{learner}'"
                                      f"{_suggest(learner, list_classifiers())}; known: "
                                      f"{', '.join(list_classifiers())}")
            continue
        valid = cls._param_names()
        bad = False
        for pname in params:
            if pname not in valid:
                p.add(f"{key}.params.{pname}",
                      f"'{learner}' has no parameter '{pname}'{_suggest(pname, valid)}; "
                      f"its parameters: {', '.join(valid) or '(none)'}")
                bad = True
        if bad:
            continue
        grid_keys = [k for k, v in params.items() if isinstance(v, list)]
        for pname in grid_keys:
            if not params[pname]:
                p.add(f"{key}.params.{pname}", "an empty list gives no classifier")
                bad = True
        if bad:
            continue
        base_label = label or learner
        for combo in itertools.product(*(params[k] for k in grid_keys)):
            chosen = dict(params, **dict(zip(grid_keys, combo)))
            suffix = ",".join(f"{k}={v}" for k, v in zip(grid_keys, combo))
            out.append(ClassifierSpec(f"{base_label}({suffix})" if grid_keys else base_label,
                                      learner, chosen))
    labels = [c.label for c in out]
    for dup in sorted({x for x in labels if labels.count(x) > 1}):
        p.add("classifiers", f"label '{dup}' is used more than once; give each a 'label'")
    return out
