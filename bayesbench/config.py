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
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from .data.load import DATA_ENV, DATA_FORMATS, search_dirs  # noqa: F401 (DATA_ENV: re-exported)
from .errors import BayesbenchError, ConfigError
from .evaluation.metrics import METRIC_NAMES, per_class_metric
from .evaluation.splits import CVSpec
from .report.tables import FORMATS

IMPUTE = ("mean_mode", "weighted_random", "drop", "none")
DISCRETIZE = ("mdl", "fd", "width", "frequency", "none")
SCOPES = ("fold", "global")
NOISE_ON = ("train", "test", "both")
DEFAULT_METRICS = ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro")
COMPARE_TESTS = ("corrected-t", "paired-t", "unpaired-t", "wilcoxon")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


@dataclass(frozen=True)
class DatasetSpec:
    """One data set: the name used in records, its file, its class attribute (None: last)
    and the attributes kept (None: all)."""

    name: str
    path: str
    class_attribute: str | None = None
    attributes: tuple[str, ...] | None = None

    def identity(self) -> dict:
        out = {"name": self.name, "path": self.path, "class": self.class_attribute}
        if self.attributes is not None:  # absent when unused, so older result directories match
            out["attributes"] = list(self.attributes)
        return out


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


@dataclass(frozen=True)
class CompareSpec:
    """The end-of-run comparison: metric (None: the first of ``metrics``), baseline
    (None: the first classifier; ``arm/label`` across arms), test over folds, level."""

    metric: str | None = None
    baseline: str | None = None
    test: str = "corrected-t"
    alpha: float = 0.05

    def to_dict(self) -> dict:
        return {"metric": self.metric, "baseline": self.baseline, "test": self.test,
                "alpha": self.alpha}


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
    compare: CompareSpec = field(default_factory=CompareSpec)
    # Data sets given by name that were not found, with the directories searched
    # (``skip_missing``): (name, message). Not part of the experiment's identity.
    missing: list[tuple[str, str]] = field(default_factory=list)
    # With ``arms:``, one complete experiment per arm (``arm`` holds its name), each
    # written to ``<run_dir>/<arm>``; this config is then only their parent.
    arms: list["ExperimentConfig"] = field(default_factory=list)
    arm: str | None = None

    @property
    def run_dir(self) -> Path:
        return Path(self.output) if self.output else Path("results") / self.name

    def runs(self) -> list["ExperimentConfig"]:
        """The experiments to run: the arms, or this config itself."""
        return list(self.arms) or [self]

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
            "datasets": [d.identity() for d in self.datasets],
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
                    "format": list(self.formats), "data_dirs": list(self.data_dirs),
                    "compare": self.compare.to_dict()})
        if self.arms:
            out["arms"] = [{"name": a.arm, "preprocess": a.identity()["preprocess"],
                            "cv": a.identity()["cv"]} for a in self.arms]
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
            "metrics", "output", "jobs", "scheduler", "format", "compare", "arms")


