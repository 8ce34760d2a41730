"""Helpers that several test modules share, imported as ``helpers`` (fixtures live in conftest.py)."""
import numpy as np

from bayesbench.models.anb import AugmentedNaiveBayes
from bayesbench.models.structure import Node, Structure

# The fields of a record that vary between identical runs.
VARYING = ("fit_seconds", "predict_seconds", "tune_seconds", "checksum")


def without_timings(record: dict) -> dict:
    """A record minus the fields that vary between identical runs (timings, checksum)."""
    return {k: v for k, v in record.items() if k not in VARYING}


def stable_order(records: list[dict]) -> list[dict]:
    """Records sorted by (data set, repetition, fold, classifier)."""
    return sorted(records, key=lambda r: (r["dataset"], r["repetition"], r["fold"],
                                          r["classifier"]))


def run(config, **options):
    """Run a loaded config, its run options replaced by ``options``; the result of its one run."""
    from dataclasses import replace

    from bayesbench.experiment import run_experiment

    [result] = run_experiment(config.experiment, replace(config.options, **options))
    return result


def small_config(uci_dir, tmp_path, **over):
    """A small experiment on iris and lenses (``over`` replaces top-level keys), into
    ``tmp_path/out``; gnb fails on lenses, which has no numeric attribute."""
    from bayesbench.config import parse_config

    raw = {"name": "t", "seed": 3, "data_dirs": [str(uci_dir)],
           "datasets": ["iris", "lenses"], "cv": {"folds": 4, "repeats": 2},
           "classifiers": ["nb", "gnb", {"name": "fss", "params": {"inner_folds": 3}}],
           "output": str(tmp_path / "out")}
    raw.update(over)
    return parse_config(raw, base_dir=tmp_path)



def random_codes(rng, n, cards, missing=0.0):
    X = np.column_stack([rng.integers(0, c, n) for c in cards])
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X


class FixedStructure(AugmentedNaiveBayes):
    """The core model over given groups: the reference that the engine must equal."""

    def __init__(self, groups=(), alpha=1.0):
        self.groups = groups
        self.alpha = alpha

    def _learn_structure(self, X, y, cardinalities, n_classes):
        return Structure(tuple(Node(g) for g in self.groups), X.shape[1])


def refit_scores(X, y, cards, k, alpha, folds, groups):
    """Held-out joint log-likelihood of every example, refitting on each training fold."""
    out = np.empty((len(y), k))
    for f in np.unique(folds):
        test = folds == f
        model = FixedStructure(groups, alpha).fit(X[~test], y[~test], cardinalities=cards, n_classes=k)
        out[test] = model._joint_log_likelihood(X[test])
    return out


def random_data(seed, n=150, cards=(3, 2, 4, 3, 2), k=3, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = np.column_stack([(y * (j + 1) + rng.integers(0, r, n) * (rng.random(n) < 0.6)) % r
                         for j, r in enumerate(cards)])
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X, y, list(cards), k


# Classifiers that break the contract, named by import path (`helpers:Unseen`) in tests.
class Majority:
    """Predicts the most frequent training class; no predict_proba."""

    def __init__(self, *, shift=0):
        self.shift = shift

    def get_params(self, deep=True):
        return {"shift": self.shift}

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_ + self.shift)


class Unseen(Majority):
    """Predicts a label it never saw in training."""

    def __init__(self, *, shift=7):
        self.shift = shift


class Raises(Majority):
    """Fails in fit, as a buggy estimator would."""

    def fit(self, X, y):
        raise RuntimeError("singular matrix in fold")


class NoFit:
    """Has predict but no fit."""

    def predict(self, X):
        return np.zeros(len(X))


class NeedsArgument(Majority):
    """A constructor with a required argument."""

    def __init__(self, depth):
        self.depth = depth
