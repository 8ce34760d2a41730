"""Weightily averaged one-dependence estimators (WAODE).

Jiang and Zhang (2006), "Weightily averaged one-dependence estimators", PRICAI 2006,
LNAI 4099, 970-974; Weka 3.6's ``weka.classifiers.bayes.WAODE``.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...measures.information import weka_class_information
from .aode import WekaAODE


class WAODE(WekaAODE):
    """Weightily averaged one-dependence estimators: AODE's SPODEs averaged with weights.

    Every attribute ``i`` present in the example is the super-parent of one SPODE, weighted
    by its mutual information with the class ``W_i = I(X_i; C)`` (in bits)::

        p(c, x) ∝ sum_i W_i p(c, x_i) prod_{j != i} p(x_j | c, x_i) / sum_i W_i

    The probabilities are Weka's m-estimates with ``m = 1``:
    ``p(c, x_i) = (N(c, x_i) + 1 / (K r_i)) / (N + 1)`` and
    ``p(x_j | c, x_i) = (N(c, x_i, x_j) + 1 / r_j) / (N(c, x_i) + 1)``, ``K`` classes and
    ``r`` an attribute's values (``ande`` with ``estimator: m`` smooths alike), and ``W_i``
    is computed as Weka does (:func:`~bayesbench.measures.information.weka_class_information`:
    a term of the sum is 0 where a probability product is below 1e-6). No frequency limit.

    Where Weka has no answer bayesbench has one: a super-parent of weight 0 adds nothing, and
    an example none of whose present attributes has a positive weight (every ``I(X_i; C)``
    zero, as when the training rows hold one class) is classified by naive Bayes with the
    same m-estimates (Weka's distribution is then NaN, printed ``?``). A missing value (which
    Weka refuses) is left out of the super-parents and of every product, the counts taken
    over the rows where the attributes involved are present, as :class:`~.aode.AODE` does.

    Weka's WAODE has no options, nor has this learner.

    Attributes
    ----------
    As :class:`~.aode.AODE` (with the m-estimates above), and:
    super_parent_weights_ : ndarray of shape (n_features,)
        ``W_i``, each attribute's information about the class in bits.
    """

    def _set_tables(self, pairs, class_counts, cards, names):
        super()._set_tables(pairs, class_counts, cards, names)
        self.super_parent_weights_ = weka_class_information(
            self.class_value_counts_, self.class_counts_, cards)
        self.structure_ = replace(self.structure_, info={
            "learner": "waode", "super_parents": list(range(len(cards))),
            "weights": self.super_parent_weights_.tolist()})

    def _eligible(self, present, frequency):
        return present & (self.super_parent_weights_ > 0)

    def _weigh(self, spodes, eligible, count):
        weights = self.super_parent_weights_
        with np.errstate(divide="ignore"):
            spodes += np.log(weights)[:, None, None]
        # A row without an eligible super-parent is classified by naive Bayes instead.
        return np.where(count > 0, eligible @ weights, 1.0)
