"""What every parameter estimator is: a class turning a learner's counts into its tables.

An estimator is one :class:`ParameterEstimator` subclass in its own module (:mod:`.smoothing`,
:mod:`.hdp`), found by its name in the one table
:data:`~bayesbench.models.parameters.estimators.ESTIMATORS`, which the learners' ``estimator``
parameter (and so the config check), the run and the docs read; adding an estimator touches its
own module, that table and a test.

A table's counts come under the prefixes of its parents
(:class:`~bayesbench.models.core.prefix_counts.PrefixCounts`): the estimator gives a
probability of the attribute's value at every prefix that occurs, and prediction reads it at the
deepest prefix of a row that occurs (a parent configuration never seen backs off to its
parent's).
"""
from __future__ import annotations

from typing import ClassVar, Sequence

import numpy as np

from ..core.prefix_counts import PrefixCounts

#: The m of the m-estimates, the authors' ``SUtils.m_MEsti``.
M = 1.0


def m_estimates(counts: np.ndarray) -> np.ndarray:
    """``(N(x) + M / r) / (N + M)`` of each row of ``counts``."""
    r = counts.shape[1]
    return (counts + M / r) / (counts.sum(axis=1, keepdims=True) + M)


class ParameterEstimator:
    """How counts become probabilities.

    A subclass sets ``name`` (the learners' ``estimator`` value), ``summary`` (one line, for
    the docs) and ``stochastic`` (whether it draws random numbers: the runner then gives the
    fit the task's seed), and implements :meth:`probabilities`. It is made with the learner's
    estimation settings, the learner parameters named in ``settings`` (``iterations`` and
    ``tying``, read by HDP), and ``rng``, the generator of a stochastic estimator.

    An estimator that learns from the training rows beside their counts (``needs_rows``)
    refines the tables its :meth:`node_tables` gave once the learner has them and the rows
    (:class:`~.cll.ConditionalLikelihood`); a learner fitted from counts alone refuses it.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    stochastic: ClassVar[bool] = False
    needs_rows: ClassVar[bool] = False
    #: The learner parameters given to the constructor (each read by this estimator alone).
    settings: ClassVar[tuple[str, ...]] = ("iterations", "tying")

    def __init__(self, *, iterations: int = 1000, tying: str = "level",
                 rng: np.random.Generator | None = None):
        self.iterations, self.tying, self.rng = int(iterations), tying, rng

    def probabilities(self, tables: Sequence[PrefixCounts]) -> list[list[np.ndarray]]:
        """For each table and depth ``d``, the probabilities of its values at each key of
        ``keys[d]``, shape ``(len(keys[d]), n_values)``."""
        raise NotImplementedError

    def log_probabilities(self, tables: Sequence[PrefixCounts]) -> list[list[np.ndarray]]:
        """:meth:`probabilities`, as logarithms."""
        return [[np.log(p) for p in table] for table in self.probabilities(tables)]

    def class_log_prior(self, class_counts: np.ndarray) -> np.ndarray:
        """The class prior: the m-estimate (as the authors' code has it for HDP tables too)."""
        return np.log(m_estimates(np.asarray(class_counts, dtype=np.float64)[None])[0])

    def node_tables(self, counts: Sequence[np.ndarray], parent_cards: Sequence[Sequence[int]],
                    alpha: float):
        """Dense log tables ``(n_classes, n_parent_configs, r)`` of the nodes whose counts are
        ``counts`` (the layout of :mod:`~bayesbench.models.core.counting`), each configuration
        read at its deepest seen prefix, and the log-probability of a value beyond the
        cardinality (a zero count's m-estimate at the full configuration). ``alpha``, the
        learner's additive smoothing, is read by additive estimators only."""
        tables = [PrefixCounts.from_table(c, pc) for c, pc in zip(counts, parent_cards)]
        logs = self.log_probabilities(tables)
        dense = [t.dense(levels) for t, levels in zip(tables, logs)]
        unseen = [np.log(M / c.shape[-1]) - np.log(c.sum(axis=-1) + M) for c in counts]
        return dense, unseen

    def node_class_log_prior(self, class_counts: np.ndarray, alpha: float) -> np.ndarray:
        """The class prior beside :meth:`node_tables` (``alpha`` as there)."""
        return self.class_log_prior(class_counts)
