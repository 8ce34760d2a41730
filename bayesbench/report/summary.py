"""The summary of a run, written into ``<run>/summary/`` in each requested format.

- ``<metric>.<ext>``: each classifier's mean and standard deviation (``ddof=1``) over
  all folds and repetitions on each data set, one file per metric of the config's
  ``metrics``; metrics of the confusion matrix are pooled where folds are too small
  (below); CSV: one row per data set and classifier;
- ``per_class.<ext>``: per data set, classifier and class, support, precision,
  recall, specificity and F1 of each repetition's confusion matrix pooled over its
  folds, averaged over the repetitions;
- ``confusion.<ext>``: the confusion matrices summed over all folds and repetitions;
- ``timings.<ext>``: mean fit, predict and CPU seconds per fold, and the total;
- ``failed_tasks.<ext>``: tasks whose learner failed (only when there are some);
- ``comparison*.<ext>``: the statistical comparison of the classifiers (the text
  formats in one file, CSV one table per file);
- ``pooled.<ext>`` (``pooled: true``): each metric's fold mean beside its score on the
  test predictions of each repetition pooled over its folds (:mod:`.pooled`);
- ``arc_frequencies.csv``: how often each arc of a learned structure was learned over the
  folds (:mod:`.arcs`), when a classifier learned one;
- ``scores.csv`` (and ``scores.parquet`` when pyarrow is installed): every score of
  every task in long form;
- ``warnings.csv``: each distinct warning of a classifier on a data set, with the folds
  that raised it (only when there are some; :mod:`.run_warnings`);
- ``bias_variance.<ext>`` (``evaluation: {kind: bias_variance}``): the decomposition of
  each classifier's 0-1 loss on each data set (:mod:`.bias_variance`), CSV always.

With leave-one-out, and whenever a test fold holds fewer examples than the data set
has classes, the per-class and macro metrics of a fold mean nothing (a one-example
fold's F1 of a class is 0 or 1): on such a data set they are computed from the
confusion matrix pooled over the folds of each repetition (``pooled`` is true in the
CSV, the caption says so), the way ``per_class`` computes them, so that the two
cannot disagree. docs/results.md documents every column.
"""
from __future__ import annotations

import hashlib
import importlib.util
import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..data.chunks import is_chunked
from ..errors import BayesbenchError
from ..evaluation.metrics import (LOWER_IS_BETTER, METRIC_NAMES, MODEL_SCORES, PROBABILITY_METRICS,
                                  confusion_scores, needs_pooling, per_class_metric,
                                  record_metric, title)
from ..evaluation.store import records_to_frame, run_names
from ..spec import Experiment
from .analysis import compare
from .html import Section, Table
from .pages import (REPORT, Network, draw_figures, draw_learning_curves,
                    draw_prediction_figures, prediction_curves, write_report)
from .plotting import plotting_available
from .arcs import ARC_COLUMNS, arc_rows
from . import bias_variance
from .learning_curves import CURVE_COLUMNS, CURVE_FILE, at_largest, curve_rows, has_curve
from .pooled import POOLED_CAPTION, POOLED_COLUMNS, pooled_rows
from .render import comparison_tables, render_comparison
from .run_warnings import WARNING_COLUMNS, WARNINGS_FILE, Warned, warned
from .tables import EXTENSIONS, render

# The CSV columns of each summary table (docs/results.md; tests/report/test_summary.py).
METRIC_COLUMNS = ["dataset", "classifier", "mean", "std", "folds", "failed", "pooled"]
PER_CLASS_COLUMNS = ["dataset", "classifier", "class", "support", "precision", "recall",
                     "specificity", "f1"]
CONFUSION_COLUMNS = ["dataset", "classifier", "true_class", "predicted_class", "count"]
TIMING_COLUMNS = ["dataset", "classifier", "folds", "fit_seconds", "predict_seconds",
                  "cpu_seconds", "total_seconds"]
FAILED_COLUMNS = ["dataset", "repetition", "fold", "classifier", "error"]
FAILED_STEM = "failed_tasks"  # not "errors": "error" is the 0/1 loss metric's table
# scores.csv: the records' long form less what only the record store needs; with fold_id and
# the fold sizes, `bayesbench compare summary/scores.csv --metric M` runs the paired tests.
SCORE_DROPPED = ["run", "seed", "task_id", "error", "structure", "schema_version", "fit_seconds",
                 "predict_seconds"]


def _order(records, key, declared):
    present = {r[key] for r in records}
    return [x for x in declared if x in present]


