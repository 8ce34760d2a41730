"""AODE against a straightforward per-row reference."""
import math
from collections import Counter

import numpy as np
import pytest

from bayesbench.models.learners import aode
from bayesbench.models.learners.aode import AODE
from bayesbench.models.core.counting import log_table
from bayesbench.measures.information import value_offsets
from bayesbench.models.learners.naive_bayes import NaiveBayes


def aode_by_rows(X, y, Xt, k, cards, alpha, m_min):
    """Webb et al.'s AODE, one example and one super-parent at a time."""
    n, m = X.shape
    out = []
    for row in Xt:
        spodes = []
        for i in range(m):
            if row[i] < 0 or np.sum(X[:, i] == row[i]) < m_min:
                continue
            has_i = X[:, i] >= 0
            joint = []
            for c in range(k):
                n_ci = np.sum(has_i & (y == c) & (X[:, i] == row[i]))
                p = (n_ci + alpha) / (has_i.sum() + alpha * k * cards[i])
                for j in range(m):
                    if j == i or row[j] < 0:
                        continue
                    both = has_i & (X[:, j] >= 0) & (y == c) & (X[:, i] == row[i])
                    p *= (np.sum(both & (X[:, j] == row[j])) + alpha) / (both.sum() + alpha * cards[j])
                joint.append(p)
            spodes.append(joint)
        if spodes:
            out.append(np.mean(spodes, axis=0))
        else:
            out.append(None)
    return out


@pytest.mark.parametrize("m_min", [1, 25])
def test_aode_matches_a_row_by_row_computation(m_min):
    rng = np.random.default_rng(1)
    cards = [2, 3, 4, 2]
    X = np.column_stack([rng.integers(0, c, 150) for c in cards])
    X[rng.random(X.shape) < 0.08] = -1
    y = rng.integers(0, 3, 150)
    Xt = np.column_stack([rng.integers(0, c, 40) for c in cards])
    Xt[rng.random(Xt.shape) < 0.1] = -1
    model = AODE(alpha=1.0, min_frequency=m_min).fit(X, y, cardinalities=cards)
    proba = model.predict_proba(Xt)
    ref = aode_by_rows(X, y, Xt, 3, cards, 1.0, m_min)
    checked = 0
    for got, want in zip(proba, ref):
        if want is None:
            continue
        np.testing.assert_allclose(got, np.array(want) / np.sum(want), rtol=1e-10)
        checked += 1
    assert checked > 20


def _log_ratio(num, den, r):
    """log(num / den) of a smoothed estimate: uniform 1/r when den is 0, -inf when num is 0."""
    if den == 0:
        return -math.log(r)
    return -math.inf if num == 0 else math.log(num) - math.log(den)


def _loop_counts(X, y, m):
    """Available-case counts of (attribute, value, class) and of value pairs, by loops."""
    n = {"c": Counter(y.tolist()), "i": Counter(), "ci": Counter(), "c_any": Counter(),
         "cij": Counter(), "cij_any": Counter()}
    for row, c in zip(X.tolist(), y.tolist()):
        for i in range(m):
            if row[i] < 0:
                continue
            n["i"][i] += 1
            n["ci"][i, row[i], c] += 1
            n["c_any"][i, c] += 1
            for j in range(m):
                if j != i and row[j] >= 0:
                    n["cij"][i, row[i], j, row[j], c] += 1
                    n["cij_any"][i, row[i], j, c] += 1
    return n


def _spode_scores(n, row, present, i, k, cards, alpha):
    """log p(c, x_i) + sum_j log p(x_j | c, x_i) of the SPODE of super-parent i, per class."""
    scores = []
    for c in range(k):
        s = _log_ratio(n["ci"][i, row[i], c] + alpha, n["i"][i] + alpha * k * cards[i],
                       k * cards[i])
        for j in range(len(cards)):
            if j != i and present[j]:
                s += _log_ratio(n["cij"][i, row[i], j, row[j], c] + alpha,
                                n["cij_any"][i, row[i], j, c] + alpha * cards[j], cards[j])
        scores.append(s)
    return scores


def _naive_bayes_scores(n, row, k, cards, alpha, n_rows):
    scores = []
    for c in range(k):
        s = _log_ratio(n["c"][c] + alpha, n_rows + alpha * k, k)
        for j in range(len(cards)):
            if row[j] >= 0:
                seen = n["ci"][j, row[j], c] if row[j] < cards[j] else 0
                s += _log_ratio(seen + alpha, n["c_any"][j, c] + alpha * cards[j], cards[j])
        scores.append(s)
    return scores


def aode_reference(X, y, Xt, k, cards, alpha, m_min):
    """AODE's posterior, one test row and one super-parent at a time, from loop counts.

    Counts are available-case: ``p(x_j | c, x_i)`` from the rows holding both. A missing
    value, or a code beyond the cardinality, leaves its attribute out as a super-parent
    and as a child; a row without a super-parent seen ``m_min`` times is classified by
    naive Bayes, in which an unknown code is a value never seen.

    Returns the posteriors and how many rows naive Bayes classified.
    """
    m = len(cards)
    n = _loop_counts(X, y, m)
    out, fallbacks = [], 0
    for row in Xt.tolist():
        present = [0 <= row[j] < cards[j] for j in range(m)]
        spodes = [_spode_scores(n, row, present, i, k, cards, alpha) for i in range(m)
                  if present[i] and sum(n["ci"][i, row[i], c] for c in range(k)) >= m_min]
        if spodes:
            joint = [math.log(sum(math.exp(s[c]) for s in spodes) / len(spodes))
                     if any(s[c] > -math.inf for s in spodes) else -math.inf for c in range(k)]
        else:
            fallbacks += 1
            joint = _naive_bayes_scores(n, row, k, cards, alpha, len(y))
        top = max(joint)
        if top == -math.inf:
            out.append(np.full(k, 1 / k))
            continue
        weights = np.array([math.exp(v - top) for v in joint])
        out.append(weights / weights.sum())
    return np.array(out), fallbacks


