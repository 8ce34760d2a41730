"""Drawings of a learned augmented naive Bayes network.

:func:`plot_network` draws a :class:`~bayesbench.models.core.structure.Structure`
with matplotlib alone (no Graphviz binary): the class node on top, every node
below it joined to it by a light arc, attributes joined into one
super-attribute drawn as one box listing them, and the arcs between attribute
nodes drawn dark from parent to child. :func:`write_dot` writes the same
network as Graphviz text for whoever has Graphviz.

The layout is computed here (:func:`network_layout`): a node's layer is the
length of the longest chain of attribute parents above it, so every arc points
down; nodes in a layer are ordered by the mean position of their parents (the
barycentre heuristic of Sugiyama et al. 1981), which keeps a tree's branches
apart; a layer wider than ``max_per_row`` nodes is wrapped onto several rows.
In the SVG, each node is a group with id ``node-<i>`` (``node-class`` for the
class) and each arc ``arc-<i>-<j>`` (``arc-class-<j>``, ``arc-<i>-class``), ``i`` and
``j`` being indices into ``structure.nodes``. In a general network (``bayesnet``) the
class has light arcs to its children only, and its parents' arcs point up to it.

Where an arc starts and ends is computed here too (:func:`arc_geometry`: the
curve cut at the outlines of its two nodes, which are ellipses and boxes of
known size), and the whole network is drawn by one artist in inches on an
axes-less figure. Matplotlib's own arrows clip every arc against both node
patches at every draw, which made a 50-node network cost over a second.
"""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from ...models.core.structure import Node, Structure
from .plotting import check_figure_path, save_figure, styled_figure

_CHAR = 0.078      # inches per character at font size 9
_LINE = 0.17       # inches per text line at font size 9
_GAP = 0.28        # horizontal gap between two nodes of a row
_ROW_GAP = 0.55    # vertical gap between two rows
_MARGIN = 0.2
_SHRINK = 1 / 72                   # arcs stop one point short of the outlines
_HEAD_LENGTH = 0.4 * 9 / 72        # matplotlib's "-|>" arrow head at mutation scale 9
_HEAD_HALF_WIDTH = 0.2 * 9 / 72


class Network(NamedTuple):
    """A learned network to draw: its data set, classifier label, and the record's
    ``network`` field (``class``, ``attributes``, ``nodes``)."""

    dataset: str
    classifier: str
    data: dict


def structure_of(network: dict) -> Structure:
    """The :class:`Structure` a record's ``network`` field describes."""
    children = set(network.get("class_children", range(len(network["nodes"]))))
    return Structure([Node(a, p, class_parent=k in children)
                      for k, (a, p) in enumerate(network["nodes"])], len(network["attributes"]),
                     attribute_names=network["attributes"], class_name=network["class"],
                     class_parents=network.get("class_parents", ()),
                     augmented=network.get("augmented", True))


@dataclass(frozen=True)
class NodeBox:
    """Where one node is drawn: centre ``(x, y)`` and size in inches, its text lines."""

    x: float
    y: float
    width: float
    height: float
    lines: tuple[str, ...]
    joined: bool


@dataclass(frozen=True)
class NetworkLayout:
    """Positions of the class node and of every node of a structure.

    ``layers[d]`` lists the node indices at depth ``d`` (0: only the class as
    parent) in drawing order; ``arcs`` are ``(parent_node, child_node)`` index
    pairs, once per pair; ``class_children`` the nodes the class is a parent of (every
    node but in a general network) and ``class_parents`` the nodes that are the class's;
    ``width`` and ``height`` are the drawing's size.
    """

    class_box: NodeBox
    boxes: tuple[NodeBox, ...]
    layers: tuple[tuple[int, ...], ...]
    arcs: tuple[tuple[int, int], ...]
    width: float
    height: float
    class_children: tuple[int, ...] = ()
    class_parents: tuple[int, ...] = ()


def node_arcs(structure) -> list[tuple[int, int]]:
    """Arcs between nodes as ``(parent node, child node)`` index pairs, each pair once."""
    owner = {a: k for k, node in enumerate(structure.nodes) for a in node.attributes}
    return list(dict.fromkeys((owner[p], k) for k, node in enumerate(structure.nodes)
                              for p in node.parents))


def _depths(n_nodes: int, arcs) -> list[int]:
    parents = [[] for _ in range(n_nodes)]
    for p, c in arcs:
        parents[c].append(p)
    depth: list[int | None] = [None] * n_nodes

    def visit(k):  # the structure is acyclic (Structure checks it), so this ends
        if depth[k] is None:
            depth[k] = 1 + max((visit(p) for p in parents[k]), default=-1)
        return depth[k]

    return [visit(k) for k in range(n_nodes)]


