"""The parameter estimators of the count-based learners, by name: one table, :data:`ESTIMATORS`.

Each is a :class:`~.estimation.ParameterEstimator` in its own module: ``laplace`` and ``m``
(:mod:`.smoothing`), ``hdp`` (:mod:`.hdp`), ``cll`` (:mod:`.cll`, which learns from the rows
beside their counts). The learners' ``estimator`` parameter is constrained to the table's names
(so the config check reads it; SKDB's, whose tables come from counts alone, to those that need
no rows), the runner seeds the fits of the stochastic ones, and ``docs/classifiers.md`` lists
it.
"""
from __future__ import annotations

import inspect
from collections.abc import Mapping
from numbers import Integral, Real
from types import MappingProxyType

import numpy as np

from ..core.constraints import Interval, StrOptions
from .cll import ConditionalLikelihood
from .estimation import ParameterEstimator
from .hdp import HDP, TYINGS
from .smoothing import Laplace, MEstimate

#: Every estimator, by name; the entries are read through this view, so a test may add one.
_TABLE = {e.name: e for e in (Laplace, MEstimate, HDP, ConditionalLikelihood)}
ESTIMATORS = MappingProxyType(_TABLE)
ESTIMATOR_CONSTRAINT = [StrOptions(ESTIMATORS)]


class _FromCounts(Mapping):
    """The entries of :data:`ESTIMATORS` that need no rows, read when asked (as the table)."""

    def __getitem__(self, name):
        chosen = _TABLE[name]
        if chosen.needs_rows:
            raise KeyError(name)
        return chosen

    def __iter__(self):
        return (name for name, e in _TABLE.items() if not e.needs_rows)

    def __len__(self):
        return sum(1 for _ in self)


#: The estimators computed from counts alone: those of a learner that never sees the rows.
COUNT_ESTIMATORS = _FromCounts()
#: The most HDP sweeps a learner may ask for (docs/limits.md): the sampler's time is the
#: sweeps times the table counts, and nothing but this bounds the sweeps (``iterations:
#: 1e9`` ran without end). A hundred times the default of 1,000. It bounds ``cll``'s L-BFGS
#: iterations (``max_iter``) too.
MAX_ITERATIONS = 100_000
#: The estimator choice and its settings, declared once for every learner that takes them:
#: HDP's ``iterations``, ``tying`` and ``random_state``, and the ``cll`` optimiser's ``l2``,
#: ``max_iter`` and ``tol`` (each read by its estimator alone, :attr:`ParameterEstimator.
#: settings`).
ESTIMATOR_PARAMETERS = {"estimator": ESTIMATOR_CONSTRAINT,
                        "iterations": [Interval(Integral, 1, MAX_ITERATIONS, closed="both")],
                        "tying": [StrOptions(set(TYINGS))],
                        "random_state": [None, Interval(Integral, 0, None, closed="left")],
                        "l2": [Interval(Real, 0, None, closed="left")],
                        "max_iter": [Interval(Integral, 1, MAX_ITERATIONS, closed="both")],
                        "tol": [Interval(Real, 0, None, closed="neither")]}
#: The same for a learner whose tables come from counts alone (SKDB's): no ``cll``.
COUNT_ESTIMATOR_PARAMETERS = {"estimator": [StrOptions(COUNT_ESTIMATORS)],
                              **{k: v for k, v in ESTIMATOR_PARAMETERS.items()
                                 if k in ("iterations", "tying", "random_state")}}


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
