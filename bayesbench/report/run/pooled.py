"""Scores pooled over the folds of a repetition (``pooled: true``): ``summary/pooled.*``.

For each data set, classifier and metric of the config: the mean over the folds (as in the
metric's own table), and the score of each repetition's test predictions taken together,
averaged over the repetitions (``pooled_std`` their standard deviation, ``ddof=1``). The
records suffice for most: accuracy, error and the metrics of the confusion matrix come
from the confusion matrix summed over the folds; log loss and the Brier score, each a mean
over test rows, from the folds' means weighted by their test rows; RMSE as the root of the
pooled Brier score over the classes. AUC ranks all the test rows of a repetition together,
so it needs the kept predictions (``predictions: true``) and is empty without them. CPU
seconds and the model scores are not scores of the test predictions: they have no row.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from ...evaluation.metrics import (MODEL_SCORES, auc_ovr, pooled, record_metric,
                                  rmse_of_brier)
from ...evaluation.predictions import gathered

POOLED_COLUMNS = ["dataset", "classifier", "metric", "fold_mean", "pooled", "pooled_std",
                  "repetitions"]
NOT_POOLED = ("cpu_seconds", *MODEL_SCORES)
# The metrics that are a mean over test rows: pooled as the mean weighted by the test rows.
_ROW_MEANS = ("log_loss", "brier")


def _weighted(rs, name: str) -> float:
    values = [r["metrics"].get(name) for r in rs]
    if any(v is None for v in values):
        return float("nan")
    n = np.asarray([r["n_test"] for r in rs], dtype=float)
    return float(np.dot(n, values) / n.sum())


def pooled_score(rs, metric: str, auc: float = float("nan")) -> float:
    """``metric`` of the test predictions of the records ``rs`` (one repetition's folds)
    taken together; ``auc`` is their one-vs-rest AUC, which the records cannot give."""
    if metric == "auc_ovr":
        return auc
    if metric in _ROW_MEANS:
        return _weighted(rs, metric)
    if metric == "rmse":
        return rmse_of_brier(_weighted(rs, "brier"), len(rs[0]["classes"]))
    cm = sum(np.asarray(r["confusion"], dtype=np.int64) for r in rs)
    return pooled(cm, rs[0]["classes"], metric)


def pooled_rows(records, metrics, datasets, classifiers, run_dir=None,
                held=None) -> list[list]:
    """The rows of ``pooled.csv`` (:data:`POOLED_COLUMNS`); ``run_dir`` (None: none) holds
    the kept predictions that the pooled AUC is computed from, those of ``held``
    (:func:`~bayesbench.evaluation.predictions.gathered`) still in memory."""
    metrics = [m for m in metrics if m not in NOT_POOLED]
    groups = defaultdict(list)
    for r in records:
        if r["status"] == "ok":
            groups[r["dataset"], r["classifier"], r["repetition"]].append(r)
    aucs = {}
    if run_dir is not None and "auc_ovr" in metrics:
        kept = gathered(run_dir, records, lambda r: (r["dataset"], r["classifier"],
                                                     r["repetition"]), held)
        aucs = {key: auc_ovr(y, proba) for key, (_, y, proba) in kept.items()
                if proba is not None}
    rows = []
    for d in datasets:
        for c in classifiers:
            reps = sorted(rep for (d_, c_, rep) in groups if (d_, c_) == (d, c))
            if not reps:
                continue
            folds = [r for rep in reps for r in groups[d, c, rep]]
            for metric in metrics:
                per_fold = np.asarray([np.nan if (v := record_metric(r, metric)) is None else v
                                       for r in folds], dtype=float)
                values = np.asarray([pooled_score(groups[d, c, rep], metric,
                                                  aucs.get((d, c, rep), float("nan")))
                                     for rep in reps], dtype=float)
                rows.append([d, c, metric, _mean(per_fold), _mean(values),
                             float(values.std(ddof=1)) if len(values) > 1 else float("nan"),
                             len(reps)])
    return rows


def _mean(values: np.ndarray) -> float:
    values = values[~np.isnan(values)]
    return float(values.mean()) if values.size else float("nan")


POOLED_CAPTION = ("each metric's mean over the folds, and its score on each repetition's test "
                  "predictions pooled over its folds (mean and std over the repetitions)")
