"""STAN and FFSS: decisions follow the G-tests, checked against scipy and against TAN."""
import numpy as np
import pytest
from scipy.stats import chi2_contingency

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.models.search.selective import FFSS, STAN
from bayesbench.models.learners.tan import TAN
from bayesbench.models.search.wrapper import ASB, BSEJ, FSS


@pytest.fixture(scope="module")
def car(uci_dir):
    ds = load_dataset(uci_dir / "car.arff")
    return ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes


def test_stan_arc_for_dependent_pair_only(dependent_pair_data):
    X, y = dependent_pair_data()
    s = STAN().fit(X, y, cardinalities=[2] * 5, n_classes=2).structure_
    assert (0, 4) in s.arcs() or (4, 0) in s.arcs()
    assert not any({p, c} == {2, 3} for p, c in s.arcs())
    # Every arc of STAN is a rejected test, with weight I(Xi; Xj | C) = G / 2N.
    rejected = {tuple(r["attributes"]): r for r in s.info["tests"] if r["rejects"]}
    for arc in s.info["arcs"]:
        r = rejected[tuple(sorted((arc["parent"], arc["child"])))]
        assert arc["weight"] == pytest.approx(r["statistic"] / (2 * r["n"]))


def test_stan_with_every_test_passing_is_tan(car):
    # On car every pair test is reliable (1728 rows, at most 64 x 4 cells); with
    # significance 1 every edge is kept, so the forest is TAN's Chow-Liu tree.
    X, y, cards, k = car
    stan = STAN(significance=1.0).fit(X, y, cardinalities=cards, n_classes=k)
    tan = TAN().fit(X, y, cardinalities=cards, n_classes=k)
    assert all(r["reliable"] for r in stan.structure_.info["tests"])
    assert stan.structure_.nodes == tan.structure_.nodes
    np.testing.assert_allclose(stan.predict_log_proba(X), tan.predict_log_proba(X))


def test_stan_keeps_fewer_arcs_at_a_stricter_level(car):
    X, y, cards, k = car
    arcs = [len(STAN(significance=s).fit(X, y, cardinalities=cards, n_classes=k).structure_.arcs())
            for s in (1.0, 0.05, 1e-30)]
    assert arcs[0] == len(cards) - 1 and arcs[0] >= arcs[1] >= arcs[2]
    assert arcs[2] < arcs[0]


def test_ffss_keeps_exactly_the_attributes_scipy_rejects(car):
    X, y, cards, k = car
    s = FFSS().fit(X, y, cardinalities=cards, n_classes=k).structure_
    expected = []
    for j, r in enumerate(cards):
        table = np.zeros((r, k))
        np.add.at(table, (X[:, j], y), 1)
        p = chi2_contingency(table, correction=False, lambda_="log-likelihood").pvalue
        if len(y) / (r * k) >= 5 and p < 0.05:
            expected.append(j)
    assert s.info["kept"] == expected
    assert [n.attributes[0] for n in s.nodes] == expected
    assert s.dropped == tuple(j for j in range(len(cards)) if j not in expected)
    assert s.dropped  # car's 'doors' is independent of the class


def test_registry_names_resolve_to_these_learners():
    assert type(make_classifier("stan")) is STAN
    assert type(make_classifier("ffss")) is FFSS
    assert type(make_classifier("fss", inner_folds=3)) is FSS
    assert type(make_classifier("bsej")) is BSEJ
    asb = make_classifier("asb", significance=0.01)
    assert type(asb) is ASB and asb.get_params() == {
        "alpha": 1.0, "inner_folds": 5, "epsilon": 0.0, "significance": 0.01,
        "random_state": None, "weights": None, "root": "first", "missing": "skip"}


def test_invalid_significance_is_a_clear_error(dependent_pair_data):
    X, y = dependent_pair_data(100)
    for bad in (0, 1.5, "x"):
        with pytest.raises(ClassifierError, match="significance"):
            STAN(significance=bad).fit(X, y)


def test_stan_selects_as_ffss_then_forests_the_kept_attributes(car):
    # Paper 002's STAN: FFSS's class-independence selection, then the forest of
    # significant conditional dependencies among the kept attributes only.
    X, y, cards, k = car
    stan = STAN().fit(X, y, cardinalities=cards, n_classes=k).structure_
    kept = FFSS().fit(X, y, cardinalities=cards, n_classes=k).structure_.info["kept"]
    assert stan.info["kept"] == kept and stan.dropped  # car's 'doors' goes
    assert sorted(n.attributes[0] for n in stan.nodes) == kept
    alone = STAN(select=False).fit(X[:, kept], y,
                                   cardinalities=[cards[a] for a in kept], n_classes=k).structure_
    assert sorted(stan.arcs()) == sorted((kept[p], kept[c]) for p, c in alone.arcs())
    every = STAN(select=False).fit(X, y, cardinalities=cards, n_classes=k).structure_
    assert not every.dropped and "kept" not in every.info


def test_stan_on_primary_tumor_is_ffss_as_in_paper_002(uci_dir):
    # Table 3: STAN and FFSS both 21.3 +- 2.0 on primary tumor. With 22 classes and
    # 132 complete rows no class test is reliable, so nothing is kept: the prior alone.
    from bayesbench.evaluation.schemes import KFold
    from bayesbench.evaluation.splits import make_splits
    from bayesbench.preprocess.impute import Imputer

    ds = load_dataset(uci_dir / "primary-tumor.arff")
    ds = Imputer("drop").fit(ds).transform(ds)
    X, y, cards, k = ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes
    assert X.shape == (132, 17) and k == 22
    stan = STAN().fit(X, y, cardinalities=cards, n_classes=k).structure_
    assert stan.nodes == () and not any(t["reliable"] for t in stan.info["class_tests"])
    scores = [np.mean(STAN().fit(X[s.train], y[s.train],
                                 cardinalities=cards, n_classes=k).predict(X[s.test])
                      == y[s.test])
              for rep in range(5)
              for s in make_splits(y, KFold.spec(folds=5, repeats=5), seed=1,
                                   dataset="primary-tumor", repetition=rep)]
    mean, se = 100 * np.mean(scores), 100 * np.std(scores, ddof=1) / 5
    assert abs(mean - 21.3) <= 2 * np.hypot(se, 2.0 / 5)
