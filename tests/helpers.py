"""Test-only helpers shared by several test modules (imported as ``helpers``)."""
import numpy as np

from bayesbench.models.anb import AugmentedNaiveBayes
from bayesbench.models.structure import Node, Structure


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