def task_order(records, experiment: Experiment) -> list[dict]:
    """``records`` in the config's order of data sets, then by repetition and fold, then in
    the config's order of classifiers: the tables must not depend on the order in which
    tasks finished (floating-point sums depend on the order of their terms), and a
    comparison lists the classifiers (and takes its default baseline) in config order."""
    position = {c.label: i for i, c in enumerate(experiment.classifiers)}
    where = {d.name: i for i, d in enumerate(experiment.datasets)}
    return sorted(records, key=lambda r: (where.get(r["dataset"], len(where)), r["dataset"],
                                          r["repetition"], r["fold"],
                                          position.get(r["classifier"], len(position)),
                                          r["classifier"]))


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
    """Rows and headers of one metric's table: for CSV one row per data set and classifier
    (:data:`METRIC_COLUMNS`), otherwise data sets x classifiers cells ``mean ± std``."""
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
            if fmt == "csv":
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
        if fmt != "csv":
            rows.append(row)
    headers = METRIC_COLUMNS if fmt == "csv" else ["dataset"] + list(classifiers)
    return rows, headers


def write_summary(out_dir, experiment: Experiment, records, formats) -> list[Path]:
    """Write every summary table of ``records`` (a run's records, in the order written)
    in each format, ``scores.csv`` (and ``.parquet``), and the comparison the experiment's
    ``compare`` asks for; return the files."""
    return write_run_summary(out_dir, experiment, records, formats)[0]


