"""TAN, ddr-TAN and kDB: trees against networkx, CV accuracy against Weka, the XOR check."""
import json
import math

import numpy as np
import pytest

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.models.learners.tan import TAN, maximum_spanning_forest, orient
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.preprocess.impute import Imputer

nx = pytest.importorskip("networkx")
pytest.importorskip("sklearn")
from sklearn.model_selection import StratifiedKFold  # noqa: E402


def cmi_by_loop(X, y):
    """I(Xi; Xj | C) from a dictionary of counts, row by row."""
    n, m = X.shape
    out = np.zeros((m, m))
    for i in range(m):
        for j in range(i + 1, m):
            cab, ca, cb, c = {}, {}, {}, {}
            total = 0
            for a, b, k in zip(X[:, i], X[:, j], y):
                if a < 0 or b < 0:
                    continue
                total += 1
                cab[k, a, b] = cab.get((k, a, b), 0) + 1
                ca[k, a] = ca.get((k, a), 0) + 1
                cb[k, b] = cb.get((k, b), 0) + 1
                c[k] = c.get(k, 0) + 1
            out[i, j] = out[j, i] = sum(
                v / total * math.log(v * c[k] / (ca[k, a] * cb[k, b]))
                for (k, a, b), v in cab.items())
    return out


@pytest.mark.parametrize("name", ["car", "house-votes-84", "breast-cancer-wisconsin",
                                  "vehicle", "promoters"])
def test_tan_tree_is_a_maximum_spanning_tree(uci_dir, name):
    ds = load_dataset(uci_dir / f"{name}.arff")
    ds = Discretizer("mdl").fit_transform(ds)
    X, y = ds.codes(), ds.y
    model = TAN().fit(X, y, cardinalities=ds.cardinalities, n_classes=ds.n_classes)
    weights = cmi_by_loop(X, y)
    np.testing.assert_allclose(model.structure_.info["weights"], weights, atol=1e-12)
    g = nx.Graph()
    m = X.shape[1]
    g.add_weighted_edges_from((i, j, weights[i, j]) for i in range(m) for j in range(i + 1, m))
    ref = nx.maximum_spanning_tree(g, algorithm="kruskal")
    ours = {tuple(sorted(e)) for e in model.structure_.arcs()}
    theirs = {tuple(sorted(e)) for e in ref.edges()}
    assert len(ours) == m - 1
    ours_w = sum(weights[e] for e in ours)
    theirs_w = sum(weights[e] for e in theirs)
    assert ours_w == pytest.approx(theirs_w, rel=1e-12)
    # With distinct weights the maximum spanning tree is unique: same edges.
    tree_weights = np.round([weights[e] for e in ours | theirs], 12)
    if len(set(tree_weights)) == len(tree_weights):
        assert ours == theirs
    # Directed away from attribute 0: every other attribute has exactly one parent.
    parents = [n.parents for n in model.structure_.nodes]
    assert parents[0] == () and all(len(p) == 1 for p in parents[1:])


def test_spanning_forest_ties_and_orientation_are_deterministic():
    w = np.ones((4, 4))
    assert maximum_spanning_forest(w) == [(0, 1), (0, 2), (0, 3)]
    w = np.array([[0, 1, 0, 0], [1, 0, 2, 0], [0, 2, 0, 0.5], [0, 0, 0.5, 0]], dtype=float)
    edges = maximum_spanning_forest(w)
    assert edges == [(1, 2), (0, 1), (2, 3)]
    assert orient(edges, 4, root=2) == [1, 2, None, 2]
    assert maximum_spanning_forest(w, min_weight=0.9) == [(1, 2), (0, 1)]
    assert orient([(1, 2)], 4) == [None, None, 1, None]


def xor_data(rng, n=3000, noise_attributes=4):
    X = rng.integers(0, 2, (n, 2 + noise_attributes))
    y = X[:, 0] ^ X[:, 1]
    return X, y


@pytest.mark.parametrize("learner, params", [("tan", {}), ("ddr_tan", {}), ("kdb", {"k": 1}),
                                             ("kdb", {"k": 2}), ("aode", {})])
def test_xor_interaction_needs_a_dependence(learner, params):
    rng = np.random.default_rng(0)
    X, y = xor_data(rng)
    Xt, yt = xor_data(rng)
    nb = make_classifier("nb").fit(X, y)
    assert abs((nb.predict(Xt) == yt).mean() - 0.5) < 0.05
    model = make_classifier(learner, **params).fit(X, y)
    assert (model.predict(Xt) == yt).mean() > 0.99


def test_ddr_tan_multiclass_uses_the_class_spread():
    rng = np.random.default_rng(1)
    n = 2000
    y = rng.integers(0, 3, n)
    x0 = rng.integers(0, 3, n)
    # x1 copies x0 only in class 2: a dependence present in one class.
    x1 = np.where(y == 2, x0, rng.integers(0, 3, n))
    x2 = rng.integers(0, 3, n)
    # x3 copies x2 in every class: strong dependence, evenly distributed.
    x3 = x2.copy()
    X = np.column_stack([x0, x1, x2, x3])
    w = make_classifier("ddr_tan").fit(X, y).structure_.info["weights"]
    cmi = make_classifier("tan").fit(X, y).structure_.info["weights"]
    assert cmi[2, 3] > cmi[0, 1]          # CMI ranks the even dependence first
    assert w[0, 1] > w[2, 3]              # I_D ranks the class-specific one first
    assert w[2, 3] < w[0, 1] / 100


WEKA_SETS = ["house-votes-84", "car", "kr-vs-kp", "splice", "nursery"]


@pytest.fixture(scope="module")
def weka_accuracy(reference_dir):
    return json.loads((reference_dir / "weka_cv_accuracy.json").read_text())["accuracy"]


def cv_accuracy(ds, learner, alpha, impute):
    correct = 0
    folds = StratifiedKFold(10, shuffle=True, random_state=1).split(ds.y, ds.y)
    for train_idx, test_idx in folds:
        train, test = ds.take(train_idx), ds.take(test_idx)
        if impute:
            # Weka's BayesNet replaces missing values by the training mode.
            imputer = Imputer("mean_mode").fit(train)
            train, test = imputer.transform(train), imputer.transform(test)
        model = make_classifier(learner, alpha=alpha).fit(
            train.codes(), train.y, cardinalities=ds.cardinalities, n_classes=ds.n_classes)
        correct += int((model.predict(test.codes()) == test.y).sum())
    return correct / ds.n_rows


@pytest.mark.filterwarnings("ignore:The least populated class")
@pytest.mark.parametrize("name", WEKA_SETS)
def test_cv_accuracy_is_within_a_point_of_weka(uci_dir, weka_accuracy, name):
    ds = load_dataset(uci_dir / f"{name}.arff")
    # Weka's NaiveBayes: Laplace counts, missing values skipped (our nb does the same).
    nb = cv_accuracy(ds, "nb", 1.0, impute=False)
    # Weka's TAN: ENTROPY score (Chow-Liu on CMI), SimpleEstimator alpha 0.5, mode imputation.
    tan = cv_accuracy(ds, "tan", 0.5, impute=True)
    assert abs(nb - weka_accuracy[name]["nb"]) <= 0.01
    assert abs(tan - weka_accuracy[name]["tan"]) <= 0.01
