"""Inference in an augmented naive Bayes: sum log-probabilities over nodes.

``log p(c, x) = log p(c) + sum over nodes v of log p(x_v | x_pa(v), c)``.

Every node's table is one segment of a single flat table (one row per cell, one
column per class), so that each node's term for each row is one entry of a
combined index: the segment's offset plus the mixed-radix code of the node's
parents and values. The indices of all nodes are computed at once, digit by
digit over the whole code matrix, and the terms of a block of rows are one
``take`` from the flat table, summed over the nodes in node order (the class
prior first), as the term-by-term sum always was: the result is the same to the
bit.

Missing values are left out of the product: a node whose value, or one of
whose parents, is missing in a row contributes nothing for that row (the
marginal over that attribute, exact for naive Bayes and for a leaf node).
A value beyond the cardinality known at ``fit`` is a value never seen in
training: with ``unseen`` tables it gets the smoothed probability of a zero
count; a parent value beyond it makes the parent configuration unseen, whose
smoothed distribution is uniform and the same for every class, so that node
is left out. A left-out term indexes a row of zeros of the flat table.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ...errors import ClassifierError
from .structure import Structure

# Rows whose terms are gathered at a time: nodes x rows x classes floats that stay in cache
# (and under a megabyte, so that a block does not get fresh pages from the system each time).
_ROWS = 1024


class _FlatTables:
    """The tables of all nodes as one ``(cells, n_classes)`` array, and how to index it.

    Rows: each node's table (parent configuration major, value minor), then its
    unseen-value row per parent configuration (when ``unseen`` is given), then one
    row of zeros (a left-out term) and the class prior. Digit ``d`` of every node's
    index is the code of column ``columns[d]`` times ``multipliers[d]`` (0 for the
    leading digits a node with fewer columns lacks).
    """

    def __init__(self, structure, tables, cards, unseen, log_prior, node_weights, plain):
        segments, bases, unseen_bases = [], [], []
        size = 0
        for k, table in enumerate(tables):
            n_classes, n_pa, n_val = table.shape
            part = [table.reshape(n_classes, n_pa * n_val).T]
            bases.append(size)
            unseen_bases.append(size + n_pa * n_val)
            if unseen is not None:
                part.append(unseen[k].T)
            part = np.concatenate(part) if len(part) > 1 else part[0]
            if node_weights is not None:
                # A weight of 0 drops the node, even where its term is -inf (alpha = 0).
                w = node_weights[k]
                part = w * part if w else np.zeros_like(part)
            segments.append(part)
            size += part.shape[0]
        prior = np.asarray(log_prior, dtype=np.float64)
        self.zero, self.prior = size, size + 1
        table = np.concatenate(segments + [np.zeros((1, prior.size)), prior[None, :]])
        self.table = np.exp(table) if plain else table
        self.has_unseen = unseen is not None
        self.bases = np.asarray(bases, dtype=np.intp)
        self.unseen_bases = np.asarray(unseen_bases, dtype=np.intp)
        self._digits(structure, cards)

    def _digits(self, structure, cards):
        nodes = structure.nodes
        width = max((len(n.parents) + len(n.attributes) for n in nodes), default=0)
        shape = (width, len(nodes))
        self.columns = np.zeros(shape, dtype=np.intp)
        self.multipliers = np.zeros(shape, dtype=np.intp)
        # Per digit: the column's cardinality (codes at or beyond it are unknown; a huge
        # one for an absent digit), whether it is a value (else a parent), and real.
        self.limits = np.full(shape, np.iinfo(np.intp).max, dtype=np.intp)
        self.is_value = np.zeros(shape, dtype=bool)
        self.real = np.zeros(shape, dtype=bool)
        self.n_values = np.ones(len(nodes), dtype=np.intp)
        for v, node in enumerate(nodes):
            cols = list(node.parents) + list(node.attributes)
            mult = 1
            for d, c in zip(range(width - 1, width - 1 - len(cols), -1), reversed(cols)):
                self.columns[d, v], self.multipliers[d, v] = c, mult
                self.limits[d, v], self.real[d, v] = cards[c], True
                mult *= int(cards[c])
            self.is_value[width - len(node.attributes):, v] = True
            self.n_values[v] = int(np.prod([cards[a] for a in node.attributes], dtype=np.int64))
        self.is_value &= self.real
        # Digits that need no gather (node v reads column v) or no multiplication.
        everything = np.arange(structure.n_attributes)
        self.identity = [np.array_equal(c, everything) for c in self.columns]
        self.ones = [bool((m == 1).all()) for m in self.multipliers]

    def index(self, X: np.ndarray) -> np.ndarray:
        """Rows of :attr:`table` of every node's term for every row of ``X``, shape
        ``(1 + nodes, rows)``: the prior's row first."""
        n = X.shape[0]
        index = np.empty((1 + self.bases.size, n), dtype=np.intp)
        index[0] = self.prior
        out = index[1:]
        # One cast of the block's codes, attribute major, so that a node's digits are rows.
        codes = X.T.astype(np.intp, order="C")
        first = True
        for cols, mult, identity, ones in zip(self.columns, self.multipliers,
                                              self.identity, self.ones):
            digit = codes if identity else codes.take(cols, axis=0)
            if not ones:
                # In place unless the digit is the codes themselves.
                digit = np.multiply(digit, mult[:, None], out=None if identity else digit)
            if first:
                np.add(digit, self.bases[:, None], out=out)
                first = False
            else:
                out += digit
        if first:
            out[...] = self.bases[:, None]
        # A missing code (-1) read as unsigned is beyond every limit, so one maximum per
        # column finds both kinds of value that must be left out.
        if n and (codes.view(np.uintp).max(axis=1) >= self._column_limits(codes.shape[0])).any():
            self._left_out(codes, out)
        return index

    def _column_limits(self, n_columns):
        """Each column's cardinality (no limit for a column no node reads)."""
        limits = np.full(n_columns, np.iinfo(np.uintp).max, dtype=np.uintp)
        limits[self.columns[self.real]] = self.limits[self.real]
        return limits

    def _left_out(self, codes, out):
        """Point the terms of missing or unknown values at the zero row, or an unseen row
        (``codes`` attribute major, as ``out``)."""
        skip = np.zeros(out.shape, dtype=bool)
        new = np.zeros(out.shape, dtype=bool)
        for cols, limits, is_value, real in zip(self.columns, self.limits, self.is_value,
                                                self.real):
            digit = codes.take(cols, axis=0)
            beyond = digit >= limits[:, None]
            skip |= ((digit < 0) & real[:, None]) | (beyond & ~is_value[:, None])
            new |= beyond & is_value[:, None]
        new &= ~skip
        out[skip] = self.zero
        if not new.any():
            return
        if not self.has_unseen:
            out[new] = self.zero
            return
        parents = np.zeros(out.shape, dtype=np.intp)
        for cols, mult, is_value in zip(self.columns, self.multipliers, self.is_value):
            parents += codes.take(cols, axis=0) * np.where(is_value, 0, mult)[:, None]
        unseen = self.unseen_bases[:, None] + parents // self.n_values[:, None]
        out[new] = unseen[new]


