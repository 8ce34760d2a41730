"""FSS, BSEJ, ASB: the searches equal brute-force refitting and find known truths; the
shared stopping rule and seeding of every wrapper (hill-climbing ones included)."""
import numpy as np
import pytest

import bayesbench
from bayesbench.errors import ClassifierError
from bayesbench.models.search.inner_cv import stratified_fold_ids
from bayesbench.models.search.selective import FFSS
from bayesbench.models.search import wrapper
from bayesbench.models.search.wrapper import ASB, BSEJ, FSS, required_gain
from helpers import random_data, refit_scores


@pytest.fixture
def unremembered(monkeypatch):
    """Every BSEJ search of the test runs: none is taken from the memo of the earlier ones
    (a test that fits the same search twice to compare two code paths needs both to run)."""
    memo = wrapper._SearchMemo()
    memo.SIZE = 0
    monkeypatch.setattr(wrapper, "_SEARCHES", memo)


def test_required_gain_is_one_example_or_epsilon_of_them():
    assert required_gain(100, 0.0) == 1
    assert required_gain(100, 0.0, accept_ties=True) == 0
    assert required_gain(100, 0.025, accept_ties=True) == 3
    assert required_gain(100, 0.01) == 1
    assert required_gain(100, 0.025) == 3
    assert required_gain(1728, 0.01) == 18


def refit_correct(X, y, cards, k, alpha, folds, groups):
    return int(np.sum(np.argmax(refit_scores(X, y, cards, k, alpha, folds, groups), 1) == y))


def without(groups, a):
    """The groups with attribute ``a`` removed from its group (an emptied group goes)."""
    shrunk = [tuple(x for x in g if x != a) for g in groups]
    return sorted(g for g in shrunk if g)


def brute_force_bsej(X, y, cards, k, alpha, folds, epsilon=0.0):
    """Pazzani's BSEJ refitting every candidate on every fold, same candidate order."""
    groups = [(j,) for j in range(X.shape[1])]
    best = refit_correct(X, y, cards, k, alpha, folds, groups)
    while groups:
        candidates = [without(groups, a) for a in sorted(a for g in groups for a in g)]
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                rest = [g for m, g in enumerate(groups) if m not in (i, j)]
                candidates.append(sorted(rest + [tuple(sorted(groups[i] + groups[j]))]))
        scores = [refit_correct(X, y, cards, k, alpha, folds, c) for c in candidates]
        m = int(np.argmax(scores))
        if scores[m] <= best or scores[m] - best < epsilon * len(y):
            break
        best, groups = scores[m], candidates[m]
    return groups, best


def brute_force_fss(X, y, cards, k, alpha, folds):
    selected = []
    best = refit_correct(X, y, cards, k, alpha, folds, [])
    while len(selected) < X.shape[1]:
        rest = [j for j in range(X.shape[1]) if j not in selected]
        scores = [refit_correct(X, y, cards, k, alpha, folds, [(a,) for a in selected + [j]])
                  for j in rest]
        m = int(np.argmax(scores))
        if scores[m] <= best:
            break
        best = scores[m]
        selected.append(rest[m])
    return selected, best


@pytest.mark.parametrize("seed,epsilon", [(0, 0.0), (1, 0.0), (2, 0.0), (4, 0.0), (0, 0.02)])
def test_bsej_equals_brute_force_refitting(seed, epsilon):
    X, y, cards, k = random_data(seed, missing=0.05 * seed)
    model = BSEJ(alpha=1.0, inner_folds=4, epsilon=epsilon, random_state=seed)
    model.fit(X, y, cardinalities=cards, n_classes=k)
    folds = stratified_fold_ids(y, 4, np.random.default_rng(seed))
    groups, best = brute_force_bsej(X, y, cards, k, 1.0, folds, epsilon)
    assert [n.attributes for n in model.structure_.nodes] == [tuple(g) for g in groups]
    assert model.structure_.info["inner_accuracy"] == pytest.approx(best / len(y))


@pytest.mark.parametrize("seed", [0, 3])
def test_fss_equals_brute_force_refitting(seed):
    X, y, cards, k = random_data(seed, n=120, cards=(3, 2, 4, 3, 2, 3))
    model = FSS(alpha=1.0, inner_folds=5, random_state=seed).fit(X, y, cardinalities=cards, n_classes=k)
    folds = stratified_fold_ids(y, 5, np.random.default_rng(seed))
    selected, best = brute_force_fss(X, y, cards, k, 1.0, folds)
    assert model.structure_.info["selected"] == selected
    assert [n.attributes[0] for n in model.structure_.nodes] == sorted(selected)
    assert model.structure_.info["inner_accuracy"] == pytest.approx(best / len(y))