def _order_layers(structure, arcs) -> list[list[int]]:
    depths = _depths(len(structure.nodes), arcs)
    layers = [[] for _ in range(max(depths, default=-1) + 1)]
    for k in sorted(range(len(structure.nodes)), key=lambda k: min(structure.nodes[k].attributes)):
        layers[depths[k]].append(k)
    parents = {k: [p for p, c in arcs if c == k] for k in range(len(structure.nodes))}
    # Positions as fractions of the row's width, so that layers of different sizes compare.
    place = {k: (i + 0.5) / len(layers[0]) for i, k in enumerate(layers[0])} if layers else {}
    for layer in layers[1:]:
        # Barycentre of the parents' positions; ties keep attribute order (the sort is stable).
        layer.sort(key=lambda k: sum(place[p] for p in parents[k]) / len(parents[k]))
        place.update({k: (i + 0.5) / len(layer) for i, k in enumerate(layer)})
    return layers


def _box(lines, joined) -> tuple[float, float]:
    text_w = max(len(s) for s in lines) * _CHAR
    text_h = len(lines) * _LINE
    if joined:  # a rounded box around the list of attributes
        return text_w + 0.3, text_h + 0.18
    return text_w * 1.25 + 0.3, text_h + 0.24  # an ellipse a little wider than its text


def network_layout(structure, *, max_per_row: int = 10, min_width: float = 0.0) -> NetworkLayout:
    """Compute where every node of ``structure`` goes (in inches, y up, top at 0)."""
    arcs = node_arcs(structure)
    layers = _order_layers(structure, arcs)
    names = structure.names()
    sizes, lines = [], []
    for node in structure.nodes:
        text = tuple(names[a] for a in node.attributes)
        lines.append(text)
        sizes.append(_box(text, len(text) > 1))
    rows = [layer[i:i + max_per_row] for layer in layers for i in range(0, len(layer), max_per_row)]
    row_widths = [sum(sizes[k][0] for k in row) + _GAP * (len(row) - 1) for row in rows]
    class_size = _box((structure.class_name,), False)
    width = max([class_size[0], *row_widths, min_width - 2 * _MARGIN]) + 2 * _MARGIN
    y = -_MARGIN - class_size[1] / 2
    class_box = NodeBox(width / 2, y, class_size[0], class_size[1], (structure.class_name,), False)
    y -= class_size[1] / 2
    boxes: dict[int, NodeBox] = {}
    for row, row_width in zip(rows, row_widths):
        height = max(sizes[k][1] for k in row)
        y -= _ROW_GAP + height / 2
        x = (width - row_width) / 2
        for k in row:
            w, h = sizes[k]
            boxes[k] = NodeBox(x + w / 2, y, w, h, lines[k], len(lines[k]) > 1)
            x += w + _GAP
        y -= height / 2
    owner = {a: k for k, node in enumerate(structure.nodes) for a in node.attributes}
    return NetworkLayout(class_box, tuple(boxes[k] for k in range(len(structure.nodes))),
                         tuple(tuple(layer) for layer in layers), tuple(arcs), width, -y + _MARGIN,
                         tuple(k for k, node in enumerate(structure.nodes) if node.class_parent),
                         tuple(dict.fromkeys(owner[p] for p in structure.class_parents)))


