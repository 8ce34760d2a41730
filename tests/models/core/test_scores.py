"""Model scores (log-likelihood, CLL, free parameters, AIC, BIC) and score-based TAN,
against scikit-learn's CategoricalNB, direct counting, hand counts and networkx."""
import math
from itertools import combinations

import networkx as nx
import numpy as np
import pytest
from sklearn.metrics import log_loss
from sklearn.naive_bayes import CategoricalNB

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.measures.likelihood_scores import arc_score_matrix
from bayesbench.models.core.structure import Node, Structure
from bayesbench.models.core.scores import free_parameters


@pytest.fixture(scope="module")
def car(uci_dir):
    ds = load_dataset(uci_dir / "car.arff")
    return ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes


def random_data(seed, n=300, cards=(2, 3, 4, 2), k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = np.column_stack([(y + rng.integers(0, r, n)) % r for r in cards])
    X[:, 1] = np.where(rng.random(n) < 0.6, X[:, 0] % cards[1], X[:, 1])
    return X, y, list(cards), k


def test_nb_likelihoods_equal_categorical_nb_with_the_same_prior(car):
    X, y, cards, k = car
    nb = make_classifier("nb").fit(X, y, cardinalities=cards, n_classes=k)
    sk = CategoricalNB(alpha=1.0, min_categories=cards,
                       class_prior=np.exp(nb.class_log_prior_)).fit(X, y)
    joint = sk.predict_joint_log_proba(X)
    assert nb.log_likelihood(X, y) == pytest.approx(joint[np.arange(len(y)), y].sum(), rel=1e-12)
    assert nb.conditional_log_likelihood(X, y) == pytest.approx(
        -log_loss(y, sk.predict_proba(X), normalize=False), rel=1e-10)


def direct_tan_log_likelihood(X, y, parent_of, cards, k, alpha):
    """sum_i log p(c_i, x_i) with every probability counted from the rows by loops."""
    n = len(y)
    total = 0.0
    for i in range(n):
        c = y[i]
        total += math.log((np.sum(y == c) + alpha) / (n + alpha * k))
        for a, p in enumerate(parent_of):
            same = y == c
            if p is not None:
                same &= X[:, p] == X[i, p]
            num = np.sum(same & (X[:, a] == X[i, a])) + alpha
            total += math.log(num / (np.sum(same) + alpha * cards[a]))
    return total


def test_tan_log_likelihood_equals_direct_counting():
    X, y, cards, k = random_data(1, n=120)
    tan = make_classifier("tan", alpha=0.5).fit(X, y, cardinalities=cards, n_classes=k)
    parent_of = [None] * len(cards)
    for node in tan.structure_.nodes:
        parent_of[node.attributes[0]] = node.parents[0] if node.parents else None
    assert any(p is not None for p in parent_of)
    assert tan.log_likelihood(X, y) == pytest.approx(
        direct_tan_log_likelihood(X, y, parent_of, cards, k, 0.5), rel=1e-12)


def test_free_parameters_counted_by_hand(car):
    X, y, cards, k = car            # cards 4 4 4 3 3 3, four classes
    assert make_classifier("nb").fit(X, y,
                                     cardinalities=cards, n_classes=k).n_free_parameters() == \
        3 + 4 * (3 + 3 + 3 + 2 + 2 + 2)
    # Node (x0, x1) joined: 16 values; x2 with parent x0: 4 parent values; x3 alone.
    s = Structure((Node((0, 1)), Node((2,), (0,)), Node((3,))), 6)
    assert free_parameters(s, cards, 4) == 3 + 4 * 15 + 4 * 4 * 3 + 4 * 2
    tan = make_classifier("tan").fit(X, y, cardinalities=cards, n_classes=k)
    by_hand = 3 + sum(4 * (cards[nd.attributes[0]] - 1) *
                      (cards[nd.parents[0]] if nd.parents else 1) for nd in tan.structure_.nodes)
    assert tan.n_free_parameters() == by_hand


def test_aic_and_bic_follow_their_definitions(car):
    X, y, cards, k = car
    nb = make_classifier("nb").fit(X, y, cardinalities=cards, n_classes=k)
    ll, p, n = nb.log_likelihood(X, y), 63, len(y)
    assert nb.aic(X, y) == pytest.approx(2 * p - 2 * ll, rel=1e-14)
    assert nb.bic(X, y) == pytest.approx(p * math.log(n) - 2 * ll, rel=1e-14)


def direct_n_cmi(xi, xj, y):
    """N I(Xi; Xj | C) = sum n_cab log(n_cab n_c / (n_ca n_cb)), by dictionaries."""
    from collections import Counter
    cab, ca, cb, c = Counter(zip(y, xi, xj)), Counter(zip(y, xi)), Counter(zip(y, xj)), Counter(y)
    return sum(n * math.log(n * c[cc] / (ca[cc, a] * cb[cc, b])) for (cc, a, b), n in cab.items())


@pytest.mark.parametrize("score", ["loglik", "aic", "bic"])
def test_arc_scores_are_the_gain_in_penalised_log_likelihood(car, score):
    X, y, cards, k = car
    w = arc_score_matrix(X, y, cards, k, score)
    n = len(y)
    for i, j in combinations(range(len(cards)), 2):
        dof = (cards[i] - 1) * (cards[j] - 1) * k
        penalty = {"loglik": 0, "aic": dof, "bic": dof * math.log(n) / 2}[score]
        assert w[i, j] == w[j, i] == pytest.approx(direct_n_cmi(X[:, i], X[:, j], y) - penalty,
                                                   abs=1e-9)


@pytest.mark.parametrize("score", ["aic", "bic"])
def test_score_tan_is_the_maximum_forest_of_improving_arcs_and_improves_the_score(car, score):
    X, y, cards, k = car
    w = arc_score_matrix(X, y, cards, k, score)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(cards)))
    graph.add_weighted_edges_from((i, j, w[i, j]) for i, j in combinations(range(len(cards)), 2)
                                  if w[i, j] > 0)
    best = nx.maximum_spanning_tree(graph)      # a forest when the graph is disconnected
    # Maximum-likelihood tables (alpha 0): the score changes by exactly the arcs' gains.
    tan = make_classifier("tan", criterion=score, alpha=0).fit(X, y,
                                                               cardinalities=cards, n_classes=k)
    nb = make_classifier("nb", alpha=0).fit(X, y, cardinalities=cards, n_classes=k)
    arcs = {tuple(sorted(a)) for a in tan.structure_.arcs()}
    assert arcs == {tuple(sorted(e)) for e in best.edges()}
    gain = sum(w[i, j] for i, j in arcs)
    assert gain > 0 and len(arcs) < len(cards) - 1 if score == "aic" else len(arcs) == 0
    crit = getattr(tan, score)
    assert crit(X, y) == pytest.approx(getattr(nb, score)(X, y) - 2 * gain, rel=1e-10)


