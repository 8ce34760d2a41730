"""The experiment's sections of a config: ``preprocess``, ``cv``, ``classifiers``, ``arms``
and ``compare``, each checked against the choice lists of the modules that implement them."""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from ..data.encode import INPUT_KINDS
from ..errors import ClassifierError
from ..evaluation import bias_variance_sets
from ..evaluation.metrics import METRIC_NAMES, PREDICTION_METRICS, is_metric
from ..evaluation.prepare import NOISE_SIDES, NOISE_WHEN, SCOPES
from ..evaluation.schemes import DEFAULT_SCHEME, SCHEMES
from ..preprocess.noise import NOISE_MODES
from ..models.registry import (classifier_class, is_import_path, make_classifier, make_step,
                               parameter_defaults)
from ..preprocess.discretize import methods as discretizations, methods_reading
from ..preprocess.impute import STRATEGIES
from ..spec import (ClassifierSpec, CompareSpec, CVSpec, EvaluationSpec,
                    NoiseSpec, PreprocessSpec, TuneSpec)
from ..stats import FOLD_TESTS
from .problems import Problems, join, kind_of, shown, suggest

# A name that names a directory: at most 100 characters (a file name has at most 255 bytes).
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$")
# The keys each section accepts (docs/configuration.md documents every one; a test checks).
ARM_KEYS = ("name", "preprocess", "cv")
CLASSIFIER_KEYS = ("name", "params", "label", "input", "tune", "steps")
TUNE_KEYS = ("params", "folds", "metric")
STEP_KEYS = ("name", "params")
PREPROCESS_KEYS = ("impute", "discretize", "bins", "max_cuts", "scope", "noise")
NOISE_KEYS = ("fraction", "on", "mode", "when")


class _SchemeKeys(Sequence):
    """The ``cv`` keys: every key a scheme of :data:`SCHEMES` takes, in the table's order, then
    ``train_sizes``; read from the table when asked, so that a scheme added to it is a key the
    parser accepts."""

    def _keys(self) -> tuple[str, ...]:
        keys = dict.fromkeys(s.key for scheme in SCHEMES.values() for s in scheme.settings)
        return (*keys, "train_sizes")

    def __getitem__(self, i):
        return self._keys()[i]

    def __len__(self) -> int:
        return len(self._keys())


CV_KEYS = _SchemeKeys()
COMPARE_KEYS = ("metric", "baseline", "test", "alpha", "rope")
EVALUATION_KEYS = ("kind", "method", "iterations", "train_fraction", "repeats")
# Classifiers of one experiment, each setting of a parameter grid counted, and settings of
# one classifier's tuning grid: a bound on the work a config check does and on the tasks
# (or inner fits) it asks for.
MAX_CLASSIFIERS = 1000
# Sizes of one learning curve: each multiplies the tasks of the experiment.
MAX_TRAIN_SIZES = 20


def preprocess(value, problems: Problems, at: str = "preprocess") -> PreprocessSpec:
    value = problems.mapping(value, at, PREPROCESS_KEYS)
    kw = {}
    for key, choices in (("impute", STRATEGIES), ("discretize", discretizations()), ("scope", SCOPES)):
        if key in value:
            kw[key] = problems.typed(value[key], f"{at}.{key}", str, choices=choices)
    if "bins" in value:
        kw["bins"] = problems.typed(value["bins"], f"{at}.bins", int, low=2)
    if value.get("max_cuts") is not None:
        kw["max_cuts"] = problems.typed(value["max_cuts"], f"{at}.max_cuts", int, low=1)
        bounded = methods_reading("max_cuts")
        if kw.get("discretize", "mdl") not in bounded:
            problems.add(f"{at}.max_cuts", f"bounds the cut points of discretize: "
                         f"{' or '.join(bounded)} only, not of {kw['discretize']}")
    if value.get("noise") is not None:
        kw["noise"] = _noise(value["noise"], problems, f"{at}.noise")
    return PreprocessSpec(**{k: v for k, v in kw.items() if v is not None})


