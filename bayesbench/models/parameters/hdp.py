"""Hierarchical Dirichlet process (HDP) estimates of conditional probability tables.

Petitjean, Buntine, Webb and Zaidi (2018), "Accurate parameter estimation for Bayesian
network classifiers using hierarchical Dirichlet processes", Machine Learning 107.

A table ``p(x | c, pa_1, ..., pa_k)`` is a tree: the root is ``p(x)``, its children
``p(x | c)``, theirs ``p(x | c, pa_1)`` and so on down to the leaves, which hold the
counts. Each node is a Dirichlet process whose base measure is its parent's estimate, so
that a sparse leaf backs off to its parent::

    p_j(x) = (n_jx + c_j p_parent(j)(x)) / (N_j + c_j)

The counts ``n_jx`` of an inner node are the table counts ``t_x`` of its children (the
Chinese restaurant franchise, collapsed); a node only exists where data reached it. The
posterior is explored by collapsed sampling of every table count ``t_jx`` from its
conditional given the rest ::

    S(n_jx, t) c_j^t S(n_px + t, t_px) / (c_p)_(N_p + t)

(``S`` the unsigned Stirling numbers of the first kind, ``p`` the parent, ``(c)_N`` the
rising factorial), and of the concentrations ``c`` (gamma prior of shape 2 and rate 1, by
Teh's auxiliary beta variables, every fifth sweep), tied by level (one per depth of a
tree) by default. The estimate is the mean of ``p_j`` over the iterations after burn-in (a tenth of them,
at most 1000); a parent configuration never seen takes the estimate of its deepest
ancestor that was.

Vectorised over every node of every table at once: two nodes are independent given the
rest unless one is the other's parent or they share a parent, so the nodes are coloured,
across all tables, with no parent and child nor two siblings of one colour (a family's
children take the ranks among themselves, skipping their parent's colour: as few colours as
the largest family needs), and the nodes of a colour are drawn together: a sweep is one
step per colour, not one per node and value. A value that can never hold more than one
count has its table count fixed (``t = n``), and a node with only such values is never
drawn. In a step every table count of a node is proposed from its conditional given the
current state, over a window of ``2 WINDOW + 1`` values, and the node's proposal is
accepted or rejected as a whole by Metropolis-Hastings, which corrects exactly for the one
coupling between the values of a node (its parent's total ``N_p``) and for the window. The
chain has the posterior of the authors' Gibbs sampler as its stationary distribution,
visiting it in another order.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
from scipy.special import digamma, gammaln, polygamma

from ..core.prefix_counts import PrefixCounts

#: The ways concentrations are shared: one per depth of a table, one per table (every depth
#: but the root's), or one per node (the authors' LEVEL, SINGLE and NONE).
TYINGS = ("level", "single", "none")
#: Half the width of the window a table count is proposed from (the authors draw from
#: +-10 without correction; the Metropolis-Hastings step here is exact for any window, and
#: +-4 costs less than half as much per sweep), and the largest table count (theirs).
WINDOW = 4
MAX_TABLES = 10000
#: The root's concentration (never sampled) and every concentration's starting value.
START_CONCENTRATION = 2.0
#: A concentration is drawn every FREQUENCY iterations, and never exceeds CAP.
FREQUENCY = 5
CAP = 4000.0
#: Stirling numbers S(n, t) for n up to EXACT come from the recurrence; above it from the
#: saddle-point approximation (Moser and Wyman 1958; exact formulas for t <= 3 and t >= n - 2),
#: whose error on log S is below 0.03 and on the differences log S(n, t + 1) - log S(n, t)
#: the sampler reads below 0.03 (below 1e-3 away from the ends). The authors' code keeps
#: log S in single precision, an error of about 1e-3 at n = 1500.
EXACT = 1500


@lru_cache(maxsize=1)
def _stirling_table() -> np.ndarray:
    """``log S(n, t)`` for ``0 <= t <= n <= EXACT`` (-inf elsewhere), by
    ``S(n + 1, t) = n S(n, t) + S(n, t - 1)`` in log space."""
    table = np.full((EXACT + 1, EXACT + 2), -np.inf)
    table[0, 0] = 0.0
    for n in range(EXACT):
        row = table[n]
        shifted = np.concatenate(([-np.inf], row[:-1]))
        with np.errstate(divide="ignore"):
            table[n + 1] = np.logaddexp(row + np.log(n) if n else np.full_like(row, -np.inf),
                                        shifted)
    return table[:, :EXACT + 1]


#: The -inf entries after each row of :func:`_packed_table`: a proposal window reads
#: ``S(n, v)`` for ``v`` up to ``n + 2 WINDOW`` and ``S(m, t_parent)`` for ``t_parent`` up to
#: ``m + WINDOW`` (see :func:`_window`), so the reads past a row find -inf without a bound.
_PAD = 2 * WINDOW + 2


@lru_cache(maxsize=1)
def _packed_table() -> np.ndarray:
    """:func:`_stirling_table` row by row, row ``n`` holding ``t = 0 .. n`` then ``_PAD``
    -inf from offset :func:`_row_starts` ``[n]``: the small ``n`` a sampler mostly reads sit
    together in cache, where the square table's rows are 12 KB apart."""
    table = _stirling_table()
    return np.concatenate([np.r_[table[n, :n + 1], np.full(_PAD, -np.inf)]
                           for n in range(EXACT + 1)])


