"""HNB and WAODE against Weka 3.6's (stored class distributions, tests/reference/
weka_hnb_waode.json) and against a row-by-row implementation of Weka's formulas with missing
values (which Weka refuses)."""
import json

import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.data.dataset import bin_codes
from bayesbench.models.core.sufficient import Statistics
from bayesbench.models.learners.ande import ANDE
from bayesbench.models.learners.hnb import HNB
from bayesbench.models.learners.waode import WAODE
from bayesbench.models.registry import make_classifier
from helpers import random_codes

LEARNERS = {"hnb": HNB, "waode": WAODE}
# Weka prints 3 decimals: its rounding (0.0005) and a margin.
TOLERANCE = 0.0015


@pytest.fixture(scope="module")
def weka(reference_dir):
    return json.loads((reference_dir / "weka_hnb_waode.json").read_text())


def _prepared(name, cuts):
    """The codes Weka read: the data set's (numeric attributes binned at Weka's own MDL
    cut points, tests/reference/weka_mdl_cuts.json), rows with a missing value removed."""
    ds = load_dataset(name)
    if name in cuts:
        numbers = ds.numeric_matrix()
        X = np.column_stack([bin_codes(numbers[:, j], np.asarray(cuts[name][a.name]))
                             for j, a in enumerate(ds.attributes)])
        cards = [len(cuts[name][a.name]) + 1 for a in ds.attributes]
    else:
        X, cards = ds.codes().astype(np.int64), list(ds.cardinalities)
    complete = ~(X < 0).any(axis=1)
    return X[complete], ds.y[complete].astype(np.int64), cards, ds.n_classes


@pytest.fixture(scope="module")
def agreement(weka, reference_dir):
    """``{(learner, data set): share of test rows within TOLERANCE of Weka}``."""
    cuts = json.loads((reference_dir / "weka_mdl_cuts.json").read_text())["cuts"]
    out = {}
    for name in weka["hnb"]:
        X, y, cards, k = _prepared(name, cuts)
        half = int(np.floor(y.size / 2 + 0.5))  # Weka's Math.round(rows * 50 / 100)
        for learner, cls in LEARNERS.items():
            want = np.array([[int(v) for v in row.split(",")]
                             for row in weka[learner][name].split(" ")]) / 1000
            assert want.shape[0] == y.size - half, (learner, name)
            proba = cls().fit(X[:half], y[:half], cardinalities=cards,
                              n_classes=k).predict_proba(X[half:])
            # For two classes the reference holds the first class's probability only.
            error = np.abs(proba[:, :want.shape[1]] - want).max(axis=1)
            out[learner, name] = float(np.mean(error <= TOLERANCE))
    return out


def test_the_reference_covers_the_data_sets_asked_for(weka):
    for learner in LEARNERS:
        assert len(weka[learner]) >= 8
        assert {"car", "kr-vs-kp", "nursery", "splice", "soybean", "vote"} <= set(weka[learner])


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_class_distributions_equal_wekas(agreement, learner):
    shares = {name: share for (who, name), share in agreement.items() if who == learner}
    assert all(share >= 0.99 for share in shares.values()), shares
    # Measured: every row of every data set, both learners (the 3 decimals Weka prints).
    assert min(shares.values()) == 1.0, shares


def _m_estimate(count, total, cells):
    return (count + 1.0 / cells) / (total + 1.0)


def _bits(p, x, y):
    return p * np.log2(x / y) if x >= 1e-6 and y >= 1e-6 else 0.0


def hnb_weights(X, y, k, cards):
    """HNB.java's conditionalMutualInfo of every (child, parent) pair, cell by cell."""
    n, m = X.shape
    weights = np.zeros((m, m))
    for i in range(m):
        for j in range(m):
            if i == j:
                continue
            for c in range(k):
                for a in range(cards[j]):
                    for b in range(cards[i]):
                        joint = np.sum((y == c) & (X[:, j] == a) & (X[:, i] == b)) / n
                        weights[i, j] += _bits(
                            joint, joint * np.sum(y == c) / n,
                            np.sum((y == c) & (X[:, j] == a)) / n
                            * (np.sum((y == c) & (X[:, i] == b)) / n))
    return weights


