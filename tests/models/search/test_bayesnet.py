"""bayesnet: Weka 3.6's BayesNet. Parent sets and class probabilities against Weka's own
(tests/reference/weka_bayesnet.json), the local scores against their formulas, the
classification against the full joint summed by hand, count subtraction against rows, and
the refusals."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.measures.codes import TableTooLarge, table_limit
from bayesbench.models.core.sufficient import Statistics, StatisticsNotSufficient
from bayesbench.models.search import bayesnet as bayesnet_module
from bayesbench.models.search.bayesnet import BayesNet
from bayesbench.models.search.local_scores import BAYES_PRIOR, SCORES, Stacked, family_scores

ROOT = Path(__file__).resolve().parents[3]
REFERENCE = json.loads((ROOT / "tests" / "reference" / "weka_bayesnet.json").read_text())


def _split(name):
    """The reference's data set, split as Weka's ``-split-percentage 50 -preserve-order``."""
    entry = REFERENCE["datasets"][name]
    ds = load_dataset(ROOT / entry["file"])
    X, y = ds.codes(), ds.y
    train = int(math.floor(len(y) * 0.5 + 0.5))  # Java's Math.round
    return ds, X[:train], y[:train], X[train:][entry["rows"]]


def _parent_sets(structure):
    """Each node's parents as sets, the class as node m and last: Weka's printout's shape."""
    m = structure.n_attributes
    return [sorted([*n.parents, *([m] if n.class_parent else [])]) for n in structure.nodes] + [
        sorted(structure.class_parents)]


def _probabilities(block: str) -> np.ndarray:
    return np.array([[int(v) for v in row.split(",")] for row in block.split(";")]) / 1000


# ------------------------------------------------------------------ against Weka

@pytest.mark.parametrize("name", sorted(REFERENCE["datasets"]))
def test_parent_sets_and_probabilities_are_wekas(name):
    entry = REFERENCE["datasets"][name]
    ds, X, y, X_test = _split(name)
    blocks = [_probabilities(b) for b in entry["probabilities"]]
    for key, config in entry["configs"].items():
        search, score, max_parents, initial = key.split("/")
        model = BayesNet(search=search, score=score, max_parents=int(max_parents),
                         initial=initial).fit(X, y, cardinalities=ds.cardinalities,
                                              n_classes=ds.n_classes)
        assert _parent_sets(model.structure_) == config["parents"], key
        # Weka prints 3 decimals: within 0.0015 on at least 99 % of the rows
        close = np.abs(model.predict_proba(X_test) - blocks[config["probabilities"]]) <= 0.0015
        assert close.all(axis=1).mean() >= 0.99, key
    # BayesNet() is Weka's BayesNet with no option at all (which ran out of memory on
    # splice, building the ADTree that -D leaves out).
    if "default" not in entry:
        assert "OutOfMemoryError" in entry["default_error"]
        return
    default = BayesNet().fit(X, y, cardinalities=ds.cardinalities, n_classes=ds.n_classes)
    close = np.abs(default.predict_proba(X_test) - blocks[entry["default"]]) <= 0.0015
    assert close.all(axis=1).mean() >= 0.99


# ------------------------------------------------------------------ local scores

def _by_formula(counts, score, n):
    """The local scores written out from their definitions, one cell at a time."""
    q, r = counts.shape
    total = 0.0
    for row in counts:
        n_j = row.sum()
        if score == "bayes":
            a = BAYES_PRIOR
            total += math.lgamma(r * a) - math.lgamma(r * a + n_j) + sum(
                math.lgamma(a + c) - math.lgamma(a) for c in row)
        elif score == "bdeu":
            a = 1 / (r * q)
            total += math.lgamma(1 / q) - math.lgamma(1 / q + n_j) + sum(
                math.lgamma(a + c) - math.lgamma(a) for c in row)
        else:
            total += sum(c * math.log(c / n_j) for c in row if c)
    penalty = {"mdl": q * (r - 1) * math.log(n) / 2, "aic": q * (r - 1)}.get(score, 0.0)
    return total - penalty


@pytest.mark.parametrize("score", ["bayes", "bdeu", "mdl", "aic", "entropy"])
def test_local_scores_are_their_formulas(score):
    rng = np.random.default_rng(3)
    tables = [rng.integers(0, 30, (q, r)).astype(float) * (rng.random((q, r)) < 0.8)
              for q, r in [(1, 2), (3, 4), (12, 3), (6, 5)]]
    n = int(sum(t.sum() for t in tables))
    expected = [_by_formula(t, score, n) for t in tables]
    np.testing.assert_allclose(family_scores(tables, score, n), expected, rtol=1e-12)