def write_run_summary(out_dir, experiment: Experiment, records, formats, held=None):
    """:func:`write_summary`, also returning the comparison (None if it could not be made)
    and, then, why; ``held``: the predictions the session holds in memory (the pooled AUC
    reads the others from their files)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    every = task_order(records, experiment)
    ordered = at_largest(every)  # a learning curve's tables: its largest size
    small = small_fold_datasets(ordered)
    pooled = pooled_records(ordered)
    files = []
    for fmt in formats:
        for stem, text in _tables(ordered, pooled, small, experiment, fmt):
            path = out_dir / f"{stem}.{EXTENSIONS[fmt]}"
            path.write_text(text)
            files.append(path)
    if experiment.pooled:
        files += _write_pooled(out_dir, experiment, ordered, formats, held)
    arcs = _arcs(ordered, experiment)
    if arcs:  # a table of numbers for scripts and the consensus network: CSV only
        files.append(out_dir / "arc_frequencies.csv")
        files[-1].write_text(render(arcs, ARC_COLUMNS, "csv"))
    if has_curve(every):  # tidy data for scripts and the figures: CSV only
        files.append(out_dir / CURVE_FILE)
        files[-1].write_text(render(_curve(every, experiment), CURVE_COLUMNS, "csv"))
    run = run_names([out_dir.resolve().parent])
    files += write_scores(out_dir, records_to_frame([every], run, failed=True, long=True))
    raised = warned(ordered)
    if raised:
        files.append(out_dir / WARNINGS_FILE)
        files[-1].write_text(render(raised, WARNING_COLUMNS, "csv"))
    metric = experiment.compare.metric or experiment.metrics[0]
    compared = records_for(metric, ordered, pooled, small)
    frame = records_to_frame([compared], run, failed=True, metrics=[metric])
    written, result, reason = write_comparison(out_dir, frame, experiment, formats,
                                               experiment.compare.baseline)
    return files + written, result, reason


def _arcs(records, experiment: Experiment) -> list[list]:
    """The rows of ``arc_frequencies.csv`` (:mod:`.arcs`) of ``records`` in task order."""
    return arc_rows(records, _order(records, "dataset", [d.name for d in experiment.datasets]),
                    _order(records, "classifier", [c.label for c in experiment.classifiers]))


def _curve(records, experiment: Experiment) -> list[list]:
    """The rows of ``learning_curve.csv`` (:mod:`.learning_curves`)."""
    return curve_rows(records, experiment.metrics,
                      _order(records, "dataset", [d.name for d in experiment.datasets]),
                      _order(records, "classifier", [c.label for c in experiment.classifiers]))


def _write_pooled(out_dir: Path, experiment: Experiment, records, formats,
                  held=None) -> list[Path]:
    """``pooled.<ext>`` (:mod:`.pooled`), the AUC from the predictions the run kept beside
    ``out_dir`` (those of ``held`` from memory)."""
    rows = pooled_rows(records, experiment.metrics,
                       _order(records, "dataset", [d.name for d in experiment.datasets]),
                       _order(records, "classifier", [c.label for c in experiment.classifiers]),
                       out_dir.parent if experiment.predictions else None, held)
    files = []
    for fmt in formats:
        files.append(out_dir / f"pooled.{EXTENSIONS[fmt]}")
        files[-1].write_text(render(rows, POOLED_COLUMNS, fmt,
                                    caption=None if fmt == "csv" else POOLED_CAPTION))
    return files


def write_scores(out_dir, long) -> list[Path]:
    """``scores.csv`` (and ``scores.parquet`` when pyarrow is installed): the long frame of
    :func:`~bayesbench.evaluation.store.records_frame` without the run column."""
    frame = long.drop(columns=SCORE_DROPPED, errors="ignore")
    files = [Path(out_dir) / "scores.csv"]
    frame.to_csv(files[0], index=False)
    if importlib.util.find_spec("pyarrow") is not None:
        files.append(Path(out_dir) / "scores.parquet")
        frame.to_parquet(files[1], index=False)
    return files


def _tables(records, pooled, small, experiment: Experiment, fmt):
    """``(file stem, text)`` of each table of ``records`` in the format ``fmt``."""
    datasets = _order(records, "dataset", [d.name for d in experiment.datasets])
    classifiers = _order(records, "classifier", [c.label for c in experiment.classifiers])
    seen = attribute_notes(records, datasets, classifiers)
    for metric in experiment.metrics:
        rows, headers = metric_table(records_for(metric, records, pooled, small), metric,
                                     datasets, classifiers, fmt, small)
        caption = _metric_caption(metric, experiment, datasets, small)
        notes = seen + probability_notes(records, metric, classifiers)
        if fmt == "latex" and notes:  # a LaTeX table's notes go into its caption
            caption = " ".join([f"{caption}."] + notes)
        text = render(rows, headers, fmt, caption=caption)
        if fmt in ("text", "markdown") and notes:  # CSV: one value per cell, no notes
            text += "\n" + "".join(f"Note: {n}\n" for n in notes)
        yield file_stem(metric), text
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


def _metric_caption(metric: str, experiment: Experiment, datasets, small) -> str:
    caption = f"{title(metric)}: mean ± std over {_validation_words(experiment)}"
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


def _hashed(experiment: Experiment) -> list[str]:
    """The data sets read in chunks: their folds are dealt by a hash of the row index."""
    return [d.name for d in experiment.datasets if d.chunked or is_chunked(d.path)]


def _validation_words(experiment: Experiment) -> str:
    """The tasks a mean is taken over, in words."""
    evaluation = experiment.evaluation
    if evaluation is not None:
        return (f"the {evaluation.iterations} iterations of a bias-variance decomposition "
                f"({evaluation.method})")
    sizes = experiment.cv.train_sizes
    return (f"{experiment.cv.n_repetitions} repetition(s) of "
            f"{_cv_words(experiment.cv, _hashed(experiment))}"
            + (f", at each data set's largest of the training sizes {list(sizes)} (every size "
               f"in summary/{CURVE_FILE} and the learning-curve figures)" if sizes else ""))


def _cv_words(cv, hashed=()) -> str:
    """The validation in words; ``hashed``: the data sets (read in chunks) whose folds are
    dealt by a hash of the row index, which is not stratified whatever ``cv`` says."""
    if cv.kind == "kfold" and hashed:
        return (f"{cv.folds}-fold cross-validation, folds dealt by a hash of the row index "
                f"(not stratified) on {', '.join(hashed)}"
                + (", stratified on the others" if cv.stratified else ""))
    if cv.kind == "kfold":
        floor = (", n // k rows tested per fold (the n mod k left over never tested)"
                 if cv.fold_size == "floor" else "")
        return f"{'stratified ' if cv.stratified else ''}{cv.folds}-fold cross-validation{floor}"
    if cv.kind == "holdout":
        return f"a {cv.fraction:g} holdout"
    return {"resubstitution": "resubstitution (train = test)",
            "loo": "leave-one-out"}[cv.kind]


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
    headers = (PER_CLASS_COLUMNS if fmt == "csv" else
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
    if fmt == "csv":
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
    headers = (TIMING_COLUMNS if fmt == "csv" else
               ["dataset", "classifier", "folds", "fit s (mean)", "predict s (mean)",
                "CPU s (mean)", "total s"])
    return render(rows, headers, fmt, caption="time per fold, in seconds (wall clock; CPU: "
                  "the fitting and predicting thread's)")


def _compared(frame, experiment: Experiment, baseline):
    spec = experiment.compare
    metric = spec.metric or experiment.metrics[0]
    return compare(frame, metric=metric, baseline=baseline, test=spec.test, alpha=spec.alpha,
                   lower_is_better=metric in LOWER_IS_BETTER, rope=spec.rope,
                   datasets=[d.name for d in experiment.datasets])


def write_comparison(out_dir, frame, experiment: Experiment, formats, baseline):
    """Write ``compare(frame, ...)`` with the experiment's ``compare`` settings in each format
    (a comparison that cannot be made is written as its one-line reason); CSV as one file per
    table (``comparison.csv`` the scores, ``comparison_<table>.csv`` the others). Return the
    files, the comparison (None if it could not be made) and the reason."""
    try:
        result, reason = _compared(frame, experiment, baseline), ""
    except BayesbenchError as exc:
        result, reason = None, f"no statistical comparison: {exc}"
    files = []
    for fmt in formats:
        if fmt == "csv" and result is not None:
            for table in comparison_tables(result, "csv"):
                stem = "comparison" if table.name == "scores" else f"comparison_{table.name}"
                files.append(Path(out_dir) / f"{stem}.csv")
                files[-1].write_text(render(table.rows, table.headers, "csv"))
            continue
        files.append(Path(out_dir) / f"comparison.{EXTENSIONS[fmt]}")
        files[-1].write_text(render_comparison(result, fmt) if result is not None else
                             render([[reason]], ["note"], "csv") if fmt == "csv" else reason + "\n")
    return files, result, reason


def write_arm_comparison(experiment: Experiment, runs, formats) -> list[Path]:
    """``<output>/comparison.*``: the classifiers of every arm of ``experiment`` compared,
    labelled ``<arm>/<classifier>``; ``runs`` holds each arm's ``(run_dir, records)``."""
    dirs = [Path(run_dir) for run_dir, _ in runs]
    metric = experiment.compare.metric or experiment.metrics[0]
    largest = [at_largest(records) for _, records in runs]  # a learning curve: its largest size
    frame = records_to_frame([records_for(metric, records, pooled_records(records),
                                          small_fold_datasets(records)) for records in largest],
                             run_names([d.resolve() for d in dirs]), failed=True, metrics=[metric])
    baseline = experiment.compare.baseline
    if baseline is not None and "/" not in baseline:
        baseline = f"{dirs[0].name}/{baseline}"
    return write_comparison(dirs[0].parent, frame, experiment, formats, baseline)[0]


