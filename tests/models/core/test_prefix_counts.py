"""Prefix counts: counted from the rows against a direct count, and added chunk by chunk."""
from __future__ import annotations

from collections import Counter

import numpy as np

from bayesbench.models.core.prefix_counts import PrefixCounts


def _rows(seed=0, n=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    x = rng.integers(0, 3, n)
    p1 = rng.integers(0, 4, n)
    p2 = np.where(rng.random(n) < 0.5, p1 % 2, rng.integers(0, 2, n))
    for column in (x, p1, p2):
        column[rng.random(n) < 0.1] = -1
    return x, [p1, p2], y


def _direct(x, parents, y):
    """``{(depth, prefix tuple): Counter of x}`` by walking each row's prefix, a row
    missing ``x`` not counted and one missing ``p_d`` going no deeper than ``d``."""
    out: dict = {}
    for i in range(len(x)):
        if x[i] < 0:
            continue
        prefix = ()
        out.setdefault((0, prefix), Counter())[x[i]] += 1
        for d, value in enumerate([y[i]] + [p[i] for p in parents], start=1):
            if value < 0:
                break
            prefix += (int(value),)
            out.setdefault((d, prefix), Counter())[x[i]] += 1
    return out


def _as_direct(table: PrefixCounts) -> dict:
    out = {}
    for d, (keys, counts) in enumerate(zip(table.keys, table.counts)):
        for key, row in zip(keys, counts):
            digits, rest = [], int(key)
            for radix in reversed(table.radix[:d]):
                digits.append(rest % radix)
                rest //= radix
            if row.any():
                out[d, tuple(reversed(digits))] = Counter(
                    {v: int(c) for v, c in enumerate(row) if c})
    return out


def test_counts_from_rows_equal_a_direct_count():
    x, parents, y = _rows()
    table = PrefixCounts.from_rows(x, parents, y, 3, [4, 2], 2)
    assert _as_direct(table) == _direct(x, parents, y)


def test_chunks_add_up_to_the_counts_of_all_rows():
    x, parents, y = _rows(seed=1)
    total = None
    # an empty chunk, and chunks whose deeper levels are empty (every p1 missing)
    parents[0][10:40] = -1
    whole = PrefixCounts.from_rows(x, parents, y, 3, [4, 2], 2)
    for a, b in [(0, 0), (0, 10), (10, 40), (40, 250), (250, 400)]:
        part = PrefixCounts.from_rows(x[a:b], [p[a:b] for p in parents], y[a:b], 3, [4, 2], 2)
        total = part if total is None else total + part
    for mine, theirs in [(total.keys, whole.keys), (total.counts, whole.counts),
                         (total.ends, whole.ends)]:
        assert len(mine) == len(theirs)
        for a, b in zip(mine, theirs):
            assert np.array_equal(a, b)
