"""The augmented naive Bayes estimator that every discrete structure learner extends.

A subclass only learns a structure (``_learn_structure``); fitting the tables
(:mod:`~bayesbench.models.core.counting`) and predicting (:mod:`~bayesbench.models.core.inference`) are shared.
"""
from __future__ import annotations

from dataclasses import replace
from numbers import Real
from pathlib import Path

import numpy as np

from ...errors import ClassifierError
from ...measures.codes import TableTooLarge
from ..core import export
from ..core.base import BaseClassifier, StructureLearner, check_fitted, fresh_fit
from ..core.counting import counts
from ..core.inference import MISSING_CONSTRAINT, joint_log_likelihood
from ..core.input_checks import (check_discrete_predict_X, start_discrete_fit,
                                 target_name_of)
from ..core.scores import ModelScores
from ..core.sufficient import StatisticsLearner, StatisticsNotSufficient
from ..core.structure import Structure
from ..core.constraints import Interval, parameter_error
from ..parameters.estimators import ESTIMATORS
from ..parameters.weighting import WEIGHTS_CONSTRAINT, Smoothed, learn_weights


class AugmentedNaiveBayes(ModelScores, StructureLearner, BaseClassifier):
    """Augmented naive Bayes over discrete attributes; subclasses learn the structure.

    The model is ``p(c, x) = p(c) prod_v p(x_v | x_pa(v), c)`` over the nodes of
    :attr:`structure_`. Every table, and the class prior, is estimated with
    additive smoothing::

        p(v | pa, c) = (N(c, pa, v) + alpha) / (N(c, pa) + alpha * r_v)

    Missing values (code ``-1``) are left out of the counts of the node they occur
    in (or parent), and at prediction follow ``missing``. A value never seen in
    training gets the smoothed probability of a zero count.

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
    estimator : {'laplace', 'm', 'hdp'}, default 'laplace'
        On the learners that take it (``nb``, ``tan``, ``kdb``): ``laplace`` is the
        smoothing with ``alpha`` above; ``m`` and ``hdp`` back a configuration off to its
        parents' prefix (:mod:`~bayesbench.models.parameters.estimators`), with HDP's
        ``iterations``, ``tying`` and ``random_state`` (HDP's seed; None: 0, and the
        runner gives an HDP fit the task's seed); ``cll`` weighs every cell of the
        ``laplace`` tables to maximise the training data's conditional log-likelihood
        (WANBIA-C for naive Bayes, ALR for the others;
        :mod:`~bayesbench.models.parameters.cll`), with the penalty ``l2`` and L-BFGS's
        ``max_iter`` and ``tol``; it needs ``alpha > 0``, no ``weights`` and
        ``missing='skip'``. Each estimator's settings are read by that estimator alone.
    missing : {'skip', 'exact'}, default 'skip'
        How prediction (and the model scores) treat a missing value
        (:mod:`~bayesbench.models.core.inference`): ``skip`` leaves out each node that holds
        or reads it, exact for a leaf only; ``exact`` sums the missing attributes out of the
        network, as exact inference in the exported network does. Counting and the
        structure search are the same under both.

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
                              "weights": WEIGHTS_CONSTRAINT, "missing": MISSING_CONSTRAINT}
    # For subclasses whose __init__ does not take ``weights``: they learn no weights; nor
    # ``estimator`` and its settings: additive smoothing with ``alpha``; nor ``missing``:
    # the ``skip`` rule.
    weights = None
    estimator, iterations, tying = "laplace", 1000, "level"
    missing = "skip"

    def __init__(self, *, alpha: float = 1.0, weights=None, missing: str = "skip"):
        self.alpha = alpha
        self.weights = weights
        self.missing = missing

    def _check_combinations(self):
        owner = type(self).__name__
        if self.missing == "exact" and self.weights in ("awnb", "wanbia"):
            raise parameter_error(owner, "missing",
                                  f"'skip' with weights={self.weights!r} (attribute weights "
                                  f"make no network to sum the missing values out of)",
                                  self.missing)
        chosen = ESTIMATORS.get(self.estimator)
        if chosen is None or not chosen.needs_rows:
            return
        # cll weighs the logarithms of the smoothed tables' cells, one weight each.
        if self.weights is not None:
            raise parameter_error(owner, "weights", f"None with estimator={self.estimator!r} "
                                  f"(which learns a weight for every cell)", self.weights)
        if not self.alpha > 0:
            raise parameter_error(owner, "alpha", f"> 0 with estimator={self.estimator!r} "
                                  f"(its weights multiply the log-probabilities, which must be "
                                  f"finite)", self.alpha)
        if self.missing == "exact":
            raise parameter_error(owner, "missing", f"'skip' with estimator={self.estimator!r} "
                                  f"(weighted tables make no network to sum the missing "
                                  f"values out of)", self.missing)

    def _estimation(self):
        """The chosen parameter estimator, made with the settings it reads."""
        chosen = ESTIMATORS[self.estimator]
        return chosen(rng=self.estimation_rng() if chosen.stochastic else None,
                      **{name: getattr(self, name) for name in chosen.settings})

    def _learn_structure(self, X, y, cardinalities, n_classes) -> Structure:
        raise NotImplementedError

    def _place(self, structure: Structure, cards, names, class_name=None) -> Structure:
        """``structure`` with the data's cardinalities and (unless it has its own) names,
        and the class named ``class_name`` (a named Series target's) if given."""
        structure = replace(structure, cardinalities=tuple(int(c) for c in cards),
                            attribute_names=structure.attribute_names or names,
                            class_name=class_name or structure.class_name)
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
        estimator = self._estimation()
        cards = self.structure_.cardinalities
        self.tables_, self.unseen_ = estimator.node_tables(
            self.counts_, [[cards[p] for p in n.parents] for n in self.structure_.nodes], alpha)
        self.class_log_prior_ = estimator.node_class_log_prior(self.class_count_, alpha)

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Learn the structure, then the smoothed tables; returns self."""
        alpha = float(self.alpha)
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        k = len(self.classes_)
        structure = self._place(self._learn_structure(X, codes, cards, k), cards, names,
                                target_name_of(y))
        self.counts_ = counts(structure, X, codes, cards, k)
        self._set_tables(np.bincount(codes, minlength=k))
        if ESTIMATORS[self.estimator].needs_rows:
            self._set_discriminative(X, codes)
        if self.weights is not None:
            # AWNB's bootstrap follows the learner's seed when it has one, else a fixed one.
            seed = getattr(self, "random_state", None)
            seed = 0 if seed is None else seed
            smoothed = Smoothed(structure, self.counts_, self.tables_, self.unseen_,
                                self.class_log_prior_)
            self.weighting_ = learn_weights(self.weights, smoothed, X, codes, cards, alpha,
                                            np.random.default_rng(seed))
            self.tables_, self.unseen_ = self.weighting_.tables, self.weighting_.unseen
            self.node_weights_ = self.weighting_.node_weights
        return self

    def _set_discriminative(self, X, codes):
        """Weigh the smoothed tables' cells with the training rows (``cll``,
        :mod:`~bayesbench.models.parameters.cll`); a value beyond the cardinality known at
        ``fit`` is then left out, as logistic regression's one-hot coding leaves out a
        category it never saw."""
        found = self._estimation().refine(self.structure_, self.tables_,
                                          self.class_log_prior_, X, codes)
        self.discriminative_, self.n_iter_ = found, found.n_iter
        self.tables_, self.class_log_prior_ = found.tables, found.log_prior
        self.unseen_ = [np.zeros(t.shape[:2]) for t in found.tables]

    def bayesian_network(self, class_name: str | None = None, states=None,
                         class_states=None) -> list[export.Variable]:
        """The fitted model as one Bayesian network (:mod:`~bayesbench.models.core.export`):
        the class and one variable per node, with the model's tables.

        The class is named ``class_name``, else as the structure names it (a named Series
        target's name, else ``class``); its states are ``class_states``, else the labels of
        ``classes_``. Each attribute's states are ``states[j]`` (its values, by code), else its
        categories when the model was fitted on categorical columns, else its codes.
        """
        check_fitted(self)
        if getattr(self, "discriminative_", None) is not None:
            raise ClassifierError("a model with estimator='cll' weighs the logarithms of its "
                                  "tables, which are no longer probabilities: it is no "
                                  "Bayesian network to export")
        categories = getattr(self, "categories_", None) or [None] * len(self.cardinalities_)
        if states is None:
            states = [cats if cats is not None and len(cats) == card else range(card)
                      for cats, card in zip(categories, self.cardinalities_)]
        if len(states) != len(self.cardinalities_) or any(
                len(s) != c for s, c in zip(states, self.cardinalities_)):
            raise ClassifierError(f"states name {[len(s) for s in states]} values, the model "
                                  f"has {[int(c) for c in self.cardinalities_]}")
        if class_states is not None and len(class_states) != len(self.classes_):
            raise ClassifierError(f"{len(class_states)} class states for "
                                  f"{len(self.classes_)} classes")
        return export.network(self.structure_, self.tables_, self.class_log_prior_,
                              class_name or self.structure_.class_name,
                              self.classes_ if class_states is None else class_states,
                              [[str(v) for v in s] for s in states], self.node_weights_)

    def to_bif(self, path=None, class_name: str | None = None):
        """The fitted network as BIF text, or written to ``path`` (then the path is
        returned); names and states as :func:`~bayesbench.models.core.export.bif_name`
        writes them."""
        return self._written(export.bif_text, path, class_name)

    def to_xmlbif(self, path=None, class_name: str | None = None):
        """The fitted network as XMLBIF 0.3 text, or written to ``path`` in UTF-8 (then the
        path is returned; pyAgrum reads it under the suffix ``.bifxml``)."""
        return self._written(export.xmlbif_text, path, class_name)

    def _written(self, text_of, path, class_name):
        text = text_of(self.bayesian_network(class_name), type(self).__name__)
        if path is None:
            return text
        path = Path(path)
        path.write_text(text, encoding="utf-8")
        return path

    def to_pgmpy(self, class_name: str | None = None):
        """The fitted network as pgmpy's ``DiscreteBayesianNetwork`` (needs pgmpy)."""
        return export.to_pgmpy(self.bayesian_network(class_name))

    def _joint_log_likelihood(self, X, plain: bool = False) -> np.ndarray:
        X = check_discrete_predict_X(self, X)
        try:
            return joint_log_likelihood(self.structure_, self.tables_, X,
                                        self.class_log_prior_, unseen=self.unseen_,
                                        plain=plain, node_weights=self.node_weights_,
                                        missing=self.missing)
        except TableTooLarge as exc:  # summing missing values out: name the attributes
            exc.name_attributes(self.structure_.names())
            raise


class StatisticsANB(StatisticsLearner, AugmentedNaiveBayes):
    """An augmented naive Bayes whose structure and tables can come from
    :class:`~bayesbench.models.core.sufficient.Statistics` (``fit_statistics``, see
    :class:`~bayesbench.models.core.sufficient.StatisticsLearner`); a subclass learns its structure from them
    in ``_statistics_structure(stats)``."""

    def _statistics_structure(self, stats) -> Structure:
        raise NotImplementedError

    def _fit_statistics(self, stats):
        if self.weights is not None or ESTIMATORS[self.estimator].needs_rows:
            what = (f"weights='{self.weights}'" if self.weights is not None
                    else f"estimator='{self.estimator}'")
            raise StatisticsNotSufficient(
                f"{type(self).__name__} with {what} learns its weights from the rows; fit "
                f"it with fit")
        structure = self._place(self._statistics_structure(stats), stats.cardinalities,
                                stats.attribute_names)
        self.counts_ = stats.nodes_counts(structure.nodes)
        self._set_tables(stats.class_counts)
