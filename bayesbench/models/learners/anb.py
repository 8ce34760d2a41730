"""The augmented naive Bayes estimator that every discrete structure learner extends.

A subclass only learns a structure (``_learn_structure``); fitting the tables
(:mod:`~bayesbench.models.core.counting`) and predicting (:mod:`~bayesbench.models.core.inference`) are shared.
"""
from __future__ import annotations

from dataclasses import replace
from numbers import Real

import numpy as np

from ..core import export
from ...errors import ClassifierError
from ..core.base import BaseClassifier, StructureLearner, check_fitted, fresh_fit
from ..core.counting import counts, log_table, unseen_log_prob
from ..core.inference import joint_log_likelihood
from ..core.input_checks import check_discrete_predict_X, start_discrete_fit
from ..core.scores import ModelScores
from ..core.sufficient import StatisticsLearner, StatisticsNotSufficient
from ..core.structure import Structure
from ..core.constraints import Interval, parameter_error
from ..parameters.cll import cll_parameters
from ..parameters.estimators import class_log_prior, node_tables
from ..parameters.weighting import WEIGHTS_CONSTRAINT, learn_weights


class AugmentedNaiveBayes(ModelScores, StructureLearner, BaseClassifier):
    """Augmented naive Bayes over discrete attributes; subclasses learn the structure.

    The model is ``p(c, x) = p(c) prod_v p(x_v | x_pa(v), c)`` over the nodes of
    :attr:`structure_`. Every table, and the class prior, is estimated with
    additive smoothing::

        p(v | pa, c) = (N(c, pa, v) + alpha) / (N(c, pa) + alpha * r_v)

    Missing values (code ``-1``) are left out: of the counts of the node they
    occur in (or parent), and of the product at prediction. A value never seen
    in training gets the smoothed probability of a zero count.

    Parameters
    ----------
    alpha : float, default 1.0
        Additive (Laplace for 1, Lidstone otherwise) pseudo-count per table
        cell; 0 gives maximum-likelihood estimates, with which a value never
        seen with a class makes that class impossible.
    weights : {None, 'awnb', 'manb', 'wanbia'}, default None
        Parameter learning beyond smoothing, for every structure (Hall's
        attribute weights, Dash and Cooper's model averaging, Zaidi et al.'s
        CLL-optimal weights; see :mod:`~bayesbench.models.parameters.weighting`).
    estimator : {'laplace', 'm', 'hdp', 'cll'}, default 'laplace'
        On the learners that take it (``nb``, ``tan``, ``kdb``): ``laplace`` is the
        smoothing with ``alpha`` above; ``m`` and ``hdp`` back a configuration off to its
        parents' prefix (:mod:`~bayesbench.models.parameters.estimators`), with HDP's
        ``iterations``, ``tying`` and ``random_state`` (HDP's seed; None: 0, and the
        runner gives an HDP fit the task's seed); ``cll`` weighs every cell of the
        ``laplace`` tables to maximise the training data's conditional log-likelihood
        (WANBIA-C for naive Bayes, ALR for the others;
        :mod:`~bayesbench.models.parameters.cll`), with the penalty ``l2`` and L-BFGS's
        ``max_iter`` and ``tol``; it needs ``alpha > 0`` and no ``weights``. Each
        estimator's settings are read by that estimator alone.

    Attributes
    ----------
    classes_ : ndarray
    cardinalities_ : ndarray of int64
    structure_ : Structure
    counts_ : list of ndarray
        Raw counts per node, shape ``(n_classes, n_parent_configs, n_values)``.
    tables_ : list of ndarray
        Log-probability tables, same shapes.
    class_log_prior_ : ndarray of shape (n_classes,)
    categories_ : list or None
        For a DataFrame fitted with categorical columns, each column's
        categories (None for an integer column); prediction maps a frame's
        values onto them, a value outside them being unseen. None for an array.
    node_weights_ : ndarray or None
        The exponent of each node (``weights`` awnb or wanbia), else None.
    weighting_ : LearnedWeights or None
        What ``weights`` learned (attribute weights, MANB's arc posteriors).
    n_iter_ : int
        The parameter estimator's iterations (scikit-learn's attribute of a learner with
        ``max_iter``): L-BFGS's with ``cll``, the sampler's sweeps with ``hdp``, 1 (one
        pass over the counts) with ``laplace`` and ``m``.
    discriminative_ : Discriminative or None
        With ``estimator="cll"``: the weights of every cell and class, the training
        conditional log-likelihood before and after, L-BFGS's iterations and whether it
        converged (:class:`~bayesbench.models.parameters.cll.Discriminative`); ``tables_``
        and ``class_log_prior_`` then hold the weighted terms ``w log p``, which are no
        probabilities. Else None.

    Model scores (log-likelihood, conditional log-likelihood, free parameters,
    AIC, BIC) are methods, from :class:`~bayesbench.models.core.scores.ModelScores`.
    """

    input_kind = "discrete"
    _parameter_constraints = {"alpha": [Interval(Real, 0, None, closed="left")],
                              "weights": WEIGHTS_CONSTRAINT}
    # For subclasses whose __init__ does not take ``weights``: they learn no weights; nor
    # ``estimator`` and its settings: additive smoothing with ``alpha``.
    weights = None
    estimator, iterations, tying = "laplace", 1000, "level"
    l2, max_iter, tol = 0.0, 1000, 1e-4

    def __init__(self, *, alpha: float = 1.0, weights=None):
        self.alpha = alpha
        self.weights = weights

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        raise NotImplementedError

    def _place(self, structure: Structure, cards, names) -> Structure:
        """``structure`` with the data's cardinalities and (unless it has its own) names."""
        structure = replace(structure, cardinalities=tuple(int(c) for c in cards),
                            attribute_names=structure.attribute_names or names)
        self.structure_ = structure
        return structure

    def _set_tables(self, class_count):
        """The tables and class prior from ``counts_`` and the class counts: smoothed with
        ``alpha`` (``estimator="laplace"``), or by the ``m`` or ``hdp`` estimator
        (:mod:`~bayesbench.models.parameters.estimators`, ``alpha`` then unused)."""
        alpha = float(self.alpha)
        self.class_count_ = np.asarray(class_count, dtype=np.float64)
        self.node_weights_ = self.weighting_ = self.discriminative_ = None
        self.n_iter_ = int(self.iterations) if self.estimator == "hdp" else 1
        # cll starts from the smoothed tables (fit then weighs them: it needs the rows).
        if self.estimator in ("laplace", "cll"):
            self.tables_ = [log_table(c, alpha) for c in self.counts_]
            self.unseen_ = [unseen_log_prob(c, alpha) for c in self.counts_]
            self.class_log_prior_ = log_table(self.class_count_[None, None, :], alpha)[0, 0]
            return
        cards = self.structure_.cardinalities
        self.tables_, self.unseen_ = node_tables(
            self.counts_, [[cards[p] for p in n.parents] for n in self.structure_.nodes],
            self.estimator, iterations=int(self.iterations), tying=self.tying,
            rng=self.estimation_rng())
        self.class_log_prior_ = class_log_prior(self.class_count_, self.estimator)

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Learn the structure, then the smoothed tables; returns self."""
        alpha = float(self.alpha)
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k = len(self.classes_)
        structure = self._place(self._learn_structure(X, codes, cards, k), cards, names)
        self.counts_ = counts(structure, X, codes, cards, k)
        self._set_tables(np.bincount(codes, minlength=k))
        if self.estimator == "cll":
            self._set_discriminative(X, codes)
        if self.weights is not None:
            # AWNB's bootstrap follows the learner's seed when it has one, else a fixed one.
            seed = getattr(self, "random_state", None)
            seed = 0 if seed is None else seed
            self.weighting_ = learn_weights(
                self.weights, structure, X, codes, self.counts_, self.tables_, self.unseen_,
                self.class_log_prior_, cards, k, alpha, np.random.default_rng(seed))
            self.tables_, self.unseen_ = self.weighting_.tables, self.weighting_.unseen
            self.node_weights_ = self.weighting_.node_weights
        return self

    def _validate_combination(self):
        if self.estimator != "cll":
            return
        owner = type(self).__name__
        if self.weights is not None:
            raise parameter_error(owner, "weights", "None with estimator='cll' (which learns "
                                  "a weight for every cell)", self.weights)
        if not self.alpha > 0:
            raise parameter_error(owner, "alpha", "> 0 with estimator='cll' (its weights "
                                  "multiply the log-probabilities, which must be finite)",
                                  self.alpha)

    def _set_discriminative(self, X, codes):
        """Weigh the smoothed tables' cells to maximise the training rows' conditional
        log-likelihood (:mod:`~bayesbench.models.parameters.cll`); a value beyond the
        cardinality known at ``fit`` is then left out, as logistic regression's one-hot
        coding leaves out a category it never saw."""
        found = cll_parameters(self.structure_, self.tables_, self.class_log_prior_, X, codes,
                               l2=float(self.l2), max_iter=int(self.max_iter),
                               tol=float(self.tol))
        self.discriminative_, self.n_iter_ = found, found.n_iter
        self.tables_, self.class_log_prior_ = found.tables, found.log_prior
        self.unseen_ = [np.zeros(t.shape[:2]) for t in found.tables]

    def bayesian_network(self, class_name: str | None = None) -> list[export.Variable]:
        """The fitted model as one Bayesian network (:mod:`~bayesbench.models.core.export`):
        the class (named ``class_name``, default the structure's) and one variable per
        node, with the model's tables; a value's state is its category when the model was
        fitted on categorical columns, else its code."""
        check_fitted(self)
        if getattr(self, "discriminative_", None) is not None:
            raise ClassifierError("a model with estimator='cll' weighs the logarithms of its "
                                  "tables, which are no longer probabilities: it is no "
                                  "Bayesian network to export")
        categories = getattr(self, "categories_", None) or [None] * len(self.cardinalities_)
        states = [[str(v) for v in cats] if cats is not None and len(cats) == card
                  else [str(code) for code in range(card)]
                  for cats, card in zip(categories, self.cardinalities_)]
        return export.network(self.structure_, self.tables_, self.class_log_prior_,
                              class_name or self.structure_.class_name, self.classes_, states,
                              self.node_weights_)

    def to_bif(self, path, class_name: str | None = None):
        """Write the fitted network as a BIF file (names and states made BIF-safe:
        characters other than letters, digits, ``_ . -`` become ``_``); returns the path."""
        return export.to_bif(self.bayesian_network(class_name), path, type(self).__name__)

    def to_xmlbif(self, path, class_name: str | None = None):
        """Write the fitted network as an XMLBIF 0.3 file; returns the path."""
        return export.to_xmlbif(self.bayesian_network(class_name), path, type(self).__name__)

    def to_pgmpy(self, class_name: str | None = None):
        """The fitted network as pgmpy's ``DiscreteBayesianNetwork`` (needs pgmpy)."""
        return export.to_pgmpy(self.bayesian_network(class_name))

    def _joint_log_likelihood(self, X, plain: bool = False) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        return joint_log_likelihood(self.structure_, self.tables_, X, self.class_log_prior_,
                                    unseen=self.unseen_, plain=plain,
                                    node_weights=self.node_weights_)


class StatisticsANB(StatisticsLearner, AugmentedNaiveBayes):
    """An augmented naive Bayes whose structure and tables can come from
    :class:`~bayesbench.models.core.sufficient.Statistics` (``fit_statistics``, see
    :class:`~bayesbench.models.core.sufficient.StatisticsLearner`); a subclass learns its structure from them
    in ``_statistics_structure(stats)``."""

    def _statistics_structure(self, stats) -> Structure:
        raise NotImplementedError

    def _fit_statistics(self, stats):
        if self.weights is not None or self.estimator == "cll":
            what = (f"weights='{self.weights}'" if self.weights is not None
                    else "estimator='cll'")
            raise StatisticsNotSufficient(
                f"{type(self).__name__} with {what} learns its weights from the rows; fit "
                f"it with fit")
        structure = self._place(self._statistics_structure(stats), stats.cardinalities,
                                stats.attribute_names)
        self.counts_ = [stats.node_counts(n.attributes, n.parents) for n in structure.nodes]
        self._set_tables(stats.class_counts)
