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

The table counts are drawn by Gibbs sampling in the authors' order: every sweep goes over
the deepest level first, node by node and value by value (a root's table count is fixed at 1
wherever its count is positive, and a value that can never hold more than one count at
``t = n``), and draws each ``t_jx`` from its conditional given everything else, with the state
updated after every draw. As the authors do, a draw looks only at a window of
``2 WINDOW + 1`` values around the current one, but here the window is placed at random, which
keeps every step exact: an offset ``o`` is drawn uniformly from ``0 .. 2 WINDOW``, the window is
``[t - o, t - o + 2 WINDOW]``, and ``t`` is drawn from the conditional renormalised over it
(values below 1, above ``min(n_jx, MAX_TABLES)`` or below the parent's table count given the
parent's other counts having probability 0). Detailed balance holds for every pair of values
``t != t'``: the move from ``t`` to ``t'`` happens through exactly the windows ``I`` that hold
both, each placed with probability ``1 / (2 WINDOW + 1)`` from ``t``, and the same windows are
placed with the same probability from ``t'`` (the offset that puts ``I`` at ``t'`` is as
uniform as the one that puts it at ``t``), so ``pi(t) P(t -> t') = sum_I pi(t) pi(t') /
((2 WINDOW + 1) pi(I)) = pi(t') P(t' -> t)``: each draw is a Gibbs step within a randomly
chosen block, and leaves the posterior invariant. A window always centred on ``t`` and
clipped at 1 would not be (from ``t = 1`` it reaches ``2 WINDOW + 1``, from which 1 is out of
reach); the authors' code uses such a window of +-10 without correction. The sweep is a chain of
dependent draws, compiled with numba (:mod:`.hdp_kernel`); the uniforms it reads are drawn by
the generator, two per table count and sweep.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
from scipy.special import digamma

from ..core.prefix_counts import PrefixCounts
from .estimation import ParameterEstimator

#: The ways concentrations are shared: one per depth of a table, one per table (every depth
#: but the root's), or one per node (the authors' LEVEL, SINGLE and NONE).
TYINGS = ("level", "single", "none")
#: Half the width of the window a table count is drawn from (the authors': +-10), and the
#: largest table count (theirs).
WINDOW = 10
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


@lru_cache(maxsize=1)
def _packed_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the compiled sweep reads: :func:`_stirling_table` packed by rows (row ``n``
    holding ``t = 0 .. n`` from offset ``n (n + 1) / 2``), and the ratios of consecutive
    Stirling numbers along a row, ``S(n, t + 1) / S(n, t)`` packed the same way, and along
    a column, ``S(n + 1, t) / S(n, t)`` packed by columns (column ``t`` holding
    ``n = t .. EXACT``): a table count's window reads a run of each; 0 where a ratio's
    numerator is 0, where it is not defined, and past ``EXACT``."""
    table = _stirling_table()
    with np.errstate(invalid="ignore"):
        up_t = np.exp(np.diff(table, axis=1, append=-np.inf))
        up_n = np.exp(np.diff(table, axis=0, append=np.full((1, EXACT + 1), -np.inf)))
    up_t[~np.isfinite(up_t)] = 0.0
    up_n[~np.isfinite(up_n)] = 0.0
    return (np.concatenate([table[n, :n + 1] for n in range(EXACT + 1)]),
            np.concatenate([up_t[n, :n + 1] for n in range(EXACT + 1)]),
            np.concatenate([up_n[t:, t] for t in range(EXACT + 1)]))


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
        # lazy: numba's import (half a second) only where a Stirling number or a sample
        # needs the compiled code, not on every command that imports the estimators
        from .hdp_kernel import log_stirling_formulas

        out[big] = log_stirling_formulas(n[big], t[big])
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


@dataclass(frozen=True, eq=False)
class _Forest:
    """Every node of every level in one set of arrays (level ``d`` is rows
    ``starts[d]:starts[d + 1]``; ``n``, ``t`` and each node's total count ``N`` change in
    place), and the table counts drawn, in the order they are drawn (the pairs): where each
    one and its parent's sit in the flattened ``n`` and ``t``, its parent node, and the
    indices of its node's and its parent's concentrations."""

    n: np.ndarray
    t: np.ndarray
    N: np.ndarray
    parent: np.ndarray
    conc: np.ndarray
    starts: np.ndarray
    pair: np.ndarray
    parent_pair: np.ndarray
    pair_parent: np.ndarray
    pair_conc: np.ndarray
    pair_parent_conc: np.ndarray


def _most_counts(levels: list[_Level], parent: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The largest count each (node, value) can ever hold: its data plus, for each child,
    the most tables the child can have (its own largest count, at most MAX_TABLES)."""
    most = np.concatenate([level.data for level in levels])
    for d in range(len(levels) - 1, 0, -1):
        rows = slice(starts[d], starts[d + 1])
        np.add.at(most, parent[rows], np.minimum(most[rows], MAX_TABLES))
    return most


