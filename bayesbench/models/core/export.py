"""A fitted augmented naive Bayes as one Bayesian network other tools read: BIF, XMLBIF
and pgmpy's ``DiscreteBayesianNetwork`` (pgmpy, pyAgrum, Weka, bnlearn and GeNIe read
BIF or XMLBIF).

The network has the class as a root and one variable per node of the structure: an
attribute, or a joined "super-attribute" whose states are the products of its attributes'
values (first attribute most significant, states named ``a__b``); its parents are the
class and the variables holding its parent attributes. Its tables are the model's own
smoothed tables, so exact inference of ``P(class | attributes)`` in the network is the
model's ``predict_proba`` for a complete row (and for any row with ``missing="exact"``,
:mod:`.inference`). Dropped attributes are not in it. In a general network (``bayesnet``)
the class is a parent of its children only and has the parents its structure gives it,
with its table over their configurations. A model whose terms are not probabilities
(attribute weights: ``awnb``, ``wanbia``) is no network and is refused.

Names, so that every file reads back with one variable per node (the rule of
docs/classifiers.md, "Learned networks out"):

- in the network (and pgmpy's model, and XMLBIF), a variable's name is the class's or the
  attribute's own, and a state's is the value's own; a name met a second time (an
  attribute named like the class, a joined node's ``a__b`` beside an attribute of that
  name) gets ``_2``, ``_3``, ... in variable order, the class first, so the class keeps its
  name;
- XMLBIF writes them escaped (``&``, ``<``, ``>``), with each character XML cannot carry
  (control characters) as ``_`` and each run of white space as one space, trimmed, as
  pyAgrum reads them back; ``_`` for an empty name;
- BIF takes fewer: every character other than ``A-Z a-z 0-9 _ . -`` becomes ``_``, and a
  name that is not an identifier of pyAgrum's BIF grammar (a letter or ``_`` first, or
  digits then a letter other than ``e``; a state may also be an integer), or is one of its
  keywords (:data:`BIF_KEYWORDS`), gets a leading ``_``: ``(2.45-4.75]`` is
  ``_2.45-4.75_``, ``1.5`` is ``_1.5``, ``5more`` stays. Variables are then made distinct
  ignoring case (pgmpy's BIF reader matches them so), states as they are.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

import numpy as np

from ...errors import ClassifierError

JOIN = "__"  # between the parts of a joined node's name and of its states' names
#: The words of pyAgrum's BIF grammar, which it reads as no name (aGrUM's ``SyntaxBIF.atg``).
BIF_KEYWORDS = frozenset({"network", "variable", "probability", "property", "type",
                          "discrete", "default", "table"})
# What both pgmpy's and pyAgrum's BIF grammars take in a name; anything else becomes '_'.
_BIF_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
# pyAgrum's identifiers: a letter or '_' first, or digits then a letter that cannot start an
# exponent; a state may also be an integer. (pgmpy reads all of these.)
_BIF_IDENTIFIER = re.compile(r"(?:[A-Za-z_]|[0-9]+[A-DF-Za-df-z_])[A-Za-z0-9_.-]*")
_BIF_INTEGER = re.compile(r"-?[0-9]+")
# Characters XML 1.0 cannot carry (or discourages), and the white space its readers fold.
_XML_UNFIT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_XML_SPACE = re.compile("[ \t\n\r]+")


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
    attribute's state names (by code), ``class_states`` the class's. Names and states are
    made distinct as the module docstring says."""
    if node_weights is not None:
        raise ClassifierError("a model with attribute weights (awnb, wanbia) multiplies "
                              "powers of its tables, not probabilities: it is no Bayesian "
                              "network to export")
    names = structure.attribute_names or tuple(f"x{i}" for i in range(structure.n_attributes))
    holder = {a: v for v, node in enumerate(structure.nodes) for a in node.attributes}
    class_name, *var_names = distinct(
        [str(class_name)] + [JOIN.join(str(names[a]) for a in node.attributes)
                             for node in structure.nodes])
    var_states = [distinct(JOIN.join(map(str, parts)) for parts in itertools.product(
        *(attribute_states[a] for a in node.attributes))) for node in structure.nodes]
    prior = np.exp(np.asarray(log_prior, dtype=np.float64))
    parents = list(dict.fromkeys(holder[p] for p in structure.class_parents))
    prior = _table(structure, structure.class_parents, prior.reshape(1, -1, prior.shape[-1]),
                   parents, holder)
    out = [Variable(class_name, tuple(distinct(map(str, class_states))),
                    tuple(var_names[p] for p in parents), prior)]
    for v, node in enumerate(structure.nodes):
        parents = list(dict.fromkeys(holder[p] for p in node.parents))
        table = _table(structure, node.parents,
                       np.exp(np.asarray(tables[v], dtype=np.float64)), parents, holder)
        out.append(Variable(var_names[v], tuple(var_states[v]),
                            (class_name,) * node.class_parent
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


def distinct(names, ignore_case: bool = False) -> list[str]:
    """``names`` with each one met before (ignoring case, if asked) given ``_2``, ``_3``, ...:
    the first keeps its name."""
    out, seen = [], set()
    for name in names:
        candidate, n = name, 2
        while (candidate.lower() if ignore_case else candidate) in seen:
            candidate, n = f"{name}_{n}", n + 1
        seen.add(candidate.lower() if ignore_case else candidate)
        out.append(candidate)
    return out


def bif_name(text, state: bool = False) -> str:
    """``text`` as pgmpy's and pyAgrum's BIF readers take a variable's name (or, with
    ``state``, a state's): see the module docstring.

    >>> bif_name("(2.45-4.75]", state=True), bif_name("1.5", state=True), bif_name("table")
    ('_2.45-4.75_', '_1.5', '_table')
    >>> bif_name("5more", state=True), bif_name("-1", state=True), bif_name("-1")
    ('5more', '-1', '_-1')
    """
    name = _BIF_UNSAFE.sub("_", str(text))
    if name in BIF_KEYWORDS or not (_BIF_IDENTIFIER.fullmatch(name)
                                    or (state and _BIF_INTEGER.fullmatch(name))):
        name = "_" + name
    return name


def xml_name(text) -> str:
    """``text`` as it reads back from XMLBIF: see the module docstring.

    >>> xml_name("  a\tb  <c> "), xml_name("")
    ('a b <c>', '_')
    """
    return _XML_SPACE.sub(" ", _XML_UNFIT.sub("_", str(text))).strip(" ") or "_"


def _names(variables, name, ignore_case: bool = False) -> tuple[dict, dict]:
    """``({variable: written name}, {variable: [written states]})`` of ``variables``, whose
    names must differ, written by ``name(text, state)``."""
    given = [v.name for v in variables]
    if len(set(given)) < len(given):
        twice = next(n for n in given if given.count(n) > 1)
        raise ClassifierError(f"two variables are named '{twice}': no network")
    written = distinct([name(v.name, False) for v in variables], ignore_case)
    return (dict(zip(given, written)),
            {v.name: distinct(name(s, True) for s in v.states) for v in variables})


def _number(p: float) -> str:
    return repr(float(p))


def bif_text(variables: list[Variable], name: str = "bayesbench") -> str:
    """``variables`` as the text of a BIF file, names written by :func:`bif_name`.

    pyAgrum reads a BIF file's probabilities in single precision (about 1e-7); its XMLBIF
    reader keeps them whole.
    """
    names, states = _names(variables, bif_name, ignore_case=True)
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


def xmlbif_text(variables: list[Variable], name: str = "bayesbench") -> str:
    """``variables`` as the text of an XMLBIF 0.3 file, names written by :func:`xml_name`."""
    names, states = _names(variables, lambda text, state: xml_name(text))
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<BIF VERSION="0.3">', "<NETWORK>",
           f"<NAME>{escape(xml_name(name))}</NAME>"]
    for v in variables:
        out += ['<VARIABLE TYPE="nature">', f"  <NAME>{escape(names[v.name])}</NAME>"]
        out += [f"  <OUTCOME>{escape(s)}</OUTCOME>" for s in states[v.name]]
        out.append("</VARIABLE>")
    for v in variables:
        out += ["<DEFINITION>", f"  <FOR>{escape(names[v.name])}</FOR>"]
        out += [f"  <GIVEN>{escape(names[p])}</GIVEN>" for p in v.parents]
        out += [f"  <TABLE>{' '.join(map(_number, v.table.ravel()))}</TABLE>", "</DEFINITION>"]
    out += ["</NETWORK>", "</BIF>"]
    return "\n".join(out) + "\n"


# The file formats a network is written in, by name and with their file suffix: a config's
# ``save_networks`` chooses among them. XMLBIF's is the one pyAgrum requires of it (it
# refuses ``.xml``); Weka, pgmpy, bnlearn and GeNIe read any.
NETWORK_FORMATS = {"bif": (".bif", bif_text), "xmlbif": (".bifxml", xmlbif_text)}


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