def plot_network(structure, path, *, title: str | None = None, max_per_row: int = 10,
                 frequencies: dict | None = None, threshold: float = 0.0):
    """Draw the network of ``structure`` to ``path`` (``.svg``, ``.png`` or ``.pdf``, or a
    list of them: drawn once, written to each; the list of files is returned).

    Attributes no node holds (dropped by feature selection) are listed under the
    drawing; ``title`` goes above it. ``frequencies`` (``{(parent, child): share}``, nodes
    named by their labels, the class by its name) draws a consensus network: each arc
    labelled with its share of the folds and drawn as wide as it (the class's arcs, grey, when
    a share is below 1: how often the attribute was selected), and every arc of it the
    structure lacks (one that would close a cycle) drawn too, bent; ``threshold``: the
    least share of the folds of the arcs ``frequencies`` holds, said under the drawing.
    """
    path = [check_figure_path(p) for p in path] if isinstance(path, (list, tuple)) else (
        check_figure_path(path))
    # A title wider than the network widens the drawing (font size 10).
    layout = network_layout(structure, max_per_row=max_per_row,
                            min_width=len(title) * _CHAR * 1.15 + 2 * _MARGIN if title else 0.0)
    shares = _shares(structure, layout, frequencies)
    names = structure.names()
    dropped = ", ".join(names[a] for a in structure.dropped)
    # Grey arcs to wrapped rows pass behind the nodes above them: say what they are.
    columns = max(20, int((layout.width - 2 * _MARGIN) / (0.9 * _CHAR)))  # font size 8
    note = textwrap.wrap(("grey arcs: the class is a parent of every node" if structure.augmented
                          else "grey arcs: from the class to its children") + (
        "; labels and widths: the share of the folds that learned the arc" if shares else "")
        + (f"; arcs of fewer than {threshold:.0%} of the folds not drawn"
           if frequencies and threshold > 0 else ""), columns)
    if dropped:
        note += textwrap.wrap(f"dropped: {dropped}", columns)
    top = 0.35 if title else 0.0
    bottom = len(note) * _LINE + 0.1
    height = layout.height + top + bottom
    with styled_figure(layout.width, height) as fig:
        # No axes (their ticks cost more than the network): one unit is one inch, from the
        # figure's bottom left corner moved so that y = 0 is the top of the layout.
        from matplotlib.transforms import Affine2D  # lazy: matplotlib is optional
        inches = Affine2D().translate(0, layout.height + bottom) + fig.dpi_scale_trans
        fig.add_artist(_shapes_class()(_network_shapes(layout, shares), transform=inches,
                                       zorder=1))
        for (p, c), share in shares.items():
            _share_label(fig, layout, p, c, share, inches)
        for k, box in enumerate(layout.boxes):
            _label(fig, box, f"node-{k}-label", inches)
        _label(fig, layout.class_box, "node-class-label", inches)
        if title:
            fig.text(layout.width / 2, top / 2, title, ha="center", va="center", fontsize=10,
                     transform=inches)
        for i, line in enumerate(note):
            fig.text(_MARGIN, -layout.height - i * _LINE, line, ha="left", va="top", fontsize=8,
                     color="0.3", transform=inches)
        return save_figure(fig, path, tight=False)


