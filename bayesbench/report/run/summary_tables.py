"""The tables of a run's summary (``<run>/summary/<stem>.<ext>``), each in any table format:

- ``<metric>.<ext>``: each classifier's mean and standard deviation (``ddof=1``) over
  all folds and repetitions on each data set, one file per metric of the config's
  ``metrics``; metrics of the confusion matrix are pooled where folds are too small
  (below); CSV: one row per data set and classifier;
- ``per_class.<ext>``: per data set, classifier and class, support, precision,
  recall, specificity and F1 of each repetition's confusion matrix pooled over its
  folds, averaged over the repetitions;
- ``confusion.<ext>``: the confusion matrices summed over all folds and repetitions;
- ``timings.<ext>``: mean fit, predict and CPU seconds per fold, and the total;
- ``failed_tasks.<ext>``: tasks whose learner failed (only when there are some).

With leave-one-out, and whenever a test fold holds fewer examples than the data set
has classes, the per-class and macro metrics of a fold mean nothing (a one-example
fold's F1 of a class is 0 or 1): on such a data set they are computed from the
confusion matrix pooled over the folds of each repetition (``pooled`` is true in the
CSV, the caption says so), the way ``per_class`` computes them, so that the two
cannot disagree. docs/results.md documents every column.
"""
from __future__ import annotations

import hashlib
import re
from collections import defaultdict

import numpy as np

from ...evaluation.metrics import (METRIC_NAMES, MODEL_SCORES, PROBABILITY_METRICS,
                                   needs_pooling, per_class_metric, record_metric, title)
from ...spec import Experiment
from ..html import Table
from ..tables import render, table_format
from .protocol import validation_words
from .records import declared_order, pooled_records, records_for, small_fold_datasets

__all__ = ["METRIC_COLUMNS", "PER_CLASS_COLUMNS", "CONFUSION_COLUMNS", "TIMING_COLUMNS",
           "FAILED_COLUMNS", "FAILED_STEM", "metric_table", "summary_tables", "metric_tables",
           "attribute_notes", "probability_notes", "file_stem"]

# The CSV columns of each summary table (docs/results.md; tests/report/test_summary.py).
METRIC_COLUMNS = ["dataset", "classifier", "mean", "std", "folds", "failed", "pooled"]
PER_CLASS_COLUMNS = ["dataset", "classifier", "class", "support", "precision", "recall",
                     "specificity", "f1"]
CONFUSION_COLUMNS = ["dataset", "classifier", "true_class", "predicted_class", "count"]
TIMING_COLUMNS = ["dataset", "classifier", "folds", "fit_seconds", "predict_seconds",
                  "cpu_seconds", "total_seconds"]
FAILED_COLUMNS = ["dataset", "repetition", "fold", "classifier", "error"]
FAILED_STEM = "failed_tasks"  # not "errors": "error" is the 0/1 loss metric's table

def _cell_values(records, metric):
    values, failed, folds = defaultdict(list), defaultdict(int), defaultdict(int)
    for r in records:
        key = r["dataset"], r["classifier"]
        if r["status"] == "ok":
            v = record_metric(r, metric)
            values[key].append(np.nan if v is None else v)
            folds[key] += r.get("folds", 1)
        else:
            failed[key] += 1
    return values, failed, folds


def metric_table(records, metric, datasets, classifiers, fmt, small=frozenset()):
    """Rows and headers of one metric's table: in a tidy format (CSV) one row per data set
    and classifier (:data:`METRIC_COLUMNS`), otherwise data sets x classifiers cells
    ``mean ± std``."""
    tidy = table_format(fmt).tidy
    values, failed, folds = _cell_values(records, metric)
    rows = []
    for d in datasets:
        row = [d]
        pooled = d in small and needs_pooling(metric)
        for c in classifiers:
            v = np.asarray(values.get((d, c), []), dtype=float)
            v = v[~np.isnan(v)]
            mean = float(v.mean()) if v.size else float("nan")
            std = float(v.std(ddof=1)) if v.size > 1 else 0.0 if v.size else float("nan")
            n_failed = failed.get((d, c), 0)
            if tidy:
                rows.append([d, c, mean, std if v.size > 1 or not pooled else float("nan"),
                             folds.get((d, c), 0), n_failed, pooled])
            elif not v.size:
                row.append("-")
            else:
                # A mean over the folds that did not fail is not comparable with a full one.
                total = n_failed + folds.get((d, c), 0)
                note = f" ({n_failed} of {total} folds failed)" if n_failed else ""
                spread = f" ± {std:.4f}" if v.size > 1 or not pooled else " (pooled)"
                row.append(f"{mean:.4f}{spread}{note}")
        if not tidy:
            rows.append(row)
    headers = METRIC_COLUMNS if tidy else ["dataset"] + list(classifiers)
    return rows, headers


