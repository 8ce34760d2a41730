"""Sparse counts of one attribute under every prefix of its parents: the tables of a
high-order k-dependence model without their empty cells.

A kDB of order 5 over attributes of ten values has tables of ``n_classes x 10^5`` parent
configurations, nearly all empty; Martinez et al. (2016) and Petitjean et al. (2018)
keep them as tries. Here a node ``x`` with parents ``p_1 .. p_k`` holds, for each depth
``d = 0 .. k + 1``, the configurations of the prefix ``(c, p_1 .. p_(d-1))`` that occur
(depth 0 the empty prefix, 1 the class alone, ``k + 1`` the full parent configuration)
as sorted mixed-radix keys, with the counts of ``x`` under each: the m-estimates of
:func:`m_estimate` back off along that chain, and the HDP of
:mod:`~bayesbench.models.parameters.hdp` is a Dirichlet process at every key.

Rows missing ``x`` are not counted; a row missing ``p_d`` is counted down to depth ``d``
only (it ends there: ``ends[d]`` holds the rows that go no deeper).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
import itertools
import math
from typing import Sequence

import numpy as np

from ...errors import ClassifierError

#: Keys are int64 mixed-radix codes of (class, parents): their radix product must fit.
_KEY_LIMIT = 2 ** 62
#: A level of codes below _DIRECT (or of at least a quarter of its span occupied, up to
#: _DIRECT_MAX) gets a direct lookup array.
_DIRECT, _DIRECT_MAX = 2 ** 16, 2 ** 24


@dataclass(frozen=True, eq=False)
class PrefixCounts:
    """The counts of one attribute under every occurring prefix of its parents.

    Attributes
    ----------
    radix : tuple of int
        ``(n_classes, card p_1, ..., card p_k)``.
    n_values : int
        The attribute's cardinality.
    keys : tuple of ndarray
        ``keys[d]``: sorted int64 codes of the occurring prefixes of depth ``d`` (the first
        ``d`` digits of ``radix``; depth 0 is the single key 0).
    counts : tuple of ndarray
        ``counts[d]``: float64 ``(len(keys[d]), n_values)``, rows reaching depth ``d``.
    ends : tuple of ndarray
        ``ends[d]``: the part of ``counts[d]`` of rows that go no deeper (missing ``p_d``,
        or ``d = k + 1``).
    starts : ndarray
        Set from ``keys``: ``starts[d]`` is the first row of depth ``d`` in the levels
        stacked (``np.concatenate(counts)``), a key's stacked row ``starts[d] + row``.
    """

    radix: tuple
    n_values: int
    keys: tuple
    counts: tuple
    ends: tuple

    def __post_init__(self):
        # A level whose codes span few values is looked up directly, not by binary search
        # (the leave-one-out pass looks up every row for every class at every depth). The
        # direct levels are views into one array of stacked rows (see ``starts``), each
        # after an entry -1 read by the code -1, so that when every level is direct all
        # depths are looked up in one step.
        lengths = [len(keys) for keys in self.keys]
        starts = np.array([0, *itertools.accumulate(lengths)])
        sizes = []
        for d, length in enumerate(lengths):
            span = math.prod(self.radix[:d])
            sizes.append(span + 1 if span <= min(max(_DIRECT, 4 * length), _DIRECT_MAX) else 0)
        offsets = [0, *itertools.accumulate(sizes)]
        table = np.full(offsets[-1], -1, dtype=np.int64)
        direct = [d for d, size in enumerate(sizes) if size]
        if direct:
            # every direct level's keys placed in one step
            table[np.concatenate([self.keys[d] + (offsets[d] + 1) for d in direct])] = \
                np.concatenate([np.arange(starts[d], starts[d + 1]) for d in direct])
        lookups = tuple(table[offsets[d] + 1:offsets[d + 1]] if sizes[d] else None
                        for d in range(len(self.keys)))
        object.__setattr__(self, "starts", starts)
        object.__setattr__(self, "_lookups", lookups)
        object.__setattr__(self, "_stacked_lookup",
                           (np.array(offsets[:-1]) + 1, table) if all(sizes) else None)

    @cached_property
    def totals(self) -> tuple:
        """``totals[d]``: the row sums of ``counts[d]`` (the rows reaching each key)."""
        return tuple(c.sum(axis=1) for c in self.counts)

    @cached_property
    def stacked(self) -> tuple:
        """The counts of every level stacked and flattened (``(sum of keys + 1) *
        n_values``) and their row sums (``totals``) stacked, each ending in a row of zeros:
        the stacked row -1 of a prefix never seen reads no counts."""
        return (np.concatenate([*self.counts, np.zeros((1, self.n_values))]).ravel(),
                np.concatenate([*self.totals, [0.0]]))

    def find_stacked(self, codes: np.ndarray) -> np.ndarray:
        """The stacked row (``starts[d] + row``) of each code of ``codes[d - 1]``, the codes
        of depth ``d = 1 .. len(codes)`` (in ``-1 .. prod(radix[:d]) - 1``, -1 for none),
        and -1 where it never occurred."""
        codes = np.asarray(codes)
        lookup = self._stacked_lookup
        if lookup is None:
            return self._find_in_trie(codes)
        offsets, table = lookup
        return table[codes + offsets[1:len(codes) + 1].reshape((-1,) + (1,) * (codes.ndim - 1))]

    @cached_property
    def _children(self) -> list:
        # the trie of the keys: children[d - 1][row * radix[d - 1] + digit] is the row at
        # depth d under the key of depth d - 1 in ``row``, -1 if none (and in a last entry,
        # read by a prefix that went missing above); a key's prefix is always a key
        children = []
        for d in range(1, len(self.keys)):
            radix, keys = self.radix[d - 1], self.keys[d]
            parent = np.searchsorted(self.keys[d - 1], keys // radix)
            child = np.full(len(self.keys[d - 1]) * radix + 1, -1, dtype=np.int64)
            child[parent * radix + keys % radix] = np.arange(len(keys))
            children.append(child)
        return children

    def _find_in_trie(self, codes: np.ndarray) -> np.ndarray:
        """:meth:`find_stacked` down the trie of the keys, a digit a depth: levels too wide
        for a direct lookup, without a binary search."""
        rows = np.empty(codes.shape, dtype=np.int64)
        row = np.zeros(codes.shape[1:], dtype=np.int64)  # depth 0: the empty prefix
        for d, code in enumerate(codes, start=1):
            radix, child = self.radix[d - 1], self._children[d - 1]
            digit = code - codes[d - 2] * radix if d > 1 else code
            row = child[np.where((code >= 0) & (row >= 0), row * radix + digit, -1)]
            rows[d - 1] = np.where(row >= 0, row + self.starts[d], -1)
        return rows

    @property
    def depth(self) -> int:
        """The number of attribute parents ``k`` (the deepest level is ``k + 1``)."""
        return len(self.radix) - 1

    @classmethod
    def from_rows(cls, x: np.ndarray, parents: Sequence[np.ndarray], y: np.ndarray,
                  n_values: int, parent_cards: Sequence[int], n_classes: int) -> "PrefixCounts":
        """Count column ``x`` under the prefixes of the columns ``parents`` (codes, -1
        missing) with classes ``y``."""
        radix = (int(n_classes),) + tuple(int(c) for c in parent_cards)
        if np.prod([float(r) for r in radix]) * n_values >= _KEY_LIMIT:
            raise ClassifierError(f"a table over {len(radix) - 1} parents of cardinalities "
                                  f"{list(radix[1:])} has too many configurations to index")
        x = np.asarray(x, dtype=np.int64)
        live = (x >= 0) & (x < n_values)
        code = np.asarray(y, dtype=np.int64)[live]
        value = x[live]
        reach = np.ones(len(value), dtype=bool)
        # depth 0: the empty prefix; 1: the class; d + 1: the class and parents 1 .. d
        rows = [(np.zeros(len(value), dtype=np.int64), reach), (code, reach)]
        for d, column in enumerate(parents, start=1):
            column = np.asarray(column, dtype=np.int64)[live]
            ok = (column >= 0) & (column < radix[d])
            reach = reach & ok
            code = code * radix[d] + np.where(ok, column, 0)
            rows.append((code, reach))
        codes, here = zip(*rows)
        spans = [math.prod(radix[:d]) for d in range(len(rows))]
        if sum(spans) <= min(max(_DIRECT, 4 * len(value) * len(rows)), _DIRECT_MAX):
            levels = _stacked_levels(codes, here, value, spans, n_values)
        else:
            levels = []
            for d, (code, reached) in enumerate(rows):
                deeper = here[d + 1] if d + 1 < len(rows) else np.zeros(len(value), dtype=bool)
                levels.append(_level(code[reached], value[reached], (reached & ~deeper)[reached],
                                     n_values))
        keys = tuple(k for k, _, _ in levels)
        counts = tuple(c for _, c, _ in levels)
        ends = tuple(e for _, _, e in levels)
        return cls(radix, int(n_values), keys, counts, ends)

    @classmethod
    def from_table(cls, counts: np.ndarray, parent_cards: Sequence[int]) -> "PrefixCounts":
        """The prefix counts of a dense table ``(n_classes, prod(parent_cards), r)`` (the
        layout of :mod:`.counting`, first parent most significant): every level sums the
        full configurations under it (rows missing a parent, which a dense table leaves
        out, are then left out of every level)."""
        n_classes, n_pa, r = counts.shape
        radix = (int(n_classes),) + tuple(int(c) for c in parent_cards)
        flat = counts.reshape(n_classes * n_pa, r)
        full = np.flatnonzero(flat.sum(axis=1) > 0)
        keys, sums, ends = [], [], []
        for d in range(len(radix) + 1):
            prefix = (full // int(np.prod(radix[d:], dtype=np.int64)) if d
                      else np.zeros(len(full), dtype=np.int64))
            level, inverse = np.unique(prefix, return_inverse=True)
            if not len(level):
                level, inverse = np.zeros(1, dtype=np.int64), inverse.astype(np.int64)
            total = np.zeros((len(level), r))
            np.add.at(total, inverse, flat[full])
            keys.append(level)
            sums.append(total)
            ends.append(total if d == len(radix) else np.zeros_like(total))
        return cls(radix, int(r), tuple(keys), tuple(sums), tuple(ends))

    def dense(self, levels: Sequence[np.ndarray]) -> np.ndarray:
        """Per-key values ``levels[d]`` (one row per key of depth ``d``) spread over every
        full configuration ``(n_classes, prod(parent cards), r)``, each read at its deepest
        seen prefix."""
        n_classes = self.radix[0]
        n_pa = int(np.prod(self.radix[1:], dtype=np.int64))
        grid = np.arange(n_classes * n_pa, dtype=np.int64)
        codes = [grid // int(np.prod(self.radix[d:], dtype=np.int64))
                 for d in range(1, len(self.radix) + 1)]
        depth, row = deepest(self, codes, self.depth + 1)
        flat = np.concatenate(levels)
        starts = np.r_[0, np.cumsum([len(level) for level in levels])]
        return flat[starts[depth] + row].reshape(n_classes, n_pa, self.n_values)

    def __add__(self, other: "PrefixCounts") -> "PrefixCounts":
        """The counts of the rows of both (a data set counted chunk by chunk): equal to the
        counts of all the rows at once, key for key."""
        if (self.radix, self.n_values) != (other.radix, other.n_values):
            raise ClassifierError(f"prefix counts over radix {self.radix} and {other.radix} "
                                  f"do not add up")
        levels = [_merged(*mine, *theirs) for mine, theirs in
                  zip(zip(self.keys, self.counts, self.ends),
                      zip(other.keys, other.counts, other.ends))]
        return PrefixCounts(self.radix, self.n_values, *map(tuple, zip(*levels)))

    def truncated(self, k: int) -> "PrefixCounts":
        """The counts under the first ``k`` parents only (``k <= depth``)."""
        return PrefixCounts(self.radix[:k + 1], self.n_values, self.keys[:k + 2],
                            self.counts[:k + 2], self.ends[:k + 1] + (self.counts[k + 1],))

    def find(self, depth: int, codes: np.ndarray) -> np.ndarray:
        """The row of ``keys[depth]`` holding each code, -1 where it never occurred."""
        keys = self.keys[depth]
        direct = self._lookups[depth]
        if direct is not None:
            inside = codes < len(direct)
            found = np.where(inside, direct[np.where(inside, codes, 0)], -1)
            return np.where(found >= 0, found - self.starts[depth], -1)
        if not len(keys):
            return np.full(np.shape(codes), -1)
        at = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
        return np.where(keys[at] == codes, at, -1)


def _level(code, value, ends, n_values):
    span = int(code.max()) + 1 if len(code) else 0
    if span <= min(max(_DIRECT, 4 * len(code)), _DIRECT_MAX):
        # few possible codes: mark them instead of sorting the rows (same keys, in order)
        seen = np.bincount(code, minlength=span) > 0
        keys = np.flatnonzero(seen)
        inverse = (np.cumsum(seen) - 1)[code]
    else:
        keys, inverse = np.unique(code, return_inverse=True)
    if not len(keys):
        # the empty prefix is always there, with no counts, so that a lookup backs off to it
        keys, inverse = np.zeros(1, dtype=np.int64), inverse.astype(np.int64)
    index = inverse * n_values + value
    size = len(keys) * n_values
    counts = np.bincount(index, minlength=size).astype(np.float64).reshape(len(keys), n_values)
    end = np.bincount(index[ends], minlength=size).astype(np.float64).reshape(len(keys),
                                                                            n_values)
    return keys, counts, end


def _stacked_levels(codes, here, value, spans, n_values):
    """The levels of :func:`_level` (keys, counts, ends), key for key, from one count over
    all levels' codes, each level's offset by the spans of those before it."""
    offsets = [0, *itertools.accumulate(spans)]
    if here[-1].all():
        # every row reaches every level (no parent missing): no level leaves a row out
        code = (np.stack(codes) + np.array(offsets[:-1])[:, None]).ravel()
        value = np.tile(value, len(codes))
        ends = slice((len(codes) - 1) * len(here[-1]), None)
    else:
        deeper = [*here[1:], np.zeros(len(value), dtype=bool)]
        code = np.concatenate([c[h] + o for c, h, o in zip(codes, here, offsets)])
        ends = np.concatenate([(h & ~e)[h] for h, e in zip(here, deeper)])
        value = np.concatenate([value[h] for h in here])
    seen = np.bincount(code, minlength=offsets[-1]) > 0
    keys = np.flatnonzero(seen)
    index = (np.cumsum(seen) - 1)[code] * n_values + value
    size = len(keys) * n_values
    counts = np.bincount(index, minlength=size).astype(np.float64).reshape(-1, n_values)
    end = np.bincount(index[ends], minlength=size).astype(np.float64).reshape(-1, n_values)
    levels = []
    for d, (lo, hi) in enumerate(itertools.pairwise(np.searchsorted(keys, offsets))):
        if lo == hi:
            # the empty prefix is always there, with no counts, as _level leaves it
            levels.append((np.zeros(1, dtype=np.int64), np.zeros((1, n_values)),
                           np.zeros((1, n_values))))
        else:
            levels.append((keys[lo:hi] - offsets[d], counts[lo:hi], end[lo:hi]))
    return levels


def _merged(keys_a, counts_a, ends_a, keys_b, counts_b, ends_b):
    keys = np.union1d(keys_a, keys_b)
    counts = np.zeros((len(keys), counts_a.shape[1]))
    ends = np.zeros_like(counts)
    for k, c, e in ((keys_a, counts_a, ends_a), (keys_b, counts_b, ends_b)):
        at = np.searchsorted(keys, k)
        counts[at] += c
        ends[at] += e
    # Every occurring key holds a count; the zero row of an empty level (_level) is dropped
    # unless the level stays empty, as counting all the rows at once leaves it.
    held = counts.any(axis=1)
    if not held.any():
        return np.zeros(1, dtype=np.int64), counts[:1] * 0.0, ends[:1] * 0.0
    return keys[held], counts[held], ends[held]


def prefix_codes(X: np.ndarray, parents: Sequence[int], cardinalities: Sequence[int],
                 n_classes: int) -> np.ndarray:
    """The code of every row's prefix for every class at each depth ``1 .. k + 1``,
    ``(k + 1, n_classes, n)``: -1 from the depth of a missing or unseen parent value on."""
    n = X.shape[0]
    # the parents' digits once, the class (the most significant digit) added to them
    base, ok, radix = np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool), 1
    bases, oks, radices = [base], [ok], [radix]
    for p in parents:
        column = np.asarray(X[:, p], dtype=np.int64)
        card = int(cardinalities[p])
        ok = ok & (column >= 0) & (column < card)
        base = base * card + np.where(ok, column, 0)
        radix *= card
        bases.append(base)
        oks.append(ok)
        radices.append(radix)
    classes = np.arange(n_classes, dtype=np.int64)[None, :, None]
    codes = np.stack(bases)[:, None, :] + classes * np.array(radices, dtype=np.int64)[:, None,
                                                                                       None]
    return np.where(np.stack(oks)[:, None, :], codes, -1)


def deepest(table: PrefixCounts, codes: Sequence[np.ndarray], limit: int) -> tuple:
    """For each row, the deepest depth ``d <= limit`` whose prefix occurred (0 when not even
    its class did) and its row in ``keys[d]``; ``codes[d - 1]`` is the depth-``d`` code."""
    levels = min(limit, table.depth + 1)
    rows = table.find_stacked(codes[:levels])
    # A prefix occurs only under occurring prefixes (every row is counted at each depth it
    # reaches), so the occurring depths are the first ones, and the deepest has the
    # greatest stacked row; depth 0 is the one key of the empty prefix, stacked row 0.
    depth = np.add.reduce(rows >= 0, axis=0, dtype=np.int64)
    stacked = np.maximum(np.maximum.reduce(rows, axis=0), 0)
    return depth, stacked - table.starts[depth]
