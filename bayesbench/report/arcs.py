"""Arc stability: how often each arc of a learned structure was learned over the folds.

A structure learner's network is drawn from the first fold only; which of its arcs every
fold learns and which only some is read from the records: each holds its fold's structure
as one line (:meth:`~bayesbench.models.core.structure.Structure.summary`, ``"5 nodes; 1
joined (a+b); 3 arcs; 1 dropped (c): a->d, d->e"``). ``summary/arc_frequencies.csv`` has a
row per data set, classifier and arc learned in some fold: ``parent``, ``child`` and the
``frequency`` of folds (over every fold of every repetition whose task finished) that
learned it. For a selective learner (one that dropped an attribute in some fold), the rows
whose parent is the class give how often each attribute was selected.

Attribute names holding ``->`` or ``, `` would make an arc list ambiguous: a data set with
such a name has no rows.

:func:`consensus` turns a data set and classifier's rows into the network the figure
``consensus-<data set>-<classifier>`` draws: every node of any fold, and every arc that at
least a share ``threshold`` of the folds learned (by default half of them,
:attr:`~bayesbench.spec.FigureSpec.consensus_threshold`), with its share.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from ..models.core.structure import Node, Structure
from ..spec import FigureSpec

ARC_COLUMNS = ["dataset", "classifier", "parent", "child", "frequency"]
_AMBIGUOUS = ("->", ", ")


def parse_structure(line: str) -> tuple[list[tuple[str, str]], list[str]]:
    """``(arcs, dropped attributes)`` of a structure's one-line summary."""
    head, _, arcs = line.partition(": ")
    pairs = [tuple(arc.split("->")) for arc in arcs.split(", ")] if arcs else []
    dropped = []
    for part in head.split("; "):
        _, _, names = part.partition(" dropped (")
        if names:
            dropped = names[:-1].split(", ")
    return [p for p in pairs if len(p) == 2], dropped


def arc_rows(records, datasets, classifiers) -> list[list]:
    """The rows of ``arc_frequencies.csv`` (:data:`ARC_COLUMNS`) of ``records``, data sets
    and classifiers in the orders given, arcs by decreasing frequency then by name."""
    folds, arcs, dropped, names = Counter(), defaultdict(Counter), defaultdict(Counter), {}
    for r in records:
        if r["status"] != "ok" or not r.get("structure") or " arcs" not in r["structure"]:
            continue
        key = r["dataset"], r["classifier"]
        folds[key] += 1
        learned, left_out = parse_structure(r["structure"])
        arcs[key].update(set(learned))
        dropped[key].update(set(left_out))
        if r.get("network"):
            names[key] = r["network"]
    rows = []
    for d in datasets:
        for c in classifiers:
            key = d, c
            if not folds.get(key) or _ambiguous(names.get(key)):
                continue
            counts = dict(arcs[key])
            if dropped[key] and key in names:  # a selective learner: each attribute's selection
                net = names[key]
                counts.update({(net["class"], a): folds[key] - dropped[key][a]
                               for a in net["attributes"]})
            for (parent, child), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
                if n:
                    rows.append([d, c, parent, child, n / folds[key]])
    return rows


def _ambiguous(network) -> bool:
    return network is not None and any(s in a for a in network["attributes"] for s in _AMBIGUOUS)


def consensus(rows, network, threshold: float = FigureSpec.consensus_threshold
              ) -> tuple[Structure, dict]:
    """The consensus network of one data set and classifier: a :class:`Structure` over every
    node its ``rows`` of :func:`arc_rows` name (a joined node, ``a+b``, as one) and the
    attributes of its first fold's ``network`` (a record's field) that none holds, with
    the arcs of ``rows`` that a share ``threshold`` of the folds or more learned, by
    decreasing share as far as they keep it acyclic (a general network's class arcs among
    them); and ``{(parent, child): share}`` of those arcs, those the structure left out
    included. For a selective learner (rows whose parent is the class: how often each
    attribute was selected) the threshold applies to the selection too: an attribute
    selected by fewer folds is dropped.

    Examples
    --------
    >>> rows = [["d", "tan", "a", "b", 1.0], ["d", "tan", "b", "c", 0.6],
    ...         ["d", "tan", "a", "c", 0.4]]
    >>> net = {"class": "y", "attributes": ["a", "b", "c"]}
    >>> consensus(rows, net)[1]
    {('a', 'b'): 1.0, ('b', 'c'): 0.6}
    >>> sorted(e for e in consensus(rows, net, threshold=0)[0].edges() if e[0] != "y")
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    class_name = network["class"]
    general = network.get("augmented", True) is False
    every = {(r[2], r[3]): r[4] for r in rows}
    # A share is a count of folds over their number: the tolerance keeps 3 / 10 >= 0.3.
    shares = {arc: share for arc, share in every.items() if share >= threshold - 1e-12}
    names = list(dict.fromkeys(n for pair in every for n in pair if n != class_name))
    held = {a for n in names for a in n.split("+")}
    names += [a for a in network["attributes"] if a not in held and a not in names]
    selective = not general and any(p == class_name for p, _ in every)
    selected = {c for p, c in shares if p == class_name}
    index = {n: i for i, n in enumerate(names)}
    # A general network's class is a node like the others, its arcs kept as theirs are.
    the_class = index[class_name] = len(names)
    parents = defaultdict(list)
    for (p, c), _ in sorted(shares.items(), key=lambda kv: -kv[1]):
        if (general or p != class_name) and not _reaches(parents, index[p], index[c]):
            parents[index[c]].append(index[p])
    if general:
        return Structure([Node((i,), [p for p in parents[i] if p != the_class],
                               class_parent=the_class in parents[i]) for i in range(len(names))],
                         len(names), attribute_names=names, class_name=class_name,
                         class_parents=parents[the_class], augmented=False), shares
    # A selective learner's rows name the attributes some fold selected; the others are dropped.
    kept = [i for i, n in enumerate(names) if not selective or set(n.split("+")) <= selected]
    kept_names = {names[i] for i in kept}
    shares = {(p, c): s for (p, c), s in shares.items()
              if c in kept_names and (p == class_name or p in kept_names)}
    return Structure([Node((i,), [p for p in parents[i] if p in kept]) for i in kept],
                     len(names), attribute_names=names, class_name=class_name), shares


def _reaches(parents, start: int, goal: int) -> bool:
    """Whether ``goal`` is ``start`` or an ancestor of it under ``parents``."""
    seen, todo = set(), [start]
    while todo:
        k = todo.pop()
        if k == goal:
            return True
        if k not in seen:
            seen.add(k)
            todo += parents[k]
    return False
