"""Incremental cross-validated accuracy of augmented naive Bayes models, for the wrappers.

A wrapper search scores hundreds of candidate structures, each by stratified
k-fold accuracy on the training data. Refitting every candidate on every fold
is wasteful, because the model is a product of independent node tables:

    log p(c, x) = log p(c) + sum over nodes v of log p(x_v | x_pa(v), c)

and each table depends only on its own counts (of its node and parents). So the engine

* assigns the inner folds once and counts, per node, the ``(fold, class,
  value)`` table with one ``np.bincount``; the counts of the training part of
  fold ``j`` are ``total - fold_j`` (counts are additive);
* turns them into each test example's contribution ``log p(x_v | c)`` under the
  model trained without its fold, an ``(n, n_classes)`` array per node;
* scores a candidate by adding or subtracting contributions from the current
  total and counting the examples whose ``argmax`` is their class.

Removing a single-attribute node costs one subtraction; joining two nodes, or
taking one attribute out of a joined node, one ``bincount`` over the new
node's code plus a subtraction and an addition; giving a node another parent
(TAN and kDB searches, :meth:`InnerCV.family`) one ``bincount`` over the
``(fold, class, parent configuration, value)`` index. Every estimate is the
exact held-out accuracy that refitting would give.

Smoothing is additive with the outer model's ``alpha``: ``p(v | c) = (n_cv +
alpha) / (n_c + alpha r_v)`` with ``r_v`` the declared cardinality of the node
(the product for a joined node) and ``n_c`` the class count among the training
rows where the node is observed, and ``p(c) = (n_c + alpha) / (n + alpha r_C)``.
A missing value (code -1) in a node removes that node from the example's
product, as marginalising it out would.

Accuracy is pooled over the folds (correct predictions / examples), kept as an
integer so that "strictly better" is exact. Ties in ``argmax`` go to the lowest
class code, as in :meth:`BaseClassifier.predict`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.fold_assignment import kfold_assignment
from ...measures.codes import check_table_size

#: Count cells of the candidates one bincount of :meth:`InnerCV.join_contributions` takes.
_BATCH_CELLS = 2 ** 21

#: Memory of one stack of candidate scores (``n x n_classes`` floats each), see
#: :meth:`InnerCV.correct_stacked`.
_STACK_BYTES = 32 * 2 ** 20


#: Most classes for which :func:`count_correct` compares class columns instead of ``argmax``.
_MAX_COMPARED_CLASSES = 8


def count_correct(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Examples whose highest score (lowest class on ties) is their class, per leading index.

    ``scores`` has shape ``(..., n, n_classes)``, with no NaN. With few classes
    element-wise comparisons of the class columns replace ``argmax`` over the
    short last axis (which works one example at a time), several times faster:
    an example is correct when its own class's score equals the highest one and
    no lower class reaches it, exactly ``argmax``'s first-maximum rule.
    """
    n_classes = scores.shape[-1]
    if n_classes == 2:
        return np.count_nonzero((scores[..., 1] > scores[..., 0]) == (y == 1), axis=-1)
    if n_classes > _MAX_COMPARED_CLASSES:
        return np.count_nonzero(np.argmax(scores, axis=-1) == y, axis=-1)
    top = scores[..., 0].copy()
    for c in range(1, n_classes):
        np.maximum(top, scores[..., c], out=top)
    # Each example's own score, one gather over the flattened (example, class) cells.
    n = scores.shape[-2]
    own = scores.reshape(scores.shape[:-2] + (n * n_classes,))[
        ..., np.arange(n) * n_classes + y]
    correct = own == top
    for c in range(n_classes - 1):
        # A lower class that reaches the top wins the tie.
        correct &= ~((scores[..., c] == top) & (y > c))
    return np.count_nonzero(correct, axis=-1)


def stratified_fold_ids(y: np.ndarray, n_folds: int, rng: np.random.Generator) -> np.ndarray:
    """Inner fold of each example, dealt as the runner deals outer stratified folds.

    Shuffled within class, classes end to end, dealt round robin
    (:mod:`bayesbench.data.fold_assignment`): each class is spread over the folds
    as evenly as possible and fold sizes differ by at most one.
    """
    return kfold_assignment(np.asarray(y), int(n_folds), rng, stratified=True)


