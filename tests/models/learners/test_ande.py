"""AnDE (A1DE, A2DE) against Weka's AnDE package, a row-by-row implementation of Webb et
al.'s (2012) formula, and AODE."""
import json

import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.measures.codes import TableTooLarge, table_limit
from bayesbench.models.core.sufficient import Statistics
from bayesbench.models.learners.ande import ANDE
from bayesbench.models.learners.aode import AODE
from bayesbench.models.registry import list_classifiers, make_classifier


def a2de_by_rows(X, y, Xt, k, cards, alpha, m_min):
    """Webb et al.'s A2DE (2012, eq. 14 with n = 2), one test row and one pair of
    super-parents at a time, counting the training rows for every probability:
    ``p(c, x_i, x_j) = (N(c, x_i, x_j) + alpha) / (N_ij + alpha K r_i r_j)`` and
    ``p(x_t | c, x_i, x_j) = (N(c, x_i, x_j, x_t) + alpha) / (N(c, x_i, x_j) + alpha r_t)``,
    counts over the rows holding every attribute involved; a missing value leaves its
    attribute out. Returns the unnormalised average per row (None: no eligible pair)."""
    m = X.shape[1]
    out = []
    for row in Xt:
        estimators = []
        for i in range(m):
            for j in range(i + 1, m):
                if row[i] < 0 or row[j] < 0:
                    continue
                if np.sum((X[:, i] == row[i]) & (X[:, j] == row[j])) < m_min:
                    continue
                both = (X[:, i] >= 0) & (X[:, j] >= 0)
                joint = []
                for c in range(k):
                    sel = both & (y == c) & (X[:, i] == row[i]) & (X[:, j] == row[j])
                    p = (sel.sum() + alpha) / (both.sum() + alpha * k * cards[i] * cards[j])
                    for t in range(m):
                        if t in (i, j) or row[t] < 0:
                            continue
                        has_t = sel & (X[:, t] >= 0)
                        p *= ((np.sum(has_t & (X[:, t] == row[t])) + alpha)
                              / (has_t.sum() + alpha * cards[t]))
                    joint.append(p)
                estimators.append(joint)
        out.append(np.mean(estimators, axis=0) if estimators else None)
    return out


def _random_data(seed, n, cards, k, missing):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, c, n) for c in cards])
    X[rng.random(X.shape) < missing] = -1
    # The class depends on the first two attributes, so that the tables are not uniform.
    y = (np.maximum(X[:, 0], 0) + np.maximum(X[:, 1], 0) + rng.integers(0, 2, n)) % k
    return X, y


@pytest.mark.parametrize("alpha, m_min", [(1.0, 1), (0.5, 1), (1.0, 6)])
def test_a2de_equals_the_formula_row_by_row(alpha, m_min):
    cards, k = [2, 3, 4, 2, 3], 3
    X, y = _random_data(1, 220, cards, k, 0.08)
    Xt, _ = _random_data(2, 40, cards, k, 0.1)
    proba = ANDE(n=2, alpha=alpha, min_frequency=m_min).fit(
        X, y, cardinalities=cards).predict_proba(Xt)
    checked = 0
    for got, want in zip(proba, a2de_by_rows(X, y, Xt, k, cards, alpha, m_min)):
        if want is not None:
            np.testing.assert_allclose(got, np.asarray(want) / np.sum(want), rtol=0, atol=1e-9)
            checked += 1
    assert checked >= 30


def test_a2de_without_an_eligible_pair_is_a1de():
    cards, k = [4, 5, 4, 3], 2
    X, y = _random_data(3, 120, cards, k, 0.0)
    Xt, _ = _random_data(4, 30, cards, k, 0.0)
    # Rows none of whose pairs of values was seen `limit` times are classified by A1DE of
    # the same limit (which, at 1000, falls back to naive Bayes in turn).
    for limit in (12, 1000):
        got = ANDE(n=2, min_frequency=limit).fit(X, y, cardinalities=cards).predict_proba(Xt)
        a1de = AODE(min_frequency=limit).fit(X, y, cardinalities=cards).predict_proba(Xt)
        none = np.array([max(np.sum((X[:, i] == r[i]) & (X[:, j] == r[j]))
                             for i in range(4) for j in range(i + 1, 4)) < limit for r in Xt])
        assert none.sum() >= 3
        np.testing.assert_array_equal(got[none], a1de[none])


