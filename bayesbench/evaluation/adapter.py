"""The runner's side of the classifier contract (``docs/plugins.md``), for any classifier.

A classifier is fitted on class codes ``0..n_classes-1`` and given ``cardinalities=``
and ``n_classes=`` only when its ``fit`` names them. What it returns is read
defensively and aligned to the data set's classes:

- ``predict`` must return, for each test row, a class seen in the training part;
  bayesbench's own learners predict the most probable class, so for them the argmax
  of ``predict_proba`` is the prediction and ``predict`` is not called twice;
- ``predict_proba``, if the classifier has one, has a column per class of its
  ``classes_``; a class that the training part lacked gets a column of zeros, so that
  the columns are the data set's classes in every fold. Without it the probability
  metrics are not computed (:data:`~.metrics.PROBABILITY_METRICS`).

Warnings raised while fitting and predicting are kept (once each), not printed, so
that worker processes do not write over the progress line.
"""
from __future__ import annotations

import inspect
import time
import warnings
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..errors import BayesbenchError, ClassifierError
from ..models.core.base import BaseClassifier

MAX_WARNINGS = 5


@dataclass(frozen=True)
class Outcome:
    """A classifier fitted and applied to a test part: predicted class codes, class
    probabilities aligned to the data set's classes (None without ``predict_proba``),
    seconds (wall clock; ``cpu_seconds`` the fitting and predicting thread's CPU time), and
    the distinct warnings raised."""

    labels: np.ndarray
    proba: np.ndarray | None
    fit_seconds: float
    predict_seconds: float
    warnings: tuple[str, ...] = ()
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class FitContext:
    """What a classifier's ``fit`` may be told besides the rows (:func:`fit_options`): the
    number of classes, each attribute's cardinality (class codes only) and the columns'
    names (for an array, to a ``fit`` that takes them: bayesbench's own learners,
    :func:`~bayesbench.models.core.base.fresh_fit`, which then need no DataFrame to learn
    the attributes' names)."""

    n_classes: int
    cardinalities: Sequence[int] | None = None
    feature_names: Sequence[str] | None = None


def fit_options(clf, *, cardinalities=None, n_classes=None, feature_names=None) -> dict:
    """The keyword arguments of ``clf.fit`` among ``cardinalities``, ``n_classes`` and
    ``feature_names``: those its signature names (and that are given)."""
    try:
        named = inspect.signature(clf.fit).parameters
    except (TypeError, ValueError):  # a fit without a readable signature: give nothing extra
        return {}
    offered = {"cardinalities": cardinalities, "n_classes": n_classes,
               "feature_names": feature_names}
    return {k: v for k, v in offered.items() if v is not None and k in named}


def fit_predict(clf, X_train, y_train, X_test, context: FitContext, *,
                statistics=None) -> Outcome:
    """Fit ``clf`` on ``(X_train, y_train)`` (class codes), told what its ``fit`` takes of
    ``context``, and predict ``X_test``.

    With ``statistics`` (the training part's counts), ``clf.fit_statistics(statistics)``
    fits it instead, the same model without the rows (``X_train`` and ``y_train`` are then
    not read, and may be None).
    """
    n_classes = context.n_classes
    if statistics is not None:
        # The training part's classes, as its rows would give them.
        y_train = np.flatnonzero(statistics.class_counts)
    y_train = np.asarray(y_train, dtype=np.int64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cpu, t0 = time.thread_time(), time.perf_counter()
        if statistics is not None:
            clf.fit_statistics(statistics)
        else:
            clf.fit(X_train, y_train, **fit_options(
                clf, cardinalities=context.cardinalities, n_classes=n_classes,
                feature_names=context.feature_names))
        t1 = time.perf_counter()
        proba = aligned_proba(clf, X_test, n_classes)
        if proba is not None and isinstance(clf, BaseClassifier):
            labels = proba.argmax(axis=1)
        else:
            labels = predicted_codes(clf, X_test, y_train)
        t2 = time.perf_counter()
        # This thread's CPU time: tasks in other threads of the same worker do not count.
        cpu = time.thread_time() - cpu
    seen = dict.fromkeys(f"{w.category.__name__}: {str(w.message).splitlines()[0]}"
                         for w in caught)
    return Outcome(labels, proba, t1 - t0, t2 - t1, tuple(seen)[:MAX_WARNINGS], cpu)


def aligned_proba(clf, X, n_classes: int) -> np.ndarray | None:
    """``clf.predict_proba(X)`` as an ``(n, n_classes)`` array whose column ``k`` is class
    code ``k`` (zeros for a class ``clf`` never saw); None without ``predict_proba``."""
    if not callable(getattr(clf, "predict_proba", None)):
        return None
    proba = np.asarray(clf.predict_proba(X), dtype=np.float64)
    classes = getattr(clf, "classes_", None)
    classes = np.arange(proba.shape[-1]) if classes is None else np.asarray(classes)
    if proba.shape != (len(X), classes.size) or not np.isfinite(proba).all():
        raise BayesbenchError(f"predict_proba returned an unusable array of shape "
                              f"{proba.shape} (non-finite values or wrong shape)")
    if classes.size == n_classes and np.array_equal(classes, np.arange(n_classes)):
        return proba
    if (classes.dtype.kind not in "iu" or np.unique(classes).size != classes.size
            or (classes.size and (classes.min() < 0 or classes.max() >= n_classes))):
        raise ClassifierError(f"classes_ {_shown(classes)} are not class codes "
                              f"0..{n_classes - 1} of the training part")
    out = np.zeros((proba.shape[0], n_classes))
    out[:, classes] = proba
    return out


def predicted_codes(clf, X, y_train: np.ndarray) -> np.ndarray:
    """``clf.predict(X)``, checked to name a class of the training part for every row."""
    labels = np.asarray(clf.predict(X))
    if labels.shape != (len(X),):
        raise ClassifierError(f"predict returned an array of shape {labels.shape} for "
                              f"{len(X)} rows")
    seen = np.unique(y_train)
    known = np.isin(labels, seen) if labels.dtype.kind in "iuf" else np.zeros(len(labels), bool)
    if not known.all():
        raise ClassifierError(f"predict returned labels not seen in training: "
                              f"{_shown(np.unique(labels[~known]))} (the training part's "
                              f"classes are {_shown(seen)})")
    return labels.astype(np.int64)


def _shown(values, most: int = 5) -> str:
    items = [repr(v.item() if isinstance(v, np.generic) else v) for v in values[:most]]
    return ", ".join(items) + (", ..." if len(values) > most else "")
