"""Comparisons of classifiers over several data sets (Demšar 2006).

Scores come as an N x k array: one row per data set, one column per
classifier. The Friedman test and its post-hoc tests work on within-row ranks
(1 = best, ties share the mean rank) from :func:`rank_scores`; the Wilcoxon
signed-rank and sign tests compare two columns.

Where Demšar's worked examples and scipy part ways, both are available and the
default follows the paper:

* :func:`friedman` returns the paper's chi-square_F (no tie correction) as
  ``statistic`` and scipy's tie-corrected value as ``corrected_statistic``.
* :func:`wilcoxon` splits the ranks of zero differences between R+ and R- and
  drops one zero when their number is odd (``zero_method="demsar"``); scipy's
  ``"wilcox"``, ``"pratt"`` and ``"zsplit"`` are there too.
* :func:`friedman` also returns the exact p-value of chi-square_F (the permutation
  distribution of the ranks) where it can be computed within a bound, and leaves
  Iman-Davenport's F_F undefined where it is: when every data set ranks the classifiers
  alike, chi-square_F = N(k-1), F_F's denominator is 0, and its p-value is not 0.
* :func:`sign_test` returns the exact two-sided binomial p-value; the paper's
  Table 3 of critical values is effectively one-sided (11 wins of 14 is
  "significant" there, p = 0.057 two-sided).

Reference: J. Demšar (2006), Statistical Comparisons of Classifiers over
Multiple Data Sets, Journal of Machine Learning Research 7:1-30.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import StatsError
from ..measures.ties import TIE_DECIMALS, tie_safe

__all__ = [
    "TIE_DECIMALS", "tie_safe", "average_ranks", "rank_scores", "FriedmanResult", "friedman",
    "friedman_exact_pvalue", "nemenyi_q",
    "bonferroni_dunn_q", "critical_difference", "NemenyiResult", "nemenyi", "cd_groups", "ControlResult",
    "control_ztest",
    "AdjustedResult", "holm", "bonferroni", "WilcoxonResult", "wilcoxon", "wilcoxon_rows",
    "wilcoxon_critical_value", "SignTestResult", "sign_test", "WinTieLoss", "win_tie_loss",
]

def _paired_differences(a, b, what: str, *, lower_is_better: bool = False) -> np.ndarray:
    """``a - b`` per data set, tie-safe, positive where ``a`` is better."""
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    if a.shape != b.shape:
        raise StatsError(f"{what} needs two score vectors of equal length; got {a.size} and {b.size}")
    d = tie_safe(a - b)
    return -d if lower_is_better else d


def _matrix(scores) -> np.ndarray:
    s = np.asarray(scores, dtype=float)
    if s.ndim != 2 or s.shape[0] < 1 or s.shape[1] < 2:
        raise StatsError(f"expected an N x k score matrix with k >= 2 classifiers, got shape {s.shape}")
    if not np.all(np.isfinite(s)):
        raise StatsError("the score matrix contains NaN or infinite values")
    return s


def average_ranks(values) -> np.ndarray:
    """Ranks 1..n of ``values``, tied values sharing the mean of their ranks; all NaN if a
    value is NaN. The numbers of ``scipy.stats.rankdata(values)``, bit for bit (a tie group
    over sorted positions ``start .. end - 1`` gets ``(start + end + 1) / 2``), without
    importing scipy.stats (half a second) into every process that scores a fold or ranks
    the classifiers of a run's summary.

    Examples
    --------
    >>> average_ranks([0.3, 0.1, 0.3, 0.2]).tolist()
    [3.5, 1.0, 3.5, 2.0]
    """
    values = np.asarray(values).ravel()
    if values.dtype.kind == "f" and np.isnan(values).any():
        return np.full(values.size, np.nan)
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    first = np.r_[True, ordered[1:] != ordered[:-1]]
    starts = np.flatnonzero(first)
    ends = np.r_[starts[1:], values.size]
    ranks = np.empty(values.size)
    ranks[order] = (0.5 * (starts + ends + 1))[np.cumsum(first) - 1]
    return ranks


def rank_scores(scores, *, lower_is_better: bool = False) -> np.ndarray:
    """Rank the classifiers within each data set: 1 = best, ties get the mean rank.

    ``scores`` is N data sets x k classifiers; higher is better unless
    ``lower_is_better``. Returns an N x k float array.
    """
    s = tie_safe(_matrix(scores))
    signed = s if lower_is_better else -s
    return np.array([average_ranks(row) for row in signed]).reshape(s.shape)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test and the Iman-Davenport F on the same ranks.

    ``statistic``/``pvalue``: chi-square_F = 12N/(k(k+1)) [sum_j R_j^2 - k(k+1)^2/4]
    with k - 1 degrees of freedom (``df``), R_j the average ranks, as printed
    by Demšar (no tie correction). ``f_statistic``/``f_pvalue``: Iman and
    Davenport's F_F = (N-1) chi2_F / (N(k-1) - chi2_F) with ``f_df`` =
    (k-1, (k-1)(N-1)) degrees of freedom; Demšar recommends it over chi2_F.
    ``corrected_statistic``/``corrected_pvalue``: chi2_F divided by
    C = 1 - sum(t^3 - t) / (N k (k^2 - 1)) over the groups of tied ranks, as
    ``scipy.stats.friedmanchisquare`` reports it. ``exact_pvalue``: P(chi2_F >= the
    observed) when each data set's ranks (ties as they are) are permuted at random,
    independently (:func:`friedman_exact_pvalue`); NaN beyond :data:`MAX_EXACT_WORK`.

    At perfect agreement (every data set ranks the classifiers alike, chi2_F = N(k-1))
    F_F is infinite and its F distribution says nothing: ``f_statistic`` is infinite and
    ``f_pvalue`` NaN (undefined); read ``exact_pvalue`` (or ``pvalue``) there. When every
    score ties, chi2_F = 0 and every p-value is 1.
    """

    statistic: float
    pvalue: float
    df: int
    f_statistic: float
    f_pvalue: float
    f_df: tuple[int, int]
    corrected_statistic: float
    corrected_pvalue: float
    average_ranks: np.ndarray
    n_datasets: int
    n_classifiers: int
    exact_pvalue: float = float("nan")


