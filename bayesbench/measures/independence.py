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

:func:`pairwise_conditional_tests` and :func:`independence_tests` run the tests
of many variables at once (the tables of a variable's pairs from one
``bincount``, the statistics and p-values computed together); each result
equals the single test's to the last bit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import chdtrc  # scipy.stats.chi2.sf's own function, 30x cheaper a call

from .codes import check_table_size, current_table_limit
from .information import cmi_from_counts, cmi_from_counts_many

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
            min_average_count: float, pvalue: float | None = None) -> GTestResult:
    """The test's outcome; ``pvalue`` when already computed (in a batch) for this ``g``."""
    dof = (r_x - 1) * (r_y - 1) * r_c
    cells = r_x * r_y * r_c
    if pvalue is None:
        pvalue = float(chdtrc(dof, g)) if dof > 0 else 1.0
    return GTestResult(statistic=g, pvalue=pvalue, dof=int(dof),
                       reliable=is_reliable(n, cells, min_average_count),
                       mutual_information=g / (2.0 * n) if n > 0 else 0.0,
                       n=int(n), cells=int(cells))


def _results(tables, shapes, totals, min_average_count) -> list[GTestResult]:
    """The tests of the count tables, with declared cardinalities ``(r_x, r_y, r_c)`` and row
    counts ``totals`` each; statistics and p-values computed together, each equal to the
    single table's (:func:`_g_statistic`) to the last bit."""
    # Rounding can leave -1e-15 on an exactly independent table.
    g = [max(2.0 * float(total) * cmi, 0.0)
         for total, cmi in zip(totals, cmi_from_counts_many(tables))]
    dof = [(r_x - 1) * (r_y - 1) * r_c for r_x, r_y, r_c in shapes]
    tested = [t for t, d in enumerate(dof) if d > 0]
    pvalues = [1.0] * len(tables)
    if tested:
        values = chdtrc(np.array([float(dof[t]) for t in tested]), np.array([g[t] for t in tested]))
        for t, value in zip(tested, values.tolist()):
            pvalues[t] = value
    return [_result(g[t], int(totals[t]), *shapes[t], min_average_count, pvalues[t])
            for t in range(len(tables))]


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


def conditional_independence_test(x, y, c, cardinalities: tuple[int, int, int], *,
                                  min_average_count: float = MIN_AVERAGE_COUNT,
                                  attributes=()) -> GTestResult:
    """G-test of ``X _||_ Y | C`` from integer codes (-1 = missing).

    ``cardinalities`` are the declared ``(r_x, r_y, r_c)`` (Python ints of any size);
    they set the degrees of freedom and the reliability rule.
    ``attributes`` (positions in the learner's data) name X and Y when their table of
    counts would exceed the limit of :func:`~.codes.check_table_size`.
    """
    r_x, r_y, r_c = cardinalities
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
    return conditional_independence_test(x, c, np.zeros_like(c), (r_x, r_c, 1),
                                         min_average_count=min_average_count,
                                         attributes=attributes)


#: Cells of the tables one ``bincount`` of the batched tests fills.
_BATCH_CELLS = 2 ** 22


def _observed_columns(codes: np.ndarray, cardinalities) -> tuple[np.ndarray, list[int]]:
    """Each column relabelled ``0..m-1`` over its values present (-1 kept) when its declared
    cardinality exceeds the number of rows, as :func:`_observed_codes` does for one test.

    Relabelling keeps the order of the values, so a table's nonzero cells, and its
    statistic, are the same as with the declared codes.
    """
    out, sizes = codes.copy(), []
    for j, r in enumerate(cardinalities):
        column = codes[:, j]
        present = column >= 0
        if present.any() and column.max() >= r:
            raise ValueError(f"variable {j} holds code {column.max()} but its cardinality is {r}")
        if r <= max(codes.shape[0], 1):
            sizes.append(int(r))
            continue
        values, inverse = np.unique(column[present], return_inverse=True)
        out[present, j] = inverse.reshape(-1)
        sizes.append(max(int(values.size), 1))
    return out, sizes