def _noise(value, problems: Problems, at: str) -> NoiseSpec | None:
    noise = value
    if isinstance(noise, dict) and True in noise and "on" not in noise:
        # YAML 1.1 (PyYAML) reads a bare key `on` as the boolean true.
        noise = {("on" if k is True else k): v for k, v in noise.items()}
    noise = problems.mapping(noise, at, NOISE_KEYS)
    if "fraction" not in noise and isinstance(value, dict):
        problems.add(f"{at}.fraction", "required")
    fraction = problems.typed(noise.get("fraction", 0.0), f"{at}.fraction", float, low=0.0, high=1.0)
    when = problems.typed(noise.get("when", "fold"), f"{at}.when", str, choices=NOISE_WHEN)
    # noise drawn once alters the whole data set: both parts of every fold
    on = problems.typed(noise.get("on", "both" if when == "once" else "train"), f"{at}.on",
                        str, choices=NOISE_SIDES)
    if when == "once" and on not in (None, "both"):
        problems.add(f"{at}.on", f"'{on}' names one part of a fold, but noise drawn once "
                                 f"alters the whole data set before it is split; give 'both' "
                                 f"or leave it out")
        on = None
    mode = problems.typed(noise.get("mode", "attributes"), f"{at}.mode", str, choices=tuple(NOISE_MODES))
    values = (fraction, on, mode, when)
    return NoiseSpec(*values) if None not in values else None


def cv(value, problems: Problems, at: str = "cv") -> CVSpec:
    """The ``cv`` mapping as the spec of the scheme its keys choose (:data:`SCHEMES`: the one
    whose selector key is given, else the default), each key checked against the scheme's
    declared :class:`~bayesbench.evaluation.schemes.Setting`."""
    value = problems.mapping(value, at, CV_KEYS)
    default = SCHEMES[DEFAULT_SCHEME]
    chosen = [s for s in SCHEMES.values() if s is not default and s.selector() in value]
    selectors = [s.selector() for s in SCHEMES.values()]
    if len(chosen) > 1 or (chosen and default.selector() in value):
        problems.add(at, f"choose one of {', '.join(selectors)}; got "
                         f"{', '.join(k for k in selectors if k in value)}")
        return CVSpec()
    scheme = chosen[0] if chosen else default
    takes = {s.key: s for s in scheme.settings}
    values = {}
    for key in value:
        if key == "train_sizes":
            continue
        if key not in takes:
            others = [s.title for s in SCHEMES.values() if key in {t.key for t in s.settings}]
            if others:  # else an unknown key, already reported
                listed = " and ".join([", ".join(others[:-1]), others[-1]] if len(others) > 1
                                      else others)
                problems.add(f"{at}.{key}", f"applies to {listed} only, not {scheme.name}")
            continue
        setting = takes[key]
        given = value[key] if setting.coerce is None else setting.coerce(value[key])
        checked = problems.typed(given, f"{at}.{key}", setting.kind, low=setting.low,
                                 high=setting.high, choices=setting.choices)
        why = None if checked is None or setting.check is None else setting.check(checked)
        if why:
            problems.add(f"{at}.{key}", why)
        elif checked is not None:
            values[key] = checked
    sizes = _train_sizes(value, scheme, problems, f"{at}.train_sizes")
    return scheme.spec(**values, **({"train_sizes": sizes} if sizes else {}))


def _train_sizes(cv: dict, scheme, problems: Problems, at: str) -> tuple | None:
    """The sizes of a learning curve (``cv``'s ``train_sizes``; None without it): rows (an
    integer, at least 2) or fractions of the training part (a number in (0, 1]), distinct,
    at most :data:`MAX_TRAIN_SIZES`."""
    if "train_sizes" not in cv:
        return None
    value = cv["train_sizes"]
    if not scheme.learning_curve:
        curves = [s.title for s in SCHEMES.values() if s.learning_curve]
        problems.add(at, f"a learning curve subsamples the training part of "
                         f"{' or '.join(curves)}, not of {scheme.name}")
        return None
    sizes = problems.typed(value, at, list)
    if sizes is None:
        return None
    if not sizes or len(sizes) > MAX_TRAIN_SIZES:
        problems.add(at, f"expected 1 to {MAX_TRAIN_SIZES} sizes, got {len(sizes)}")
        return None
    out = []
    for i, size in enumerate(sizes):
        if isinstance(size, float) and not 0.0 < size <= 1.0:
            problems.add(f"{at}[{i}]", f"a fraction of the training part lies in (0, 1], got "
                                       f"{shown(size)}")
        elif isinstance(size, float) or problems.typed(size, f"{at}[{i}]", int, low=2) is not None:
            out.append(size)
    if len(set(out)) < len(out):
        problems.add(at, f"a size is listed twice: {shown(sizes)}")
    return tuple(out) if len(out) == len(sizes) and len(set(out)) == len(out) else None