#: The exact Friedman distribution is computed when its steps (one per data set) hold at most
#: this many (distribution state, arrangement of the ranks) pairs in all, and k <= 7 (7!
#: arrangements): well under a second. Beyond it chi2_F's approximation is good (many data
#: sets), and the bound keeps every comparison's cost small.
MAX_EXACT_WORK = 1_000_000


def friedman_exact_pvalue(ranks) -> float:
    """P(chi2_F >= observed) under the null hypothesis that, within each data set, every
    arrangement of its ranks (ties kept) is equally likely; NaN when the computation would
    exceed :data:`MAX_EXACT_WORK`.

    chi2_F grows with sum_j R_j^2 (the R_j rank sums), so the distribution of the sorted
    vector of doubled rank sums (integers, mid-ranks included) is built one data set at a
    time: sorting is exact because the rows are exchangeable across classifiers.
    """
    r = np.rint(2 * _matrix(ranks)).astype(np.int64)
    k = r.shape[1]
    base = int(r.sum()) + 1  # a doubled rank sum is below it: one int64 key per state
    if math.factorial(k) > 5040 or base ** k >= 2 ** 62:
        return float("nan")
    radix = base ** np.arange(k, dtype=np.int64)
    states, probs, work = np.zeros((1, k), dtype=np.int64), np.ones(1), 0
    for row in r:
        arrangements = np.array(sorted(set(itertools.permutations(row.tolist()))), dtype=np.int64)
        work += states.shape[0] * arrangements.shape[0]
        if work > MAX_EXACT_WORK:
            return float("nan")
        grown = np.sort((states[:, None, :] + arrangements[None, :, :]).reshape(-1, k), axis=1)
        _, first, where = np.unique(grown @ radix, return_index=True, return_inverse=True)
        states = grown[first]
        probs = np.bincount(where.ravel(), weights=np.repeat(probs / arrangements.shape[0],
                                                             arrangements.shape[0]))
    observed = int(np.sum(r.sum(axis=0) ** 2))
    return float(min(1.0, probs[np.sum(states ** 2, axis=1) >= observed].sum()))


