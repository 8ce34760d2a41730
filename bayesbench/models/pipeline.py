"""A classifier with transformers before it (a config's ``steps:``), fitted inside each
training fold: the transformers in turn on the training rows, the classifier on their
output; the test rows go through the fitted transformers only.

This is what scikit-learn's ``Pipeline`` does (``fit_transform`` on the training rows,
``transform`` on the others), without making scikit-learn a dependency of every run.
"""
from __future__ import annotations

from .registry import make_classifier, make_step


class Steps:
    """``transformers`` (each with ``fit`` and ``transform``), then ``classifier``."""

    def __init__(self, transformers, classifier):
        self.transformers = list(transformers)
        self.classifier = classifier

    def get_params(self, deep: bool = True) -> dict:
        return {"transformers": self.transformers, "classifier": self.classifier}

    def fit(self, X, y):
        for step in self.transformers:
            fit_transform = getattr(step, "fit_transform", None)
            X = fit_transform(X, y) if callable(fit_transform) else step.fit(X, y).transform(X)
        self.classifier.fit(X, y)
        return self

    def transform(self, X):
        """``X`` through the fitted transformers, as the classifier receives it."""
        for step in self.transformers:
            X = step.transform(X)
        return X

    def predict(self, X):
        return self.classifier.predict(self.transform(X))

    @property
    def predict_proba(self):
        # An attribute only when the classifier has one: the runner asks with getattr.
        if not callable(getattr(self.classifier, "predict_proba", None)):
            raise AttributeError("predict_proba")
        return lambda X: self.classifier.predict_proba(self.transform(X))

    @property
    def classes_(self):
        return self.classifier.classes_


def make_model(learner: str, params: dict, steps=()):
    """Classifier ``learner`` with ``params``, behind the ``steps`` (``(import path,
    params)`` pairs) when there are any; each part checked as the registry checks it."""
    model = make_classifier(learner, **params)
    if not steps:
        return model
    return Steps([make_step(name, **dict(step_params)) for name, step_params in steps], model)
