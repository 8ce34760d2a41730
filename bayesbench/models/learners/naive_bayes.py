"""Discrete naive Bayes, in the four modes of paper 004 (plain or log arithmetic,
with or without additive smoothing)."""
from __future__ import annotations

from .anb import AugmentedNaiveBayes, StatisticsANB
from ..core.constraints import StrOptions
from ..core.counting import log_table, unseen_log_prob
from ..parameters.estimators import ESTIMATOR_PARAMETERS, EstimatorChoice
from ..core.structure import Structure


class NaiveBayes(EstimatorChoice, StatisticsANB):
    """Naive Bayes over discrete attributes.

    ``p(c | x) ∝ p(c) prod_i p(x_i | c)``, every table estimated with additive
    smoothing ``(N(c, x_i) + alpha) / (N(c) + alpha r_i)`` (the prior likewise).
    A missing value (``-1``) is skipped: not counted in training, left out of
    the product at prediction (as Weka's NaiveBayes does).

    Parameters
    ----------
    alpha : float, default 1.0
        Pseudo-count per cell; 1 is Laplace's correction. With 0 (maximum
        likelihood) a value never seen with a class in training makes that
        class impossible for an example holding it; when every class is
        impossible the posterior is uniform.
    log : bool, default True
        Sum log-probabilities (``True``) or multiply plain probabilities
        (``False``). Both give the same predictions while the plain product
        does not underflow; with many attributes it does, and then every class
        gets probability 0 and the posterior falls back to uniform (paper 004
        shows this failure).
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        See :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    missing : {'skip', 'exact'}, default 'skip'
        How a missing value is treated at prediction; see
        :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    width : {'values', 'classes'}, default 'values'
        What ``alpha`` is multiplied by in a conditional table's denominator: the
        attribute's number of values ``r_i`` (a distribution), or, as paper 004's Laplace
        correction (sec. 3.2, ``V_k``), the number of classes, which sums to 1 only when the
        two are equal. The class prior keeps ``r`` = the number of classes either way. With
        ``estimator="laplace"`` only (the other estimators have their own denominators).
    estimator, iterations, tying, random_state, l2, max_iter, tol
        The parameter estimator (``laplace``, ``m``, ``hdp`` or ``cll``) and its settings:
        see :class:`~bayesbench.models.learners.anb.AugmentedNaiveBayes`.
    """

    # "boolean": a string such as "no" is truthy and would silently mean log=True.
    _parameter_constraints = {**AugmentedNaiveBayes._parameter_constraints, **ESTIMATOR_PARAMETERS,
                              "log": ["boolean"],
                              "width": [StrOptions({"values", "classes"})]}

    def __init__(self, *, alpha: float = 1.0, log: bool = True, weights=None,
                 estimator: str = "laplace", iterations: int = 1000,
                 tying: str = "level", random_state=None, width: str = "values",
                 missing: str = "skip", l2: float = 0.0, max_iter: int = 1000,
                 tol: float = 1e-4):
        self.alpha = alpha
        self.log = log
        self.weights = weights
        self.estimator, self.iterations = estimator, iterations
        self.tying, self.random_state = tying, random_state
        self.width = width
        self.missing = missing
        self.l2, self.max_iter, self.tol = l2, max_iter, tol

    def _set_tables(self, class_count):
        super()._set_tables(class_count)
        # width applies to additive smoothing (paper 004's Laplace correction) alone.
        if self.width == "classes" and self.estimator == "laplace":
            k, alpha = len(class_count), float(self.alpha)
            self.tables_ = [log_table(c, alpha, width=k) for c in self.counts_]
            self.unseen_ = [unseen_log_prob(c, alpha, width=k) for c in self.counts_]

    def _learn_structure(self, X, y, cardinalities, n_classes):
        return Structure.naive(X.shape[1], info={"learner": "nb"})

    def _statistics_structure(self, stats):
        return Structure.naive(stats.n_attributes, info={"learner": "nb"})

    def _joint_log_likelihood(self, X, plain: bool = False):
        return super()._joint_log_likelihood(X, plain=not self.log)
