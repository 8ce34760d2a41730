"""A fitted augmented naive Bayes as one Bayesian network other tools read: BIF, XMLBIF
and pgmpy's ``DiscreteBayesianNetwork`` (pgmpy, pyAgrum, Weka, bnlearn and GeNIe read
BIF or XMLBIF).

The network has the class as a root and one variable per node of the structure: an
attribute, or a joined "super-attribute" whose states are the products of its attributes'
values (first attribute most significant, states named ``a__b``); its parents are the
class and the variables holding its parent attributes. Its tables are the model's own
smoothed tables, so exact inference of ``P(class | attributes)`` in the network is the
model's ``predict_proba`` for a complete row. Dropped attributes are not in it. In a
general network (``bayesnet``) the class is a parent of its children only and has the
parents its structure gives it, with its table over their configurations. A model
whose terms are not probabilities (attribute weights: ``awnb``, ``wanbia``) is no network
and is refused.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np

from ...errors import ClassifierError

# What pgmpy's BIF grammar takes in a name; anything else becomes '_'.
_BIF_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
JOIN = "__"  # between the parts of a joined node's name and of its states' names


@dataclass(frozen=True)
class Variable:
    """A variable of the network: its name, its states, its parents (names, the class
    first) and its table ``(n_parent_configurations, n_states)``, parent configurations in
    mixed radix with the first parent most significant, each row summing to 1."""

    name: str
    states: tuple[str, ...]
    parents: tuple[str, ...]
    table: np.ndarray


def network(structure, tables, log_prior, class_name: str, class_states, attribute_states,
            node_weights=None) -> list[Variable]:
    """The variables of the network of a fitted model: ``tables`` its log tables per node
    ``(n_classes, n_parent_configurations, n_values)``, ``attribute_states`` each
    attribute's state names (by code), ``class_states`` the class's."""
    if node_weights is not None:
        raise ClassifierError("a model with attribute weights (awnb, wanbia) multiplies "
                              "powers of its tables, not probabilities: it is no Bayesian "
                              "network to export")
    names = structure.attribute_names or tuple(f"x{i}" for i in range(structure.n_attributes))
    holder = {a: v for v, node in enumerate(structure.nodes) for a in node.attributes}
    var_names = [JOIN.join(str(names[a]) for a in node.attributes) for node in structure.nodes]
    var_states = [tuple(JOIN.join(parts) for parts in itertools.product(
        *(attribute_states[a] for a in node.attributes))) for node in structure.nodes]
    prior = np.exp(np.asarray(log_prior, dtype=np.float64))
    parents = list(dict.fromkeys(holder[p] for p in structure.class_parents))
    prior = _table(structure, structure.class_parents, prior.reshape(1, -1, prior.shape[-1]),
                   parents, holder)
    out = [Variable(str(class_name), tuple(map(str, class_states)),
                    tuple(var_names[p] for p in parents), prior)]
    for v, node in enumerate(structure.nodes):
        parents = list(dict.fromkeys(holder[p] for p in node.parents))
        table = _table(structure, node.parents,
                       np.exp(np.asarray(tables[v], dtype=np.float64)), parents, holder)
        out.append(Variable(var_names[v], var_states[v],
                            (str(class_name),) * node.class_parent
                            + tuple(var_names[p] for p in parents), table))
    for var in out:
        if not np.allclose(var.table.sum(axis=1), 1.0, rtol=0, atol=1e-9):
            raise ClassifierError(f"the table of '{var.name}' does not sum to 1 (alpha = 0 "
                                  f"with an unseen parent configuration?): no network")
    return out


def _table(structure, attribute_parents, probs, parents, holder) -> np.ndarray:
    """``probs`` (class, configuration of ``attribute_parents``, value) as rows over the
    class (none for a table of one class row) and the parent *variables* (a joined
    parent's states cover attributes the node ignores)."""
    cards = structure.cardinalities
    n_classes = probs.shape[0]
    nodes = structure.nodes
    # Each parent variable's states, as the codes of its attributes.
    spaces = [list(itertools.product(*(range(cards[a]) for a in nodes[p].attributes)))
              for p in parents]
    rows = []
    for c in range(n_classes):
        for combo in itertools.product(*spaces):
            code = {a: value for p, values in zip(parents, combo)
                    for a, value in zip(nodes[p].attributes, values)}
            index = 0
            for a in attribute_parents:  # mixed radix, the first parent most significant
                index = index * cards[a] + code[a]
            rows.append(probs[c, index])
    return np.asarray(rows)


def bif_name(text: str) -> str:
    """``text`` as BIF readers take a name or a state."""
    return _BIF_UNSAFE.sub("_", str(text)) or "_"


def _bif_names(values) -> list[str]:
    """``values`` made BIF-safe and distinct (a clash gets ``_2``, ``_3``, ...)."""
    out, seen = [], set()
    for value in values:
        name, n = bif_name(value), 2
        while name in seen:
            name, n = f"{bif_name(value)}_{n}", n + 1
        seen.add(name)
        out.append(name)
    return out


def _number(p: float) -> str:
    return repr(float(p))


def to_bif(variables: list[Variable], path, name: str = "bayesbench") -> Path:
    """Write ``variables`` as a BIF file; names and states made BIF-safe."""
    path = Path(path)
    path.write_text(bif_text(variables, name))
    return path


def bif_text(variables: list[Variable], name: str = "bayesbench") -> str:
    """``variables`` as the text of a BIF file."""
    names = dict(zip((v.name for v in variables), _bif_names(v.name for v in variables)))
    states = {v.name: _bif_names(v.states) for v in variables}
    lines = [f"network {bif_name(name)} {{\n}}"]
    for v in variables:
        lines.append(f"variable {names[v.name]} {{\n  type discrete [ {len(v.states)} ] "
                     f"{{ {', '.join(states[v.name])} }};\n}}")
    for v in variables:
        if not v.parents:
            lines.append(f"probability ( {names[v.name]} ) {{\n  table "
                         f"{', '.join(map(_number, v.table[0]))};\n}}")
            continue
        head = f"probability ( {names[v.name]} | {', '.join(names[p] for p in v.parents)} ) {{"
        body = [f"  ({', '.join(combo)}) {', '.join(map(_number, row))};"
                for combo, row in zip(itertools.product(*(states[p] for p in v.parents)),
                                      v.table)]
        lines.append("\n".join([head, *body, "}"]))
    return "\n".join(lines) + "\n"


def to_xmlbif(variables: list[Variable], path, name: str = "bayesbench") -> Path:
    """Write ``variables`` as an XMLBIF 0.3 file (names and states as they are, escaped)."""
    path = Path(path)
    path.write_text(xmlbif_text(variables, name))
    return path


def xmlbif_text(variables: list[Variable], name: str = "bayesbench") -> str:
    """``variables`` as the text of an XMLBIF 0.3 file."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<BIF VERSION="0.3">', "<NETWORK>",
           f"<NAME>{escape(name)}</NAME>"]
    for v in variables:
        out += ['<VARIABLE TYPE="nature">', f"  <NAME>{escape(v.name)}</NAME>"]
        out += [f"  <OUTCOME>{escape(s)}</OUTCOME>" for s in v.states]
        out.append("</VARIABLE>")
    for v in variables:
        out += ["<DEFINITION>", f"  <FOR>{escape(v.name)}</FOR>"]
        out += [f"  <GIVEN>{escape(p)}</GIVEN>" for p in v.parents]
        out += [f"  <TABLE>{' '.join(map(_number, v.table.ravel()))}</TABLE>", "</DEFINITION>"]
    out += ["</NETWORK>", "</BIF>"]
    return "\n".join(out) + "\n"


# The file formats a network is written in, by name and with their file suffix: a config's
# ``save_networks`` chooses among them.
NETWORK_FORMATS = {"bif": (".bif", bif_text), "xmlbif": (".xml", xmlbif_text)}


def to_pgmpy(variables: list[Variable]):
    """pgmpy's ``DiscreteBayesianNetwork`` of ``variables`` (pgmpy must be installed)."""
    try:
        from pgmpy.factors.discrete import TabularCPD  # lazy: optional (pip install pgmpy)
        from pgmpy.models import DiscreteBayesianNetwork  # lazy: optional, as above
    except ImportError:
        raise ClassifierError("to_pgmpy needs pgmpy: pip install pgmpy") from None
    states = {v.name: list(v.states) for v in variables}
    model = DiscreteBayesianNetwork([(p, v.name) for v in variables for p in v.parents])
    model.add_nodes_from(v.name for v in variables)
    model.add_cpds(*(TabularCPD(v.name, len(v.states), v.table.T, evidence=list(v.parents) or None,
                                evidence_card=[len(states[p]) for p in v.parents] or None,
                                state_names={n: states[n] for n in (v.name, *v.parents)})
                     for v in variables))
    return model
