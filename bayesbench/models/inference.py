"""Inference in an augmented naive Bayes: sum log-probabilities over nodes.

``log p(c, x) = log p(c) + sum over nodes v of log p(x_v | x_pa(v), c)``,
gathered for all rows at once per node (one fancy-indexing step per node).

Missing values are left out of the product: a node whose value, or one of
whose parents, is missing in a row contributes nothing for that row (the
marginal over that attribute, exact for naive Bayes and for a leaf node).
A value beyond the cardinality known at ``fit`` is a value never seen in
training: with ``unseen`` tables it gets the smoothed probability of a zero
count; a parent value beyond it makes the parent configuration unseen, whose
smoothed distribution is uniform and the same for every class, so that node
is left out.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import ClassifierError
from .counting import clean_columns, compact_codes, mixed_radix, slotted_radix
from .structure import Structure


def node_log_probs(structure: Structure, tables: Sequence[np.ndarray], X: np.ndarray,
                   cardinalities: Sequence[int] | None = None,
                   unseen: Sequence[np.ndarray] | None = None):
    """Yield, per node, the ``(n_samples, n_classes)`` term ``log p(x_v | x_pa(v), c)``.

    Rows where the node is left out (see the module docstring) hold 0.
    """
    cards = structure.cardinalities if cardinalities is None else cardinalities
    if cards is None:
        raise ClassifierError("the structure carries no cardinalities; pass them")
    cards = np.asarray(cards, dtype=np.int64)
    X = compact_codes(X, cards)
    clean = clean_columns(X, cards)
    for k, (node, table) in enumerate(zip(structure.nodes, tables)):
        n_classes, n_pa, n_val = table.shape
        flat = table.reshape(n_classes, n_pa * n_val).T
        cols = list(node.parents) + list(node.attributes)
        if clean[cols].all():
            # The common case: nothing missing or unknown, one gather.
            yield flat[slotted_radix(X, cols, cards, clean)[0]]
            continue
        pa, pa_missing, pa_beyond = mixed_radix(X, node.parents, cards)
        val, val_missing, val_beyond = mixed_radix(X, node.attributes, cards)
        skip = pa_missing | pa_beyond | val_missing
        rows = [flat, np.zeros((1, n_classes))]
        idx = pa * n_val + val
        idx[skip] = n_pa * n_val
        new = val_beyond & ~skip
        if new.any():
            if unseen is None:
                idx[new] = n_pa * n_val
            else:
                rows.append(unseen[k].T)
                idx[new] = n_pa * n_val + 1 + pa[new]
        yield np.concatenate(rows)[idx]


def joint_log_likelihood(structure: Structure, tables: Sequence[np.ndarray], X: np.ndarray,
                         log_prior: np.ndarray, *, cardinalities: Sequence[int] | None = None,
                         unseen: Sequence[np.ndarray] | None = None,
                         plain: bool = False,
                         node_weights: Sequence[float] | None = None) -> np.ndarray:
    """Unnormalised ``log p(c, x)`` for every row, shape ``(n_samples, n_classes)``.

    Parameters
    ----------
    structure : Structure
        With ``cardinalities`` set (or pass ``cardinalities``).
    tables : list of ndarray
        Log-probability tables, one per node (:func:`counting.node_tables`).
    X : ndarray of int, shape (n_samples, n_attributes)
        Codes, ``-1`` missing.
    log_prior : ndarray, shape (n_classes,)
    unseen : list of ndarray, optional
        Per node, ``log p(unseen value | pa, c)`` (:func:`counting.unseen_log_prob`).
    plain : bool
        Multiply plain probabilities instead of adding logs (paper 004's
        non-log modes); the product can underflow to 0, then every class of
        that row gets ``-inf``.
    node_weights : sequence of float, optional
        One exponent per node (attribute weighting: AWNB, WANBIA):
        ``log p(c) + sum_v w_v log p(x_v | x_pa(v), c)``; default all 1.
    """
    n = X.shape[0]
    terms = node_log_probs(structure, tables, X, cardinalities, unseen)
    if node_weights is not None:
        # A weight of 0 drops the node, even where its term is -inf (alpha = 0).
        terms = (w * t if w else np.zeros_like(t) for w, t in zip(node_weights, terms))
    if plain:
        prob = np.tile(np.exp(log_prior), (n, 1))
        for term in terms:
            prob *= np.exp(term)
        with np.errstate(divide="ignore"):
            return np.log(prob)
    jll = np.tile(np.asarray(log_prior, dtype=np.float64), (n, 1))
    for term in terms:
        jll += term
    return jll
