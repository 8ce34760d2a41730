"""Kernel naive Bayes (John and Langley 1995), as Weka 3.6's ``NaiveBayes -K`` computes it.

Naive Bayes over numeric and nominal attributes: each numeric attribute's class-conditional
distribution is a kernel density estimate (:mod:`~.kernel_density`), each nominal one's a
table of counts; missing values are left out, at fit and at prediction, as Weka leaves them.

Reference: G. H. John and P. Langley, "Estimating continuous distributions in Bayesian
classifiers", Proceedings of the 11th Conference on Uncertainty in Artificial Intelligence
(UAI), 1995, 338-345.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np

from ...errors import ClassifierError
from ..core.base import BaseClassifier, check_fitted, fresh_fit
from ..core.constraints import Interval
from ..core.input_checks import check_mixed_predict_X, start_mixed_fit
from .kernel_density import kernel_estimate, probabilities, weka_precision

#: Weka's floor on one attribute's probability in ``distributionForInstance``.
PROBABILITY_FLOOR = 1e-75


class KernelNaiveBayes(BaseClassifier):
    """Kernel naive Bayes: kernel density estimates for numeric attributes, counts for nominal.

    Model, as Weka 3.6's ``NaiveBayes -K`` (``weka.classifiers.bayes.NaiveBayes`` with
    ``KernelEstimator`` and ``DiscreteEstimator``)::

        p(c, x) ~ p(c) * prod over non-missing x_i of max(1e-75, p(x_i | c))

    - ``p(c) = (n_c + 1) / (n + K)``, Laplace over the ``K`` classes (all declared ones
      when ``n_classes`` is given);
    - a nominal attribute: ``p(v | c) = (n_cv + 1) / (n_c' + r)``, ``n_c'`` the class's
      rows where the attribute is not missing and ``r`` its number of declared categories;
    - a numeric attribute: John and Langley's kernel estimate in Weka's form
      (:mod:`~.kernel_density`): values rounded to the attribute's precision (the mean gap
      between its distinct training values), one normal kernel per distinct rounded value
      weighted by its count, bandwidth ``max(range / sqrt(n_c'), precision / 6)`` per class,
      and ``p(x | c)`` the kernels' mass over ``[x - precision/2, x + precision/2]``;
    - ``1e-75`` floors each attribute's probability, as Weka's does (a value far from every
      kernel of every class then leaves the posterior to the other attributes).

    A missing value (NaN, or a category unknown at ``fit``) is left out of its attribute's
    counts at ``fit`` and of the product at prediction. Weka sums kernels with a 1 % stopping
    rule; its sums are reproduced kernel by kernel unless ``exact_limit`` is exceeded, where
    every kernel is summed instead (:mod:`~.kernel_density`).

    Input: a DataFrame whose categorical columns are nominal attributes (with their declared
    categories) and numeric columns numeric (NaN missing), as the runner's ``frame`` input
    gives it; or an array, all of whose columns are numeric.

    Parameters
    ----------
    exact_limit : int, default 512
        Largest number of kernels within 10 bandwidths for which Weka's truncated sum is
        reproduced kernel by kernel (cost per value: about that many normal CDFs, as
        Weka's); beyond, every kernel is summed by FFT at ``fit``, and a value costs a
        polynomial. 0 sums every kernel wherever the grid is fine enough; a huge value is
        Weka's sum everywhere.

    Attributes
    ----------
    classes_, class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
        The log of the Laplace class prior.
    nominal_ : ndarray of bool, shape (n_features,)
    precision_ : ndarray of shape (n_features,)
        Each numeric attribute's Weka precision (NaN for a nominal one).
    bandwidth_ : ndarray of shape (n_classes, n_features)
        The kernel standard deviation of each class and numeric attribute (NaN nominal).
    estimates_ : list
        Per attribute, the list of each class's :class:`~.kernel_density.KernelEstimate`
        (numeric) or the ``(n_classes, r)`` log probabilities (nominal).
    categories_ : list
        Per attribute, its categories (nominal) or None.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [1.2], [1.1], [3.0], [3.3], [2.9]])
    >>> clf = KernelNaiveBayes().fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[1.05], [3.1], [np.nan]])
    array([0, 1, 0])
    >>> clf.precision_                  # (3.3 - 1.0) / 5 gaps between distinct values
    array([0.46])
    >>> clf.bandwidth_.round(4)         # class 0 rounds to 0.92, 0.92, 1.38: 0.46 / sqrt(3)
    array([[0.2656],
           [0.2656]])
    """

    input_kind = "mixed"
    _parameter_constraints = {"exact_limit": [Interval(Integral, 0, None, closed="left")]}

    def __init__(self, *, exact_limit: int = 512):
        self.exact_limit = exact_limit

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes: int | None = None):
        """Fit on ``X`` (see the class docstring); ``cardinalities`` is ignored (a DataFrame's
        categories give the nominal attributes' values)."""
        X, codes = start_mixed_fit(self, X, y, n_classes)
        K = len(self.classes_)
        counts = np.bincount(codes, minlength=K).astype(np.float64)
        self.class_count_ = counts
        self.class_log_prior_ = np.log((counts + 1.0) / (counts.sum() + K))
        m = X.shape[1]
        self.nominal_ = np.array([c is not None for c in self.categories_], dtype=bool)
        self.precision_ = np.full(m, np.nan)
        self.bandwidth_ = np.full((K, m), np.nan)
        self.estimates_ = []
        for j in range(m):
            column = X[:, j]
            known = ~np.isnan(column)
            if self.nominal_[j]:
                self.estimates_.append(_category_log_probabilities(
                    column[known].astype(np.int64), codes[known], K, len(self.categories_[j])))
                continue
            self.precision_[j] = weka_precision(column[known])
            if not np.isfinite(self.precision_[j]):
                # Weka's NaiveBayes would return NaN (0 * inf) for every value.
                raise ClassifierError(
                    f"attribute {self._name(j)}: the range of its values overflows a float "
                    f"(from {np.nanmin(column):g} to {np.nanmax(column):g}); rescale it")
            per_class = [kernel_estimate(column[known & (codes == c)], self.precision_[j],
                                         int(self.exact_limit)) for c in range(K)]
            self.bandwidth_[:, j] = [e.sd for e in per_class]
            self.estimates_.append(per_class)
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        check_fitted(self)
        X = check_mixed_predict_X(self, X)
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for j, estimate in enumerate(self.estimates_):
            column = X[:, j]
            rows = np.flatnonzero(~np.isnan(column))
            if self.nominal_[j]:
                jll[rows] += estimate[:, column[rows].astype(np.int64)].T
                continue
            for c, per_class in enumerate(estimate):
                p = probabilities(per_class, column[rows])
                jll[rows, c] += np.log(np.maximum(p, PROBABILITY_FLOOR))
        return jll

    def _name(self, j: int) -> str:
        names = getattr(self, "feature_names_in_", None)
        return f"'{names[j]}'" if names is not None else str(j)

    def structure_summary(self) -> str:
        check_fitted(self)
        numeric = int((~self.nominal_).sum())
        estimates = [e for est, nominal in zip(self.estimates_, self.nominal_) if not nominal
                     for e in est]
        summed = sum(e.method == "lattice" for e in estimates)
        every = (f"; {summed} of its {len(estimates)} class estimates sum every kernel"
                 if summed else "")
        return (f"kernel naive bayes over {self.n_features_in_} attributes ({numeric} numeric "
                f"by kernel estimates, {self.n_features_in_ - numeric} nominal by counts"
                f"{every})")


def _category_log_probabilities(values: np.ndarray, codes: np.ndarray, n_classes: int,
                                n_categories: int) -> np.ndarray:
    """``log p(v | c)`` of Weka's ``DiscreteEstimator`` with its Laplace start: every
    count begins at 1 and the total at the number of categories."""
    table = np.ones((n_classes, n_categories))
    np.add.at(table, (codes, values), 1.0)
    return np.log(table / table.sum(axis=1, keepdims=True))
