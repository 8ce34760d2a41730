"""Strong and weak k-naive Bayes on the maximally balanced attribute subset (paper 000).

Barrow (paper 000, Chapter 2) sits between Gaussian naive Bayes and his linear
covariance "full Bayes" (:class:`~bayesbench.models.learners.gaussian.LinearFullBayes`):
``k`` attributes are treated naively, the others through the linear covariance
model, and the naive set is the one whose dependences cancel best in Zhang's
sense (paper 001): its averaged dependence-derivative ratios are closest to 1.
"""
from __future__ import annotations

import itertools
import math
from numbers import Integral

import numpy as np

from ..core.base import fresh_fit
from .gaussian import (RESIDUAL_VARIANCE, VAR_SMOOTHING, ContinuousClassifier,
                       fit_linear_moments, linear_joint_log_likelihood, set_linear_dependences)
from ..core.input_checks import start_continuous_fit
from ..core.constraints import Interval, parameter_error

# The exhaustive search evaluates subsets in blocks of 2**_BLOCK_BITS bitmasks.
_BLOCK_BITS = 16
#: The largest ``exhaustive_limit`` (docs/limits.md): the exhaustive search scores all
#: ``2^p`` subsets of ``p`` attributes, about 15 s a fit at 30 on one core, doubling with
#: each attribute (``exhaustive_limit: 1e9`` on 40 attributes ran without end).
MAX_EXHAUSTIVE = 30
#: The most subsets a ``rank`` above 0 may order (docs/limits.md): every subset of size
#: ``k`` is listed and scored one by one, C(p, k) of them (C(30, 15) is 155 million).
MAX_RANKED_SUBSETS = 2 ** 20


