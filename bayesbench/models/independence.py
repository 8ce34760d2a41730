"""G-tests of (conditional) independence between discrete variables.

Under the null hypothesis that X and Y are independent given C, the statistic

    G = 2 N I(X; Y | C) = 2 sum_{c,x,y} n_cxy log(n_cxy n_c / (n_cx n_cy))

(N examples, I in nats) is asymptotically chi-square with
``(r_X - 1)(r_Y - 1) r_C`` degrees of freedom, where ``r`` are the *declared*
cardinalities (Koller and Friedman 2009, sec. 18.2.2; Mihaljevic et al. 2013,
sec. 5). The unconditional test of X against the class is the special case
with one stratum, ``G = 2 N I(X; C)`` with ``(r_X - 1)(r_C - 1)`` degrees of
freedom. Summed over the strata of C, ``G`` equals the sum of scipy's
``chi2_contingency(table_c, correction=False, lambda_="log-likelihood")``
statistics.

The chi-square approximation is poor on sparse tables (Agresti 1990). Following
Yaramakala and Margaritis (2005), as paper 002 does, a test is *reliable* when
the average cell count ``N / (number of cells)`` is at least 5; an unreliable
test never rejects independence (:meth:`GTestResult.rejects`).

Rows in which any of the variables is missing (code -1) are left out, so ``N``
counts complete rows only.
"""
from __future__ import annotations

from dataclasses import dataclass
import numpy as np
from scipy.stats import chi2

from .counting import check_table_size
from .information import cmi_from_counts

#: Minimal average cell count for the chi-square approximation to be trusted.
MIN_AVERAGE_COUNT = 5.0


@dataclass(frozen=True)
class GTestResult:
    """The outcome of a G-test of (conditional) independence.

    Attributes
    ----------
    statistic : float
        ``G = 2 N I``.
    pvalue : float
        ``P(chi2_dof >= G)``; 1 when ``dof`` is 0 (a variable with one value
        cannot depend on anything).
    dof : int
        Degrees of freedom from the declared cardinalities.
    reliable : bool
        Whether ``n / cells >= MIN_AVERAGE_COUNT``.
    mutual_information : float
        ``I`` in nats (conditional on C for the conditional test).
    n : int
        Number of complete rows the table was built from.
    cells : int
        Number of cells of the contingency table (product of cardinalities).
    """

    statistic: float
    pvalue: float
    dof: int
    reliable: bool
    mutual_information: float
    n: int
    cells: int

    def rejects(self, significance: float) -> bool:
        """True when the test is reliable and ``pvalue < significance``."""
        return bool(self.reliable and self.pvalue < significance)

    def as_dict(self) -> dict:
        return {"statistic": self.statistic, "pvalue": self.pvalue, "dof": self.dof,
                "reliable": self.reliable, "mutual_information": self.mutual_information,
                "n": self.n}


def is_reliable(n: int, cells: int, min_average_count: float = MIN_AVERAGE_COUNT) -> bool:
    """The reliability rule: average count per cell ``n / cells`` at least ``min_average_count``."""
    return cells > 0 and n >= min_average_count * cells


def _g_statistic(table: np.ndarray) -> float:
    """``G = 2 N I(X; Y | C)`` of a (C, X, Y) table of counts."""
    # Rounding can leave -1e-15 on an exactly independent table.
    return max(2.0 * float(table.sum()) * cmi_from_counts(table), 0.0)


def _result(g: float, n: int, r_x: int, r_y: int, r_c: int,
            min_average_count: float) -> GTestResult:
    dof = (r_x - 1) * (r_y - 1) * r_c
    cells = r_x * r_y * r_c
    pvalue = float(chi2.sf(g, dof)) if dof > 0 else 1.0
    return GTestResult(statistic=g, pvalue=pvalue, dof=int(dof),
                       reliable=is_reliable(n, cells, min_average_count),
                       mutual_information=g / (2.0 * n) if n > 0 else 0.0,
                       n=int(n), cells=int(cells))


def g_test_table(table, *, min_average_count: float = MIN_AVERAGE_COUNT) -> GTestResult:
    """G-test of independence of X and Y given C on a table of counts.

    Parameters
    ----------
    table : array of shape (r_C, r_X, r_Y), or (r_X, r_Y) for the unconditional test
        Non-negative counts; the shape gives the declared cardinalities, so
        categories never observed still count as (empty) rows or columns.
    min_average_count : float
        Reliability threshold on ``N / table.size``.
    """
    table = np.asarray(table, dtype=np.float64)
    if table.ndim == 2:
        table = table[None]
    if table.ndim != 3:
        raise ValueError(f"table must have 2 or 3 dimensions, got shape {table.shape}")
    if (table < 0).any() or not np.isfinite(table).all():
        raise ValueError("table must hold finite non-negative counts")
    r_c, r_x, r_y = table.shape
    return _result(_g_statistic(table), int(round(table.sum())), r_x, r_y, r_c,
                   min_average_count)


def _observed_codes(codes: np.ndarray, r: int, name: str) -> tuple[np.ndarray, int]:
    """Codes relabelled ``0..m-1`` over the values present, so that a joined
    variable with an astronomically large declared cardinality needs no table
    of that size (empty rows and columns add nothing to G)."""
    if codes.size and codes.max() >= r:
        raise ValueError(f"{name} holds code {codes.max()} but its cardinality is {r}")
    if r <= max(codes.size, 1):
        return codes, int(r)
    values, inverse = np.unique(codes, return_inverse=True)
    return inverse.reshape(-1), max(int(values.size), 1)


def conditional_independence_test(x, y, c, r_x: int, r_y: int, r_c: int, *,
                                  min_average_count: float = MIN_AVERAGE_COUNT,
                                  attributes=()) -> GTestResult:
    """G-test of ``X _||_ Y | C`` from integer codes (-1 = missing).

    ``r_x``, ``r_y`` and ``r_c`` are the declared cardinalities (Python ints
    of any size); they set the degrees of freedom and the reliability rule.
    ``attributes`` (positions in the learner's data) name X and Y when their table of
    counts would exceed the limit of :func:`~.counting.check_table_size`.
    """
    x, y, c = (np.asarray(v, dtype=np.int64) for v in (x, y, c))
    if not (x.shape == y.shape == c.shape) or x.ndim != 1:
        raise ValueError("x, y and c must be one-dimensional and of equal length")
    keep = (x >= 0) & (y >= 0) & (c >= 0)
    x, mx = _observed_codes(x[keep], r_x, "x")
    y, my = _observed_codes(y[keep], r_y, "y")
    c, mc = _observed_codes(c[keep], r_c, "c")
    check_table_size((mx, my, mc), attributes)
    table = np.bincount((c * mx + x) * my + y, minlength=mc * mx * my).reshape(mc, mx, my)
    return _result(_g_statistic(table.astype(np.float64)), int(keep.sum()),
                   int(r_x), int(r_y), int(r_c), min_average_count)


def independence_test(x, c, r_x: int, r_c: int, *,
                      min_average_count: float = MIN_AVERAGE_COUNT,
                      attributes=()) -> GTestResult:
    """G-test of ``X _||_ C`` from integer codes (-1 = missing)."""
    c = np.asarray(c, dtype=np.int64)
    return conditional_independence_test(x, c, np.zeros_like(c), r_x, r_c, 1,
                                         min_average_count=min_average_count,
                                         attributes=attributes)
