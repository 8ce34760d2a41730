"""Model scores of a fitted discrete classifier: likelihoods, free parameters, AIC, BIC.

For an augmented naive Bayes with parameters ``theta`` and data ``D`` of ``N`` rows:

* log-likelihood ``LL = sum_i log p(c_i, x_i | theta)``;
* conditional log-likelihood ``CLL = sum_i log p(c_i | x_i, theta)`` (what a
  classifier is judged by; minus scikit-learn's unnormalised ``log_loss``);
* free parameters ``k = (r_C - 1) + sum_v (r_v - 1) q_v r_C``, ``r_v`` the
  number of values of node ``v`` (the product of its attributes' cardinalities
  for a joined node), ``q_v`` the number of configurations of its attribute
  parents, ``r_C`` the number of classes; in a general network the class's term is
  ``(r_C - 1) q_C`` (``q_C`` the configurations of its parents) and a node the class
  is not a parent of has ``(r_v - 1) q_v``;
* ``AIC = 2 k - 2 LL`` and ``BIC = k ln N - 2 LL`` (Akaike 1974; Schwarz
  1978), smaller is better, as R's ``stats::AIC`` and statsmodels define them.
  bnclassify's ``AIC`` and ``BIC`` are ``LL - k`` and ``LL - k ln N / 2``,
  i.e. ``-1/2`` times these: the same ranking of models.

A missing value follows the model's ``missing`` rule (see :mod:`.inference`): left out of
``log p(c, x)`` with its node (``skip``, the marginal likelihood of the observed values when
the node is a leaf), or summed out of the network (``exact``, the marginal likelihood).

AIC, BIC and the arc scores (what adding one arc between two attributes of a naive Bayes
changes in these scores) are pure functions of counts in
:mod:`bayesbench.measures.likelihood_scores`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...errors import ClassifierError
from ...measures.likelihood_scores import aic, bic
from .base import check_fitted, log_posterior
from .structure import Structure

def free_parameters(structure: Structure, cardinalities: Sequence[int], n_classes: int) -> int:
    """Free parameters of the class prior and of every node's table (see the module docstring)."""
    cards = [int(c) for c in cardinalities]
    total = (n_classes - 1) * math.prod(cards[p] for p in structure.class_parents)
    for node in structure.nodes:
        r_v = math.prod(cards[a] for a in node.attributes)
        q_v = math.prod(cards[p] for p in node.parents)
        total += (r_v - 1) * q_v * (n_classes if node.class_parent else 1)
    return int(total)


