"""The count-based estimators without sampling: additive (Laplace) smoothing and m-estimates.

* ``laplace``: on the tables of a learner with ``alpha``, ``(N(c, pa, x) + alpha) / (N(c, pa) +
  alpha r)`` (:func:`~bayesbench.models.core.counting.log_table`); on prefix tables (SKDB),
  ``(N(c, pa, x) + 1) / (N(c, pa) + r)`` at the full configuration and the uniform ``1 / r``
  wherever it was never seen;
* ``m``: the m-estimate ``(N(prefix, x) + 1 / r) / (N(prefix) + 1)`` (m = 1) at every prefix, the
  deepest seen one read: the estimate of Martinez et al.'s SKDB and of the authors' code
  (``SUtils.MEsti``).
"""
from __future__ import annotations

import numpy as np

from ..core.counting import log_table, unseen_log_prob
from .estimation import ParameterEstimator, m_estimates


class Laplace(ParameterEstimator):
    """Additive smoothing: ``alpha`` per cell on a learner's tables, 1 on prefix tables."""

    name = "laplace"
    summary = "additive smoothing with the learner's `alpha` (Laplace for 1)"

    def probabilities(self, tables):
        out = []
        for table in tables:
            r = table.n_values
            levels = [np.full((len(keys), r), 1.0 / r) for keys in table.keys]
            full = table.counts[-1]
            levels[-1] = (full + 1.0) / (full.sum(axis=1, keepdims=True) + r)
            out.append(levels)
        return out

    def class_log_prior(self, class_counts):
        n = np.asarray(class_counts, dtype=np.float64)
        return np.log((n + 1.0) / (n.sum() + len(n)))

    def node_tables(self, counts, parent_cards, alpha):
        return ([log_table(c, alpha) for c in counts],
                [unseen_log_prob(c, alpha) for c in counts])

    def node_class_log_prior(self, class_counts, alpha):
        return log_table(np.asarray(class_counts, dtype=np.float64)[None, None, :], alpha)[0, 0]


class MEstimate(ParameterEstimator):
    """m-estimates (m = 1) at every prefix, the deepest seen one read (SKDB's)."""

    name = "m"
    summary = "m-estimates (m = 1), a configuration backed off to its deepest seen prefix"

    def probabilities(self, tables):
        return [[m_estimates(c) for c in table.counts] for table in tables]
