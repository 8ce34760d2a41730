"""Arc stability: on data drawn from a known TAN (a chain of attributes under the class), TAN
learns every true arc in every one of 10 folds; the structure lines are read back exactly."""
import numpy as np
import pandas as pd
import pytest

from bayesbench.report.arcs import ARC_COLUMNS, parse_structure
from helpers import run, small_config


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
