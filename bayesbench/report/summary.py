"""Summary tables of a run, written into ``<run>/summary/`` in each requested format.

- ``<metric>.<ext>``: data sets x classifiers, mean +- standard deviation
  (``ddof=1``) over all folds and repetitions, one file per metric of the
  config's ``metrics`` (CSV: separate mean and std columns);
- ``per_class.<ext>``: per data set, classifier and class, precision, recall,
  specificity and F1 of the confusion matrix summed over all folds;
- ``confusion.<ext>``: those summed confusion matrices, rows true classes,
  columns predicted (CSV: one row per cell);
- ``timings.<ext>``: mean fit and predict seconds per fold, and the total;
- ``errors.<ext>``: tasks whose learner failed (only when there are some);
- ``comparison.<ext>``: the statistical comparison of the classifiers.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

from ..errors import BayesbenchError
from ..evaluation.metrics import (LOWER_IS_BETTER, PROBABILITY_METRICS, per_class_metric,
                                  per_class_scores, record_metric, title)
from ..evaluation.store import records_to_frame, run_names
from ..spec import Experiment
from .analysis import compare
from .render import render_comparison
from .tables import EXTENSIONS, render


def _order(records, key, declared):
    present = {r[key] for r in records}
    return [x for x in declared if x in present]


def metric_table(records, metric, datasets, classifiers, fmt):
    """Rows and headers of one metric's data sets x classifiers table."""
    values, failed = defaultdict(list), defaultdict(int)
    for r in records:
        if r["status"] == "ok":
            v = record_metric(r, metric)
            values[r["dataset"], r["classifier"]].append(np.nan if v is None else v)
        else:
            failed[r["dataset"], r["classifier"]] += 1
    rows = []
    for d in datasets:
        row = [d]
        for c in classifiers:
            v = np.asarray(values.get((d, c), []), dtype=float)
            v = v[~np.isnan(v)]
            mean = float(v.mean()) if v.size else float("nan")
            std = float(v.std(ddof=1)) if v.size > 1 else 0.0 if v.size else float("nan")
            if fmt == "csv":
                row += [mean, std]
            elif not v.size:
                row.append("-")
            else:
                # A mean over the folds that did not fail is not comparable with a full one.
                n_failed = failed.get((d, c), 0)
                note = (f" ({n_failed} of {n_failed + len(values[d, c])} folds failed)"
                        if n_failed else "")
                row.append(f"{mean:.4f} ± {std:.4f}{note}")
        rows.append(row)
    headers = ["dataset"] + ([f"{c} {s}" for c in classifiers for s in ("mean", "std")]
                             if fmt == "csv" else list(classifiers))
    return rows, headers


def _summed(records):
    sums, classes, counts = {}, {}, defaultdict(int)
    for r in records:
        if r["status"] != "ok":
            continue
        key = r["dataset"], r["classifier"]
        cm = np.asarray(r["confusion"], dtype=np.int64)
        sums[key] = sums.get(key, 0) + cm
        classes[key] = r["classes"]
        counts[key] += 1
    return sums, classes, counts


def write_summary(out_dir, experiment: Experiment, records, formats) -> list[Path]:
    """Write every summary table of ``records`` (a run's records, in the order written)
    in each format, and the comparison the experiment's ``compare`` asks for; return the
    files."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # In task order, so that the tables do not depend on the order in which tasks finished
    # (floating-point sums depend on the order of their terms).
    ordered = sorted(records, key=lambda r: (r["dataset"], r["repetition"], r["fold"],
                                             r["classifier"]))
    files = []
    for fmt in formats:
        for stem, text in _tables(ordered, experiment, fmt):
            path = out_dir / f"{stem}.{EXTENSIONS[fmt]}"
            path.write_text(text)
            files.append(path)
    run = run_names([out_dir.resolve().parent])
    frame = records_to_frame([records], run, failed=True)
    return files + write_comparison(out_dir, frame, experiment, formats,
                                    experiment.compare.baseline)


def _tables(records, experiment: Experiment, fmt):
    """``(file stem, text)`` of each table of ``records`` in the format ``fmt``."""
    datasets = _order(records, "dataset", [d.name for d in experiment.datasets])
    classifiers = _order(records, "classifier", [c.label for c in experiment.classifiers])
    sums, classes, counts = _summed(records)
    cv = experiment.cv
    seen = attribute_notes(records, datasets, classifiers)
    for metric in experiment.metrics:
        rows, headers = metric_table(records, metric, datasets, classifiers, fmt)
        caption = (f"{title(metric)}: mean ± std over {cv.n_repetitions} repetition(s) "
                   f"of {_cv_words(cv)}")
        notes = seen + probability_notes(records, metric, classifiers)
        if fmt == "latex" and notes:  # a LaTeX table's notes go into its caption
            caption = " ".join([f"{caption}."] + notes)
        text = render(rows, headers, fmt, caption=caption)
        if fmt in ("text", "markdown") and notes:
            text += "\n" + "".join(f"Note: {n}\n" for n in notes)
        yield file_stem(metric), text
    yield "per_class", _per_class(sums, classes, datasets, classifiers, fmt)
    yield "confusion", _confusion(sums, classes, counts, datasets, classifiers, fmt)
    yield "timings", _timings(records, datasets, classifiers, fmt)
    errors = [[r["dataset"], r["repetition"], r["fold"], r["classifier"], r["error"]]
              for r in records if r["status"] != "ok"]
    if errors:
        yield "errors", render(errors, ["dataset", "repetition", "fold", "classifier", "error"],
                               fmt, caption="tasks that failed")


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
    """A note naming the classifiers without ``predict_proba`` when ``metric`` needs one."""
    if metric not in PROBABILITY_METRICS:
        return []
    without = {r["classifier"] for r in records if r.get("probabilities") is False}
    names = [c for c in classifiers if c in without]
    if not names:
        return []
    return [f"{', '.join(names)}: no predict_proba, so no {title(metric)} (left empty)"]


def file_stem(metric: str) -> str:
    """A file name for a metric's table: ``f1[M]`` -> ``f1_M`` (brackets upset shells)."""
    per_class = per_class_metric(metric)
    if per_class is None:
        return metric
    return "_".join(per_class).replace("/", "_").replace(" ", "_")