@pytest.mark.parametrize("score", SCORES)
def test_families_scored_together_are_each_scored_alone_to_the_bit(score):
    """Scored together, families are padded to the largest among them with terms of 0,
    and a Stacked batch holds padded configurations among its own: no bit changes."""
    rng = np.random.default_rng(4)
    tables = [rng.integers(0, 40, (q, r)).astype(float) * (rng.random((q, r)) < 0.7)
              for q, r in [(1, 2), (3, 4), (12, 3), (6, 5), (25, 5), (2, 2)]]
    n = int(sum(t.sum() for t in tables))
    alone = np.array([family_scores([t], score, n)[0] for t in tables])
    assert family_scores(tables, score, n).tobytes() == alone.tobytes()
    # Three families of one node (3 values) given the class (2 values) and a tail of 1, 4
    # or 2 values, stacked with the tail's values padded to 4 (junk where padded).
    sizes = [1, 4, 2]
    own = [rng.integers(0, 30, (2 * s, 3)).astype(float) for s in sizes]
    counts = rng.integers(0, 99, (3, 2, 4, 3)).astype(float)
    valid = np.zeros((3, 2, 4), dtype=bool)
    for i, s in enumerate(sizes):
        counts[i, :, :s] = own[i].reshape(2, s, 3)
        valid[i, :, :s] = True
    stacked = Stacked(counts.reshape(3, 8, 3), np.repeat(valid.reshape(3, 8, 1), 3, axis=2))
    alone = np.array([family_scores([t], score, n)[0] for t in own + tables[:1]])
    assert family_scores([stacked, tables[0]], score, n).tobytes() == alone.tobytes()


# ------------------------------------------------------------------ the network as a classifier

def _toy(n=400, seed=5):
    """The class a child of x0, a parent of x1 and x2; x3 a child of x1 and x2."""
    rng = np.random.default_rng(seed)
    x0 = rng.integers(0, 3, n)
    y = np.where(rng.random(n) < 0.8, x0 % 2, rng.integers(0, 2, n))
    x1 = np.where(rng.random(n) < 0.85, y, 1 - y)
    x2 = np.where(rng.random(n) < 0.7, 2 * y, rng.integers(0, 3, n))
    x3 = (x1 + x2 + (rng.random(n) < 0.1)) % 3
    return np.column_stack([x0, x1, x2, x3]), y


def _joint_by_hand(model, X):
    """``log p(c, x)``: every node's table entry summed, the class's given its parents."""
    s, m = model.structure_, model.n_features_in_
    cards = list(s.cardinalities)
    out = np.zeros((len(X), len(model.classes_)))
    for i, row in enumerate(X):
        for c in range(len(model.classes_)):
            config = 0
            for p in s.class_parents:
                config = config * cards[p] + row[p]
            prior = model.class_log_prior_
            total = prior[c] if prior.ndim == 1 else prior[config, c]
            for v, node in enumerate(s.nodes):
                config = 0
                for p in node.parents:
                    config = config * cards[p] + row[p]
                table = model.tables_[v]
                total += table[c if node.class_parent else 0, config, row[node.attributes[0]]]
            out[i, c] = total
    assert m == len(s.nodes)
    return out