def evaluation(value, problems: Problems, at: str = "evaluation") -> EvaluationSpec | None:
    """The evaluation that replaces the ``cv`` scheme (None when the keys are unusable)."""
    value = problems.mapping(value, at, EVALUATION_KEYS)
    if "kind" not in value:
        problems.add(f"{at}.kind", f"required (one of {', '.join(bias_variance_sets.KINDS)})")
        return None
    kw = {"kind": problems.typed(value["kind"], f"{at}.kind", str, choices=bias_variance_sets.KINDS)}
    if "method" in value:
        kw["method"] = problems.typed(value["method"], f"{at}.method", str,
                                        choices=bias_variance_sets.METHODS)
    if "iterations" in value:
        # Weka's estimate of bias² divides by iterations - 1.
        kw["iterations"] = problems.typed(value["iterations"], f"{at}.iterations", int, low=2,
                                          high=bias_variance_sets.MAX_ITERATIONS)
    if "repeats" in value:
        # Each decomposition is `iterations` tasks per classifier: bounded as cv.repeats is.
        kw["repeats"] = problems.typed(value["repeats"], f"{at}.repeats", int, low=1,
                                       high=bias_variance_sets.MAX_REPEATS)
    if "train_fraction" in value:
        fraction = problems.typed(value["train_fraction"], f"{at}.train_fraction", float,
                                  low=0.0, high=1.0)
        pooled = kw.get("method", "kohavi_wolpert") == "kohavi_wolpert"
        if fraction is not None and not (0.0 < fraction <= 0.5 if pooled else 0.0 < fraction < 1.0):
            problems.add(f"{at}.train_fraction", (
                f"{fraction:g}: the training pool of kohavi_wolpert holds more than none and "
                f"at most half the data (Weka's BVDecompose)" if pooled else
                f"{fraction:g}: must lie strictly between 0 and 1"))
            fraction = None
        kw["train_fraction"] = fraction
    if None in kw.values():
        return None
    return EvaluationSpec(**kw)


def classifiers(raw: dict, problems: Problems, origins: list | None = None) -> list[ClassifierSpec]:
    """The classifiers of the ``classifiers`` key; ``origins`` (a list) receives the index
    in that list of each one's entry (a grid makes several of one entry)."""
    items = problems.required_list(raw, "classifiers", "classifiers")
    out = []
    for i, item in enumerate(items):
        made = _classifier(item, f"classifiers[{i}]", problems)
        out += made
        if origins is not None:
            origins += [i] * len(made)
        if len(out) > MAX_CLASSIFIERS:
            problems.add("classifiers", f"more than {MAX_CLASSIFIERS:,} classifiers in all (counting "
                                 "each setting of a grid); split the experiment")
            return out
    labels = [c.label for c in out]
    for dup in sorted({x for x in labels if labels.count(x) > 1}):
        problems.add("classifiers", f"label '{dup}' is used more than once; give each a 'label'")
    return out


def _classifier(item, key: str, problems: Problems) -> list[ClassifierSpec]:
    """One entry of ``classifiers``: a name, or a mapping whose list-valued parameters
    expand to one classifier per combination (labelled ``name(k=v,...)``)."""
    given = item
    if isinstance(item, str):
        item = {"name": item}
    item = problems.mapping(item, key, CLASSIFIER_KEYS)
    if "name" not in item:
        if isinstance(given, dict):
            problems.add(join(key, "name"), "required")
        return []
    learner = problems.typed(item["name"], join(key, "name"), str)
    label = problems.typed(item["label"], join(key, "label"), str) if "label" in item else None
    kind = (problems.typed(item["input"], join(key, "input"), str, choices=INPUT_KINDS)
            if "input" in item else None)
    params = item.get("params") or {}
    if not isinstance(params, dict):
        problems.add(join(key, "params"), f"expected a mapping, got {kind_of(params)}")
        params = {}
    if learner is None or not _known_params(learner, params, key, problems):
        return []
    tuning = _tune(item["tune"], learner, params, join(key, "tune"), problems) if "tune" in item else None
    steps = _steps(item["steps"], join(key, "steps"), problems) if "steps" in item else ()
    grid = [k for k, v in params.items() if isinstance(v, list)]
    for name in grid:
        if not params[name]:
            problems.add(f"{key}.params.{name}", "an empty list gives no classifier")
    if any(not params[name] for name in grid):
        return []
    size = math.prod(len(params[k]) for k in grid)
    if size > MAX_CLASSIFIERS:
        # Refused before expanding: ten lists of ten values are 10^10 classifiers.
        problems.add(f"{key}.params", f"a grid of {size:,} settings ("
                               f"{' x '.join(str(len(params[k])) for k in grid)}); at most "
                               f"{MAX_CLASSIFIERS:,}")
        return []
    # A class named by its import path is labelled by its class name, not the whole path.
    label = label or (learner.rpartition(":")[2].rpartition(".")[2] if is_import_path(learner)
                      else learner)
    out = []
    for combo in itertools.product(*(params[k] for k in grid)):
        chosen = dict(params, **dict(zip(grid, combo)))
        suffix = ",".join(f"{k}={v}" for k, v in zip(grid, combo))
        out.append(ClassifierSpec(f"{label}({suffix})" if grid else label, learner, chosen,
                                  input=kind, tune=tuning, steps=steps))
        _check_values(learner, chosen, key, problems)
    return out


