"""Classifier names, resolved to classes: built-in, entry points, and import paths.

A name is resolved in this order:

1. a built-in learner (``nb``, ``tan``, ...), mapped to ``"module:Class"`` in this
   package and imported only when asked for, so that the registry never fails because
   of another learner and listing names costs nothing;
2. an import path ``package.module:Class`` (any class importable where the run runs);
3. an entry point of the group ``bayesbench.classifiers`` that an installed package
   declares (``myclf = mypkg.models:MyClassifier``); a built-in name always wins.

Any class with ``fit`` and ``predict`` is a classifier (``docs/plugins.md`` states the
contract): scikit-learn's estimators and bayesbench's learners alike. What input it
takes is its ``input_kind`` class attribute (one of
:data:`~bayesbench.data.encode.INPUT_KINDS`; bayesbench's own ``discrete``, ``continuous``
and ``mixed`` read as ``codes``, ``numeric`` and ``frame``), ``onehot`` when it declares none.
"""
from __future__ import annotations

import difflib
import importlib
import inspect
import re
import socket
import sys
from typing import NamedTuple

from ..data.encode import INPUT_KINDS
from ..errors import ClassifierError
from .core.base import BaseClassifier
from .core.constraints import describe, validate_params

ENTRY_POINT_GROUP = "bayesbench.classifiers"

_REGISTRY: dict[str, str] = {
    "nb": "learners.naive_bayes:NaiveBayes",
    "map": "learners.map:MAPClassifier",
    "nb_onehot": "learners.onehot_nb:OneHotNaiveBayes",
    "tan": "learners.tan:TAN",
    "ddr_tan": "learners.tan:DDRTAN",
    "kdb": "learners.kdb:KDB",
    "aode": "learners.aode:AODE",
    "ande": "learners.ande:ANDE",
    "hnb": "learners.hnb:HNB",
    "waode": "learners.waode:WAODE",
    "skdb": "learners.skdb:SKDB",
    "eskdb": "learners.skdb:ESKDB",
    "gnb": "learners.gaussian:GaussianNB",
    "full_bayes": "learners.gaussian:FullBayes",
    "linear_full_bayes": "learners.gaussian:LinearFullBayes",
    "knaive": "learners.knaive:KNaiveBayes",
    "kernel_nb": "learners.kernel_nb:KernelNaiveBayes",
    "gaussian_tan": "learners.gaussian_network:GaussianTAN",
    "gaussian_kdb": "learners.gaussian_network:GaussianKDB",
    "tan_ld": "learners.local_discretization:TANLd",
    "kdb_ld": "learners.local_discretization:KDBLd",
    "aode_ld": "learners.local_discretization:AODELd",
    "stan": "search.selective:STAN",
    "ffss": "search.selective:FFSS",
    "fss": "search.wrapper:FSS",
    "bsej": "search.wrapper:BSEJ",
    "asb": "search.wrapper:ASB",
    "tan_hc": "search.hill_climbing:TANHC",
    "tan_hcsp": "search.hill_climbing:TANHCSP",
    "kdb_hc": "search.hill_climbing:KDBHC",
    "fssj": "search.hill_climbing:FSSJ",
    "bayesnet": "search.bayesnet:BayesNet",
}
# bayesbench's learners name their input by what it holds; the contract by its form.
_OWN_INPUT = {"discrete": "codes", "continuous": "numeric", "mixed": "frame"}
DEFAULT_INPUT = "onehot"
_ENTRY_POINTS: dict[tuple, dict[str, str]] = {}


def list_classifiers() -> list[str]:
    """Every built-in classifier name, sorted."""
    return sorted(_REGISTRY)


def is_import_path(name) -> bool:
    """Whether ``name`` is written as an import path, ``package.module:Class``."""
    return isinstance(name, str) and ":" in name


def entry_point_classifiers() -> dict[str, str]:
    """``{name: "module:Class"}`` of the installed entry points of :data:`ENTRY_POINT_GROUP`
    (read once per ``sys.path``), the built-in names left out: those always win."""
    key = tuple(sys.path)
    if key not in _ENTRY_POINTS:
        from importlib.metadata import entry_points  # lazy: scans every installed package

        found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
        _ENTRY_POINTS.clear()
        _ENTRY_POINTS[key] = {k: v for k, v in sorted(found.items()) if k not in _REGISTRY}
    return _ENTRY_POINTS[key]


