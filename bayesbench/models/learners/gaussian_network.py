"""Conditional linear Gaussian network classifiers: Gaussian TAN and kDB.

Pérez, Larrañaga and Inza (2006), "Supervised classification with conditional Gaussian
networks: increasing the structure complexity from naive Bayes", International Journal of
Approximate Reasoning 43(1), 1-25, carry TAN and kDB over to numeric attributes: the class
is a parent of every attribute, and each attribute is a linear Gaussian of its attribute
parents within each class (a conditional linear Gaussian network). Within class ``c``::

    x_i | pa(x_i), c  ~  N(theta_ci + sum_{j in pa(i)} b_cij (x_j - theta_cj), v_ci)
    p(c, x) = p(c) * prod_i N(x_i; ...)

so that each class's ``x`` is one multivariate normal whose conditional independences are
the network's. Choices made here (the paper itself is not in the repository's papers; every
formula below is derived from the model, none copied):

- **structure measures**, from the class-conditional covariances ``S_c``:
  ``I(X_i; X_j | C) = -1/2 sum_c p(c) log(1 - rho_cij^2)``, ``rho_cij`` the correlation of
  ``x_i`` and ``x_j`` within class ``c`` (exact for normal class-conditionals);
  ``I(X_i; C)`` (kDB's order) has no closed form, ``x_i``'s marginal being a mixture of
  normals: its entropy is replaced by that of a normal of the same variance, giving
  ``1/2 log var(x_i) - 1/2 sum_c p(c) log var_c(x_i)`` (non-negative, an upper bound on the
  mutual information, zero when the classes share mean and variance);
- **structure search**: TAN's maximum weighted spanning tree of ``I(X_i; X_j | C)``
  (Kruskal, ties by index pair) directed away from ``root``; kDB's order by
  ``I(X_i; C)`` with the ``k`` placed attributes of highest ``I(X_i; X_j | C)`` as parents
  (Sahami 1996). The same code as the discrete :class:`~.tan.TAN` and :class:`~.kdb.KDB`;
- **parameters**: maximum likelihood within each class: class frequencies, class means,
  and for each attribute the least-squares regression on its parents, ``b_c =
  S_c[pa, pa]^-1 S_c[pa, i]``, ``v_ci = S_c[i, i] - S_c[i, pa] b_c``, from the
  divide-by-n covariance ``S_c`` plus ``epsilon_ I`` (``epsilon_ = var_smoothing * max_j
  var(x_j)``, :class:`~.gaussian.GaussianNB`'s floor; 0 is pure maximum likelihood);
- **nominal attributes** are refused (the paper's networks are over numeric attributes):
  a run refuses a data set with nominal attributes before any work unless the config names
  ``input: numeric``, which leaves them out; **missing values** are refused unless the
  run imputes them (``preprocess.impute``).

The product of the conditionals is a normalised density (the factorisation follows a DAG):
each class's is that of the multivariate normal the network defines.
"""
from __future__ import annotations

from numbers import Integral

import numpy as np

from ...errors import ClassifierError
from ..core.base import StructureLearner, fresh_fit
from ..core.constraints import Interval, parameter_error
from ..core.input_checks import start_continuous_fit
from ..core.structure import Structure
from .gaussian import (VAR_SMOOTHING, ContinuousClassifier, class_moments,
                       linear_joint_log_likelihood, samples, smoothing_epsilon)
from .kdb import kdb_parents
from .tan import maximum_spanning_forest, orient


