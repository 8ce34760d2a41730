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
