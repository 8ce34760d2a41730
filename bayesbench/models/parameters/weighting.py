"""Parameter learning beyond additive smoothing: AWNB, MANB and WANBIA, for any ANB structure.

Every discrete learner takes ``weights=`` one of :data:`WEIGHTS`; after its
structure and smoothed tables are learned, :func:`learn_weights` changes how
the nodes enter ``log p(c, x)``:

* ``"awnb"``, attribute-weighted naive Bayes (Hall 2007): ``M`` unpruned
  decision trees (:mod:`.decision_tree`) are grown on bootstrap samples of
  ``share`` of the rows; attribute ``i`` gets
  ``w_i = (1/M) sum_t 1 / sqrt(d_it)``, ``d_it`` the depth (root 1) at which
  tree ``t`` first tests it (a tree that never tests it adds 0), and

      log p(c, x) = log p(c) + sum_v w_v log p(x_v | x_pa(v), c).

  A node holding several attributes takes the largest of their weights.
  Defaults ``M = 10``, ``share = 0.5`` are Hall's and bnclassify's.
* ``"manb"``, model-averaged naive Bayes (Dash and Cooper 2002): the Bayesian
  average over the ``2^n`` models in which each node does or does not depend
  on the class, with Dirichlet(``alpha``) priors on every table and an
  independent prior ``rho = 0.5`` on each class arc. The posterior of the
  class arc of node ``v`` is

      q_v = rho P(D_v | C -> v) / (rho P(D_v | C -> v) + (1 - rho) P(D_v | no arc)),
      P(D_v | C -> v) = prod_{pa, c} G(r a) / G(r a + N_pa,c) prod_x G(a + N_pa,c,x) / G(a),
      P(D_v | no arc) = prod_pa G(r a) / G(r a + N_pa) prod_x G(a + N_pa,x) / G(a),

  (``G`` the gamma function, ``r`` the node's values, ``a = alpha``), and the
  average over all the models factorises node by node into one table:

      p(x_v | pa, c) = q_v (N_pa,c,x + a) / (N_pa,c + r a) + (1 - q_v) (N_pa,x + a) / (N_pa + r a).

  Dash and Cooper state it for naive Bayes (no attribute parents); with
  parents the same holds per parent configuration, the rest of the structure
  fixed. bnclassify restricts MANB to naive Bayes.
* ``"wanbia"``, weighted naive Bayes (Zaidi, Cerquides, Carman and Webb
  2013): per-node weights ``w_v in [0, 1]`` (the tables fixed at their
  smoothed estimates) that maximise the conditional log-likelihood of the
  training data ``sum_i log p_w(c_i | x_i)``, found by L-BFGS-B from
  ``w = 1`` (as the paper and bnclassify do) and refined by projected Newton
  steps until the projected gradient vanishes, so that the result does not
  depend on L-BFGS-B's stopping tolerance. The objective is concave in ``w``.

With weights, ``p(c, x)`` is no longer normalised, so only posteriors and the
conditional log-likelihood are meaningful (see :mod:`~bayesbench.models.core.scores`). bnclassify
instead renormalises each weighted table over the node's values, which is a
different model from Hall's and Zaidi's.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln, logsumexp

from ...errors import ClassifierError
from ..core.counting import log_table, unseen_log_prob
from .decision_tree import first_test_depths, grow_tree
from ..core.inference import node_log_probs
from ..core.structure import Structure
from ..core.constraints import StrOptions

#: The values of every discrete learner's ``weights`` parameter (besides None).
WEIGHTS = ("awnb", "manb", "wanbia")
#: The constraint on ``weights``, shared by every learner that takes it.
WEIGHTS_CONSTRAINT = [None, StrOptions(WEIGHTS)]
#: AWNB: trees and the share of the rows in each bootstrap sample (Hall 2007).
AWNB_TREES = 10
AWNB_SHARE = 0.5
#: MANB: prior probability of each class arc (Dash and Cooper 2002; bnclassify's default).
MANB_PRIOR = 0.5
#: WANBIA's Newton refinement stops when the largest projected gradient is this small.
WANBIA_GTOL = 1e-11


@dataclass(frozen=True)
class LearnedWeights:
    """What :func:`learn_weights` learned, for the estimator to use at prediction.

    ``node_weights`` (awnb, wanbia; None for manb) are the exponents of the
    nodes; ``tables`` and ``unseen`` the log tables to predict with (MANB's
    averaged ones, else the smoothed ones unchanged). ``attribute_weights``
    (awnb: one per attribute) and ``arc_posteriors`` (manb: one per node) are
    kept for inspection.
    """

    method: str
    tables: list
    unseen: list
    node_weights: np.ndarray | None = None
    attribute_weights: np.ndarray | None = None
    arc_posteriors: np.ndarray | None = None


def awnb_attribute_weights(X, y, cardinalities, n_classes: int, rng: np.random.Generator,
                           trees: int = AWNB_TREES, share: float = AWNB_SHARE) -> np.ndarray:
    """Hall's weight of each attribute (see the module docstring), shape ``(m,)``.

    Each bootstrap sample draws ``max(1, floor(share * n))`` rows with
    replacement from ``rng``.
    """
    n, m = X.shape
    size = max(1, int(share * n))
    total = np.zeros(m)
    for _ in range(trees):
        rows = rng.integers(0, n, size)
        depths = first_test_depths(grow_tree(X[rows], y[rows], cardinalities, n_classes), m)
        total += np.where(np.isfinite(depths), 1.0 / np.sqrt(depths), 0.0)
    return total / trees


def manb_arc_posterior(counts: np.ndarray, alpha: float, prior: float = MANB_PRIOR) -> float:
    """Posterior probability that the node of ``counts`` ``(n_classes, n_pa, r)`` depends on C."""
    r = counts.shape[-1]
    by_parent = counts.sum(axis=0)

    def log_marginal(n):  # sum over the leading axes of the Dirichlet-multinomial evidence
        return float(np.sum(gammaln(r * alpha) - gammaln(r * alpha + n.sum(axis=-1)))
                     + np.sum(gammaln(alpha + n) - gammaln(alpha)))

    with_arc = np.log(prior) + log_marginal(counts)
    without = np.log1p(-prior) + log_marginal(by_parent)
    return float(np.exp(with_arc - np.logaddexp(with_arc, without)))


def manb_tables(counts: np.ndarray, alpha: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """MANB's averaged log table and unseen-value log probabilities for one node."""
    by_parent = counts.sum(axis=0, keepdims=True)
    with_arc, without = log_table(counts, alpha), log_table(by_parent, alpha)
    unseen_arc, unseen_without = unseen_log_prob(counts, alpha), unseen_log_prob(by_parent, alpha)
    with np.errstate(divide="ignore"):
        log_q, log_not_q = np.log(q), np.log1p(-q)
    table = np.logaddexp(log_q + with_arc, log_not_q + without)
    unseen = np.logaddexp(log_q + unseen_arc, log_not_q + unseen_without)
    return table, unseen


