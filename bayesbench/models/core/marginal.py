"""Exact marginalisation of missing values: variable elimination over the attributes a row
lacks, in log space, for all the rows that lack the same attributes at once.

A network's joint ``p(c, x)`` is a product of factors, each over the class and a few
attributes (a node's table: its attributes and its parents). For a row whose attributes
``M`` are missing, the exact ``p(c, x_observed)`` sums that product over every value of
``M``. Factors whose attributes are all observed are looked up as for a complete row; the
others, with the row's observed values put in, are functions of the class and of the
missing attributes in them, and the sum over ``M`` is taken one attribute at a time
(variable elimination): multiply the factors that hold it, sum it out, keep the result as a
new factor. The order is chosen greedily, the attribute whose product is the smallest
first (ties to the lower index), so that its cost is that of the largest product: the rows
times the classes times the values of the attributes in it.

Before that, a *barren* node is dropped: one whose attributes are all missing and that is
no node's parent (after the drops before it). Its table sums to 1 over its values whatever
its parents, so it changes nothing; this is why leaving a missing value's node out of the
product, the ``skip`` rule, is exact for naive Bayes and for a leaf.

Everything here is about factors and scopes, not about the augmented naive Bayes: the
class is an axis every factor carries (of length 1 where a factor does not depend on it),
so a network whose class is not every node's parent plugs in as it gives its factors.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...measures.codes import check_table_size

# Cells of the largest product of one block of rows: 8 MB of float64, so that a block stays
# in memory whatever the number of rows.
_BLOCK_CELLS = 2 ** 20


def barren(scopes: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], missing: set) -> set:
    """The nodes that sum to 1 for rows missing the attributes ``missing``: ``scopes`` holds
    each node's ``(attributes, parent attributes)``; a node is barren when it has attributes,
    all missing, and no node left is its child (repeatedly, leaves first). A node of no
    attribute (the class's own table in a network whose class has parents) never is."""
    holder = {a: v for v, (attributes, _) in enumerate(scopes) for a in attributes}
    parents_of = [{holder[p] for p in parents} for _, parents in scopes]
    left = set(range(len(scopes)))
    dropped: set = set()
    changed = True
    while changed:
        changed = False
        needed = set().union(*(parents_of[v] for v in left)) if left else set()
        for v in sorted(left - needed):
            if scopes[v][0] and all(a in missing for a in scopes[v][0]):
                left.discard(v)
                dropped.add(v)
                changed = True
    return dropped


@dataclass(frozen=True)
class Plan:
    """The elimination of ``order`` (attributes) from factors over ``scopes``: ``steps[i]``
    the factors (positions in the growing list of factors) it multiplies and the scope of
    their product; ``cells`` the product's largest number of cells per row and class."""

    scopes: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]
    steps: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    cells: int


def plan(scopes: Sequence[tuple[int, ...]], cards: Sequence[int], n_classes: int) -> Plan:
    """The greedy elimination of every attribute of ``scopes`` (each factor's sorted
    attributes), refused with :class:`~bayesbench.measures.codes.TableTooLarge` when one
    row's largest product would exceed the limit on a table's cells."""
    live = {k: tuple(s) for k, s in enumerate(scopes)}
    n = len(scopes)
    remaining = sorted(set().union(*map(set, scopes))) if scopes else []
    order, steps, largest = [], [], 1
    while remaining:
        def union_of(a):
            return tuple(sorted(set().union(*(set(s) for s in live.values() if a in s))))

        a = min(remaining, key=lambda a: (int(np.prod([cards[u] for u in union_of(a)],
                                                      dtype=object)), a))
        union = union_of(a)
        check_table_size([int(cards[u]) for u in union] + [n_classes], union)
        largest = max(largest, int(np.prod([int(cards[u]) for u in union], dtype=np.int64)))
        touching = tuple(k for k, s in live.items() if a in s)
        for k in touching:
            del live[k]
        live[n] = tuple(u for u in union if u != a)
        n += 1
        order.append(a)
        steps.append((touching, union))
        remaining.remove(a)
    return Plan(tuple(tuple(s) for s in scopes), tuple(order), tuple(steps), largest)


def _aligned(factor: np.ndarray, scope: tuple[int, ...], union: tuple[int, ...], cards):
    """``factor`` (rows, values of ``scope``..., classes) with a length-1 axis for each
    attribute of ``union`` (a sorted superset of ``scope``) it does not depend on."""
    shape = [factor.shape[0], *(int(cards[u]) if u in scope else 1 for u in union),
             factor.shape[-1]]
    return factor.reshape(shape)


def _log_sum(total: np.ndarray, axis: int) -> np.ndarray:
    """``log sum exp`` over ``axis``; ``-inf`` where every term is (no NaN, no warning)."""
    peak = total.max(axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.exp(total - peak).sum(axis=axis)) + np.squeeze(peak, axis=axis)


def eliminate(the_plan: Plan, factors: Sequence[np.ndarray], cards) -> np.ndarray:
    """``log`` of the sum over every attribute of the plan of the product of ``factors``
    (log arrays ``(rows, values of the scope..., classes)``, in the plan's order), per
    row and class: ``(rows, classes)``."""
    live = dict(enumerate(factors))
    scopes = dict(enumerate(the_plan.scopes))
    n = len(factors)
    for a, (touching, union) in zip(the_plan.order, the_plan.steps):
        total = None
        for k in touching:
            term = _aligned(live.pop(k), scopes.pop(k), union, cards)
            total = term if total is None else total + term
        live[n] = _log_sum(total, 1 + union.index(a))
        scopes[n] = tuple(u for u in union if u != a)
        n += 1
    out = None
    for factor in live.values():  # every scope is empty now: (rows, classes)
        out = factor if out is None else out + factor
    return out


def row_blocks(n_rows: int, the_plan: Plan, n_classes: int):
    """Slices of at most as many rows as keep one block's largest product in memory."""
    step = max(1, _BLOCK_CELLS // (the_plan.cells * max(n_classes, 1)))
    return [slice(lo, lo + step) for lo in range(0, n_rows, step)]