def summary_tables(records, pooled, small, experiment: Experiment, fmt):
    """``(file stem, text)`` of each table of ``records`` in the format ``fmt``; ``pooled``
    and ``small``: :func:`~.records.pooled_records` and the data sets whose confusion-matrix
    metrics read them (:func:`~.records.small_fold_datasets`)."""
    form = table_format(fmt)
    datasets, classifiers = declared_order(records, experiment)
    seen = attribute_notes(records, datasets, classifiers)
    for metric in experiment.metrics:
        rows, headers = metric_table(records_for(metric, records, pooled, small), metric,
                                     datasets, classifiers, fmt, small)
        caption = metric_caption(metric, experiment, datasets, small)
        notes = seen + probability_notes(records, metric, classifiers)
        yield file_stem(metric), form.with_notes(rows, headers, caption, notes)
    yield "per_class", _per_class(pooled, datasets, classifiers, fmt)
    yield "confusion", _confusion(records, datasets, classifiers, fmt)
    yield "timings", _timings(records, datasets, classifiers, fmt)
    failed = [[r["dataset"], r["repetition"], r["fold"], r["classifier"], r["error"]]
              for r in records if r["status"] != "ok"]
    if failed:
        yield FAILED_STEM, render(failed, FAILED_COLUMNS, fmt, caption="tasks that failed")


def attribute_notes(records, datasets, classifiers) -> list[str]:
    """A note per data set on which the classifiers saw different numbers of attributes
    (a record keeps ``attributes`` and ``n_attributes`` when its learner saw fewer than
    all, e.g. ``gnb`` the numeric ones only)."""
    notes = []
    for d in datasets:
        used, total = {}, None
        for r in records:
            if r["dataset"] == d and r["status"] == "ok":
                used[r["classifier"]] = len(r["attributes"]) if "attributes" in r else None
                total = r.get("n_attributes", total)
        if total is None:
            continue
        counts = [f"{c} {total if used[c] is None else used[c]} of {total}"
                  for c in classifiers if c in used]
        notes.append(f"{d}: the classifiers saw different attributes ({', '.join(counts)})")
    return notes


def probability_notes(records, metric: str, classifiers) -> list[str]:
    """A note naming the classifiers without ``predict_proba`` when ``metric`` needs one, or
    without ``metric`` when it is a model score (a classifier that does not define it)."""
    if metric in PROBABILITY_METRICS:
        without, why = {r["classifier"] for r in records if r.get("probabilities") is False}, \
            "no predict_proba"
    elif metric in MODEL_SCORES:
        without = {r["classifier"] for r in records
                   if r["status"] == "ok" and r["metrics"].get(metric) is None}
        why = "no such model score"
    else:
        return []
    names = [c for c in classifiers if c in without]
    if not names:
        return []
    return [f"{', '.join(names)}: {why}, so no {title(metric)} (left empty)"]


def metric_caption(metric: str, experiment: Experiment, datasets, small) -> str:
    caption = f"{title(metric)}: mean ± std over {validation_words(experiment)}"
    if needs_pooling(metric) and small:
        caption += (f"; on {', '.join(d for d in datasets if d in small)} (a test fold "
                    f"smaller than the number of classes) from the confusion matrix "
                    f"pooled over the folds of each repetition, as per_class")
    return caption


def file_stem(metric: str) -> str:
    """A file name for a metric's table: ``f1[M]`` -> ``f1_M`` (brackets upset shells).

    Unique and stable: a class label with other characters than letters, digits and
    ``._+-`` has them replaced by ``_`` and the name's hash appended (``f1[a/b]`` and
    ``f1[a b]`` would both be ``f1_a_b``, and the last written would win), as does a stem
    that is another metric's name (``f1[macro]`` is not ``f1_macro``)."""
    per_class = per_class_metric(metric)
    if per_class is None:
        return metric
    stem = "_".join(per_class)
    safe = re.sub(r"[^A-Za-z0-9._+-]", "_", stem)
    if safe == stem and stem not in METRIC_NAMES:
        return stem
    return f"{safe}-{hashlib.sha256(metric.encode()).hexdigest()[:8]}"


