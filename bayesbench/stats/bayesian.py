"""Bayesian comparisons of two classifiers with a region of practical equivalence.

A p-value says how surprising the data would be if two classifiers were
exactly equal; it cannot say that they are *practically* equal, and with
enough folds any difference, however small, becomes "significant". The two
tests here instead give the posterior probability of three regions of the
mean score difference, given a half-width ``rope`` of practical equivalence
(0.01 = one point of accuracy):

* ``p_left``: ``a`` is practically better than ``b`` (by more than ``rope``);
* ``p_rope``: the two are practically equivalent;
* ``p_right``: ``b`` is practically better than ``a``.

Left and right name the places of ``a`` and ``b`` in the argument list, as
``baycomp`` names them. Higher scores are better unless ``lower_is_better``.

:func:`bayesian_correlated_ttest` works on the fold scores of one data set
(Corani and Benavoli 2015), :func:`bayesian_signed_rank` on one score per data
set (Benavoli et al. 2014, 2017). Both give the same numbers as ``baycomp``
(``two_on_single`` and ``two_on_multiple``) on the same inputs; the signed-rank
test draws its Monte Carlo sample with the same seeded generator, so it gives
baycomp's probabilities for the same ``seed`` and not only approximately.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from ..errors import StatsError
from .effect_size import paired_scores

__all__ = ["CorrelatedTTestResult", "bayesian_correlated_ttest",
           "SignedRankResult", "bayesian_signed_rank"]


def _check_rope(rope: float) -> float:
    if isinstance(rope, bool) or not np.isfinite(rope) or rope < 0:
        raise StatsError(f"rope must be a number >= 0, got {rope!r}")
    return float(rope)


def _differences(a, b, what: str, *, min_size: int, lower_is_better: bool) -> np.ndarray:
    """``a - b`` oriented so that a positive difference means ``a`` is better."""
    a, b = paired_scores(a, b, what, min_size=min_size)
    # b - a then negated, not a - b: the two are equal bit for bit, and b - a is the
    # difference baycomp forms, which keeps ties at the rope's edges identical.
    d = b - a
    return d if lower_is_better else -d


@dataclass(frozen=True)
class CorrelatedTTestResult:
    """Bayesian correlated t-test on one data set.

    ``p_left``, ``p_rope``, ``p_right``: posterior probabilities that ``a`` is
    practically better, that the two are practically equivalent, that ``b`` is
    practically better. The posterior of the mean difference ``a - b`` (in score
    units, whatever the direction of the metric) is Student's t with location
    ``mean``, scale ``scale`` and ``df`` degrees of freedom; ``rope`` is the
    half-width used.
    """

    p_left: float
    p_rope: float
    p_right: float
    mean: float
    scale: float
    df: int
    rope: float


def bayesian_correlated_ttest(a, b, *, rho: float, rope: float = 0.01,
                              lower_is_better: bool = False) -> CorrelatedTTestResult:
    """Bayesian correlated t-test of Corani and Benavoli (2015) over the folds of one data set.

    ``a`` and ``b`` are the paired scores of the two classifiers, one per
    (repetition, fold). With d_i = a_i - b_i (i = 1..n), m their mean and s^2
    their sample variance (divisor n - 1), the posterior of the mean difference
    mu under the non-informative prior, with the correlation rho between
    differences that training sets overlapping in cross-validation induce, is

        mu | d ~ Student t(df = n - 1, location = m,
                           scale^2 = (1/n + rho / (1 - rho)) s^2)

    and, for the half-width r = ``rope``,

        p_left = P(mu > r),  p_rope = P(-r <= mu <= r),  p_right = P(mu < -r)

    (with ``lower_is_better`` the sides swap: left is mu < -r). Nadeau and
    Bengio's heuristic sets rho = n_test / n_total, i.e. 1/k for k-fold
    cross-validation, repeated or not; rho / (1 - rho) is then the
    ``test_train_ratio`` of :func:`~bayesbench.stats.corrected_ttest`, whose
    one-sided p-value equals ``p_right`` at ``rope = 0`` when m > 0.

    If every difference is the same (s = 0) the posterior is a point mass at m:
    the region holding m gets probability 1 (with ``rope = 0`` and m = 0, left
    and right get 1/2 each), as in baycomp.

    Parameters
    ----------
    a, b : array_like, 1-d
        Paired fold scores; at least 2 pairs.
    rho : float
        Correlation of the differences, in [0, 1): n_test / n_total.
    rope : float, default 0.01
        Half-width of the region of practical equivalence, in score units.
    lower_is_better : bool, default False
        True for losses such as error or log loss.

    References
    ----------
    G. Corani, A. Benavoli (2015), A Bayesian approach for comparing
    cross-validated algorithms on multiple data sets, Machine Learning
    100(2):285-304.
    C. Nadeau, Y. Bengio (2003), Inference for the Generalization Error,
    Machine Learning 52:239-281.

    Examples
    --------
    >>> a = [0.80, 0.82, 0.79, 0.85, 0.81, 0.83, 0.80, 0.84, 0.82, 0.81]
    >>> b = [0.78, 0.80, 0.80, 0.82, 0.79, 0.80, 0.79, 0.81, 0.80, 0.80]
    >>> res = bayesian_correlated_ttest(a, b, rho=1 / 10, rope=0.01)
    >>> round(res.mean, 3), res.df
    (0.018, 9)
    >>> print(f"{res.p_left:.3f} {res.p_rope:.3f} {res.p_right:.3f}")
    0.905 0.095 0.000
    """
    if isinstance(rho, bool) or not np.isfinite(rho) or not 0.0 <= rho < 1.0:
        raise StatsError(f"rho must lie in [0, 1), got {rho!r}")
    r = _check_rope(rope)
    d = _differences(a, b, "the Bayesian correlated t-test", min_size=2,
                     lower_is_better=lower_is_better)
    n = d.size
    m = float(d.mean())
    var = float(d.var(ddof=1)) * (1.0 / n + rho / (1.0 - rho))
    from scipy import stats as _st  # lazy: scipy.stats, 0.5 s; config loads stats
    if var == 0.0:
        if r == 0.0 and m == 0.0:
            left = right = 0.5
        else:
            left, right = float(m > r), float(m < -r)
    else:
        posterior = _st.t(n - 1, loc=m, scale=np.sqrt(var))
        left, right = float(posterior.sf(r)), float(posterior.cdf(-r))
    p_rope = 0.0 if r == 0.0 else max(1.0 - left - right, 0.0)
    sign = -1.0 if lower_is_better else 1.0  # report the location of a - b as given
    return CorrelatedTTestResult(p_left=left, p_rope=p_rope, p_right=right, mean=sign * m,
                                 scale=float(np.sqrt(var)), df=n - 1, rope=r)


@dataclass(frozen=True)
class SignedRankResult:
    """Bayesian signed-rank test over data sets.

    ``p_left``, ``p_rope``, ``p_right``: posterior probabilities that, of the
    three regions, the one where ``a`` is practically better, the rope, or the
    one where ``b`` is practically better holds the most probability mass.
    ``sample`` holds the Monte Carlo draws of the three masses (theta_left,
    theta_rope, theta_right), one row per draw, for plotting on the simplex;
    ``rope``, ``prior_strength`` and ``seed`` are the settings used.
    """

    p_left: float
    p_rope: float
    p_right: float
    sample: np.ndarray
    rope: float
    prior_strength: float
    seed: int


# Draws are processed in blocks so that the n_samples x (N + 1) weight matrix never
# needs more than this many doubles (32 MB) at once, however many data sets.
_BLOCK_ELEMENTS = 1 << 22
# Masses are sums of at most (N + 1)^2 products of weights, so rounding moves them by far
# less than this; two regions closer than this hold the same mass.
_TIE_TOLERANCE = 1e-10


def bayesian_signed_rank(a, b, *, rope: float = 0.01, prior_strength: float = 0.5,
                         n_samples: int = 50000, seed: int = 0,
                         lower_is_better: bool = False) -> SignedRankResult:
    """Bayesian signed-rank test of Benavoli et al. over the data sets.

    ``a`` and ``b`` hold one score per data set (e.g. the mean over folds). The
    differences z_1..z_N (z_i = a_i - b_i; b_i - a_i with ``lower_is_better``)
    get a Dirichlet process prior of strength s = ``prior_strength`` centred on
    a pseudo-observation z_0 = 0. Its posterior weights are

        (w_0, w_1, ..., w_N) ~ Dirichlet(s, 1, ..., 1)

    and each draw gives the masses of the three regions of the Walsh averages
    (z_i + z_j)/2 relative to the rope half-width r:

        theta_left  = sum_{i,j=0..N} w_i w_j H(z_i + z_j - 2r)
        theta_right = sum_{i,j=0..N} w_i w_j H(-z_i - z_j - 2r)
        theta_rope  = 1 - theta_left - theta_right

    with H(x) = 1 for x > 0, 1/2 at x = 0, 0 for x < 0. ``p_left`` is the
    share of the ``n_samples`` draws in which theta_left is the largest of the
    three, and so on. With ``rope = 0`` theta_left is 1 - theta_right and
    ``p_rope`` is 0.

    A draw in which two regions hold the same largest mass (up to rounding)
    counts half for each. This happens only in degenerate cases, chiefly
    ``rope = 0`` with every difference zero, where it gives p_left = p_right =
    1/2; baycomp instead credits such a draw to whichever mass rounding makes
    larger, so there the two disagree. Everywhere else they agree exactly.

    The draws come from ``numpy.random.RandomState(seed).dirichlet``, the
    legacy generator that baycomp's ``SignedRankTest`` seeds with its
    ``random_state``, so the same ``seed`` gives baycomp's probabilities.

    Parameters
    ----------
    a, b : array_like, 1-d
        One score per data set for each classifier; at least 1 pair.
    rope : float, default 0.01
        Half-width of the region of practical equivalence, in score units.
    prior_strength : float, default 0.5
        Weight s > 0 of the pseudo-observation at 0.
    n_samples : int, default 50000
        Number of Monte Carlo draws.
    seed : int, default 0
        Seed of the generator.
    lower_is_better : bool, default False
        True for losses such as error or log loss.

    References
    ----------
    A. Benavoli, G. Corani, F. Mangili, M. Zaffalon, F. Ruggeri (2014), A
    Bayesian Wilcoxon signed-rank test based on the Dirichlet process, ICML,
    PMLR 32(2):1026-1034.
    A. Benavoli, G. Corani, J. Demšar, M. Zaffalon (2017), Time for a change:
    a tutorial for comparing multiple classifiers through Bayesian analysis,
    Journal of Machine Learning Research 18(77):1-36.

    Examples
    --------
    C4.5 with tuned m against plain C4.5 on the AUCs of Demšar (2006), Table 2:

    >>> c45 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775,
    ...        1.000, 0.940, 0.619, 0.972, 0.957]
    >>> c45m = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838,
    ...         1.000, 0.962, 0.666, 0.981, 0.978]
    >>> res = bayesian_signed_rank(c45m, c45, rope=0.01, seed=1)
    >>> print(f"{res.p_left:.3f} {res.p_rope:.3f} {res.p_right:.3f}")
    0.669 0.331 0.000
    >>> res.sample.shape
    (50000, 3)
    """
    r = _check_rope(rope)
    if isinstance(prior_strength, bool) or not np.isfinite(prior_strength) or prior_strength <= 0:
        raise StatsError(f"prior_strength must be a number > 0, got {prior_strength!r}")
    if isinstance(n_samples, bool) or int(n_samples) != n_samples or n_samples < 1:
        raise StatsError(f"n_samples must be a positive integer, got {n_samples!r}")
    if isinstance(seed, bool) or int(seed) != seed or seed < 0:
        raise StatsError(f"seed must be an integer >= 0, got {seed!r}")
    d = _differences(a, b, "the Bayesian signed-rank test", min_size=1,
                     lower_is_better=lower_is_better)
    z = np.concatenate(([0.0], d))
    walsh = z[:, None] + z[None, :]  # twice the Walsh averages
    above = (walsh > 2 * r) + 0.5 * (walsh == 2 * r)
    below = (-walsh > 2 * r) + 0.5 * (-walsh == 2 * r)
    alpha = np.ones(z.size)
    alpha[0] = prior_strength

    n_samples = int(n_samples)
    rng = np.random.RandomState(int(seed))
    theta = np.empty((n_samples, 3))
    block = max(1, _BLOCK_ELEMENTS // z.size)
    for start in range(0, n_samples, block):
        # Consecutive calls continue one stream, so blocks draw what one call would.
        w = rng.dirichlet(alpha, min(block, n_samples - start))
        rows = slice(start, start + w.shape[0])
        theta[rows, 2] = np.einsum("si,ij,sj->s", w, below, w, optimize=True)
        if r == 0.0:
            theta[rows, 0] = 1.0 - theta[rows, 2]
            theta[rows, 1] = 0.0
        else:
            theta[rows, 0] = np.einsum("si,ij,sj->s", w, above, w, optimize=True)
            theta[rows, 1] = -theta[rows, 0] - theta[rows, 2] + 1.0  # baycomp's order of operations
    # A draw whose largest masses are equal up to rounding counts for each of them in
    # equal parts; baycomp gives it to whichever rounding happens to favour.
    top = theta >= theta.max(axis=1, keepdims=True) - _TIE_TOLERANCE
    p = (top / top.sum(axis=1, keepdims=True)).mean(axis=0)
    return SignedRankResult(p_left=float(p[0]), p_rope=float(p[1]), p_right=float(p[2]),
                            sample=theta, rope=r, prior_strength=float(prior_strength),
                            seed=int(seed))


@dataclass(frozen=True)
class CorrelatedTTestRows:
    """:func:`correlated_ttest_rows`: one entry per row, NaN where a row has < 2 pairs."""

    p_left: np.ndarray
    p_rope: np.ndarray
    p_right: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    df: np.ndarray
    rope: float


def correlated_ttest_rows(a, b, *, rho, rope: float = 0.01,
                          lower_is_better: bool = False) -> CorrelatedTTestRows:
    """:func:`bayesian_correlated_ttest` of ``a[i]`` against ``b[i]`` for every row i at once.

    ``a`` and ``b`` are m x n arrays of fold scores, NaN where a classifier has no
    score; row i pairs the columns where both have one. ``rho`` is one number or one per
    row (n_test / n_total of that row's folds). Same formulas and degenerate cases as the
    one-pair function, so that comparing many classifiers on many data sets costs array
    operations; rows with fewer than 2 pairs, or a ``rho`` outside [0, 1), give NaN.

    Examples
    --------
    >>> a = [[0.80, 0.82, 0.79, 0.85], [0.7, 0.7, 0.7, float("nan")]]
    >>> b = [[0.78, 0.80, 0.80, 0.82], [0.6, 0.6, 0.6, 0.6]]
    >>> res = correlated_ttest_rows(a, b, rho=1 / 4, rope=0.01)
    >>> res.p_left.round(3).tolist(), res.df.tolist()
    ([0.635, 1.0], [3.0, 2.0])
    """
    r = _check_rope(rope)
    a, b = np.atleast_2d(np.asarray(a, dtype=float)), np.atleast_2d(np.asarray(b, dtype=float))
    if a.shape != b.shape:
        raise StatsError(f"fold scores of shapes {a.shape} and {b.shape}; expected equal shapes")
    d = b - a if lower_is_better else -(b - a)  # as _differences forms them
    used = np.isfinite(d)
    n = used.sum(axis=1)
    rho = np.broadcast_to(np.asarray(rho, dtype=float), n.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(used, d, 0.0).sum(axis=1) / n
        var = np.where(used, (d - m[:, None]) ** 2, 0.0).sum(axis=1) / (n - 1)
        var = var * (1.0 / n + rho / (1.0 - rho))
        scale = np.sqrt(var)
        point = var == 0.0  # every difference the same: a point mass at m
        safe = np.where(point, 1.0, scale)
        # scipy.stats.t.sf and .cdf with loc and scale, as scipy computes them (stdtr of
        # (x - loc) / scale), without importing scipy.stats (0.5 s) into every run's summary.
        left = np.where(point, (m > r) + 0.0, special.stdtr(n - 1, -((r - m) / safe)))
        right = np.where(point, (m < -r) + 0.0, special.stdtr(n - 1, (-r - m) / safe))
    if r == 0.0:
        half = point & (m == 0.0)
        left, right = np.where(half, 0.5, left), np.where(half, 0.5, right)
    p_rope = np.zeros_like(left) if r == 0.0 else np.maximum(1.0 - left - right, 0.0)
    bad = (n < 2) | ~np.isfinite(rho) | (rho < 0) | (rho >= 1)
    sign = -1.0 if lower_is_better else 1.0

    def out(x):
        return np.where(bad, np.nan, x)

    return CorrelatedTTestRows(p_left=out(left), p_rope=out(p_rope), p_right=out(right),
                               mean=out(sign * m), scale=out(scale), df=out(n - 1.0), rope=r)


__all__ += ["CorrelatedTTestRows", "correlated_ttest_rows"]
