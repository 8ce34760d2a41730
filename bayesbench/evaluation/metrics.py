"""Multi-class classification metrics on class codes, in plain numpy.

Classes are the codes ``0..n_classes-1``. The confusion matrix has the true
classes as rows and the predicted classes as columns. Per-class precision,
recall (sensitivity), specificity and F1 are 0 where their denominator is 0
(scikit-learn's ``zero_division=0``). Macro averages run over the classes that
occur in the true or the predicted labels (scikit-learn's default label set);
weighted averages weight each class by its number of true examples.

Probability-based scores use the full ``(n, n_classes)`` matrix ``proba``:

- log loss: ``-mean log p(true class)``, with ``p`` clipped to ``[eps, 1]``
  (``eps`` the float64 machine epsilon, as scikit-learn does);
- Brier score: ``mean over examples of sum_k (p_k - [y = k])^2`` (Brier 1950;
  between 0 and 2);
- root mean squared error: ``sqrt(Brier score / n_classes)``, the square root of the mean
  over examples and classes of ``(p_k - [y = k])^2`` (Weka's and the AnDE papers' RMSE,
  docs/statistics.md); a record holds it only when the experiment names it
  (:data:`ON_REQUEST`);
- one-vs-rest AUC: the mean over classes having both positive and negative
  test examples of the area under the ROC curve of ``p_k`` for class ``k``
  against the rest (Mann-Whitney, ties counted one half); ``nan`` if no class
  qualifies.

Model scores (:data:`MODEL_SCORES`, bnclassify's ``loglik``, ``cll``, ``nparams``,
``AIC`` and ``BIC``) describe the fitted model on its own training fold (see
:mod:`bayesbench.models.core.scores`: AIC ``2 k - 2 LL`` and BIC ``k ln N - 2 LL``,
smaller is better). Only bayesbench's discrete Bayesian network classifiers have
them; for other classifiers, and for the likelihood-based ones under attribute
weights, a record leaves them out and tables show them empty.

Cohen's kappa is computed from the fold's confusion matrix
(:func:`bayesbench.stats.cohen_kappa`). ``cpu_seconds`` is not a score of the
predictions: it is the CPU time of the thread that fitted and scored the
classifier on the fold (``time.thread_time``), recorded beside the scores so
that the tables and comparisons treat it as one more "lower is better" metric.

Metrics of the confusion matrix (:data:`CONFUSION_METRICS`: the per-class
scores, their macro and weighted averages, kappa) are meaningless on a test
fold smaller than the number of classes (a leave-one-out fold holds one
example: its F1 of a class is 0 or 1). :func:`pooled` computes them from the
confusion matrix pooled over the folds of a repetition instead, with the same
code that scores one fold, so that a summary table and ``per_class`` cannot
disagree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..stats import cohen_kappa
from ..stats.multiple import average_ranks


@dataclass(frozen=True)
class Metric:
    """A score of a test fold: its name in table captions, its direction, and whether it
    reads the predicted probabilities (a classifier without ``predict_proba`` has none)."""

    title: str
    lower_is_better: bool = False
    needs_proba: bool = False
    model_score: bool = False
    # Held by a record only when the experiment names it, so that adding it to this list
    # left the records of every other experiment as they were.
    on_request: bool = False


# Every metric a record holds, in the order of the records' ``metrics``; config validation,
# the command line's help and the tables all read this one list.
METRICS = {"accuracy": Metric("accuracy"), "error": Metric("0/1 loss", True),
           "precision_macro": Metric("macro precision"), "recall_macro": Metric("macro recall"),
           "f1_macro": Metric("macro F1"), "precision_weighted": Metric("weighted precision"),
           "recall_weighted": Metric("weighted recall"), "f1_weighted": Metric("weighted F1"),
           "specificity_macro": Metric("macro specificity"),
           "log_loss": Metric("log loss", True, needs_proba=True),
           "brier": Metric("Brier score", True, needs_proba=True),
           "rmse": Metric("root mean squared error", True, needs_proba=True, on_request=True),
           "auc_ovr": Metric("one-vs-rest AUC", needs_proba=True), "kappa": Metric("Cohen's kappa"),
           "cpu_seconds": Metric("CPU seconds (fit and predict)", True),
           "loglik": Metric("training log-likelihood", model_score=True, on_request=True),
           "cll": Metric("training conditional log-likelihood", model_score=True,
                         on_request=True),
           "n_parameters": Metric("free parameters", True, model_score=True, on_request=True),
           "aic": Metric("AIC on the training data", True, model_score=True, on_request=True),
           "bic": Metric("BIC on the training data", True, model_score=True, on_request=True)}
METRIC_NAMES = tuple(METRICS)
LOWER_IS_BETTER = frozenset(name for name, m in METRICS.items() if m.lower_is_better)
PROBABILITY_METRICS = tuple(name for name, m in METRICS.items() if m.needs_proba)
# Scores of the fitted model on its training fold, not of the test predictions: computed only
# when an experiment asks for one (they cost an inference pass over the training rows).
MODEL_SCORES = tuple(name for name, m in METRICS.items() if m.model_score)
PREDICTION_METRICS = tuple(name for name in METRICS if name not in MODEL_SCORES)
# The prediction metrics a record holds only when the experiment names one (see Metric).
REQUESTED_SCORES = tuple(name for name in PREDICTION_METRICS if METRICS[name].on_request)
DEFAULT_METRICS = ("accuracy", "error", "precision_macro", "recall_macro", "f1_macro")
# The metrics a fold's confusion matrix alone determines, which are pooled over the folds of a
# repetition when its test folds are too small (see pooled); accuracy and error are too, but
# their mean over folds equals the pooled value already (up to unequal fold sizes).
CONFUSION_METRICS = ("precision_macro", "recall_macro", "f1_macro", "precision_weighted",
                     "recall_weighted", "f1_weighted", "specificity_macro", "kappa")

PER_CLASS = ("precision", "recall", "specificity", "f1")


def f_barrow2011(recall: float, specificity: float) -> float:
    """Paper 000's F-score of a class (its appendix, ``TestHarness.fscore``), from the class's
    recall and specificity: its "precision" is the class's true positive rate ``t``, its
    "recall" ``t / (t + f)`` with ``f`` the other class's false positive rate in its code,
    ``1 - specificity`` (the share of the other rows predicted as this class); F is their
    harmonic mean. It is not F1: the paper's printed .772 and .919 are this score of its
    printed error matrices."""
    recall_b = recall / (recall + 1 - specificity) if recall + 1 - specificity > 0 else 0.0
    total = recall + recall_b
    return 2 * recall * recall_b / total if total > 0 else 0.0


# Per-class scores computed, when read, from the ones a record stores (so that records keep
# the fields they had): their name and the function of (recall, specificity).
DERIVED_PER_CLASS = {"f_barrow2011": f_barrow2011}
_PER_CLASS_NAME = re.compile(rf"^({'|'.join((*PER_CLASS, *DERIVED_PER_CLASS))})\[(.+)\]$")


def class_score(per_class: dict, score: str, index: int):
    """Per-class ``score`` of the class at ``index`` in a record's (or a pooled matrix's)
    ``per_class`` scores; None where it has none."""
    if score in DERIVED_PER_CLASS:
        recall, specificity = (class_score(per_class, s, index) for s in ("recall", "specificity"))
        if recall is None or specificity is None:
            return None
        return DERIVED_PER_CLASS[score](float(recall), float(specificity))
    values = (per_class or {}).get(score)
    return None if values is None or index >= len(values) else values[index]


def per_class_metric(name: str) -> tuple[str, str] | None:
    """``(score, class name)`` for a per-class metric name such as ``f1[M]``, else None.

    Its value in a fold is ``per_class[score]`` of the record at the position of
    the class in the record's ``classes`` (e.g. paper 000's F-score of the
    malignant class of WDBC is ``f1[M]``).
    """
    match = _PER_CLASS_NAME.match(name) if isinstance(name, str) else None
    return (match.group(1), match.group(2)) if match else None


def is_metric(name) -> bool:
    """Whether ``name`` is a metric of :data:`METRICS` or a per-class score such as ``f1[M]``."""
    return name in METRICS or per_class_metric(name) is not None


def title(metric: str) -> str:
    """A metric's name in table captions (``f1[M]``: "F1 of class M")."""
    per_class = per_class_metric(metric)
    if per_class is not None:
        score, cls = per_class
        return f"{'F1' if score == 'f1' else score} of class {cls}"
    return METRICS[metric].title


