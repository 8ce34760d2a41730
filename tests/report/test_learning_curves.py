"""Learning curves: on data drawn from a tree-shaped network, naive Bayes has the lower error on
a small training part and TAN on the whole one (the classic crossing); the table's spread is
scipy's over the scores.csv rows, and the figure is in figures/ and report.html."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bayesbench.report.run.learning_curves import CURVE_COLUMNS
from helpers import check_page, run, small_config

SIZES = [16, 50, 1.0]


def _tree_sample(path, rows=4000, chain=6, card=5, extra=3, seed=13):
    """A TAN-shaped truth: the class; x0 and z0..z2 depending on it; each x_j copying x_{j-1}
    with probability 0.8 (else a uniform value of 5). Naive Bayes counts x0's evidence once
    per copy; TAN's tables of x_j given x_{j-1} and the class (50 cells each) need rows."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)

    def noisy(p):  # the class's value (0 or card - 1) with probability p, else uniform
        return np.where(rng.random(rows) < p, y * (card - 1), rng.integers(0, card, rows))

    xs = [noisy(0.5)]
    for _ in range(1, chain):
        xs.append(np.where(rng.random(rows) < 0.8, xs[-1], rng.integers(0, card, rows)))
    cols = {f"x{j}": x for j, x in enumerate(xs)} | {f"z{k}": noisy(0.3) for k in range(extra)}
    frame = pd.DataFrame({k: [f"v{v}" for v in col] for k, col in cols.items()})
    frame["class"] = [f"c{v}" for v in y]
    frame.to_csv(path, index=False)


@pytest.fixture(scope="module")
def curve_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("curve")
    _tree_sample(tmp / "tree.csv")
    cfg = small_config(tmp, tmp, datasets=[str(tmp / "tree.csv")], classifiers=["nb", "tan"],
                       cv={"folds": 10, "train_sizes": SIZES}, metrics=["error", "accuracy"])
    return run(cfg, jobs=1, quiet=True).run_dir


def test_naive_bayes_wins_on_few_rows_and_tan_on_many(curve_run):
    table = pd.read_csv(curve_run / "summary" / "learning_curve.csv")
    error = table[table.metric == "error"].set_index(["classifier", "train_size"])["mean"]
    assert error["nb", 16] < error["tan", 16]
    assert error["nb", 1.0] > error["tan", 1.0]
    assert error["tan", 16] > error["tan", 1.0]  # a curve: more rows, less error


def test_the_table_is_the_spread_of_the_scores(curve_run):
    table = pd.read_csv(curve_run / "summary" / "learning_curve.csv")
    assert list(table.columns) == CURVE_COLUMNS
    assert sorted(set(table.train_size)) == sorted(SIZES)
    scores = pd.read_csv(curve_run / "summary" / "scores.csv")
    for row in table.itertuples():
        v = scores[(scores.classifier == row.classifier) & (scores.metric == row.metric)
                   & (scores.train_size == row.train_size)]["value"].to_numpy()
        assert (row.folds, row.failed) == (10, 0)
        assert row.mean == pytest.approx(np.mean(v), abs=1e-12)
        assert row.std == pytest.approx(np.std(v, ddof=1), abs=1e-12)
        assert row.se == pytest.approx(stats.sem(v), abs=1e-12)
    n_train = table[table.train_size == 1.0]["n_train"]
    assert (n_train == 3600).all()  # 9 of 10 folds of 4000 rows


def test_the_other_tables_hold_the_largest_size_and_the_figure_is_shown(curve_run):
    errors = pd.read_csv(curve_run / "summary" / "error.csv").set_index("classifier")
    table = pd.read_csv(curve_run / "summary" / "learning_curve.csv")
    full = table[(table.metric == "error") & (table.train_size == 1.0)].set_index("classifier")
    for clf in ("nb", "tan"):
        assert errors.loc[clf, "mean"] == pytest.approx(full.loc[clf, "mean"], abs=1e-12)
        assert errors.loc[clf, "folds"] == 10
    svg = (curve_run / "figures" / "learning-curve-tree.svg").read_text()
    assert all(f'id="curve-{i}-{j}"' in svg for i in range(2) for j in range(2))
    assert (curve_run / "figures" / "learning-curve-tree.png").is_file()
    page = check_page(curve_run / "report.html")
    assert any("tree: learning curves" in t for t in page.text)
