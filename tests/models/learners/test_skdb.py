"""SKDB and ESKDB: the leave-one-out selection against a direct implementation that refits
the counts without each row, the m-estimate tables against direct counting, and the
error and RMSE against the authors' Java code (``tests/reference/monash_skdb.json``)."""
from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from bayesbench.models.learners.kdb import kdb_parents
from bayesbench.measures.information import (conditional_mutual_information_matrix,
                                             mutual_information_with_class)
from bayesbench.models.core.sufficient import Statistics
from bayesbench.models.learners.skdb import ESKDB, SKDB

from monash_protocol import gap_and_bound, per_seed_metrics

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "monash_skdb.json"


def _data(seed=0, n=60, m=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.empty((n, m), dtype=np.int64)
    X[:, 0] = np.where(rng.random(n) < 0.8, y, 1 - y)
    X[:, 1] = np.where(rng.random(n) < 0.7, X[:, 0], rng.integers(0, 3, n))
    X[:, 2] = rng.integers(0, 3, n)
    X[:, 3] = (X[:, 1] + y) % 3
    X[:, 4] = np.where(rng.random(n) < 0.6, y, rng.integers(0, 2, n))
    return X, y, [2, 3, 3, 3, 2]


def _mest(nx, n, r):
    return (nx + 1.0 / r) / (n + 1.0)


def _direct_losses(X, y, cards, k_max):
    """The leave-one-out losses (RMSE of 1 - p(true class)) of every (s, k), refitting the
    counts without each row with Python counters."""
    n, m = X.shape
    mi = mutual_information_with_class(X, y, cards, 2)
    cmi = conditional_mutual_information_matrix(X, y, cards, 2)
    order, parents = kdb_parents(mi, cmi, k_max)
    sq = np.zeros((m + 1, k_max + 1))
    for i in range(n):
        rest = [j for j in range(n) if j != i]
        cls = Counter(int(y[j]) for j in rest)
        post = np.array([[_mest(cls[c], n - 1, 2) for c in (0, 1)]] * (k_max + 1))
        sq[0] += (1 - post[0, y[i]] / post[0].sum()) ** 2
        for u, a in enumerate(order):
            pa = parents[a]
            # the deepest depth whose prefix holds x_a, over both classes, in another row
            reach = 0
            for j in range(1, len(pa) + 1):
                if any(X[r, a] == X[i, a] and all(X[r, p] == X[i, p] for p in pa[:j])
                       for r in rest):
                    reach = j
                else:
                    break
            for k in range(k_max + 1):
                d = min(k, len(pa), reach)
                for c in (0, 1):
                    match = [r for r in rest if y[r] == c
                             and all(X[r, p] == X[i, p] for p in pa[:d])]
                    nx = sum(X[r, a] == X[i, a] for r in match)
                    post[k, c] *= _mest(nx, len(match), cards[a])
            p_true = post[:, y[i]] / post.sum(axis=1)
            sq[u + 1] += (1 - p_true) ** 2
    return np.sqrt(sq / n)


def test_leave_one_out_losses_equal_refitting_without_each_row():
    X, y, cards = _data()
    clf = SKDB(k_max=2).fit(X, y, cardinalities=cards)
    losses = clf.structure_.info["losses"]
    want = _direct_losses(X, y, cards, 2)
    assert np.allclose(losses, want, rtol=0, atol=1e-12)
    s, k = np.unravel_index(np.argmin(np.round(want, 12)), want.shape)
    assert (clf.structure_.info["selected"], clf.structure_.info["k"]) == (s, k if s else 0)
    assert clf.structure_.summary().startswith(f"s={s} of 5, k={k if s else 0}")


def _direct_m_proba(clf, X_train, y_train, X_test, cards):
    """p(c | x) of the chosen sub-model with m-estimates at the deepest prefix seen."""
    out = []
    nodes = [(a, p) for a, p in clf.members_[0].nodes()]
    for x in X_test:
        scores = []
        for c in (0, 1):
            logp = math.log(_mest((y_train == c).sum(), len(y_train), 2))
            for a, pa in nodes:
                rows = np.flatnonzero(y_train == c)
                for p in pa:  # descend while the prefix was seen with class c
                    deeper = rows[X_train[rows, p] == x[p]]
                    if deeper.size == 0:
                        break
                    rows = deeper
                logp += math.log(_mest((X_train[rows, a] == x[a]).sum(), rows.size, cards[a]))
            scores.append(logp)
        p = np.exp(np.array(scores) - max(scores))
        out.append(p / p.sum())
    return np.array(out)


def test_m_estimate_tables_back_off_to_the_deepest_seen_prefix():
    X, y, cards = _data(seed=1, n=80)
    X_test, _, _ = _data(seed=2, n=40)
    clf = SKDB(k_max=3, loss="zero_one").fit(X, y, cardinalities=cards)
    assert np.allclose(clf.predict_proba(X_test), _direct_m_proba(clf, X, y, X_test, cards),
                       atol=1e-12)


def test_eskdb_is_seeded_and_its_members_differ():
    X, y, cards = _data(seed=3, n=120)
    a = ESKDB(n_estimators=3, iterations=20, random_state=7).fit(X, y, cardinalities=cards)
    b = ESKDB(n_estimators=3, iterations=20, random_state=7).fit(X, y, cardinalities=cards)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    orders = [m.order for m in a.members_]
    assert len({tuple(o) for o in orders}) == 3
    # the first member is SKDB's own order and selection
    single = SKDB(estimator="hdp", iterations=20, random_state=7).fit(X, y, cardinalities=cards)
    assert single.members_[0].order == orders[0]
    assert (single.members_[0].s, single.members_[0].k) == (a.members_[0].s, a.members_[0].k)


def _chained(n=3000, m=8, seed=1):
    """Three classes, each attribute a noisy function of the one before and the class (so
    that the selection keeps parents), 5 % of the values missing."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.empty((n, m), dtype=np.int64)
    X[:, 0] = np.where(rng.random(n) < 0.6, y, rng.integers(0, 4, n))
    for j in range(1, m):
        X[:, j] = np.where(rng.random(n) < 0.8, (X[:, j - 1] + y + j) % 4, rng.integers(0, 4, n))
    X[rng.random((n, m)) < 0.05] = -1
    return X, y, [4] * m


@pytest.mark.parametrize("make", [lambda: SKDB(k_max=3),
                                  lambda: SKDB(loss="zero_one"),
                                  lambda: SKDB(estimator="hdp", iterations=30, random_state=4),
                                  lambda: ESKDB(n_estimators=3, k_max=3, iterations=30,
                                                random_state=2)])
def test_a_fit_chunk_by_chunk_equals_the_fit_on_all_rows(make):
    """Passes 2 and 3 over uneven chunks (one empty) give the fit on all the rows at once:
    the same selection, tables and predictions to the bit, the leave-one-out losses (summed
    chunk by chunk) to rounding."""
    X, y, cards = _chained()
    bounds = [(0, 700), (700, 700), (700, 2000), (2000, 3000)]
    whole = make().fit(X, y, cardinalities=cards, n_classes=3)
    stats = Statistics.from_codes(X, y, cards, 3).without_rows()
    chunked = make().fit_chunks(stats, lambda: ((X[a:b], y[a:b]) for a, b in bounds))
    assert [(m.s, m.k, m.order) for m in chunked.members_] == \
        [(m.s, m.k, m.order) for m in whole.members_]
    assert whole.members_[0].k >= 1  # the data hold dependencies the selection keeps
    assert np.array_equal(chunked.predict_proba(X), whole.predict_proba(X))
    for a, b in zip(chunked.members_, whole.members_):
        np.testing.assert_allclose(a.losses, b.losses, rtol=1e-12, atol=0)


def _reference():
    with open(REFERENCE) as f:
        return json.load(f)


REF = _reference() if REFERENCE.exists() else {"runs": []}
#: Refitted in the suite: every m-estimate case, and HDP on the data sets below 20,000 rows;
#: HDP on letter and adult (7 and 25 s of CPU of fits, kept out of the suite for its time) is checked by
#: benchmarks/check_skdb_reference.py against the same records.
_CASES = sorted({(r["dataset"], r["config"]) for r in REF["runs"]
                 if r["config"] == "skdb_m" or r["n_rows"] < 20_000})
_LEARNERS = {"skdb_m": lambda seed: SKDB(k_max=5, estimator="m"),
             "skdb_hdp": lambda seed: SKDB(k_max=5, estimator="hdp", random_state=seed),
             "eskdb": lambda seed: ESKDB(n_estimators=5, k_max=5, random_state=seed)}


def test_reference_exists_and_covers_eight_data_sets():
    assert REFERENCE.exists(), f"missing {REFERENCE}"
    for config in ("skdb_m", "skdb_hdp"):
        assert len({r["dataset"] for r in REF["runs"] if r["config"] == config}) >= 8


def _rounds(config, n_rows):
    """How many of a seed's rounds the test refits: all five on the smaller data sets with
    m-estimates, the first only on those over 10,000 rows and with HDP (a 1000-sweep HDP
    fit takes seconds here), to keep the suite's time in bounds."""
    return 5 if config == "skdb_m" and n_rows <= 10_000 else 1


@pytest.mark.slow
@pytest.mark.parametrize("dataset,config", _CASES)
def test_error_and_rmse_agree_with_the_authors_code(dataset, config):
    """Per seed the mean over rounds of 2-fold CV on the same folds (:func:`_rounds`); ours
    within two standard errors (over seeds) of the Java code's mean."""
    runs = [r for r in REF["runs"] if r["dataset"] == dataset and r["config"] == config]
    assert len({r["seed"] for r in runs}) >= 3
    ours, theirs = per_seed_metrics(runs, dataset, _LEARNERS[config],
                                    _rounds(config, runs[0]["n_rows"]))
    gap, bound = gap_and_bound(ours, theirs)
    assert np.all(gap <= bound), (ours.mean(axis=0), theirs.mean(axis=0), bound)
