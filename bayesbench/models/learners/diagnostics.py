"""Zhang's dependence-distribution diagnostics for a fitted augmented naive Bayes.

Zhang (2005), "Exploring conditions for the optimality of naive Bayes",
IJPRAI 19(2), Sec. 3 (paper 001). For two classes ``+`` and ``-``, an example
``E`` and a node ``X`` with attribute parents ``pa(X)``:

- local dependence derivatives (Definition 2, Eq. 4-5)
  ``dd_c(x | pa(x)) = p(x | pa(x), c) / p(x | c)`` for ``c`` in ``{+, -}``;
- local dependence derivative ratio (Definition 3, Eq. 6)
  ``ddr(x) = dd_+(x | pa(x)) / dd_-(x | pa(x))``;
- dependence distribution factor ``DF(E) = prod over nodes of ddr(x)``,
  and Theorem 1: ``f_b(E) = DF(E) * f_nb(E)``, where ``f(E) = p(+ | E) / p(- | E)``
  for the ANB (``f_b``) and for its correspondent naive Bayes (``f_nb``: the same
  nodes with the arcs among attributes removed).

The correspondent naive Bayes uses the ANB's own counts summed over the
parent configurations, smoothed with the same ``alpha``; on data without
missing values these are exactly the tables a naive Bayes fitted on the same
rows would have.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import ClassifierError
from .anb import AugmentedNaiveBayes
from ..core.base import check_fitted
from ...measures.codes import mixed_radix
from ..core.counting import log_table
from ..core.input_checks import check_discrete_predict_X


@dataclass(frozen=True)
class DependenceDiagnostics:
    """Zhang's local and global dependence measures at one example.

    ``dd_positive``, ``dd_negative`` and ``ddr`` hold one value per node of
    the structure (in ``structure_.nodes`` order); a node without attribute
    parents has all three equal to 1. ``f_b``, ``f_nb`` are posterior odds
    ``p(+ | E) / p(- | E)`` of the ANB and of its correspondent naive Bayes;
    ``dependence_factor`` is ``DF(E)``; Theorem 1 says ``f_b = DF * f_nb``.
    """

    positive: object
    negative: object
    dd_positive: np.ndarray
    dd_negative: np.ndarray
    ddr: np.ndarray
    dependence_factor: float
    f_b: float
    f_nb: float


def dependence_diagnostics(model: AugmentedNaiveBayes, x, positive=None,
                           negative=None) -> DependenceDiagnostics:
    """Local dependence derivatives, their ratios and DF(E) of ``model`` at example ``x``.

    Parameters
    ----------
    model : AugmentedNaiveBayes
        A fitted discrete ANB (TAN, ddr-TAN, kDB, ...).
    x : array-like of int, shape (n_attributes,)
        One complete example (no missing value).
    positive, negative : class labels, optional
        The two classes compared (default ``classes_[1]`` and ``classes_[0]``);
        with more than two classes the ratios compare these two only.
    """
    check_fitted(model)
    if not isinstance(model, AugmentedNaiveBayes):
        raise ClassifierError("dependence diagnostics need a fitted augmented naive Bayes")
    classes = list(model.classes_)
    if len(classes) < 2:
        raise ClassifierError("dependence diagnostics need at least two classes")
    positive = classes[1] if positive is None else positive
    negative = classes[0] if negative is None else negative
    if positive not in classes or negative not in classes or positive == negative:
        raise ClassifierError(
            f"positive and negative must be two different classes among {classes}")
    pos, neg = classes.index(positive), classes.index(negative)
    X = check_discrete_predict_X(model, np.asarray(x).reshape(1, -1))
    if (X < 0).any():
        raise ClassifierError("dependence diagnostics need a complete example (no -1)")
    alpha = float(model.alpha)
    cards = model.cardinalities_
    structure = model.structure_
    log_b = np.empty((len(structure.nodes), 2))
    log_nb = np.empty((len(structure.nodes), 2))
    for k, (node, table, counts) in enumerate(zip(structure.nodes, model.tables_, model.counts_)):
        pa, _, pa_beyond = mixed_radix(X, node.parents, cards)
        val, _, val_beyond = mixed_radix(X, node.attributes, cards)
        if pa_beyond[0] or val_beyond[0]:
            raise ClassifierError("the example holds a code beyond the fitted cardinalities")
        marginal = log_table(counts.sum(axis=1, keepdims=True), alpha)
        log_b[k] = table[[pos, neg], pa[0], val[0]]
        log_nb[k] = marginal[[pos, neg], 0, val[0]]
    prior = model.class_log_prior_[[pos, neg]]
    log_dd = log_b - log_nb
    with np.errstate(invalid="ignore", over="ignore"):
        return DependenceDiagnostics(
            positive=classes[pos], negative=classes[neg],
            dd_positive=np.exp(log_dd[:, 0]), dd_negative=np.exp(log_dd[:, 1]),
            ddr=np.exp(log_dd[:, 0] - log_dd[:, 1]),
            dependence_factor=float(np.exp(np.sum(log_dd[:, 0] - log_dd[:, 1]))),
            f_b=float(np.exp(prior[0] - prior[1] + np.sum(log_b[:, 0] - log_b[:, 1]))),
            f_nb=float(np.exp(prior[0] - prior[1] + np.sum(log_nb[:, 0] - log_nb[:, 1]))))
