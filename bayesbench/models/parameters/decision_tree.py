"""A small unpruned decision tree over discrete attributes, for AWNB's attribute depths.

Hall (2007) weights an attribute by how close to the root unpruned decision
trees first test it (:mod:`.weighting`). The tree grown here is ID3's
(Quinlan 1986): at each node, the attribute of largest information gain

    gain(A) = H(C) - sum_a p(A = a) H(C | A = a)

(natural logarithms, counts of the node's rows) is tested with one branch per
value, and the node stays a leaf when it is pure, holds fewer than two rows or
no attribute has a positive gain. Equal gains (to 12 decimals) go to the lowest
attribute index. An attribute never varies within a branch that tested it, so a
path tests each attribute at most once.

A row missing the tested attribute (code -1) is left out of that attribute's
gain, which is then scaled by the observed share of the node's rows (C4.5's
rule), and follows the branch holding most of the node's observed rows (rpart's
default without surrogates).

Hall grew C4.5 trees and bnclassify grows rpart's binary trees; on binary
attributes with distinct gains ID3's tree is scikit-learn's
``DecisionTreeClassifier(criterion="entropy")`` cut where a split gains nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...measures.ties import tie_safe

@dataclass(frozen=True)
class TreeNode:
    """One node of the tree: ``attribute`` is None for a leaf.

    ``children[v]`` is the subtree of the rows whose tested attribute has value
    ``v``; ``class_counts`` are the node's rows per class; ``depth`` is 1 at
    the root.
    """

    depth: int
    class_counts: tuple[int, ...]
    attribute: int | None = None
    children: tuple["TreeNode", ...] = ()


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy of each row of ``counts`` (last axis), in nats; 0 for an empty row."""
    total = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(total > 0, counts / total, 0.0)
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return -terms.sum(axis=-1)


def information_gains(X: np.ndarray, y: np.ndarray, cardinalities, n_classes: int) -> np.ndarray:
    """Information gain of every attribute on the rows ``(X, y)``, missing values left out.

    ``gain_j = (observed share) * (H(C) - sum_a p(a) H(C | a))`` over the rows
    where attribute ``j`` is observed; shape ``(m,)``.
    """
    n, m = X.shape
    cards = np.asarray(cardinalities, dtype=np.int64)
    width = cards + 1  # one extra slot per attribute for the missing value
    offsets = np.concatenate([[0], np.cumsum(width * n_classes)[:-1]])
    values = np.where(X < 0, cards, X)
    key = offsets[None, :] + values * n_classes + y[:, None]
    flat = np.bincount(key.ravel(), minlength=int(np.sum(width * n_classes)))
    gains = np.zeros(m)
    for j in range(m):
        table = flat[offsets[j]:offsets[j] + width[j] * n_classes].reshape(width[j], n_classes)
        observed = table[:cards[j]]
        n_obs = observed.sum()
        if n_obs == 0:
            continue
        per_value = observed.sum(axis=1)
        before = _entropy(observed.sum(axis=0))
        after = np.sum(per_value / n_obs * _entropy(observed.astype(np.float64)))
        gains[j] = n_obs / n * (before - after)
    return gains


def grow_tree(X: np.ndarray, y: np.ndarray, cardinalities, n_classes: int) -> TreeNode:
    """The unpruned ID3 tree of ``(X, y)`` (codes, -1 missing) described in the module docstring."""
    X = np.asarray(X, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    cards = [int(c) for c in cardinalities]
    return _grow(X, y, cards, n_classes, np.arange(X.shape[0]), 1)


def _grow(X, y, cards, n_classes, rows, depth) -> TreeNode:
    counts = np.bincount(y[rows], minlength=n_classes)
    leaf = TreeNode(depth, tuple(int(c) for c in counts))
    if rows.size < 2 or np.count_nonzero(counts) < 2 or X.shape[1] == 0:
        return leaf
    gains = tie_safe(information_gains(X[rows], y[rows], cards, n_classes))
    best = int(np.argmax(gains))
    if gains[best] <= 0:
        return leaf
    values = X[rows, best]
    observed = values >= 0
    per_value = np.bincount(values[observed], minlength=cards[best])
    values = np.where(observed, values, int(np.argmax(per_value)))
    children = tuple(_grow(X, y, cards, n_classes, rows[values == v], depth + 1)
                     for v in range(cards[best]))
    return TreeNode(depth, leaf.class_counts, best, children)


def first_test_depths(tree: TreeNode, n_attributes: int) -> np.ndarray:
    """Depth (root 1) at which each attribute is first tested; ``inf`` if never."""
    depths = np.full(n_attributes, np.inf)
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.attribute is not None:
            depths[node.attribute] = min(depths[node.attribute], node.depth)
            stack.extend(node.children)
    return depths