def _cv_words(cv) -> str:
    if cv.kind == "kfold":
        return f"{'stratified ' if cv.stratified else ''}{cv.folds}-fold cross-validation"
    if cv.kind == "holdout":
        return f"a {cv.fraction:g} holdout"
    return {"resubstitution": "resubstitution (train = test)",
            "loo": "leave-one-out"}[cv.kind]


def _per_class(sums, classes, datasets, classifiers, fmt) -> str:
    rows = []
    for d in datasets:
        for c in classifiers:
            if (d, c) not in sums:
                continue
            cm = sums[d, c]
            scores = per_class_scores(cm)
            for k, name in enumerate(classes[d, c]):
                rows.append([d, c, name, int(cm[k].sum())] +
                            [float(scores[m][k]) for m in ("precision", "recall",
                                                           "specificity", "f1")])
    return render(rows, ["dataset", "classifier", "class", "support", "precision",
                         "recall (sensitivity)", "specificity", "F1"], fmt,
                  caption="per-class scores of the confusion matrix summed over all folds")


def _confusion(sums, classes, counts, datasets, classifiers, fmt) -> str:
    if fmt == "csv":
        rows = [[d, c, t, p, int(sums[d, c][i, j])]
                for d in datasets for c in classifiers if (d, c) in sums
                for i, t in enumerate(classes[d, c]) for j, p in enumerate(classes[d, c])]
        return render(rows, ["dataset", "classifier", "true class", "predicted class",
                             "count"], fmt)
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
    fit, pred = defaultdict(list), defaultdict(list)
    for r in records:
        if r["status"] == "ok":
            fit[r["dataset"], r["classifier"]].append(r["fit_seconds"])
            pred[r["dataset"], r["classifier"]].append(r["predict_seconds"])
    rows = [[d, c, len(fit[d, c]), float(np.mean(fit[d, c])), float(np.mean(pred[d, c])),
             float(np.sum(fit[d, c]) + np.sum(pred[d, c]))]
            for d in datasets for c in classifiers if fit.get((d, c))]
    return render(rows, ["dataset", "classifier", "folds", "fit s (mean)", "predict s (mean)",
                         "total s"], fmt, caption="time per fold, in seconds")


def write_comparison(out_dir, frame, experiment: Experiment, formats, baseline) -> list[Path]:
    """Write ``compare(frame, ...)`` with the experiment's ``compare`` settings in each format
    (a comparison that cannot be made is written as its one-line reason)."""
    spec = experiment.compare
    metric = spec.metric or experiment.metrics[0]
    try:
        result = compare(frame, metric=metric, baseline=baseline, test=spec.test,
                         alpha=spec.alpha, lower_is_better=metric in LOWER_IS_BETTER,
                         datasets=[d.name for d in experiment.datasets])
    except BayesbenchError as exc:
        text = {fmt: f"no statistical comparison: {exc}\n" for fmt in formats}
    else:
        text = {fmt: render_comparison(result, fmt) for fmt in formats}
    files = []
    for fmt in formats:
        path = Path(out_dir) / f"comparison.{EXTENSIONS[fmt]}"
        path.write_text(text[fmt])
        files.append(path)
    return files


def write_arm_comparison(experiment: Experiment, runs, formats) -> list[Path]:
    """``<output>/comparison.*``: the classifiers of every arm of ``experiment`` compared,
    labelled ``<arm>/<classifier>``; ``runs`` holds each arm's ``(run_dir, records)``."""
    dirs = [Path(run_dir) for run_dir, _ in runs]
    frame = records_to_frame([records for _, records in runs],
                             run_names([d.resolve() for d in dirs]), failed=True)
    baseline = experiment.compare.baseline
    if baseline is not None and "/" not in baseline:
        baseline = f"{dirs[0].name}/{baseline}"
    return write_comparison(dirs[0].parent, frame, experiment, formats, baseline)