def _batch_input(codes, c, cardinalities, r_c):
    codes = np.asarray(codes, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    if codes.ndim != 2 or c.shape != (codes.shape[0],):
        raise ValueError("codes must be two-dimensional with one row per entry of c")
    observed, sizes = _observed_columns(codes, cardinalities)
    strata, (m_c,) = _observed_columns(c[:, None], [r_c])
    return codes, c, observed, sizes, strata[:, 0], m_c


def _batches(cells):
    """Consecutive ranges of the tables of ``cells`` each, a range's sum within _BATCH_CELLS
    (at least one table each)."""
    lo = 0
    while lo < len(cells):
        hi, total = lo + 1, cells[lo]
        while hi < len(cells) and total + cells[hi] <= _BATCH_CELLS:
            total += cells[hi]
            hi += 1
        yield lo, hi
        lo = hi


def pairwise_conditional_tests(codes, c, cardinalities, r_c: int, *,
                               min_average_count: float = MIN_AVERAGE_COUNT,
                               attributes=None) -> list[GTestResult]:
    """G-tests of ``V_i _||_ V_j | C`` for every pair ``i < j`` of the columns of ``codes``.

    Results in the order ``(0, 1), (0, 2), ..., (1, 2), ...``, each equal to
    :func:`conditional_independence_test` of the pair (declared
    ``cardinalities`` and ``r_c``, -1 missing). The tables of the pairs of
    variable ``i`` come from one ``bincount`` (a batch of bounded memory at a
    time). ``attributes[i]`` lists the positions variable ``i`` stands for, to
    name a table over the limit of :func:`~.codes.check_table_size` (such a
    pair is tested alone, which raises exactly as the single test does).
    """
    codes, c, observed, sizes, strata, m_c = _batch_input(codes, c, cardinalities, r_c)
    m = codes.shape[1]
    names = [()] * m if attributes is None else [tuple(a) for a in attributes]
    limit, results = current_table_limit(), []
    complete = bool((observed >= 0).all() and (strata >= 0).all())
    for i in range(m - 1):
        cells = [m_c * sizes[i] * sizes[j] for j in range(i + 1, m)]
        for lo, hi in _batches(cells):
            rest = np.arange(i + 1 + lo, i + 1 + hi)
            if hi - lo == 1 and cells[lo] > limit:
                j = int(rest[0])
                results.append(conditional_independence_test(
                    codes[:, i], codes[:, j], c, (cardinalities[i], cardinalities[j], r_c),
                    min_average_count=min_average_count, attributes=names[i] + names[j]))
                continue
            widths = np.array([sizes[j] for j in rest], dtype=np.int64)
            offsets = np.concatenate([[0], np.cumsum(m_c * sizes[i] * widths)])
            base = strata * sizes[i] + observed[:, i]
            partners = observed[:, i + 1 + lo:i + 1 + hi]
            index = base[:, None] * widths
            index += partners
            index += offsets[:-1]
            if complete:
                counts = np.bincount(index.reshape(-1), minlength=int(offsets[-1]))
            else:
                keep = (partners >= 0) & ((observed[:, i] >= 0) & (strata >= 0))[:, None]
                counts = np.bincount(index[keep], minlength=int(offsets[-1]))
            tables = [counts[offsets[k]:offsets[k + 1]].reshape(m_c, sizes[i], sizes[j])
                      for k, j in enumerate(rest)]
            shapes = [(int(cardinalities[i]), int(cardinalities[j]), int(r_c)) for j in rest]
            results += _results(tables, shapes, np.add.reduceat(counts, offsets[:-1]).tolist(),
                                min_average_count)
    return results


def independence_tests(codes, c, cardinalities, r_c: int, *,
                       min_average_count: float = MIN_AVERAGE_COUNT,
                       attributes=None) -> list[GTestResult]:
    """G-tests of ``V_j _||_ C`` for each column ``j`` of ``codes``, each equal to
    :func:`independence_test` (declared ``cardinalities`` and ``r_c``, -1 missing); the
    tables from one ``bincount`` a batch. ``attributes`` as for
    :func:`pairwise_conditional_tests`."""
    codes, c, observed, sizes, strata, m_c = _batch_input(codes, c, cardinalities, r_c)
    names = [()] * codes.shape[1] if attributes is None else [tuple(a) for a in attributes]
    cells = [size * m_c for size in sizes]
    results = []
    for lo, hi in _batches(cells):
        if hi - lo == 1 and cells[lo] > current_table_limit():
            results.append(independence_test(codes[:, lo], c, cardinalities[lo], r_c,
                                             min_average_count=min_average_count,
                                             attributes=names[lo]))
            continue
        widths = np.array(sizes[lo:hi], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(widths * m_c)])
        index = observed[:, lo:hi] * m_c + strata[:, None] + offsets[:-1]
        keep = (observed[:, lo:hi] >= 0) & (strata >= 0)[:, None]
        counts = np.bincount(index[keep], minlength=int(offsets[-1]))
        tables = [counts[offsets[k]:offsets[k + 1]].reshape(1, sizes[j], m_c)
                  for k, j in enumerate(range(lo, hi))]
        results += _results(tables, [(int(cardinalities[j]), int(r_c), 1) for j in range(lo, hi)],
                            np.add.reduceat(counts, offsets[:-1]).tolist(), min_average_count)
    return results
