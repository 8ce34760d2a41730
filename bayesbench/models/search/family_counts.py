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

import functools
from typing import Sequence

import numpy as np

from ...measures.codes import check_table_size, compact_codes, current_table_limit
from ...measures.information import pair_count_matrix, value_offsets
from .local_scores import Stacked


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
        self._columns = None
        self._want_pairs = pairs  # False: no search asks for a pair (K2's naive Bayes)
        self._class_counts = (np.bincount(y, minlength=self.n_classes) if stats is None
                              else np.asarray(stats.class_counts))
        self._offsets = value_offsets(self.cards)
        # Statistics of rows with missing values: their rows are filled before counting.
        self._modes = None
        self._pairs = self._by_class = self._values = self._summed = None
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

    def tables(self, families: Sequence[tuple[int, tuple[int, ...]]]) -> list:
        """The tables of ``families`` (``(node, parents)`` each), as parts ``(positions,
        tables)``: which of ``families`` a part holds, in order, and their tables for
        :func:`~.local_scores.family_scores`. The families of at most two attributes are
        gathered from the pair counts, those of one pattern (where the class is among their
        nodes, how many attributes they hold) at once (a :class:`~.local_scores.Stacked`);
        the others are counted from rows, those that differ only in their last parent
        together (one ``np.bincount``)."""
        patterns: dict = {}
        batches: dict = {}
        pairs, m = self._pair_counts() is not None, self.m
        for i, (node, parents) in enumerate(families):
            # The pattern: the class's place among the nodes (-1: none), and their number.
            place = len(parents) if node == m else (parents.index(m) if m in parents else -1)
            if pairs and len(parents) + (place < 0) <= 2:
                patterns.setdefault((place, len(parents)), []).append(i)
            else:
                batches.setdefault((node, parents[:-1]), []).append(i)
        parts = [(members, [self._gather([families[i] for i in members])])
                 for members in patterns.values()]
        for (node, first), members in batches.items():
            alone = [i for i in members if not families[i][1]]  # no parent: counted alone
            parts += [([i], self._count(node, (), ())) for i in alone]
            tails = [i for i in members if families[i][1]]
            if tails:
                parts.append((tails, self._count(node, first,
                                                 tuple(families[i][1][-1] for i in tails))))
        return parts

    def _is_pair(self, node, parents) -> bool:
        return (sum(u != self.m for u in (node, *parents)) <= 2
                and self._pair_counts() is not None)

    def _count(self, node, parents, extra) -> list[np.ndarray]:
        if self.stats is None:
            if self._columns is None:  # column-major codes, read a column at a time
                self._columns = compact_codes(self.X, self.cards)
            tables = family_tables(self._columns, self.y, self.cards, self.n_classes, node,
                                   parents, extra)
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
        attributes = [u for u in variables if u != self.m]
        with_class = len(attributes) < len(variables)
        o = self._offsets
        if not attributes:
            block, axes = self._class_counts, [self.m]
        elif len(attributes) == 1:
            a = attributes[0]
            span = slice(o[a], o[a + 1])
            block = self._attribute_counts()[:, span] if with_class else self._value_counts()[span]
            axes = [self.m, a] if with_class else [a]
        else:
            a, b = attributes
            span = (slice(o[a], o[a + 1]), slice(o[b], o[b + 1]))
            block = (self._pair_counts()[:, span[0], span[1]] if with_class
                     else self._summed_pairs()[span])
            axes = [self.m, a, b] if with_class else [a, b]
        block = np.transpose(block, [axes.index(u) for u in variables])
        return np.asarray(block, dtype=np.float64).reshape(-1, self._card(node))

    def _gather(self, families) -> Stacked:
        """The tables of ``families`` of one pattern, of at most two attributes each: one
        ``take`` from the pair counts (or those summed over the class, when the class is
        none of their nodes), each attribute's values padded to the most any family's
        attribute in its place has, the padding marked."""
        node, parents = families[0]
        if node == self.m and not parents:  # the class alone
            counts = np.broadcast_to(np.asarray(self._class_counts, dtype=np.float64),
                                     (len(families), 1, self.n_classes))
            return Stacked(counts, None)
        families, cards = tuple(families), tuple(self.cards)
        # Plans of at most _PLAN_CELLS cells are kept (a few megabytes in all).
        widest = max(cards) ** (len(parents) + (node != self.m)) * self.n_classes
        plan = _gather_plan if len(families) * widest <= _PLAN_CELLS else _gather_plan.__wrapped__
        index, valid = plan(families, cards, self.n_classes)
        source = self._pair_counts() if self.m in (node, *parents) else self._summed_pairs()
        return Stacked(np.asarray(source.ravel().take(index), dtype=np.float64), valid)

    def modes(self) -> np.ndarray | None:
        """Each attribute's most frequent value, the lowest code among equals, from the pair
        counts (None when there are none)."""
        if self._pair_counts() is None:
            return None
        cards = np.asarray(self.cards)
        by_attribute = np.full((cards.size, int(cards.max(initial=1))), -1.0)
        of = np.repeat(np.arange(cards.size), cards)
        by_attribute[of, np.arange(int(self._offsets[-1])) - self._offsets[of]] = \
            self._value_counts()
        return by_attribute.argmax(axis=1)

    def _attribute_counts(self) -> np.ndarray:
        """``N(c, x_i = a)`` at ``[c, s_i + a]``: the diagonal of the pair counts."""
        if self._by_class is None:
            self._by_class = np.einsum("kii->ki", self._pair_counts())
        return self._by_class

    def _value_counts(self) -> np.ndarray:
        """``N(x_i = a)`` at ``[s_i + a]``."""
        if self._values is None:
            self._values = self._attribute_counts().sum(axis=0)
        return self._values

    def _summed_pairs(self) -> np.ndarray:
        """``N(x_i = a, x_j = b)``: the pair counts summed over the class."""
        if self._summed is None:
            self._summed = self._pair_counts().sum(axis=0)
        return self._summed


