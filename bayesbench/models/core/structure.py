"""The structure of an augmented naive Bayes (ANB) classifier, or of a general Bayesian
network over the attributes and the class, as plain data.

In an augmented naive Bayes the class is a parent of every node. A node holds one
attribute, or several attributes joined into a Cartesian-product "super-attribute" (BSEJ,
ASB, MAP), and may have parents among the attributes of other nodes (TAN, kDB, ASB).
Attributes in no node are dropped (FSS, BSEJ)::

    p(c, x) = p(c) * prod over nodes v of p(x_v | x_pa(v), c)

A general network (``augmented=False``: Weka's ``BayesNet``, ``bayesnet``) says per node
whether the class is one of its parents, and the class may have attribute parents::

    p(c, x) = p(c | x_pa(c)) * prod over nodes v of p(x_v | x_pa(v) [, c])

A :class:`Structure` is what every structure learner returns and what the
counting and inference routines consume; it prints readably, exports Graphviz
DOT text and an edge list, and gives a one-line summary for result records.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ...errors import ClassifierError


@dataclass(frozen=True)
class Node:
    """One factor ``p(x_attributes | x_parents, c)`` of the model.

    Parameters
    ----------
    attributes : tuple of int
        The attribute indices this node holds; several are joined into one
        super-attribute whose values are their Cartesian product.
    parents : tuple of int
        Attribute indices, all held by other nodes. The class is not listed: it is
        a parent of the node when ``class_parent`` is set.
    class_parent : bool
        Whether the class is a parent of the node: always in an augmented naive
        Bayes; a general network (:class:`Structure` with ``augmented=False``) may
        leave it out.
    """

    attributes: tuple[int, ...]
    parents: tuple[int, ...] = ()
    class_parent: bool = True

    def __post_init__(self):
        object.__setattr__(self, "attributes", tuple(int(a) for a in self.attributes))
        object.__setattr__(self, "parents", tuple(int(p) for p in self.parents))
        object.__setattr__(self, "class_parent", bool(self.class_parent))


@dataclass
class Structure:
    """Nodes of an augmented naive Bayes, or of a general network, over ``n_attributes``
    attributes.

    Parameters
    ----------
    nodes : tuple of Node
        No attribute appears in two nodes; parents are attributes of other
        nodes; the graph of the nodes and the class is acyclic.
    n_attributes : int
        Number of attributes of the data the structure was learned on.
    attribute_names : tuple of str, optional
        Used when printing; defaults to ``x0, x1, ...``.
    info : dict
        Learner-specific decisions (test statistics, arc weights, dropped
        attributes, root), kept for inspection and reports.
    cardinalities : tuple of int, optional
        Number of values of each attribute; set by the classifier at ``fit``
        so that inference can index the tables from the structure alone.
    class_name : str
        Label of the class node in printouts and edge lists.
    class_parents : tuple of int
        The attribute parents of the class (held by nodes); a general network's only.
    augmented : bool
        True (an augmented naive Bayes): the class is a parent of every node and has
        no parents, and printouts leave its arcs implicit. False (a general network,
        whatever its shape in one fold): every arc of the class is listed.
    """

    nodes: tuple[Node, ...]
    n_attributes: int
    attribute_names: tuple[str, ...] | None = None
    info: dict = field(default_factory=dict)
    cardinalities: tuple[int, ...] | None = None
    class_name: str = "class"
    class_parents: tuple[int, ...] = ()
    augmented: bool = True

    def __post_init__(self):
        self.nodes = tuple(self.nodes)
        self.n_attributes = int(self.n_attributes)
        self.class_parents = tuple(int(p) for p in self.class_parents)
        self.augmented = bool(self.augmented)
        if self.attribute_names is not None:
            self.attribute_names = tuple(str(a) for a in self.attribute_names)
            if len(self.attribute_names) != self.n_attributes:
                raise ClassifierError(
                    f"{len(self.attribute_names)} attribute names for "
                    f"{self.n_attributes} attributes")
        if self.cardinalities is not None:
            self.cardinalities = tuple(int(c) for c in self.cardinalities)
        self._validate()

    # ------------------------------------------------------------ builders
    @classmethod
    def naive(cls, n_attributes: int, attributes: Sequence[int] | None = None,
              **kwargs) -> "Structure":
        """Naive Bayes: each attribute (of ``attributes``, default all) its own node."""
        atts = range(n_attributes) if attributes is None else attributes
        return cls(tuple(Node((a,)) for a in atts), n_attributes, **kwargs)

    @classmethod
    def from_parents(cls, parent_of: Sequence, attributes: Sequence[int] | None = None,
                     **kwargs) -> "Structure":
        """One node per attribute with the given attribute parents.

        ``parent_of[i]`` is ``None`` (only the class), an int (a tree or forest:
        TAN, STAN) or a sequence of ints (kDB). ``attributes`` restricts the
        nodes to a subset (the others are dropped); default all.
        """
        n = len(parent_of)
        atts = range(n) if attributes is None else attributes
        nodes = []
        for a in atts:
            p = parent_of[a]
            if p is None:
                parents = ()
            elif hasattr(p, "__index__"):  # an int, numpy's included
                parents = (p,)
            else:
                parents = tuple(p)
            nodes.append(Node((a,), parents))
        return cls(tuple(nodes), n, **kwargs)

    # ---------------------------------------------------------- validation
    def _validate(self):
        owner = self._owners()
        for k, node in enumerate(self.nodes):
            for p in node.parents:
                if p not in owner:
                    raise ClassifierError(f"node {k}: parent {p} is in no node")
                if owner[p] == k:
                    raise ClassifierError(f"node {k}: parent {p} is one of its own attributes")
        for p in self.class_parents:
            if p not in owner:
                raise ClassifierError(f"class parent {p} is in no node")
        if len(set(self.class_parents)) < len(self.class_parents):
            raise ClassifierError(f"class parents {list(self.class_parents)} repeat one")
        if self.augmented and (self.class_parents
                               or not all(n.class_parent for n in self.nodes)):
            raise ClassifierError("an augmented naive Bayes has the class as a parent of "
                                  "every node and no class parents (augmented=False: a "
                                  "general network)")
        if self._topological_order() is None:
            raise ClassifierError("the structure has a directed cycle among its nodes"
                                  + ("" if self.augmented else " and the class"))

    def _owners(self) -> dict[int, int]:
        """The node of each attribute, checking that each is in range and in one node only."""
        owner = {}
        for k, node in enumerate(self.nodes):
            if not node.attributes:
                raise ClassifierError(f"node {k} holds no attribute")
            for a in node.attributes:
                if not 0 <= a < self.n_attributes:
                    raise ClassifierError(
                        f"node {k}: attribute {a} is outside 0..{self.n_attributes - 1}")
                if a in owner:
                    raise ClassifierError(f"attribute {a} is in nodes {owner[a]} and {k}")
                owner[a] = k
        return owner

    def _topological_order(self) -> list[int] | None:
        """Node indices parents first, the class as ``len(nodes)`` (first when it has no
        parents); None when the graph has a cycle."""
        owner = {a: k for k, node in enumerate(self.nodes) for a in node.attributes}
        the_class = len(self.nodes)
        parents = [{owner[p] for p in node.parents} | ({the_class} if node.class_parent else set())
                   for node in self.nodes] + [{owner[p] for p in self.class_parents}]
        order, placed = [], set()
        while len(order) < len(parents):
            ready = [k for k in range(len(parents)) if k not in placed and parents[k] <= placed]
            if not ready:
                return None
            order.extend(ready)
            placed.update(ready)
        return order

    # ------------------------------------------------------------- queries
    @property
    def dropped(self) -> tuple[int, ...]:
        """Attributes held by no node, in index order."""
        used = {a for node in self.nodes for a in node.attributes}
        return tuple(a for a in range(self.n_attributes) if a not in used)

    def names(self) -> tuple[str, ...]:
        if self.attribute_names is not None:
            return self.attribute_names
        return tuple(f"x{i}" for i in range(self.n_attributes))

    def node_label(self, node: Node) -> str:
        names = self.names()
        return "+".join(names[a] for a in node.attributes)

    def arcs(self) -> list[tuple[int, int]]:
        """Arcs among attributes, ``(parent_attribute, child_attribute)``.

        Every attribute of a joined node is a child of each of the node's parents.
        """
        return [(p, a) for node in self.nodes for p in node.parents for a in node.attributes]

    def edges(self) -> list[tuple[str, str]]:
        """The whole network as labelled arcs: class to every node (of a general network:
        to its children), then parent to node, then (a general network's) parent to class.

        A joined node is labelled by its attributes' names joined with ``+``; a
        parent by the label of the node that holds it.
        """
        owner = {a: node for node in self.nodes for a in node.attributes}
        out = [(self.class_name, self.node_label(node)) for node in self.nodes
               if node.class_parent]
        for node in self.nodes:
            seen = []
            for p in node.parents:
                src = self.node_label(owner[p])
                if src not in seen:
                    seen.append(src)
                    out.append((src, self.node_label(node)))
        out += [(self.node_label(owner[p]), self.class_name) for p in self.class_parents]
        return out

    def to_dot(self, name: str = "anb") -> str:
        """Graphviz DOT text of the network, drawn top-down with the class node (a double
        circle) alone on the top rank unless it has parents, and each joined node as one
        box labelled ``a+b``."""
        def q(s):
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines = [f"digraph {q(name)} {{",
                 "  rankdir=TB;",
                 f"  {q(self.class_name)} [shape=doublecircle];"]
        if not self.class_parents:
            lines.append(f"  {{ rank=source; {q(self.class_name)}; }}")
        for node in self.nodes:
            shape = "box" if len(node.attributes) > 1 else "ellipse"
            lines.append(f"  {q(self.node_label(node))} [shape={shape}];")
        for src, dst in self.edges():
            lines.append(f"  {q(src)} -> {q(dst)};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def summary(self) -> str:
        """One short line: counts of nodes, joined nodes (named), arcs and dropped attributes
        (named), then the arcs between attributes (of a general network: every arc, the
        class's included)."""
        if not self.augmented:
            arcs = self.edges()
            return f"{len(self.nodes)} nodes; {len(arcs)} arcs" + (
                ": " + ", ".join(f"{a}->{b}" for a, b in arcs) if arcs else "")
        names = self.names()
        joined = [self.node_label(n) for n in self.nodes if len(n.attributes) > 1]
        parts = [f"{len(self.nodes)} nodes"]
        if "headline" in self.info:
            # a learner's own choice worth a record's line (SKDB's selected s and k)
            parts.insert(0, str(self.info["headline"]))
        if joined:
            parts.append(f"{len(joined)} joined ({', '.join(joined)})")
        parts.append(f"{len(self.arcs())} arcs")
        if self.dropped:
            parts.append(f"{len(self.dropped)} dropped ({', '.join(names[a] for a in self.dropped)})")
        arcs = ", ".join(f"{a}->{b}" for a, b in self.edges() if a != self.class_name)
        return "; ".join(parts) + (f": {arcs}" if arcs else "")

    def __str__(self) -> str:
        names = self.names()
        owner = {a: node for node in self.nodes for a in node.attributes}
        lines = [f"Structure over {self.n_attributes} attributes: {len(self.nodes)} nodes; "
                 f"{len(self.arcs() if self.augmented else self.edges())} arcs"]
        if self.class_parents:
            lines.append(f"  {self.class_name} <- " + ", ".join(
                self.node_label(owner[p]) for p in self.class_parents))
        for node in self.nodes:
            pa = [self.class_name] * node.class_parent + list(dict.fromkeys(
                self.node_label(owner[p]) for p in node.parents))
            lines.append(f"  {self.node_label(node)} <- {', '.join(pa) or '(no parents)'}")
        if self.dropped:
            lines.append("  dropped: " + ", ".join(names[a] for a in self.dropped))
        return "\n".join(lines)