@pytest.mark.parametrize("gram", [True, False])
@pytest.mark.parametrize("alpha, m_min", [(1.0, 1), (0.5, 0), (0.0, 1), (1.0, None), (0.0, 40)])
def test_aode_equals_a_direct_reference(monkeypatch, alpha, m_min, gram):
    # Rows are scored in blocks: blocks of 7 rows must not change a number; the pair
    # counts come from Gram matrices or from a bincount per pair.
    monkeypatch.setattr(aode, "_ROWS", 7)
    monkeypatch.setattr("bayesbench.measures.information.GRAM_MAX_WIDTH", 8 if gram else 0)
    rng = np.random.default_rng(7)
    cards = [2, 3, 4, 1, 3]
    X = np.column_stack([rng.integers(0, c, 120) for c in cards])
    X[:, 1] = np.where(rng.random(120) < 0.7, X[:, 0], X[:, 1])   # a real dependency
    X[rng.random(X.shape) < 0.1] = -1
    y = np.where(rng.random(120) < 0.8, X[:, 0].clip(0), rng.integers(0, 3, 120))
    Xt = np.column_stack([rng.integers(-1, c + 2, 60) for c in cards])  # missing and unknown
    Xt[:3] = -1                                                       # no super-parent at all
    if m_min is None:
        # Exactly a value's frequency: that value is a super-parent, one seen less is not.
        m_min = int(np.sum(X[:, 2] == 1))
    model = AODE(alpha=alpha, min_frequency=m_min).fit(X, y, cardinalities=cards, n_classes=3)
    want, fallbacks = aode_reference(X, y, Xt, 3, cards, alpha, m_min)
    np.testing.assert_allclose(model.predict_proba(Xt), want, rtol=0, atol=1e-12)
    assert 3 <= fallbacks < 60
    if alpha == 0:
        assert (want == 0).any()                    # impossible classes are exercised


def test_aode_falls_back_to_naive_bayes():
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1]])
    y = np.array([0, 1, 0, 1])
    model = AODE(min_frequency=100).fit(X, y)
    nb = NaiveBayes().fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), nb.predict_proba(X))


def test_the_naive_bayes_fallback_is_naive_bayes_fitted_on_the_rows_to_the_bit():
    # The fallback comes from the pair counts' diagonal, not from a second count of the
    # rows: with missing values in training, missing and unseen codes in the test rows
    # (none of which has a super-parent seen 1000 times), it is naive Bayes exactly.
    rng = np.random.default_rng(11)
    cards = [3, 2, 4]
    X = np.column_stack([rng.integers(0, c, 200) for c in cards])
    X[rng.random(X.shape) < 0.15] = -1
    y = rng.integers(0, 3, 200)
    Xt = np.column_stack([rng.integers(-1, c + 1, 30) for c in cards])
    for alpha in (0.0, 0.5, 1.0):
        model = AODE(alpha=alpha, min_frequency=1000).fit(X, y, cardinalities=cards,
                                                          n_classes=3)
        nb = NaiveBayes(alpha=alpha).fit(X, y, cardinalities=cards, n_classes=3)
        np.testing.assert_array_equal(model.predict_proba(Xt), nb.predict_proba(Xt))


def test_child_tables_are_the_blocks_of_the_conditional_tables():
    X = np.array([[0, 1, 2], [1, 0, 1], [0, 0, 0], [1, 1, 2]])
    y = np.array([0, 1, 0, 1])
    model = AODE().fit(X, y)
    tables = model.child_tables_
    assert sorted(tables) == [(i, j) for i in range(3) for j in range(3) if i != j]
    # log p(x_2 = 2 | c = 0, x_0 = 0): class 0 has x_0 = 0 twice, x_2 = 2 once among them.
    assert tables[0, 2].shape == (2, 2, 3)
    assert tables[0, 2][0, 0, 2] == pytest.approx(math.log((1 + 1) / (2 + 3)))


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_joint_tables_are_each_attributes_log_table(alpha):
    # All attributes at once, to the bit the per-attribute smoothing of counting.log_table
    # gives, a never-seen attribute (zero counts) and alpha = 0 included.
    rng = np.random.default_rng(2)
    cards = np.array([2, 3, 1, 4, 5])
    starts = value_offsets(cards)
    counts = rng.integers(0, 4, size=(3, int(cards.sum()))).astype(float)
    counts[:, starts[3]:starts[4]] = 0
    got = aode._joint_log_tables(counts, cards, starts, alpha)
    want = [log_table(counts[:, a:b].reshape(1, 1, -1), alpha).reshape(3, -1)
            for a, b in zip(starts[:-1], starts[1:])]
    np.testing.assert_array_equal(got, np.concatenate(want, axis=1))