class KNaiveBayes(ContinuousClassifier):
    """Strong or weak k-naive Bayes over the maximally balanced attribute subset.

    Model. A set ``S`` of naive attributes is chosen at ``fit``; the others,
    ``D``, are dependent. Within class ``c`` (notation of
    :class:`~bayesbench.models.learners.gaussian.LinearFullBayes`, ``z = x - theta_c``)::

        p(c, x) ~ p(c) * prod_{i in S} N(z_i; 0, var_ci)
                       * prod_{i in D} N(z_i - sum_{j in P(i)} B_cij z_j; 0, v_ci)

    with ``B_cij = S_cij / var_cj``. Weak naivete (``strong=False``): naive
    attributes are sources, each dependent attribute is corrected for every
    other attribute, ``P(i) = all j != i``. Strong naivete: naive attributes are
    independent of all others, ``P(i) = D - {i}``. ``k = 0`` gives
    ``LinearFullBayes``, ``k = n`` gives ``GaussianNB`` (both versions).

    Dependence derivatives (paper 001, Definition 2; paper 000, Definition
    1.5.1), from the full linear model fitted on the training data::

        ln dd_c(x_i, E) = ln N(r_ci(E); 0, v_ci) - ln N(z_ci(E); 0, var_ci)
        w_ci = mean over training rows E of ln dd_c(x_i, E)

    Two classes: ``ln ddr(x_i, E) = ln dd_+ - ln dd_-`` and the weight of ``S``
    is ``sum_{i in S} mean_E ln ddr(x_i, E)``, the training-average log global
    dependence factor of ``S``; the maximally balanced subset of size ``k``
    minimises its absolute value (weight closest to 1). More classes (the
    centred form of paper 001, Eq. 18-19): with ``wbar_ci = w_ci - mean_c' w_c'i``
    over the classes present in training, ``K`` of them, the imbalance of ``S``
    is ``sqrt(2 / (K - 1) * sum_c (sum_{i in S} wbar_ci)^2)``, the root mean square
    over class pairs ``(a, b)`` of the pairwise weight ``sum_{i in S} mean ln ddr_ab``;
    for two classes it is exactly ``|sum_{i in S} mean ln ddr|``.

    Search. Up to ``exhaustive_limit`` attributes every subset of size ``k``
    (every non-empty subset when ``k`` is None) is scored; ties go to the
    subset with the smallest bitmask (attribute i = bit i). Beyond, a
    heuristic: greedy forward selection (add the attribute that leaves the
    smallest imbalance) to size ``k``, then best-improvement swaps of one
    naive for one dependent attribute until no swap lowers the imbalance; with
    ``k`` None this runs for every size and keeps the best. The problem is a
    subset-sum (paper 000, Theorem 2.2.5), so the heuristic is not guaranteed
    optimal.

    Departures from paper 000 (beyond those listed for ``LinearFullBayes``):

    - ddr is averaged in log space, as the paper's code does
      (``attributeWeight``), not as the arithmetic mean of ratios of its
      Definition 2.2.3: the log average decomposes exactly over attributes
      (``ln gdf`` is a sum) and is not dominated by a few huge ratios;
    - "smallest weight" (Definition 2.2.4) is read as "closest to 1", as the
      surrounding text and the code (``abs(weightsum)``) intend;
    - the paper is two-class only; the multi-class imbalance is the centred
      form above.

    Parameters
    ----------
    k : int or None, default None
        Number of naive attributes, ``0 <= k <= n_features``. None searches all
        non-empty sizes, as in the paper's WDBC experiment.
    strong : bool, default False
        Strong (naive attributes independent) or weak (naive attributes are sources).
    var_smoothing : float, default 1e-9
    residual_variance : {"marginal", "fitted"}, default "marginal"
        See ``LinearFullBayes``.
    exhaustive_limit : int, default 20
        Largest number of attributes searched exhaustively, at most :data:`MAX_EXHAUSTIVE`.
    rank : int, default 0
        Which subset of size ``k`` to take, counted from the most balanced: 0 is the
        maximally balanced one; ``r`` the one ``r`` places further from balance (ties by
        bitmask). Paper 000, sec. 3.3, forces each 1-naive classifier onto each attribute
        and orders them by the distance of their weight from 1. A rank above 0 needs a
        fixed ``k``, an exhaustive search and at most :data:`MAX_RANKED_SUBSETS` subsets
        of size ``k``.

    Attributes
    ----------
    naive_features_ : ndarray of int
        Indices of the naive attributes ``S``, ascending.
    mean_log_dd_ : ndarray of shape (n_classes, n_features)
        ``w_ci`` (0 for a class absent from training).
    imbalance_ : float
        Imbalance of the chosen subset.
    structure_info_ : dict
        ``strong``, ``k``, ``naive`` and ``dependent`` attribute names,
        ``imbalance``, ``search`` ("exhaustive", "heuristic" or "trivial") and,
        for two classes, ``mean_log_ddr`` per attribute (``classes_[0]`` over
        ``classes_[1]``).
    theta_, var_, covariance_, coef_, residual_var_, epsilon_, class_prior_
        As in ``LinearFullBayes``, ``coef_`` for the chosen structure.
    """

    _parameter_constraints = {
        "k": [None, Interval(Integral, 0, None, closed="left")],
        # "boolean": a string such as "false" is truthy and would silently mean True.
        "strong": ["boolean"],
        "var_smoothing": VAR_SMOOTHING,
        "residual_variance": RESIDUAL_VARIANCE,
        "exhaustive_limit": [Interval(Integral, 0, MAX_EXHAUSTIVE, closed="both")],
        "rank": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, *, k: int | None = None, strong: bool = False,
                 var_smoothing: float = 1e-9, residual_variance: str = "marginal",
                 exhaustive_limit: int = 20, rank: int = 0):
        self.k = k
        self.rank = rank
        self.strong = strong
        self.var_smoothing = var_smoothing
        self.residual_variance = residual_variance
        self.exhaustive_limit = exhaustive_limit

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes: int | None = None):
        X, codes = start_continuous_fit(self, X, y, n_classes)
        p = X.shape[1]
        if self.k is not None and self.k > p:
            raise parameter_error(type(self).__name__, "k", f"None or an integer in 0..{p}",
                                  self.k)
        fit_linear_moments(self, X, codes)
        set_linear_dependences(self, ~np.eye(p, dtype=bool))
        self.mean_log_dd_ = mean_log_dependence_derivatives(self, X)
        present = self.class_count_ > 0
        weights = balance_weights(self.mean_log_dd_[present])
        if self.rank:
            naive, self.imbalance_, search = self._ranked_subset(weights, p)
        else:
            naive, self.imbalance_, search = most_balanced_subset(weights, self.k,
                                                                  self.exhaustive_limit)
        self.naive_features_ = np.asarray(naive, dtype=np.int64)
        set_linear_dependences(self, dependence_mask(p, self.naive_features_, bool(self.strong)))
        self.structure_info_ = self._structure_info(search, present)
        return self

    def _ranked_subset(self, W: np.ndarray, p: int):
        """The subset of size ``k`` ``rank`` places from the most balanced."""
        name = type(self).__name__
        if self.k is None or p > self.exhaustive_limit:
            raise parameter_error(name, "rank", "0 unless k is fixed and the search is "
                                  f"exhaustive (at most exhaustive_limit={self.exhaustive_limit}"
                                  f" attributes; {p} here)", self.rank)
        # Counted before any is listed: the list and its scores are C(p, k) long.
        if math.comb(p, self.k) > MAX_RANKED_SUBSETS:
            raise parameter_error(name, "rank", f"0 when there are more than "
                                  f"{MAX_RANKED_SUBSETS:,} subsets of size k to order "
                                  f"({math.comb(p, self.k):,} of {self.k} of {p} attributes)",
                                  self.rank)
        subsets = list(itertools.combinations(range(p), self.k))
        if self.rank >= len(subsets):
            raise parameter_error(name, "rank", f"an integer in 0..{len(subsets) - 1} "
                                  f"(subsets of {self.k} of {p} attributes)", self.rank)
        values = [float(np.linalg.norm(W[:, list(s)].sum(axis=1))) for s in subsets]
        order = sorted(range(len(subsets)),
                       key=lambda i: (values[i], sum(1 << a for a in subsets[i])))
        chosen = order[self.rank]
        return subsets[chosen], values[chosen], f"exhaustive, rank {self.rank}"

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return linear_joint_log_likelihood(self, self._validate_predict(X))

    def _structure_info(self, search: str, present: np.ndarray) -> dict:
        names = self._attribute_names()
        naive = set(self.naive_features_.tolist())
        info = {"strong": bool(self.strong), "k": len(naive),
                "naive": [names[i] for i in sorted(naive)],
                "dependent": [n for i, n in enumerate(names) if i not in naive],
                "imbalance": float(self.imbalance_), "search": search}
        if len(self.classes_) == 2 and present.all():
            log_ddr = self.mean_log_dd_[0] - self.mean_log_dd_[1]
            info["mean_log_ddr"] = dict(zip(names, log_ddr.tolist()))
        return info

    def structure_summary(self) -> str:
        info = self.structure_info_
        kind = "strong" if info["strong"] else "weak"
        return (f"{kind} {info['k']}-naive bayes, naive={{{', '.join(info['naive'])}}}, "
                f"imbalance={info['imbalance']:.4g} ({info['search']})")