def xor_data(seed, n=600):
    """Class = x0 XOR x1 (90 % of the time); x2 weakly relevant; x3 pure noise."""
    rng = np.random.default_rng(seed)
    x0, x1 = rng.integers(0, 2, n), rng.integers(0, 2, n)
    y = np.where(rng.random(n) < 0.9, x0 ^ x1, rng.integers(0, 2, n))
    x2 = np.where(rng.random(n) < 0.65, y, 1 - y)
    x3 = rng.integers(0, 2, n)
    return np.column_stack([x0, x1, x2, x3]), y


@pytest.mark.parametrize("seed", range(4))
def test_bsej_joins_a_pair_that_only_matters_jointly(seed):
    X, y = xor_data(seed)
    s = BSEJ(random_state=seed).fit(X, y, cardinalities=[2] * 4, n_classes=2).structure_
    groups = [n.attributes for n in s.nodes]
    assert any({0, 1} <= set(g) for g in groups), groups
    assert s.info["joined"] and s.info["trace"][-1]["accuracy"] > 0.85
    # Naive Bayes cannot see XOR: each of x0, x1 alone is independent of the class.
    assert (FFSS().fit(X, y, cardinalities=[2] * 4, n_classes=2).structure_.info["kept"]) == [2]


def noisy_data(seed, n=1000, r=400):
    """Three weak signals of the class and a 400-valued noise attribute.

    A noise value is seen about twice in training, so its smoothed table
    pushes a held-out example towards whichever class it happened to meet:
    keeping it costs accuracy, and every accuracy-guided search must drop it.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    signals = [np.where(rng.random(n) < p, y, 1 - y) for p in (0.7, 0.65, 0.6)]
    return np.column_stack(signals + [rng.integers(0, r, n)]), y, [2, 2, 2, r]


@pytest.mark.parametrize("seed", range(4))
def test_noise_attribute_is_dropped_by_fss_ffss_and_bsej(seed):
    X, y, cards = noisy_data(seed)
    noise = 3
    for model in (FSS(random_state=seed), FFSS(), BSEJ(random_state=seed)):
        s = model.fit(X, y, cardinalities=cards, n_classes=2).structure_
        assert noise in s.dropped, (type(model).__name__, s)
    record = FFSS().fit(X, y, cardinalities=cards, n_classes=2).structure_.info["tests"][noise]
    # 1000 rows over 400 x 2 cells: unreliable, so independence is assumed.
    assert record["attributes"] == [noise] and not record["reliable"] and not record["rejects"]


class GivenGroupsASB(ASB):
    """ASB's augmenting step (Algorithm 1, lines 2-16) on a semi-naive model fixed in advance."""

    def __init__(self, groups=(), significance=0.05):
        super().__init__(significance=significance)
        self.groups = groups

    def _search(self, X, y, cardinalities, n_classes, rng):
        return [tuple(g) for g in self.groups], {}


@pytest.mark.parametrize("groups", [[(0,), (1,), (2,), (3,), (4,)], [(0, 1), (2,), (3,), (4,)]])
def test_asb_arc_links_dependent_groups_not_independent_ones(groups, dependent_pair_data):
    X, y = dependent_pair_data()
    s = GivenGroupsASB(groups).fit(X, y, cardinalities=[2] * 5, n_classes=2).structure_
    owner = {a: node for node in s.nodes for a in node.attributes}
    a, b = owner[0], owner[4]
    # One group is the other's parent, and the arc runs from every attribute of
    # the parent group to every attribute of the child group.
    assert a.parents == b.attributes or b.parents == a.attributes, s
    parent, child = (a, b) if b.parents == a.attributes else (b, a)
    assert {(p, c) for p in parent.attributes for c in child.attributes} <= set(s.arcs())
    assert not any({p, c} == {2, 3} for p, c in s.arcs())
    records = {tuple(map(tuple, r["attributes"])): r for r in s.info["tests"]}
    assert records[((2,), (3,))]["pvalue"] > 0.05
    assert records[(a.attributes, b.attributes) if a.attributes < b.attributes
                   else (b.attributes, a.attributes)]["rejects"]
    assert len(s.info["arcs"]) == sum(bool(n.parents) for n in s.nodes)


