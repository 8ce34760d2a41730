"""The incremental inner CV of the wrapper learners equals refitting the model on each fold."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bayesbench.models.search.inner_cv import InnerCV, count_correct, stratified_fold_ids
from helpers import random_data, refit_scores


@pytest.mark.parametrize("alpha,missing", [(1.0, 0.0), (0.5, 0.1)])
def test_engine_contributions_equal_refitted_model(alpha, missing):
    X, y, cards, k = random_data(1, missing=missing)
    cv = InnerCV(X, y, cards, k, alpha, 4, np.random.default_rng(7))
    a, b, c = cv.group((0,)), cv.group((2,)), cv.group((4,))
    ab = cv.join(a, b)
    abc = cv.join(ab, c, compact=True)
    cases = {((0, 2),): ab.contribution, ((0, 2, 4),): abc.contribution,
             ((1, 3, 4),): cv.group((4, 1, 3)).contribution,
             ((1,), (3,)): cv.group((1,)).contribution + cv.group((3,)).contribution}
    for groups, contribution in cases.items():
        expected = refit_scores(X, y, cards, k, alpha, cv.folds, groups)
        np.testing.assert_allclose(cv.log_prior + contribution, expected, rtol=0, atol=1e-10)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.floats(0.1, 3.0),
       st.sampled_from([0.0, 0.15]))
def test_engine_equals_refit_for_random_partitions(seed, n_folds, alpha, missing):
    X, y, cards, k = random_data(seed, n=60, missing=missing)
    rng = np.random.default_rng(seed)
    # A random partition of a random subset of the attributes into groups.
    kept = [a for a in range(X.shape[1]) if rng.random() < 0.8]
    labels = rng.integers(0, 3, len(kept))
    groups = [tuple(a for a, g in zip(kept, labels) if g == label) for label in range(3)]
    groups = [g for g in groups if g]
    cv = InnerCV(X, y, cards, k, alpha, n_folds, np.random.default_rng(seed))
    total = cv.log_prior + sum((cv.group(g).contribution for g in groups), np.zeros((60, k)))
    expected = refit_scores(X, y, cards, k, alpha, cv.folds, groups)
    np.testing.assert_allclose(total, expected, rtol=0, atol=1e-9)


def test_stratified_folds_balance_classes_and_sizes():
    y = np.repeat([0, 1, 2], [10, 7, 23])
    folds = stratified_fold_ids(y, 5, np.random.default_rng(0))
    per_class = np.array([[np.sum((folds == f) & (y == c)) for f in range(5)] for c in range(3)])
    assert (per_class.max(1) - per_class.min(1) <= 1).all()
    sizes = np.bincount(folds)
    assert sizes.max() - sizes.min() <= 1
    assert np.array_equal(folds, stratified_fold_ids(y, 5, np.random.default_rng(0)))


@pytest.mark.parametrize("batch_cells", [None, 50])
def test_batched_joins_equal_refitted_models(monkeypatch, batch_cells):
    if batch_cells is not None:
        # A few candidates per bincount, down to one.
        monkeypatch.setattr("bayesbench.models.search.inner_cv._BATCH_CELLS", batch_cells)
    X, y, cards, k = random_data(2, missing=0.1)
    cv = InnerCV(X, y, cards, k, 0.7, 3, np.random.default_rng(5))
    a = cv.join(cv.group((0,)), cv.group((1,)))
    others = [cv.group((j,)) for j in (2, 3, 4)] + [cv.group((3, 4))]
    batched = cv.join_contributions(a, others)
    for b, contribution in zip(others, batched):
        groups = (tuple(sorted(a.attributes + b.attributes)),)
        expected = refit_scores(X, y, cards, k, 0.7, cv.folds, groups)
        np.testing.assert_allclose(cv.log_prior + contribution, expected, rtol=0, atol=1e-10)
        # The batch computes what one join computes, to the last bit.
        assert np.array_equal(contribution, cv.join(a, b).contribution)


@pytest.mark.parametrize("k", [2, 3, 5, 9])   # 3 to 8 classes compare columns, 9 uses argmax
def test_stacked_scores_count_what_argmax_counts(monkeypatch, k):
    # Stacks of 3 candidates; ties (equal scores) go to the lowest class as argmax's do.
    rng = np.random.default_rng(k)
    X, y, cards, _ = random_data(3)
    y = rng.integers(0, k, y.size)
    cv = InnerCV(X, y, cards, k, 1.0, 3, np.random.default_rng(0))
    monkeypatch.setattr("bayesbench.models.search.inner_cv._STACK_BYTES", 3 * cv.n * k * 8)
    scores = rng.integers(0, 3, (8, cv.n, k)).astype(float)
    want = [int(np.sum([np.argmax(row) == c for row, c in zip(s, y)])) for s in scores]
    assert cv.correct_stacked(8, lambda t, out: np.copyto(out, scores[t])) == want
    assert count_correct(scores, y).tolist() == want