def needs_pooling(name: str) -> bool:
    """Whether metric ``name`` comes from the confusion matrix (a per-class score or one of
    :data:`CONFUSION_METRICS`), and so is pooled over the folds when they are too small."""
    return name in CONFUSION_METRICS or per_class_metric(name) is not None


def record_metric(record: dict, name: str):
    """The value of metric ``name`` in a record (None if undefined or the class is absent)."""
    per_class = per_class_metric(name)
    if per_class is None:
        return record["metrics"].get(name)
    score, cls = per_class
    classes = record.get("classes") or []
    if cls not in classes:
        return None
    return class_score(record["per_class"], score, classes.index(cls))


def confusion_matrix(y_true, y_pred, n_classes: int) -> np.ndarray:
    """``(n_classes, n_classes)`` counts; rows are true classes, columns predicted ones."""
    y_true = np.asarray(y_true, dtype=np.int64)
    y_pred = np.asarray(y_pred, dtype=np.int64)
    flat = np.bincount(y_true * n_classes + y_pred, minlength=n_classes * n_classes)
    return flat.reshape(n_classes, n_classes)


def _ratio(num, den):
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros_like(num)
    np.divide(num, den, out=out, where=den > 0)
    return out


def per_class_scores(cm: np.ndarray) -> dict[str, np.ndarray]:
    """Precision, recall, specificity and F1 of every class from a confusion matrix."""
    cm = np.asarray(cm, dtype=np.float64)
    tp = np.diag(cm)
    true_count = cm.sum(axis=1)
    pred_count = cm.sum(axis=0)
    total = cm.sum()
    fp = pred_count - tp
    fn = true_count - tp
    tn = total - tp - fp - fn
    precision = _ratio(tp, pred_count)
    recall = _ratio(tp, true_count)
    return {"precision": precision, "recall": recall,
            "specificity": _ratio(tn, tn + fp),
            "f1": _ratio(2 * tp, 2 * tp + fp + fn)}


