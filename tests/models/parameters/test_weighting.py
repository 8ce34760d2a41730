"""AWNB, MANB and WANBIA against slow direct implementations, Quinlan's tree and scikit-learn.

MANB is checked against the Bayesian average over every subset of class arcs,
enumerated; WANBIA against a direct optimisation of the conditional
log-likelihood written with loops (exact gradients by complex steps); AWNB's tree
against Quinlan's weather tree and the top of scikit-learn's entropy tree.
"""
import cmath
import math
from itertools import product

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.tree import DecisionTreeClassifier

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.models.parameters.decision_tree import first_test_depths, grow_tree
from bayesbench.models.core.structure import Node
from bayesbench.models.parameters.weighting import MANB_PRIOR, awnb_attribute_weights
from helpers import FixedStructure


def redundant_data(seed, n=150):
    """x1 a noisy copy of x0 (so their weights share the evidence), x3 noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x0 = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    x1 = np.where(rng.random(n) < 0.8, x0, rng.integers(0, 3, n))
    x2 = np.where(rng.random(n) < 0.6, y % 2, rng.integers(0, 2, n))
    x3 = rng.integers(0, 2, n)
    return np.column_stack([x0, x1, x2, x3]), y, [3, 3, 2, 2], 3


# ----------------------------------------------------------------------------- the tree

@pytest.fixture(scope="module")
def weather(uci_dir):
    ds = load_dataset(uci_dir / "weather-nominal.arff")
    return ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes


def test_id3_grows_quinlans_weather_tree(weather):
    # Quinlan (1986), Fig. 2: outlook at the root; sunny -> humidity, overcast -> P,
    # rain -> windy; temperature is never tested.
    X, y, cards, k = weather
    tree = grow_tree(X, y, cards, k)
    assert tree.attribute == 0
    sunny, overcast, rainy = tree.children
    assert (sunny.attribute, overcast.attribute, rainy.attribute) == (2, None, 3)
    assert all(leaf.attribute is None and np.count_nonzero(leaf.class_counts) == 1
               for child in (sunny, rainy) for leaf in child.children)
    np.testing.assert_array_equal(first_test_depths(tree, 4), [1, np.inf, 2, 2])


def test_top_of_the_tree_is_scikit_learns_entropy_tree_on_binary_attributes():
    rng = np.random.default_rng(4)
    n = 3000
    y = rng.integers(0, 2, n)
    X = np.column_stack([np.where(rng.random(n) < p, y, 1 - y)
                         for p in (0.55, 0.8, 0.6, 0.7, 0.5, 0.65)])
    ours = first_test_depths(grow_tree(X, y, [2] * 6, 2), 6)
    sk = DecisionTreeClassifier(criterion="entropy", max_depth=2, random_state=0).fit(X, y).tree_
    depth = {0: 1}
    for node in range(sk.node_count):
        for child in (sk.children_left[node], sk.children_right[node]):
            if child >= 0:
                depth[child] = depth[node] + 1
    theirs = {}
    for node in range(sk.node_count):
        if sk.children_left[node] >= 0:
            f = int(sk.feature[node])
            theirs[f] = min(theirs.get(f, 9), depth[node])
    assert {j: d for j, d in enumerate(ours) if d <= 2} == theirs


def test_awnb_weights_are_hall_depth_formula_on_the_weather_tree(weather):
    X, y, cards, k = weather

    class EveryRow:  # a "bootstrap" that draws each row once: the whole-data tree
        def integers(self, low, high, size):
            return np.arange(size) % high

    w = awnb_attribute_weights(X, y, cards, k, EveryRow(), trees=3, share=1.0)
    np.testing.assert_allclose(w, [1.0, 0.0, 1 / math.sqrt(2), 1 / math.sqrt(2)], rtol=1e-15)


def test_awnb_posteriors_raise_each_table_to_its_attribute_weight():
    X, y, cards, k = redundant_data(0)
    model = make_classifier("nb", weights="awnb").fit(X, y, cardinalities=cards, n_classes=k)
    w = awnb_attribute_weights(X, y, cards, k, np.random.default_rng(0))
    np.testing.assert_allclose(model.node_weights_, w, rtol=1e-15)
    assert model.weighting_.attribute_weights is not None and 0 < w.min() < w.max() <= 1
    nb = make_classifier("nb").fit(X, y, cardinalities=cards, n_classes=k)
    jll = nb.class_log_prior_ + sum(
        wa * nb.tables_[a][:, 0, X[:, a]].T for a, wa in enumerate(w))
    expected = np.exp(jll - np.logaddexp.reduce(jll, axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_proba(X), expected, atol=1e-12)


def test_a_joined_node_takes_its_heaviest_attributes_weight():
    X, y, cards, k = redundant_data(1)
    nodes = (Node((0, 3)), Node((1,), (2,)), Node((2,)))
    model = FixedStructure(nodes, weights="awnb").fit(X, y, cardinalities=cards, n_classes=k)
    w = model.weighting_.attribute_weights
    np.testing.assert_allclose(model.node_weights_, [max(w[0], w[3]), w[1], w[2]])


def test_awnb_on_car_weakens_doors_lug_boot_and_maint_most(uci_dir):
    # bnclassify's usage vignette: AWNB "decreased the effect of each feature on the class
    # posterior, especially doors, lug_boot, and maint" (its trees are rpart's, ours ID3).
    ds = load_dataset(uci_dir / "car.arff")
    X, y, cards, k = ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes
    names = [a.name for a in ds.attributes]
    for seed in range(3):
        w = make_classifier("fss", weights="awnb", random_state=seed).fit(
            X, y, cardinalities=cards, n_classes=k).weighting_.attribute_weights
        assert {names[j] for j in np.argsort(w)[:3]} == {"doors", "lug_boot", "maint"}
        assert w.max() <= 1


def test_manb_on_car_drops_only_doors(uci_dir):
    # bnclassify's usage vignette: MANB (smooth 1, prior 0.5) gives the arc from class to
    # doors zero posterior probability and the arcs to the other features 100 %.
    ds = load_dataset(uci_dir / "car.arff")
    X, y, cards, k = ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes
    nb = make_classifier("nb", weights="manb").fit(X, y, cardinalities=cards, n_classes=k)
    q = nb.weighting_.arc_posteriors
    doors = [a.name for a in ds.attributes].index("doors")
    assert q[doors] < 1e-4
    assert np.all(np.delete(q, doors) > 1 - 1e-9)


# ----------------------------------------------------------------------------- MANB

def log_evidence(counts, alpha):
    """log of prod over the first axes of G(r a) / G(r a + N) prod_x G(a + N_x) / G(a), by loops."""
    counts = np.asarray(counts)
    r = counts.shape[-1]
    total = 0.0
    for idx in np.ndindex(*counts.shape[:-1]):
        cell = counts[idx]
        total += math.lgamma(r * alpha) - math.lgamma(r * alpha + cell.sum())
        total += sum(math.lgamma(alpha + c) - math.lgamma(alpha) for c in cell)
    return total


def family_counts(X, y, node, cards, k):
    """N(c, parent value, value) by a loop over rows (one parent at most)."""
    child = node.attributes[0]
    n_pa = cards[node.parents[0]] if node.parents else 1
    out = np.zeros((k, n_pa, cards[child]))
    for i in range(len(y)):
        pa = X[i, node.parents[0]] if node.parents else 0
        out[y[i], pa, X[i, child]] += 1
    return out


def brute_force_manb(X, y, nodes, cards, k, alpha, X_test):
    """Average p(c, x | S, D) over all 2^V subsets S of class arcs, weighted by P(S | D)."""
    counts = [family_counts(X, y, nd, cards, k) for nd in nodes]
    with_arc = [log_evidence(c, alpha) for c in counts]
    without = [log_evidence(c.sum(axis=0), alpha) for c in counts]
    subsets = list(product([False, True], repeat=len(nodes)))
    log_post = np.array([sum((math.log(MANB_PRIOR) + with_arc[v]) if s[v] else
                             (math.log(1 - MANB_PRIOR) + without[v]) for v in range(len(nodes)))
                         for s in subsets])
    post = np.exp(log_post - np.logaddexp.reduce(log_post))
    arc_posteriors = np.array([sum(p for s, p in zip(subsets, post) if s[v])
                               for v in range(len(nodes))])
    n_c = np.bincount(y, minlength=k)
    prior = (n_c + alpha) / (len(y) + alpha * k)
    joint = np.zeros((len(X_test), k))
    for s, p in zip(subsets, post):
        for i, x in enumerate(X_test):
            for c in range(k):
                term = prior[c]
                for v, nd in enumerate(nodes):
                    cnt = counts[v]
                    pa = x[nd.parents[0]] if nd.parents else 0
                    val = x[nd.attributes[0]]
                    r = cnt.shape[-1]
                    if s[v]:
                        term *= (cnt[c, pa, val] + alpha) / (cnt[c, pa].sum() + alpha * r)
                    else:
                        term *= (cnt[:, pa, val].sum() + alpha) / (cnt[:, pa].sum() + alpha * r)
                joint[i, c] += p * term
    return arc_posteriors, joint / joint.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
@pytest.mark.parametrize("tree", [False, True])
def test_manb_equals_the_average_over_every_subset_of_class_arcs(alpha, tree):
    X, y, cards, k = redundant_data(2, n=60)
    nodes = ((Node((0,)), Node((1,), (0,)), Node((2,)), Node((3,), (2,))) if tree else
             tuple(Node((a,)) for a in range(4)))
    model = FixedStructure(nodes, alpha=alpha, weights="manb").fit(X, y,
                                                                   cardinalities=cards, n_classes=k)
    X_test = np.array(list(product(range(3), range(3), range(2), range(2))))
    q, proba = brute_force_manb(X, y, nodes, cards, k, alpha, X_test)
    assert np.any((q > 0.01) & (q < 0.99))  # an uncertain arc: the average is no single model
    np.testing.assert_allclose(model.weighting_.arc_posteriors, q, rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.predict_proba(X_test), proba, rtol=0, atol=1e-9)


# ----------------------------------------------------------------------------- WANBIA

def direct_tables(X, y, cards, k, alpha=1.0):
    n, m = X.shape
    n_c = [sum(1 for t in y if t == c) for c in range(k)]
    prior = [math.log((n_c[c] + alpha) / (n + alpha * k)) for c in range(k)]
    logp = {(a, c, v): math.log((sum(1 for i in range(n) if y[i] == c and X[i, a] == v) + alpha)
                                / (n_c[c] + alpha * cards[a]))
            for a in range(m) for c in range(k) for v in range(cards[a])}
    return prior, logp


def direct_scores(w, x, k, prior, logp):
    return [prior[c] + sum(w[a] * logp[a, c, x[a]] for a in range(len(x))) for c in range(k)]


def direct_cll(w, X, y, k, prior, logp):
    total = 0
    for x, c in zip(X, y):
        s = direct_scores(w, x, k, prior, logp)
        total += s[c] - cmath.log(sum(cmath.exp(t) for t in s))
    return total


def direct_wanbia(X, y, cards, k):
    """argmax over w in [0, 1]^m of the CLL, by SLSQP then Newton steps on the free weights."""
    prior, logp = direct_tables(X, y, cards, k)
    m = X.shape[1]
    eye = np.eye(m)

    def grad(w):  # complex-step derivatives: exact to rounding
        return np.array([-direct_cll(w + 1e-30j * eye[v], X, y, k, prior, logp).imag / 1e-30
                         for v in range(m)])

    w = minimize(lambda w: -direct_cll(w, X, y, k, prior, logp).real, np.ones(m), jac=grad,
                 method="SLSQP", bounds=[(0, 1)] * m, options={"ftol": 1e-16}).x
    for _ in range(20):
        g = grad(w)
        free = ~(((w <= 0) & (g > 0)) | ((w >= 1) & (g < 0)))
        if np.abs(g[free]).max(initial=0) < 1e-12:
            break
        hess = np.array([(grad(w + 1e-6 * e) - grad(w - 1e-6 * e)) / 2e-6 for e in eye])
        step = np.zeros(m)
        step[free] = -np.linalg.solve(hess[np.ix_(free, free)], g[free])
        w = np.clip(w + step, 0, 1)
    return w, prior, logp


@pytest.mark.parametrize("seed", [0, 2])
def test_wanbia_weights_and_posteriors_equal_a_direct_cll_optimisation(seed):
    X, y, cards, k = redundant_data(seed)
    w, prior, logp = direct_wanbia(X, y, cards, k)
    assert 0 < w.min() < 1  # some weight is below 1: the copy of x0 shares its evidence
    model = make_classifier("nb", weights="wanbia").fit(X, y, cardinalities=cards, n_classes=k)
    np.testing.assert_allclose(model.node_weights_, w, rtol=0, atol=1e-9)
    scores = np.array([direct_scores(w, x, k, prior, logp) for x in X])
    proba = np.exp(scores - np.logaddexp.reduce(scores, axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_proba(X), proba, rtol=0, atol=1e-9)
    assert model.conditional_log_likelihood(X, y) == pytest.approx(
        direct_cll(w, X, y, k, prior, logp).real, rel=1e-12)
    assert model.conditional_log_likelihood(X, y) > \
        make_classifier("nb").fit(X, y,
                                  cardinalities=cards, n_classes=k).conditional_log_likelihood(X, y)


# ----------------------------------------------------------------------------- errors

@pytest.mark.parametrize("weights", ["manb", "wanbia"])
def test_weights_that_need_a_dirichlet_prior_refuse_alpha_zero(weights):
    X, y, cards, k = redundant_data(0, n=30)
    with pytest.raises(ClassifierError, match=f"weights='{weights}' needs alpha > 0") as err:
        make_classifier("tan", alpha=0, weights=weights).fit(X, y, cardinalities=cards,
                                                             n_classes=k)
    assert err.value.parameter == "alpha"


def test_unknown_weights_name_the_choices_at_construction_and_at_fit():
    X, y, cards, k = redundant_data(0, n=30)
    choices = "must be None or one of 'awnb', 'manb', 'wanbia', got 'mnb'"
    with pytest.raises(ClassifierError, match=f"NaiveBayes: parameter 'weights' {choices}") as err:
        make_classifier("nb", weights="mnb")
    assert err.value.parameter == "weights"
    with pytest.raises(ClassifierError, match=choices):
        make_classifier("fssj").set_params(weights="mnb").fit(X, y, cardinalities=cards,
                                                               n_classes=k)
