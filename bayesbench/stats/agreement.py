"""Agreement between predicted and true classes beyond what chance gives."""
from __future__ import annotations

import numpy as np

from ..errors import StatsError

__all__ = ["KAPPA_WEIGHTS", "cohen_kappa"]

KAPPA_WEIGHTS = (None, "linear", "quadratic")


def cohen_kappa(confusion, *, weights: str | None = None) -> float:
    """Cohen's kappa of a K x K confusion matrix (rows true, columns predicted).

    With p_ij the matrix divided by its total, r_i its row sums and c_j its
    column sums, and disagreement weights w_ij (1 off the diagonal, 0 on it;
    |i - j| for ``"linear"``; (i - j)^2 for ``"quadratic"``, for ordered
    classes):

        kappa = 1 - sum_ij w_ij p_ij / sum_ij w_ij r_i c_j

    which for the unweighted kappa is (p_o - p_e) / (1 - p_e), p_o = sum_i p_ii
    the observed and p_e = sum_i r_i c_i the chance agreement. kappa = 1 for
    perfect agreement, 0 for agreement at chance level. When the chance
    disagreement is zero (true and predicted labels all of one and the same
    class, as in a one-example test fold) kappa is undefined and the result is
    NaN, as scikit-learn's ``cohen_kappa_score``; pool the confusion matrices
    of the folds first.

    References
    ----------
    J. Cohen (1960), A coefficient of agreement for nominal scales,
    Educational and Psychological Measurement 20(1):37-46.
    J. Cohen (1968), Weighted kappa, Psychological Bulletin 70(4):213-220.

    Examples
    --------
    >>> cohen_kappa([[20, 5], [10, 15]])
    0.4
    """
    if weights not in KAPPA_WEIGHTS:
        raise StatsError(f"unknown kappa weights {weights!r}; expected one of None, linear, quadratic")
    cm = np.asarray(confusion, dtype=float)
    if cm.ndim != 2 or cm.shape[0] != cm.shape[1] or cm.shape[0] < 1:
        raise StatsError(f"a confusion matrix must be square, got shape {cm.shape}")
    if not np.all(np.isfinite(cm)) or np.any(cm < 0):
        raise StatsError("a confusion matrix holds finite counts >= 0")
    total = cm.sum()
    if total == 0:
        raise StatsError("the confusion matrix is empty")
    expected = np.outer(cm.sum(axis=1), cm.sum(axis=0)) / total
    index = np.arange(cm.shape[0])
    distance = np.abs(index[:, None] - index[None, :]).astype(float)
    w = {None: distance > 0, "linear": distance, "quadratic": distance ** 2}[weights]
    chance = float(np.sum(w * expected))
    if chance == 0.0:
        return float("nan")
    return 1.0 - float(np.sum(w * cm)) / chance