class RunOutputs(NamedTuple):
    """What the end of a run wrote: the summary files, figures included, and report.html;
    ``figures_skipped`` when matplotlib is missing; the classifiers' warnings."""

    files: list
    report: Path
    figures_skipped: bool
    warnings: tuple[Warned, ...] = ()


def finalize_run(run_dir, experiment: Experiment, records, formats, held=None) -> RunOutputs:
    """The summary tables (:func:`write_run_summary`), the figures (the comparison's, the
    first fold's learned networks and, with kept predictions, the ROC, precision-recall and
    reliability curves, in ``<run>/figures``) and ``<run>/report.html``; ``held``: the
    predictions the session holds in memory (the others are read from their files)."""
    run_dir = Path(run_dir)
    every, largest = records, at_largest(records)  # a learning curve: its largest size
    # The prediction figures' curves (a sort of every kept row of each classifier) are
    # computed in a thread while the tables and the other figures are written: numpy
    # releases the GIL and the workers have finished, so the end of a run of a million rows
    # takes the longer of the two rather than their sum (benchmarks/bench_predictions.py).
    with ThreadPoolExecutor(1) as pool:
        curves = (pool.submit(prediction_curves, run_dir, task_order(largest, experiment),
                              [d.name for d in experiment.datasets],
                              [c.label for c in experiment.classifiers], held)
                  if experiment.predictions and plotting_available() else None)
        files, result, reason = write_run_summary(run_dir / "summary", experiment, every,
                                                  formats, held)
        drawn = draw_figures(run_dir, result, first_fold_networks(largest, experiment),
                             _arcs(task_order(largest, experiment), experiment))
        if has_curve(every):
            draw_learning_curves(run_dir, _curve(task_order(every, experiment), experiment),
                                 experiment.metrics, drawn)
        if curves is not None:
            draw_prediction_figures(run_dir, curves.result(), drawn)
    raised = tuple(warned(task_order(largest, experiment)))
    decomposed, sections = _bias_variance(run_dir, experiment, largest, formats, held)
    report = write_report(run_dir / REPORT, title=f"bayesbench: {experiment.name}",
                          protocol=protocol(experiment, every),
                          tables=metric_tables(experiment, largest), result=result,
                          reason=reason, drawn=drawn,
                          extra=sections + warning_sections(raised))
    return RunOutputs(files + decomposed + drawn.files, report, not plotting_available(), raised)