def _steps(value, key: str, problems: Problems) -> tuple:
    """``steps: [module:Class, {name: module:Class, params: {...}}, ...]``: the transformers
    before a classifier, each imported and made with its parameters to check them."""
    items = problems.typed(value, key, list)
    out = []
    for i, item in enumerate(items or ()):
        at = f"{key}[{i}]"
        item = problems.mapping({"name": item} if isinstance(item, str) else item, at, STEP_KEYS)
        if "name" not in item:
            problems.add(join(at, "name"), "required: a transformer's import path, package.module:Class")
            continue
        name = problems.typed(item["name"], join(at, "name"), str)
        params = problems.typed(item.get("params") or {}, join(at, "params"), dict)
        if name is None or params is None:
            continue
        try:
            make_step(name, **params)
        except ClassifierError as err:
            parameter = getattr(err, "parameter", None)
            problems.add(f"{at}.params.{parameter}" if parameter else join(at, "name"), str(err))
            continue
        out.append((name, params))
    return tuple(out)


def _known_params(learner: str, params: dict, key: str, problems: Problems) -> bool:
    """Whether ``learner`` exists and takes every parameter in ``params``."""
    try:
        valid = parameter_defaults(classifier_class(learner))
    except ClassifierError as exc:
        problems.add(join(key, "name"), str(exc))
        return False
    unknown = [name for name in params if valid is not None and name not in valid]
    for name in unknown:
        problems.add(f"{key}.params.{name}",
              f"'{learner}' has no parameter {shown(name)}{suggest(name, valid)}; "
              f"its parameters: {', '.join(valid) or '(none)'}")
    return not unknown


def _check_values(learner: str, params: dict, key: str, problems: Problems) -> None:
    """The learner's own check of its parameters' values, placed at their key paths."""
    try:
        make_classifier(learner, **params)
    except ClassifierError as err:
        parameter = getattr(err, "parameter", None)
        problems.add(f"{key}.params.{parameter}" if parameter else join(key, "params"), str(err))


def _tune(value, learner: str, params: dict, key: str, problems: Problems) -> TuneSpec | None:
    """``tune: {params: {name: [values]}, folds: 5, metric: accuracy}`` of a classifier."""
    value = problems.mapping(value, key, TUNE_KEYS)
    grid = problems.typed(value.get("params"), join(key, "params"), dict) if "params" in value else None
    if "params" not in value:
        problems.add(join(key, "params"), "required: a mapping of parameters to lists of values")
    folds = problems.typed(value.get("folds", 5), join(key, "folds"), int, low=2)
    metric = problems.typed(value.get("metric", "accuracy"), join(key, "metric"), str,
                     choices=PREDICTION_METRICS)
    if not grid:
        if grid == {}:
            problems.add(join(key, "params"), "the mapping is empty")
        return None
    ok = _known_params(learner, grid, key, problems)
    lists = [v for v in grid.values() if isinstance(v, list) and v]
    size = math.prod(len(v) for v in lists)
    if size > MAX_CLASSIFIERS:  # before a value is checked, as a params grid is
        problems.add(join(key, "params"), f"a tuning grid of {size:,} settings ("
                                   f"{' x '.join(str(len(v)) for v in lists)}); at most "
                                   f"{MAX_CLASSIFIERS:,} (docs/limits.md)")
        return None
    valid = parameter_defaults(classifier_class(learner))
    # The values are checked beside the first value of any list under params.
    base = {k: v[0] if isinstance(v, list) and v else v for k, v in params.items()}
    for name, values in grid.items():
        where = f"{key}.params.{name}"
        if not isinstance(values, list) or not values:
            problems.add(where, f"expected a non-empty list of values, got {kind_of(values)}")
            ok = False
        elif isinstance(params.get(name), list):
            problems.add(where, f"'{name}' is also a list under params; tune it in one place")
            ok = False
        elif valid is None or name in valid:
            for candidate in values:
                _check_values(learner, {**base, name: candidate}, key, problems)
    if not ok or folds is None or metric is None:
        return None
    return TuneSpec({k: tuple(v) for k, v in grid.items()}, folds, metric)