def test_loglik_tan_is_the_chow_liu_tree(car):
    X, y, cards, k = car
    a = make_classifier("tan", criterion="loglik").fit(X, y,
                                                       cardinalities=cards, n_classes=k).structure_
    b = make_classifier("tan").fit(X, y, cardinalities=cards, n_classes=k).structure_
    assert a.nodes == b.nodes and a.info["measure"] == "loglik"


def test_scores_name_unknown_classes_and_undefined_likelihoods(car):
    X, y, cards, k = car
    nb = make_classifier("nb").fit(X, y, cardinalities=cards, n_classes=k)
    with pytest.raises(ClassifierError, match="class 7"):
        nb.log_likelihood(X[:3], np.array([0, 1, 7]))
    weighted = make_classifier("nb", weights="wanbia").fit(X, y, cardinalities=cards, n_classes=k)
    with pytest.raises(ClassifierError, match="undefined with weights='wanbia'"):
        weighted.aic(X, y)
    assert np.isfinite(weighted.conditional_log_likelihood(X, y))


def test_model_scores_agree_with_categorical_nb_in_one_pass(car):
    # The one-pass result against scikit-learn (LL, CLL) and the definitions (k, AIC, BIC).
    X, y, cards, k = car
    nb = make_classifier("nb").fit(X, y, cardinalities=cards, n_classes=k)
    sk = CategoricalNB(alpha=1.0, min_categories=cards,
                       class_prior=np.exp(nb.class_log_prior_)).fit(X, y)
    ll = sk.predict_joint_log_proba(X)[np.arange(len(y)), y].sum()
    s = nb.model_scores(X, y)
    n_params = (k - 1) + sum((r - 1) * k for r in cards)
    assert s.log_likelihood == pytest.approx(ll, rel=1e-12)
    assert s.conditional_log_likelihood == pytest.approx(
        -log_loss(y, sk.predict_proba(X), normalize=False), rel=1e-10)
    assert s.n_free_parameters == n_params
    assert s.aic == pytest.approx(2 * n_params - 2 * ll, rel=1e-12)
    assert s.bic == pytest.approx(n_params * math.log(len(y)) - 2 * ll, rel=1e-12)


def test_model_scores_leave_the_likelihood_out_under_weights(car):
    X, y, cards, k = car
    weighted = make_classifier("nb", weights="wanbia").fit(
        X, y, cardinalities=cards, n_classes=k)
    s = weighted.model_scores(X, y)
    assert (s.log_likelihood, s.aic, s.bic) == (None, None, None)
    assert s.conditional_log_likelihood == pytest.approx(
        weighted.conditional_log_likelihood(X, y), rel=1e-12)
