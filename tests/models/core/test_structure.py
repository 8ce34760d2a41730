"""Structure: validation of the graph, queries, printouts and DOT export."""
import pytest

from bayesbench.errors import ClassifierError
from bayesbench.models.core.structure import Node, Structure


# ------------------------------------------------------------------ structure
def test_structure_rejects_invalid_graphs():
    with pytest.raises(ClassifierError, match="nodes 0 and 1"):
        Structure((Node((0,)), Node((0, 1))), 2)
    with pytest.raises(ClassifierError, match="outside"):
        Structure((Node((3,)),), 2)
    with pytest.raises(ClassifierError, match="in no node"):
        Structure((Node((0,), (1,)),), 2)
    with pytest.raises(ClassifierError, match="own attributes"):
        Structure((Node((0, 1), (1,)),), 2)
    with pytest.raises(ClassifierError, match="cycle"):
        Structure((Node((0,), (1,)), Node((1,), (0,))), 2)


def test_structure_queries_and_exports():
    s = Structure((Node((0,)), Node((1, 2), (0,)), Node((4,), (1, 2))), 5,
                  attribute_names=("a", "b", "c", "d", "e"))
    assert s.dropped == (3,)
    assert s.arcs() == [(0, 1), (0, 2), (1, 4), (2, 4)]
    assert s.edges() == [("class", "a"), ("class", "b+c"), ("class", "e"),
                         ("a", "b+c"), ("b+c", "e")]
    dot = s.to_dot()
    assert dot.startswith('digraph "anb" {') and dot.rstrip().endswith("}")
    assert '{ rank=source; "class"; }' in dot and "rankdir=TB;" in dot
    assert '"b+c" [shape=box];' in dot and '"a" -> "b+c";' in dot
    assert dot.count("->") == 5
    assert s.summary() == "3 nodes; 1 joined (b+c); 4 arcs; 1 dropped (d): a->b+c, b+c->e"
    text = str(s).splitlines()
    assert text[1:] == ["  a <- class", "  b+c <- class, a", "  e <- class, b+c",
                        "  dropped: d"]


def test_from_parents_and_naive():
    s = Structure.from_parents([None, 0, (0, 1), 1])
    assert [n.parents for n in s.nodes] == [(), (0,), (0, 1), (1,)]
    assert Structure.naive(3, attributes=[2, 0]).dropped == (1,)


# ------------------------------------------------------------------ general networks
def _general():
    # class -> a, class -> c; b -> class; a -> c; b has no parent, d no arc at all.
    return Structure((Node((0,)), Node((1,), class_parent=False), Node((2,), (0,)),
                      Node((3,), class_parent=False)), 4, attribute_names=("a", "b", "c", "d"),
                     class_parents=(1,), augmented=False)


def test_a_general_network_checks_cycles_through_the_class():
    with pytest.raises(ClassifierError, match="cycle among its nodes and the class"):
        # class -> a -> b -> class
        Structure((Node((0,)), Node((1,), (0,), class_parent=False)), 2, class_parents=(1,),
                  augmented=False)
    with pytest.raises(ClassifierError, match="augmented=False"):
        Structure((Node((0,)), Node((1,), class_parent=False)), 2)
    with pytest.raises(ClassifierError, match="class parent 2 is in no node"):
        Structure((Node((0,)),), 3, class_parents=(2,), augmented=False)
    with pytest.raises(ClassifierError, match="repeat"):
        Structure((Node((0,), class_parent=False),), 1, class_parents=(0, 0), augmented=False)


def test_a_general_network_lists_every_arc_of_the_class():
    import networkx as nx

    s = _general()
    assert s.edges() == [("class", "a"), ("class", "c"), ("a", "c"), ("b", "class")]
    assert nx.is_directed_acyclic_graph(nx.DiGraph(s.edges()))
    assert s.arcs() == [(0, 2)]
    assert s.summary() == "4 nodes; 4 arcs: class->a, class->c, a->c, b->class"
    assert str(s).splitlines() == ["Structure over 4 attributes: 4 nodes; 4 arcs",
                                   "  class <- b", "  a <- class", "  b <- (no parents)",
                                   "  c <- class, a", "  d <- (no parents)"]
    dot = s.to_dot("bn")
    assert "rank=source" not in dot  # the class has a parent: Graphviz ranks it
    assert '"b" -> "class";' in dot and '"class" -> "b";' not in dot and dot.count("->") == 4
    # Without class parents the class stays alone on top, as in an augmented naive Bayes.
    top = Structure((Node((0,)), Node((1,), class_parent=False)), 2, augmented=False)
    assert "rank=source" in top.to_dot() and top.summary() == "2 nodes; 1 arcs: class->x0"
