"""How large a difference between two classifiers is, beside whether it is significant.

A significance mark alone hides whether a difference matters: with enough
folds or data sets a difference of 0.0002 is "significant". These effect sizes
go next to it:

* :func:`mean_difference_ci`: the mean score difference with a t confidence
  interval, over the folds of one data set (with Nadeau and Bengio's variance
  correction for cross-validation) or over data sets;
* :func:`cohens_dz`: the standardized mean difference of paired scores;
* :func:`rank_biserial`: the matched-pairs rank-biserial correlation, the
  effect size that goes with the Wilcoxon signed-rank test over data sets.

Every one is signed as ``a - b``: positive when ``a`` scores higher. Whether
higher is better depends on the metric, which the caller knows.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from ..errors import StatsError
from .multiple import wilcoxon

__all__ = ["MeanDifferenceResult", "mean_difference_ci", "cohens_dz", "rank_biserial"]


def paired_scores(a, b, what: str, *, min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Two paired score vectors as float arrays, checked: 1-d, of equal length, at least
    ``min_size`` pairs, finite. ``what`` names the statistic in the error."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise StatsError(f"{what} needs two 1-d score vectors of equal length; "
                         f"got shapes {a.shape} and {b.shape}")
    if a.size < min_size:
        raise StatsError(f"{what} needs at least {min_size} pairs of scores, got {a.size}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise StatsError("scores contain NaN or infinite values")
    return a, b


def _paired(a, b, what: str, *, min_size: int) -> np.ndarray:
    """The differences ``a - b`` of two paired score vectors."""
    a, b = paired_scores(a, b, what, min_size=min_size)
    return a - b


@dataclass(frozen=True)
class MeanDifferenceResult:
    """The mean difference ``estimate`` = mean(a - b), its ``standard_error``,
    and the two-sided t interval [``low``, ``high``] at ``confidence_level``
    with ``df`` degrees of freedom."""

    estimate: float
    low: float
    high: float
    standard_error: float
    df: int
    confidence_level: float


def mean_difference_ci(a, b, *, test_train_ratio: float | None = None,
                       confidence_level: float = 0.95) -> MeanDifferenceResult:
    """Mean paired difference with a Student t confidence interval.

    With d_i = a_i - b_i (i = 1..k), m their mean and s^2 their sample variance
    (divisor k - 1):

        m -/+ t_{k-1, (1 + confidence_level)/2} * SE,
        SE^2 = s^2 / k                          (test_train_ratio None)
        SE^2 = (1/k + n_test/n_train) s^2       (test_train_ratio = n_test/n_train)

    The first is the interval of the paired t-test, right for one score per
    data set. Over the folds of a (repeated) cross-validation the differences
    are correlated through overlapping training sets and s^2 / k is far too
    small; pass the ratio of test to training set sizes (1/9 for 10-fold CV)
    to get Nadeau and Bengio's corrected variance, the interval that
    :func:`~bayesbench.stats.corrected_ttest` with the same ratio inverts
    (it excludes 0 exactly when that test's p-value is below
    1 - confidence_level). If every difference is the same the interval is
    that single value.

    References
    ----------
    C. Nadeau, Y. Bengio (2003), Inference for the Generalization Error,
    Machine Learning 52:239-281.

    Examples
    --------
    >>> a = [0.80, 0.82, 0.79, 0.85, 0.81, 0.83, 0.80, 0.84, 0.82, 0.81]
    >>> b = [0.78, 0.80, 0.80, 0.82, 0.79, 0.80, 0.79, 0.81, 0.80, 0.80]
    >>> res = mean_difference_ci(a, b, test_train_ratio=1 / 9)
    >>> print(f"{res.estimate:.3f} [{res.low:.3f}, {res.high:.3f}]")
    0.018 [0.005, 0.031]
    >>> res = mean_difference_ci(a, b)   # as if the folds were independent
    >>> print(f"{res.estimate:.3f} [{res.low:.3f}, {res.high:.3f}]")
    0.018 [0.009, 0.027]
    """
    if isinstance(confidence_level, bool) or not 0.0 < confidence_level < 1.0:
        raise StatsError(f"confidence_level must lie strictly between 0 and 1, got {confidence_level!r}")
    if test_train_ratio is not None and (isinstance(test_train_ratio, bool)
                                         or not np.isfinite(test_train_ratio) or test_train_ratio < 0):
        raise StatsError(f"test_train_ratio must be a number >= 0, got {test_train_ratio!r}")
    d = _paired(a, b, "a confidence interval of the mean difference", min_size=2)
    k = d.size
    factor = 1.0 / k + (test_train_ratio or 0.0)
    se = float(np.sqrt(factor * d.var(ddof=1)))
    m = float(d.mean())
    half = float(_t_quantile(0.5 + confidence_level / 2.0, k - 1)) * se
    return MeanDifferenceResult(estimate=m, low=m - half, high=m + half, standard_error=se,
                                df=k - 1, confidence_level=float(confidence_level))


def _t_quantile(q, df):
    """Student's t quantile as scipy.stats.t.ppf computes it (``stdtrit(df, q)``), NaN for
    ``df < 1``; scipy.special, already loaded, spares a run the 0.5 s of scipy.stats."""
    df = np.asarray(df, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(df >= 1, special.stdtrit(np.maximum(df, 1.0), q), np.nan)


def cohens_dz(a, b) -> float:
    """Cohen's d for paired scores: d_z = mean(d) / sd(d), d = a - b.

    sd is the sample standard deviation (divisor n - 1), so d_z = t / sqrt(n)
    for the paired t statistic t. Cohen's rough marks are 0.2 small, 0.5
    medium, 0.8 large. If every difference is the same, d_z is 0 when they are
    all zero and +-inf otherwise (a constant advantage).

    Over the folds of a cross-validation sd(d) is the spread of fold-to-fold
    differences, not of the performance on new data, so d_z is best computed
    over data sets.

    References
    ----------
    J. Cohen (1988), Statistical Power Analysis for the Behavioral Sciences,
    2nd ed., Sec. 2.3.5. D. Lakens (2013), Calculating and reporting effect
    sizes to facilitate cumulative science, Frontiers in Psychology 4:863.

    Examples
    --------
    >>> round(cohens_dz([0.82, 0.85, 0.90, 0.75], [0.80, 0.86, 0.85, 0.70]), 4)
    0.9574
    """
    d = _paired(a, b, "Cohen's d", min_size=2)
    m, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        return 0.0 if m == 0.0 else float(np.copysign(np.inf, m))
    return m / sd


def rank_biserial(a, b, *, zero_method: str = "demsar") -> float:
    """Matched-pairs rank-biserial correlation of ``a`` against ``b``.

    The |a_i - b_i| are ranked as in the Wilcoxon signed-rank test
    (:func:`~bayesbench.stats.wilcoxon`, with the same ``zero_method``) and

        r = (R+ - R-) / (R+ + R-)

    is the share of the rank sum favouring ``a`` minus the share favouring
    ``b`` (Kerby's simple difference formula): +1 when ``a`` is higher on every
    pair, -1 when ``b`` is, 0 for a balance. With no non-zero difference left
    to rank, r = 0.

    References
    ----------
    D. S. Kerby (2014), The simple difference formula: an approach to teaching
    nonparametric correlation, Comprehensive Psychology 3:11.IT.3.1.

    Examples
    --------
    Demšar (2006), Table 2: R+ = 93 for C4.5+m, R- = 12 for C4.5.

    >>> c45 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775,
    ...        1.000, 0.940, 0.619, 0.972, 0.957]
    >>> c45m = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838,
    ...         1.000, 0.962, 0.666, 0.981, 0.978]
    >>> round(rank_biserial(c45m, c45), 4)   # (93 - 12) / 105
    0.7714
    """
    _paired(a, b, "the rank-biserial correlation", min_size=1)
    res = wilcoxon(a, b, zero_method=zero_method, method="approx")
    total = res.r_plus + res.r_minus
    return 0.0 if total == 0.0 else (res.r_plus - res.r_minus) / total


@dataclass(frozen=True)
class MeanDifferenceRows:
    """:func:`mean_difference_rows`: one entry per row, NaN where a row has < 2 pairs."""

    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    standard_error: np.ndarray
    df: np.ndarray
    confidence_level: float


def mean_difference_rows(a, b, *, test_train_ratio=None,
                         confidence_level: float = 0.95) -> MeanDifferenceRows:
    """:func:`mean_difference_ci` of ``a[i] - b[i]`` for every row i of two m x n arrays.

    NaN marks a missing score; row i pairs the columns where both have one.
    ``test_train_ratio`` is None, one number, or one per row (NaN: not computed).

    Examples
    --------
    >>> res = mean_difference_rows([[0.80, 0.82, 0.79, 0.85]], [[0.78, 0.80, 0.80, 0.82]],
    ...                            test_train_ratio=1 / 3)
    >>> print(f"{res.estimate[0]:.4f} [{res.low[0]:.4f}, {res.high[0]:.4f}]")
    0.0150 [-0.0271, 0.0571]
    """
    if isinstance(confidence_level, bool) or not 0.0 < confidence_level < 1.0:
        raise StatsError(f"confidence_level must lie strictly between 0 and 1, got {confidence_level!r}")
    a, b = np.atleast_2d(np.asarray(a, dtype=float)), np.atleast_2d(np.asarray(b, dtype=float))
    if a.shape != b.shape:
        raise StatsError(f"scores of shapes {a.shape} and {b.shape}; expected equal shapes")
    d = a - b
    used = np.isfinite(d)
    k = used.sum(axis=1)
    ratio = np.broadcast_to(np.asarray(0.0 if test_train_ratio is None else test_train_ratio,
                                       dtype=float), k.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(used, d, 0.0).sum(axis=1) / k
        var = np.where(used, (d - m[:, None]) ** 2, 0.0).sum(axis=1) / (k - 1)
        se = np.sqrt((1.0 / k + ratio) * var)
        half = _t_quantile(0.5 + confidence_level / 2.0, k - 1) * se
    bad = (k < 2) | ~np.isfinite(ratio) | (ratio < 0)

    def out(x):
        return np.where(bad, np.nan, x)

    return MeanDifferenceRows(estimate=out(m), low=out(m - half), high=out(m + half),
                              standard_error=out(se), df=out(k - 1.0),
                              confidence_level=float(confidence_level))


__all__ += ["MeanDifferenceRows", "mean_difference_rows"]
