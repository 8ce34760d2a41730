"""Counts of families (a node and its parents) of a Bayesian network over the attributes
and the class, as Weka's ``BayesNet`` lays them out, for its structure searches.

Nodes are the attributes ``0 .. m-1`` and the class, ``m`` (Weka's class index when the
class is the last attribute). A family's table is ``(q, r)``: one row per configuration of
the parents (mixed radix in the parents' order, the first most significant) and one
column per value of the node.

A family of at most two attributes (the class beside them or not) is a block of the
pair counts ``N(c, x_i, x_j)`` (:mod:`~bayesbench.models.core.sufficient`), summed over
the class when the class is not in it: counted once for every pair at BLAS speed, or
given by the runner's count subtraction (``total - test part``). A larger family is one
``np.bincount`` over the rows' combined index; a batch of candidate families (one node,
its parents and each of several extra parents) is one ``np.bincount`` over all of them.
From statistics, those are counted from the rows they keep
(:meth:`~bayesbench.models.core.sufficient.Statistics.tally`), which raises
:class:`~bayesbench.models.core.sufficient.StatisticsNotSufficient` when they keep none.

The counts are those of the rows with every missing value replaced by its attribute's
mode (``modes``, Weka's ``ReplaceMissingValues``): rows are filled before they are
counted, and pair counts of rows with missing values are filled exactly
(:func:`filled_pair_counts`).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ...measures.codes import check_table_size, current_table_limit
from ...measures.information import pair_count_matrix, value_offsets


def filled_pair_counts(pairs: np.ndarray, class_counts: np.ndarray, cardinalities,
                       modes) -> np.ndarray:
    """The pair counts ``N(c, x_i = a, x_j = b)`` of rows whose missing values are replaced
    by ``modes``, from the counts of the rows as they are (each pair over the rows where
    both are given, :mod:`~bayesbench.models.core.sufficient`'s layout) and ``N(c)``.

    First the column attribute of every pair: the rows holding ``u`` but missing ``j``,
    ``N(c, u) - sum_b N(c, u, j = b)``, go to ``j``'s mode; then the row attribute, the
    same way against the filled columns (which also fills the rows missing both). Exact
    in integers.

    Examples
    --------
    >>> X = np.array([[0, 1], [-1, 1], [1, -1], [-1, -1]]); y = np.array([0, 0, 1, 1])
    >>> from bayesbench.measures.information import pair_count_matrix
    >>> modes = [0, 1]
    >>> filled = filled_pair_counts(pair_count_matrix(X, y, [2, 2], 2), np.bincount(y),
    ...                             [2, 2], modes)
    >>> direct = pair_count_matrix(np.where(X < 0, modes, X), y, [2, 2], 2)
    >>> bool((filled == direct).all())
    True
    """
    cards = np.asarray(cardinalities, dtype=np.int64)
    starts = value_offsets(cards)
    of = np.repeat(np.arange(cards.size), cards)                  # each value's attribute
    block = (of[:, None] == np.arange(cards.size)).astype(pairs.dtype)   # (R, m)
    given = np.einsum("kuu->ku", pairs)                           # N(c, u)
    mode_columns = starts[:-1] + np.asarray(modes, dtype=np.int64)
    out = pairs.copy()
    out[:, :, mode_columns] += given[:, :, None] - pairs @ block
    missing = np.asarray(class_counts)[:, None] - given @ block   # N(c, j missing)
    filled = given.copy()
    filled[:, mode_columns] += missing
    out[:, mode_columns, :] += filled[:, None, :] - np.einsum("uj,kuv->kjv", block, out)
    return out


def family_table(X, y, cardinalities, n_classes, node, parents) -> np.ndarray:
    """``(q, r)`` counts of ``node`` given ``parents`` (the class is ``len(cardinalities)``)
    over complete rows ``X`` (codes) with classes ``y``, int64."""
    [table] = family_tables(X, y, cardinalities, n_classes, node, parents, ())
    return table


def family_tables(X, y, cardinalities, n_classes, node, parents, extra) -> list[np.ndarray]:
    """The tables of ``node`` given ``parents + (t,)`` for each ``t`` of ``extra`` (given
    ``parents`` alone when ``extra`` is empty), counted together by one ``np.bincount``."""
    cards = list(cardinalities) + [n_classes]
    column = _columns(X, y, len(cardinalities))
    base = np.zeros(X.shape[0], dtype=np.int64)
    for p in parents:
        base *= cards[p]
        base += column(p)
    q, r = int(np.prod([cards[p] for p in parents], dtype=np.int64)), cards[node]
    value = column(node)
    if not extra:
        check_table_size((q, r), _attributes((node, *parents), len(cardinalities)))
        return [np.bincount(base * r + value, minlength=q * r).reshape(q, r)]
    sizes = [q * cards[t] * r for t in extra]
    for t in extra:
        check_table_size((q * cards[t], r), _attributes((node, *parents, t), len(cardinalities)))
    starts = np.concatenate([[0], np.cumsum(sizes)])
    index = np.empty((len(extra), X.shape[0]), dtype=np.int64)
    for i, t in enumerate(extra):
        np.multiply(base, cards[t] * r, out=index[i])
        index[i] += column(t) * r
        index[i] += value + starts[i]
    counts = np.bincount(index.ravel(), minlength=int(starts[-1]))
    return [counts[starts[i]:starts[i + 1]].reshape(-1, r) for i in range(len(extra))]


def _columns(X, y, m):
    def column(u):
        return np.asarray(y if u == m else X[:, u], dtype=np.int64)
    return column


def _attributes(nodes, m) -> tuple[int, ...]:
    """The attributes among ``nodes`` (the class, ``m``, left out), for a table's message."""
    return tuple(u for u in nodes if u != m)


class FamilyCounts:
    """The tables of the families a search asks for, over one training set.

    Give the rows (``X`` complete codes and ``y``) or their statistics (``stats``, whose
    pair counts already hold every family of at most two attributes). From rows, every
    pair is counted at once on first use, unless ``pairs`` is False (a search that asks for
    no family of two attributes) or they would exceed the table limit together; then each
    family is counted alone.
    """

    def __init__(self, cardinalities: Sequence[int], n_classes: int, *, X=None, y=None,
                 stats=None, modes=None, pairs: bool = True):
        self.cards = [int(c) for c in cardinalities]
        self.n_classes = int(n_classes)
        self.m = len(self.cards)  # the class's node
        self.X, self.y, self.stats = X, y, stats
        self._want_pairs = pairs  # False: no search asks for a pair (K2's naive Bayes)
        self._class_counts = (np.bincount(y, minlength=self.n_classes) if stats is None
                              else np.asarray(stats.class_counts))
        self._offsets = value_offsets(self.cards)
        # Statistics of rows with missing values: their rows are filled before counting.
        self._modes = None
        self._pairs = self._by_class = None
        if stats is not None:
            given = np.einsum("kuu->u", stats.pairs)
            if (np.add.reduceat(given, self._offsets[:-1]) < stats.n_rows).any():
                self._modes = tuple(int(v) for v in modes)
                self._pairs = filled_pair_counts(stats.pairs, self._class_counts, self.cards,
                                                 self._modes)
            else:
                self._pairs = stats.pairs

    @property
    def n_rows(self) -> int:
        return int(self._class_counts.sum())

    def _pair_counts(self):
        """Every pair's counts, counted from the rows on first use when they fit the table
        limit together (else None: each family is counted alone)."""
        if self._pairs is None and self.stats is None:
            cells = self.n_classes * int(self._offsets[-1]) ** 2
            if not self._want_pairs or cells > current_table_limit():
                return None
            self._pairs = pair_count_matrix(self.X, self.y, self.cards, self.n_classes)
        return self._pairs

    def table(self, node: int, parents: Sequence[int]) -> np.ndarray:
        """``(q, r)`` float64 counts of ``node`` given ``parents`` in their order."""
        parents = tuple(parents)
        if self._is_pair(node, parents):
            return self._from_pairs(node, parents)
        return self._count(node, parents, ())[0]

    def tables(self, node: int, parents: Sequence[int], extra: Sequence[int]) -> list:
        """The tables of ``node`` given ``parents + (t,)`` for each ``t`` of ``extra``."""
        parents, extra = tuple(parents), tuple(extra)
        out = {}
        if self.m in extra and self._is_pair(node, parents + (self.m,)):
            out[self.m] = self._from_pairs(node, parents + (self.m,))
        tails = [t for t in extra if t != self.m]
        if tails and self._is_pair(node, parents + (tails[0],)):
            by_values: dict = {}
            for t in tails:
                by_values.setdefault(self.cards[t], []).append(t)
            for group in by_values.values():
                out.update(zip(group, self._pair_batch(node, parents, group)))
        large = tuple(t for t in extra if t not in out)
        if large:
            out.update(zip(large, self._count(node, parents, large)))
        return [out[t] for t in extra]

    def _is_pair(self, node, parents) -> bool:
        return (sum(u != self.m for u in (node, *parents)) <= 2
                and self._pair_counts() is not None)

    def _count(self, node, parents, extra) -> list[np.ndarray]:
        if self.stats is None:
            tables = family_tables(self.X, self.y, self.cards, self.n_classes, node, parents,
                                   extra)
        else:
            flat = self.stats.tally(_flat_family_tables, (node, parents, extra, self._modes))
            sizes = [int(np.prod([self._card(u) for u in (node, *parents, t)]))
                     for t in (extra or (None,))]
            tables = np.split(flat, np.cumsum(sizes)[:-1])
            tables = [t.reshape(-1, self._card(node)) for t in tables]
        return [t.astype(np.float64) for t in tables]

    def _card(self, u) -> int:
        return 1 if u is None else (self.n_classes if u == self.m else self.cards[u])

    def _from_pairs(self, node, parents) -> np.ndarray:
        """A family of at most two attributes from the pair counts."""
        variables = (*parents, node)
        attributes = list(dict.fromkeys(u for u in variables if u != self.m))
        pairs, o = self._pair_counts(), self._offsets
        if not attributes:
            block = self._class_counts
        elif len(attributes) == 1:
            a = attributes[0]
            block = np.einsum("kii->ki", pairs[:, o[a]:o[a + 1], o[a]:o[a + 1]])
        else:
            a, b = attributes
            block = pairs[:, o[a]:o[a + 1], o[b]:o[b + 1]]
        axes = [self.m, *attributes]
        if self.m not in variables:
            block, axes = block.sum(axis=0), axes[1:]
        block = np.transpose(block, [axes.index(u) for u in variables])
        return np.asarray(block, dtype=np.float64).reshape(-1, self._card(node))

    def _pair_batch(self, node, parents, tails) -> np.ndarray:
        """The tables of ``node`` given ``parents + (t,)`` for attributes ``t`` of as many
        values each, when ``parents`` and ``node`` hold at most one attribute: one gather
        from the pair counts, ``(len(tails), q, r)``."""
        o, r_t = self._offsets, self.cards[tails[0]]
        columns = o[np.asarray(tails)][:, None] + np.arange(r_t)  # (T, r_t)
        held = [u for u in (*parents, node) if u != self.m]
        if held:  # N(c, a, t): (k, r_a, T, r_t)
            a = held[0]
            block, axes = self._pair_counts()[:, o[a]:o[a + 1]][:, :, columns], [self.m, a]
        else:  # the class given one attribute, N(c, t): (k, T, r_t)
            block, axes = self._attribute_counts()[:, columns], [self.m]
        axes += ["tails", "tail"]
        variables = (*parents, "tail", node)
        if self.m not in variables:
            block, axes = block.sum(axis=0), axes[1:]
        block = np.transpose(block, [axes.index("tails"), *(axes.index(u) for u in variables)])
        return np.asarray(block, dtype=np.float64).reshape(len(tails), -1, self._card(node))

    def _attribute_counts(self) -> np.ndarray:
        """``N(c, x_i = a)`` at ``[c, s_i + a]``: the diagonal of the pair counts."""
        if self._by_class is None:
            self._by_class = np.einsum("kii->ki", self._pair_counts())
        return self._by_class


def _flat_family_tables(X, y, cardinalities, n_classes, request) -> np.ndarray:
    """:func:`family_tables` of ``request``, ``(node, parents, extra, modes)``, as one flat
    array, of the rows filled with ``modes`` (None: they miss nothing), for
    :meth:`Statistics.tally`."""
    node, parents, extra, modes = request
    if modes is not None:
        X = np.where(X < 0, np.asarray(modes, dtype=X.dtype), X)
    tables = family_tables(X, y, cardinalities, n_classes, node, parents, extra)
    return np.concatenate([t.ravel() for t in tables])