@pytest.fixture(scope="module")
def weka_a2de(reference_dir):
    return json.loads((reference_dir / "weka_a2de.json").read_text())["datasets"]


@pytest.mark.parametrize("name", ["car", "house-votes-84", "kr-vs-kp"])
def test_a2de_equals_wekas_a2de(uci_dir, weka_a2de, name):
    """Weka's AnDE package (m-estimates, m = 1; subsumption resolution on kr-vs-kp) on five
    fixed folds: every probability of every test row to 1e-9."""
    ref = weka_a2de[name]
    ds = load_dataset(uci_dir / f"{name}.arff", None)
    X, y = ds.codes(), ds.y
    assert ref["options"].startswith("-F 1 -M 1.0")
    subsumption = 100 if "-S 100" in ref["options"] else None
    want = np.asarray(ref["proba"], dtype=np.float64).reshape(ds.n_rows, -1)
    fold = np.arange(ds.n_rows) % ref["folds"]
    got = np.empty((ds.n_rows, ds.n_classes))
    for f in range(ref["folds"]):
        test = fold == f
        model = ANDE(n=2, estimator="m", m=1.0, subsumption=subsumption).fit(
            X[~test], y[~test], cardinalities=ds.cardinalities, n_classes=ds.n_classes)
        got[test] = model.predict_proba(X[test])
    np.testing.assert_allclose(got[:, :want.shape[1]], want, rtol=0, atol=1e-9)


@pytest.mark.parametrize("name", ["car", "house-votes-84", "tic-tac-toe", "mushroom"])
@pytest.mark.parametrize("min_frequency", [1, 30])
def test_n_1_is_aode_to_the_bit(uci_dir, name, min_frequency):
    ds = load_dataset(uci_dir / f"{name}.arff", None)
    X, y = ds.codes(), ds.y
    test = np.arange(ds.n_rows) % 3 == 0
    kw = dict(cardinalities=ds.cardinalities, n_classes=ds.n_classes)
    ours = ANDE(n=1, min_frequency=min_frequency).fit(X[~test], y[~test], **kw)
    aode = AODE(min_frequency=min_frequency).fit(X[~test], y[~test], **kw)
    assert np.array_equal(ours.predict_proba(X[test]), aode.predict_proba(X[test]))


@pytest.mark.parametrize("params", [dict(n=2), dict(n=1), dict(n=2, subsumption=5),
                                    dict(n=2, estimator="m", m=2.0)])
def test_fit_from_counts_is_fit_from_rows_to_the_bit(uci_dir, params):
    """``fit_statistics(total - test part)`` (the runner's count subtraction) fits the model
    ``fit`` fits on the training rows; house-votes-84 has missing values."""
    ds = load_dataset(uci_dir / "house-votes-84.arff", None)
    X, y = ds.codes(), ds.y
    total = Statistics.from_codes(X, y, ds.cardinalities, ds.n_classes)
    for f in range(3):
        test = np.arange(ds.n_rows) % 3 == f
        train = total - Statistics.from_codes(X[test], y[test], ds.cardinalities,
                                              ds.n_classes)
        counted = ANDE(**params).fit_statistics(train)
        rows = ANDE(**params).fit(X[~test], y[~test], cardinalities=ds.cardinalities,
                                  n_classes=ds.n_classes)
        assert np.array_equal(counted.predict_proba(X[test]), rows.predict_proba(X[test]))


