"""Drawing a learned network: layered layout, one box per joined node, every arc drawn once."""
import xml.etree.ElementTree as ET
from itertools import combinations

import networkx as nx
import numpy as np
import pytest

from bayesbench.errors import ReportError
from bayesbench.models.core.structure import Node, Structure
from bayesbench.models.learners.tan import TAN
from bayesbench.report.figures.network import (NodeBox, arc_geometry, network_layout, node_arcs, plot_network,
                                       write_dot)

SVG = "{http://www.w3.org/2000/svg}"


def _kdb_like():
    # x0 root; {x1, x2} joined under x0; x3 under x0 and {x1, x2}; x4, x5 under x3; x6 under x4; x7 dropped.
    nodes = (Node((0,)), Node((1, 2), (0,)), Node((3,), (0, 1, 2)), Node((4,), (3,)), Node((5,), (3,)),
             Node((6,), (4,)))
    return Structure(nodes, 8, attribute_names=tuple(f"att {i}" for i in range(8)), class_name="species")


def _node_graph(structure) -> nx.DiGraph:
    # The node graph built independently from Structure.edges(), which names nodes by label.
    labels = [structure.node_label(n) for n in structure.nodes]
    g = nx.DiGraph()
    g.add_nodes_from(range(len(labels)))
    g.add_edges_from((labels.index(a), labels.index(b)) for a, b in structure.edges()
                     if a != structure.class_name)
    return g


def _tan():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    X = np.column_stack([np.where(rng.random(400) < 0.7, y, 1 - y) for _ in range(7)])
    X[:, 3] = np.where(rng.random(400) < 0.9, X[:, 1], 1 - X[:, 1])  # a dependent pair
    return TAN().fit(X, y).structure_


@pytest.mark.parametrize("make", [_kdb_like, _tan, lambda: Structure.naive(25)])
def test_layers_are_networkx_topological_generations_and_every_arc_points_down(make):
    structure = make()
    layout = network_layout(structure)
    g = _node_graph(structure)
    assert sorted(node_arcs(structure)) == sorted(g.edges)
    assert [sorted(layer) for layer in layout.layers] == [sorted(gen) for gen in nx.topological_generations(g)]
    for p, c in g.edges:
        assert layout.boxes[p].y > layout.boxes[c].y
    assert all(layout.class_box.y > box.y for box in layout.boxes)


def test_wide_layers_wrap_and_boxes_never_overlap():
    layout = network_layout(Structure.naive(25), max_per_row=10)
    rows = sorted({box.y for box in layout.boxes}, reverse=True)
    assert [sum(box.y == y for box in layout.boxes) for y in rows] == [10, 10, 5]
    for a, b in combinations([layout.class_box, *layout.boxes], 2):
        apart_x = abs(a.x - b.x) >= (a.width + b.width) / 2
        apart_y = abs(a.y - b.y) >= (a.height + b.height) / 2
        assert apart_x or apart_y
    assert all(0 <= box.x - box.width / 2 and box.x + box.width / 2 <= layout.width for box in layout.boxes)


def test_tree_children_sit_under_their_parents_side():
    # Two subtrees: children are ordered by their parents' positions (barycentre), not by index.
    s = Structure.from_parents([None, 0, 0, 2, 1], attribute_names=list("abcde"))
    layout = network_layout(s)
    assert layout.layers == ((0,), (1, 2), (4, 3))
    assert layout.boxes[4].x < layout.boxes[3].x


def test_svg_draws_each_node_once_and_each_arc_of_the_structure(tmp_path):
    structure = _kdb_like()
    root = ET.parse(plot_network(structure, tmp_path / "net.svg", title="kdb1 on toy")).getroot()
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    n = len(structure.nodes)
    assert {i for i in ids if i.startswith("node-") and i[5:].isdigit()} == {f"node-{k}" for k in range(n)}
    arcs = {i for i in ids if i.startswith("arc-")}
    expected = {f"arc-class-{k}" for k in range(n)} | {f"arc-{p}-{c}" for p, c in _node_graph(structure).edges}
    assert arcs == expected
    assert len(expected) == len(structure.edges())  # one drawn arc per arc of the DOT export
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    # The joined node is one label listing both attributes; the dropped attribute is named.
    assert "att 1\natt 2" in texts or ("att 1" in texts and "att 2" in texts)
    assert "species" in texts and "kdb1 on toy" in texts
    assert any(t.startswith("dropped: att 7") for t in texts)
    joined = next(el for el in root.iter() if el.get("id") == "node-1")
    single = next(el for el in root.iter() if el.get("id") == "node-0")
    # A joined node is a box (straight sides), a single attribute an ellipse (curves only).
    assert " L " in joined.find(SVG + "path").get("d") and " L " not in single.find(SVG + "path").get("d")