def _wanbia_objective(terms: np.ndarray, log_prior: np.ndarray, y: np.ndarray):
    """Negative CLL, its gradient and Hessian in the node weights.

    ``terms`` has shape ``(n_nodes, n, n_classes)``: ``log p(x_v | x_pa(v), c)``.
    """
    rows = np.arange(y.size)
    own = terms[:, rows, y]                                   # (V, n)

    def evaluate(w, hessian=False):
        jll = log_prior[None, :] + np.tensordot(w, terms, axes=1)
        norm = logsumexp(jll, axis=1)
        post = np.exp(jll - norm[:, None])                     # (n, k)
        expected = np.einsum("vnc,nc->vn", terms, post)        # (V, n)
        value = -float(np.sum(jll[rows, y] - norm))
        grad = -np.sum(own - expected, axis=1)
        if not hessian:
            return value, grad
        second = np.einsum("unc,vnc,nc->uv", terms, terms, post)
        return value, grad, second - expected @ expected.T
    return evaluate


def _projected_gradient(w, grad):
    blocked = ((w <= 0) & (grad > 0)) | ((w >= 1) & (grad < 0))
    return np.where(blocked, 0.0, grad)


def _newton_polish(w, evaluate, max_steps: int = 100):
    """Projected Newton steps on the free weights until the projected gradient vanishes."""
    for _ in range(max_steps):
        value, grad, hess = evaluate(w, hessian=True)
        projected = _projected_gradient(w, grad)
        if np.max(np.abs(projected), initial=0.0) <= WANBIA_GTOL:
            break
        free = projected != 0
        step = np.zeros_like(w)
        step[free] = -np.linalg.lstsq(hess[np.ix_(free, free)], grad[free], rcond=None)[0]
        size = 1.0
        while size > 1e-12:
            trial = np.clip(w + size * step, 0.0, 1.0)
            if evaluate(trial)[0] <= value + 1e-4 * grad @ (trial - w):
                break
            size /= 2
        else:
            break
        if np.array_equal(trial, w):
            break
        w = trial
    return w


