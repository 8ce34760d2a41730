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

In a general network (:class:`~.structure.Structure` with ``augmented=False``) a node the
class is not a parent of has a table of one "class" row, the same term for every class,
and the class's own term ``log p(c | x_pa(c))`` is a row of its table (one row per
configuration of its parents: the prior's row in an augmented naive Bayes). The
posterior of the class needs only the terms that depend on it: the class's own and its
children's, the factors of its Markov blanket (``blanket=True`` leaves the others out).

Missing values follow one of two rules (:data:`MISSING_RULES`, the ``missing`` parameter of
the learners with one network):

``skip``
    A node whose value, or one of whose parents, is missing in a row contributes nothing
    for that row (nor does the class's own term when one of its parents is). That is the
    exact marginal over the missing attribute when the node is a leaf (naive Bayes:
    always); when a missing attribute is another node's parent, that node's term is
    dropped too, which no marginal does.
``exact``
    The missing attributes are summed out of an augmented naive Bayes (:mod:`.marginal`;
    a general network's learner, ``bayesnet``, fills them in first), rows that miss the
    same attributes together: ``p(c, x_observed)``, the sum over every value of
    the missing attributes of the complete row's joint, what exact inference in the
    exported network gives. Where every missing attribute's node is a leaf (or only has
    missing descendants) both rules give the same numbers, to the bit.

A value beyond the cardinality known at ``fit`` is a value never seen in
training: with ``unseen`` tables it gets the smoothed probability of a zero
count; a parent value beyond it makes the parent configuration unseen, whose
smoothed distribution is uniform and the same for every class, so that node
is left out (under ``exact`` too: summed over its own missing value, such a node then
counts once per value, or once when barren, a factor the same for every class that leaves
the posterior as its uniform distribution would). A left-out term indexes a row of zeros of
the flat table.
"""
from __future__ import annotations

import functools
import math
from typing import NamedTuple, Sequence

import numpy as np

from ...errors import ClassifierError
from . import marginal
from .constraints import StrOptions
from .structure import Structure

#: The rules for a missing value at prediction (see the module docstring), and the
#: constraint of the ``missing`` parameter that chooses among them.
MISSING_RULES = ("skip", "exact")
MISSING_CONSTRAINT = [StrOptions(MISSING_RULES)]

# Rows whose terms are gathered at a time: at least _ROWS, and as many as keep the nodes x
# rows x classes floats of a block in cache (under _BLOCK_BYTES, so that a block does not get
# fresh pages from the system each time).
_ROWS = 1024
_BLOCK_BYTES = 1 << 20


def _block_rows(terms: int, n_classes: int) -> int:
    """The rows of a block whose rows have ``terms`` terms of ``n_classes`` classes each."""
    return max(_ROWS, _BLOCK_BYTES // max(1, 8 * terms * n_classes))


class _FlatTables:
    """The tables of all nodes as one ``(cells, n_classes)`` array, and how to index it.

    Rows: each node's table (parent configuration major, value minor), then its
    unseen-value row per parent configuration (when ``unseen`` is given), then one
    row of zeros (a left-out term) and the class's table (the prior, or one row per
    configuration of the class's parents). Digit ``d`` of every node's index is the code
    of column ``columns[d]`` times ``multipliers[d]`` (0 for the leading digits a node
    with fewer columns lacks).
    """

    def __init__(self, structure, tables, cards, unseen, log_prior, node_weights, plain):
        prior = np.asarray(log_prior, dtype=np.float64)
        prior = prior.reshape(-1, prior.shape[-1]) if prior.size else prior.reshape(1, 0)
        segments, bases, unseen_bases = [], [], []
        size = 0
        for k, table in enumerate(tables):
            n_classes, n_pa, n_val = table.shape
            part = [table.reshape(n_classes, n_pa * n_val).T]
            bases.append(size)
            unseen_bases.append(size + n_pa * n_val)
            if unseen is not None:
                part.append(unseen[k].T)
            if n_classes < prior.shape[1] or node_weights is not None:
                part = np.concatenate(part) if len(part) > 1 else part[0]
                if n_classes < prior.shape[1]:  # a node the class is not a parent of
                    part = np.repeat(part, prior.shape[1], axis=1)
                if node_weights is not None:
                    # A weight of 0 drops the node, even where its term is -inf (alpha = 0).
                    w = node_weights[k]
                    part = w * part if w else np.zeros_like(part)
                part = [part]
            segments += part  # the table's rows then its unseen rows, copied once below
            size += sum(piece.shape[0] for piece in part)
        self.zero, self.prior = size, size + 1
        table = np.concatenate(segments + [np.zeros((1, prior.shape[1])), prior])
        self.table = np.exp(table) if plain else table
        self.has_unseen = unseen is not None
        self.bases = np.asarray(bases, dtype=np.intp)
        self.unseen_bases = np.asarray(unseen_bases, dtype=np.intp)
        class_parents = structure.class_parents
        self.class_parents = np.asarray(class_parents, dtype=np.intp)
        self.class_radix = np.ones(len(class_parents), dtype=np.intp)
        for d in range(len(class_parents) - 2, -1, -1):
            self.class_radix[d] = self.class_radix[d + 1] * int(cards[class_parents[d + 1]])
        self.class_limits = np.asarray([cards[p] for p in class_parents], dtype=np.intp)
        self.cardinalities = cards
        self._digits(structure, cards)

    def _digits(self, structure, cards):
        (self.columns, self.multipliers, self.limits, self.is_value, self.real,
         self.n_values, self.identity, self.ones) = _digit_plan(
            tuple(structure.nodes), tuple(int(c) for c in cards), int(structure.n_attributes))

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
        if self.class_parents.size:
            index[0] += self._class_configuration(codes)
        return index

    def _class_configuration(self, codes):
        """Offset of the row of the class's table for each row of ``codes``: its parents'
        configuration, or the zero row's (before the table) when one of them is missing or
        unknown (an unseen configuration's distribution is uniform: no term)."""
        digits = codes.take(self.class_parents, axis=0)
        config = (digits * self.class_radix[:, None]).sum(axis=0)
        bad = ((digits < 0) | (digits >= self.class_limits[:, None])).any(axis=0)
        config[bad] = self.zero - self.prior
        return config

    def node_rows(self, v: int, codes: dict) -> np.ndarray:
        """Rows of :attr:`table` of node ``v``'s term where its columns hold ``codes``
        (``{column: codes}``, arrays of one shape; no code missing), with the rules of
        :meth:`_left_out` for values beyond a column's cardinality."""
        index, parents = self.bases[v], 0
        skip = new = False
        for d in np.flatnonzero(self.real[:, v]):
            code = codes[self.columns[d, v]]
            digit = code * self.multipliers[d, v]
            index = index + digit
            beyond = code >= self.limits[d, v]
            if self.is_value[d, v]:
                new = new | beyond
            else:
                skip = skip | beyond
                parents = parents + digit
        index = np.where(skip, self.zero, index)
        new = new & ~skip
        if np.any(new):
            unseen = (self.unseen_bases[v] + parents // self.n_values[v] if self.has_unseen
                      else self.zero)
            index = np.where(new, unseen, index)
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


@functools.lru_cache(maxsize=64)
def _digit_plan(nodes: tuple, cards: tuple, n_attributes: int):
    """:class:`_FlatTables`' digits of ``nodes`` over columns of ``cards`` values, once per
    structure (the folds of a data set mostly share one; every array read-only): per
    digit and node the column, its multiplier, its cardinality (codes at or beyond it are
    unknown; a huge one for an absent digit), whether it is a value (else a parent), and
    whether it is real; each node's number of values; and which digits need no gather
    (node ``v`` reads column ``v``) or no multiplication."""
    width = max((len(n.parents) + len(n.attributes) for n in nodes), default=0)
    shape = (width, len(nodes))
    columns = np.zeros(shape, dtype=np.intp)
    multipliers = np.zeros(shape, dtype=np.intp)
    limits = np.full(shape, np.iinfo(np.intp).max, dtype=np.intp)
    is_value = np.zeros(shape, dtype=bool)
    real = np.zeros(shape, dtype=bool)
    n_values = np.ones(len(nodes), dtype=np.intp)
    for v, node in enumerate(nodes):
        cols = list(node.parents) + list(node.attributes)
        mult = 1
        for d, c in zip(range(width - 1, width - 1 - len(cols), -1), reversed(cols)):
            columns[d, v], multipliers[d, v] = c, mult
            limits[d, v], real[d, v] = cards[c], True
            mult *= int(cards[c])
        is_value[width - len(node.attributes):, v] = True
        n_values[v] = math.prod(int(cards[a]) for a in node.attributes)
    is_value &= real
    everything = np.arange(n_attributes)
    identity = tuple(np.array_equal(c, everything) for c in columns)
    ones = tuple(bool((m == 1).all()) for m in multipliers)
    for array in (columns, multipliers, limits, is_value, real, n_values):
        array.flags.writeable = False
    return columns, multipliers, limits, is_value, real, n_values, identity, ones


class _Blanket(NamedTuple):
    """The factors of a structure's class's Markov blanket, read as a structure is: its
    nodes the class is a parent of (their parents need not be nodes here)."""

    nodes: tuple
    n_attributes: int
    class_parents: tuple
    cardinalities: tuple | None


def _blanket(structure, tables, unseen, node_weights):
    """``structure``, ``tables``, ``unseen`` and ``node_weights`` less the nodes the class is
    not a parent of."""
    keep = [k for k, node in enumerate(structure.nodes) if node.class_parent]
    if len(keep) == len(structure.nodes):
        return structure, tables, unseen, node_weights
    return (_Blanket(tuple(structure.nodes[k] for k in keep), structure.n_attributes,
                     structure.class_parents, structure.cardinalities),
            [tables[k] for k in keep], None if unseen is None else [unseen[k] for k in keep],
            None if node_weights is None else [node_weights[k] for k in keep])


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
                         node_weights: Sequence[float] | None = None,
                         missing: str = "skip", blanket: bool = False) -> np.ndarray:
    """Unnormalised ``log p(c, x)`` for every row, shape ``(n_samples, n_classes)``.

    Parameters
    ----------
    structure : Structure
        With ``cardinalities`` set (or pass ``cardinalities``).
    tables : list of ndarray
        Log-probability tables, one per node (:func:`counting.node_tables`).
    X : ndarray of int, shape (n_samples, n_attributes)
        Codes, ``-1`` missing.
    log_prior : ndarray, shape (n_classes,) or (n_class_parent_configs, n_classes)
        The class's table: its prior, or given the configuration of
        ``structure.class_parents`` (mixed radix, the first parent most significant).
    unseen : list of ndarray, optional
        Per node, ``log p(unseen value | pa, c)`` (:func:`counting.unseen_log_prob`).
    plain : bool
        Multiply plain probabilities instead of adding logs (paper 004's
        non-log modes); the product can underflow to 0, then every class of
        that row gets ``-inf``.
    node_weights : sequence of float, optional
        One exponent per node (attribute weighting: AWNB, WANBIA):
        ``log p(c) + sum_v w_v log p(x_v | x_pa(v), c)``; default all 1.
    missing : {"skip", "exact"}
        The rule for a missing value (see the module docstring); ``exact`` takes no
        ``node_weights``.
    blanket : bool
        Leave out the nodes the class is not a parent of: their terms are the same for
        every class, so the result is ``log p(c, x)`` less a constant of the row, with the
        same posterior (the class's Markov blanket's factors only).
    """
    X = np.asarray(X)
    if missing == "exact" and not getattr(structure, "augmented", True):
        raise ClassifierError("missing='exact' sums the missing values out of an augmented "
                              "naive Bayes; a general network's learner (bayesnet) fills "
                              "them in before inference")
    if blanket:
        structure, tables, unseen, node_weights = _blanket(structure, tables, unseen,
                                                           node_weights)
    flat = _flat_tables(structure, tables, cardinalities, unseen, log_prior, node_weights,
                        plain)
    out = np.empty((X.shape[0], flat.table.shape[1]))
    # The reduction over the first axis adds (multiplies) the terms one node after the other.
    combine = np.multiply if plain else np.add
    step = _block_rows(flat.bases.size + 1, flat.table.shape[1])
    for lo in range(0, X.shape[0], step):
        terms = flat.table.take(flat.index(X[lo:lo + step]), axis=0)
        combine.reduce(terms, axis=0, out=out[lo:lo + step])
    if plain:
        with np.errstate(divide="ignore"):
            out = np.log(out)
    if missing not in MISSING_RULES:
        raise ClassifierError(f"missing must be one of {', '.join(MISSING_RULES)}, "
                              f"got {missing!r}")
    if missing == "exact":
        if node_weights is not None:
            raise ClassifierError("missing='exact' sums a network over the missing values; "
                                  "a model with attribute weights is no network")
        _sum_out_missing(flat, structure, X, out)
    return out


def _sum_out_missing(flat: _FlatTables, structure: Structure, X: np.ndarray, out: np.ndarray):
    """Turn ``out``, the ``skip`` rule's ``log p(c, x)``, into the exact marginal of the rows
    that miss an attribute of some node (:mod:`.marginal`), in place.

    The ``skip`` rule's sum is the prior plus the terms of the nodes whose attributes and
    parents are all observed; the nodes it leaves out are the barren ones, which sum to 1,
    and those that hold or read a missing attribute, whose sum is added here.
    """
    nodes = structure.nodes
    held = [a for node in nodes for a in node.attributes]
    lacking = np.asarray(X)[:, held] < 0
    rows = np.flatnonzero(lacking.any(axis=1))
    if not rows.size:
        return
    cards = flat.cardinalities
    n_classes = out.shape[1]
    scopes = [(node.attributes, node.parents) for node in nodes]
    patterns, group, sizes = np.unique(lacking[rows], axis=0, return_inverse=True,
                                       return_counts=True)
    # The rows of each pattern, in one sort rather than one scan of all rows per pattern.
    groups = np.split(rows[np.argsort(group.ravel(), kind="stable")], np.cumsum(sizes)[:-1])
    for pattern, these in zip(patterns, groups):
        missing = {held[j] for j in np.flatnonzero(pattern)}
        dropped = marginal.barren(scopes, missing)
        summed = [v for v, node in enumerate(nodes) if v not in dropped
                  and missing.intersection(node.attributes + node.parents)]
        if not summed:  # every missing attribute's node is barren: skip is exact
            continue
        free = [tuple(sorted(missing.intersection(nodes[v].attributes + nodes[v].parents)))
                for v in summed]
        the_plan = marginal.plan(free, cards, n_classes)
        for block in marginal.row_blocks(these.size, the_plan, n_classes):
            which = these[block]
            factors = [_factor(flat, v, scope, X[which], cards) for v, scope in zip(summed, free)]
            out[which] += marginal.eliminate(the_plan, factors, cards)


def _factor(flat: _FlatTables, v: int, free: tuple, X: np.ndarray, cards) -> np.ndarray:
    """Node ``v``'s log term for the rows ``X`` and every value of its missing attributes
    ``free``: ``(rows, values of free..., classes)``."""
    shape = (X.shape[0], *(int(cards[a]) for a in free))
    codes = {}
    for c in flat.columns[flat.real[:, v], v].tolist():
        if c in free:
            axis = 1 + free.index(c)
            values = np.arange(int(cards[c])).reshape([-1 if i == axis else 1
                                                       for i in range(len(shape))])
        else:
            values = X[:, c].astype(np.intp).reshape([-1] + [1] * len(free))
        codes[c] = np.broadcast_to(values, shape)
    return flat.table.take(flat.node_rows(v, codes), axis=0)
