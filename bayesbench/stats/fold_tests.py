"""Tests that compare two classifiers over the folds of one data set.

Each function takes the per-fold scores of classifier ``a`` and classifier
``b`` (same order, one value per (repetition, fold) for the paired tests) and
returns a :class:`TTestResult`. The sign of ``statistic`` and
``mean_difference`` is that of ``mean(a - b)``. :func:`fold_tests` runs one of
the tests of :data:`FOLD_TESTS` on many pairs of classifiers at once, one pair
per row, with the same formulas. :data:`FOLD_TESTS` is the one table of these tests:
configs, the command line, the comparison and the docs read their names, titles and
needs from it, so adding a test is one :class:`FoldTest` entry.

When the differences have zero variance the t statistic is undefined; the
tests then follow Weka's ``PairedStats``: p = 1 if every difference is zero
(``statistic`` NaN), p = 0 otherwise (``statistic`` +-inf), so a constant
non-zero advantage still counts as significant.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable

import numpy as np
from scipy import special

from ..errors import StatsError
from .multiple import wilcoxon_rows

__all__ = ["FOLD_TESTS", "DEFAULT_FOLD_TEST", "FoldTest", "TTestResult", "paired_ttest",
           "corrected_ttest", "unpaired_ttest", "FoldTestsResult", "fold_tests"]


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
    return a[None, :], b[None, :]


def _t_from(mean, variance_of_mean, df):
    """t and its two-sided p for each entry, with Weka's rule where the variance is zero."""
    degenerate = ~(variance_of_mean > 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(np.where(degenerate, 1.0, variance_of_mean))
        # Student's t survival function as scipy.stats.t.sf computes it (stdtr(df, -t)),
        # without importing scipy.stats (0.5 s) into every run that compares two learners.
        p = 2.0 * special.stdtr(df, -np.abs(t))
    t = np.where(degenerate, np.where(mean == 0.0, np.nan, np.copysign(np.inf, mean)), t)
    p = np.where(degenerate, np.where(mean == 0.0, 1.0, 0.0), p)
    return t, p


def _moments(x, valid):
    """Count, mean and sample variance (k - 1 divisor) of each row over its ``valid`` entries."""
    k = valid.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(valid, x, 0.0).sum(axis=1) / k
        var = (np.where(valid, x - mean[:, None], 0.0) ** 2).sum(axis=1) / (k - 1)
    return k, mean, var


def _paired_rows(a, b, ratio=None):
    """Paired (``ratio`` None) or corrected t-test of each row over the folds where both
    have a score: ``(t, p, df, mean difference, number of pairs)``."""
    k, mean, var = _moments(a - b, np.isfinite(a) & np.isfinite(b))
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = 1.0 / k if ratio is None else 1.0 / k + ratio
    t, p = _t_from(mean, factor * var, k - 1)
    return t, p, k - 1, mean, k


def _unpaired_rows(a, b, equal_var):
    """Two-sample t-test of each row over the scores each classifier has."""
    na, ma, va = _moments(a, np.isfinite(a))
    nb, mb, vb = _moments(b, np.isfinite(b))
    mean = ma - mb
    with np.errstate(divide="ignore", invalid="ignore"):
        if equal_var:
            df = na + nb - 2
            se2 = ((na - 1) * va + (nb - 1) * vb) / df * (1.0 / na + 1.0 / nb)
        else:
            qa, qb = va / na, vb / nb
            se2 = qa + qb
            df = np.where(se2 > 0, se2 ** 2 / (qa ** 2 / (na - 1) + qb ** 2 / (nb - 1)), na + nb - 2.0)
    t, p = _t_from(mean, se2, df)
    return t, p, df, mean, np.minimum(na, nb)


def _one(rows, df_type=int) -> TTestResult:
    t, p, df, mean, _ = rows
    return TTestResult(float(t[0]), float(p[0]), df_type(df[0]), float(mean[0]))


def paired_ttest(a, b) -> TTestResult:
    """Student's paired t-test on the differences d = a - b.

    t = mean(d) / sqrt(s^2 / k) with s^2 the sample variance (k - 1 divisor)
    of the k differences, and k - 1 degrees of freedom. Over the folds of a
    cross-validation it is far too liberal (training sets overlap, so the
    differences are not independent); prefer :func:`corrected_ttest`.
    """
    return _one(_paired_rows(*_vectors(a, b, paired=True)))


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
    return _one(_paired_rows(*_vectors(a, b, paired=True), ratio=test_train_ratio))


def unpaired_ttest(a, b, *, equal_var: bool = True) -> TTestResult:
    """Two-sample two-tailed t-test, as Zhang (2005) uses over 20 x 5-fold CV.

    With ``equal_var`` (Student): t = (mean(a) - mean(b)) / sqrt(s_p^2 (1/n_a + 1/n_b)),
    s_p^2 the pooled variance, n_a + n_b - 2 degrees of freedom. Without it
    (Welch): the variances are not pooled and the degrees of freedom follow
    Welch-Satterthwaite. It needs no pairing, so it also compares runs made
    with different folds or seeds.
    """
    return _one(_unpaired_rows(*_vectors(a, b, paired=False), equal_var),
                int if equal_var else float)


@dataclass(frozen=True)
class FoldTestsResult:
    """One test per row: ``statistic`` (t, or Wilcoxon's T), the two-sided ``pvalue``,
    and ``tested``, False (statistic and p NaN) where a row has too few scores:
    fewer than 2 per classifier for the t-tests, no pair for the Wilcoxon test."""

    statistic: np.ndarray
    pvalue: np.ndarray
    tested: np.ndarray


def fold_tests(test: str, a, b, *, n_train=None, n_test=None) -> FoldTestsResult:
    """Run ``test`` (a key of :data:`FOLD_TESTS`) on ``a[i]`` against ``b[i]`` for every row i.

    ``a`` and ``b`` are m x n arrays of fold scores, NaN where a classifier has
    no score on a fold; the paired tests pair the entries of a column and use
    the columns where both have a score. The corrected t-test takes its
    n_test/n_train ratio over those columns from ``n_train`` and ``n_test``
    (m x n, the sizes of ``b``'s folds), as :func:`corrected_ttest` explains;
    a row whose training sizes do not sum to a positive number is not tested.
    The Wilcoxon test is :func:`~bayesbench.stats.multiple.wilcoxon_rows`.
    """
    if test not in FOLD_TESTS:
        raise StatsError(f"unknown test '{test}'; expected one of {', '.join(FOLD_TESTS)}")
    a, b = np.atleast_2d(np.asarray(a, dtype=float)), np.atleast_2d(np.asarray(b, dtype=float))
    if a.shape != b.shape:
        raise StatsError(f"fold scores of shapes {a.shape} and {b.shape}; expected equal shapes")
    return FOLD_TESTS[test].rows(a, b, n_train, n_test)


def _ratios(a, b, n_train, n_test):
    """The corrected t-test's n_test/n_train of each row over its paired folds, and where it exists."""
    if n_train is None or n_test is None:
        raise StatsError("the corrected resampled t-test needs the training and test set size of each fold")
    used = np.isfinite(a) & np.isfinite(b)
    train = np.where(used, np.asarray(n_train, dtype=float), 0.0).sum(axis=1)
    test = np.where(used, np.asarray(n_test, dtype=float), 0.0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = test / train
    ok = (train > 0) & np.isfinite(ratio) & (ratio >= 0)
    return np.where(ok, ratio, 0.0), ok


def _wilcoxon_rows(a, b) -> FoldTestsResult:
    res = wilcoxon_rows(a, b)
    tested = (np.isfinite(a) & np.isfinite(b)).any(axis=1)
    return FoldTestsResult(np.where(tested, res.statistic, np.nan), np.where(tested, res.pvalue, np.nan),
                           tested)


def _corrected_rows(a, b, n_train, n_test) -> FoldTestsResult:
    ratio, sized = _ratios(a, b, n_train, n_test)
    t, p, _, _, n = _paired_rows(a, b, ratio)
    return _tested(t, p, sized & (n >= 2))


def _paired_t_rows(a, b, n_train, n_test) -> FoldTestsResult:
    t, p, _, _, n = _paired_rows(a, b)
    return _tested(t, p, n >= 2)


def _unpaired_t_rows(a, b, n_train, n_test) -> FoldTestsResult:
    t, p, _, _, n = _unpaired_rows(a, b, True)
    return _tested(t, p, n >= 2)


def _wilcoxon_test_rows(a, b, n_train, n_test) -> FoldTestsResult:
    return _wilcoxon_rows(a, b)


def _tested(t, p, tested) -> FoldTestsResult:
    return FoldTestsResult(np.where(tested, t, np.nan), np.where(tested, p, np.nan), tested)


@dataclass(frozen=True)
class FoldTest:
    """A test over the folds of one data set: the ``name`` configs and commands use, the
    ``title`` tables print, its ``rows`` function (``(a, b, n_train, n_test)`` ->
    :class:`FoldTestsResult`, one test per row), whether it pairs the scores of each fold
    (``paired``: both classifiers must have seen the same folds) and whether it needs each
    fold's training and test set sizes (``needs_sizes``)."""

    name: str
    title: str
    rows: Callable
    paired: bool
    needs_sizes: bool = False


#: Every test over folds, by name, in the order documentation and choices list them.
FOLD_TESTS = MappingProxyType({test.name: test for test in (
    FoldTest("corrected-t", "corrected resampled t-test", _corrected_rows, paired=True,
             needs_sizes=True),
    FoldTest("paired-t", "paired t-test", _paired_t_rows, paired=True),
    FoldTest("unpaired-t", "unpaired t-test", _unpaired_t_rows, paired=False),
    FoldTest("wilcoxon", "Wilcoxon signed-rank test", _wilcoxon_test_rows, paired=True),
)})
#: The test a comparison uses unless told otherwise (Nadeau and Bengio's: the others are far
#: too liberal over overlapping training sets). ``spec.CompareSpec`` repeats it, since spec
#: imports nothing; a test checks that the two agree.
DEFAULT_FOLD_TEST = "corrected-t"