def write_dot(structure, path, *, name: str = "anb", frequencies: dict | None = None) -> Path:
    """Write the network as Graphviz DOT text (:meth:`Structure.to_dot`) to ``path``; with
    ``frequencies`` (as :func:`plot_network` takes them), each arc labelled with its share
    and as wide as it (``penwidth``), and the arcs the structure lacks added."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = structure.to_dot(name)
    if frequencies:
        text = _dot_shares(text, structure, frequencies)
    path.write_text(text, encoding="utf-8")
    return path


def _dot_shares(text: str, structure, frequencies: dict) -> str:
    """``to_dot``'s text with each arc of ``frequencies`` labelled (an arc it lacks added)."""
    def q(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = text.rstrip("\n").split("\n")[:-1]  # the closing brace comes back last
    drawn = {f"  {q(p)} -> {q(c)};": (p, c) for p, c in structure.edges()}
    out = []
    for line in lines:
        share = frequencies.get(drawn.get(line))
        out.append(line if share is None else
                   f"{line[:-1]} [label=\"{share:.2f}\", penwidth={0.5 + 2.5 * share:.2f}];")
    out += [f"  {q(p)} -> {q(c)} [label=\"{share:.2f}\", penwidth={0.5 + 2.5 * share:.2f}];"
            for (p, c), share in frequencies.items() if (p, c) not in set(drawn.values())]
    return "\n".join(out + ["}"]) + "\n"


def _shares(structure, layout: NetworkLayout, frequencies) -> dict:
    """``{(parent, child): share}`` of :func:`plot_network`'s ``frequencies`` by node index
    (``"class"`` for the class), the class's arcs only where some are below 1."""
    if not frequencies:
        return {}
    index = {structure.node_label(node): k for k, node in enumerate(structure.nodes)}
    index[structure.class_name] = "class"
    out = {(index[p], index[c]): f for (p, c), f in frequencies.items()
           if p in index and c in index}
    if structure.augmented and all(f == 1 for (p, _), f in out.items() if p == "class"):
        out = {k: f for k, f in out.items() if k[0] != "class"}
    return out


def _share_label(fig, layout: NetworkLayout, p, c, share: float, transform) -> None:
    """An arc's share of the folds, on the middle of its shaft."""
    src = layout.class_box if p == "class" else layout.boxes[p]
    dst = layout.class_box if c == "class" else layout.boxes[c]
    (x0, y0), (x1, y1), (x2, y2) = arc_geometry(src, dst, _bend(src, dst, p == "class"))[0]
    fig.text((x0 + 2 * x1 + x2) / 4, (y0 + 2 * y1 + y2) / 4, f"{share:.2f}", ha="center",
             va="center", fontsize=7, color="0.45" if p == "class" else "#b2182b",
             gid=f"share-{p}-{c}", transform=transform,
             bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none"})


def _label(fig, box: NodeBox, gid: str, transform) -> None:
    fig.text(box.x, box.y, "\n".join(box.lines), ha="center", va="center", fontsize=9,
             linespacing=1.25, gid=gid, transform=transform)


def _network_shapes(layout: NetworkLayout, shares=None) -> list:
    """What the network is drawn with, in drawing order, as ``(gid, [(path, fill colour or
    None), ...], edge colour, line width)``: the grey arcs from the class, the dark arcs
    between nodes (with ``shares``, :func:`_shares`, as wide as their share and those the
    layout lacks too), then the nodes over them (an ellipse, or a rounded box for a joined
    node; the class with a double outline)."""
    from matplotlib.path import Path as MplPath  # lazy: matplotlib is optional
    shares = shares or {}
    shapes = []
    for k in layout.class_children:
        shapes.append(_arc_shape(layout.class_box, layout.boxes[k], f"arc-class-{k}", light=True,
                                 share=shares.get(("class", k))))
    for k in layout.class_parents:
        shapes.append(_arc_shape(layout.boxes[k], layout.class_box, f"arc-{k}-class",
                                 share=shares.get((k, "class"))))
    extra = [a for a in shares if "class" not in a and a not in layout.arcs]
    for p, c in [*layout.arcs, *extra]:
        shapes.append(_arc_shape(layout.boxes[p], layout.boxes[c], f"arc-{p}-{c}",
                                 share=shares.get((p, c))))
    for k, box in enumerate(layout.boxes):
        shapes.append((f"node-{k}", [(_outline(box), "white")], "black", 1.0))
    box = layout.class_box
    ring = MplPath.unit_circle().transformed(_ellipse(box.x, box.y, box.width - 0.1, box.height - 0.1))
    shapes += [("node-class", [(_outline(box), "#e8eef7")], "black", 1.0),
               ("node-class-ring", [(ring, None)], "black", 0.8)]
    return shapes


def _ellipse(x, y, width, height):
    from matplotlib.transforms import Affine2D  # lazy: matplotlib is optional
    return Affine2D().scale(width / 2, height / 2).translate(x, y)


def _outline(box: NodeBox):
    """A node's outline: an ellipse filling its box, or a rounded box for a joined node."""
    from matplotlib.patches import BoxStyle  # lazy: matplotlib is optional
    from matplotlib.path import Path as MplPath  # lazy: as above
    if box.joined:
        return BoxStyle("round", pad=0.05)(box.x - box.width / 2 + 0.05, box.y - box.height / 2 + 0.05,
                                           box.width - 0.1, box.height - 0.1, 1.0)
    return MplPath.unit_circle().transformed(_ellipse(box.x, box.y, box.width, box.height))


def _inside(box: NodeBox, x: float, y: float) -> bool:
    """Whether the point ``(x, y)`` lies inside ``box`` (its ellipse, or its rectangle)."""
    dx, dy = (x - box.x) / (box.width / 2), (y - box.y) / (box.height / 2)
    return max(abs(dx), abs(dy)) <= 1 if box.joined else dx * dx + dy * dy <= 1


def _crossing(box: NodeBox, curve, inside_at_0: bool) -> float:
    """The parameter where ``curve`` (t -> point) crosses the outline of ``box``, by bisection;
    the curve is inside at t = 0 and outside at t = 1 when ``inside_at_0``, the other way round
    otherwise (the boxes are convex and the curves bend little, so it crosses once)."""
    lo, hi = 0.0, 1.0
    for _ in range(24):  # 2^-24 of an arc: far below a pixel
        mid = (lo + hi) / 2
        if _inside(box, *curve(mid)) == inside_at_0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def arc_geometry(src: NodeBox, dst: NodeBox, bend: float = 0.0):
    """The shaft and the arrow head of an arc from ``src`` to ``dst``, in inches.

    The shaft is a quadratic Bezier curve given by its start, control point and end (a
    straight segment when ``bend`` is 0); the head is a triangle, its tip first. The curve
    runs from centre to centre, bulging sideways by ``bend`` times its length (as
    matplotlib's ``arc3`` connection does), and is cut where it leaves ``src`` and where it
    enters ``dst``, pulled back from both outlines by one point. Computed once, with plain
    float arithmetic, so that the same layout gives the same bytes.
    """
    (x0, y0), (x2, y2) = (src.x, src.y), (dst.x, dst.y)
    x1, y1 = (x0 + x2) / 2 + bend * (y2 - y0), (y0 + y2) / 2 - bend * (x2 - x0)

    def curve(t):
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        return a * x0 + b * x1 + c * x2, a * y0 + b * y1 + c * y2

    def tangent(t):
        return 2 * (1 - t) * (x1 - x0) + 2 * t * (x2 - x1), 2 * (1 - t) * (y1 - y0) + 2 * t * (y2 - y1)

    t0, t1 = _crossing(src, curve, True), _crossing(dst, curve, False)
    t0 += _SHRINK / math.hypot(*tangent(t0))
    t1 -= _SHRINK / math.hypot(*tangent(t1))
    (tx, ty), (ux, uy) = curve(t1), tangent(t1)
    speed = math.hypot(ux, uy)
    ux, uy = ux / speed, uy / speed
    bx, by = tx - _HEAD_LENGTH * ux, ty - _HEAD_LENGTH * uy
    wx, wy = -_HEAD_HALF_WIDTH * uy, _HEAD_HALF_WIDTH * ux
    head = ((tx, ty), (bx + wx, by + wy), (bx - wx, by - wy))
    # The shaft stops inside the head, so that its square end never shows past the tip.
    t2 = t1 - 0.7 * _HEAD_LENGTH / speed
    # The control point of the piece of the curve between t0 and t2 (de Casteljau).
    a, b, c = (1 - t0) * (1 - t2), (1 - t0) * t2 + t0 * (1 - t2), t0 * t2
    shaft = (curve(t0), (a * x0 + b * x1 + c * x2, a * y0 + b * y1 + c * y2), curve(t2))
    return shaft, head


def _bend(src: NodeBox, dst: NodeBox, light: bool) -> float:
    """How much an arc bends: arcs that skip a row, or point up (a consensus's arc against the
    layout), bend a little, so that they run neither through the nodes between nor over an
    opposite arc."""
    straight = light or 0 < src.y - dst.y < 2 * (_ROW_GAP + max(src.height, dst.height))
    return 0.0 if straight else 0.25


def _arc_shape(src: NodeBox, dst: NodeBox, gid: str, *, light: bool = False,
               share: float | None = None):
    """An arc's shape for :func:`_network_shapes`: its shaft, and its head filled; with a
    ``share`` of the folds, as wide as it (2.6 points for every fold)."""
    from matplotlib.path import Path as MplPath  # lazy: matplotlib is optional
    bend = _bend(src, dst, light)
    shaft, head = arc_geometry(src, dst, bend)
    line = (MplPath(shaft, [MplPath.MOVETO, MplPath.CURVE3, MplPath.CURVE3]) if bend
            else MplPath([shaft[0], shaft[2]]))
    color = "0.78" if light else "black"
    width = (0.6 if light else 1.1) if share is None else 0.4 + 2.2 * share
    return gid, [(line, None), (MplPath([*head, head[0]], closed=True), color)], color, width


@cache
def _shapes_class():
    """The artist that draws :func:`_network_shapes`: one artist for the whole network, each
    shape still its own SVG group with its id, with no per-shape artist to build and no
    clipping of arcs against nodes at draw time."""
    from matplotlib.artist import Artist  # lazy: matplotlib is optional
    from matplotlib.colors import to_rgba  # lazy: as above

    class Shapes(Artist):
        def __init__(self, shapes, *, transform, zorder):
            super().__init__()
            self._shapes = shapes
            self.set_transform(transform)
            self.set_zorder(zorder)

        def draw(self, renderer):
            transform = self.get_transform()
            for gid, parts, edge, linewidth in self._shapes:
                renderer.open_group("patch", gid=gid)
                for path, face in parts:
                    gc = renderer.new_gc()
                    gc.set_foreground(to_rgba(edge), isRGBA=True)
                    gc.set_linewidth(linewidth)
                    gc.set_joinstyle("miter")
                    gc.set_capstyle("butt")
                    gc.set_antialiased(True)
                    renderer.draw_path(gc, path, transform, None if face is None else to_rgba(face))
                    gc.restore()
                renderer.close_group("patch")
            self.stale = False

    return Shapes