def friedman(ranks) -> FriedmanResult:
    """Friedman's test on an N x k matrix of within-data-set ranks.

    Taking ranks rather than scores lets a published rank table be checked
    as printed (Demšar's Table 6 ranks voting 2 and 3 where its printed AUCs
    tie); use :func:`rank_scores` to get the ranks of scores.
    """
    r = _matrix(ranks)
    n, k = r.shape
    if n < 2:
        raise StatsError("the Friedman test needs at least 2 data sets")
    if not np.allclose(r.sum(axis=1), k * (k + 1) / 2):
        raise StatsError("each row of ranks must sum to k(k+1)/2 (ranks 1..k, ties averaged)")
    avg = r.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(avg ** 2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(float(chi2), 0.0)
    df = k - 1
    f_df = (k - 1, (k - 1) * (n - 1))
    denominator = n * (k - 1) - chi2
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    if denominator <= 1e-9 * n * (k - 1):  # every data set ranks the classifiers alike
        f_stat, f_p = float("inf"), float("nan")  # F_F's distribution does not apply
    else:
        f_stat = (n - 1) * chi2 / denominator
        f_p = float(_st.f.sf(f_stat, *f_df))
    ties = sum(float(np.sum(c ** 3 - c)) for c in
               (np.unique(tie_safe(row), return_counts=True)[1].astype(float) for row in r))
    c = 1.0 - ties / (n * k * (k * k - 1))
    corrected = chi2 / c if c > 0 else 0.0
    return FriedmanResult(
        statistic=chi2, pvalue=float(_st.chi2.sf(chi2, df)), df=df,
        f_statistic=float(f_stat), f_pvalue=f_p, f_df=f_df,
        corrected_statistic=float(corrected), corrected_pvalue=float(_st.chi2.sf(corrected, df)),
        average_ranks=avg, n_datasets=n, n_classifiers=k,
        exact_pvalue=friedman_exact_pvalue(r))


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise StatsError(f"alpha must lie strictly between 0 and 1, got {alpha}")


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Critical value q_alpha of the two-tailed Nemenyi test for k classifiers:
    the studentized range quantile (infinite df) divided by sqrt(2) (Demšar's Table 5a)."""
    _check_alpha(alpha)
    if k < 2:
        raise StatsError("the Nemenyi test needs at least 2 classifiers")
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    return float(_st.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def bonferroni_dunn_q(k: int, alpha: float = 0.05) -> float:
    """Critical value of the two-tailed Bonferroni-Dunn test for k classifiers
    (the control included): the normal quantile at 1 - alpha / (2(k-1)) (Demšar's Table 5b)."""
    _check_alpha(alpha)
    if k < 2:
        raise StatsError("the Bonferroni-Dunn test needs at least 2 classifiers")
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    return float(_st.norm.ppf(1.0 - alpha / (2.0 * (k - 1))))


def _rank_se(k: int, n: int) -> float:
    return float(np.sqrt(k * (k + 1) / (6.0 * n)))


def critical_difference(k: int, n: int, alpha: float = 0.05, *, method: str = "nemenyi") -> float:
    """CD = q_alpha sqrt(k(k+1) / (6N)): two average ranks further apart than
    CD differ significantly. ``method`` is "nemenyi" (all pairs) or
    "bonferroni-dunn" (each classifier against one control)."""
    if method == "nemenyi":
        q = nemenyi_q(k, alpha)
    elif method == "bonferroni-dunn":
        q = bonferroni_dunn_q(k, alpha)
    else:
        raise StatsError(f"unknown critical-difference method '{method}'; expected nemenyi or bonferroni-dunn")
    return q * _rank_se(k, n)


@dataclass(frozen=True)
class NemenyiResult:
    """All pairwise Nemenyi comparisons: ``critical_difference`` and its ``q``,
    a k x k matrix of ``pvalue`` (studentized range tail of
    |R_i - R_j| sqrt(2) / SE, SE = sqrt(k(k+1)/(6N))) and of ``reject``."""

    critical_difference: float
    q: float
    pvalue: np.ndarray
    reject: np.ndarray


def nemenyi(average_ranks, n_datasets: int, alpha: float = 0.05) -> NemenyiResult:
    """Nemenyi post-hoc test after Friedman, for every pair of classifiers."""
    avg = np.asarray(average_ranks, dtype=float)
    k = avg.size
    q = nemenyi_q(k, alpha)
    se = _rank_se(k, n_datasets)
    diff = np.abs(avg[:, None] - avg[None, :])
    # The tail is a numerical integral per value: compute it once per distinct distance.
    distances, where = np.unique(diff, return_inverse=True)
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    p = np.clip(_st.studentized_range.sf(distances / se * np.sqrt(2.0), k, np.inf), 0.0, 1.0)
    p = p[where.reshape(diff.shape)]
    np.fill_diagonal(p, 1.0)
    return NemenyiResult(critical_difference=q * se, q=q, pvalue=p, reject=diff > q * se)


def cd_groups(average_ranks, critical_difference: float) -> list[tuple[int, ...]]:
    """The bars of Demšar's diagram: maximal sets of classifiers, consecutive in
    rank order, whose average ranks lie within ``critical_difference`` of each
    other (so no pair inside a set differs significantly). Indices into
    ``average_ranks``, best rank first; single classifiers are not listed."""
    avg = np.asarray(average_ranks, dtype=float)
    order = np.argsort(avg, kind="stable")
    r = avg[order]
    groups, reach = [], -1
    for i in range(r.size):
        j = int(np.searchsorted(r, r[i] + critical_difference, side="right")) - 1
        if j > i and j > reach:
            groups.append(tuple(int(x) for x in order[i:j + 1]))
            reach = j
    return groups


@dataclass(frozen=True)
class ControlResult:
    """Each classifier against a control: z = (R_control - R_i) / SE (positive
    when classifier i ranks better), its two-sided normal ``pvalue``, and ``se``.
    The control's own entries are NaN."""

    statistic: np.ndarray
    pvalue: np.ndarray
    se: float


def control_ztest(average_ranks, n_datasets: int, control: int) -> ControlResult:
    """The z statistics of Demšar's Sec. 3.2.2 against a control classifier, on
    which the Holm and Bonferroni-Dunn procedures operate."""
    avg = np.asarray(average_ranks, dtype=float)
    k = avg.size
    if not 0 <= control < k:
        raise StatsError(f"control index {control} out of range for {k} classifiers")
    se = _rank_se(k, n_datasets)
    z = (avg[control] - avg) / se
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    p = 2.0 * _st.norm.sf(np.abs(z))
    z[control] = p[control] = np.nan
    return ControlResult(statistic=z, pvalue=p, se=se)


@dataclass(frozen=True)
class AdjustedResult:
    """A multiple-comparison procedure: ``reject`` per hypothesis, the adjusted
    p-values (``pvalue_adjusted``, compare them with alpha directly) and the
    ``threshold`` each raw p-value was compared with."""

    reject: np.ndarray
    pvalue_adjusted: np.ndarray
    threshold: np.ndarray


def _pvalues(pvalues) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float).ravel()
    if p.size == 0 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise StatsError("expected one or more p-values in [0, 1]")
    return p


def holm(pvalues, alpha: float = 0.05) -> AdjustedResult:
    """Holm's step-down procedure: sort the m p-values, compare p_(i) with
    alpha / (m - i + 1) and stop at the first that is not rejected.
    Adjusted p_(i) = max over j <= i of min(1, (m - j + 1) p_(j))."""
    _check_alpha(alpha)
    p = _pvalues(pvalues)
    m = p.size
    order = np.argsort(p, kind="stable")
    factors = m - np.arange(m)
    sorted_thresholds = alpha / factors
    passed = p[order] <= sorted_thresholds
    n_rejected = m if passed.all() else int(np.argmin(passed))
    reject = np.zeros(m, dtype=bool)
    reject[order[:n_rejected]] = True
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(np.maximum.accumulate(factors * p[order]), 1.0)
    threshold = np.empty(m)
    threshold[order] = sorted_thresholds
    return AdjustedResult(reject=reject, pvalue_adjusted=adjusted, threshold=threshold)


def bonferroni(pvalues, alpha: float = 0.05) -> AdjustedResult:
    """Bonferroni's correction (Bonferroni-Dunn against a control): reject when
    p <= alpha / m; adjusted p = min(1, m p)."""
    _check_alpha(alpha)
    p = _pvalues(pvalues)
    m = p.size
    return AdjustedResult(reject=p <= alpha / m, pvalue_adjusted=np.minimum(m * p, 1.0),
                          threshold=np.full(m, alpha / m))


@dataclass(frozen=True)
class WilcoxonResult:
    """Wilcoxon signed-rank test: ``statistic`` T = min(R+, R-), the two-sided
    ``pvalue``, the rank sums ``r_plus`` (a > b) and ``r_minus``, ``n`` the number of
    differences ranked, ``zstatistic`` = (T - n(n+1)/4) / sd (tie-corrected sd;
    Demšar's formula omits the correction), and the ``method`` that gave p.
    From :func:`wilcoxon_rows` each field is an array with one entry per row."""

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    zstatistic: float
    method: str


_ZERO_METHODS = ("demsar", "zsplit", "wilcox", "pratt")
_WILCOXON_METHODS = ("auto", "exact", "permutation", "approx")


@lru_cache(maxsize=4096)
def _signed_rank_pmf(doubled_ranks: tuple[int, ...]) -> np.ndarray:
    """Null distribution of sum_i s_i w_i, s_i independent fair coins, w_i >= 1
    integers (ranks doubled so that mid-ranks are integers), as a read-only array.

    Cached: it depends on the ranks alone (sorted by the callers), so a comparison
    of many pairs over the same number of folds computes each distribution once.
    """
    pmf = np.zeros(sum(doubled_ranks) + 1)
    pmf[0] = 1.0
    for w in doubled_ranks:
        shifted = np.zeros_like(pmf)
        shifted[w:] = pmf[:-w]
        pmf = 0.5 * (pmf + shifted)
    pmf.flags.writeable = False
    return pmf


def _exact_pmf(n: int) -> np.ndarray:
    """The distribution of 2 R+ for n untied ranks."""
    return _signed_rank_pmf(tuple(range(2, 2 * n + 1, 2)))


def _check_wilcoxon_options(zero_method: str, method: str) -> None:
    if zero_method not in _ZERO_METHODS:
        raise StatsError(f"unknown zero_method '{zero_method}'; expected one of {', '.join(_ZERO_METHODS)}")
    if method not in _WILCOXON_METHODS:
        raise StatsError(f"unknown method '{method}'; expected one of {', '.join(_WILCOXON_METHODS)}")


def wilcoxon(a, b, *, zero_method: str = "demsar", method: str = "auto") -> WilcoxonResult:
    """Wilcoxon signed-rank test on the differences d = a - b.

    The |d_i| are ranked (ties get mean ranks); R+ sums the ranks of d_i > 0,
    R- those of d_i < 0, and T = min(R+, R-). Zero differences:

    * ``"demsar"`` (default): their ranks are split evenly between R+ and R-,
      and one zero is dropped first when their number is odd (Demšar 2006, Sec. 3.1.3);
    * ``"zsplit"``: split evenly, never dropped (scipy);
    * ``"wilcox"``: dropped before ranking (scipy's default);
    * ``"pratt"``: ranked, then left out of both sums (scipy).

    p-values (two-sided), with ``method``:

    * ``"exact"``: the distribution of R+ for n untied ranks, the statistic
      rounded conservatively when it is not an integer (as scipy's "exact");
    * ``"permutation"``: the exact conditional distribution given the observed
      ranks (ties and zeros included), computed by convolution; it equals
      scipy's permutation test whenever scipy enumerates every sign pattern;
    * ``"approx"``: normal approximation with the tie-corrected variance
      n(n+1)(2n+1)/24 - sum(t^3 - t)/48 and no continuity correction (scipy's
      "asymptotic"; with Pratt's zeros Cureton's adjustment);
    * ``"auto"``: as scipy 1.17, on the number of pairs given: "exact" for at
      most 50 without ties or zeros, "permutation" for at most 13 with ties or
      zeros, else "approx".
    """
    _check_wilcoxon_options(zero_method, method)
    d = _paired_differences(a, b, "the Wilcoxon test")
    if d.size == 0:
        raise StatsError("the Wilcoxon test needs at least one pair of scores")
    if not np.all(np.isfinite(d)):
        raise StatsError("scores contain NaN or infinite values")
    rows = _signed_rank_rows(d[None, :], zero_method, method)
    return WilcoxonResult(statistic=float(rows.statistic[0]), pvalue=float(rows.pvalue[0]),
                          r_plus=float(rows.r_plus[0]), r_minus=float(rows.r_minus[0]),
                          n=int(rows.n[0]), zstatistic=float(rows.zstatistic[0]), method=str(rows.method[0]))


def wilcoxon_rows(a, b, *, zero_method: str = "demsar", method: str = "auto") -> WilcoxonResult:
    """:func:`wilcoxon` of ``a[i]`` against ``b[i]`` for each row i of two m x n arrays,
    over the columns where both are finite (NaN: no pair); every field of the result
    is an array of m entries. A row without a pair has n = 0 and p = 1.

    The same computation as :func:`wilcoxon`, done for all rows at once: ranks,
    rank sums and tie terms by array operations, and each null distribution
    (per number of pairs, or per pattern of tied ranks) computed once and
    read for every row that has it.
    """
    _check_wilcoxon_options(zero_method, method)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.ndim != 2 or a.shape != b.shape:
        raise StatsError(f"expected two m x n arrays of equal shape, got {a.shape} and {b.shape}")
    return _signed_rank_rows(tie_safe(a - b), zero_method, method)


def _apply_zero_rule(d, zero_method):
    """``d`` with the zeros that the rule drops set to NaN (no pair)."""
    d = d.copy()
    zero = d == 0
    if zero_method == "wilcox":
        d[zero] = np.nan
    elif zero_method == "demsar":
        odd = np.flatnonzero(zero.sum(axis=1) % 2 == 1)
        d[odd, np.argmax(zero[odd], axis=1)] = np.nan
    return d


def _rank_rows(values):
    """Mid-ranks (ties averaged) of each row's finite entries, and the size of each
    entry's tie group; other entries get meaningless values."""
    m, n = values.shape
    keyed = np.where(np.isfinite(values), values, np.inf)
    order = np.argsort(keyed, axis=1, kind="stable")
    s = np.take_along_axis(keyed, order, axis=1)
    start = np.ones((m, n), dtype=bool)
    start[:, 1:] = s[:, 1:] != s[:, :-1]
    first = np.maximum.accumulate(np.where(start, np.arange(n), 0), axis=1)
    group = np.cumsum(start, axis=1) - 1
    sizes = np.bincount((np.arange(m)[:, None] * n + group).ravel(), minlength=m * n).reshape(m, n)
    size = np.take_along_axis(sizes, group, axis=1)
    ranks, ties = np.empty((m, n)), np.empty((m, n), dtype=np.int64)
    np.put_along_axis(ranks, order, first + (size + 1) / 2.0, axis=1)
    np.put_along_axis(ties, order, size, axis=1)
    return ranks, ties


def _signed_rank_rows(d, zero_method, method) -> WilcoxonResult:
    """The Wilcoxon test of each row of differences ``d`` (NaN: no pair)."""
    given = np.isfinite(d)
    n_given, any_zero = given.sum(axis=1), (d == 0).any(axis=1)
    d = _apply_zero_rule(d, zero_method)
    valid = np.isfinite(d)
    zero, pos = valid & (d == 0), valid & (d > 0)
    ranks, ties = _rank_rows(np.abs(d))
    n = valid.sum(axis=1)
    r_pos = np.where(pos, ranks, 0.0).sum(axis=1)
    r_plus, r_minus = r_pos.copy(), np.where(valid & (d < 0), ranks, 0.0).sum(axis=1)
    if zero_method in ("demsar", "zsplit"):
        half = np.where(zero, ranks, 0.0).sum(axis=1) / 2.0
        r_plus, r_minus = r_plus + half, r_minus + half
    # Normal approximation: mean and variance of R+ (Pratt: Cureton's adjustment for zeros).
    counted = valid & ~zero if zero_method == "pratt" else valid
    nz = zero.sum(axis=1) if zero_method == "pratt" else np.zeros_like(n)
    mean = (n * (n + 1) - nz * (nz + 1)) / 4.0
    tie_terms = np.where(counted, ties.astype(float) ** 2 - 1.0, 0.0).sum(axis=1)  # sum(t^3 - t)
    var = (n * (n + 1) * (2 * n + 1) - nz * (nz + 1) * (2 * nz + 1)) / 24.0 - tie_terms / 48.0
    t_stat = np.minimum(r_plus, r_minus)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, (t_stat - mean) / np.sqrt(np.where(var > 0, var, 1.0)), np.nan)
    chosen = np.full(d.shape[0], method, dtype=object)
    if method == "auto":  # scipy's rule, on the number of pairs given
        untied = (np.where(counted, ties, 1) == 1).all(axis=1) & ~any_zero
        chosen[:] = np.where(n_given > 50, "approx", np.where(
            untied, "exact", np.where(n_given <= 13, "permutation", "approx")))
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    p = np.where(var > 0, 2.0 * _st.norm.sf(np.abs(z)), 1.0)
    _exact_pvalues(p, chosen == "exact", n, r_plus)
    _permutation_pvalues(p, chosen == "permutation", ranks, valid & ~zero, r_pos)
    # No difference left to rank: nothing to test.
    empty = (n == 0) | (zero.sum(axis=1) == n)
    for field in (t_stat, r_plus, r_minus):
        field[empty] = 0.0
    p[empty], z[empty], chosen[empty] = 1.0, np.nan, method
    return WilcoxonResult(statistic=t_stat, pvalue=np.minimum(p, 1.0), r_plus=r_plus, r_minus=r_minus,
                          n=n, zstatistic=z, method=chosen)


def _exact_pvalues(p, rows, n, r_plus) -> None:
    """Fill ``p[rows]`` from the distribution of R+ for n untied ranks, one per n."""
    for size in np.unique(n[rows]):
        at = rows & (n == size)
        pmf = _exact_pmf(int(size))
        lo, hi = (2 * np.floor(r_plus[at])).astype(int), (2 * np.ceil(r_plus[at])).astype(int)
        p[at] = 2.0 * np.minimum(np.cumsum(pmf[::-1])[::-1][lo], np.cumsum(pmf)[hi])


def _permutation_pvalues(p, rows, ranks, ranked, r_pos) -> None:
    """Fill ``p[rows]`` from the conditional distribution given each row's non-zero ranks,
    one per pattern of ranks. The zeros' share of R+ is a constant offset, so the tail
    is read at 2 x (sum of the positive ranks), an integer."""
    if not rows.any():
        return
    weights = np.sort(np.where(ranked[rows], np.rint(2 * ranks[rows]), 0).astype(np.int64), axis=1)
    patterns, which = np.unique(weights, axis=0, return_inverse=True)
    at_rows = np.flatnonzero(rows)
    observed = np.rint(2 * r_pos[rows]).astype(int)
    for k, pattern in enumerate(patterns):
        pmf = _signed_rank_pmf(tuple(int(w) for w in pattern if w > 0))
        mine = which.ravel() == k
        s = observed[mine]
        p[at_rows[mine]] = 2.0 * np.minimum(np.cumsum(pmf[::-1])[::-1][s], np.cumsum(pmf)[s])


def wilcoxon_critical_value(n: int, alpha: float = 0.05) -> int:
    """Largest T for which the exact two-sided Wilcoxon test (n untied ranks)
    rejects at level alpha, i.e. 2 P(T <= t) <= alpha; -1 if none does.
    Demšar: n = 14, alpha = 0.05 gives 21."""
    _check_alpha(alpha)
    if n < 1:
        raise StatsError("the Wilcoxon critical value needs n >= 1")
    pmf = _exact_pmf(n)[::2]
    cdf = np.cumsum(pmf)
    ok = np.flatnonzero(2.0 * cdf <= alpha + 1e-12)
    return int(ok[-1]) if ok.size else -1


@dataclass(frozen=True)
class SignTestResult:
    """Sign test: ``wins``, ``losses`` and ``ties`` of ``a`` against ``b`` as
    observed, the ``statistic`` (wins counted after the tie rule) out of ``n``,
    and the exact two-sided binomial ``pvalue``."""

    wins: int
    losses: int
    ties: int
    statistic: int
    n: int
    pvalue: float


def sign_test(a, b, *, ties: str = "split", lower_is_better: bool = False) -> SignTestResult:
    """Sign test: count the data sets on which ``a`` beats ``b``.

    ``ties="split"`` (Demšar): ties are shared evenly between the two, one
    ignored when their number is odd; ``"drop"``: ties are left out. The
    p-value is the exact two-sided binomial test (``scipy.stats.binomtest``).
    """
    if ties not in ("split", "drop"):
        raise StatsError(f"unknown tie rule '{ties}'; expected split or drop")
    d = _paired_differences(a, b, "the sign test", lower_is_better=lower_is_better)
    wins, losses, tied = int(np.sum(d > 0)), int(np.sum(d < 0)), int(np.sum(d == 0))
    share = tied // 2 if ties == "split" else 0
    statistic, n = wins + share, wins + losses + 2 * share
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    p = float(_st.binomtest(statistic, n, 0.5).pvalue) if n > 0 else 1.0
    return SignTestResult(wins=wins, losses=losses, ties=tied, statistic=statistic, n=n, pvalue=p)


@dataclass(frozen=True)
class WinTieLoss:
    """How often ``a`` wins, ties and loses against ``b``."""

    wins: int
    ties: int
    losses: int

    def __str__(self) -> str:
        return f"{self.wins}/{self.ties}/{self.losses}"


def win_tie_loss(a, b, *, significant=None, lower_is_better: bool = False) -> WinTieLoss:
    """Count wins, ties and losses of ``a`` against ``b`` over data sets.

    Without ``significant``, a win is a better score and a tie an equal one.
    With a boolean mask ``significant`` (one entry per data set, e.g. from a
    t-test over folds), only significant differences count as wins or losses,
    the rest as ties: Weka's "(v/ /*)" counts.
    """
    d = _paired_differences(a, b, "win/tie/loss", lower_is_better=lower_is_better)
    better, worse = d > 0, d < 0
    if significant is not None:
        sig = np.asarray(significant, dtype=bool).ravel()
        if sig.shape != d.shape:
            raise StatsError("the significance mask needs one entry per data set")
        better, worse = better & sig, worse & sig
    wins, losses = int(better.sum()), int(worse.sum())
    return WinTieLoss(wins=wins, ties=d.size - wins - losses, losses=losses)