def hnb_by_rows(X, y, Xt, k, cards):
    """Weka's HNB (HNB.java's estimates and weights), one test row at a time, counting the
    training rows for every probability; a missing value leaves its attribute out, of the
    product and of the hidden parents, and out of the counts that involve it."""
    n, m = X.shape
    has = X >= 0
    weights = hnb_weights(X, y, k, cards)
    out = []
    for row in Xt:
        scores = []
        for c in range(k):
            p = np.log(_m_estimate(np.sum(y == c), n, k))
            for i in range(m):
                if row[i] < 0:
                    continue
                parents = [j for j in range(m) if j != i and row[j] >= 0]
                total = sum(weights[i, j] for j in parents)
                if total > 0:
                    mix = 0.0
                    for j in parents:
                        rows = (y == c) & (X[:, j] == row[j]) & has[:, i]
                        mix += weights[i, j] * _m_estimate(
                            np.sum(rows & (X[:, i] == row[i])), rows.sum(), cards[i])
                    p += np.log(mix / total)
                else:
                    rows = (y == c) & has[:, i]
                    p += np.log(_m_estimate(np.sum(rows & (X[:, i] == row[i])), rows.sum(),
                                            cards[i]))
            scores.append(p)
        scores = np.exp(np.array(scores) - max(scores))
        out.append(scores / scores.sum())
    return np.array(out)


def waode_by_rows(X, y, Xt, k, cards):
    """Weka's WAODE (WAODE.java's estimates and weights), one test row at a time; a missing
    value leaves its attribute out of the super-parents and of every product."""
    n, m = X.shape
    has = X >= 0
    info = np.zeros(m)
    for i in range(m):
        for c in range(k):
            for a in range(cards[i]):
                joint = np.sum((y == c) & (X[:, i] == a)) / n
                info[i] += _bits(joint, joint, np.sum(y == c) / n * (np.sum(X[:, i] == a) / n))
    out = []
    for row in Xt:
        scores = np.zeros(k)
        for i in range(m):
            if row[i] < 0:
                continue
            for c in range(k):
                parent = (y == c) & (X[:, i] == row[i])
                p = _m_estimate(parent.sum(), has[:, i].sum(), k * cards[i])
                for j in range(m):
                    if j != i and row[j] >= 0:
                        rows = parent & has[:, j]
                        p *= _m_estimate(np.sum(rows & (X[:, j] == row[j])), rows.sum(),
                                         cards[j])
                scores[c] += info[i] * p
        out.append(scores / scores.sum())
    return np.array(out), info


@pytest.fixture(scope="module")
def missing_data():
    rng = np.random.default_rng(3)
    cards, k = [2, 3, 4, 2, 3], 3
    X = random_codes(rng, 160, cards)
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 2, 160)) % k
    X[rng.random(X.shape) < 0.1] = -1
    Xt = random_codes(rng, 30, cards, missing=0.15)
    return X, y, Xt, k, cards


def test_hnb_equals_wekas_formulas_row_by_row_with_missing_values(missing_data):
    X, y, Xt, k, cards = missing_data
    model = HNB().fit(X, y, cardinalities=cards)
    np.testing.assert_allclose(model.predict_proba(Xt), hnb_by_rows(X, y, Xt, k, cards),
                               rtol=0, atol=1e-10)


def test_waode_equals_wekas_formulas_row_by_row_with_missing_values(missing_data):
    X, y, Xt, k, cards = missing_data
    model = WAODE().fit(X, y, cardinalities=cards)
    want, info = waode_by_rows(X, y, Xt, k, cards)
    np.testing.assert_allclose(model.super_parent_weights_, info, rtol=1e-12)
    np.testing.assert_allclose(model.predict_proba(Xt), want, rtol=0, atol=1e-10)


def test_waode_without_a_positive_weight_is_naive_bayes_with_the_same_estimates():
    # One class in the training rows: every I(X_i; C) is 0 (Weka's distribution is NaN).
    rng = np.random.default_rng(4)
    cards = [3, 2, 4]
    X, Xt = random_codes(rng, 50, cards), random_codes(rng, 20, cards)
    y = np.zeros(50, dtype=np.int64)
    model = WAODE().fit(X, y, cardinalities=cards, n_classes=2)
    assert not model.super_parent_weights_.any()
    # A1DE with m-estimates whose frequency limit no value reaches falls back to that naive Bayes.
    nb = ANDE(n=1, estimator="m", min_frequency=10**6).fit(X, y, cardinalities=cards,
                                                           n_classes=2)
    np.testing.assert_allclose(model.predict_proba(Xt), nb.predict_proba(Xt), rtol=1e-12)


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_fitted_from_counts_equals_fitted_from_rows(learner, missing_data):
    X, y, Xt, k, cards = missing_data
    rows = make_classifier(learner).fit(X, y, cardinalities=cards, n_classes=k)
    counted = make_classifier(learner).fit_statistics(Statistics.from_codes(X, y, cards, k))
    np.testing.assert_array_equal(counted.predict_proba(Xt), rows.predict_proba(Xt))
