"""All-pairs post-hoc comparisons over data sets, not only against a baseline.

Scores come as an N x k array (one row per data set, one column per
classifier), as in :mod:`~bayesbench.stats.multiple`. Each function compares
every pair (i, j), i < j, and returns a :class:`PairwiseResult` whose entries
follow :attr:`PairwiseResult.pairs`: (0, 1), (0, 2), ..., (k-2, k-1).

* :func:`nemenyi_pairwise`: Nemenyi's test on the Friedman ranks (Demšar
  2006, Sec. 3.2.2); its p-values already hold the family-wise error over all
  pairs.
* :func:`wilcoxon_pairwise`: the Wilcoxon signed-rank test on every pair,
  Holm-adjusted over the k(k-1)/2 pairs. Benavoli, Corani and Mangili (2016)
  advise it over the rank-based post-hoc tests, whose outcome for a pair
  depends on which other classifiers are in the comparison.

References
----------
J. Demšar (2006), Statistical Comparisons of Classifiers over Multiple Data
Sets, Journal of Machine Learning Research 7:1-30.
A. Benavoli, G. Corani, F. Mangili (2016), Should we really use post-hoc
tests based on mean-ranks?, Journal of Machine Learning Research 17(5):1-10.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import StatsError
from .multiple import NemenyiResult, holm, nemenyi, rank_scores, wilcoxon_rows

__all__ = ["PairwiseResult", "nemenyi_pairwise", "nemenyi_pairs", "wilcoxon_pairwise"]


@dataclass(frozen=True)
class PairwiseResult:
    """One post-hoc test on every pair of k classifiers.

    ``pairs`` lists the (i, j) column pairs, i < j; ``statistic``,
    ``pvalue``, ``pvalue_adjusted`` and ``reject`` hold one entry per pair in
    that order. ``pvalue_adjusted`` is what to compare with ``alpha``
    (``reject`` did so). ``method`` names the test.
    """

    pairs: tuple[tuple[int, int], ...]
    statistic: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    reject: np.ndarray
    alpha: float
    method: str
    n_classifiers: int

    def pvalue_matrix(self, *, adjusted: bool = True) -> np.ndarray:
        """The p-values as a symmetric k x k matrix with 1 on the diagonal
        (the layout of scikit-posthocs)."""
        k = self.n_classifiers
        out = np.ones((k, k))
        i, j = np.array(self.pairs, dtype=int).reshape(-1, 2).T
        values = self.pvalue_adjusted if adjusted else self.pvalue
        out[i, j] = out[j, i] = values
        return out


def _scores(scores) -> np.ndarray:
    s = np.asarray(scores, dtype=float)
    if s.ndim != 2 or s.shape[0] < 2 or s.shape[1] < 2:
        raise StatsError(f"expected an N x k score matrix with N >= 2 data sets and k >= 2 "
                         f"classifiers, got shape {s.shape}")
    if not np.all(np.isfinite(s)):
        raise StatsError("the score matrix contains NaN or infinite values")
    return s


def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(k, 1)


def nemenyi_pairwise(scores, *, alpha: float = 0.05, lower_is_better: bool = False) -> PairwiseResult:
    """Nemenyi's test for every pair of classifiers, after Friedman.

    With R_i the average rank of classifier i over the N data sets (1 = best,
    ties averaged; :func:`~bayesbench.stats.rank_scores`) and k classifiers,

        statistic_ij = R_i - R_j,
        pvalue_ij = P(Q_{k, inf} >= sqrt(2) |R_i - R_j| / SE),  SE = sqrt(k(k+1) / (6N)),

    Q_{k, inf} the studentized range of k means with infinite degrees of
    freedom. A pair differs at level alpha exactly when |R_i - R_j| exceeds
    the critical difference CD = q_alpha SE. ``pvalue_adjusted`` equals
    ``pvalue``: the studentized range already accounts for all k(k-1)/2
    pairs. A negative statistic means classifier i ranks better.

    Examples
    --------
    Demšar's Table 6: AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 data sets.

    >>> auc = [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...        [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...        [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...        [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...        [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...        [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...        [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970]]
    >>> res = nemenyi_pairwise(auc)
    >>> res.pairs
    ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    >>> [round(float(r), 3) for r in res.statistic]
    [1.143, 0.214, 1.214, -0.929, 0.071, 1.0]
    >>> [round(float(p), 3) for p in res.pvalue]
    [0.089, 0.972, 0.062, 0.227, 0.999, 0.17]
    """
    s = _scores(scores)
    ranks = rank_scores(s, lower_is_better=lower_is_better)
    average = ranks.mean(axis=0)
    return nemenyi_pairs(nemenyi(average, s.shape[0], alpha), average, alpha)


def nemenyi_pairs(test: NemenyiResult, average_ranks, alpha: float = 0.05) -> PairwiseResult:
    """:func:`nemenyi_pairwise` from a Nemenyi test already computed
    (:func:`~bayesbench.stats.nemenyi` on ``average_ranks`` at level ``alpha``), whose
    studentized range tails, one numerical integral per distance, need not be computed
    twice."""
    average = np.asarray(average_ranks, dtype=float)
    i, j = _pairs(average.size)
    p = test.pvalue[i, j]
    return PairwiseResult(pairs=tuple(zip(i.tolist(), j.tolist())), statistic=average[i] - average[j],
                          pvalue=p, pvalue_adjusted=p.copy(), reject=test.reject[i, j],
                          alpha=float(alpha), method="nemenyi", n_classifiers=average.size)


def wilcoxon_pairwise(scores, *, alpha: float = 0.05, zero_method: str = "demsar",
                      method: str = "auto") -> PairwiseResult:
    """Wilcoxon signed-rank test for every pair of classifiers, Holm-adjusted.

    Each pair (i, j) gets :func:`~bayesbench.stats.wilcoxon` on columns i and
    j (``zero_method`` and ``method`` as there): ``statistic`` T = min(R+, R-)
    and its two-sided ``pvalue``. Holm's step-down procedure
    (:func:`~bayesbench.stats.holm`) over the m = k(k-1)/2 p-values sorted
    ascending gives

        pvalue_adjusted_(r) = max_{q <= r} min(1, (m - q + 1) p_(q)),

    and ``reject`` is pvalue_adjusted <= alpha.

    Examples
    --------
    >>> auc = [[0.763, 0.768, 0.771], [0.599, 0.591, 0.590], [0.954, 0.971, 0.968],
    ...        [0.628, 0.661, 0.654], [0.882, 0.888, 0.886], [0.936, 0.931, 0.916]]
    >>> res = wilcoxon_pairwise(auc)
    >>> [float(t) for t in res.statistic]
    [5.5, 8.0, 3.5]
    >>> [round(float(p), 4) for p in res.pvalue]
    [0.3438, 0.6875, 0.1875]
    >>> [round(float(p), 4) for p in res.pvalue_adjusted]
    [0.6875, 0.6875, 0.5625]
    """
    s = _scores(scores)
    k = s.shape[1]
    i, j = _pairs(k)
    # All pairs at once, one row each: 50 classifiers are 1,225 pairs, and each null
    # distribution is computed once for all the rows that need it.
    tests = wilcoxon_rows(np.ascontiguousarray(s[:, i].T), np.ascontiguousarray(s[:, j].T),
                          zero_method=zero_method, method=method)
    p = tests.pvalue
    adjusted = holm(p, alpha)
    return PairwiseResult(pairs=tuple(zip(i.tolist(), j.tolist())),
                          statistic=tests.statistic, pvalue=p,
                          pvalue_adjusted=adjusted.pvalue_adjusted, reject=adjusted.reject,
                          alpha=float(alpha), method="wilcoxon-holm", n_classifiers=k)
