"""tan_hc, tan_hcsp, kdb_hc and fssj: hand-traced candidate steps, searches equal to a slow
refit-every-candidate search, and the structures they recover on data built for them."""
import numpy as np
import pytest

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.models.search.hill_climbing import (FSSJ, KDBHC, TANHC, TANHCSP, fssj_moves, kdb_arcs,
                                             superparent_children, tan_hc_arcs)
from bayesbench.models.search.inner_cv import stratified_fold_ids
from bayesbench.models.core.structure import Node
from helpers import refit_scores

FOLDS = 5


# ------------------------------------------------------------------ hand-traced steps

def test_tan_hc_candidates_step_by_step():
    # Naive Bayes over three attributes: every pair, from the lower index.
    assert tan_hc_arcs([(), (), ()]) == [(0, 1), (0, 2), (1, 2)]
    # After 0 -> 1: x1 has a parent, so only x0 and x2 can take one; 1 -> 0 would close
    # a cycle and 2 -> 0 is 0 -> 2 reversed.
    assert tan_hc_arcs([(), (0,), ()]) == [(0, 2), (1, 2)]
    # After 1 -> 2 the tree spans everything: nothing is left.
    assert tan_hc_arcs([(), (0,), (1,)]) == []
    # Two trees 0 -> 1 and 2 -> 3: into root 0 from the other tree (3; 2 is the reversed
    # 0 -> 2), and into root 2 from the first tree.
    assert tan_hc_arcs([(), (0,), (), (2,)]) == [(3, 0), (0, 2), (1, 2)]


def test_superparent_candidates_are_the_roots_outside_ones_own_tree():
    assert superparent_children([(), (0,), (), (2,)]) == {0: [2], 1: [2], 2: [0], 3: [0]}
    assert superparent_children([(), (), ()]) == {0: [1, 2], 1: [0, 2], 2: [0, 1]}
    assert superparent_children([(), (0,), (1,)]) == {}


def test_kdb_candidates_respect_k_cycles_and_existing_arcs():
    assert kdb_arcs([(), (), (0,)], 2) == [(1, 0), (0, 1), (2, 1), (1, 2)]
    assert kdb_arcs([(), (), (0,)], 1) == [(1, 0), (0, 1), (2, 1)]
    assert kdb_arcs([(), (0,), (0, 1)], 2) == []


def test_fssj_moves_add_before_join():
    cards = [2, 3, 2]
    assert fssj_moves([], cards, 2) == [("add", 0, None), ("add", 1, None), ("add", 2, None)]
    assert fssj_moves([(0,)], cards, 2) == [("add", 1, None), ("add", 2, None),
                                            ("join", 1, 0), ("join", 2, 0)]
    assert fssj_moves([(0, 2), (1,)], cards, 2) == []


# ------------------------------------------------------- a slow, refitting reference

def refit_correct(data, folds, nodes):
    """Correct held-out predictions with the model refitted on each inner training fold."""
    X, y, cards, k = data
    return int(np.sum(np.argmax(refit_scores(X, y, cards, k, 1.0, folds, nodes), 1) == y))


def arc_nodes(parents):
    return [Node((a,), tuple(sorted(p))) for a, p in enumerate(parents)]


def taken(best, score, n, ties):
    """The step rule: one more correct example; with ties, no loss, until all are correct."""
    return best < n and score >= best + (0 if ties else 1)


def slow_arc_search(data, folds, candidates, superparent=False, ties=False):
    """Greedy search, every candidate refitted: returns the parents and accepted accuracies."""
    n = len(data[1])
    parents = [() for _ in data[2]]
    best = refit_correct(data, folds, arc_nodes(parents))
    trace = [best]
    while True:
        if superparent:
            options = superparent_children(parents)
            if not options:
                break
            sp = [refit_correct(data, folds, arc_nodes(
                [p + (s,) if a in kids else p for a, p in enumerate(parents)]))
                for s, kids in options.items()]
            s = list(options)[int(np.argmax(sp))]
            arcs = [(s, o) for o in options[s]]
        else:
            arcs = candidates(parents)
        if not arcs:
            break
        scores = [refit_correct(data, folds, arc_nodes(
            [p + (a,) if c == child else p for c, p in enumerate(parents)]))
            for a, child in arcs]
        m = int(np.argmax(scores))
        if not taken(best, scores[m], n, ties):
            break
        parent, child = arcs[m]
        parents[child] = tuple(sorted(parents[child] + (parent,)))
        best = scores[m]
        trace.append(best)
    return parents, [t / n for t in trace]


