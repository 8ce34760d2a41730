"""Penalised log-likelihood scores from counts: AIC, BIC, and the gain of one arc.

``AIC = 2 k - 2 LL`` and ``BIC = k ln N - 2 LL`` (Akaike 1974; Schwarz 1978), smaller is
better, as R's ``stats::AIC`` and statsmodels define them. The arc scores of
:func:`arc_score_matrix` are what adding one arc between two attributes of a naive Bayes
changes in these scores (bnclassify's ``tan_cl`` with ``score=``; Friedman, Geiger and
Goldszmidt 1997, sec. 4.2). A fitted model's own scores are
:class:`bayesbench.models.core.scores.ModelScores`.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..errors import ClassifierError
from .information import cmi_from_counts, pair_counts

#: The scores of :func:`arc_score_matrix`, each to be maximised.
ARC_SCORES = ("loglik", "aic", "bic")


def aic(log_likelihood: float, k: int) -> float:
    """``2 k - 2 LL`` (Akaike 1974)."""
    return 2.0 * k - 2.0 * log_likelihood


def bic(log_likelihood: float, k: int, n: int) -> float:
    """``k ln N - 2 LL`` (Schwarz 1978); N = 0 is an error (the penalty has no value)."""
    if n == 0:
        raise ClassifierError("BIC needs at least one row (its penalty is k ln N)")
    return k * math.log(n) - 2.0 * log_likelihood


def arc_score_matrix(X: np.ndarray, y: np.ndarray, cardinalities: Sequence[int],
                     n_classes: int, score: str) -> np.ndarray:
    """Gain in ``score`` from an arc between ``X_i`` and ``X_j`` (both children of the class).

    With ``N_ij`` the rows where both are observed, ``I = I(X_i; X_j | C)`` on
    those rows and ``d = (r_i - 1)(r_j - 1) r_C`` the parameters the arc adds:

    * ``loglik``: ``N_ij I``, the gain in maximum log-likelihood;
    * ``aic``: ``N_ij I - d`` (half the fall in AIC);
    * ``bic``: ``N_ij I - d ln(N_ij) / 2`` (half the fall in BIC).

    Returns the symmetric ``(m, m)`` matrix, zero diagonal. An arc helps the
    score when its entry is positive.
    """
    if score not in ARC_SCORES:
        raise ClassifierError(f"score must be one of {', '.join(ARC_SCORES)}, got {score!r}")
    m = X.shape[1]
    out = np.zeros((m, m))
    for i, j, n in pair_counts(X, y, cardinalities, n_classes):
        out[i, j] = out[j, i] = arc_gain(n, score)
    return out


def arc_gain(n: np.ndarray, score: str) -> float:
    """The entry of :func:`arc_score_matrix` for one pair, from its counts ``N(c, a, b)``
    of shape ``(n_classes, r_i, r_j)``."""
    rows = float(n.sum())
    gain = rows * cmi_from_counts(n)
    k, ri, rj = n.shape
    dof = (ri - 1) * (rj - 1) * k
    if score == "aic":
        gain -= dof
    elif score == "bic":
        gain -= dof * math.log(rows) / 2 if rows > 0 else 0.0
    return gain