def arms(value, problems: Problems, top_preprocess, top_cv) -> list[tuple[str, PreprocessSpec, CVSpec]]:
    """``(name, preprocess, cv)`` of each arm: the arm's ``preprocess`` keys override the
    top-level ones one by one; its ``cv``, when given, replaces the top-level ``cv``."""
    items = problems.typed(value, "arms", list)
    if items is None:
        return []
    if not items:
        problems.add("arms", "the list is empty (leave the key out for a single run)")
    out, seen = [], set()
    quiet = Problems()  # the top-level keys' own problems are reported once, not per arm
    for i, given in enumerate(items):
        key = f"arms[{i}]"
        item = problems.mapping(given, key, ARM_KEYS)
        if "name" not in item:
            if isinstance(given, dict):
                problems.add(join(key, "name"), "required (it names the arm's result directory)")
            continue
        name = _arm_name(item["name"], join(key, "name"), problems, seen)
        own_pre = item.get("preprocess") or {}
        preprocess(own_pre, problems, join(key, "preprocess"))
        own_cv = item.get("cv")
        arm_cv = cv(own_cv, problems, join(key, "cv")) if own_cv is not None else cv(top_cv, quiet)
        merged = dict(top_preprocess if isinstance(top_preprocess, dict) else {})
        if isinstance(own_pre, dict):
            merged.update(own_pre)
        if name is not None:
            out.append((name, preprocess(merged, quiet), arm_cv))
    return out


def _arm_name(value, key: str, problems: Problems, seen: set) -> str | None:
    """The arm's name (it names the arm's result directory), None if unusable."""
    name = problems.typed(value, key, str)
    if name is not None and not NAME.match(name):
        problems.add(key, f"{shown(name)} must be at most 100 letters, digits, '_', '.', '+' or '-' "
                   "(it names the arm's result directory)")
        name = None
    elif name in seen:
        problems.add(key, f"arm '{name}' is used twice")
        name = None
    seen.add(name)
    return name


def compare(value, problems: Problems, labels, arm_names) -> CompareSpec:
    value = problems.mapping(value, "compare", COMPARE_KEYS)
    kw = {}
    if value.get("metric") is not None:
        metric = problems.typed(value["metric"], "compare.metric", str)
        if metric is not None and not is_metric(metric):
            problems.add("compare.metric", f"unknown metric {shown(metric)}{suggest(metric, METRIC_NAMES)}; "
                                    f"expected one of {', '.join(METRIC_NAMES)} or a per-class "
                                    "score such as f1[CLASS]")
        kw["metric"] = metric
    if value.get("baseline") is not None:
        kw["baseline"] = _baseline(value["baseline"], problems, labels, arm_names)
    if "test" in value:
        kw["test"] = problems.typed(value["test"], "compare.test", str, choices=tuple(FOLD_TESTS))
    if "alpha" in value:
        alpha = problems.typed(value["alpha"], "compare.alpha", float, low=0.0, high=1.0)
        if alpha in (0.0, 1.0):
            problems.add("compare.alpha", "the level must lie strictly between 0 and 1")
        kw["alpha"] = alpha
    if "rope" in value:
        kw["rope"] = problems.typed(value["rope"], "compare.rope", float, low=0.0)
    return CompareSpec(**{k: v for k, v in kw.items() if v is not None})


def _baseline(value, problems: Problems, labels, arm_names) -> str | None:
    baseline = problems.typed(value, "compare.baseline", str)
    arm, _, label = (baseline or "").rpartition("/")
    if baseline is not None and (label not in labels or (arm and arm not in arm_names)):
        choices = [f"{a}/{c}" for a in arm_names for c in labels] if arm_names else labels
        problems.add("compare.baseline", f"{shown(baseline)} is not a classifier label"
                                  f"{suggest(baseline, choices)}; expected one of "
                                  f"{', '.join(choices)}")
    return baseline
