"""Sufficient statistics against a direct loop over the rows written here."""
import numpy as np
import pytest

from bayesbench.errors import ClassifierError
from bayesbench.measures.codes import TableTooLarge, table_limit
from bayesbench.models.core.sufficient import Statistics, pair_count_matrix
from helpers import random_codes


def loop_pairs(X, y, cards, k):
    """``N(c, s_i + a, s_j + b)`` by visiting every row and every attribute pair."""
    starts = np.concatenate([[0], np.cumsum(cards)[:-1]])
    R = int(sum(cards))
    out = np.zeros((k, R, R), dtype=np.int64)
    for row, c in zip(X, y):
        for i, a in enumerate(row):
            for j, b in enumerate(row):
                if a < 0 or b < 0 or a >= cards[i] or b >= cards[j]:
                    continue
                if i == j and a != b:
                    continue
                out[c, starts[i] + a, starts[j] + b] += 1
    return out


@pytest.fixture
def data():
    rng = np.random.default_rng(11)
    cards = [2, 3, 1, 4, 3]
    X = random_codes(rng, 400, cards, missing=0.1)
    y = rng.integers(0, 3, 400)
    return X, y, cards


def test_pair_counts_match_a_loop(data):
    X, y, cards = data
    got = pair_count_matrix(X, y, cards, 3)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, loop_pairs(X, y, cards, 3))


@pytest.mark.parametrize("width", [0, 10 ** 6])
def test_pair_counts_by_either_counting_path_match_a_loop(data, monkeypatch, width):
    # One-hot Gram products (narrow attributes) and a bincount per pair (wide ones).
    import bayesbench.measures.information as information
    monkeypatch.setattr(information, "GRAM_MAX_WIDTH", width)
    X, y, cards = data
    np.testing.assert_array_equal(pair_count_matrix(X, y, cards, 3), loop_pairs(X, y, cards, 3))


def test_attribute_and_pair_views(data):
    X, y, cards = data
    s = Statistics.from_codes(X, y, cards, 3)
    assert s.class_counts.tolist() == [int(np.sum(y == c)) for c in range(3)]
    assert s.n_rows == 400 and s.n_attributes == 5
    for i, r in enumerate(cards):
        want = [[int(np.sum((y == c) & (X[:, i] == a))) for a in range(r)] for c in range(3)]
        assert s.attribute(i).tolist() == want
    for i, j in [(0, 1), (3, 1), (4, 0), (2, 3)]:
        want = [[[int(np.sum((y == c) & (X[:, i] == a) & (X[:, j] == b)))
                  for b in range(cards[j])] for a in range(cards[i])] for c in range(3)]
        assert s.pair(i, j).tolist() == want


def test_codes_beyond_cardinality_count_as_missing():
    X = np.array([[0, 2], [1, 1], [5, 0]])
    s = Statistics.from_codes(X, np.array([0, 0, 1]), [2, 3], 2)
    assert s.attribute(0).tolist() == [[1, 1], [0, 0]]
    assert s.pair(0, 1)[1].sum() == 0 and s.attribute(1)[1].tolist() == [1, 0, 0]


def test_add_and_subtract_are_exact(data):
    X, y, cards = data
    whole = Statistics.from_codes(X, y, cards, 3)
    part = Statistics.from_codes(X[:123], y[:123], cards, 3)
    rest = Statistics.from_codes(X[123:], y[123:], cards, 3)
    assert whole - part == rest
    assert part + rest == whole
    assert Statistics.empty(cards, 3) + whole == whole
    with pytest.raises(ClassifierError, match="cannot be combined"):
        whole + Statistics.empty([2, 3], 3)


def test_statistics_are_frozen(data):
    X, y, cards = data
    s = Statistics.from_codes(X, y, cards, 3)
    with pytest.raises(ValueError):
        s.pairs[0, 0, 0] = 5
    with pytest.raises(AttributeError):
        s.n_classes = 4


def test_table_size_is_checked_before_counting():
    X = np.zeros((3, 2), dtype=np.int64)
    with table_limit(1000), pytest.raises(TableTooLarge, match="over the limit of 1,000"):
        Statistics.from_codes(X, np.zeros(3, dtype=np.int64), [30, 30], 2)


def test_mismatched_input_is_refused():
    with pytest.raises(ClassifierError, match="class codes must lie in 0..1"):
        Statistics.from_codes(np.zeros((2, 1), dtype=int), np.array([0, 2]), [1], 2)
    with pytest.raises(ClassifierError, match="does not match"):
        Statistics.from_codes(np.zeros((2, 1), dtype=int), np.array([0, 1]), [1, 2], 2)