#: The most cells a kept gather plan may have (:func:`_gather_plan`).
_PLAN_CELLS = 1 << 16


@functools.lru_cache(maxsize=32)
def _gather_plan(families: tuple, cards: tuple, n_classes: int):
    """Where :meth:`FamilyCounts._gather` takes each cell of the tables of ``families`` (of
    one pattern, at most two attributes each; the class is node ``len(cards)``) from the
    flat pair counts ``(n_classes, R, R)`` (or those summed over the class, ``(R, R)``),
    and which cells are the families' own: ``(families, q, r)`` each, read-only. Kept for
    the same families and cardinalities when small (K2's first round asks for the same
    ones in every fold of a data set)."""
    m, k = len(cards), n_classes
    node, parents = families[0]
    variables = (*parents, node)
    is_class = [u == m for u in variables]
    o = value_offsets(cards)
    R = int(o[-1])
    held = np.array([[u for u in (*p, v) if u != m] for v, p in families],
                    dtype=np.intp).reshape(len(families), -1)
    sizes = np.asarray(cards, dtype=np.int64)[held]                     # (F, attributes)
    width = sizes.max(axis=0)
    # The flat place of N(c, s_a + i, s_b + j) (of N(s_a + i, s_b + j) summed over the
    # class): one attribute is on the diagonal (its two places the same).
    scale = [R, 1] if held.shape[1] == 2 else [R + 1]
    index = np.zeros([len(families)] + [1] * len(variables), dtype=np.intp)
    valid = np.ones_like(index, dtype=bool)
    j = 0
    for d, c in enumerate(is_class):
        axis = [len(families)] + [1] * len(variables)
        if c:
            axis[0], axis[d + 1] = 1, k
            index = index + (np.arange(k) * R * R).reshape(axis)
            continue
        values = np.arange(int(width[j]))
        axis[d + 1] = values.size
        ok = values < sizes[:, j, None]
        place = np.where(ok, o[held[:, j], None] + values, 0)
        index = index + (place * scale[j]).reshape(axis)
        valid = valid & ok.reshape(axis)
        j += 1
    valid = np.broadcast_to(valid, index.shape)
    shape = (len(families), -1, index.shape[-1])
    index, valid = index.reshape(shape), valid.reshape(shape)
    index.flags.writeable = valid.flags.writeable = False
    return index, valid


def _flat_family_tables(X, y, cardinalities, n_classes, request) -> np.ndarray:
    """:func:`family_tables` of ``request``, ``(node, parents, extra, modes)``, as one flat
    array, of the rows filled with ``modes`` (None: they miss nothing), for
    :meth:`Statistics.tally`."""
    node, parents, extra, modes = request
    if modes is not None:
        X = np.where(X < 0, np.asarray(modes, dtype=X.dtype), X)
    tables = family_tables(X, y, cardinalities, n_classes, node, parents, extra)
    return np.concatenate([t.ravel() for t in tables])
