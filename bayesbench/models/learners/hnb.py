"""Hidden naive Bayes (HNB).

Jiang, Zhang and Cai (2009), "A novel Bayes model: hidden naive Bayes", IEEE Transactions on
Knowledge and Data Engineering 21(10), 1361-1371 (first as Zhang, Jiang and Su 2005, AAAI);
Weka 3.6's ``weka.classifiers.bayes.HNB``.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...measures.information import value_offsets, weka_conditional_information_matrix
from ..core.input_checks import check_discrete_predict_X
from .aode import WekaAODE

# Floats gathered at a time: one child's (attributes, rows, classes) terms, a few megabytes.
_TERMS = 1 << 18


class HNB(WekaAODE):
    """Hidden naive Bayes: each attribute's parent is a hidden mixture of all the others.

    ::

        p(c, x) ∝ p(c) prod_i p(x_i | c, h_i),
        p(x_i | c, h_i) = sum_{j != i} W_ij p(x_i | c, x_j) / sum_{j != i} W_ij

    with ``W_ij = I(X_i; X_j | C)`` in bits, the weight of attribute ``j`` in the hidden
    parent of ``i``. Where the weights of an attribute's other present attributes sum to 0,
    its term is naive Bayes's ``p(x_i | c)``. The probabilities are Weka's m-estimates with
    ``m = 1``: ``p(c) = (N(c) + 1 / K) / (N + 1)``,
    ``p(x_i | c, x_j) = (N(c, x_j, x_i) + 1 / r_i) / (N(c, x_j) + 1)`` and
    ``p(x_i | c) = (N(c, x_i) + 1 / r_i) / (N(c) + 1)`` (``K`` classes, ``r_i`` the values
    of attribute ``i``); ``W_ij`` is computed as Weka does
    (:func:`~bayesbench.measures.information.weka_conditional_information_matrix`: a term
    of the sum is 0 where a probability product is below 1e-6).

    A missing value (which Weka refuses) leaves its attribute out: of the product, and of
    every hidden parent (the weights are those of the attributes present), the counts
    taken over the rows where the attributes involved are present.

    Weka's HNB has no options, nor has this learner. The tables are
    :class:`~.aode.AODE`'s (with the m-estimates above); each row costs
    ``O(m^2 K)``, as one of AODE.

    Attributes
    ----------
    As :class:`~.aode.AODE`, and:
    hidden_weights_ : ndarray of shape (n_features, n_features)
        ``W_ij``, symmetric, zero diagonal.
    """

    def _set_tables(self, pairs, class_counts, cards, names):
        super()._set_tables(pairs, class_counts, cards, names)
        self.hidden_weights_ = weka_conditional_information_matrix(pairs, self.class_counts_,
                                                                   cards)
        self.structure_ = replace(self.structure_, info={
            "learner": "hnb", "hidden_weights": self.hidden_weights_.tolist()})

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        k = len(self.classes_)
        starts, table, _ = self._slotted_tables()
        # The hidden parents mix probabilities, not their logarithms (every m-estimate is
        # positive, and far from underflow).
        table = np.exp(table)
        cards = self.cardinalities_
        # Naive Bayes's log p(x_i = a | c) of every value, at [s_i + a, c].
        values = value_offsets(cards)
        attribute_counts = np.repeat(np.add.reduceat(self.class_value_counts_, values[:-1],
                                                     axis=1) if cards.size else
                                     np.zeros((k, 0)), cards, axis=1)
        naive = np.log((self.class_value_counts_ + 1.0 / np.repeat(cards, cards))
                       / (attribute_counts + 1.0)).T
        prior = np.log((self.class_counts_ + 1.0 / k) / (self.class_counts_.sum() + 1.0))
        jll = np.empty((X.shape[0], k))
        # Blocks of rows bound the (attributes, rows, classes) gather of one child.
        rows = max(1, _TERMS // max(1, cards.size * table.shape[1]))
        for lo in range(0, X.shape[0], rows):
            hi = min(X.shape[0], lo + rows)
            jll[lo:hi] = prior + self._children(X[lo:hi], starts, table, values, naive)
        return jll

    def _children(self, X, starts, table, values, naive):
        """``sum_i log p(x_i | c, h_i)`` of each row of ``X``, ``(rows, n_classes)``: per child
        attribute one gather of ``p(x_i | c, x_j)`` for every ``j`` at once, mixed with the
        weights of the ``j`` present."""
        cards, k = self.cardinalities_, len(self.classes_)
        slots = int(starts[-1])
        present = (X >= 0) & (X < cards)
        slot = np.where(present, X, cards) + starts[:-1]               # (rows, attributes)
        parent = np.ascontiguousarray(slot.T)
        value = np.where(present, X, 0) + values[:-1]
        out = np.zeros((X.shape[0], k))
        complete = bool(present.all())
        for i in range(cards.size):
            terms = table.take(parent + slot[:, i] * slots, axis=0)   # (attributes, rows, K)
            if complete:
                # Every row has every parent: one weighted sum over them for all rows.
                total = np.full(X.shape[0], self.hidden_weights_[i].sum())
                mixed = np.tensordot(self.hidden_weights_[i], terms, axes=1)[:, :k]
            else:
                weights = present * self.hidden_weights_[i]            # (rows, attributes)
                total = weights.sum(axis=1)
                mixed = np.einsum("jrc,rj->rc", terms, weights)[:, :k]
            with np.errstate(divide="ignore", invalid="ignore"):
                term = np.where(total[:, None] > 0, np.log(mixed / total[:, None]),
                                naive.take(value[:, i], axis=0))
            out += np.where(present[:, i, None], term, 0.0)
        return out
