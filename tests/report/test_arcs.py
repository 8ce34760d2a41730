"""Arc stability: on data drawn from a known TAN (a chain of attributes under the class), TAN
learns every true arc in every one of 10 folds, and the consensus network labels each with 1.00;
the structure lines are read back exactly."""
import re

import numpy as np
import pandas as pd
import pytest

from bayesbench.report.arcs import ARC_COLUMNS, consensus, parse_structure
from bayesbench.report.figures.network import plot_network, write_dot
from helpers import check_page, run, small_config


def test_a_structure_line_is_read_back():
    assert parse_structure("4 nodes; 0 arcs") == ([], [])
    assert parse_structure("3 nodes; 1 joined (a+b); 2 arcs; 1 dropped (c): a+b->d, d->e") == (
        [("a+b", "d"), ("d", "e")], ["c"])
    assert parse_structure("3 nodes; 2 arcs; 2 dropped (c, f): x->y, y->z") == (
        [("x", "y"), ("y", "z")], ["c", "f"])


def _tan_sample(path, rows=3000, length=5, seed=7):
    """The class, then x0 depending on the class, and each x_j copying x_{j-1} with
    probability 0.85 (else a uniform value of 3): the true TAN arcs are x_{j-1} -> x_j."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    x = [np.where(rng.random(rows) < 0.7, y, rng.integers(0, 3, rows))]
    for _ in range(1, length):
        x.append(np.where(rng.random(rows) < 0.85, x[-1], rng.integers(0, 3, rows)))
    frame = pd.DataFrame({f"x{j}": [f"v{v}" for v in col] for j, col in enumerate(x)})
    frame["class"] = [f"c{v}" for v in y]
    frame.to_csv(path, index=False)


def test_true_tan_arcs_are_learned_in_every_fold(tmp_path):
    _tan_sample(tmp_path / "chain.csv")
    cfg = small_config(tmp_path, tmp_path, datasets=[str(tmp_path / "chain.csv")],
                       cv={"folds": 10}, classifiers=["nb", "tan"])
    result = run(cfg, jobs=1, quiet=True)
    table = pd.read_csv(result.run_dir / "summary" / "arc_frequencies.csv")
    assert list(table.columns) == ARC_COLUMNS
    assert set(table["classifier"]) == {"tan"}  # naive Bayes learns no arc
    tan = table.set_index(["parent", "child"])["frequency"]
    for j in range(1, 5):
        assert tan[f"x{j - 1}", f"x{j}"] == pytest.approx(1.0)
    assert len(tan) == 4  # a tree over five attributes has four arcs, all of them true


def _shares_in_svg(svg):
    """``{id: text}`` of the share labels of a consensus network's SVG."""
    return dict(re.findall(r'<g id="(share-[\w-]+)">.*?<text[^>]*>([^<]*)</text>', svg, re.S))


def test_the_consensus_network_labels_every_true_arc_with_its_share(tmp_path):
    _tan_sample(tmp_path / "chain.csv")
    cfg = small_config(tmp_path, tmp_path, datasets=[str(tmp_path / "chain.csv")],
                       cv={"folds": 10}, classifiers=["nb", "tan"])
    result = run(cfg, jobs=1, quiet=True)
    figures = result.run_dir / "figures"
    dot = (figures / "consensus-chain-tan.dot").read_text()
    for j in range(1, 5):
        assert f'"x{j - 1}" -> "x{j}" [label="1.00", penwidth=3.00];' in dot
    assert dot.count("label=") == 4
    shares = _shares_in_svg((figures / "consensus-chain-tan.svg").read_text())
    assert sorted(shares.values()) == ["1.00"] * 4
    assert not (figures / "consensus-chain-nb.svg").exists()  # naive Bayes learns no arc
    page = check_page(result.run_dir / "report.html")
    assert any("consensus network: tan on chain (every fold)" in t for t in page.text)


def test_a_consensus_keeps_both_directions_of_an_arc_and_stays_acyclic(tmp_path):
    # Hand-made rows: a->b in 0.6 of the folds, b->a in 0.4, b->c in all, c->a in 0.2 (a cycle
    # a->b->c->a if all were kept as the structure's arcs).
    rows = [["d", "k", "a", "b", 0.6], ["d", "k", "b", "a", 0.4], ["d", "k", "b", "c", 1.0],
            ["d", "k", "c", "a", 0.2]]
    network = {"class": "y", "attributes": ["a", "b", "c", "e"], "nodes": []}
    structure, shares = consensus(rows, network, threshold=0)  # every arc
    assert sorted(structure.edges()) == sorted(
        [("y", "a"), ("y", "b"), ("y", "c"), ("y", "e"), ("b", "c"), ("a", "b")])
    plot_network(structure, tmp_path / "c.svg", frequencies=shares)
    write_dot(structure, tmp_path / "c.dot", frequencies=shares)
    dot = (tmp_path / "c.dot").read_text()
    for parent, child, share in [("a", "b", "0.60"), ("b", "a", "0.40"), ("b", "c", "1.00"),
                                 ("c", "a", "0.20")]:
        assert f'"{parent}" -> "{child}" [label="{share}"' in dot
    shares_drawn = _shares_in_svg((tmp_path / "c.svg").read_text())
    assert sorted(shares_drawn.values()) == ["0.20", "0.40", "0.60", "1.00"]