@lru_cache(maxsize=1)
def _row_starts() -> np.ndarray:
    """Where each row of :func:`_packed_table` starts."""
    return np.r_[0, np.cumsum(np.arange(EXACT + 1) + 1 + _PAD)[:-1]]


def _packed(n: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``log S(n, t)`` for ``n <= EXACT`` and ``t >= 0`` from :func:`_packed_table`."""
    return _packed_table()[_row_starts()[n] + np.minimum(t, n + 1)]


def _saddle_point(n: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``log S(n, t)`` for ``3 < t < n - 2``: the saddle point ``x`` of
    ``x (psi(x + n) - psi(x)) = t`` found by Newton steps on ``log x``."""
    x = t / np.log1p(n / t)
    for _ in range(60):
        g = x * (digamma(x + n) - digamma(x)) - t
        v = t + g + x * x * (polygamma(1, x + n) - polygamma(1, x))
        step = np.clip(g / v, -1.0, 1.0)
        x = x * np.exp(-step)
        if np.all(np.abs(step) < 1e-12):
            break
    v = t + x * x * (polygamma(1, x + n) - polygamma(1, x))
    return gammaln(x + n) - gammaln(x) - t * np.log(x) - 0.5 * np.log(2 * np.pi * v)


def log_stirling(n, t) -> np.ndarray:
    """``log S(n, t)``, unsigned Stirling numbers of the first kind, elementwise;
    -inf where ``S`` is 0 (``t > n``, or ``t = 0 < n``)."""
    n, t = np.broadcast_arrays(np.asarray(n, dtype=np.int64), np.asarray(t, dtype=np.int64))
    out = np.full(n.shape, -np.inf)
    ok = (t >= 0) & (t <= n) & ((t > 0) | (n == 0))
    small = ok & (n <= EXACT)
    out[small] = _stirling_table()[n[small], t[small]]
    big = ok & (n > EXACT)
    if big.any():
        nb, tb = n[big].astype(np.float64), t[big].astype(np.float64)
        value = np.zeros(nb.shape)
        one, two, three, top, below = tb == 1, tb == 2, tb == 3, tb == nb, tb == nb - 1
        # exact: S(n, 1) = (n-1)!, S(n, 2) = (n-1)! H, S(n, 3) = (n-1)! (H^2 - H2) / 2 with
        # H and H2 the harmonic numbers of order 1 and 2 of n - 1, S(n, n-1) = n (n-1) / 2
        harmonic = digamma(nb) + np.euler_gamma
        value[one] = gammaln(nb[one])
        value[two] = gammaln(nb[two]) + np.log(harmonic[two])
        h2 = np.pi ** 2 / 6 - polygamma(1, nb[three])
        value[three] = gammaln(nb[three]) + np.log((harmonic[three] ** 2 - h2) / 2)
        value[below] = np.log(nb[below]) + np.log(nb[below] - 1) - np.log(2.0)
        two_below = tb == nb - 2  # S(n, n-2) = n (n-1) (n-2) (3n-1) / 24
        m = nb[two_below]
        value[two_below] = (np.log(m) + np.log(m - 1) + np.log(m - 2) + np.log(3 * m - 1)
                            - np.log(24.0))
        rest = ~(one | two | three | top | below | two_below)
        value[rest] = _saddle_point(nb[rest], tb[rest])
        out[big] = value
    return out


@dataclass
class _Level:
    """The nodes of one depth of every tree: the data that end there, the table of each
    node's parent (a row of the level above), its concentration's index and its tree, and
    where each tree's nodes start."""

    data: np.ndarray
    parent: np.ndarray
    conc: np.ndarray
    tree: np.ndarray
    starts: dict
    n: np.ndarray | None = None
    t: np.ndarray | None = None


def _build(tables: Sequence[PrefixCounts], width: int, tying: str) -> list[_Level]:
    """The levels of the forest of all tables, values padded to ``width``."""
    levels: list[_Level] = []
    conc_next = 0
    for d in range(max(t.depth for t in tables) + 2):
        present = [i for i, t in enumerate(tables) if d <= t.depth + 1]
        data, parents, trees, starts = [], [], [], {}
        offset = 0
        for i in present:
            table = tables[i]
            ends = np.zeros((len(table.keys[d]), width))
            ends[:, :table.n_values] = table.ends[d]
            data.append(ends)
            trees.append(np.full(len(ends), i))
            starts[i] = offset
            offset += len(ends)
            if d:
                # a node's parent is its prefix one digit shorter
                above = table.find(d - 1, table.keys[d] // table.radix[d - 1])
                parents.append(levels[d - 1].starts[i] + above)
        tree_of = np.concatenate(trees)
        parent = np.concatenate(parents) if d else np.full(len(tree_of), -1)
        conc, conc_next = _concentrations(tying, d, tree_of, conc_next)
        levels.append(_Level(np.rint(np.concatenate(data)).astype(np.int64), parent, conc,
                             tree_of, starts))
    return levels


def _concentrations(tying: str, depth: int, tree_of: np.ndarray, start: int):
    """The concentration index of each node of a level (index 0 is the roots' fixed one)."""
    if depth == 0:
        return np.zeros(len(tree_of), dtype=np.int64), max(start, 1)
    if tying == "none":
        return start + np.arange(len(tree_of)), start + len(tree_of)
    if tying == "single":
        # one per tree, the same at every depth below the root: indices 1 + tree
        return 1 + tree_of, start
    trees = np.unique(tree_of)
    index = np.searchsorted(trees, tree_of)
    return start + index, start + len(trees)


def _initial_tables(levels: list[_Level], conc: np.ndarray) -> None:
    """Table counts from the leaves up: ``t = n`` where ``n <= 1``, else
    ``max(1, floor(c (psi(c + n) - psi(c))))`` (the expected number of tables); the root's
    ``t`` is 1 wherever ``n > 0``; each level's ``n`` the sum of its children's ``t``."""
    for d in range(len(levels) - 1, -1, -1):
        level = levels[d]
        # a leaf holds its data; an inner node the table counts of its children (the leaves
        # of a table with fewer parents sit higher than the others')
        level.n = level.data.copy()
        if d < len(levels) - 1 and len(levels[d + 1].parent):
            below = levels[d + 1]
            np.add.at(level.n, below.parent, below.t)
        if d == 0:
            level.t = (level.n > 0).astype(np.int64)
            continue
        c = conc[level.conc][:, None]
        expected = np.floor(c * (digamma(c + level.n) - digamma(c)))
        level.t = np.where(level.n <= 1, level.n, np.maximum(1, expected)).astype(np.int64)


def _log_s(n: np.ndarray, t: np.ndarray) -> np.ndarray:
    """:func:`log_stirling` for ``t >= 0``, reading the table directly when it can."""
    n, t = np.broadcast_arrays(n, t)
    small = n <= EXACT
    if small.all():
        return _packed(n, t)
    out = np.empty(n.shape)
    out[small] = _packed(n[small], t[small])
    out[~small] = log_stirling(n[~small], t[~small])
    return out


@dataclass(frozen=True, eq=False)
class _Group:
    """Nodes drawn together (no two of them parent and child or siblings) and, for each of
    their values that can ever hold more than one count (the pairs), where its count and
    table count and its parent's sit in the flattened ``n`` and ``t``."""

    node: np.ndarray
    parent: np.ndarray
    pair: np.ndarray
    parent_pair: np.ndarray
    rows: np.ndarray
    conc: np.ndarray
    parent_conc: np.ndarray
    node_parent_conc: np.ndarray
    at: np.ndarray


@dataclass
class _Forest:
    """Every node of every level in one set of arrays (level ``d`` is rows
    ``starts[d]:starts[d + 1]``), each node's total count ``N``, and the groups of nodes
    drawn together."""

    n: np.ndarray
    t: np.ndarray
    N: np.ndarray
    parent: np.ndarray
    conc: np.ndarray
    starts: np.ndarray
    groups: list


def _most_counts(levels: list[_Level], parent: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The largest count each (node, value) can ever hold: its data plus, for each child,
    the most tables the child can have (its own largest count, at most MAX_TABLES)."""
    most = np.concatenate([level.data for level in levels])
    for d in range(len(levels) - 1, 0, -1):
        rows = slice(starts[d], starts[d + 1])
        np.add.at(most, parent[rows], np.minimum(most[rows], MAX_TABLES))
    return most


def _colours(parent: np.ndarray, starts: np.ndarray, active: np.ndarray) -> np.ndarray:
    """A colour for every active node (-1 for the others), no two of one colour parent and
    child or siblings, in as few colours as the largest family (a node and its active
    children) needs: level by level, the active children of a parent take the ranks
    0, 1, ... among themselves, skipping their parent's colour."""
    colour = np.full(len(parent), -1)
    for d in range(1, len(starts) - 1):
        nodes = starts[d] + np.flatnonzero(active[starts[d]:starts[d + 1]])
        if not nodes.size:
            continue
        par = parent[nodes]
        order = np.argsort(par, kind="stable")
        first = np.r_[0, np.flatnonzero(np.diff(par[order])) + 1]
        rank = np.empty(len(nodes), dtype=np.int64)
        rank[order] = np.arange(len(nodes)) - np.repeat(first, np.diff(np.r_[first, len(nodes)]))
        above = colour[par]
        colour[nodes] = rank + ((above >= 0) & (rank >= above))
    return colour


def _group(node: np.ndarray, parent: np.ndarray, conc: np.ndarray, most: np.ndarray) -> _Group:
    """The static index arrays of the nodes ``node`` drawn together."""
    width = most.shape[1]
    rows, val = np.nonzero(most[node] > 1)
    par = parent[node]
    return _Group(node, par, node[rows] * width + val, par[rows] * width + val, rows,
                  conc[node][rows], conc[par][rows], conc[par], np.arange(len(rows)))


def _forest(levels: list[_Level]) -> _Forest:
    """The levels flattened. Two nodes are independent given the rest unless one is the
    other's parent or they share a parent, so the nodes of one colour (:func:`_colours`) are
    drawn together; a node none of whose values can hold more than one count has its table
    counts fixed (``t = n``) and is never drawn, nor are the roots."""
    sizes = [len(level.n) for level in levels]
    starts = np.r_[0, np.cumsum(sizes)]
    parent = np.concatenate([level.parent + (starts[d - 1] if d else 0)
                             for d, level in enumerate(levels)])
    parent[:sizes[0]] = -1
    conc = np.concatenate([level.conc for level in levels])
    most = _most_counts(levels, parent, starts)
    active = (most > 1).any(axis=1)
    active[:sizes[0]] = False
    colour = _colours(parent, starts, active)
    n = np.concatenate([level.n for level in levels])
    return _Forest(n, np.concatenate([level.t for level in levels]), n.sum(axis=1), parent,
                   conc, starts, [_group(np.flatnonzero(colour == c), parent, conc, most)
                                  for c in range(int(colour.max()) + 1)])


_SPAN = np.arange(2 * WINDOW + 1)


def _window(state, rest, n, base, pt, log_c, small, row_n):
    """The proposal of each pair's table count given ``state``: the window of ``2 WINDOW + 1``
    values ``v`` from ``WINDOW`` below the state (or from 1), and over it the log
    conditional ``log S(n, v) + log S(base + v, t_parent) + log c^v / (rest)_v`` up to the
    pair's constant (``rest``: the parent's concentration plus its total count without this
    pair's tables). Returns the window's start, the cumulative ``log c - log(rest + u)`` for
    ``u`` from the start to ``v - 1`` (whose sum is that last factor relative to the start),
    the weights ``exp(score - peak)`` and the peaks (``row_n``: where row ``n`` of
    :func:`_packed_table` starts)."""
    low = np.maximum(state - WINDOW, 1)
    if small:
        # v <= n + 2 WINDOW and t_parent <= base + v + WINDOW: both within a row's padding
        table = _packed_table()
        score = table[(row_n + low)[:, None] + _SPAN]
        score += table[_row_starts()[(base + low)[:, None] + _SPAN] + pt[:, None]]
    else:
        v = low[:, None] + _SPAN
        score = _log_s(n[:, None], v) + _log_s(base[:, None] + v, pt[:, None])
        score[v > np.minimum(n, MAX_TABLES)[:, None]] = -np.inf
    steps = np.zeros(score.shape)
    np.cumsum(log_c[:, None] - np.log((rest + low)[:, None] + _SPAN[:-1]), axis=1,
              out=steps[:, 1:])
    score += steps
    peak = score.max(axis=1)
    return low, steps, np.exp(score - peak[:, None]), peak


def _draw_tables(f: _Forest, g: _Group, log_conc: np.ndarray, conc: np.ndarray,
                 rng) -> None:
    """One Metropolis-Hastings step for the table counts of the nodes of ``g`` (independent
    given the rest): each pair's count is proposed from its conditional given the current
    state over a window of ``2 WINDOW + 1`` values, and a node's proposal is accepted or
    not as a whole, which corrects for the one coupling between its values (its parent's
    total) and for the windows. In the ratio the Stirling numbers and ``c^v`` of the target
    cancel against the proposals', leaving per pair the rising factorials of the two
    windows at the values drawn and their normalisers, and per node the parent's
    ``(c_p)_(N_p)`` before and after."""
    n_flat, t_flat = f.n.reshape(-1), f.t.reshape(-1)
    n = n_flat[g.pair]
    old = t_flat[g.pair]
    n_parent = n_flat[g.parent_pair]
    base = n_parent - old
    pt = t_flat[g.parent_pair]
    log_c = log_conc[g.conc]
    total = f.N[g.parent]
    rest = conc[g.parent_conc] + total[g.rows] - old
    # the Stirling numbers read are at n and at the parent's count plus at most 2 WINDOW:
    # above EXACT they come from the formulas
    small = n.max() <= EXACT and n_parent.max() + 2 * WINDOW <= EXACT
    row_n = _row_starts()[n] if small else None
    low, steps, weights, peak = _window(old, rest, n, base, pt, log_c, small, row_n)
    cum = np.cumsum(weights, axis=1)
    chosen = np.minimum((cum < rng.random(len(old))[:, None] * cum[:, -1:]).sum(axis=1),
                        2 * WINDOW)
    new = low + chosen
    step = new - old
    change = np.bincount(g.rows, weights=step, minlength=len(g.node)).astype(np.int64)
    # the reverse move: from the new state, whose rest differs by the node's other pairs'
    # changes; the old count outside the new window is impossible
    low2, steps2, weights2, peak2 = _window(new, rest + change[g.rows] - step, n, base, pt,
                                            log_c, small, row_n)
    back = old - low2
    inside = (back >= 0) & (back <= 2 * WINDOW)
    # log (rest)_v relative to the window's start is (v - start) log c minus the steps, and
    # a window's scores are short of the conditional's by start log c (outside the window
    # the index wraps to any column: the pair's term is -inf there)
    per_pair = np.where(inside, step * log_c - steps[g.at, chosen]
                        + steps2[g.at, back % (2 * WINDOW + 1)] + peak - peak2
                        + np.log(cum[:, -1] / weights2.sum(axis=1)), -np.inf)
    start = conc[g.node_parent_conc] + total
    log_ratio = (np.bincount(g.rows, weights=per_pair, minlength=len(g.node))
                 - gammaln(start + change) + gammaln(start))
    accept = np.log(rng.random(len(g.node))) < log_ratio
    moved = accept[g.rows]
    t_flat[g.pair[moved]] = new[moved]
    n_flat[g.parent_pair[moved]] += step[moved]
    f.N[g.parent[accept]] += change[accept]


def _draw_concentrations(f: _Forest, conc: np.ndarray, rng) -> None:
    """Teh's auxiliary-variable draw of every sampled concentration: ``q_j ~ Beta(c, N_j)``
    per tied node, then ``c ~ Gamma(2 + sum T_j, rate 1 + sum -log q_j)``."""
    inner = slice(f.starts[1], None)
    ids = f.conc[inner]
    q = np.maximum(1e-75, rng.beta(conc[ids], f.N[inner]))
    rate = 1.0 + np.bincount(ids, weights=-np.log(q), minlength=len(conc))
    shape = 2.0 + np.bincount(ids, weights=f.t[inner].sum(axis=1), minlength=len(conc))
    used = np.bincount(ids, minlength=len(conc)) > 0
    used[0] = False
    conc[used] = np.minimum(CAP, rng.gamma(shape[used]) / rate[used])


def _estimates(f: _Forest, root: np.ndarray, conc: np.ndarray, p: np.ndarray) -> None:
    """Each node's ``p = (n + c p_parent) / (N + c)`` into ``p``, top down (``root`` the
    roots' parent: uniform over their tree's values, 0 on the padding, which the children
    inherit)."""
    for d in range(len(f.starts) - 1):
        rows = slice(f.starts[d], f.starts[d + 1])
        c = conc[f.conc[rows]]
        base = root if d == 0 else p[f.parent[rows]]
        p[rows] = (f.n[rows] + c[:, None] * base) / (f.N[rows] + c)[:, None]


def hdp_estimates(tables: Sequence[PrefixCounts], *, iterations: int, tying: str,
                  rng: np.random.Generator) -> list[list[np.ndarray]]:
    """HDP estimates of conditional tables from their counts.

    Parameters
    ----------
    tables : list of PrefixCounts
        The counts of each table under the prefixes of its parents: a table's tree branches
        on the class, then on its parents in their order, and has a node at every prefix
        that occurs.
    iterations : int
        Sweeps; estimates are averaged over those after burn-in.
    tying : one of :data:`TYINGS`
    rng : numpy.random.Generator
        The only source of randomness: the same generator state gives the same estimates.

    Returns
    -------
    list of lists of ndarray
        For each table and depth ``d``, the posterior mean of ``p(x | prefix)`` at each key
        of ``keys[d]``, shape ``(len(keys[d]), n_values)``.
    """
    if not tables:
        return []
    values = np.array([t.n_values for t in tables], dtype=np.int64)
    levels = _build(tables, int(values.max()), tying)
    conc = np.full(1 + max(int(level.conc.max()) for level in levels if level.conc.size),
                   START_CONCENTRATION)
    _initial_tables(levels, conc)
    forest = _forest(levels)
    burn_in = min(1000, iterations // 10)
    # the roots' parent: uniform over their tree's values, 0 on the padding
    root = (np.arange(forest.n.shape[1]) < values[levels[0].tree][:, None]) / values[
        levels[0].tree][:, None]
    p, total, kept = np.empty(forest.n.shape), np.zeros(forest.n.shape), 0
    for sweep in range(iterations):
        log_conc = np.log(conc)
        for group in forest.groups:
            _draw_tables(forest, group, log_conc, conc, rng)
        if (sweep + FREQUENCY // 2) % FREQUENCY == 0:
            _draw_concentrations(forest, conc, rng)
        if sweep >= burn_in:
            _estimates(forest, root, conc, p)
            total += p
            kept += 1
    if kept:
        p = total / kept
    else:
        _estimates(forest, root, conc, p)
    return [[p[forest.starts[d] + levels[d].starts[i]:][:len(table.keys[d]), :table.n_values]
             for d in range(table.depth + 2)] for i, table in enumerate(tables)]
