"""The estimator choice of the count-based learners (``laplace | m | hdp``), against direct
counting: m-estimates ``(N(x) + 1/r) / (N + 1)`` at the deepest seen prefix of the class and
the parents, Laplace's additive smoothing as before, HDP seeded."""
from __future__ import annotations

import math

import numpy as np
import pytest

from bayesbench import make_classifier


def _data(seed, n):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.column_stack([np.where(rng.random(n) < 0.8, y, 1 - y), rng.integers(0, 3, n),
                         rng.integers(0, 4, n), np.where(rng.random(n) < 0.6, y, 0)])
    return X, y, [2, 3, 4, 2]


def _mest(nx, n, r):
    return (nx + 1.0 / r) / (n + 1.0)


def _direct(model, X_train, y_train, X_test, cards):
    out = []
    for x in X_test:
        scores = []
        for c in (0, 1):
            logp = math.log(_mest((y_train == c).sum(), len(y_train), 2))
            for node in model.structure_.nodes:
                [a] = node.attributes
                rows = np.flatnonzero(y_train == c)
                for p in node.parents:
                    deeper = rows[X_train[rows, p] == x[p]]
                    if deeper.size == 0:
                        break
                    rows = deeper
                logp += math.log(_mest((X_train[rows, a] == x[a]).sum(), rows.size, cards[a]))
            scores.append(logp)
        p = np.exp(np.array(scores) - max(scores))
        out.append(p / p.sum())
    return np.array(out)


@pytest.mark.parametrize("name,params", [("nb", {}), ("tan", {}), ("kdb", {"k": 2}),
                                         ("kdb", {"k": 3})])
def test_m_estimates_back_off_to_the_deepest_seen_prefix(name, params):
    X, y, cards = _data(0, 70)
    X_test, _, _ = _data(1, 30)
    model = make_classifier(name, estimator="m", **params).fit(X, y, cardinalities=cards)
    assert np.allclose(model.predict_proba(X_test), _direct(model, X, y, X_test, cards),
                       atol=1e-12)


def test_laplace_is_the_default_and_equals_alpha_one():
    X, y, cards = _data(2, 50)
    a = make_classifier("kdb", k=2).fit(X, y, cardinalities=cards)
    b = make_classifier("kdb", k=2, estimator="laplace").fit(X, y, cardinalities=cards)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))


def test_hdp_is_seeded_and_differs_from_the_m_estimates():
    X, y, cards = _data(3, 120)
    fit = lambda seed: make_classifier("kdb", k=2, estimator="hdp", iterations=60,  # noqa: E731
                                       random_state=seed).fit(X, y, cardinalities=cards)
    p1, p2, p3 = fit(1).predict_proba(X), fit(1).predict_proba(X), fit(2).predict_proba(X)
    assert np.array_equal(p1, p2) and not np.array_equal(p1, p3)
    m = make_classifier("kdb", k=2, estimator="m").fit(X, y, cardinalities=cards)
    assert np.abs(m.predict_proba(X) - p1).max() > 1e-3


# ------------------------------------------------ one table of estimators
def test_the_estimators_page_lists_the_table():
    from helpers import documents_choices
    from bayesbench.models.parameters.estimators import ESTIMATORS

    assert list(ESTIMATORS) == ["laplace", "m", "hdp", "cll"]
    assert [name for name, e in ESTIMATORS.items() if e.stochastic] == ["hdp"]
    assert [name for name, e in ESTIMATORS.items() if e.needs_rows] == ["cll"]
    assert documents_choices("classifiers.md", ESTIMATORS)


def test_a_learner_fitted_from_counts_alone_refuses_an_estimator_that_needs_rows():
    from bayesbench.errors import ClassifierError
    from bayesbench.models.parameters.estimators import COUNT_ESTIMATORS

    assert list(COUNT_ESTIMATORS) == ["laplace", "m", "hdp"]
    for name in ("skdb", "eskdb"):
        with pytest.raises(ClassifierError, match="parameter 'estimator' must be one of "
                                                  "'hdp', 'laplace', 'm', got 'cll'"):
            make_classifier(name, estimator="cll")


def test_a_new_estimator_is_one_entry_seen_by_the_config_the_run_and_the_docs(
        uci_dir, tmp_path, monkeypatch):
    from helpers import documents_choices, run, small_config
    from bayesbench.errors import ConfigError
    from bayesbench.models.core.counting import log_table
    from bayesbench.models.parameters import estimators
    from bayesbench.models.parameters.smoothing import Laplace

    class Half(Laplace):
        """Additive smoothing with one half per cell, whatever the learner's alpha."""

        name = "half"
        summary = "additive smoothing with one half per cell"

        def node_tables(self, counts, parent_cards, alpha):
            return super().node_tables(counts, parent_cards, 0.5)

        def node_class_log_prior(self, class_counts, alpha):
            return log_table(np.asarray(class_counts, float)[None, None, :], 0.5)[0, 0]

    over = {"datasets": ["lenses", "iris"], "cv": {"folds": 3},
            "classifiers": [{"name": "tan", "params": {"estimator": "half"}, "label": "half"},
                            {"name": "tan", "params": {"alpha": 0.5}, "label": "alpha"}]}
    with pytest.raises(ConfigError, match=r"classifiers\[0\]\.params\.estimator: .*'hdp'"):
        small_config(uci_dir, tmp_path, **over)
    monkeypatch.setitem(estimators._TABLE, "half", Half)
    result = run(small_config(uci_dir, tmp_path, **over), jobs=1, quiet=True)
    by_arm = {}
    for r in result.records:
        scores = {k: v for k, v in r["metrics"].items() if not k.endswith("seconds")}
        by_arm.setdefault(r["classifier"], []).append((r["dataset"], r["fold"], scores))
    half, alpha = sorted(by_arm["half"]), sorted(by_arm["alpha"])
    assert len(half) == 6 and half == alpha  # the same tables as alpha 0.5
    assert not documents_choices("classifiers.md", estimators.ESTIMATORS)
