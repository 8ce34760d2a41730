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
from ..report.tables import EXTENSIONS, render
from .metrics import per_class_metric, per_class_scores, record_metric

TITLES = {"accuracy": "accuracy", "error": "0/1 loss", "precision_macro": "macro precision",
          "recall_macro": "macro recall", "f1_macro": "macro F1",
          "precision_weighted": "weighted precision", "recall_weighted": "weighted recall",
          "f1_weighted": "weighted F1", "specificity_macro": "macro specificity",
          "log_loss": "log loss", "brier": "Brier score", "auc_ovr": "one-vs-rest AUC"}


def title(metric: str) -> str:
    """A metric's name in table captions (``f1[M]``: "F1 of class M")."""
    per_class = per_class_metric(metric)
    if per_class is not None:
        score, cls = per_class
        return f"{'F1' if score == 'f1' else score} of class {cls}"
    return TITLES[metric]


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


def write_summary(out_dir, config, records, formats) -> list[Path]:
    """Write every summary table of ``records`` in each format; return the files."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    datasets = _order(records, "dataset", [d.name for d in config.datasets])
    classifiers = _order(records, "classifier", [c.label for c in config.classifiers])
    sums, classes, counts = _summed(records)
    errors = [r for r in records if r["status"] != "ok"]
    files = []

    def write(stem, fmt, text):
        path = out_dir / f"{stem}.{EXTENSIONS[fmt]}"
        path.write_text(text)
        files.append(path)

    for fmt in formats:
        for metric in config.metrics:
            rows, headers = metric_table(records, metric, datasets, classifiers, fmt)
            write(file_stem(metric), fmt, render(rows, headers, fmt, caption=(
                f"{title(metric)}: mean ± std over {config.cv.n_repetitions} repetition(s) "
                f"of {_cv_words(config.cv)}")))
        write("per_class", fmt, _per_class(sums, classes, datasets, classifiers, fmt))
        write("confusion", fmt, _confusion(sums, classes, counts, datasets, classifiers, fmt))
        write("timings", fmt, _timings(records, datasets, classifiers, fmt))
        if errors:
            rows = [[r["dataset"], r["repetition"], r["fold"], r["classifier"], r["error"]]
                    for r in errors]
            write("errors", fmt, render(rows, ["dataset", "repetition", "fold", "classifier",
                                               "error"], fmt, caption="tasks that failed"))
    files += _comparison(out_dir, config, records, formats)
    return files


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


def _comparison(out_dir, config, records, formats) -> list[Path]:
    """The statistics helper's comparison of the classifiers, as the config's ``compare``
    asks (default: the first metric, the first classifier as baseline, corrected t-test)."""
    from .store import records_frame

    frame = records_frame(out_dir.parent, failed=True)
    wanted = {r["task_id"] for r in records}
    frame = frame[frame["task_id"].isin(wanted)] if len(frame) else frame
    return write_comparison(out_dir, frame, config, formats, config.compare.baseline)


def write_comparison(out_dir, frame, config, formats, baseline, stem="comparison",
                     datasets=None) -> list[Path]:
    """Write ``compare(frame, ...)`` with the config's ``compare`` settings in each format
    (a comparison that cannot be made is written as its one-line reason)."""
    from ..report.comparison import compare
    from .metrics import LOWER_IS_BETTER

    spec = config.compare
    metric = spec.metric or config.metrics[0]
    try:
        result = compare(frame, metric=metric, baseline=baseline, test=spec.test,
                         alpha=spec.alpha, lower_is_better=metric in LOWER_IS_BETTER,
                         datasets=datasets or [d.name for d in config.datasets])
    except BayesbenchError as exc:
        text = {fmt: f"no statistical comparison: {exc}\n" for fmt in formats}
    else:
        text = {fmt: result.render(fmt) for fmt in formats}
    files = []
    for fmt in formats:
        path = Path(out_dir) / f"{stem}.{EXTENSIONS[fmt]}"
        path.write_text(text[fmt])
        files.append(path)
    return files
