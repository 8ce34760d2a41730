"""Tests that compare two classifiers over the folds of one data set.

Each function takes the per-fold scores of classifier ``a`` and classifier
``b`` (same order, one value per (repetition, fold) for the paired tests) and
returns a :class:`TTestResult`. The sign of ``statistic`` and
``mean_difference`` is that of ``mean(a - b)``.

When the differences have zero variance the t statistic is undefined; the
tests then follow Weka's ``PairedStats``: p = 1 if every difference is zero
(``statistic`` NaN), p = 0 otherwise (``statistic`` +-inf), so a constant
non-zero advantage still counts as significant.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from ..errors import StatsError

__all__ = ["TTestResult", "paired_ttest", "corrected_ttest", "unpaired_ttest"]


@dataclass(frozen=True)
class TTestResult:
    """A two-sided t-test: ``statistic`` t, ``pvalue``, degrees of freedom ``df``,
    and ``mean_difference`` (mean of ``a`` minus mean of ``b``)."""

    statistic: float
    pvalue: float
    df: float
    mean_difference: float


def _vectors(a, b, *, paired: bool):
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    if paired and a.shape != b.shape:
        raise StatsError(f"a paired test needs as many scores for each classifier; got {a.size} and {b.size}")
    if min(a.size, b.size) < 2:
        raise StatsError("a t-test needs at least 2 scores per classifier")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise StatsError("scores contain NaN or infinite values")
    return a, b


def _t_from(mean: float, variance_of_mean: float, df: float) -> TTestResult:
    if variance_of_mean <= 0.0:
        if mean == 0.0:
            return TTestResult(float("nan"), 1.0, df, 0.0)
        return TTestResult(float(np.copysign(np.inf, mean)), 0.0, df, float(mean))
    t = mean / np.sqrt(variance_of_mean)
    return TTestResult(float(t), float(2.0 * _st.t.sf(abs(t), df)), df, float(mean))


def paired_ttest(a, b) -> TTestResult:
    """Student's paired t-test on the differences d = a - b.

    t = mean(d) / sqrt(s^2 / k) with s^2 the sample variance (k - 1 divisor)
    of the k differences, and k - 1 degrees of freedom. Over the folds of a
    cross-validation it is far too liberal (training sets overlap, so the
    differences are not independent); prefer :func:`corrected_ttest`.
    """
    a, b = _vectors(a, b, paired=True)
    d = a - b
    k = d.size
    return _t_from(d.mean(), d.var(ddof=1) / k, k - 1)


def corrected_ttest(a, b, test_train_ratio: float) -> TTestResult:
    """Corrected resampled t-test of Nadeau and Bengio (2003).

    t = mean(d) / sqrt((1/k + n_test/n_train) * s^2), k - 1 degrees of freedom,
    where d = a - b over the k = repetitions x folds paired results and s^2 is
    their sample variance. The term n_test/n_train (``test_train_ratio``, 1/9
    for 10-fold CV) accounts for the correlation between overlapping training
    sets. Weka's ``PairedCorrectedTTester`` (Bouckaert and Frank 2004, the
    "corrected repeated k-fold cv test") computes the ratio as the total number
    of test instances over the total number of training instances across all
    runs and folds; pass that ratio here.

    References: C. Nadeau, Y. Bengio (2003), Inference for the Generalization
    Error, Machine Learning 52:239-281.
    """
    if not np.isfinite(test_train_ratio) or test_train_ratio < 0:
        raise StatsError(f"test_train_ratio must be a non-negative number, got {test_train_ratio}")
    a, b = _vectors(a, b, paired=True)
    d = a - b
    k = d.size
    return _t_from(d.mean(), (1.0 / k + test_train_ratio) * d.var(ddof=1), k - 1)


def unpaired_ttest(a, b, *, equal_var: bool = True) -> TTestResult:
    """Two-sample two-tailed t-test, as Zhang (2005) uses over 20 x 5-fold CV.

    With ``equal_var`` (Student): t = (mean(a) - mean(b)) / sqrt(s_p^2 (1/n_a + 1/n_b)),
    s_p^2 the pooled variance, n_a + n_b - 2 degrees of freedom. Without it
    (Welch): the variances are not pooled and the degrees of freedom follow
    Welch-Satterthwaite. It needs no pairing, so it also compares runs made
    with different folds or seeds.
    """
    a, b = _vectors(a, b, paired=False)
    na, nb = a.size, b.size
    va, vb = a.var(ddof=1), b.var(ddof=1)
    mean = a.mean() - b.mean()
    if equal_var:
        df = na + nb - 2
        pooled = ((na - 1) * va + (nb - 1) * vb) / df
        return _t_from(mean, pooled * (1.0 / na + 1.0 / nb), df)
    qa, qb = va / na, vb / nb
    se2 = qa + qb
    df = se2 ** 2 / (qa ** 2 / (na - 1) + qb ** 2 / (nb - 1)) if se2 > 0 else float(na + nb - 2)
    return _t_from(mean, se2, float(df))