def test_dot_file_is_the_structures_dot_text(tmp_path):
    structure = _tan()
    path = write_dot(structure, tmp_path / "sub" / "tan.dot", name="tan")
    assert path.read_text() == structure.to_dot("tan")


def test_png_and_unknown_suffix(tmp_path):
    assert plot_network(_tan(), tmp_path / "tan.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ReportError, match="written as .png, .svg or .pdf"):
        plot_network(_tan(), tmp_path / "tan.dot")


def _cross(u, v):
    return float(u[0] * v[1] - u[1] * v[0])


def _on_outline(box, x, y):
    # How far (x, y) is from the box's outline, in units of its half sizes: 1 on the outline.
    dx, dy = abs(x - box.x) / (box.width / 2), abs(y - box.y) / (box.height / 2)
    return max(dx, dy) if box.joined else float(np.hypot(dx, dy))


@pytest.mark.parametrize("joined", [False, True])
def test_a_straight_arc_stops_one_point_short_of_both_outlines(joined):
    # Vertically above each other: by hand, the shaft starts 1/72 inch under the source and the
    # head's tip sits 1/72 inch above the destination; the head is 0.05 x 0.05 inch, pointing down.
    src = NodeBox(1.0, 0.0, 1.2, 0.4, ("a",), joined)
    dst = NodeBox(1.0, -1.5, 1.0, 0.5, ("b",), joined)
    (start, _, end), (tip, left, right) = arc_geometry(src, dst)
    assert start == pytest.approx((1.0, -0.2 - 1 / 72), abs=1e-6)
    assert tip == pytest.approx((1.0, -1.25 + 1 / 72), abs=1e-6)
    assert left == pytest.approx((1.025, tip[1] + 0.05)) and right == pytest.approx((0.975, tip[1] + 0.05))
    assert tip[1] < end[1] < left[1]  # the shaft ends inside the head


@pytest.mark.parametrize("bend", [0.0, 0.25])
def test_a_slanted_or_bent_arc_ends_just_outside_its_nodes(bend):
    src = NodeBox(0.5, 0.0, 1.0, 0.4, ("a",), False)
    dst = NodeBox(2.5, -3.0, 1.4, 0.6, ("b", "c"), True)
    (start, control, end), (tip, left, right) = arc_geometry(src, dst, bend)
    assert 1.0 < _on_outline(src, *start) < 1.1 and 1.0 < _on_outline(dst, *tip) < 1.1
    # The head points along the curve at its end: its base is centred on the line to the control point.
    base = (np.add(left, right)) / 2
    toward = np.subtract(control, tip)
    assert _cross(np.subtract(base, tip), toward) == pytest.approx(0.0, abs=0.01 * np.hypot(*toward))
    assert np.hypot(*np.subtract(base, tip)) == pytest.approx(0.05)
    # A bent arc bulges to the right of its direction of travel (as matplotlib's arc3, rad > 0).
    side = _cross(np.subtract(tip, start), np.subtract(control, start))
    assert side < -0.1 if bend else abs(side) < 1e-9


def test_a_general_network_round_trips_through_its_record_and_is_drawn(tmp_path):
    from bayesbench.evaluation.fitted import network
    from bayesbench.models.search.bayesnet import BayesNet
    from bayesbench.report.figures.network import structure_of

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 500)
    x0 = np.where(rng.random(500) < 0.8, y, 1 - y)
    X = np.column_stack([x0, np.where(rng.random(500) < 0.9, x0, 1 - x0),
                         rng.integers(0, 3, 500), np.where(rng.random(500) < 0.8, y, 1 - y)])
    model = BayesNet(search="hill_climbing", max_parents=2, initial="empty").fit(X, y)
    learned = model.structure_
    assert learned.class_parents and not all(n.class_parent for n in learned.nodes)
    record = network(model, "label")
    assert record["augmented"] is False
    back = structure_of(record)
    assert back.edges() == [(a.replace("class", "label"), b.replace("class", "label"))
                            for a, b in learned.edges()]
    root = ET.parse(plot_network(back, tmp_path / "g.svg")).getroot()
    arcs = {el.get("id") for el in root.iter() if (el.get("id") or "").startswith("arc-")}
    children = {f"arc-class-{k}" for k, n in enumerate(back.nodes) if n.class_parent}
    parents = {f"arc-{p}-class" for p in back.class_parents}  # one attribute per node
    between = {f"arc-{p}-{c}" for p, c in node_arcs(back)}
    assert arcs == children | parents | between
    # Naive Bayes (bayesnet's default) is no network to record, as nb's is not.
    assert network(BayesNet().fit(X, y), "label") is None