def test_asb_adds_no_arc_when_every_test_is_unreliable():
    # 22 classes on few rows, like primary tumor in paper 002: ASB stays BSEJ.
    rng = np.random.default_rng(0)
    y = np.arange(132) % 22
    X = np.column_stack([(y + rng.integers(0, 2, 132)) % 3 for _ in range(4)])
    asb = ASB(random_state=1).fit(X, y, cardinalities=[3] * 4, n_classes=22).structure_
    bsej = BSEJ(random_state=1).fit(X, y, cardinalities=[3] * 4, n_classes=22).structure_
    assert [n.attributes for n in asb.nodes] == [n.attributes for n in bsej.nodes]
    assert not asb.arcs() and all(not t["reliable"] for t in asb.info["tests"])


def test_same_seed_same_structure_and_parameters_validated():
    X, y = xor_data(0, n=200)
    a = BSEJ(random_state=3).fit(X, y).structure_
    b = BSEJ(random_state=3).fit(X, y).structure_
    assert a.nodes == b.nodes and a.info["trace"] == b.info["trace"]
    with pytest.raises(ClassifierError, match="'alpha' must be a number > 0"):
        BSEJ(alpha=0, random_state=0).fit(X, y)
    with pytest.raises(ClassifierError, match="inner_folds"):
        FSS(inner_folds=1).fit(X, y)
    with pytest.raises(ClassifierError, match="significance"):
        ASB(significance=0).fit(X, y)


def test_bsej_without_cache_room_gives_the_same_search(monkeypatch, unremembered):
    X, y, cards, k = random_data(3, n=300, cards=(3, 2, 4, 3, 2, 3, 2))
    cached = BSEJ(random_state=3).fit(X, y, cardinalities=cards, n_classes=k).structure_
    monkeypatch.setattr("bayesbench.models.search.wrapper.MAX_CACHE_BYTES", 0)
    uncached = BSEJ(random_state=3).fit(X, y, cardinalities=cards, n_classes=k).structure_
    assert cached.nodes == uncached.nodes and cached.info["trace"] == uncached.info["trace"]
    assert len(cached.info["trace"]) > 2  # the cache was actually reused across steps


def test_bsej_join_stacks_of_any_size_give_the_same_search(monkeypatch, unremembered):
    # Candidates scored one at a time, then in stacks: the same sums, so the same choices.
    X, y, cards, k = random_data(3, n=300, cards=(3, 2, 4, 3, 2, 3, 2))
    stacked = BSEJ(random_state=3).fit(X, y, cardinalities=cards, n_classes=k).structure_
    monkeypatch.setattr("bayesbench.models.search.wrapper._JOIN_STACK_BYTES", 1)
    single = BSEJ(random_state=3).fit(X, y, cardinalities=cards, n_classes=k).structure_
    assert stacked.nodes == single.nodes and stacked.info["trace"] == single.info["trace"]
    assert len(stacked.info["trace"]) > 2


@pytest.mark.parametrize("name", ["fss", "bsej", "asb", "tan_hc", "tan_hcsp", "kdb_hc", "fssj"])
def test_same_random_state_gives_the_same_structure(name, unremembered):
    rng = np.random.default_rng(11)
    X = rng.integers(-1, 3, (120, 6))
    y = (np.maximum(X[:, 0], 0) + np.maximum(X[:, 1], 0) + rng.integers(0, 2, 120)) % 3
    fits = [bayesbench.make_classifier(name, random_state=7)
            .fit(X, y, cardinalities=[3] * 6, n_classes=3)
            for _ in range(2)]
    assert str(fits[0].structure_) == str(fits[1].structure_)
    assert fits[0].structure_.info["trace"] == fits[1].structure_.info["trace"]
    np.testing.assert_array_equal(fits[0].predict_proba(X), fits[1].predict_proba(X))


def test_a_joined_pair_is_drawn_as_one_node_under_the_class():
    X, y = xor_data(0)
    dot = BSEJ(random_state=0).fit(X, y, cardinalities=[2] * 4, n_classes=2).to_dot()
    assert '"x0+x1" [shape=box];' in dot and '"class" -> "x0+x1";' in dot
    assert '"x0"' not in dot and '"x1"' not in dot
    assert dot.index('{ rank=source; "class"; }') < dot.index('"x0+x1"')


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_bsej_and_fss_scored_in_small_stacks_equal_brute_force_refitting(monkeypatch, seed):
    # Stacks of one or two candidates and a bincount per join or two must not change a step.
    X, y, cards, k = random_data(seed, missing=0.05 * seed)
    monkeypatch.setattr("bayesbench.models.search.inner_cv._STACK_BYTES", 2 * len(y) * k * 8)
    monkeypatch.setattr("bayesbench.models.search.inner_cv._BATCH_CELLS", 40)
    model = BSEJ(alpha=1.0, inner_folds=4, random_state=seed)
    model.fit(X, y, cardinalities=cards, n_classes=k)
    folds = stratified_fold_ids(y, 4, np.random.default_rng(seed))
    groups, best = brute_force_bsej(X, y, cards, k, 1.0, folds, 0.0)
    assert [n.attributes for n in model.structure_.nodes] == [tuple(g) for g in groups]
    assert model.structure_.info["inner_accuracy"] == pytest.approx(best / len(y))
    model = FSS(alpha=1.0, inner_folds=4, random_state=seed).fit(X, y, cardinalities=cards,
                                                                  n_classes=k)
    selected, best = brute_force_fss(X, y, cards, k, 1.0, folds)
    assert model.structure_.info["selected"] == selected
    assert model.structure_.info["inner_accuracy"] == pytest.approx(best / len(y))