# ------------------------------------------------------------------ fitting from statistics
# Nominal UCI data sets with missing values (mushroom, votes, primary tumor, breast cancer)
# and without (lenses, car).
DATASETS = ["house-votes-84", "primary-tumor", "mushroom", "lenses", "car", "breast-cancer"]
LEARNERS = [("nb", {}), ("nb", {"alpha": 0.0, "log": False}), ("tan", {}),
            ("tan", {"root": 2, "alpha": 0.5}), ("tan", {"criterion": "bic"}),
            ("tan", {"criterion": "aic"}), ("ddr_tan", {}), ("kdb", {"k": 1}),
            ("kdb", {"k": 0}), ("kdb", {"k": 2}), ("kdb", {"k": 4, "alpha": 0.5}), ("aode", {}),
            ("aode", {"min_frequency": 30}), ("ande", {}), ("ande", {"n": 1})]


def _nominal(uci_dir, name):
    from bayesbench.data import bundled_dir, load_dataset
    path = uci_dir / f"{name}.arff"
    ds = load_dataset(path if path.exists() else bundled_dir() / f"{name}.arff")
    assert ds.nominal_mask.all()
    return ds


def _same_model(a, b):
    """Same structure (nodes, weights, order) and the same tables, bit for bit."""
    assert a.structure_.nodes == b.structure_.nodes
    assert a.structure_.attribute_names == b.structure_.attribute_names
    assert a.structure_.cardinalities == b.structure_.cardinalities
    for key, value in a.structure_.info.items():
        np.testing.assert_array_equal(np.asarray(value), np.asarray(b.structure_.info[key]))
    if hasattr(a, "tables_"):
        for x, y in zip(a.counts_ + a.tables_ + a.unseen_, b.counts_ + b.tables_ + b.unseen_):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(a.class_log_prior_, b.class_log_prior_)


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("learner, params", LEARNERS)
def test_fit_statistics_equals_fit_on_the_rows(uci_dir, name, learner, params):
    import pandas as pd
    from bayesbench.models.registry import make_classifier
    ds = _nominal(uci_dir, name)
    if name == "mushroom":
        ds = ds.take(np.arange(0, ds.n_rows, 4))
    X, y, cards, k = ds.codes(), ds.y, ds.cardinalities, ds.n_classes
    frame = pd.DataFrame(X, columns=ds.attribute_names)
    rows = make_classifier(learner, **params).fit(frame, y, cardinalities=cards, n_classes=k)
    stats = Statistics.from_codes(X, y, cards, k, attribute_names=ds.attribute_names)
    counted = make_classifier(learner, **params).fit_statistics(stats)
    _same_model(rows, counted)
    assert list(counted.feature_names_in_) == ds.attribute_names
    np.testing.assert_array_equal(counted.classes_, rows.classes_)
    np.testing.assert_allclose(counted.predict_proba(frame), rows.predict_proba(frame),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("learner, params", [("nb", {}), ("tan", {}), ("kdb", {"k": 1}),
                                             ("kdb", {"k": 3}), ("kdb", {"k": 5}),
                                             ("kdb", {"k": 3, "estimator": "m"}),
                                             ("kdb", {"k": 2, "estimator": "hdp",
                                                      "iterations": 20}),
                                             ("aode", {}), ("ande", {}),
                                             ("ande", {"subsumption": 10})])
def test_training_fold_as_total_minus_test_fold(uci_dir, learner, params):
    from bayesbench.models.registry import make_classifier
    ds = _nominal(uci_dir, "house-votes-84")
    X, y, cards, k = ds.codes(), ds.y, ds.cardinalities, ds.n_classes
    test = np.random.default_rng(2).random(ds.n_rows) < 0.1
    total = Statistics.from_codes(X, y, cards, k)
    fold = Statistics.from_codes(X[test], y[test], cards, k)
    rows = make_classifier(learner, **params).fit(X[~test], y[~test], cardinalities=cards,
                                                  n_classes=k)
    counted = make_classifier(learner, **params).fit_statistics(total - fold)
    _same_model(rows, counted)
    np.testing.assert_allclose(counted.predict_proba(X[test]), rows.predict_proba(X[test]),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("learner, params, fits, fits_without_rows", [
    ("nb", {}, True, True), ("tan", {"criterion": "loglik"}, True, True),
    ("kdb", {"k": 1}, True, True), ("kdb", {"k": 2}, True, False),
    ("nb", {"weights": "awnb"}, False, False), ("tan", {"weights": "manb"}, False, False),
    ("aode", {}, True, True), ("ande", {}, True, False), ("ande", {"n": 1}, True, True),
    ("fss", {}, False, False), ("gnb", {}, False, False)])
def test_which_learners_fit_from_statistics(learner, params, fits, fits_without_rows):
    """kDB of k >= 2 and A2DE count their tables from the rows the statistics keep, which
    a chunked data set's do not."""
    from bayesbench.models.registry import make_classifier
    from bayesbench.models.core.sufficient import StatisticsNotSufficient, fits_from_statistics
    clf = make_classifier(learner, **params)
    assert fits_from_statistics(clf) is fits
    assert fits_from_statistics(clf, rows=False) is fits_without_rows
    if hasattr(clf, "fit_statistics") and not fits_without_rows:
        stats = Statistics.from_codes(np.array([[0, 1, 1], [1, 0, 0]]), np.array([0, 1]),
                                      [2, 2, 2], 2)
        with pytest.raises(StatisticsNotSufficient, match="fit it with fit"):
            clf.fit_statistics(stats if not fits else stats.without_rows())
        assert not hasattr(clf, "classes_")


def _counting(seed):
    """Codes with missing values, their classes and Statistics, and a counting function for
    ``Statistics.tally`` that appends to ``calls`` the rows of each count it makes."""
    from bayesbench.models.core.counting import node_counts
    from bayesbench.models.core.structure import Node
    rng = np.random.default_rng(seed)
    X = rng.integers(-1, 3, (60, 4))
    y = rng.integers(0, 2, 60)
    calls = []

    def count(X, y, cards, k, attributes, parents):
        calls.append(len(y))
        return node_counts(Node(attributes, parents), X, y, cards, k)

    return X, y, Statistics.from_codes(X, y, [3] * 4, 2), count, calls


def test_tables_beyond_pairs_are_counted_once_and_subtracted():
    """A training part's table is the total's (counted once for every fold) minus the test
    part's; a sum keeps no rows, and a pickled copy none of the tables counted."""
    import pickle
    from bayesbench.models.core.counting import node_counts
    from bayesbench.models.core.structure import Node
    X, y, total, count, calls = _counting(4)
    for fold in range(3):
        test = np.arange(60) % 3 == fold
        train = total - Statistics.from_codes(X[test], y[test], [3] * 4, 2)
        got = train.tally(count, (0,), (1, 2, 3))
        np.testing.assert_array_equal(
            got, node_counts(Node((0,), (1, 2, 3)), X[~test], y[~test], [3] * 4, 2))
    assert calls == [60, 20, 20, 20]              # the total once, each test part once
    assert (total + total).rows is None
    assert pickle.loads(pickle.dumps(total)).rows[0][1]._tables == {}


def test_a_process_sent_the_same_rows_twice_counts_their_tables_once():
    """Under --jobs each task pickles the whole data set's rows with its training part: the
    worker unpickles them as the rows it received last, with the tables counted so far."""
    import pickle
    from bayesbench.models.core.counting import node_counts
    from bayesbench.models.core.structure import Node
    X, y, total, count, calls = _counting(5)
    for fold in range(3):  # each task's training part, as a worker receives it
        test = np.arange(60) % 3 == fold
        train = pickle.loads(pickle.dumps(total - Statistics.from_codes(X[test], y[test],
                                                                        [3] * 4, 2)))
        got = train.tally(count, (0,), (1, 2))
        np.testing.assert_array_equal(got, node_counts(Node((0,), (1, 2)), X[~test],
                                                       y[~test], [3] * 4, 2))
    assert calls == [60, 20, 20, 20]  # the total once, each test part once


def test_fit_statistics_refuses_what_fit_refuses():
    from bayesbench.models.registry import make_classifier
    with pytest.raises(ClassifierError, match="cannot fit on zero rows"):
        make_classifier("nb").fit_statistics(Statistics.empty([2], 2))
    with pytest.raises(ClassifierError, match="takes a Statistics object"):
        make_classifier("tan").fit_statistics(np.zeros(3))
    with pytest.raises(ClassifierError, match="parameter 'root'"):
        make_classifier("tan", root=3).fit_statistics(
            Statistics.from_codes(np.zeros((2, 2), dtype=int), np.array([0, 1]), [1, 1], 2))


def test_cmi_matrix_is_the_per_pair_measure_and_the_rows_matrix(data):
    # The batched matrix TAN and KDB read equals the pair-by-pair one to the last bit, and
    # the matrix counted from the rows (missing codes left out of each pair only).
    from bayesbench.measures.information import (cmi_from_counts,
                                               conditional_mutual_information_matrix)

    X, y, cards = data
    k = 3
    stats = Statistics.from_codes(X, y, cards, k)
    batched = stats.cmi_matrix()
    assert np.array_equal(batched, stats.pair_matrix(cmi_from_counts))
    assert np.allclose(batched, conditional_mutual_information_matrix(X, y, cards, k),
                       rtol=1e-12, atol=1e-15)
    assert batched.shape == (len(cards), len(cards)) and np.all(np.diag(batched) == 0)