def wanbia_weights(terms: np.ndarray, log_prior: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Node weights in ``[0, 1]`` maximising ``sum_i log p_w(c_i | x_i)`` (see the module docstring)."""
    n_nodes = terms.shape[0]
    if n_nodes == 0:
        return np.zeros(0)
    from scipy.optimize import minimize  # lazy: 0.15 s at import, for every discrete learner

    evaluate = _wanbia_objective(terms, log_prior, y)
    result = minimize(evaluate, np.ones(n_nodes), jac=True, method="L-BFGS-B",
                      bounds=[(0.0, 1.0)] * n_nodes)
    return _newton_polish(np.clip(result.x, 0.0, 1.0), evaluate)


@dataclass(frozen=True)
class Smoothed:
    """A fitted structure with the estimator's per-node raw ``counts``, smoothed log
    ``tables`` (and their entries for ``unseen`` values) and the class ``log_prior``: what
    a weighting starts from."""

    structure: Structure
    counts: list
    tables: list
    unseen: list
    log_prior: np.ndarray


def learn_weights(method: str, smoothed: Smoothed, X: np.ndarray, y: np.ndarray,
                  cardinalities, alpha: float, rng: np.random.Generator) -> LearnedWeights:
    """Learn ``method``'s weights or tables for a fitted structure (see the module docstring).

    ``X``, ``y`` are the estimator's training codes; ``rng`` draws AWNB's bootstrap samples.
    """
    structure, counts, tables, unseen = (smoothed.structure, smoothed.counts, smoothed.tables,
                                         smoothed.unseen)
    log_prior, n_classes = smoothed.log_prior, len(smoothed.log_prior)
    if method not in WEIGHTS:
        raise ClassifierError(f"weights must be None or one of {', '.join(WEIGHTS)}, "
                              f"got {method!r}")
    if method in ("manb", "wanbia") and not alpha > 0:
        # Named as the parameter at fault, so that the config layer can point at it.
        raise ClassifierError(f"weights={method!r} needs alpha > 0 (got {alpha}): "
                              + ("it is the Dirichlet prior of the tables" if method == "manb"
                                 else "with alpha = 0 a table holds log 0 and the "
                                      "conditional log-likelihood has no gradient"),
                              parameter="alpha")
    if method == "awnb":
        attribute = awnb_attribute_weights(X, y, cardinalities, n_classes, rng)
        node = np.array([max(attribute[a] for a in nd.attributes) for nd in structure.nodes])
        return LearnedWeights(method, tables, unseen, node_weights=node,
                              attribute_weights=attribute)
    if method == "manb":
        q = np.array([manb_arc_posterior(c, alpha) for c in counts])
        averaged = [manb_tables(c, alpha, qv) for c, qv in zip(counts, q)]
        return LearnedWeights(method, [t for t, _ in averaged], [u for _, u in averaged],
                              arc_posteriors=q)
    terms = np.array(list(node_log_probs(structure, tables, X, cardinalities)))
    terms = terms.reshape(len(structure.nodes), X.shape[0], n_classes)
    return LearnedWeights(method, tables, unseen,
                          node_weights=wanbia_weights(terms, log_prior, np.asarray(y)))
