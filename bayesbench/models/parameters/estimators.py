"""The parameter estimators of the count-based learners: ``laplace``, ``m`` and ``hdp`` (and
the names of all, ``cll`` among them, whose optimiser is :mod:`.cll`).

Each turns the counts of a table under the prefixes of its parents
(:class:`~bayesbench.models.core.prefix_counts.PrefixCounts`) into a probability of the
attribute's value at every prefix that occurs; prediction reads it at the deepest prefix
of a row that occurs (a parent configuration never seen backs off to its parent's):

* ``"laplace"``: ``(N(c, pa, x) + 1) / (N(c, pa) + r)`` at the full configuration and
  the uniform ``1 / r`` wherever it was never seen (additive smoothing, as ``alpha = 1``);
* ``"m"``: the m-estimate ``(N(prefix, x) + 1 / r) / (N(prefix) + 1)`` (m = 1) at every
  prefix, the deepest seen one read: the estimate of Martinez et al.'s SKDB and of the
  authors' code (``SUtils.MEsti``);
* ``"hdp"``: hierarchical Dirichlet process estimates (:mod:`.hdp`), drawn from the
  generator given, with ``iterations`` sweeps and the concentrations tied by ``tying``.
"""
from __future__ import annotations

import inspect
from numbers import Integral, Real
from typing import Sequence

import numpy as np

from ..core.constraints import Interval, StrOptions
from ..core.prefix_counts import PrefixCounts
from .hdp import TYINGS, hdp_estimates

#: The estimator choice of every learner that has one (declared here once); ``cll`` needs the
#: training rows, not only their counts (:mod:`.cll`).
ESTIMATORS = ("laplace", "m", "hdp", "cll")
#: The estimators computed from counts alone.
COUNT_ESTIMATORS = ("laplace", "m", "hdp")
ESTIMATOR_CONSTRAINT = [StrOptions(set(COUNT_ESTIMATORS))]
#: The estimator choice and its settings, declared once for every learner that takes them:
#: HDP's ``iterations``, ``tying`` and ``random_state``, and the ``cll`` optimiser's ``l2``,
#: ``max_iter`` and ``tol`` (each read only by its estimator).
ESTIMATOR_PARAMETERS = {"estimator": [StrOptions(set(ESTIMATORS))],
                        "iterations": [Interval(Integral, 1, None, closed="left")],
                        "tying": [StrOptions(set(TYINGS))],
                        "random_state": [None, Interval(Integral, 0, None, closed="left")],
                        "l2": [Interval(Real, 0, None, closed="left")],
                        "max_iter": [Interval(Integral, 1, None, closed="left")],
                        "tol": [Interval(Real, 0, None, closed="neither")]}
class EstimatorChoice:
    """Mixin of the learners that take :data:`ESTIMATOR_PARAMETERS`: ``random_state`` seeds
    their HDP sampler (None: seed 0), the only random numbers they draw."""

    @classmethod
    def is_stochastic(cls, params: dict) -> bool:
        """Whether a fit with ``params`` draws random numbers: only with ``hdp``, so the
        runner gives a task's seed to those fits alone, and the records of the others hold
        no seed (as before the learners had one)."""
        default = inspect.signature(cls.__init__).parameters["estimator"].default
        return params.get("estimator", default) == "hdp"

    def estimation_rng(self) -> np.random.Generator:
        """The HDP sampler's generator."""
        return np.random.default_rng(0 if self.random_state is None else int(self.random_state))


#: The m of the m-estimates, the authors' ``SUtils.m_MEsti``.
M = 1.0


def m_estimates(counts: np.ndarray) -> np.ndarray:
    """``(N(x) + M / r) / (N + M)`` of each row of ``counts``."""
    r = counts.shape[1]
    return (counts + M / r) / (counts.sum(axis=1, keepdims=True) + M)


def _laplace(table: PrefixCounts) -> list[np.ndarray]:
    r = table.n_values
    out = [np.full((len(keys), r), 1.0 / r) for keys in table.keys]
    full = table.counts[-1]
    out[-1] = (full + 1.0) / (full.sum(axis=1, keepdims=True) + r)
    return out


def estimate(tables: Sequence[PrefixCounts], estimator: str, *, iterations: int = 1000,
             tying: str = "level", rng: np.random.Generator | None = None
             ) -> list[list[np.ndarray]]:
    """For each table and depth ``d``, the log-probabilities of its values at each key of
    ``keys[d]``, shape ``(len(keys[d]), n_values)``."""
    if estimator == "hdp":
        probs = hdp_estimates(tables, iterations=iterations, tying=tying,
                              rng=np.random.default_rng(0) if rng is None else rng)
    elif estimator == "m":
        probs = [[m_estimates(c) for c in table.counts] for table in tables]
    else:
        probs = [_laplace(table) for table in tables]
    return [[np.log(p) for p in table] for table in probs]


def node_tables(counts: Sequence[np.ndarray], parent_cards: Sequence[Sequence[int]],
                estimator: str, *, iterations: int, tying: str, rng: np.random.Generator):
    """Dense log tables ``(n_classes, n_parent_configs, r)`` of the nodes whose counts are
    ``counts`` (the layout of :mod:`~bayesbench.models.core.counting`) by ``m`` or ``hdp``,
    each configuration read at its deepest seen prefix, and the log-probability of a value
    beyond the cardinality (a zero count's m-estimate at the full configuration)."""
    tables = [PrefixCounts.from_table(c, pc) for c, pc in zip(counts, parent_cards)]
    logs = estimate(tables, estimator, iterations=iterations, tying=tying, rng=rng)
    dense = [t.dense(levels) for t, levels in zip(tables, logs)]
    unseen = [np.log(M / c.shape[-1]) - np.log(c.sum(axis=-1) + M) for c in counts]
    return dense, unseen


def class_log_prior(class_counts: np.ndarray, estimator: str) -> np.ndarray:
    """The class prior: Laplace's for ``laplace``, the m-estimate otherwise (as the authors'
    code has it for HDP tables too)."""
    n = np.asarray(class_counts, dtype=np.float64)
    if estimator == "laplace":
        return np.log((n + 1.0) / (n.sum() + len(n)))
    return np.log(m_estimates(n[None])[0])
