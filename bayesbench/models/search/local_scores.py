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
from typing import NamedTuple, Sequence

import numpy as np
from scipy.special import gammaln

#: The scores a search may maximise, in Weka's order of ``-S``.
SCORES = ("bayes", "bdeu", "mdl", "entropy", "aic")

#: The Dirichlet pseudo-count per cell of the ``bayes`` score. Weka's local score searches
#: fix it at 0.5 (``LocalScoreSearchAlgorithm.m_fAlpha``, which no option sets), whatever
#: ``alpha`` the estimator smooths the tables with.
BAYES_PRIOR = 0.5


def _dirichlet_terms(counts: np.ndarray, real: np.ndarray, configurations: np.ndarray,
                     r: np.ndarray, cell: np.ndarray, configuration: np.ndarray) -> np.ndarray:
    """Per configuration: ``lnG(cell + N_jk)`` for each value, ``-lnG(sum_k (cell + N_jk))``,
    ``-r lnG(cell)``, ``+lnG(configuration)``: ``(families, q, r + 3)``, in Weka's order
    (``cell``, ``configuration`` and ``r`` per family; 0 for a padded cell or
    configuration, where ``real`` or ``configurations`` is False)."""
    n, q, width = counts.shape
    out = np.zeros((n, q, width + 3))
    cells = np.zeros_like(counts)  # a padded cell adds nothing to the total either
    np.add(counts, cell[:, None, None], out=cells, where=real)
    values = out[:, :, :width]
    values[real] = gammaln(cells[real])
    total = cells[:, :, 0].copy()  # Weka adds the cells one by one
    for k in range(1, width):
        total += cells[:, :, k]
    out[:, :, width] = -gammaln(total)
    out[:, :, width + 1] = (-(r * gammaln(cell)))[:, None]
    out[:, :, width + 2] = gammaln(configuration)[:, None]
    out[:, :, width:][~configurations] = 0.0  # a padded configuration: none of its terms
    return out


def _likelihood_terms(counts: np.ndarray) -> np.ndarray:
    """``N_jk ln(N_jk / N_j)`` per cell (0 for an empty cell, which Weka skips: adding 0.0
    leaves a sum as it is)."""
    total = np.cumsum(counts, axis=2)[:, :, -1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = counts * np.log(counts / total)
    terms[counts == 0] = 0.0
    return terms


def _terms(counts: np.ndarray, real: np.ndarray, configurations: np.ndarray, q: np.ndarray,
           r: np.ndarray, score: str, n_rows: int) -> np.ndarray:
    """The terms Weka adds for each of a stack of families ``(families, q, r)`` (padded
    with zero counts where ``real`` is False, ``configurations`` the rows that are a
    family's; each family's own ``q`` and ``r``), in its order, one row per family; a
    padded place's term is 0."""
    n = counts.shape[0]
    if score == "bayes":
        cell = np.full(n, BAYES_PRIOR)
        return _dirichlet_terms(counts, real, configurations, r, cell,
                                r * BAYES_PRIOR).reshape(n, -1)
    if score == "bdeu":
        return _dirichlet_terms(counts, real, configurations, r, 1.0 / (r * q),
                                1.0 / q).reshape(n, -1)
    terms = _likelihood_terms(counts).reshape(n, -1)
    if score == "mdl":
        # Java evaluates 0.5 * q * (r - 1) * ln(N) from the left.
        penalty = -(0.5 * q * (r - 1) * math.log(n_rows))
    elif score == "aic":
        penalty = -(q * (r - 1))
    else:
        return terms
    return np.hstack([terms, penalty[:, None]])


class Stacked(NamedTuple):
    """Tables of families, stacked: ``counts`` ``(families, q, r)``, and ``valid`` of the
    same shape, which cells are a family's (its table, in order, the rest padding whatever
    it holds: whole rows, or the columns past a family's values), None when all are."""

    counts: np.ndarray
    valid: np.ndarray | None = None


#: Cells a stack of families may hold per cell of theirs (padded to the largest ``q`` and
#: ``r`` among them); beyond it, families are scored in stacks of one shape.
PADDING = 4


def family_scores(tables: Sequence, score: str, n_rows: int) -> np.ndarray:
    """The ``score`` of each family from its counts ``(q, r)`` (float64 of integers:
    parent configuration major, the first parent most significant, as Weka lays them out),
    ``n_rows`` the training rows (the ``mdl`` penalty's ``N``). An item of ``tables`` is
    one family's table or a :class:`Stacked` of several, which give a score each, in order.

    Each family's terms are summed one after the other (a cumulative sum along its row of
    terms), as Weka sums them. Families are scored together, each padded to the largest
    table among them with terms of 0 (a sum to which 0.0 is added is the same number, so
    the padding changes no bit); when padding would more than :data:`PADDING`-fold the
    cells, items of one shape are scored together.

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
    items = [t if isinstance(t, Stacked) else Stacked(np.asarray(t)[None]) for t in tables]
    sizes = [item.counts.shape for item in items]
    n = sum(size[0] for size in sizes)
    if not n:
        return np.zeros(0)
    padded = n * max(size[1] for size in sizes) * max(size[2] for size in sizes)
    if padded <= PADDING * sum(math.prod(size) for size in sizes):
        return _padded_scores(items, score, n_rows)
    out = np.zeros(n)
    first = np.concatenate([[0], np.cumsum([size[0] for size in sizes])])
    groups: dict = {}
    for i, size in enumerate(sizes):
        groups.setdefault(size[1:], []).append(i)
    for group in groups.values():
        members = np.concatenate([np.arange(first[i], first[i + 1]) for i in group])
        out[members] = _padded_scores([items[i] for i in group], score, n_rows)
    return out


def _padded_scores(items: Sequence[Stacked], score: str, n_rows: int) -> np.ndarray:
    """The scores of the families of ``items``, stacked and padded to the largest among
    them (terms of 0 at every padded place)."""
    n = sum(item.counts.shape[0] for item in items)
    q_max = max(item.counts.shape[1] for item in items)
    r_max = max(item.counts.shape[2] for item in items)
    stack = np.zeros((n, q_max, r_max))
    real = np.zeros((n, q_max, r_max), dtype=bool)
    at = 0
    for counts, valid in items:  # a padded place's count is 0
        size, q, width = counts.shape
        if valid is None:
            stack[at:at + size, :q, :width] = counts
            real[at:at + size, :q, :width] = True
        else:
            np.copyto(stack[at:at + size, :q, :width], counts, where=valid)
            real[at:at + size, :q, :width] = valid
        at += size
    # Every value of a configuration is real or none: a family's configurations are those
    # whose first value is, its values those of its first configuration.
    configurations = real[:, :, 0]
    q = configurations.sum(axis=1, dtype=np.float64)
    r = real[:, 0, :].sum(axis=1, dtype=np.float64)
    terms = _terms(stack, real, configurations, q, r, score, n_rows)
    return np.cumsum(terms, axis=1)[:, -1]
