"""The structure searches of Weka 3.6's ``BayesNet`` (package
``weka.classifiers.bayes.net.search.local``), step for step.

Nodes are the attributes ``0 .. m-1`` and the class, ``m``; a structure is each node's list
of parents, in the order they were added (Weka's ``ParentSet``: a deleted parent's
successors move up). Every search maximises a decomposable local score
(:mod:`.local_scores`) and takes, among equal scores, the candidate Weka's loops meet first
(a later one must be strictly better), so that the parent sets agree with Weka's.

* :func:`k2` (Cooper and Herskovits 1992; Weka's ``K2``): nodes in a fixed order, the class
  first; each in turn adds, from the nodes before it, the parent that most raises its
  score, while one does and it has fewer than ``max_parents``.
* :func:`hill_climbing` (``HillClimber``): from the initial structure, the best of all arc
  additions (heads, then tails, in index order; an arc that closes no cycle, into a node
  with fewer than ``max_parents`` parents) and deletions (nodes in index order, parents
  in order), while it raises the score. Arc reversal is off, Weka's default.
* :func:`tabu_search` (Bouckaert 1995; ``TabuSearch``): ``runs`` steps of the best
  operation whatever its change of score, the last ``tabu_length`` operations barred from
  being taken again; the best structure met is kept.
* :func:`tan` (Friedman, Geiger and Goldszmidt 1997; Weka's local ``TAN``): a
  maximum-weight spanning tree over the attributes, weighted by the gain of adding one as
  a parent of the other beside the class, grown from the strongest link, each link
  directed into the node that has no attribute parent yet.

Weka's Markov blanket correction (``-mbc``) is off in all of them, its default.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np

from .family_counts import FamilyCounts
from .local_scores import family_scores

#: Weka's score of a parent set that already holds the candidate (never taken) and its
#: "no operation found yet".
NOTHING = -1e100

#: The ``extra`` of a family :meth:`LocalScorer.scores` scores alone.
ALONE = ()

#: TabuSearch's defaults (``-U`` runs, ``-L`` tabu list length).
TABU_RUNS, TABU_LENGTH = 10, 5

ADD, DELETE = 0, 1


class LocalScorer:
    """The local ``score`` of families, from the tables of ``counts``, each family (a node
    and its parents in order) scored once: the searches ask again for the ones they met
    (a node's score before and after a step, the deletions of its parents), and a score
    depends on nothing else."""

    def __init__(self, counts: FamilyCounts, score: str):
        self.counts, self.score_name = counts, score
        self.n_rows = counts.n_rows
        self._known: dict = {}

    def scores(self, families) -> list[np.ndarray]:
        """Per ``(node, parents, extra)`` of ``families``: the scores of ``node`` given
        ``parents`` plus each of ``extra`` added last; with ``extra`` :data:`ALONE`, given
        ``parents`` (one score); with ``extra`` None, given ``parents`` (one score) and less
        each of them in turn. The new ones are counted and scored together."""
        asked, new = [], {}
        for node, parents, extra in families:
            parents = tuple(parents)
            if not extra:
                keys = [(node, parents)]
                if extra is None:
                    keys += [(node, parents[:i] + parents[i + 1:]) for i in range(len(parents))]
            else:
                keys = [(node, parents + (t,)) for t in extra]
            new.update((key, None) for key in keys if key not in self._known)
            asked.append(keys)
        if new:
            keys, order, tables = list(new), [], []
            for positions, part in self.counts.tables(keys):
                order += positions
                tables += part
            scores = family_scores(tables, self.score_name, self.n_rows)
            self._known.update(zip((keys[i] for i in order), scores.tolist()))
        known = self._known
        flat = np.array([known[key] for wanted in asked for key in wanted])
        ends = list(itertools.accumulate(len(wanted) for wanted in asked))
        return [flat[end - len(wanted):end] for wanted, end in zip(asked, ends)]


def initial_parents(n_nodes: int, naive: bool) -> list[list[int]]:
    """Each node's parents at the start: the class (the last node) of every attribute for
    a naive Bayes start (Weka's default), none for an empty one (``-N``)."""
    the_class = n_nodes - 1
    return [[the_class] if naive and v != the_class else [] for v in range(n_nodes)]


def k2_order(n_nodes: int, naive: bool, rng: np.random.Generator | None = None) -> list[int]:
    """K2's order: the class, then the attributes in index order; with ``rng``, shuffled
    as Weka's ``-R`` does (each position in turn swapped with a random one, the class kept
    first when the start is naive Bayes)."""
    the_class = n_nodes - 1
    order = [the_class] + list(range(the_class))
    if rng is not None:
        fixed = 0 if naive else -1
        for i in range(n_nodes):
            j = int(rng.integers(n_nodes))
            if i != fixed and j != fixed:
                order[i], order[j] = order[j], order[i]
    return order


def k2(scorer: LocalScorer, parents: list[list[int]], max_parents: int,
       order: Sequence[int]) -> list[list[int]]:
    """Weka's K2 from ``parents`` (changed in place and returned).

    A node's choices depend on its own parents only, so the nodes still growing take their
    next parent together, round by round, their candidates scored at once (Weka finishes
    one node before the next: the same choices)."""
    position = {v: i for i, v in enumerate(order)}
    # The nodes that may take a parent (K2 from naive Bayes with one parent: none).
    growing = [v for v in order[1:] if len(parents[v]) < max_parents]
    best: dict = {}
    while True:
        requests = []
        for v in growing:
            tails = [t for t in order[:position[v]] if t not in parents[v]]
            if len(parents[v]) < max_parents and tails:
                requests.append((v, parents[v], tails))
        if not requests:
            return parents
        # A node's own score is scored with its first candidates.
        first = [(v, parents[v], ALONE) for v, _, _ in requests if v not in best]
        scored = scorer.scores(requests + first)
        best.update((v, own[0]) for (v, _, _), own in zip(first, scored[len(requests):]))
        growing = []
        for (v, _, tails), scores in zip(requests, scored):
            j = int(scores.argmax())  # the first of the best in order, as Weka's scan
            if scores[j] > best[v]:
                parents[v].append(tails[j])
                best[v] = scores[j]
                growing.append(v)


class _Cache:
    """HillClimber's cache: for every head, the change of its score when each tail is added
    as its last parent (while it has room) or each of its parents is deleted, kept current
    as the head's parents change."""

    def __init__(self, scorer: LocalScorer, parents, max_parents: int):
        self.scorer, self.parents, self.max_parents = scorer, parents, max_parents
        n = len(parents)
        self.add = np.full((n, n), NOTHING)
        self.delete = np.full((n, n), NOTHING)
        self.update(range(n), ahead=True)

    def update(self, heads, ahead: bool = False):
        """Recompute the changes of ``heads`` (their families scored together); ``ahead``:
        with the families a head has after any one addition less one of its parents, which
        the update after that step asks for (from naive Bayes, each node given one
        attribute: pairs, scored with the others rather than one step at a time)."""
        families, adds, later = [], [], []
        for head in heads:
            parents = self.parents[head]
            families.append((head, parents, None))
            tails = [t for t in range(len(self.parents)) if t != head and t not in parents]
            if len(parents) < self.max_parents and tails:
                families.append((head, parents, tails))
                adds.append(head)
                if ahead:
                    later += [(head, parents[:i] + parents[i + 1:], tails)
                              for i in range(len(parents))]
        scores = iter(self.scorer.scores(families + later))
        for head in heads:
            parents = self.parents[head]
            base, *without = next(scores)
            if parents:
                self.delete[head, parents] = np.asarray(without) - base
            if head in adds:
                tails = [t for t in range(len(self.parents)) if t != head and t not in parents]
                self.add[head, tails] = next(scores) - base


def _arcs(parents) -> tuple[np.ndarray, np.ndarray]:
    """Every arc's ``(tails, heads)``."""
    heads = np.repeat(np.arange(len(parents)), [len(pa) for pa in parents])
    return np.array([t for pa in parents for t in pa], dtype=np.intp), heads


def _ancestors(parents) -> np.ndarray:
    """``out[a, b]``: ``a`` is ``b`` or one of its ancestors."""
    reach = np.eye(len(parents), dtype=bool)
    reach[_arcs(parents)] = True
    while True:  # transitive closure by squaring: log2(n) products at most (BLAS, in float)
        as_float = reach.astype(np.float64)
        wider = (as_float @ as_float) > 0
        if (wider == reach).all():
            return reach
        reach = wider


def _best_operation(cache: _Cache, parents, max_parents: int, tabu=()):
    """HillClimber's ``getOptimalOperation``: ``(kind, tail, head, change)`` of the best
    arc addition or deletion not in ``tabu``, None when there is none."""
    n = len(parents)
    # allowed[head, tail]: adding tail -> head closes no cycle (head is no ancestor of tail),
    # is no arc yet, and head has room for a parent.
    allowed = ~_ancestors(parents)
    tails, heads = _arcs(parents)
    allowed[heads, tails] = False
    allowed[[len(pa) >= max_parents for pa in parents]] = False
    for kind, tail, head in tabu:
        if kind == ADD:
            allowed[head, tail] = False
    best = None
    if allowed.any():
        gains = np.where(allowed, cache.add, -np.inf)
        h, t = np.unravel_index(int(np.argmax(gains)), (n, n))
        if gains[h, t] > NOTHING:
            best = (ADD, int(t), int(h), float(gains[h, t]))
    barred = {(tail, head) for kind, tail, head in tabu if kind == DELETE}
    for head, pa in enumerate(parents):
        for tail in pa:
            change = cache.delete[head, tail]
            if change > (NOTHING if best is None else best[3]) and (tail, head) not in barred:
                best = (DELETE, tail, head, float(change))
    return best


def _apply(operation, cache: _Cache, parents):
    kind, tail, head, _ = operation
    if kind == ADD:
        parents[head].append(tail)
    else:
        parents[head].remove(tail)
    cache.update([head])


def hill_climbing(scorer: LocalScorer, parents: list[list[int]],
                  max_parents: int) -> list[list[int]]:
    """Weka's HillClimber from ``parents`` (changed in place and returned)."""
    cache = _Cache(scorer, parents, max_parents)
    while True:
        operation = _best_operation(cache, parents, max_parents)
        if operation is None or not operation[3] > 0:
            return parents
        _apply(operation, cache, parents)


def tabu_search(scorer: LocalScorer, parents: list[list[int]], max_parents: int,
                runs: int = TABU_RUNS, tabu_length: int = TABU_LENGTH) -> list[list[int]]:
    """Weka's TabuSearch from ``parents``: the best structure met, returned."""
    cache = _Cache(scorer, parents, max_parents)
    current = 0.0
    for node in scorer.scores([(v, pa, None) for v, pa in enumerate(parents)]):
        current += float(node[0])  # the network's score, summed in node order as Weka does
    best_score, best = current, [list(p) for p in parents]
    tabu: list = []
    for _ in range(runs):
        operation = _best_operation(cache, parents, max_parents, tabu)
        if operation is None:  # no step left (Weka stops with an exception)
            break
        _apply(operation, cache, parents)
        tabu = (tabu + [operation[:3]])[-tabu_length:]
        current += operation[3]
        if current > best_score:
            best_score, best = current, [list(p) for p in parents]
    return best


def tan(scorer: LocalScorer, parents: list[list[int]]) -> list[list[int]]:
    """Weka's local TAN from the naive Bayes ``parents`` (changed in place and returned)."""
    n = len(parents)
    the_class = n - 1
    if n <= 2:
        return parents
    attributes = list(range(the_class))
    gain = np.full((n, n), NOTHING)
    scores = iter(scorer.scores([family for head in attributes for family in (
        (head, parents[head], ALONE), (head, parents[head], [t for t in attributes if t != head]))]))
    for head in attributes:
        base, tails = next(scores)[0], [t for t in attributes if t != head]
        gain[head, tails] = next(scores) - base
    linked = np.zeros(n, dtype=bool)
    links = []
    for step in range(n - 2):
        best, best_gain = None, 0.0
        for head in attributes:
            for tail in attributes:
                if head == tail or (step and (linked[head] == linked[tail])):
                    continue
                # Weka takes the first candidate of each step, then strictly better ones,
                # against the best gain so far (carried over from the previous step).
                if best is None or gain[head, tail] > best_gain:
                    best, best_gain = (tail, head), gain[head, tail]
        links.append(best)
        linked[list(best)] = True
    has_parent = np.zeros(n, dtype=bool)
    for first, second in links:
        child, parent = (first, second) if not has_parent[first] else (second, first)
        parents[child].append(parent)
        has_parent[child] = True
    return parents