def builtin_class(class_name: str):
    """The built-in learner class called ``class_name`` (``"TAN"``), or None: what
    ``bayesbench.models.TAN`` resolves to."""
    for target in _REGISTRY.values():
        module, _, qualname = target.partition(":")
        if qualname == class_name:
            return getattr(importlib.import_module(f"{__package__}.{module}"), qualname)
    return None


def classifier_names() -> list[str]:
    """Every short name a config may use: the built-in ones, then the entry points'."""
    return list_classifiers() + list(entry_point_classifiers())


def target_of(name: str) -> str:
    """The ``"module:Class"`` that ``name`` stands for; unknown names list what exists."""
    if isinstance(name, str) and name in _REGISTRY:
        return f"{__package__}.{_REGISTRY[name]}"
    if is_import_path(name):
        return name
    found = entry_point_classifiers()
    if isinstance(name, str) and name in found:
        return found[name]
    known = classifier_names()
    close = difflib.get_close_matches(str(name), known, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ClassifierError(f"unknown classifier '{name}'{hint}; known classifiers are: "
                          f"{', '.join(known)}; or name any class as package.module:Class")


def classifier_class(name: str):
    """The class ``name`` stands for, imported and checked to be a classifier."""
    obj = _imported(name, target_of(name), "classifier")
    check_classifier_class(obj, name)
    return obj


def transformer_class(name: str):
    """The class of a transformer named by its import path (``package.module:Class``, a
    step before a classifier), imported and checked to have ``fit`` and ``transform``."""
    if not is_import_path(name):
        raise ClassifierError(f"step '{name}': name a transformer by its import path, "
                              f"package.module:Class (e.g. sklearn.preprocessing:StandardScaler)")
    obj = _imported(name, name, "step")
    missing = [m for m in ("fit", "transform") if not callable(getattr(obj, m, None))]
    if not inspect.isclass(obj) or missing:
        raise ClassifierError(f"step '{name}' is not a transformer class (it needs fit and "
                              f"transform)")
    return obj


def _imported(name: str, target: str, what: str):
    """The object at ``target`` (``module:qualname``), which the config calls ``name``."""
    module, _, qualname = target.partition(":")
    if not re.fullmatch(r"[\w.]+", module) or not re.fullmatch(r"[\w.]+", qualname):
        raise ClassifierError(f"{what} '{name}': '{target}' is not an import path; "
                              f"expected package.module:Class")
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # Also raised in a worker whose environment lacks the package: say where.
        raise ClassifierError(f"cannot import {what} '{name}' on host "
                              f"{socket.gethostname()}: no module named '{exc.name}'") from None
    except Exception as exc:  # noqa: BLE001 - a plugin's own import error, told in one line
        raise ClassifierError(f"cannot import {what} '{name}': importing {module} "
                              f"raised {type(exc).__name__}: {exc}") from None
    for part in qualname.split("."):
        if not hasattr(obj, part):
            options = [n for n in dir(obj) if not n.startswith("_")]
            close = difflib.get_close_matches(part, options, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ClassifierError(f"cannot import {what} '{name}': {obj.__name__} has no "
                                  f"attribute '{part}'{hint}")
        obj = getattr(obj, part)
    return obj


def check_classifier_class(cls, name: str) -> None:
    """Raise :class:`ClassifierError` unless ``cls`` is a class with ``fit`` and ``predict``
    and a known ``input_kind``."""
    if not inspect.isclass(cls):
        raise ClassifierError(f"classifier '{name}' is not a class but {type(cls).__name__}")
    missing = [m for m in ("fit", "predict") if not callable(getattr(cls, m, None))]
    if missing:
        raise ClassifierError(f"'{name}' is not a classifier: {cls.__name__} has no "
                              f"{' and no '.join(missing)} method")
    default_input(cls, name)


def default_input(cls, name: str | None = None) -> str:
    """The input kind ``cls`` declares (its ``input_kind``), ``onehot`` if none."""
    kind = getattr(cls, "input_kind", None)
    kind = _OWN_INPUT.get(kind, kind) if isinstance(kind, str) else kind
    if kind is None:
        return DEFAULT_INPUT
    if kind not in INPUT_KINDS:
        raise ClassifierError(f"classifier '{name or cls.__name__}' declares input_kind = "
                              f"{kind!r}; expected one of {', '.join(INPUT_KINDS)}")
    return kind


def parameter_defaults(cls) -> dict | None:
    """``{parameter: default}`` of ``cls.__init__`` (``inspect.Parameter.empty`` when it
    has none), or None when it also takes ``**kwargs`` (any name may be valid)."""
    out = {}
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind == p.VAR_KEYWORD:
            return None
        if p.kind != p.VAR_POSITIONAL:
            out[p.name] = p.default
    return out


def make_classifier(name: str, **params):
    """A new, unfitted classifier ``name`` with hyper-parameters ``params``, checked.

    An unknown parameter, or a value outside the learner's declared constraints
    (:mod:`~bayesbench.models.core.constraints`, or scikit-learn's own parameter validation for its
    estimators), raises :class:`~bayesbench.errors.ClassifierError` whose
    ``parameter`` names it; an unknown parameter's message lists the parameters the
    classifier takes. A constructor that raises is one such error too.
    """
    return _made(classifier_class(name), f"classifier '{name}'", params)


def make_step(name: str, **params):
    """A new, unfitted transformer ``name`` (an import path) with ``params``, checked as
    :func:`make_classifier` checks a classifier."""
    return _made(transformer_class(name), f"step '{name}'", params)


def _made(cls, what: str, params: dict):
    valid = parameter_defaults(cls)
    unknown = sorted(set(params) - set(valid)) if valid is not None else []
    if unknown:
        raise ClassifierError(
            f"{what} has no parameter(s) {', '.join(unknown)}; "
            f"its parameters are: {', '.join(valid) or '(none)'}", parameter=unknown[0])
    try:
        model = cls(**params)
    except ClassifierError:
        raise
    except Exception as exc:  # noqa: BLE001 - the plugin's constructor, told in one line
        raise ClassifierError(f"{what}: {cls.__name__}(...) raised "
                              f"{type(exc).__name__}: {exc}") from None
    _check_values(model)
    return model


def _check_values(model) -> None:
    """The model's own check of its parameter values, without fitting: bayesbench's
    declared constraints, or scikit-learn's for a class that declares its own
    (``_parameter_constraints``; scikit-learn's base classes call the check whether or not a
    subclass declares any, and fail on one that does not). Whatever else the check raises
    is the class's own failure, told in one line."""
    if isinstance(model, BaseClassifier):
        validate_params(model)
        return
    check = getattr(model, "_validate_params", None)  # scikit-learn's estimators (>= 1.2)
    if not callable(check) or not isinstance(
            getattr(type(model), "_parameter_constraints", None), dict):
        return
    try:
        check()
    except (TypeError, ValueError) as exc:
        found = re.search(r"The '(\w+)' parameter", str(exc))
        raise ClassifierError(f"{type(model).__name__}: {exc}",
                              parameter=found.group(1) if found else None) from None
    except Exception as exc:  # noqa: BLE001 - the class's own check, told in one line
        raise ClassifierError(f"{type(model).__name__}: checking its parameters raised "
                              f"{type(exc).__name__}: {exc}") from None


def check_classifier_params(name: str, params: dict) -> None:
    """Check that ``make_classifier(name, **params)`` would succeed, without keeping the model.

    For the config layer, which adds the key path of ``err.parameter``.
    """
    make_classifier(name, **params)


class ClassifierInfo(NamedTuple):
    """What ``bayesbench classifiers`` shows of one classifier."""

    name: str
    target: str
    source: str           # "built-in", "entry point" or "import path"
    input: str
    defaults: dict        # parameter -> default (repr text), in signature order
    constraints: dict     # parameter -> what it admits, in words (declared ones only)
    summary: str          # the docstring's first line
    doc: str


def classifier_info(name: str) -> ClassifierInfo:
    """The description of classifier ``name`` (any name :func:`classifier_class` takes)."""
    cls = classifier_class(name)
    source = ("built-in" if name in _REGISTRY else "import path" if is_import_path(name)
              else "entry point")
    defaults = {k: "(required)" if v is inspect.Parameter.empty else repr(v)
                for k, v in (parameter_defaults(cls) or {}).items()}
    declared = getattr(cls, "_parameter_constraints", {}) if issubclass(
        cls, BaseClassifier) else {}
    doc = inspect.cleandoc(cls.__doc__ or "")
    return ClassifierInfo(name, target_of(name), source, default_input(cls, name), defaults,
                          {k: describe(v) for k, v in declared.items() if k in defaults},
                          doc.split("\n", 1)[0], doc)