def _flat_tables(structure, tables, cardinalities, unseen=None, log_prior=(),
                 node_weights=None, plain=False) -> _FlatTables:
    cards = structure.cardinalities if cardinalities is None else cardinalities
    if cards is None:
        raise ClassifierError("the structure carries no cardinalities; pass them")
    return _FlatTables(structure, tables, np.asarray(cards, dtype=np.int64), unseen,
                       log_prior, node_weights, plain)


def flat_terms(structure: Structure, tables: Sequence[np.ndarray], log_prior: np.ndarray,
               X: np.ndarray, cardinalities: Sequence[int] | None = None):
    """The terms of ``log p(c, x)`` as one table and an index into it: ``(table, index)``.

    ``table`` has one row per cell of every node's table (parent configuration major,
    value minor, node after node), then a row of zeros (the term of a left-out node) and
    the class prior, one column per class; ``index[v, i]`` is the row holding node
    ``v - 1``'s term for row ``i`` of ``X`` (``v = 0``: the prior's row), so that
    ``table[index].sum(axis=0)`` is :func:`joint_log_likelihood`. A value beyond the
    cardinality known at ``fit`` reads the zero row.
    """
    flat = _flat_tables(structure, tables, cardinalities, None, log_prior)
    return flat.table, flat.index(np.asarray(X))


def node_log_probs(structure: Structure, tables: Sequence[np.ndarray], X: np.ndarray,
                   cardinalities: Sequence[int] | None = None,
                   unseen: Sequence[np.ndarray] | None = None):
    """Yield, per node, the ``(n_samples, n_classes)`` term ``log p(x_v | x_pa(v), c)``.

    Rows where the node is left out (see the module docstring) hold 0.
    """
    flat = _flat_tables(structure, tables, cardinalities, unseen,
                        np.zeros(tables[0].shape[0] if tables else 0))
    index = flat.index(np.asarray(X))
    for row in index[1:]:
        yield flat.table.take(row, axis=0)


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
    X = np.asarray(X)
    flat = _flat_tables(structure, tables, cardinalities, unseen, log_prior, node_weights,
                        plain)
    out = np.empty((X.shape[0], flat.table.shape[1]))
    # The reduction over the first axis adds (multiplies) the terms one node after the other.
    combine = np.multiply if plain else np.add
    for lo in range(0, X.shape[0], _ROWS):
        terms = flat.table.take(flat.index(X[lo:lo + _ROWS]), axis=0)
        combine.reduce(terms, axis=0, out=out[lo:lo + _ROWS])
    if plain:
        with np.errstate(divide="ignore"):
            return np.log(out)
    return out