@pytest.mark.parametrize("search", ["hill_climbing", "tabu"])
def test_posterior_and_likelihood_are_the_full_joints(search):
    X, y = _toy()
    model = BayesNet(search=search, max_parents=2, initial="empty").fit(X[:300], y[:300])
    s = model.structure_
    # A general network: the class has a parent and some node is no child of the class.
    assert s.class_parents and not all(n.class_parent for n in s.nodes)
    joint = _joint_by_hand(model, X[300:])
    posterior = np.exp(joint - joint.max(axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_proba(X[300:]),
                               posterior / posterior.sum(axis=1, keepdims=True), atol=1e-12)
    scores = model.model_scores(X[300:], y[300:])
    assert scores.log_likelihood == pytest.approx(joint[np.arange(100), y[300:]].sum(), rel=1e-12)
    cards, k = s.cardinalities, 2
    free = (k - 1) * math.prod(cards[p] for p in s.class_parents) + sum(
        (cards[n.attributes[0]] - 1) * math.prod(cards[p] for p in n.parents)
        * (k if n.class_parent else 1) for n in s.nodes)
    assert scores.n_free_parameters == free


def test_a_missing_value_is_the_training_mode():
    X, y = _toy()
    X = X.copy()
    X[::7, 2] = -1
    model = BayesNet(search="hill_climbing", max_parents=2).fit(X, y)
    values, counts = np.unique(X[X[:, 2] >= 0, 2], return_counts=True)
    assert model.modes_[2] == values[np.argmax(counts)]
    filled = np.where(X < 0, model.modes_, X)
    # The structure and tables are those of the filled rows, and so are the predictions.
    again = BayesNet(search="hill_climbing", max_parents=2).fit(filled, y)
    assert again.structure_.summary() == model.structure_.summary()
    np.testing.assert_array_equal(model.predict_proba(X), again.predict_proba(filled))


def test_random_state_shuffles_k2s_order_only():
    X, y = _toy()
    plain = BayesNet(max_parents=3, initial="empty").fit(X, y)
    shuffled = [BayesNet(max_parents=3, initial="empty", random_state=s).fit(X, y)
                for s in range(6)]
    assert len({m.structure_.summary() for m in shuffled} | {plain.structure_.summary()}) > 1
    again = BayesNet(max_parents=3, initial="empty", random_state=4).fit(X, y)
    assert again.structure_.summary() == shuffled[4].structure_.summary()
    assert not BayesNet.is_stochastic({"random_state": None})  # the runner never seeds it


# ------------------------------------------------------------------ count subtraction

@pytest.mark.parametrize("name, params", [
    ("car", {"search": "k2", "max_parents": 2}),
    ("car", {"search": "tan"}),
    ("car", {"search": "hill_climbing", "max_parents": 1}),
    ("car", {"search": "tabu", "max_parents": 3, "score": "mdl"}),
    # missing values: the pair counts of the filled rows come from those of the rows
    ("vote", {"search": "hill_climbing", "max_parents": 1, "initial": "empty"}),
    ("vote", {"search": "hill_climbing", "max_parents": 3})])
def test_fit_statistics_of_total_less_test_part_is_fit(name, params):
    ds = load_dataset(name)
    X, y, cards, k = ds.codes(), ds.y, ds.cardinalities, ds.n_classes
    test = np.arange(len(y)) % 3 == 0
    total = Statistics.from_codes(X, y, cards, k)
    part = total - Statistics.from_codes(X[test], y[test], cards, k)
    counted = BayesNet(**params).fit_statistics(part)
    direct = BayesNet(**params).fit(X[~test], y[~test], cardinalities=cards, n_classes=k)
    assert counted.structure_.summary() == direct.structure_.summary()
    np.testing.assert_array_equal(counted.modes_, direct.modes_)
    np.testing.assert_allclose(counted.predict_proba(X[test]), direct.predict_proba(X[test]),
                               rtol=0, atol=1e-12)
    # Without the rows, only the searches whose families are pairs fit from counts.
    chunked = part.without_rows()
    if BayesNet(**params)._pair_sufficient():
        assert BayesNet(**params).fit_statistics(chunked).structure_.summary() == \
            direct.structure_.summary()
    else:
        with pytest.raises(StatisticsNotSufficient, match="fit it with fit"):
            BayesNet(**params).fit_statistics(chunked)


# ------------------------------------------------------------------ parameters

@pytest.mark.parametrize("params, key", [({"search": "genetic"}, "search"),
                                         ({"score": "bic"}, "score"),
                                         ({"max_parents": -1}, "max_parents"),
                                         ({"initial": "random"}, "initial")])
def test_a_bad_parameter_is_one_line_naming_its_key(params, key):
    with pytest.raises(ClassifierError) as err:
        make_classifier("bayesnet", **params)
    assert err.value.parameter == key and "\n" not in str(err.value)
    assert str(err.value).startswith(f"BayesNet: parameter '{key}' must be")


def test_max_parents_over_the_table_limit_is_refused_before_counting(monkeypatch):
    X = np.column_stack([np.arange(400) % 20, np.arange(400) % 19, np.arange(400) % 17])
    y = np.arange(400) % 2

    def no_counting(*args, **kwargs):
        raise AssertionError("counted before refusing")

    monkeypatch.setattr(bayesnet_module, "FamilyCounts", no_counting)
    with table_limit(20 * 19 * 17 - 1), pytest.raises(TableTooLarge) as err:
        BayesNet(search="hill_climbing", max_parents=2).fit(
            X, y, feature_names=["a", "b", "c"])
    assert err.value.parameter == "max_parents"
    assert str(err.value) == (
        "the tables of max_parents=2 (attribute 'a' with 2 parents) would have 6,460 cells "
        "(20 x 19 x 17), over the limit of 6,459 (max_table_cells)")
    # K2 from naive Bayes with one parent is naive Bayes: its tables are small.
    with table_limit(20 * 19 * 17 - 1), pytest.raises(AssertionError, match="counted"):
        BayesNet().fit(X, y)


def test_the_score_parameter_keeps_the_score_method():
    sklearn = pytest.importorskip("sklearn")  # noqa: F841 (scikit-learn's own tools)
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV, cross_val_score

    X, y = _toy()
    model = BayesNet(score="mdl", search="hill_climbing", max_parents=2)
    assert model.score == "mdl" and model.get_params()["score"] == "mdl"
    assert clone(model).get_params() == model.get_params()
    model.fit(X, y)
    assert model.score(X, y) == np.mean(model.predict(X) == y)
    assert len(cross_val_score(BayesNet(), X, y, cv=3)) == 3
    grid = GridSearchCV(BayesNet(search="hill_climbing"), {"score": ["bayes", "mdl"]}, cv=3)
    assert grid.fit(X, y).best_params_["score"] in ("bayes", "mdl")
    assert model.set_params(score="bdeu").score == "bdeu"


def test_docstring_examples():
    import doctest

    from bayesbench.models.search import local_scores
    for module in (bayesnet_module, local_scores):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted and not result.failed, module.__name__
