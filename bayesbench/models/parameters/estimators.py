"""The parameter estimators of the count-based learners, by name: one table, :data:`ESTIMATORS`.

Each is a :class:`~.estimation.ParameterEstimator` in its own module: ``laplace`` and ``m``
(:mod:`.smoothing`), ``hdp`` (:mod:`.hdp`). The learners' ``estimator`` parameter is
constrained to the table's names (so the config check reads it), the runner seeds the fits
of the stochastic ones, and ``docs/classifiers.md`` lists it.
"""
from __future__ import annotations

import inspect
from numbers import Integral
from types import MappingProxyType

import numpy as np

from ..core.constraints import Interval, StrOptions
from .estimation import ParameterEstimator
from .hdp import HDP, TYINGS
from .smoothing import Laplace, MEstimate

#: Every estimator, by name; the entries are read through this view, so a test may add one.
_TABLE = {e.name: e for e in (Laplace, MEstimate, HDP)}
ESTIMATORS = MappingProxyType(_TABLE)
ESTIMATOR_CONSTRAINT = [StrOptions(ESTIMATORS)]
#: The most HDP sweeps a learner may ask for (docs/limits.md): the sampler's time is the
#: sweeps times the table counts, and nothing but this bounds the sweeps (``iterations:
#: 1e9`` ran without end). A hundred times the default of 1,000.
MAX_ITERATIONS = 100_000
#: The estimator choice and its settings, declared once for every learner that takes them.
ESTIMATOR_PARAMETERS = {"estimator": ESTIMATOR_CONSTRAINT,
                        "iterations": [Interval(Integral, 1, MAX_ITERATIONS, closed="both")],
                        "tying": [StrOptions(set(TYINGS))],
                        "random_state": [None, Interval(Integral, 0, None, closed="left")]}


def estimator(name: str, *, iterations: int = 1000, tying: str = "level",
              rng: np.random.Generator | None = None) -> ParameterEstimator:
    """The estimator called ``name`` with these settings."""
    return ESTIMATORS[name](iterations=iterations, tying=tying, rng=rng)


class EstimatorChoice:
    """Mixin of the learners that take :data:`ESTIMATOR_PARAMETERS`: ``random_state`` seeds
    their stochastic estimator (HDP; None: seed 0), the only random numbers they draw."""

    @classmethod
    def is_stochastic(cls, params: dict) -> bool:
        """Whether a fit with ``params`` draws random numbers: only with a stochastic
        estimator, so the runner gives a task's seed to those fits alone, and the records of
        the others hold no seed (as before the learners had one)."""
        default = inspect.signature(cls.__init__).parameters["estimator"].default
        chosen = ESTIMATORS.get(params.get("estimator", default))
        return chosen is not None and chosen.stochastic

    def estimation_rng(self) -> np.random.Generator:
        """The stochastic estimator's generator."""
        return np.random.default_rng(0 if self.random_state is None else int(self.random_state))