class _StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (PyYAML keeps the
    last silently, so a second ``classifiers:`` would discard the first without a word)."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # '<<: *anchor' merges keys that the mapping may override
            key = self.construct_object(key_node, deep=True)
            try:
                twice = key in seen
            except TypeError:  # an unhashable key: construct_mapping reports it
                continue
            line = key_node.start_mark.line + 1
            if twice:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key '{key}' given twice (lines {seen[key]} and {line})",
                    key_node.start_mark)
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def load_config(path, *, skip_missing: bool = False) -> ExperimentConfig:
    """Read and validate a YAML experiment file.

    With ``skip_missing``, a data set given by name that is found nowhere is
    left out and listed in ``missing`` instead of being an error.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([("", f"cannot read the config: {exc.strerror}")], path=path) from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise ConfigError([("", f"line {line}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); "
                                f"save the config as UTF-8")], path=path) from None
    try:
        raw = yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ConfigError([("", f"{where}not valid YAML ({getattr(exc, 'problem', exc)})")],
                          path=path) from None
    return parse_config(raw, base_dir=path.resolve().parent, source=path,
                        skip_missing=skip_missing)


def parse_config(raw, *, base_dir=None, source=None,
                 skip_missing: bool = False) -> ExperimentConfig:
    """Validate a config mapping (as ``yaml.safe_load`` returns it).

    Relative data set paths and ``data_dirs`` are taken relative to
    ``base_dir`` (the config file's directory) first, then to the working
    directory.
    """
    base_dir = Path(base_dir) if base_dir is not None else Path.cwd()
    p = _Problems()
    if not isinstance(raw, dict):
        # Nothing else can be checked: one line, not a cascade of "required" keys.
        got = "an empty file" if raw is None else _kind(raw)
        raise ConfigError([("", f"expected a mapping of keys (name, datasets, classifiers, ...), "
                                f"got {got}")], path=source)
    raw = p.mapping(raw, "", TOP_KEYS)

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
    missing = [] if skip_missing else None
    datasets = _datasets(raw.get("datasets"), "datasets" in raw, p, base_dir, data_dirs, missing)
    preprocess = _preprocess(raw.get("preprocess", {}), p)
    cv = _cv(raw.get("cv", {}), p)
    classifiers = _classifiers(raw.get("classifiers"), "classifiers" in raw, p)

    metrics = list(DEFAULT_METRICS)
    if "metrics" in raw:
        metrics = _str_list(raw["metrics"], "metrics", p, choices=METRIC_NAMES,
                            accept=per_class_metric)
    formats = list(FORMATS)
    if "format" in raw:
        formats = _str_list(raw["format"], "format", p, choices=FORMATS)
    output = p.typed(raw["output"], "output", str) if raw.get("output") is not None else None
    jobs = p.typed(raw["jobs"], "jobs", int, low=1) if raw.get("jobs") is not None else None
    scheduler = (p.typed(raw["scheduler"], "scheduler", str)
                 if raw.get("scheduler") is not None else None)
    arms = (_arms(raw.get("arms"), p, raw.get("preprocess", {}), raw.get("cv", {}))
            if "arms" in raw else [])
    compare = (_compare(raw.get("compare"), p, [c.label for c in classifiers],
                        [a for a, _, _ in arms])
               if raw.get("compare") is not None else CompareSpec())

    if p.items:
        raise ConfigError(p.items, path=source)
    if output is not None:
        output = os.path.expanduser(output)  # an output path is relative to the working directory
    config = ExperimentConfig(name=name, seed=seed, datasets=datasets, preprocess=preprocess,
                              cv=cv, classifiers=classifiers, metrics=metrics, output=output,
                              jobs=jobs, scheduler=scheduler, formats=formats,
                              data_dirs=data_dirs, source=None if source is None else str(source),
                              compare=compare, missing=missing or [])
    return with_arms(config, arms)


def with_arms(config: ExperimentConfig, arms) -> ExperimentConfig:
    """``config`` with its arms, each ``(name, preprocess, cv)``, as complete experiments
    named ``<name>.<arm>`` and written to ``<run_dir>/<arm>``."""
    config = replace(config, arms=[])
    # Within one arm, an `arm/label` baseline is just the label (its config.yaml must load).
    own = replace(config.compare, baseline=(config.compare.baseline or "").rpartition("/")[2]
                  or None)
    built = [replace(config, name=f"{config.name}.{arm}", preprocess=preprocess, cv=cv,
                     output=str(config.run_dir / arm), arm=arm, compare=own)
             for arm, preprocess, cv in arms]
    return replace(config, arms=built)


def override(config: ExperimentConfig, *, repeats: int | None = None, datasets=None,
             output=None) -> ExperimentConfig:
    """``config`` with ``cv.repeats`` replaced (k-fold and holdout; the others run once),
    restricted to the data sets named in ``datasets`` (in the config's order; a name
    the config does not list is a :class:`ConfigError`), and written to ``output``."""
    arms = [(a.arm, a.preprocess, a.cv) for a in config.arms]
    if datasets is not None:
        wanted = list(dict.fromkeys(datasets))
        known = {d.name for d in config.datasets} | {name for name, _ in config.missing}
        unknown = [d for d in wanted if d not in known]
        if unknown:
            raise ConfigError([("datasets", f"--datasets names {', '.join(unknown)}, which the "
                                            f"config does not list; it lists "
                                            f"{', '.join(sorted(known))}")], path=config.source)
        config = replace(config, datasets=[d for d in config.datasets if d.name in wanted],
                         missing=[m for m in config.missing if m[0] in wanted])
        if not config.datasets:
            raise ConfigError([("datasets", "none of the chosen data sets was found")],
                              path=config.source)
    if output is not None:
        config = replace(config, output=str(output))
    if repeats is not None:
        config = replace(config, cv=_with_repeats(config.cv, repeats))
        arms = [(name, pre, _with_repeats(cv, repeats)) for name, pre, cv in arms]
    return with_arms(config, arms)


def _with_repeats(cv: CVSpec, repeats: int) -> CVSpec:
    return replace(cv, repeats=repeats) if cv.kind in ("kfold", "holdout") else cv


def _relative(path: str, base_dir: Path) -> Path:
    """An input path: relative to the config file's directory, else to the working directory."""
    path = Path(os.path.expanduser(path))
    if path.is_absolute():
        return path
    if not (base_dir / path).exists() and path.exists():
        return path.resolve()
    return (base_dir / path).resolve()


def _str_list(value, key, p: _Problems, choices, accept=None) -> list[str]:
    """A string or list of strings from ``choices`` (or that ``accept`` accepts)."""
    items = [value] if isinstance(value, str) else p.typed(value, key, list) or []
    out = []
    for i, item in enumerate(items):
        item_key = key if isinstance(value, str) else f"{key}[{i}]"
        if accept is not None and isinstance(item, str) and accept(item):
            out.append(item)
        elif p.typed(item, item_key, str, choices=choices) is not None:
            out.append(item)
    return out


def _datasets(value, present, p: _Problems, base_dir, data_dirs, missing=None) -> list[DatasetSpec]:
    """The data set specs; with ``missing`` a list, names found nowhere go there
    as ``(name, message)`` instead of being problems."""
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
        class_attribute = label = attributes = None
        if isinstance(item, dict):
            item = p.mapping(item, key, ("path", "name", "class", "attributes"))
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
            if item.get("attributes") is not None:
                attributes = _attribute_list(item["attributes"], _join(key, "attributes"), p)
        else:
            ref_key = key
            ref = p.typed(item, key, str)
            if ref is None:
                continue
        looks_like_path = os.sep in ref or "/" in ref or Path(ref).suffix.lower() in DATA_FORMATS
        path = _relative(ref, base_dir) if looks_like_path else find_dataset(ref, dirs)
        if path is None or not Path(path).is_file():
            where = ("" if looks_like_path else
                     "; searched " + ", ".join(str(d) for d in dirs))
            if missing is not None and not looks_like_path:
                missing.append((ref, f"data file not found: {ref}{where}"))
            elif path is not None and Path(path).is_dir():
                p.add(ref_key, f"{ref} is a directory; expected a data file (.arff, .csv, "
                               f".libsvm, .svm)")
            else:
                p.add(ref_key, f"data file not found: {ref}{where}")
            continue
        name = label or Path(path).stem
        if name in seen:
            p.add(key, f"data set name '{name}' is used twice (also {seen[name]}); "
                       "give one a different 'name'")
            continue
        seen[name] = key
        out.append(DatasetSpec(name, str(Path(path).resolve()), class_attribute, attributes))
    if missing and not out and items:
        p.add("datasets", "none of the data sets was found: " +
              "; ".join(message for _, message in missing))
    return out


def _attribute_list(value, key, p: _Problems) -> tuple[str, ...] | None:
    """Attribute names to keep (the class is always kept); checked against the file in
    :func:`bayesbench.evaluation.runner.plan`, which reads it."""
    items = p.typed(value, key, list)
    if items is None:
        return None
    if not items:
        p.add(key, "the list is empty (leave the key out to keep every attribute)")
        return None
    names = [p.typed(a, f"{key}[{i}]", str) for i, a in enumerate(items)]
    for dup in sorted({a for a in names if a is not None and names.count(a) > 1}):
        p.add(key, f"attribute '{dup}' is listed more than once")
    return tuple(names) if None not in names else None


def _preprocess(value, p: _Problems, at: str = "preprocess") -> PreprocessSpec:
    value = p.mapping(value, at, ("impute", "discretize", "bins", "scope", "noise"))
    kw = {}
    for key, choices in (("impute", IMPUTE), ("discretize", DISCRETIZE), ("scope", SCOPES)):
        if key in value:
            kw[key] = p.typed(value[key], f"{at}.{key}", str, choices=choices)
    if "bins" in value:
        kw["bins"] = p.typed(value["bins"], f"{at}.bins", int, low=2)
    if value.get("noise") is not None:
        noise = value["noise"]
        if isinstance(noise, dict) and True in noise and "on" not in noise:
            # YAML 1.1 (PyYAML) reads a bare key `on` as the boolean true.
            noise = {("on" if k is True else k): v for k, v in noise.items()}
        noise = p.mapping(noise, f"{at}.noise", ("fraction", "on"))
        if "fraction" not in noise and isinstance(value["noise"], dict):
            p.add(f"{at}.noise.fraction", "required")
        fraction = p.typed(noise.get("fraction", 0.0), f"{at}.noise.fraction", float,
                           low=0.0, high=1.0)
        on = p.typed(noise.get("on", "train"), f"{at}.noise.on", str, choices=NOISE_ON)
        if fraction is not None and on is not None:
            kw["noise"] = NoiseSpec(fraction, on)
    return PreprocessSpec(**{k: v for k, v in kw.items() if v is not None})


def _cv(value, p: _Problems, at: str = "cv") -> CVSpec:
    value = p.mapping(value, at, ("folds", "repeats", "stratified", "holdout",
                                    "resubstitution", "loo"))
    kinds = [k for k in ("holdout", "resubstitution", "loo") if k in value]
    if len(kinds) > 1 or (kinds and "folds" in value):
        p.add(at, f"choose one of folds, holdout, resubstitution, loo; got "
                    f"{', '.join(k for k in ('folds', *kinds) if k in value)}")
        return CVSpec()
    kw = {}
    if "repeats" in value:
        kw["repeats"] = p.typed(value["repeats"], f"{at}.repeats", int, low=1)
    if "stratified" in value:
        kw["stratified"] = p.typed(value["stratified"], f"{at}.stratified", bool)
    if "folds" in value:
        kw["folds"] = p.typed(value["folds"], f"{at}.folds", int, low=2)
    if kinds == ["holdout"]:
        fraction = p.typed(value["holdout"], f"{at}.holdout", float, low=0.0, high=1.0)
        if fraction in (0.0, 1.0):
            p.add(f"{at}.holdout", "the test fraction must lie strictly between 0 and 1")
        kw.update(kind="holdout", fraction=fraction)
    elif kinds:
        flag = p.typed(value[kinds[0]], f"{at}.{kinds[0]}", bool)
        if flag is False:
            p.add(f"{at}.{kinds[0]}", "write it as true, or leave it out for k-fold")
        kw["kind"] = kinds[0]
        if "repeats" in value and value["repeats"] != 1:
            p.add(f"{at}.repeats", f"{kinds[0]} is deterministic; repeats must be 1")
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


ARM_KEYS = ("name", "preprocess", "cv")


def _arms(value, p: _Problems, preprocess, cv) -> list[tuple[str, PreprocessSpec, CVSpec]]:
    """``(name, preprocess, cv)`` of each arm: the arm's ``preprocess`` keys override the
    top-level ones one by one; its ``cv``, when given, replaces the top-level ``cv``."""
    items = p.typed(value, "arms", list)
    if items is None:
        return []
    if not items:
        p.add("arms", "the list is empty (leave the key out for a single run)")
    out, seen = [], set()
    quiet = _Problems()  # the top-level keys' own problems are reported once, not per arm
    for i, item in enumerate(items):
        key = f"arms[{i}]"
        item = p.mapping(item, key, ARM_KEYS)
        if "name" not in item:
            if isinstance(items[i], dict):
                p.add(_join(key, "name"), "required (it names the arm's result directory)")
            continue
        name = p.typed(item["name"], _join(key, "name"), str)
        if name is not None and not _NAME.match(name):
            p.add(_join(key, "name"), f"'{name}' must be letters, digits, '_', '.', '+' or "
                                      "'-' (it names the arm's result directory)")
            name = None
        elif name in seen:
            p.add(_join(key, "name"), f"arm '{name}' is used twice")
            name = None
        seen.add(name)
        own_pre = item.get("preprocess") or {}
        _preprocess(own_pre, p, _join(key, "preprocess"))
        own_cv = item.get("cv")
        if own_cv is not None:
            arm_cv = _cv(own_cv, p, _join(key, "cv"))
        else:
            arm_cv = _cv(cv, quiet)
        merged = dict(preprocess if isinstance(preprocess, dict) else {})
        if isinstance(own_pre, dict):
            merged.update(own_pre)
        if name is not None:
            out.append((name, _preprocess(merged, quiet), arm_cv))
    return out


def _compare(value, p: _Problems, labels, arms) -> CompareSpec:
    value = p.mapping(value, "compare", ("metric", "baseline", "test", "alpha"))
    kw = {}
    if value.get("metric") is not None:
        metric = p.typed(value["metric"], "compare.metric", str)
        if metric is not None and metric not in METRIC_NAMES and not per_class_metric(metric):
            p.add("compare.metric", f"unknown metric '{metric}'{_suggest(metric, METRIC_NAMES)}; "
                                    f"expected one of {', '.join(METRIC_NAMES)} or a per-class "
                                    "score such as f1[CLASS]")
        kw["metric"] = metric
    if value.get("baseline") is not None:
        baseline = p.typed(value["baseline"], "compare.baseline", str)
        arm, _, label = (baseline or "").rpartition("/")
        if baseline is not None and (label not in labels or (arm and arm not in arms)):
            choices = [f"{a}/{c}" for a in arms for c in labels] if arms else labels
            p.add("compare.baseline", f"'{baseline}' is not a classifier label"
                                      f"{_suggest(baseline, choices)}; expected one of "
                                      f"{', '.join(choices)}")
        kw["baseline"] = baseline
    if "test" in value:
        kw["test"] = p.typed(value["test"], "compare.test", str, choices=COMPARE_TESTS)
    if "alpha" in value:
        alpha = p.typed(value["alpha"], "compare.alpha", float, low=0.0, high=1.0)
        if alpha in (0.0, 1.0):
            p.add("compare.alpha", "the level must lie strictly between 0 and 1")
        kw["alpha"] = alpha
    return CompareSpec(**{k: v for k, v in kw.items() if v is not None})