def mean_log_dependence_derivatives(model: ContinuousClassifier, X: np.ndarray) -> np.ndarray:
    """``w_ci``: the mean over the rows of ``X`` of ``ln dd_c(x_i, E)``.

    ``model`` holds a fitted full linear covariance model; ``ln dd`` compares
    the density of attribute ``i``'s residual with that of the attribute
    itself, both under class ``c``. Absent classes get 0.
    """
    out = np.zeros((len(model.classes_), X.shape[1]))
    for c in np.flatnonzero(model.class_count_):
        Z = X - model.theta_[c]
        R = Z @ model._A[c].T
        v, var = model.residual_var_[c], model.var_[c]
        out[c] = (-0.5 * np.log(v / var)
                  - 0.5 * (np.mean(R * R, axis=0) / v - np.mean(Z * Z, axis=0) / var))
    return out


def balance_weights(mean_log_dd: np.ndarray) -> np.ndarray:
    """Scaled, class-centred weights whose column sums' norm is the imbalance.

    For ``K >= 2`` classes returns ``sqrt(2 / (K - 1)) * (w - mean_c w)``, so
    that ``||sum_{i in S} W[:, i]||`` is the imbalance of ``S``; with fewer than
    two classes every subset is balanced (weights 0).
    """
    K = mean_log_dd.shape[0]
    if K < 2:
        return np.zeros((1, mean_log_dd.shape[1]))
    return np.sqrt(2.0 / (K - 1)) * (mean_log_dd - mean_log_dd.mean(axis=0))


