"""Config names of the classifiers, mapped to ``"module:Class"`` and imported lazily.

A learner's module is imported only when it is asked for, so the registry
never fails because of another learner, and listing names costs nothing.
"""
from __future__ import annotations

import importlib

from ..errors import ClassifierError
from .validation import validate_params

_REGISTRY: dict[str, str] = {
    "nb": "naive_bayes:NaiveBayes",
    "map": "map:MAPClassifier",
    "tan": "tan:TAN",
    "ddr_tan": "tan:DDRTAN",
    "kdb": "kdb:KDB",
    "aode": "aode:AODE",
    "gnb": "gaussian:GaussianNB",
    "full_bayes": "gaussian:FullBayes",
    "linear_full_bayes": "gaussian:LinearFullBayes",
    "knaive": "knaive:KNaiveBayes",
    "stan": "selective:STAN",
    "ffss": "selective:FFSS",
    "fss": "wrapper:FSS",
    "bsej": "wrapper:BSEJ",
    "asb": "wrapper:ASB",
    "tan_hc": "hill_climbing:TANHC",
    "tan_hcsp": "hill_climbing:TANHCSP",
    "kdb_hc": "hill_climbing:KDBHC",
    "fssj": "hill_climbing:FSSJ",
}


def list_classifiers() -> list[str]:
    """Every registered classifier name, sorted."""
    return sorted(_REGISTRY)


def classifier_class(name: str):
    """The class registered under ``name``; unknown names list what exists."""
    try:
        target = _REGISTRY[name]
    except (KeyError, TypeError):
        raise ClassifierError(
            f"unknown classifier '{name}'; known classifiers are: "
            f"{', '.join(list_classifiers())}") from None
    module, cls = target.split(":")
    try:
        mod = importlib.import_module(f"{__package__}.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.{module}":
            raise
        raise ClassifierError(
            f"classifier '{name}' is registered but its module "
            f"bayesbench.models.{module} is not available") from None
    try:
        return getattr(mod, cls)
    except AttributeError:
        raise ClassifierError(
            f"classifier '{name}': bayesbench.models.{module} has no class {cls}") from None


def make_classifier(name: str, **params):
    """A new, unfitted classifier ``name`` with hyper-parameters ``params``, checked.

    An unknown parameter, or a value outside the learner's declared constraints
    (:mod:`.validation`), raises :class:`~bayesbench.errors.ClassifierError`
    whose ``parameter`` names it; an unknown parameter's message lists the
    parameters the classifier takes.
    """
    cls = classifier_class(name)
    valid = cls._param_names()
    unknown = sorted(set(params) - set(valid))
    if unknown:
        raise ClassifierError(
            f"classifier '{name}' has no parameter(s) {', '.join(unknown)}; "
            f"its parameters are: {', '.join(valid) or '(none)'}", parameter=unknown[0])
    model = cls(**params)
    validate_params(model)
    return model


def check_classifier_params(name: str, params: dict) -> None:
    """Check that ``make_classifier(name, **params)`` would succeed, without keeping the model.

    For the config layer, which adds the key path of ``err.parameter``.
    """
    make_classifier(name, **params)