@pytest.mark.parametrize("runs", [None, 64])
def test_triple_counts_are_the_counts_of_every_triple(monkeypatch, runs):
    """Every ``N(c, x_i, x_j, x_t)``, ``i < j < t``, counted directly row by row over the
    rows holding all three values, at its place in the layout: children counted jointly
    (2000 rows of binary attributes make the groups pay), a missing child or pair member,
    a code beyond the cardinality; with ``runs``, every bincount kept to 64 codes and cells
    so that the pairs are cut into many runs."""
    from bayesbench.models.learners import ande

    if runs:
        monkeypatch.setattr(ande, "_INDEX", runs)
        monkeypatch.setattr(ande, "_TABLE", runs)
    cards = [2, 2, 3, 2, 2, 2, 4, 2, 2, 2]
    X, y = _random_data(7, 2000, cards, 3, 0.02)
    X[5, 3] = 7
    got = ande.triple_counts(X, y, cards, 3)
    layout = ande.Layout.of(cards)
    assert ande._child_groups(layout, tuple(cards), 3, 2000) != [
        (t, t + 1) for t in range(2, len(cards))]
    want = np.zeros_like(got)
    for (i, j), start in zip(layout.pairs, layout.offsets):
        for t in range(j + 1, len(cards)):
            for row, c in zip(X, y):
                a, b, d = row[i], row[j], row[t]
                if 0 <= a < cards[i] and 0 <= b < cards[j] and 0 <= d < cards[t]:
                    cell = start + a * cards[j] + b
                    want[layout.triple_offsets[t] + d * layout.prefix[t] + cell, c] += 1
    np.testing.assert_array_equal(got, want)


def test_subsumption_drops_the_generalisations():
    """Attribute 1 is 1 whenever attribute 0 is 0: x_1 = 1 generalises x_0 = 0, and
    x_0 = 1 generalises x_1 = 0. With subsumption resolution a row holding either pair is
    classified as if the generalisation were missing."""
    rng = np.random.default_rng(5)
    n = 400
    x0 = rng.integers(0, 2, n)
    x1 = np.where(x0 == 0, 1, rng.integers(0, 2, n))
    x2, x3 = rng.integers(0, 3, n), rng.integers(0, 2, n)
    X = np.column_stack([x0, x1, x2, x3])
    y = (x0 + x2 + rng.integers(0, 2, n)) % 2
    Xt = np.array([[0, 1, 2, 1], [1, 1, 0, 0], [1, 0, 1, 1]])
    for n_parents in (1, 2):
        model = ANDE(n=n_parents, subsumption=30).fit(X, y)
        plain = ANDE(n=n_parents).fit(X, y)
        dropped = Xt.copy()
        dropped[0, 1] = dropped[2, 0] = -1
        np.testing.assert_array_equal(model.predict_proba(Xt), plain.predict_proba(dropped))
        # A limit above the specialisation's frequency keeps everything.
        above = ANDE(n=n_parents, subsumption=int(np.sum(x0 == 0))).fit(X, y)
        np.testing.assert_array_equal(above.predict_proba(Xt), plain.predict_proba(Xt))


def test_a_triple_table_over_the_limit_is_refused_in_one_line():
    cards = [9] * 12
    X, y = _random_data(6, 50, cards, 2, 0.0)
    with table_limit(100_000):
        with pytest.raises(TableTooLarge) as err:
            ANDE(n=2).fit(X, y, cardinalities=cards)
        ANDE(n=1).fit(X, y, cardinalities=cards)
    assert "\n" not in str(err.value) and "max_table_cells" in str(err.value)


def test_registered_with_its_parameters():
    assert "ande" in list_classifiers()
    model = make_classifier("ande", n=1, subsumption=100)
    assert model.get_params()["n"] == 1
    with pytest.raises(ValueError, match="'n'"):
        make_classifier("ande", n=3)
    with pytest.raises(ValueError, match="'estimator'"):
        make_classifier("ande", estimator="hdp")
