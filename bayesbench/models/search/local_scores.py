"""The local scores of Weka's ``BayesNet`` searches: the score of one family (a node and
its parents) from its counts.

For a node of ``r`` values whose parents have ``q`` configurations, with ``N_jk`` the
rows of configuration ``j`` holding value ``k`` and ``N_j = sum_k N_jk``:

* ``bayes`` (Cooper and Herskovits 1992, K2's score with a Dirichlet prior of ``a`` per
  cell): ``sum_j [lnG(r a) - lnG(r a + N_j) + sum_k (lnG(a + N_jk) - lnG(a))]`` with
  ``a = 0.5`` (:data:`BAYES_PRIOR`);
* ``bdeu`` (Buntine 1991; Heckerman, Geiger and Chickering 1995) with an equivalent sample
  size of 1: the same with ``1 / (r q)`` per cell and ``1 / q`` per configuration;
* ``entropy``: the maximum log-likelihood ``sum_jk N_jk ln(N_jk / N_j)``;
* ``mdl``: ``entropy - q (r - 1) ln(N) / 2``, ``N`` the training rows (Rissanen;
  Lam and Bacchus 1994);
* ``aic``: ``entropy - q (r - 1)``.

Each is computed as Weka's ``LocalScoreSearchAlgorithm.calcScoreOfCounts`` adds it up,
term by term in the same order (configurations in turn, a configuration's values, then
its constants), so that two candidates that tie in Weka tie here and the searches take
the same one. ``lnG`` is scipy's ``gammaln`` (Cephes, as Weka's ``Statistics.lnGamma``).
Larger is better for every score.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy.special import gammaln

#: The scores a search may maximise, in Weka's order of ``-S``.
SCORES = ("bayes", "bdeu", "mdl", "entropy", "aic")

#: The Dirichlet pseudo-count per cell of the ``bayes`` score. Weka's local score searches
#: fix it at 0.5 (``LocalScoreSearchAlgorithm.m_fAlpha``, which no option sets), whatever
#: ``alpha`` the estimator smooths the tables with.
BAYES_PRIOR = 0.5


def _dirichlet_terms(counts: np.ndarray, cell: float, configuration: float) -> np.ndarray:
    """Per configuration: ``lnG(cell + N_jk)`` for each value, ``-lnG(sum_k (cell + N_jk))``,
    ``-r lnG(cell)``, ``+lnG(configuration)``: ``(families, q, r + 3)``, in Weka's order."""
    n, q, r = counts.shape
    out = np.empty((n, q, r + 3))
    cells = cell + counts
    gammaln(cells, out=out[:, :, :r])
    total = np.cumsum(cells, axis=2)[:, :, -1]  # Weka adds the cells one by one
    out[:, :, r] = -gammaln(total)
    out[:, :, r + 1] = -(r * gammaln(cell))
    out[:, :, r + 2] = gammaln(configuration)
    return out


def _likelihood_terms(counts: np.ndarray) -> np.ndarray:
    """``N_jk ln(N_jk / N_j)`` per cell (0 for an empty cell, which Weka skips: adding 0.0
    leaves a sum as it is)."""
    total = np.cumsum(counts, axis=2)[:, :, -1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = counts * np.log(counts / total)
    terms[counts == 0] = 0.0
    return terms


def _terms(counts: np.ndarray, score: str, n_rows: int) -> np.ndarray:
    """The terms Weka adds for each of a stack of families ``(families, q, r)``, in its
    order, one row per family."""
    n, q, r = counts.shape
    if score == "bayes":
        return _dirichlet_terms(counts, BAYES_PRIOR, r * BAYES_PRIOR).reshape(n, -1)
    if score == "bdeu":
        return _dirichlet_terms(counts, 1.0 / (r * q), 1.0 / q).reshape(n, -1)
    terms = _likelihood_terms(counts).reshape(n, -1)
    if score == "mdl":
        # Java evaluates 0.5 * q * (r - 1) * ln(N) from the left.
        penalty = -(0.5 * q * (r - 1) * math.log(n_rows))
    elif score == "aic":
        penalty = -float(q * (r - 1))
    else:
        return terms
    return np.hstack([terms, np.full((n, 1), penalty)])


def family_scores(tables: Sequence[np.ndarray], score: str, n_rows: int) -> np.ndarray:
    """The ``score`` of each family from its counts ``(q, r)`` (float64 of integers:
    parent configuration major, the first parent most significant, as Weka lays them out),
    ``n_rows`` the training rows (the ``mdl`` penalty's ``N``).

    Each family's terms are summed one after the other (a cumulative sum along its row of
    terms), as Weka sums them; families of one shape are scored together.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.special import gammaln
    >>> counts = np.array([[3.0, 1.0], [0.0, 2.0]])
    >>> by_hand = sum(gammaln(1.0) - gammaln(1.0 + n.sum()) + gammaln(0.5 + n).sum()
    ...               - 2 * gammaln(0.5) for n in counts)
    >>> bool(np.isclose(family_scores([counts], "bayes", 6)[0], by_hand))
    True
    >>> bool(family_scores([counts], "entropy", 6)[0] == 3 * np.log(3 / 4) + np.log(1 / 4))
    True
    """
    out = np.zeros(len(tables))
    by_shape: dict = {}
    for i, table in enumerate(tables):
        by_shape.setdefault(np.shape(table), []).append(i)
    for shape, members in by_shape.items():
        stack = np.asarray([tables[i] for i in members], dtype=np.float64).reshape(-1, *shape)
        out[members] = np.cumsum(_terms(stack, score, n_rows), axis=1)[:, -1]
    return out