def _bias_variance(run_dir: Path, experiment: Experiment, records, formats, held=None):
    """The files and the report section of the bias-variance decomposition (none without
    ``evaluation``), from the predictions of ``held`` in memory and the others' files."""
    evaluation = experiment.evaluation
    if evaluation is None:
        return [], []
    ordered = task_order(records, experiment)
    datasets = _order(ordered, "dataset", [d.name for d in experiment.datasets])
    classifiers = _order(ordered, "classifier", [c.label for c in experiment.classifiers])
    rows = bias_variance.decomposition_rows(run_dir, ordered, datasets, classifiers, held)
    files = bias_variance.write_tables(run_dir / "summary", rows, evaluation, formats)
    figures = []
    if rows and plotting_available():
        drawn, figures = bias_variance.draw(run_dir, rows)
        files += drawn
    present = {(r[0], r[1]) for r in rows}
    missing = [(d, c) for d in datasets for c in classifiers if (d, c) not in present]
    return files, [bias_variance.section(rows, evaluation, figures, missing)]


def warning_sections(raised) -> list[Section]:
    """The report's section of the classifiers' warnings (none without any)."""
    if not raised:
        return []
    return [Section("Warnings", text="Warnings the classifiers raised in fit or predict, "
                                     "each once per data set and classifier, with the folds "
                                     "that raised it (also in summary/warnings.csv).",
                    tables=[Table("warnings", headers=WARNING_COLUMNS, rows=raised)])]


def metric_tables(experiment: Experiment, records) -> list[Table]:
    """Each metric's data sets x classifiers table, for the report page."""
    ordered = task_order(records, experiment)
    small, pooled = small_fold_datasets(ordered), pooled_records(ordered)
    datasets = _order(ordered, "dataset", [d.name for d in experiment.datasets])
    classifiers = _order(ordered, "classifier", [c.label for c in experiment.classifiers])
    tables = []
    for metric in experiment.metrics:
        rows, headers = metric_table(records_for(metric, ordered, pooled, small), metric,
                                     datasets, classifiers, "text", small)
        tables.append(Table(_metric_caption(metric, experiment, datasets, small),
                            headers=headers, rows=rows))
    return tables


def first_fold_networks(records, experiment: Experiment) -> list[Network]:
    """The learned networks the records of the first fold hold, in config order."""
    found = {(r["dataset"], r["classifier"]): r["network"] for r in records if r.get("network")}
    return [Network(d.name, c.label, found[d.name, c.label]) for d in experiment.datasets
            for c in experiment.classifiers if (d.name, c.label) in found]


def protocol(experiment: Experiment, records) -> list[tuple]:
    """What was run, for the report's protocol section."""
    pre, spec = experiment.preprocess, experiment.compare
    failed = sum(r["status"] != "ok" for r in records)
    return [("data sets", [d.name for d in experiment.datasets]),
            ("classifiers", [f"{c.label} ({c.learner}{_params(c.params)})"
                             for c in experiment.classifiers]),
            ("validation", _validation_words(experiment) if experiment.evaluation is None
                           else bias_variance.caption(experiment.evaluation)),
            ("preprocessing", f"impute {pre.impute}, discretize {pre.discretize}"
                              + (f" ({pre.bins} bins)" if pre.discretize in ("width", "frequency") else "")
                              + (f" (at most {pre.max_cuts} cuts)" if pre.discretize == "mdl"
                                 and pre.max_cuts is not None else "")
                              + f", fitted on the {'training fold' if pre.scope == 'fold' else 'whole data set'}"),
            ("seed", experiment.seed), ("metrics", list(experiment.metrics)),
            ("comparison", f"{spec.metric or experiment.metrics[0]}, baseline "
                           f"{spec.baseline or experiment.classifiers[0].label}, {spec.test}, "
                           f"alpha {spec.alpha:g}, rope {spec.rope:g}"),
            ("tasks", f"{len(records)} ({failed} failed)")]


def _params(params: dict) -> str:
    return "".join(f", {k}={v}" for k, v in params.items() if k != "random_state")