def dependence_mask(p: int, naive, strong: bool) -> np.ndarray:
    """``mask[i, j]``: dependent attribute ``i`` is corrected for attribute ``j``."""
    dependent = np.ones(p, dtype=bool)
    dependent[list(naive)] = False
    mask = dependent[:, None] & ~np.eye(p, dtype=bool)
    if strong:
        mask &= dependent[None, :]
    return mask


def most_balanced_subset(W: np.ndarray, k: int | None, exhaustive_limit: int = 20):
    """Return ``(subset, imbalance, search)`` minimising ``||sum_{i in S} W[:, i]||``.

    ``k`` fixes the size; None allows every non-empty size. Exhaustive up to
    ``exhaustive_limit`` columns, greedy plus swaps beyond.
    """
    p = W.shape[1]
    if k is not None and k in (0, p):
        subset = tuple(range(k))
        return subset, float(np.linalg.norm(W[:, list(subset)].sum(axis=1))), "trivial"
    sizes = range(1, p + 1) if k is None else [k]
    if p <= exhaustive_limit:
        subset, value = _exhaustive(W, np.array(list(sizes)))
        return subset, value, "exhaustive"
    best = min((_greedy_swap(W, size) for size in sizes), key=lambda r: r[1])
    return best[0], best[1], "heuristic"


def _exhaustive(W: np.ndarray, sizes: np.ndarray):
    K, p = W.shape
    low = min(p, _BLOCK_BITS)
    # Row m of `sums` is the column sum over the attributes set in bitmask m;
    # each doubling adds attribute i to the second half.
    sums = np.zeros((1, K))
    popcount = np.zeros(1, dtype=np.int64)
    for i in range(low):
        sums = np.concatenate([sums, sums + W[:, i]])
        popcount = np.concatenate([popcount, popcount + 1])
    best_value, best_mask = np.inf, None
    for high in range(2 ** (p - low)):
        high_bits = [low + b for b in range(p - low) if high >> b & 1]
        allowed = np.flatnonzero(np.isin(popcount + len(high_bits), sizes))
        if allowed.size == 0:
            continue
        totals = sums[allowed] + W[:, high_bits].sum(axis=1)
        values = np.einsum("mk,mk->m", totals, totals)
        j = int(np.argmin(values))
        if values[j] < best_value:
            best_value, best_mask = values[j], (high << low) | int(allowed[j])
    subset = tuple(i for i in range(p) if best_mask >> i & 1)
    return subset, float(np.sqrt(best_value))


def _greedy_swap(W: np.ndarray, size: int):
    p = W.shape[1]
    chosen: list[int] = []
    total = np.zeros(W.shape[0])
    for _ in range(size):
        rest = np.setdiff1d(np.arange(p), chosen)
        candidates = total[:, None] + W[:, rest]
        j = int(rest[np.argmin(np.einsum("km,km->m", candidates, candidates))])
        chosen.append(j)
        total = total + W[:, j]
    value = float(total @ total)
    while True:
        inside = np.array(chosen)
        outside = np.setdiff1d(np.arange(p), inside)
        if outside.size == 0:
            break
        swapped = total[:, None, None] - W[:, inside][:, :, None] + W[:, outside][:, None, :]
        values = np.einsum("kab,kab->ab", swapped, swapped)
        a, b = np.unravel_index(np.argmin(values), values.shape)
        # Demand a real improvement so that rounding cannot make the search cycle.
        if values[a, b] >= value - 1e-12 * (1.0 + value):
            break
        chosen[a] = int(outside[b])
        total = W[:, chosen].sum(axis=1)
        value = float(total @ total)
    return tuple(sorted(chosen)), float(np.sqrt(value))