def test_asb_random_root_draws_each_trees_root_and_keeps_the_forest():
    # Five groups where 0-4 and 1-3 are dependent given the class: two trees. Algorithm 1,
    # step 13, roots each at random: over seeds every member of a tree is its root at some
    # point (uniform over 2 members: all seen in 40 draws but with chance 2 * 0.5 ** 40),
    # the undirected forest never changes, and the same seed gives the same roots.
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 2000)
    a, b = rng.integers(0, 2, 2000), rng.integers(0, 2, 2000)
    flip = lambda v, p: np.where(rng.random(2000) < p, 1 - v, v)  # noqa: E731
    X = np.column_stack([a, b, flip(y, 0.4), flip(b, 0.1), flip(a, 0.1)])
    groups = [(0,), (1,), (2,), (3,), (4,)]

    def fitted(seed):
        model = GivenGroupsASB(groups)
        model.root, model.random_state = "random", seed   # not constructor arguments here
        return model.fit(X, y, cardinalities=[2] * 5, n_classes=2).structure_

    first = GivenGroupsASB(groups).fit(X, y, cardinalities=[2] * 5, n_classes=2).structure_
    edges = {frozenset(arc) for arc in first.arcs()}
    assert edges == {frozenset({0, 4}), frozenset({1, 3})}
    assert set(first.arcs()) == {(0, 4), (1, 3)}       # "first": the lowest index is the root
    roots = set()
    for seed in range(40):
        s = fitted(seed)
        assert {frozenset(arc) for arc in s.arcs()} == edges
        roots |= {p for p, _ in s.arcs()}
        assert s.arcs() == fitted(seed).arcs()
    assert roots == {0, 1, 3, 4}
    with pytest.raises(ClassifierError, match="root"):
        ASB(root="middle").fit(X, y)


@pytest.mark.parametrize("root", ["first", "random"])
def test_asb_after_bsej_on_the_same_rows_searches_once_and_fits_as_alone(monkeypatch, root):
    # ASB's search is BSEJ's: fitted after BSEJ on the same rows (a run's fold), it takes the
    # remembered groups, trace and generator state, and equals an ASB whose search ran (the
    # random roots are drawn from the generator after the search).
    X, y, cards, k = random_data(2, n=300, cards=(3, 2, 4, 3, 2, 3, 2))
    searches = []
    search = wrapper.backward_elimination_joining
    monkeypatch.setattr(wrapper, "backward_elimination_joining",
                        lambda *a: searches.append(1) or search(*a))
    monkeypatch.setattr(wrapper, "_SEARCHES", wrapper._SearchMemo())

    def asb(seed=4):
        model = ASB(random_state=seed, root=root, significance=0.2)
        return model.fit(X, y, cardinalities=cards, n_classes=k)

    bsej = BSEJ(random_state=4).fit(X, y, cardinalities=cards, n_classes=k)
    after = asb()
    assert len(searches) == 1
    assert after.structure_.info["trace"] == bsej.structure_.info["trace"]
    assert "tests" in after.structure_.info and "tests" not in bsej.structure_.info
    monkeypatch.setattr(wrapper, "_SEARCHES", wrapper._SearchMemo())
    alone = asb()
    assert len(searches) == 2
    assert alone.structure_.nodes == after.structure_.nodes and after.structure_.arcs()
    assert alone.structure_.info == after.structure_.info
    np.testing.assert_array_equal(alone.predict_proba(X), after.predict_proba(X))
    # Other rows, another seed or another setting of the search: searched again.
    asb(seed=5)
    BSEJ(random_state=4, epsilon=0.01).fit(X, y, cardinalities=cards, n_classes=k)
    BSEJ(random_state=4).fit(X[:-1], y[:-1], cardinalities=cards, n_classes=k)
    assert len(searches) == 5