def _forest(levels: list[_Level]) -> _Forest:
    """The levels flattened, and the pairs: the values of every node below the roots that
    can ever hold more than one count (the others keep ``t = n``), deepest level first, node
    by node, value by value."""
    sizes = [len(level.n) for level in levels]
    starts = np.r_[0, np.cumsum(sizes)]
    parent = np.concatenate([level.parent + (starts[d - 1] if d else 0)
                             for d, level in enumerate(levels)])
    parent[:sizes[0]] = -1
    conc = np.concatenate([level.conc for level in levels])
    most = _most_counts(levels, parent, starts)
    width = most.shape[1]
    pair = np.concatenate([starts[d] * width + np.flatnonzero(most[starts[d]:starts[d + 1]] > 1)
                           for d in range(len(levels) - 1, 0, -1)]).astype(np.int64)
    node = pair // width
    n = np.concatenate([level.n for level in levels])
    return _Forest(n, np.concatenate([level.t for level in levels]), n.sum(axis=1), parent,
                   conc, starts, pair, parent[node] * width + pair % width, parent[node],
                   conc[node], conc[parent[node]])


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


def _posterior_mean(f: _Forest, conc: np.ndarray, root: np.ndarray, iterations: int,
                    rng) -> np.ndarray:
    """The sweeps: the table counts by the compiled Gibbs sweep, the concentrations every
    FREQUENCY sweeps; returns the mean of every node's estimate over the sweeps after burn-in
    (a tenth of them, at most 1000), or the initial state's without sweeps."""
    # lazy: numba's import (half a second) only when a table is sampled, not on every
    # command that imports the estimators
    from . import hdp_kernel

    n_flat, t_flat = f.n.reshape(-1), f.t.reshape(-1)
    tables = _packed_tables()
    burn_in = min(1000, iterations // 10)
    p, total, kept = np.empty(f.n.shape), np.zeros(f.n.shape), 0
    for sweep in range(iterations):
        hdp_kernel.sweep(n_flat, t_flat, f.N, f.pair, f.parent_pair, f.pair_parent, f.pair_conc,
                         f.pair_parent_conc, conc, rng.random((2, len(f.pair))), WINDOW,
                         MAX_TABLES, tables, EXACT)
        if (sweep + FREQUENCY // 2) % FREQUENCY == 0:
            _draw_concentrations(f, conc, rng)
        if sweep >= burn_in:
            hdp_kernel.estimates(f.n, f.N, f.parent, f.conc, conc, root, p)
            total += p
            kept += 1
    if not kept:
        hdp_kernel.estimates(f.n, f.N, f.parent, f.conc, conc, root, p)
        return p
    return total / kept


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
    # the roots' parent: uniform over their tree's values, 0 on the padding
    root = (np.arange(forest.n.shape[1]) < values[levels[0].tree][:, None]) / values[
        levels[0].tree][:, None]
    p = _posterior_mean(forest, conc, root, iterations, rng)
    return [[p[forest.starts[d] + levels[d].starts[i]:][:len(table.keys[d]), :table.n_values]
             for d in range(table.depth + 2)] for i, table in enumerate(tables)]


class HDP(ParameterEstimator):
    """Hierarchical Dirichlet process estimates (:func:`hdp_estimates`), drawn from the
    generator given (seed 0 without one), with ``iterations`` sweeps and the concentrations
    tied by ``tying``."""

    name = "hdp"
    summary = "hierarchical Dirichlet process estimates (Petitjean et al. 2018), sampled"
    stochastic = True

    def probabilities(self, tables):
        return hdp_estimates(tables, iterations=self.iterations, tying=self.tying,
                             rng=np.random.default_rng(0) if self.rng is None else self.rng)