def _per_class(pooled, datasets, classifiers, fmt) -> str:
    cells = defaultdict(list)
    for p in pooled:
        cells[p["dataset"], p["classifier"]].append(p)
    rows = []
    for d in datasets:
        for c in classifiers:
            reps = cells.get((d, c))
            if not reps:
                continue
            support = np.sum([np.asarray(p["confusion"]).sum(axis=1) for p in reps], axis=0) // len(reps)
            means = {m: np.mean([p["per_class"][m] for p in reps], axis=0) for m in
                     ("precision", "recall", "specificity", "f1")}
            for k, name in enumerate(reps[0]["classes"]):
                rows.append([d, c, name, int(support[k])] + [float(means[m][k]) for m in means])
    headers = (PER_CLASS_COLUMNS if table_format(fmt).tidy else
               ["dataset", "classifier", "class", "support", "precision", "recall (sensitivity)",
                "specificity", "F1"])
    return render(rows, headers, fmt, caption="per-class scores of each repetition's confusion "
                  "matrix pooled over its folds, averaged over the repetitions")


def _summed(records):
    sums, classes, counts = {}, {}, defaultdict(int)
    for r in records:
        if r["status"] == "ok":
            key = r["dataset"], r["classifier"]
            sums[key] = sums.get(key, 0) + np.asarray(r["confusion"], dtype=np.int64)
            classes[key] = r["classes"]
            counts[key] += 1
    return sums, classes, counts


def _confusion(records, datasets, classifiers, fmt) -> str:
    sums, classes, counts = _summed(records)
    if table_format(fmt).tidy:
        rows = [[d, c, t, p, int(sums[d, c][i, j])]
                for d in datasets for c in classifiers if (d, c) in sums
                for i, t in enumerate(classes[d, c]) for j, p in enumerate(classes[d, c])]
        return render(rows, CONFUSION_COLUMNS, fmt)
    blocks = []
    for d in datasets:
        for c in classifiers:
            if (d, c) not in sums:
                continue
            names = classes[d, c]
            rows = [[t] + [int(x) for x in sums[d, c][i]] for i, t in enumerate(names)]
            blocks.append(render(rows, ["true \\ predicted"] + list(names), fmt, caption=(
                f"{d} / {c}: confusion matrix summed over {counts[d, c]} folds "
                "(rows = true class, columns = predicted class)")))
    return "\n".join(blocks)


def _timings(records, datasets, classifiers, fmt) -> str:
    times = defaultdict(list)
    for r in records:
        if r["status"] == "ok":
            cpu = r["metrics"].get("cpu_seconds")
            times[r["dataset"], r["classifier"]].append(
                (r["fit_seconds"], r["predict_seconds"], np.nan if cpu is None else cpu))
    rows = []
    for d in datasets:
        for c in classifiers:
            t = np.asarray(times.get((d, c), []), dtype=float)
            if t.size:
                rows.append([d, c, len(t), float(t[:, 0].mean()), float(t[:, 1].mean()),
                             float(np.nanmean(t[:, 2])) if np.isfinite(t[:, 2]).any() else float("nan"),
                             float(t[:, 0].sum() + t[:, 1].sum())])
    headers = (TIMING_COLUMNS if table_format(fmt).tidy else
               ["dataset", "classifier", "folds", "fit s (mean)", "predict s (mean)",
                "CPU s (mean)", "total s"])
    return render(rows, headers, fmt, caption="time per fold, in seconds (wall clock; CPU: "
                  "the fitting and predicting thread's)")


def metric_tables(experiment: Experiment, ordered) -> list[Table]:
    """Each metric's data sets x classifiers table of the records ``ordered`` (in their
    canonical order), for the report page."""
    small, pooled = small_fold_datasets(ordered), pooled_records(ordered)
    datasets, classifiers = declared_order(ordered, experiment)
    tables = []
    for metric in experiment.metrics:
        rows, headers = metric_table(records_for(metric, ordered, pooled, small), metric,
                                     datasets, classifiers, "text", small)
        tables.append(Table(metric_caption(metric, experiment, datasets, small),
                            headers=headers, rows=rows))
    return tables