def slow_fssj(data, folds, ties=False):
    X, y, cards, k = data
    groups, best = [], refit_correct(data, folds, [])
    trace = [best]
    while True:
        moves = fssj_moves(groups, cards, k)
        if not moves:
            break
        after = [sorted(groups + [(a,)]) if kind == "add" else
                 sorted([g for j, g in enumerate(groups) if j != i]
                        + [tuple(sorted(groups[i] + (a,)))]) for kind, a, i in moves]
        scores = [refit_correct(data, folds, [Node(g) for g in c]) for c in after]
        m = int(np.argmax(scores))
        if not taken(best, scores[m], len(y), ties):
            break
        groups, best = after[m], scores[m]
        trace.append(best)
    return groups, [t / len(y) for t in trace]


def structured_data(seed, n=140):
    """Three classes, a dependent pair (x0, x1), an informative x2, noise x3, missing values."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x0 = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    x1 = (x0 + np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))) % 3
    x2 = np.where(rng.random(n) < 0.5, y % 2, rng.integers(0, 2, n))
    x3 = rng.integers(0, 2, n)
    X = np.column_stack([x0, x1, x2, x3])
    X[rng.random(X.shape) < 0.05] = -1
    return X, y, [3, 3, 2, 2], 3


def inner_folds(y, seed):
    return stratified_fold_ids(y, FOLDS, np.random.default_rng(seed))


def fitted(model, data):
    """``model`` fitted on ``data`` = ``(X, y, cardinalities, n_classes)``."""
    X, y, cards, k = data
    return model.fit(X, y, cardinalities=cards, n_classes=k)


@pytest.mark.parametrize("seed, ties", [(0, False), (1, False), (2, True)])
@pytest.mark.parametrize("learner, candidates, superparent", [
    (TANHC, tan_hc_arcs, False),
    (TANHCSP, None, True),
    (KDBHC, lambda parents: kdb_arcs(parents, 2), False),
])
def test_arc_searches_equal_a_search_that_refits_every_candidate(seed, ties, learner, candidates,
                                                                 superparent):
    data = structured_data(seed)
    parents, trace = slow_arc_search(data, inner_folds(data[1], seed), candidates, superparent,
                                     ties)
    model = fitted(learner(inner_folds=FOLDS, random_state=seed, accept_ties=ties), data)
    assert len(trace) > 1  # at least one arc is taken
    assert [tuple(n.parents) for n in model.structure_.nodes] == parents
    assert [t["accuracy"] for t in model.structure_.info["trace"]] == pytest.approx(
        trace, abs=1e-12)


@pytest.mark.parametrize("seed, ties", [(0, False), (1, False), (2, True)])
def test_fssj_equals_a_search_that_refits_every_candidate(seed, ties):
    data = structured_data(seed)
    groups, trace = slow_fssj(data, inner_folds(data[1], seed), ties)
    model = fitted(FSSJ(inner_folds=FOLDS, random_state=seed, accept_ties=ties), data)
    assert len(trace) > 1
    assert [n.attributes for n in model.structure_.nodes] == groups
    assert [t["accuracy"] for t in model.structure_.info["trace"]] == pytest.approx(
        trace, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 2])
def test_fssj_scored_in_stacks_of_one_equals_the_refitting_search(monkeypatch, seed):
    data = structured_data(seed)
    monkeypatch.setattr("bayesbench.models.search.inner_cv._STACK_BYTES", 1)
    groups, trace = slow_fssj(data, inner_folds(data[1], seed), False)
    model = fitted(FSSJ(inner_folds=FOLDS, random_state=seed), data)
    assert [n.attributes for n in model.structure_.nodes] == groups
    assert [t["accuracy"] for t in model.structure_.info["trace"]] == pytest.approx(
        trace, abs=1e-12)


# --------------------------------------------------------------- synthetic truths

def xor_data(seed, n=600):
    """class = x0 XOR x1 (10 % label noise), x1 mostly 0 so that x0 alone is informative;
    x2 informative and independent of the rest given the class; x3, x4 pure noise."""
    rng = np.random.default_rng(seed)
    x0 = rng.integers(0, 2, n)
    x1 = (rng.random(n) < 0.1).astype(int)
    y = np.where(rng.random(n) < 0.9, x0 ^ x1, 1 - (x0 ^ x1))
    x2 = np.where(rng.random(n) < 0.7, y, 1 - y)
    X = np.column_stack([x0, x1, x2, rng.integers(0, 2, n), rng.integers(0, 3, n)])
    return X, y, [2, 2, 2, 2, 3], 2


INDEPENDENT = (2, 3, 4)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", ["tan_hc", "tan_hcsp", "kdb_hc"])
def test_arc_searches_link_the_xor_pair_and_nothing_independent(name, seed):
    model = fitted(make_classifier(name, epsilon=0.01, random_state=seed), xor_data(seed))
    arcs = {frozenset(a) for a in model.structure_.arcs()}
    assert frozenset((0, 1)) in arcs
    assert not any(a <= set(INDEPENDENT) for a in arcs)
    assert model.structure_.info["inner_accuracy"] > 0.85


@pytest.mark.parametrize("seed", range(6))
def test_fssj_joins_the_xor_pair_and_leaves_the_noise_out(seed):
    s = fitted(make_classifier("fssj", epsilon=0.01, random_state=seed), xor_data(seed)).structure_
    assert [0, 1] in s.info["joined"]
    assert 3 in s.info["dropped"] and 4 in s.info["dropped"]
    assert s.info["trace"][1]["operation"] == "add" and s.info["trace"][1]["attributes"] == [0]


@pytest.mark.parametrize("seed", range(3))
def test_fssj_with_bnclassifys_tie_rule_selects_every_car_attribute(uci_dir, seed):
    # bnclassify's usage vignette, "Selecting features": with k = 5 and epsilon = 0, fssj
    # selects every feature of car; its search takes steps that only keep the accuracy.
    # With a gain of one example required, no single attribute moves naive Bayes off the
    # majority class (70 %), and FSSJ, like FSS, keeps none.
    ds = load_dataset(uci_dir / "car.arff")
    data = ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes
    y = data[1]
    tied = fitted(FSSJ(accept_ties=True, random_state=seed), data).structure_
    assert tied.dropped == () and tied.info["inner_accuracy"] > 0.8
    strict = fitted(FSSJ(random_state=seed), data).structure_
    assert strict.nodes == () and strict.info["inner_accuracy"] == pytest.approx(
        np.bincount(y).max() / len(y))


def test_epsilon_stops_every_search_before_its_first_step():
    data = xor_data(0)
    for name in ("tan_hc", "tan_hcsp", "kdb_hc"):
        s = fitted(make_classifier(name, epsilon=0.5, random_state=0), data).structure_
        assert s.arcs() == [] and len(s.nodes) == 5
    s = fitted(make_classifier("fssj", epsilon=0.5, random_state=0), data).structure_
    assert s.nodes == ()


def test_parameters_are_keyword_only_and_listed():
    assert set(make_classifier("kdb_hc").get_params()) == {
        "alpha", "k", "inner_folds", "epsilon", "accept_ties", "random_state", "weights",
        "missing"}
    with pytest.raises(TypeError):
        TANHC(1.0)
    assert fitted(KDBHC(k=1), xor_data(1)).structure_.info["k"] == 1


@pytest.mark.parametrize("name", ["tan_hc", "tan_hcsp", "kdb_hc", "fssj"])
def test_searches_without_cache_room_take_the_same_steps(name, monkeypatch):
    data = structured_data(0)
    cached = fitted(make_classifier(name, random_state=0), data).structure_
    monkeypatch.setattr("bayesbench.models.search.wrapper.MAX_CACHE_BYTES", 0)
    uncached = fitted(make_classifier(name, random_state=0), data).structure_
    assert cached.nodes == uncached.nodes and cached.info["trace"] == uncached.info["trace"]
    assert len(cached.info["trace"]) > 1
