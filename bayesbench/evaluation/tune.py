"""Tuning within an outer training part (Weka's ``CVParameterSelection``, mlr3's ``AutoTuner``).

Every combination of the candidate values (in the order written, the first parameter
varying slowest) is scored by stratified inner cross-validation on the outer training
part only, as the classifier receives it (the experiment's preprocessing is fitted on
that part, never on the outer test part); its score is the mean of the metric over
the inner folds. The best combination wins, the first one written among equals, and
is then fitted on the whole training part. The inner folds are dealt by
:func:`bayesbench.data.fold_assignment.kfold_assignment`, as the outer ones, from a generator
that the caller seeds from the task.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ..data.fold_assignment import kfold_assignment
from ..errors import BayesbenchError
from ..spec import TuneSpec
from .adapter import FitContext, fit_predict
from .metrics import LOWER_IS_BETTER, PROBABILITY_METRICS, evaluate


@dataclass(frozen=True)
class Tuned:
    """The chosen values and the mean inner score of every candidate, in grid order."""

    params: dict
    scores: tuple[float, ...]


def candidates(grid: dict) -> list[dict]:
    """Every combination of ``grid`` (``{name: values}``), the first name varying slowest."""
    names = list(grid)
    return [dict(zip(names, combo)) for combo in itertools.product(*(grid[n] for n in names))]


def rows(X, index: np.ndarray):
    """The rows ``index`` of an array or a DataFrame."""
    return X.iloc[index] if hasattr(X, "iloc") else X[index]


def tune(make, spec: TuneSpec, X, y, context: FitContext, rng) -> Tuned:
    """Choose among ``candidates(spec.params)`` by ``spec.folds``-fold stratified
    cross-validation of ``make(**candidate)`` on ``(X, y)`` (class codes, told what
    ``context`` says of them), scored by ``spec.metric``.

    Raises :class:`BayesbenchError` when no candidate gets a score (a probability
    metric for a classifier without ``predict_proba``, or too few rows).
    """
    grid, folds, metric, n_classes = spec.params, spec.folds, spec.metric, context.n_classes
    y = np.asarray(y, dtype=np.int64)
    assignment = kfold_assignment(y, folds, rng, stratified=True)
    parts = [np.flatnonzero(assignment == f) for f in range(folds)]
    parts = [(np.flatnonzero(assignment != f), test) for f, test in enumerate(parts)
             if 0 < test.size < y.size]
    scores = []
    for candidate in candidates(grid):
        per_fold = []
        for train, test in parts:
            out = fit_predict(make(**candidate), rows(X, train), y[train], rows(X, test),
                              context)
            per_fold.append(evaluate(y[test], out.labels, out.proba, n_classes)["metrics"][metric])
        finite = [s for s in per_fold if np.isfinite(s)]
        scores.append(float(np.mean(finite)) if finite else float("nan"))
    values = np.array(scores)
    if np.isnan(values).all():
        why = (f"{metric} needs predict_proba" if metric in PROBABILITY_METRICS
               else f"{y.size} training rows give no inner fold")
        raise BayesbenchError(f"tuning found no candidate with a score: {why}")
    signed = np.where(np.isnan(values), -np.inf, -values if metric in LOWER_IS_BETTER else values)
    return Tuned(candidates(grid)[int(np.argmax(signed))], tuple(scores))