def test_the_threshold_leaves_out_the_arcs_and_selections_of_fewer_folds(tmp_path):
    # The same rows as above: by default (half of the folds) a->b and b->c are drawn, the
    # others (0.4, 0.2) not even bent; at 1 only b->c; a share equal to it counts (3 / 10).
    rows = [["d", "k", "a", "b", 0.6], ["d", "k", "b", "a", 0.4], ["d", "k", "b", "c", 1.0],
            ["d", "k", "c", "a", 0.2], ["d", "k", "e", "a", 3 / 10]]
    network = {"class": "y", "attributes": ["a", "b", "c", "e"], "nodes": []}
    structure, shares = consensus(rows, network)
    assert shares == {("a", "b"): 0.6, ("b", "c"): 1.0}
    assert sorted(e for e in structure.edges() if e[0] != "y") == [("a", "b"), ("b", "c")]
    plot_network(structure, tmp_path / "c.svg", frequencies=shares, threshold=0.5)
    write_dot(structure, tmp_path / "c.dot", frequencies=shares)
    assert sorted(_shares_in_svg((tmp_path / "c.svg").read_text()).values()) == ["0.60", "1.00"]
    assert (tmp_path / "c.dot").read_text().count("label=") == 2
    words = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", (tmp_path / "c.svg").read_text()))
    assert "arcs of fewer than 50% of the folds not drawn" in words
    assert consensus(rows, network, threshold=1)[1] == {("b", "c"): 1.0}
    assert ("e", "a") in consensus(rows, network, threshold=0.3)[1]
    # A selective learner: the class's rows are how often each attribute was selected; one
    # selected by fewer folds than the threshold is dropped, with its arcs.
    rows = [["d", "s", "y", "a", 1.0], ["d", "s", "y", "b", 0.3], ["d", "s", "y", "c", 0.8],
            ["d", "s", "a", "c", 0.5], ["d", "s", "b", "c", 0.3]]
    structure, shares = consensus(rows, {"class": "y", "attributes": ["a", "b", "c"]})
    assert [structure.names()[a] for a in structure.dropped] == ["b"]
    assert shares == {("y", "a"): 1.0, ("y", "c"): 0.8, ("a", "c"): 0.5}
    structure, shares = consensus(rows, {"class": "y", "attributes": ["a", "b", "c"]}, 0.9)
    assert sorted(structure.names()[a] for a in structure.dropped) == ["b", "c"]
    assert shares == {("y", "a"): 1.0}


def test_a_general_networks_consensus_keeps_the_class_arcs_it_learned(tmp_path):
    # bayesnet's structure lines list every arc, the class's too. Hand-made rows: y->a in
    # every fold, c->y in 0.7, y->b in 0.5, b->c in 0.4 (which would close y->b->c->y) and
    # b->a in 0.3.
    line = "3 nodes; 4 arcs: class->a, class->b, c->class, b->a"
    assert parse_structure(line) == ([("class", "a"), ("class", "b"), ("c", "class"),
                                      ("b", "a")], [])
    rows = [["d", "bn", "y", "a", 1.0], ["d", "bn", "c", "y", 0.7], ["d", "bn", "y", "b", 0.5],
            ["d", "bn", "b", "c", 0.4], ["d", "bn", "b", "a", 0.3]]
    network = {"class": "y", "attributes": ["a", "b", "c", "e"], "nodes": [],
               "augmented": False, "class_parents": [], "class_children": []}
    structure, shares = consensus(rows, network, threshold=0)  # every arc
    assert not structure.augmented
    # b->c would close y->b->c->y: left out of the structure (drawn bent from the shares).
    assert sorted(structure.edges()) == sorted([("y", "a"), ("c", "y"), ("y", "b"), ("b", "a")])
    svg = plot_network(structure, tmp_path / "g.svg", frequencies=shares).read_text()
    drawn = set(re.findall(r'<g id="(arc-[\w-]+)">', svg))
    index = {n: k for k, n in enumerate(structure.attribute_names)}
    assert drawn == {f"arc-class-{index['a']}", f"arc-class-{index['b']}",
                     f"arc-{index['c']}-class", f"arc-{index['b']}-{index['a']}",
                     f"arc-{index['b']}-{index['c']}"}
    assert "grey arcs: from the" in svg and "every node" not in svg