def gaussian_conditional_information(cov: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """``I(X_i; X_j | C) = -1/2 sum_c p(c) log(1 - rho_cij^2)`` for every pair (0 on the
    diagonal), from class covariances ``cov`` ``(K, p, p)`` and class priors ``prior``;
    classes of prior 0 are left out."""
    p = cov.shape[1]
    out = np.zeros((p, p))
    for c in np.flatnonzero(prior > 0):
        var = np.diag(cov[c])
        rho2 = cov[c] ** 2 / np.outer(var, var)
        np.fill_diagonal(rho2, 0.0)
        with np.errstate(divide="ignore"):  # |rho| = 1 (no smoothing): infinite information
            out -= 0.5 * prior[c] * np.log1p(-np.minimum(rho2, 1.0))
    return out


def gaussian_class_information(var: np.ndarray, class_var: np.ndarray,
                               prior: np.ndarray) -> np.ndarray:
    """``I(X_i; C)`` with ``x_i``'s marginal entropy taken as a normal's of variance
    ``var`` (``(p,)``): ``1/2 log var_i - 1/2 sum_c p(c) log class_var_ci``."""
    present = prior > 0
    return 0.5 * (np.log(var) - prior[present] @ np.log(class_var[present]))


class GaussianNetwork(StructureLearner, ContinuousClassifier):
    """Shared fit of the conditional linear Gaussian networks (see the module docstring).

    Subclasses give ``_parents(mi_class, cmi)``: each attribute's tuple of attribute parents.
    """

    #: What a run checks of a data set before any work (``input_checks.REQUIREMENTS``).
    requires = ("numeric", "complete")

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes: int | None = None):
        X, codes = start_continuous_fit(self, X, y, n_classes)
        K, p = len(self.classes_), X.shape[1]
        counts, self.theta_, cov = class_moments(X, codes, K, covariance=True)
        self._set_priors(counts)
        self.epsilon_ = smoothing_epsilon(X, self.var_smoothing)
        present = counts > 0
        cov[present] += self.epsilon_ * np.eye(p)
        self.covariance_ = cov
        class_var = np.diagonal(cov, axis1=1, axis2=2).copy()
        self._check_positive_variances(class_var, "variance")
        self._check_parameters(p)
        prior = self.class_prior_
        cmi = gaussian_conditional_information(cov, prior)
        mi = gaussian_class_information(np.var(X, axis=0) + self.epsilon_, class_var, prior)
        parents, info = self._parents(mi, cmi)
        self._set_regressions(parents)
        self.structure_ = Structure.from_parents(
            parents, attribute_names=self._attribute_names(),
            info={"learner": type(self).__name__, "mi_class": mi, "cmi": cmi, **info})
        return self

    def _check_parameters(self, p: int) -> None:
        """Checks of a parameter against the data (none by default)."""

    def _parents(self, mi_class: np.ndarray, cmi: np.ndarray):
        raise NotImplementedError

    def _set_regressions(self, parents) -> None:
        """``coef_`` (``B``), ``residual_var_`` and the residual map ``I - B`` of each class:
        each attribute's least-squares regression on its parents within the class."""
        K, p = self.covariance_.shape[:2]
        B = np.zeros((K, p, p))
        v = np.ones((K, p))
        for c in np.flatnonzero(self.class_count_ > 0):
            S = self.covariance_[c]
            for i, pa in enumerate(parents):
                pa = list(pa)
                if not pa:
                    v[c, i] = S[i, i]
                    continue
                try:
                    b = np.linalg.solve(S[np.ix_(pa, pa)], S[pa, i])
                except np.linalg.LinAlgError:
                    raise ClassifierError(
                        f"the parents of attribute {self._attribute_names()[i]} are collinear "
                        f"in class '{self.classes_[c]}' ({samples(self.class_count_[c])}); "
                        f"set var_smoothing > 0") from None
                B[c, i, pa] = b
                v[c, i] = S[i, i] - S[i, pa] @ b
        self.coef_ = B
        self._A = np.eye(p) - B
        self.residual_var_ = v
        self._check_positive_variances(v, "residual variance")

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return linear_joint_log_likelihood(self, self._validate_predict(X))

    def structure_summary(self) -> str:
        return self.structure_.summary()


