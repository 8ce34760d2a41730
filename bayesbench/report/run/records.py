"""Which records a run's tables read.

Every table of a run's summary, its comparison and its report page read the records in their
canonical order (:func:`~bayesbench.evaluation.store.in_task_order`, put in that order once,
where the run's report starts: :func:`~.finalize.finalize_run` and
:func:`~.comparison.write_arm_comparison`), so that no table depends on the order in which
tasks finished; and, on a data set whose test folds are smaller than its number of classes,
the confusion-matrix metrics from the matrix pooled over each repetition's folds
(:func:`pooled_records`, :func:`records_for`).
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from ...evaluation.metrics import confusion_scores, needs_pooling
from ...spec import Experiment

__all__ = ["declared_order", "small_fold_datasets", "pooled_records", "records_for"]


def declared_order(records, experiment: Experiment) -> tuple[list[str], list[str]]:
    """The data sets and the classifiers that ``records`` hold, each in the config's order."""
    return (_order(records, "dataset", [d.name for d in experiment.datasets]),
            _order(records, "classifier", [c.label for c in experiment.classifiers]))


def _order(records, key, declared):
    present = {r[key] for r in records}
    return [x for x in declared if x in present]


def small_fold_datasets(records) -> set[str]:
    """The data sets with a test fold smaller than their number of classes (leave-one-out
    among them), whose confusion-matrix metrics are pooled over the folds."""
    return {r["dataset"] for r in records
            if r["status"] == "ok" and r["n_test"] < len(r.get("classes") or ())}


def pooled_records(records) -> list[dict]:
    """One record per data set, classifier and repetition: the scores of the confusion
    matrix summed over the repetition's finished folds (:func:`confusion_scores`), the
    other metrics (log loss, Brier, AUC, CPU seconds) averaged over them."""
    groups = defaultdict(list)
    for r in records:
        if r["status"] == "ok":
            groups[r["dataset"], r["classifier"], r["repetition"]].append(r)
    out = []
    for (dataset, classifier, repetition), rs in groups.items():
        cm = sum(np.asarray(r["confusion"], dtype=np.int64) for r in rs)
        metrics, per_class = confusion_scores(cm)
        for name in ("log_loss", "brier", "auc_ovr", "cpu_seconds"):
            values = [r["metrics"].get(name) for r in rs]
            values = [v for v in values if v is not None]
            metrics[name] = float(np.mean(values)) if values else None
        out.append({"dataset": dataset, "classifier": classifier, "repetition": repetition,
                    "fold": 0, "fold_id": f"pooled-{repetition}", "status": "ok",
                    "learner": rs[0].get("learner"), "params": rs[0].get("params", {}),
                    "n_train": sum(r["n_train"] for r in rs), "n_test": sum(r["n_test"] for r in rs),
                    "classes": rs[0]["classes"], "confusion": cm.tolist(), "metrics": metrics,
                    "per_class": {k: v.tolist() for k, v in per_class.items()}, "folds": len(rs)})
    return out


def records_for(metric: str, records, pooled, small: set) -> list[dict]:
    """The records a metric's table and comparison read: on the small-fold data sets, the
    pooled ones for a confusion-matrix metric (failed tasks kept, to be counted)."""
    if not small or not needs_pooling(metric):
        return list(records)
    return ([r for r in records if r["dataset"] not in small or r["status"] != "ok"]
            + [p for p in pooled if p["dataset"] in small])
