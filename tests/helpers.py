"""Helpers that several test modules share, imported as ``helpers`` (fixtures live in conftest.py)."""
import numpy as np

from bayesbench.models.anb import AugmentedNaiveBayes
from bayesbench.models.structure import Node, Structure

# The fields of a record that vary between identical runs.
VARYING = ("fit_seconds", "predict_seconds", "checksum")


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
    """The core model over given nodes: the reference that the searches' engine must equal."""

    def __init__(self, nodes=(), alpha=1.0, weights=None):
        self.nodes = nodes
        self.alpha = alpha
        self.weights = weights

    def _learn_structure(self, X, y, cardinalities, n_classes):
        return Structure(tuple(self.nodes), X.shape[1])


def refit_scores(X, y, cards, k, alpha, folds, groups):
    """Held-out joint log-likelihood of every example, refitting on each training fold.

    ``groups`` are the model's nodes: attribute tuples (children of the class alone) or
    :class:`Node` objects (with attribute parents)."""
    nodes = [g if isinstance(g, Node) else Node(g) for g in groups]
    out = np.empty((len(y), k))
    for f in np.unique(folds):
        test = folds == f
        model = FixedStructure(nodes, alpha).fit(X[~test], y[~test], cardinalities=cards, n_classes=k)
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
