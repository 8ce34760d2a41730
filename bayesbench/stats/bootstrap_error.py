"""Efron and Tibshirani's (1997) bootstrap estimates of a classifier's error rate (0-1 loss).

From ``B`` bootstrap replicates, each a model fitted on ``n`` rows drawn with replacement and
tested on the rows it did not draw (out of bag), and a model fitted on all the rows:

* the leave-one-out bootstrap, ``Err(1) = 1/n' sum_i [sum_b I_i^b Q_i^b / sum_b I_i^b]``,
  ``I_i^b = 1`` when row ``i`` is out of bag in replicate ``b`` and ``Q_i^b`` its 0-1 loss
  there; the ``n'`` rows out of bag in no replicate are left out (their share is
  ``0.368^B``);
* the apparent error ``err``: the model of all rows tested on the same rows;
* the .632 estimate ``Err(.632) = .368 err + .632 Err(1)``;
* the no-information error rate ``gamma = sum_l p_l (1 - q_l)`` (their eq. 27), ``p_l`` the
  share of the rows of class ``l``, ``q_l`` the share of the apparent model's predictions of
  ``l``: the error rate if the attributes told nothing of the class;
* the relative overfitting rate ``R = (Err(1) - err) / (gamma - err)`` (eq. 28), clipped as
  the paper does (eq. 31): ``Err(1)' = min(Err(1), gamma)``, ``R' = (Err(1)' - err) /
  (gamma - err)`` when ``Err(1)' > err`` (then also ``gamma > err``), else 0, so
  ``0 <= R' <= 1``;
* the .632+ estimate (eq. 32) ``Err(.632+) = Err(.632) + (Err(1)' - err) .368 .632 R' /
  (1 - .368 R')``: while ``Err(1) <= gamma`` it is ``(1 - w) err + w Err(1)`` with
  ``w = .632 / (1 - .368 R')`` (eq. 29), from ``Err(.632)`` without overfitting (``R' = 0``)
  to ``Err(1)`` when it is total (``R' = 1``); above gamma it is ``.632 Err(1) + .368 gamma``.

docs/statistics.md gives the formulas with the references.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..errors import StatsError

__all__ = ["BootstrapError", "leave_one_out_bootstrap", "no_information_rate",
           "bootstrap_error"]

# e^-1, rounded as the paper rounds it: the share of the rows a bootstrap sample leaves out.
_OUT, _IN = 0.368, 0.632


class BootstrapError(NamedTuple):
    """The estimates of one classifier's error rate on one data set, and what they combine:
    ``oob`` (Err(1)), ``apparent`` (err), ``no_information`` (gamma), ``overfitting`` (R',
    clipped) and the ``point632`` and ``point632plus`` estimates."""

    oob: float
    apparent: float
    no_information: float
    overfitting: float
    point632: float
    point632plus: float


def leave_one_out_bootstrap(rows, wrong) -> tuple[float, int]:
    """``(Err(1), n')``: the leave-one-out bootstrap error from the out-of-bag predictions of
    every replicate, ``rows`` (each prediction's row index) and ``wrong`` (whether it was
    wrong), and the number of rows out of bag at least once, which it averages over.

    >>> leave_one_out_bootstrap([0, 1, 0, 2], [1, 0, 0, 1])  # row 0: 1/2, row 1: 0, row 2: 1
    (0.5, 3)
    """
    rows = np.asarray(rows, dtype=np.int64)
    wrong = np.asarray(wrong, dtype=np.float64)
    if rows.shape != wrong.shape or rows.size == 0:
        raise StatsError(f"{rows.size} out-of-bag rows and {wrong.size} losses: no estimate")
    times = np.bincount(rows)
    losses = np.bincount(rows, weights=wrong)
    seen = times > 0
    return float(np.mean(losses[seen] / times[seen])), int(seen.sum())


def no_information_rate(confusion) -> float:
    """gamma, the no-information error rate, from the confusion matrix of the model of all
    rows tested on them (rows: true classes, columns: predicted classes).

    >>> no_information_rate([[3, 1], [0, 4]])  # p = (.5, .5), q = (.375, .625)
    0.5
    """
    confusion = np.asarray(confusion, dtype=np.float64)
    n = confusion.sum()
    if confusion.ndim != 2 or confusion.shape[0] != confusion.shape[1] or n <= 0:
        raise StatsError(f"a confusion matrix of shape {confusion.shape} and {n:g} rows")
    p, q = confusion.sum(axis=1) / n, confusion.sum(axis=0) / n
    return float(np.sum(p * (1.0 - q)))


def bootstrap_error(oob: float, apparent: float = float("nan"),
                    no_information: float = float("nan")) -> BootstrapError:
    """The estimates from Err(1) (``oob``), err (``apparent``) and gamma
    (``no_information``); without the last two, only ``oob`` is a number.

    >>> r = bootstrap_error(0.3, 0.1, 0.5)  # R' = (0.3 - 0.1) / (0.5 - 0.1) = 0.5
    >>> round(r.point632, 4), round(r.overfitting, 4), round(r.point632plus, 4)
    (0.2264, 0.5, 0.2549)
    """
    nan = float("nan")
    if np.isnan(apparent):
        return BootstrapError(float(oob), nan, nan, nan, nan, nan)
    point632 = _OUT * apparent + _IN * oob
    if np.isnan(no_information):
        return BootstrapError(float(oob), float(apparent), nan, nan, float(point632), nan)
    clipped = min(oob, no_information)
    rate = (clipped - apparent) / (no_information - apparent) if clipped > apparent else 0.0
    plus = point632 + (clipped - apparent) * (_OUT * _IN * rate) / (1.0 - _OUT * rate)
    return BootstrapError(float(oob), float(apparent), float(no_information), float(rate),
                          float(point632), float(plus))