class GaussianTAN(GaussianNetwork):
    """Gaussian tree-augmented naive Bayes: a conditional linear Gaussian tree (Pérez et al. 2006).

    Structure: the maximum weighted spanning tree of ``I(X_i; X_j | C)`` between normal
    class-conditionals (``-1/2 sum_c p(c) log(1 - rho_cij^2)``), found by Kruskal (ties by
    index pair) and directed away from ``root``; each attribute has the class and at most
    one attribute as parents and is a linear Gaussian of its parent within each class.
    Parameters are maximum likelihood (module docstring). Numeric attributes only.

    Parameters
    ----------
    root : int, default 0
        Index of the root attribute (with maximum-likelihood parameters the joint density
        is the same for every root; only ``var_smoothing`` makes a difference).
    var_smoothing : float, default 1e-9
        Fraction of the largest attribute variance added to every class covariance's
        diagonal (:class:`~.gaussian.GaussianNB`'s floor); 0 is pure maximum likelihood.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``"cmi"`` (the edge weights), ``"mi_class"``, ``"tree"`` (undirected
        edges in Kruskal's order) and ``"root"``.
    theta_ : ndarray of shape (n_classes, n_features)
    covariance_ : ndarray of shape (n_classes, n_features, n_features)
        The smoothed maximum-likelihood class covariances.
    coef_ : ndarray of shape (n_classes, n_features, n_features)
        ``coef_[c, i, j]``: the regression coefficient of attribute ``i`` on its parent ``j``.
    residual_var_ : ndarray of shape (n_classes, n_features)
        ``v_ci``, the conditional variance of attribute ``i`` given its parents.
    class_prior_, class_count_, epsilon_

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 2000)
    >>> x0 = rng.normal(y, 1.0)
    >>> x1 = 2.0 * x0 + rng.normal(0, 0.5, 2000)    # x1 depends on x0
    >>> x2 = rng.normal(-y, 1.0)
    >>> clf = GaussianTAN().fit(np.column_stack([x0, x1, x2]), y)
    >>> clf.structure_.arcs()
    [(0, 1), (0, 2)]
    >>> clf.coef_[:, 1, 0].round(1)
    array([2., 2.])
    """

    _parameter_constraints = {"root": [Interval(Integral, 0, None, closed="left")],
                              "var_smoothing": VAR_SMOOTHING}

    def __init__(self, *, root: int = 0, var_smoothing: float = 1e-9):
        self.root = root
        self.var_smoothing = var_smoothing

    def _check_parameters(self, p: int) -> None:
        if self.root >= p:
            raise parameter_error(type(self).__name__, "root",
                                  f"an attribute index in 0..{p - 1}", self.root)

    def _parents(self, mi_class, cmi):
        tree = maximum_spanning_forest(cmi)
        parent_of = orient(tree, cmi.shape[0], root=int(self.root))
        parents = [() if p is None else (p,) for p in parent_of]
        return parents, {"tree": tree, "root": int(self.root)}


class GaussianKDB(GaussianNetwork):
    """Gaussian k-dependence Bayesian classifier: a conditional linear Gaussian kDB (Pérez et al. 2006).

    Structure (Sahami 1996 over normal class-conditionals): attributes ordered by
    ``I(X_i; C)`` (normal approximation of the marginal, module docstring), highest first;
    each takes as parents the ``min(k, placed)`` placed attributes of highest
    ``I(X_i; X_j | C)``; ties by index (12 decimals). Each attribute is a linear Gaussian of
    its parents within each class, by maximum likelihood. ``k = 0`` is Gaussian naive Bayes
    (with ``var_smoothing``'s floor), ``k >= n_features - 1`` one full-covariance normal
    per class. Numeric attributes only.

    Parameters
    ----------
    k : int, default 2
        Maximum number of attribute parents.
    var_smoothing : float, default 1e-9
        As in :class:`GaussianTAN`.

    Attributes
    ----------
    structure_ : Structure
        ``info`` holds ``"order"``, ``"mi_class"``, ``"cmi"`` and ``"k"``.
    theta_, covariance_, coef_, residual_var_, class_prior_, class_count_, epsilon_
        As in :class:`GaussianTAN`.
    """

    _parameter_constraints = {"k": [Interval(Integral, 0, None, closed="left")],
                              "var_smoothing": VAR_SMOOTHING}

    def __init__(self, *, k: int = 2, var_smoothing: float = 1e-9):
        self.k = k
        self.var_smoothing = var_smoothing

    def _parents(self, mi_class, cmi):
        order, parents = kdb_parents(mi_class, cmi, int(self.k))
        return parents, {"order": order, "k": int(self.k)}
