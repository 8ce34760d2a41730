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
"""
from __future__ import annotations

from collections import Counter, defaultdict

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
