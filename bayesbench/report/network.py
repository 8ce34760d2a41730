"""Drawings of a learned augmented naive Bayes network.

:func:`plot_network` draws a :class:`~bayesbench.models.structure.Structure`
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
class) and each arc ``arc-<i>-<j>`` (``arc-class-<j>``), ``i`` and ``j`` being
indices into ``structure.nodes``.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

from .plotting import check_figure_path, save_figure, styled_figure

_CHAR = 0.078      # inches per character at font size 9
_LINE = 0.17       # inches per text line at font size 9
_GAP = 0.28        # horizontal gap between two nodes of a row
_ROW_GAP = 0.55    # vertical gap between two rows
_MARGIN = 0.2


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
    pairs, once per pair; ``width`` and ``height`` are the drawing's size.
    """

    class_box: NodeBox
    boxes: tuple[NodeBox, ...]
    layers: tuple[tuple[int, ...], ...]
    arcs: tuple[tuple[int, int], ...]
    width: float
    height: float


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
    return NetworkLayout(class_box, tuple(boxes[k] for k in range(len(structure.nodes))),
                         tuple(tuple(layer) for layer in layers), tuple(arcs), width, -y + _MARGIN)


def plot_network(structure, path, *, title: str | None = None, max_per_row: int = 10) -> Path:
    """Draw the network of ``structure`` to ``path`` (``.svg``, ``.png`` or ``.pdf``).

    Attributes no node holds (dropped by feature selection) are listed under the
    drawing; ``title`` goes above it.
    """
    path = check_figure_path(path)
    # A title wider than the network widens the drawing (font size 10).
    layout = network_layout(structure, max_per_row=max_per_row,
                            min_width=len(title) * _CHAR * 1.15 + 2 * _MARGIN if title else 0.0)
    names = structure.names()
    dropped = ", ".join(names[a] for a in structure.dropped)
    # Grey arcs to wrapped rows pass behind the nodes above them: say what they are.
    columns = max(20, int((layout.width - 2 * _MARGIN) / (0.9 * _CHAR)))  # font size 8
    note = textwrap.wrap("grey arcs: the class is a parent of every node", columns)
    if dropped:
        note += textwrap.wrap(f"dropped: {dropped}", columns)
    top = 0.35 if title else 0.0
    bottom = len(note) * _LINE + 0.1
    height = layout.height + top + bottom
    with styled_figure(layout.width, height) as fig:
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, layout.width)
        ax.set_ylim(-layout.height - bottom, top)
        ax.axis("off")
        patches = [_draw_node(ax, box, f"node-{k}") for k, box in enumerate(layout.boxes)]
        class_patch = _draw_node(ax, layout.class_box, "node-class", is_class=True)
        for k, box in enumerate(layout.boxes):
            _draw_arc(ax, layout.class_box, box, class_patch, patches[k], f"arc-class-{k}", light=True)
        for p, c in layout.arcs:
            _draw_arc(ax, layout.boxes[p], layout.boxes[c], patches[p], patches[c], f"arc-{p}-{c}")
        if title:
            ax.text(layout.width / 2, top / 2, title, ha="center", va="center", fontsize=10)
        for i, line in enumerate(note):
            ax.text(_MARGIN, -layout.height - i * _LINE, line, ha="left", va="top", fontsize=8, color="0.3")
        return save_figure(fig, path, tight=False)


def write_dot(structure, path, *, name: str = "anb") -> Path:
    """Write the network as Graphviz DOT text (:meth:`Structure.to_dot`) to ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(structure.to_dot(name), encoding="utf-8")
    return path


def _draw_node(ax, box: NodeBox, gid: str, *, is_class: bool = False):
    from matplotlib.patches import Ellipse, FancyBboxPatch  # lazy: matplotlib is optional
    style = dict(facecolor="#e8eef7" if is_class else "white", edgecolor="black", linewidth=1.0, zorder=2)
    if box.joined:
        patch = FancyBboxPatch((box.x - box.width / 2 + 0.05, box.y - box.height / 2 + 0.05),
                               box.width - 0.1, box.height - 0.1, boxstyle="round,pad=0.05", **style)
    else:
        patch = Ellipse((box.x, box.y), box.width, box.height, **style)
    patch.set_gid(gid)
    ax.add_patch(patch)
    if is_class:  # a double outline, as in the DOT export
        ring = Ellipse((box.x, box.y), box.width - 0.1, box.height - 0.1, fill=False,
                       edgecolor="black", linewidth=0.8, zorder=2)
        ring.set_gid(gid + "-ring")
        ax.add_patch(ring)
    ax.text(box.x, box.y, "\n".join(box.lines), ha="center", va="center", fontsize=9, zorder=3,
            linespacing=1.25, gid=gid + "-label")
    return patch


def _draw_arc(ax, src: NodeBox, dst: NodeBox, src_patch, dst_patch, gid: str, *, light: bool = False):
    from matplotlib.patches import FancyArrowPatch  # lazy: matplotlib is optional
    # Arcs that skip a row bend a little, so that they do not run through the nodes between.
    bend = 0.0 if light or src.y - dst.y < 2 * (_ROW_GAP + max(src.height, dst.height)) else 0.25
    arrow = FancyArrowPatch((src.x, src.y), (dst.x, dst.y), patchA=src_patch, patchB=dst_patch,
                            arrowstyle="-|>", mutation_scale=9, connectionstyle=f"arc3,rad={bend}",
                            color="0.78" if light else "black", linewidth=0.6 if light else 1.1,
                            shrinkA=1, shrinkB=1, zorder=1 if light else 1.5)
    arrow.set_gid(gid)
    ax.add_patch(arrow)
