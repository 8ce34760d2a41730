"""Discriminative parameters of an augmented naive Bayes: WANBIA-C (naive Bayes) and ALR.

Zaidi, Carman, Cerquides and Webb (2014), "Naive-Bayes inspired effective pre-conditioner
for speeding-up logistic regression", ICDM 2014, 1097-1102 (WANBIA-C); Zaidi, Webb, Carman,
Petitjean, Buntine, Hynes and De Sterck (2017), "Efficient parameter learning of Bayesian
network classifiers", Machine Learning 106, 1289-1329 (ALR, for any structure).

Every cell of every table, and every class's prior, gets a weight that multiplies its
generative log-probability (the tables smoothed with ``alpha``), and the weights maximise
the training data's conditional log-likelihood::

    s_c(x)     = w_c log p(c) + sum_v w_{v,c,u_v(x)} log p_v(u_v(x) | c)
    P_w(c | x) = exp s_c(x) / sum_c' exp s_c'(x)
    f(w)       = - sum_i log P_w(y_i | x_i) + l2 / 2 sum w^2
    df/dw_{v,c,u} = log p_v(u | c) sum_i [u_v(x_i) = u] (P_w(c | x_i) - [y_i = c]) + l2 w_{v,c,u}

``u_v(x)`` is the cell of node ``v``'s table that ``x`` reads (its parents' configuration
and its value), ``[.]`` is 1 when true; a node whose value or parent is missing in a row
adds nothing to that row. The model is multinomial logistic regression on the one-hot
coding of every node's cells (each attribute's value crossed with its parents' values) with
an intercept, ``beta = w log p`` reparameterising its coefficients: the log-probabilities
scale each coordinate, a diagonal pre-conditioner, which the papers report makes
quasi-Newton steps converge in fewer iterations (``benchmarks/bench_seminaive.py`` counts
both sides' iterations). With ``l2 = 0`` the optimum's posteriors are logistic regression's
(on the training rows; a cell no training row reads keeps its weight 1, where unregularised
logistic regression keeps its coefficient 0); ``l2 > 0`` pulls the weights towards 0, which
is a ridge penalty on ``beta`` scaled by ``1 / (log p)^2`` per coefficient.

L-BFGS (``scipy.optimize.minimize(method="L-BFGS-B")``, no bounds) starts from ``w = 1``,
the generative model, and accepts only steps that decrease ``f``, so with ``l2 = 0`` the
conditional log-likelihood it ends with is never below the generative one. It minimises
``f / N`` (``N`` training rows) and stops after ``max_iter`` iterations or when the largest
component of the gradient of ``f / N`` is at most ``tol`` (scikit-learn's
``LogisticRegression`` stops on the gradient in its coefficients ``beta``; the gradient in
``w`` is ``log p`` times it, so one ``tol`` is not one stopping point on both sides).
Deterministic: the same data give the same weights, bit for bit.

The value and the gradient are vectorised per node: each row's cell in the node's table
(:func:`~bayesbench.models.core.inference.flat_terms`), the scores one ``take`` per node
and class, the gradient one ``np.bincount`` per node and class over the same cells (the
last class's sums are minus the others', the residuals of a row summing to 0).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.inference import flat_terms
from ..core.structure import Structure
from .smoothing import Laplace


@dataclass(frozen=True)
class Discriminative:
    """What :meth:`ConditionalLikelihood.refine` learned.

    ``tables`` and ``log_prior`` are the weighted terms ``w log p`` (the tables' shapes), to
    predict with; ``weights`` and ``prior_weights`` the weights themselves;
    ``initial_cll`` and ``final_cll`` the training conditional log-likelihood of the
    generative parameters and of the learned ones; ``n_iter`` L-BFGS's iterations,
    ``converged`` whether it met ``tol`` before ``max_iter`` (and its ``message``).
    """

    tables: list
    log_prior: np.ndarray
    weights: list
    prior_weights: np.ndarray
    initial_cll: float
    final_cll: float
    n_iter: int
    converged: bool
    message: str


class _Objective:
    """``f(w) / N`` and its gradient in the weights, the value and gradient of every node
    computed from its own table (classes first, a zero column appended: the term of a row
    that leaves the node out) and each row's cell in it."""

    def __init__(self, tables, log_prior, cells, y, l2):
        self.tables = [np.concatenate([t.reshape(t.shape[0], -1), np.zeros((t.shape[0], 1))],
                                      axis=1) for t in tables]
        self.log_prior = np.asarray(log_prior, dtype=np.float64)
        self.cells, self.y = cells, np.asarray(y, dtype=np.intp)
        self.k, self.n = self.log_prior.size, self.y.size
        self.sizes = [t.shape[1] - 1 for t in self.tables]
        self.ends = np.cumsum([0] + [self.k * s for s in self.sizes]) + self.k
        self.rows = np.arange(self.n)
        self.l2 = float(l2)

    def weighted(self, x):
        """``w log p`` of the prior and of every node (with its zero column), from ``x``:
        the prior's weights first, then each node's, classes first."""
        prior = x[:self.k] * self.log_prior
        nodes = []
        for t, size, lo in zip(self.tables, self.sizes, self.ends[:-1]):
            w = t.copy()
            w[:, :size] *= x[lo:lo + self.k * size].reshape(self.k, size)
            nodes.append(w)
        return prior, nodes

    def scores(self, prior, nodes) -> np.ndarray:
        """``s_c(x_i)``, classes first: ``(K, N)``."""
        out = np.empty((self.k, self.n))
        out[:] = prior[:, None]
        for table, cells in zip(nodes, self.cells):
            for c in range(self.k):
                out[c] += table[c].take(cells)
        return out

    def __call__(self, x):
        scores = self.scores(*self.weighted(x))
        top = scores.max(axis=0)
        posterior = np.exp(scores - top)
        norm = posterior.sum(axis=0)
        value = -float(np.sum(scores[self.y, self.rows] - top - np.log(norm)))
        # P_w(c | x_i) - [y_i = c]: what every cell the row reads collects.
        posterior /= norm
        posterior[self.y, self.rows] -= 1.0
        gradient = np.empty_like(x)
        gradient[:self.k] = posterior.sum(axis=1) * self.log_prior
        last = self.k - 1
        for t, size, lo, cells in zip(self.tables, self.sizes, self.ends[:-1], self.cells):
            sums = np.empty((self.k, size))
            for c in range(last):
                sums[c] = np.bincount(cells, weights=posterior[c], minlength=size + 1)[:size]
            # A row's residuals sum to 0 over the classes, so the last class's cell sums are
            # minus the others': one bincount less per node.
            sums[last] = -sums[:last].sum(axis=0)
            gradient[lo:lo + self.k * size] = (sums * t[:, :size]).ravel()
        value += 0.5 * self.l2 * float(x @ x)
        gradient += self.l2 * x
        return value / self.n, gradient / self.n


def conditional_log_likelihood(scores: np.ndarray, y: np.ndarray) -> float:
    """``sum_i log P(y_i | x_i)`` of the scores ``s_c(x_i)``, classes first ``(K, N)``."""
    top = scores.max(axis=0)
    norm = np.log(np.exp(scores - top).sum(axis=0)) + top
    return float(np.sum(scores[y, np.arange(y.size)] - norm))


def node_cells(structure: Structure, tables, X: np.ndarray) -> list:
    """For each node, the cell of its table each row of ``X`` reads (parent configuration
    major), or the table's size where the row leaves the node out."""
    _, index = flat_terms(structure, tables, np.zeros(tables[0].shape[0] if tables else 0), X)
    out, base = [], 0
    for row, t in zip(index[1:], tables):
        size = t.shape[1] * t.shape[2]
        local = row - base
        # Rows past the node's segment are the zero row's (a left-out term).
        np.minimum(local, size, out=local)
        out.append(local)
        base += size
    return out


class ConditionalLikelihood(Laplace):
    """The ``cll`` estimator: the tables of additive smoothing with the learner's ``alpha``
    (:meth:`node_tables`, as ``laplace``), then their cells weighed to maximise the training
    rows' conditional log-likelihood (:meth:`refine`), with the learner's ``l2``,
    ``max_iter`` and ``tol``."""

    name = "cll"
    summary = ("the smoothed tables' cells weighed to maximise the training rows' conditional "
               "log-likelihood (WANBIA-C, ALR)")
    needs_rows = True
    settings = ("l2", "max_iter", "tol")

    def __init__(self, *, l2: float = 0.0, max_iter: int = 1000, tol: float = 1e-4,
                 rng=None):
        super().__init__(rng=rng)
        self.l2, self.max_iter, self.tol = float(l2), int(max_iter), float(tol)

    def refine(self, structure: Structure, tables, log_prior, X: np.ndarray,
               y: np.ndarray) -> Discriminative:
        """The weights maximising the conditional log-likelihood of ``(X, y)`` (codes, ``-1``
        missing) under ``structure`` (with its cardinalities), pre-conditioned by the
        generative log tables ``tables`` (finite: smoothed) and ``log_prior``; see the
        module docstring."""
        from scipy.optimize import minimize  # lazy: 0.15 s at import, for every discrete learner

        y = np.asarray(y, dtype=np.intp)
        objective = _Objective(tables, log_prior, node_cells(structure, tables, X), y, self.l2)
        start = np.ones(int(objective.ends[-1]))
        initial = conditional_log_likelihood(objective.scores(*objective.weighted(start)), y)
        result = minimize(objective, start, jac=True, method="L-BFGS-B",
                          options={"maxiter": self.max_iter, "gtol": self.tol,
                                   # scikit-learn's: stop on the gradient, not on small steps
                                   "ftol": 64 * np.finfo(float).eps, "maxls": 50})
        prior, nodes = objective.weighted(result.x)
        final = conditional_log_likelihood(objective.scores(prior, nodes), y)
        weights = [result.x[lo:lo + t.size].reshape(t.shape)
                   for t, lo in zip(tables, objective.ends[:-1])]
        return Discriminative(
            tables=[w[:, :-1].reshape(t.shape) for w, t in zip(nodes, tables)],
            log_prior=prior, weights=weights, prior_weights=result.x[:objective.k].copy(),
            initial_cll=initial, final_cll=final, n_iter=int(result.nit),
            converged=bool(result.success), message=str(result.message))