def log_losses(y_true, proba) -> np.ndarray:
    """Each example's ``-log p(true class)`` (the terms of :func:`log_loss`, which a run
    over chunks sums chunk by chunk)."""
    y_true = np.asarray(y_true, dtype=np.int64)
    p = np.clip(np.asarray(proba, dtype=np.float64), np.finfo(np.float64).eps, 1.0)
    p = p / p.sum(axis=1, keepdims=True)
    return -np.log(p[np.arange(y_true.size), y_true])


def log_loss(y_true, proba) -> float:
    return float(np.mean(log_losses(y_true, proba)))


def brier_losses(y_true, proba) -> np.ndarray:
    """Each example's ``sum_k (p_k - [y = k])^2`` (the terms of :func:`brier_score`)."""
    y_true = np.asarray(y_true, dtype=np.int64)
    proba = np.asarray(proba, dtype=np.float64)
    onehot = np.zeros_like(proba)
    onehot[np.arange(y_true.size), y_true] = 1.0
    return np.sum((proba - onehot) ** 2, axis=1)


def brier_score(y_true, proba) -> float:
    return float(np.mean(brier_losses(y_true, proba)))


def rmse_of_brier(brier: float, n_classes: int) -> float:
    """The root mean squared error of the probabilities, from their Brier score: the mean
    over examples of ``sum_k (p_k - [y = k])^2`` divided by the classes, under a root."""
    return float(np.sqrt(brier / n_classes))


def binary_auc(positive: np.ndarray, score: np.ndarray) -> float:
    """Area under the ROC curve of ``score`` for the boolean labels ``positive``."""
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = average_ranks(score)
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def auc_ovr(y_true, proba) -> float:
    y_true = np.asarray(y_true, dtype=np.int64)
    proba = np.asarray(proba, dtype=np.float64)
    aucs = [binary_auc(y_true == k, proba[:, k]) for k in range(proba.shape[1])]
    aucs = [a for a in aucs if not np.isnan(a)]
    return float(np.mean(aucs)) if aucs else float("nan")


def confusion_scores(cm: np.ndarray) -> tuple[dict, dict]:
    """``(metrics, per_class)`` of a confusion matrix: accuracy, error, the macro and
    weighted averages, kappa, and the per-class scores (:func:`per_class_scores`)."""
    cm = np.asarray(cm)
    per_class = per_class_scores(cm)
    true_count = cm.sum(axis=1)
    present = (true_count + cm.sum(axis=0)) > 0
    n = cm.sum()
    metrics = {"accuracy": float(np.trace(cm) / n) if n else float("nan")}
    metrics["error"] = 1.0 - metrics["accuracy"]
    for name in ("precision", "recall", "f1"):
        metrics[f"{name}_macro"] = float(per_class[name][present].mean())
        metrics[f"{name}_weighted"] = float(np.sum(per_class[name] * true_count) / n)
    metrics["specificity_macro"] = float(per_class["specificity"][present].mean())
    metrics["kappa"] = cohen_kappa(cm) if n else float("nan")
    return metrics, per_class


def pooled(cm: np.ndarray, classes, name: str) -> float:
    """Metric ``name`` (one of :data:`CONFUSION_METRICS` or a per-class score such as
    ``f1[M]``) of the confusion matrix ``cm`` pooled over folds; NaN if the class is absent."""
    metrics, per_class = confusion_scores(cm)
    score_class = per_class_metric(name)
    if score_class is None:
        return metrics[name]
    score, cls = score_class
    classes = list(classes)
    return float(class_score(per_class, score, classes.index(cls))) if cls in classes else \
        float("nan")


def evaluate(y_true, y_pred, proba, n_classes: int) -> dict:
    """Every score of one test fold's predictions.

    Returns ``{"confusion": ndarray, "metrics": {name: float}, "per_class":
    {name: ndarray}}`` with the metric names of :data:`PREDICTION_METRICS` but
    ``cpu_seconds``, which the caller measures (a record keeps those of
    :data:`REQUESTED_SCORES` only when asked); with ``proba`` None (a classifier
    without probabilities), those of :data:`PROBABILITY_METRICS` are NaN.
    """
    y_true = np.asarray(y_true, dtype=np.int64)
    y_pred = np.asarray(y_pred, dtype=np.int64)
    cm = confusion_matrix(y_true, y_pred, n_classes)
    metrics, per_class = confusion_scores(cm)
    if proba is None:
        metrics.update(dict.fromkeys(PROBABILITY_METRICS, float("nan")))
    else:
        metrics["log_loss"] = log_loss(y_true, proba)
        metrics["brier"] = brier_score(y_true, proba)
        metrics["rmse"] = rmse_of_brier(metrics["brier"], n_classes)
        metrics["auc_ovr"] = auc_ovr(y_true, proba)
    return {"confusion": cm, "metrics": metrics, "per_class": per_class}
