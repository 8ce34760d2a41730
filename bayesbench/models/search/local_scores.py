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


def _bayes_terms(counts: np.ndarray) -> np.ndarray:
    """Per configuration: ``lnG(a + N_jk)`` for each value, ``-lnG(sum_k (a + N_jk))``,
    ``-r lnG(a)``, ``+lnG(r a)``: one row per configuration, in Weka's order."""
    q, r = counts.shape
    cells = BAYES_PRIOR + counts
    total = np.cumsum(cells, axis=1)[:, -1:]  # Weka adds the cells one by one
    constants = np.broadcast_to([-(r * gammaln(BAYES_PRIOR)), gammaln(r * BAYES_PRIOR)], (q, 2))
    return np.hstack([gammaln(cells), -gammaln(total), constants])


def _bdeu_terms(counts: np.ndarray) -> np.ndarray:
    """As :func:`_bayes_terms` with ``1 / (r q)`` per cell and ``lnG(1 / q)`` per
    configuration."""
    q, r = counts.shape
    prior = 1.0 / (r * q)
    cells = prior + counts
    total = np.cumsum(cells, axis=1)[:, -1:]
    constants = np.broadcast_to([-(r * gammaln(prior)), gammaln(1.0 / q)], (q, 2))
    return np.hstack([gammaln(cells), -gammaln(total), constants])


def _likelihood_terms(counts: np.ndarray) -> np.ndarray:
    """``N_jk ln(N_jk / N_j)`` per cell (0 for an empty cell, which Weka skips: adding 0.0
    leaves a sum as it is)."""
    total = np.cumsum(counts, axis=1)[:, -1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = counts * np.log(counts / total)
    terms[counts == 0] = 0.0
    return terms


def _terms(counts: np.ndarray, score: str, n_rows: int) -> np.ndarray:
    """The terms Weka adds for one family, in its order, flat."""
    q, r = counts.shape
    if score == "bayes":
        return _bayes_terms(counts).ravel()
    if score == "bdeu":
        return _bdeu_terms(counts).ravel()
    terms = _likelihood_terms(counts).ravel()
    if score == "mdl":
        # Java evaluates 0.5 * q * (r - 1) * ln(N) from the left.
        return np.append(terms, -(0.5 * q * (r - 1) * math.log(n_rows)))
    if score == "aic":
        return np.append(terms, -float(q * (r - 1)))
    return terms


def family_scores(tables: Sequence[np.ndarray], score: str, n_rows: int) -> np.ndarray:
    """The ``score`` of each family from its counts ``(q, r)`` (float64 of integers:
    parent configuration major, the first parent most significant, as Weka lays them out),
    ``n_rows`` the training rows (the ``mdl`` penalty's ``N``).

    Each family's terms are summed one after the other (a cumulative sum along a row of
    terms, padded with zeros, which leave a float sum unchanged), as Weka sums them.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.special import gammaln
    >>> counts = np.array([[3.0, 1.0], [0.0, 2.0]])
    >>> by_hand = sum(gammaln(1.0) - gammaln(1.0 + n.sum()) + gammaln(0.5 + n).sum()
    ...               - 2 * gammaln(0.5) for n in counts)
    >>> bool(np.isclose(family_scores([counts], "bayes", 6)[0], by_hand))
    True
    >>> float(family_scores([counts], "entropy", 6)[0]) == 3 * np.log(3 / 4) + np.log(1 / 4)
    True
    """
    rows = [_terms(np.asarray(t, dtype=np.float64), score, n_rows) for t in tables]
    if not rows:
        return np.zeros(0)
    width = max(row.size for row in rows)
    padded = np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        padded[i, :row.size] = row
    return np.cumsum(padded, axis=1)[:, -1]