class ModelScores:
    """Scores of a fitted augmented naive Bayes, as methods (mixed into the estimator).

    Reads ``structure_``, ``cardinalities_``, ``classes_`` and, when attribute
    weights or discriminative parameters were learned, ``node_weights_`` or
    ``discriminative_``.
    """

    def _class_codes(self, y) -> np.ndarray:
        y = np.asarray(y)
        codes = np.searchsorted(self.classes_, y)
        codes = np.clip(codes, 0, len(self.classes_) - 1)
        unknown = self.classes_[codes] != y
        if unknown.any():
            known = ", ".join(str(c) for c in self.classes_.tolist())
            raise ClassifierError(f"y holds class {y[np.argmax(unknown)].tolist()!r}, which "
                                  f"was not seen at fit (classes: {known})")
        return codes

    def _log_joint(self, X) -> np.ndarray:
        """``log p(c, x)`` of every row and class, as the likelihoods need it: the
        ``_joint_log_likelihood`` of predictions, unless a learner's leaves out terms that
        are the same for every class (``bayesnet``'s Markov blanket) and adds them here."""
        return self._joint_log_likelihood(X)

    def _rows(self, X, y) -> tuple[np.ndarray, np.ndarray]:
        check_fitted(self)
        codes = self._class_codes(y)
        jll = self._log_joint(X)
        if jll.shape[0] != codes.shape[0]:
            raise ClassifierError(f"X has {jll.shape[0]} rows but y has {codes.shape[0]}")
        return jll, codes

    def _unnormalised(self) -> str | None:
        """What makes ``p(c, x)`` an unnormalised score (attribute weights, or the weighted
        cells of ``estimator='cll'``), as the parameter says it; None when nothing does."""
        if getattr(self, "node_weights_", None) is not None:
            return f"weights={self.weights!r}"
        if getattr(self, "discriminative_", None) is not None:
            return "estimator='cll'"
        return None

    def log_likelihood(self, X, y) -> float:
        """``sum_i log p(c_i, x_i)`` under the fitted parameters.

        Attribute weights (``weights='awnb'`` or ``'wanbia'``) and the weighted cells of
        ``estimator='cll'`` make ``p(c, x)`` an unnormalised score, so there it is a
        ClassifierError; the conditional log-likelihood stays defined.
        """
        reason = self._unnormalised()
        if reason is not None:
            raise ClassifierError(
                f"the log-likelihood is undefined with {reason}: weighted "
                "tables do not give a normalised p(c, x); use conditional_log_likelihood")
        jll, codes = self._rows(X, y)
        return float(np.sum(jll[np.arange(codes.size), codes]))

    def conditional_log_likelihood(self, X, y) -> float:
        """``sum_i log p(c_i | x_i)``, the posterior of each row's own class."""
        check_fitted(self)
        codes = self._class_codes(y)
        log_post = self.predict_log_proba(X)
        if log_post.shape[0] != codes.shape[0]:
            raise ClassifierError(f"X has {log_post.shape[0]} rows but y has {codes.shape[0]}")
        return float(np.sum(log_post[np.arange(codes.size), codes]))

    def n_free_parameters(self) -> int:
        """Free parameters of the class prior and the tables (attribute weights not counted)."""
        check_fitted(self)
        return free_parameters(self.structure_, self.cardinalities_, len(self.classes_))

    def aic(self, X, y) -> float:
        """Akaike's information criterion ``2 k - 2 LL`` on ``(X, y)``; smaller is better."""
        return aic(self.log_likelihood(X, y), self.n_free_parameters())

    def bic(self, X, y) -> float:
        """Schwarz's Bayesian information criterion ``k ln N - 2 LL``, ``N`` rows of ``X``."""
        ll = self.log_likelihood(X, y)
        return bic(ll, self.n_free_parameters(), len(self._class_codes(y)))

    def model_scores(self, X, y) -> Scores:
        """Every score on ``(X, y)`` from one pass of inference.

        ``log_likelihood``, ``aic`` and ``bic`` are None under attribute weights or
        ``estimator='cll'`` (see :meth:`log_likelihood`); the conditional log-likelihood
        stays defined.

        Examples
        --------
        >>> import numpy as np
        >>> from bayesbench.models import NaiveBayes
        >>> X = np.array([[0, 0], [0, 1], [1, 1], [1, 1]]); y = np.array([0, 0, 1, 1])
        >>> s = NaiveBayes().fit(X, y).model_scores(X, y)
        >>> s.n_free_parameters, round(s.aic - (2 * 5 - 2 * s.log_likelihood), 12)
        (5, 0.0)
        """
        jll, codes = self._rows(X, y)
        rows = np.arange(codes.size)
        cll = float(log_posterior(jll)[rows, codes].sum())
        k = self.n_free_parameters()
        ll = None if self._unnormalised() is not None else float(jll[rows, codes].sum())
        return Scores(log_likelihood=ll, conditional_log_likelihood=cll,
                      n_free_parameters=k, aic=None if ll is None else aic(ll, k),
                      bic=None if ll is None or codes.size == 0 else bic(ll, k, codes.size))

@dataclass(frozen=True)
class Scores:
    """The scores of :meth:`ModelScores.model_scores` (see the module docstring)."""

    log_likelihood: float | None
    conditional_log_likelihood: float
    n_free_parameters: int
    aic: float | None
    bic: float | None
