"""Counting and smoothing, against straightforward loops written here; the limit on the
size of a table, checked before it is allocated."""
import tracemalloc

import numpy as np
import pandas as pd
import pytest

from bayesbench.measures.codes import MAX_TABLE_CELLS, TableTooLarge, check_table_size, table_limit
from bayesbench.models.core.counting import class_log_prior, counts, log_table, node_tables
from bayesbench.models.registry import make_classifier
from bayesbench.models.core.structure import Node, Structure
from helpers import random_codes


# ------------------------------------------------------------------- counting
def test_counts_match_a_loop_with_missing_values():
    rng = np.random.default_rng(2)
    cards = [3, 2, 4, 2]
    X = random_codes(rng, 300, cards, missing=0.1)
    y = rng.integers(0, 3, 300)
    s = Structure((Node((0,)), Node((1, 3), (0,)), Node((2,), (1, 0))), 4)
    got = counts(s, X, y, cards, 3)
    for node, table in zip(s.nodes, got):
        pa_shape = [cards[p] for p in node.parents]
        val_shape = [cards[a] for a in node.attributes]
        want = np.zeros([3] + pa_shape + val_shape)
        for row, c in zip(X, y):
            cells = [row[p] for p in node.parents] + [row[a] for a in node.attributes]
            if min(cells) >= 0:
                want[(c, *cells)] += 1
        np.testing.assert_array_equal(table, want.reshape(table.shape))


def test_log_table_is_additive_smoothing():
    n = np.array([[[3.0, 0.0, 1.0], [0.0, 0.0, 0.0]]])
    t = np.exp(log_table(n, 0.5))
    np.testing.assert_allclose(t[0, 0], [3.5 / 5.5, 0.5 / 5.5, 1.5 / 5.5])
    np.testing.assert_allclose(t[0, 1], [1 / 3] * 3)
    t0 = log_table(n, 0.0)
    assert t0[0, 0, 1] == -np.inf
    np.testing.assert_allclose(np.exp(t0[0, 1]), [1 / 3] * 3)  # unseen parent config
    np.testing.assert_allclose(np.exp(class_log_prior(np.array([0, 0, 1]), 3, 1.0)),
                               [3 / 6, 2 / 6, 1 / 6])


def test_node_tables_are_normalised():
    rng = np.random.default_rng(3)
    cards = [3, 2, 4]
    X = random_codes(rng, 100, cards)
    y = rng.integers(0, 2, 100)
    s = Structure((Node((0, 1)), Node((2,), (0, 1))), 3)
    for t in node_tables(s, X, y, cards, 2, alpha=0.5):
        np.testing.assert_allclose(np.exp(t).sum(axis=-1), 1.0)


# ------------------------------------------------------------------- the limit on table size


def _id_like(n=30_000, seed=0):
    """Two ID-like nominal attributes of ``n`` values each, one ordinary one, two classes."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"id1": rng.permutation(n), "id2": rng.permutation(n),
                      "colour": rng.integers(0, 3, n)})
    return X, rng.integers(0, 2, n), [n, n, 3]


@pytest.mark.parametrize("learner", ["tan", "kdb", "aode", "ddr_tan", "asb", "tan_hc",
                                     "kdb_hc", "tan_hcsp"])
def test_id_like_attributes_fail_the_fit_before_any_large_allocation(learner):
    # Each of these asked for a table of 30,000 x 30,000 x 2 float64 cells (13 GiB).
    X, y, cards = _id_like()
    tracemalloc.start()
    try:
        with pytest.raises(TableTooLarge) as info:
            make_classifier(learner).fit(X, y, cardinalities=cards, n_classes=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2 ** 20, f"{peak / 2 ** 20:.0f} MiB traced before the refusal"
    message = str(info.value)
    assert "\n" not in message
    assert "'id1', 'id2'" in message or "'id2', 'id1'" in message
    # The pair table, times the inner folds for the hill climbers' held-out scores.
    assert f"{30_000 * 30_000 * 2:,} cells" in message or f"{30_000 * 30_000 * 2 * 5:,}" in message
    assert f"over the limit of {MAX_TABLE_CELLS:,}" in message


def test_the_limit_is_exact_and_can_be_raised_or_lowered():
    X = np.array([[0, 1], [1, 0], [2, 1], [1, 1]])
    y = np.array([0, 1, 0, 1])
    structure = Structure((Node((0,)), Node((1,), (0,))), 2)
    # The largest table: 3 values of the parent x 2 values x 2 classes = 12 cells.
    with table_limit(12):
        counts(structure, X, y, [3, 2], 2)
    with table_limit(11), pytest.raises(TableTooLarge) as info:
        counts(structure, X, y, [3, 2], 2)
    assert info.value.shape == (3, 2, 2) and info.value.attributes == (0, 1)
    assert "attribute(s) at positions 0, 1 would have 12 cells (3 x 2 x 2)" in str(info.value)
    with table_limit(None):
        check_table_size((MAX_TABLE_CELLS,), (0,))
        with pytest.raises(TableTooLarge):
            check_table_size((MAX_TABLE_CELLS + 1,), (0,))


def test_a_run_records_the_refusal_as_one_failed_task_and_goes_on(tmp_path):
    from dataclasses import replace

    from bayesbench.config import parse_config
    from bayesbench.experiment import run_experiment

    X, y, _ = _id_like(n=3000)
    frame = ("v" + X.astype(str)).assign(cls=np.where(y == 1, "a", "b"))  # nominal, not numbers
    frame.to_csv(tmp_path / "ids.csv", index=False)
    cfg = parse_config({"name": "ids", "datasets": ["ids.csv"], "cv": {"folds": 2},
                        "classifiers": ["nb", "tan"], "max_table_cells": 1_000_000,
                        "output": str(tmp_path / "out")}, base_dir=tmp_path)
    [result] = run_experiment(cfg.experiment, replace(cfg.options, quiet=True, jobs=1))
    assert {(r["classifier"], r["status"]) for r in result.records} == {("nb", "ok"),
                                                                       ("tan", "error")}
    [error] = {r["error"] for r in result.errors}
    assert error.startswith("TableTooLarge: the table of attribute(s) 'id1', 'id2' would have "
                            f"{3000 * 3000 * 2:,} cells")
    assert error.endswith("over the limit of 1,000,000 (max_table_cells)")