@dataclass
class NodeScore:
    """One node of a semi-naive model, as the engine sees it.

    ``codes`` are the node's joint values relabelled ``0..m-1`` (-1 missing),
    ``cardinality`` the declared number of joint values (a Python int, as a
    product of many cardinalities can exceed 2**63), and ``contribution`` the
    ``(n, n_classes)`` held-out log-likelihood ``log p(x_v | c)`` of each example.
    """

    attributes: tuple[int, ...]
    codes: np.ndarray
    n_values: int
    cardinality: int
    contribution: np.ndarray


class InnerCV:
    """Held-out log-likelihood contributions of nodes over seeded stratified folds.

    Parameters
    ----------
    X : int array (n, d), codes with -1 for missing
    y : int array (n,), class codes ``0..n_classes-1``
    cardinalities : sequence of int
    n_classes : int
    alpha : float > 0
        Additive smoothing, the same as the outer model's.
    n_folds : int >= 2
        More folds than examples hold the same folds as one per example (leave-one-out:
        the examples are dealt to folds ``0 .. n - 1`` either way), so at most ``n`` are
        kept: the tables are sized by the folds, and ``inner_folds: 1e9`` asked for
        billions of them.
    rng : numpy Generator that places the examples into folds
    """

    def __init__(self, X, y, cardinalities, n_classes: int, alpha: float, n_folds: int,
                 rng: np.random.Generator):
        self.X = X
        self.y = y
        self.cardinalities = [int(r) for r in cardinalities]
        self.n_classes = int(n_classes)
        self.alpha = float(alpha)
        self.n_folds = min(int(n_folds), max(len(y), 1))
        self.folds = stratified_fold_ids(y, self.n_folds, rng)
        # Scratch index (fold, class) of every example, shared by every bincount.
        self._fold_class = self.folds * self.n_classes + y
        class_counts = np.bincount(self._fold_class, minlength=self.n_folds * self.n_classes)
        class_counts = class_counts.reshape(self.n_folds, self.n_classes)
        train = class_counts.sum(axis=0)[None, :] - class_counts
        log_prior = (np.log(train + self.alpha)
                     - np.log(train.sum(axis=1, keepdims=True) + self.alpha * self.n_classes))
        self.log_prior = log_prior[self.folds]

    @property
    def n(self) -> int:
        return self.y.shape[0]

    def _contribution(self, codes: np.ndarray, n_values: int, cardinality: int,
                      parents: np.ndarray | None = None, n_parent_values: int = 1,
                      attributes=()) -> np.ndarray:
        """Held-out ``log p(x_v | c)``, or ``log p(x_v | x_pa, c)`` given parents' joint codes.

        ``attributes`` (the node's and its parents' positions) name the table when it would
        exceed the limit of :func:`~bayesbench.measures.codes.check_table_size`.
        """
        k, rc = self.n_folds, self.n_classes
        check_table_size((n_parent_values, n_values, rc, k), attributes)
        if parents is None:
            parents = np.zeros_like(codes)
        observed = (codes >= 0) & (parents >= 0)
        all_observed = observed.all()
        key = (self._fold_class * n_parent_values + parents) * n_values + codes
        size = k * rc * n_parent_values * n_values
        counts = np.bincount(key if all_observed else key[observed],
                             minlength=size).reshape(k, rc, n_parent_values, n_values)
        train = counts.sum(axis=0)[None] - counts
        # Float cardinality: alpha * r stays finite for any join found in practice.
        denom = np.log(train.sum(axis=3) + self.alpha * float(cardinality))
        log_table = np.log(train + self.alpha) - denom[..., None]
        if all_observed:
            return log_table[self.folds, :, parents, codes]
        out = np.zeros((self.n, rc))
        out[observed] = log_table[self.folds[observed], :, parents[observed], codes[observed]]
        return out

    def _combine(self, a_codes, a_values, b_codes, b_values, compact):
        """Codes of the Cartesian product, ``a * m_b + b``, -1 where either is missing.

        With ``compact``, or when the product has more than ``4 n`` values,
        they are relabelled to the values present, so that repeated joins
        stay within ``n`` values (and int64).
        """
        missing = (a_codes < 0) | (b_codes < 0)
        codes = a_codes * b_values + b_codes
        n_values = a_values * b_values
        if missing.any():
            codes[missing] = -1
        if compact or n_values > 4 * self.n:
            observed = codes >= 0
            values, inverse = np.unique(codes[observed], return_inverse=True)
            codes = np.full(self.n, -1, dtype=np.int64)
            codes[observed] = inverse.reshape(-1)
            n_values = max(int(values.size), 1)
        return codes, n_values

    def _joint_codes(self, attributes):
        """Sorted attributes, their joint codes, number of codes and declared cardinality."""
        attributes = tuple(sorted(int(j) for j in attributes))
        codes = np.asarray(self.X[:, attributes[0]], dtype=np.int64)
        n_values = cardinality = self.cardinalities[attributes[0]]
        for j in attributes[1:]:
            r = self.cardinalities[j]
            codes, n_values = self._combine(codes, n_values,
                                            np.asarray(self.X[:, j], dtype=np.int64), r,
                                            compact=j == attributes[-1])
            cardinality *= r
        return attributes, codes, n_values, cardinality

    def group(self, attributes) -> NodeScore:
        """The node holding ``attributes`` (one attribute, or their Cartesian product)."""
        attributes, codes, n_values, cardinality = self._joint_codes(attributes)
        return NodeScore(attributes, codes, n_values, cardinality,
                         self._contribution(codes, n_values, cardinality,
                                            attributes=attributes))

    def family(self, attributes, parents) -> np.ndarray:
        """Held-out ``log p(x_attributes | x_parents, c)`` of each example, ``(n, n_classes)``.

        The node's table given its attribute parents (TAN, kDB): counts per
        (fold, class, parent configuration, value), smoothed over the node's
        declared values, as :mod:`~bayesbench.models.core.counting` does for the final model. A row
        missing a value of the node or of a parent contributes 0.
        """
        attributes, codes, n_values, cardinality = self._joint_codes(attributes)
        if not parents:
            return self._contribution(codes, n_values, cardinality, attributes=attributes)
        parents, parent_codes, n_parent_values, _ = self._joint_codes(parents)
        return self._contribution(codes, n_values, cardinality, parent_codes, n_parent_values,
                                  attributes=parents + attributes)

    def join(self, a: NodeScore, b: NodeScore, *, compact: bool = False) -> NodeScore:
        """The Cartesian-product node of ``a`` and ``b`` (codes compacted if ``compact``)."""
        codes, n_values = self._combine(a.codes, a.n_values, b.codes, b.n_values, compact)
        cardinality = a.cardinality * b.cardinality
        attributes = tuple(sorted(a.attributes + b.attributes))
        return NodeScore(attributes, codes, n_values, cardinality,
                         self._contribution(codes, n_values, cardinality, attributes=attributes))

    def join_contributions(self, a: NodeScore, others) -> list[np.ndarray]:
        """The ``contribution`` of :meth:`join` ``(a, b)`` for each ``b`` in ``others``, equal to it
        to the last bit: the gathers of :meth:`join_gathers`, done."""
        return [rows.take(where, axis=0) for rows, where in self.join_gathers(a, others)]

    def join_gathers(self, a: NodeScore, others) -> list[tuple[np.ndarray, np.ndarray]]:
        """The ``contribution`` of :meth:`join` ``(a, b)`` for each ``b`` in ``others`` as a
        gather still to do, ``rows.take(where, axis=0)``: the held-out log table, one row per
        (joint value, fold), and the row of each example (a sixth of the contribution's memory,
        so that a search can keep every candidate's), the counts of many from one ``bincount``.

        The joint codes of every pair come from one array operation (a product
        of more than ``4 n`` values is relabelled by :meth:`_combine`, one at a
        time). The batch lays every candidate's counts out as ``(value, fold,
        class)`` blocks, so that the training counts and their sums over values,
        all integers, come out of a few array operations for all candidates at
        once; the logarithms are then taken as :meth:`_contribution` takes them.
        Each table is checked against the limit first, in the order of ``others``.
        A batch's candidates share its ``rows``; their ``where`` are views of one block.
        """
        if not others:
            return []
        sizes = [a.n_values * b.n_values for b in others]
        cards = [a.cardinality * b.cardinality for b in others]
        # Python ints: only products within 4 n (so within int64) are combined in bulk.
        bulk = [t for t, size in enumerate(sizes) if size <= 4 * self.n]
        # One row per candidate, so that each candidate's gather reads a contiguous index.
        codes = np.empty((len(others), self.n), dtype=np.int64)
        if bulk:
            b_codes = np.stack([others[t].codes for t in bulk])
            widths = np.array([others[t].n_values for t in bulk], dtype=np.int64)
            joint = a.codes * widths[:, None]
            joint += b_codes
            if a.codes.min() < 0 or b_codes.min() < 0:
                joint[(b_codes < 0) | (a.codes < 0)] = -1
            codes[bulk] = joint
        for t, size in enumerate(sizes):
            if size > 4 * self.n:
                b = others[t]
                codes[t], sizes[t] = self._combine(a.codes, a.n_values, b.codes, b.n_values, False)
        for t, b in enumerate(others):
            check_table_size((1, sizes[t], self.n_classes, self.n_folds),
                             tuple(sorted(a.attributes + b.attributes)))
        out, lo = [], 0
        while lo < len(sizes):
            # Candidates whose counts together fit in _BATCH_CELLS (at least one).
            hi, cells = lo + 1, sizes[lo]
            while hi < len(sizes) and (cells + sizes[hi]) * self.n_folds * self.n_classes \
                    <= _BATCH_CELLS:
                cells += sizes[hi]
                hi += 1
            rows, where = self._log_rows(codes[lo:hi], sizes[lo:hi], cards[lo:hi])
            out += [(rows, column) for column in where]
            lo = hi
        return out

    def _log_rows(self, codes, sizes, cards) -> tuple[np.ndarray, np.ndarray]:
        """The log tables of the joint ``codes`` (one candidate a row), stacked as rows of
        ``n_classes`` with a zero row last, and the row each example of each candidate reads
        (the zero row where its value is missing)."""
        k, rc = self.n_folds, self.n_classes
        offsets = np.cumsum([0] + sizes)
        observed = codes >= 0
        complete = bool(observed.all())
        # In place: these index arrays are the batch's largest temporaries.
        where = codes + offsets[:-1, None]
        where *= k
        where += self.folds
        index = where * rc
        index += self.y
        counts = np.bincount(index.reshape(-1) if complete else index[observed],
                             minlength=int(offsets[-1]) * k * rc)
        counts = counts.reshape(-1, k, rc)                           # (value, fold, class)
        train = counts.sum(axis=1, keepdims=True) - counts
        per_value = np.add.reduceat(train, offsets[:-1], axis=0)      # (candidate, fold, class)
        denom = np.log(per_value + self.alpha * np.array([float(c) for c in cards])[:, None, None])
        log_table = np.log(train + self.alpha) - np.repeat(denom, sizes, axis=0)
        # One gather for every candidate and example; a missing value reads the zero row.
        rows = np.concatenate([log_table.reshape(-1, rc), np.zeros((1, rc))])
        if not complete:
            where[~observed] = rows.shape[0] - 1
        if rows.shape[0] <= np.iinfo(np.int32).max:
            where = where.astype(np.int32)
        return rows, where

    def correct(self, scores: np.ndarray) -> int:
        """Number of examples whose highest-scoring class is their own."""
        return int(np.count_nonzero(np.argmax(scores, axis=1) == self.y))

    def per_stack(self) -> int:
        """Candidates per stack of :meth:`correct_stacked`."""
        return max(1, _STACK_BYTES // max(self.n * self.n_classes * 8, 1))

    def correct_stacked(self, count: int, fill) -> list[int]:
        """:meth:`correct` of candidates ``0..count-1``, a stack of them at a time (small data
        spends its time on per-array overhead, not on arithmetic). ``fill(t, out)`` writes
        candidate ``t``'s scores into ``out``."""
        out, per = [], self.per_stack()
        for lo in range(0, count, per):
            stack = np.empty((min(per, count - lo), self.n, self.n_classes))
            for t in range(stack.shape[0]):
                fill(lo + t, stack[t])
            out += count_correct(stack, self.y).tolist()
        return out
