"""Gaussian class-conditional classifiers for continuous attributes (paper 000).

Three models of ``p(x | c)`` for real-valued attributes:

- :class:`GaussianNB`: independent normal attributes within each class;
- :class:`LinearFullBayes`: Barrow's "full Bayes", each attribute corrected for
  its linear dependence on every other attribute of the class;
- :class:`FullBayes`: one multivariate normal per class (quadratic discriminant
  analysis).

All three use maximum-likelihood (divide-by-n) moments, empirical class priors,
and score ``log p(c) + log p(x | c)`` in log space. Missing values are not
modelled: impute before fitting. A class absent from the training data (possible
when ``n_classes`` is given) has prior zero, hence posterior zero; its parameters
are placeholders (mean 0, unit variance, identity covariance).

Reference: L. R. Barrow, "A Method for Automatically Generating Network Structure
in Bayesian Classifiers", Bard College senior project, 2011 (``papers/000``).
"""
from __future__ import annotations

from numbers import Real

import numpy as np
from scipy import linalg

from ...errors import ClassifierError
from ..core.base import BaseClassifier, check_fitted, fresh_fit
from ..core.input_checks import check_continuous_predict_X, start_continuous_fit
from ..core.constraints import Interval, StrOptions

#: The constraint of ``var_smoothing``, shared by every continuous learner.
VAR_SMOOTHING = [Interval(Real, 0, None, closed="left")]
#: The choices of ``residual_variance`` (see :func:`residual_variances`).
RESIDUAL_VARIANCE = [StrOptions({"marginal", "fitted"})]

_LOG_2PI = np.log(2.0 * np.pi)


def samples(count) -> str:
    """``"1 sample"``, ``"5 samples"``: a class's training size in messages."""
    count = int(count)
    return f"{count} sample{'' if count == 1 else 's'}"


def class_moments(X: np.ndarray, codes: np.ndarray, n_classes: int, *, covariance: bool):
    """Per-class counts, means and maximum-likelihood variances or covariances.

    Returns ``(counts, means, second)`` where ``second`` has shape
    ``(n_classes, p)`` (variances) or ``(n_classes, p, p)`` (covariances).
    An absent class gets mean 0 and unit variance / identity covariance.
    """
    p = X.shape[1]
    counts = np.bincount(codes, minlength=n_classes).astype(np.float64)
    means = np.zeros((n_classes, p))
    second = np.tile(np.eye(p), (n_classes, 1, 1)) if covariance else np.ones((n_classes, p))
    for c in np.flatnonzero(counts):
        rows = X[codes == c]
        means[c] = rows.mean(axis=0)
        if covariance:
            centred = rows - means[c]
            second[c] = centred.T @ centred / rows.shape[0]
        else:
            second[c] = rows.var(axis=0)
    return counts, means, second


#: Values up to this size are used as they are: their squares summed over many rows stay
#: far below float64's largest number (1.8e308).
_LARGEST_UNSCALED = 2.0 ** 400


def overflow_scale(X: np.ndarray) -> float:
    """A power of two that brings ``X`` within [-1, 1] when its values are so large (near
    1e308) that their squares would overflow to inf, else 1: a power of two scales every
    value exactly, so the posterior is that of the unscaled values."""
    largest = float(np.abs(X).max()) if X.size else 0.0
    return 1.0 if largest <= _LARGEST_UNSCALED else 2.0 ** -np.frexp(largest)[1]


def smoothing_epsilon(X: np.ndarray, var_smoothing: float) -> float:
    """scikit-learn's variance floor: ``var_smoothing`` times the largest attribute variance."""
    return float(var_smoothing) * float(np.var(X, axis=0).max())


def linear_coefficients(cov: np.ndarray, var: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Coefficients ``B[c, i, j] = cov_c(i, j) / var_c(j)`` where ``mask[i, j]``, else 0.

    Row ``i`` regresses attribute ``i`` on each attribute ``j`` it depends on,
    one simple regression per ``j`` (Barrow's linear covariance model).
    """
    return np.where(mask, cov / var[:, None, :], 0.0)


def residual_log_density(Z: np.ndarray, A: np.ndarray, res_var: np.ndarray) -> np.ndarray:
    """``sum_i log N(r_i; 0, res_var_i)`` with residuals ``r = A z``, per row.

    ``Z`` is ``X`` minus the class mean, ``A = I - B`` one class's matrix.
    """
    R = Z @ A.T
    return -0.5 * (np.sum(np.log(2.0 * np.pi * res_var)) + np.sum(R * R / res_var, axis=1))


def residual_variances(cov: np.ndarray, A: np.ndarray, var: np.ndarray, epsilon: float,
                       kind: str) -> np.ndarray:
    """Variance of each residual ``r_i``: the attribute's own (``"marginal"``) or fitted.

    ``"fitted"`` is the training variance of the residual in its class,
    ``diag(A S A')`` with ``S`` the unsmoothed covariance, plus ``epsilon``.
    """
    if kind == "marginal":
        return var
    fitted = np.einsum("cij,cjk,cik->ci", A, cov, A)
    return np.maximum(fitted, 0.0) + epsilon


class ContinuousClassifier(BaseClassifier):
    """Shared input checks and class priors of the continuous learners.

    ``fit`` takes ``cardinalities`` only to share the discrete learners' signature,
    and ignores it.
    """

    input_kind = "continuous"

    def _validate_predict(self, X) -> np.ndarray:
        check_fitted(self)
        return check_continuous_predict_X(self, X)

    def _set_priors(self, counts: np.ndarray):
        self.class_count_ = counts
        self.class_prior_ = counts / counts.sum()
        with np.errstate(divide="ignore"):
            self._log_prior = np.log(self.class_prior_)

    def _attribute_names(self) -> list[str]:
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            return [f"x{i}" for i in range(self.n_features_in_)]
        return [str(n) for n in names]

    def _check_positive_variances(self, var: np.ndarray, what: str):
        present = self.class_count_ > 0
        bad = np.argwhere((var[present] <= 0))
        if bad.size:
            c, j = bad[0]
            c = np.flatnonzero(present)[c]
            raise ClassifierError(
                f"attribute {self._attribute_names()[j]} has zero {what} in class "
                f"'{self.classes_[c]}' ({samples(self.class_count_[c])}); set var_smoothing "
                f"> 0 (every attribute is constant, or var_smoothing is 0)")


class GaussianNB(ContinuousClassifier):
    """Gaussian naive Bayes (paper 000, Section 1.3; scikit-learn's ``GaussianNB``).

    Model::

        p(c, x) = p(c) * prod_i N(x_i; theta_ci, var_ci)

    Estimators: ``p(c)`` is the class frequency; ``theta_ci`` the class mean;
    ``var_ci`` the maximum-likelihood (divide-by-n) class variance plus
    ``epsilon_ = var_smoothing * max_j Var(x_j)`` (variance over all training
    rows), exactly as ``sklearn.naive_bayes.GaussianNB(var_smoothing=...)``, whose
    ``predict_proba`` this class reproduces.

    Departure from paper 000: its code scales the normal density by
    ``1/variance`` instead of ``1/sqrt(2 pi variance)`` and replaces a zero
    variance by ``1e-5``; here the density is the normal density and the
    variance floor is scikit-learn's relative ``epsilon_``.

    Parameters
    ----------
    var_smoothing : float, default 1e-9
        Fraction of the largest attribute variance added to every variance.

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    theta_, var_ : ndarray of shape (n_classes, n_features)
        Class means and smoothed variances (0 and 1 for a class absent from training), of
        the values times ``scale_``.
    epsilon_ : float
    scale_ : float
        1, or for values beyond 2^400 the power of two (:func:`overflow_scale`) they are
        multiplied by, so that no square overflows (values near 1e308 gave 0.5 for
        every class, with RuntimeWarnings).
    """

    _parameter_constraints = {"var_smoothing": VAR_SMOOTHING}

    def __init__(self, *, var_smoothing: float = 1e-9):
        self.var_smoothing = var_smoothing

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes: int | None = None):
        X, codes = start_continuous_fit(self, X, y, n_classes)
        self.scale_ = overflow_scale(X)
        X = X * self.scale_
        counts, self.theta_, var = class_moments(X, codes, len(self.classes_), covariance=False)
        self._set_priors(counts)
        self.epsilon_ = smoothing_epsilon(X, self.var_smoothing)
        self.var_ = var + self.epsilon_
        self._check_positive_variances(self.var_, "variance")
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = self._validate_predict(X) * self.scale_
        jll = np.empty((X.shape[0], len(self.classes_)))
        # the density of x is that of x * scale_ times scale_ per attribute
        jacobian = X.shape[1] * np.log(self.scale_)
        for c in range(len(self.classes_)):
            var = self.var_[c]
            jll[:, c] = (self._log_prior[c] + jacobian - 0.5 * np.sum(np.log(2.0 * np.pi * var))
                         - 0.5 * np.sum((X - self.theta_[c]) ** 2 / var, axis=1))
        return jll

    def structure_summary(self) -> str:
        return f"gaussian naive bayes over {self.n_features_in_} attributes"


class FullBayes(ContinuousClassifier):
    """One multivariate normal per class (quadratic discriminant analysis).

    Model::

        p(c, x) = p(c) * N(x; theta_c, Sigma_c)
        Sigma_c = (1 - reg_param) * S_c + (reg_param + epsilon_) * I

    Estimators: ``p(c)`` is the class frequency, ``theta_c`` the class mean,
    ``S_c`` the maximum-likelihood (divide-by-n) class covariance, and
    ``epsilon_ = var_smoothing * max_j Var(x_j)`` as in :class:`GaussianNB`.

    Regulariser and scikit-learn: with ``var_smoothing=0`` this is exactly
    ``sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis(reg_param=r)``
    (scikit-learn 1.9, whose SVD solver also divides the class scatter by n),
    for classes with more rows than attributes (QDA refuses the others). The
    default ``var_smoothing`` adds the tiny relative floor ``epsilon_`` so that
    a singular class covariance (collinear or constant attributes, fewer rows
    than attributes) stays positive definite.

    A class with a single training row has ``S_c = 0``, so ``Sigma_c`` is
    ``(reg_param + epsilon_) I``: finite, but sharply peaked at that row unless
    ``reg_param`` is raised. If ``Sigma_c`` is still not positive definite
    (``reg_param = var_smoothing = 0`` and a singular ``S_c``), ``fit`` raises
    :class:`ClassifierError` naming the class.

    Paper 000 calls "full Bayes" its linear covariance model, which is
    :class:`LinearFullBayes`; this class is the textbook joint Gaussian.

    Parameters
    ----------
    reg_param : float in [0, 1], default 0.0
        Shrinks each class covariance towards the identity, as in QDA.
    var_smoothing : float, default 1e-9
        Fraction of the largest attribute variance added to every diagonal.

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    theta_ : ndarray of shape (n_classes, n_features)
    covariance_ : ndarray of shape (n_classes, n_features, n_features)
        The regularised ``Sigma_c`` (identity for a class absent from training).
    epsilon_ : float
    """

    _parameter_constraints = {"reg_param": [Interval(Real, 0, 1, closed="both")],
                              "var_smoothing": VAR_SMOOTHING}

    def __init__(self, *, reg_param: float = 0.0, var_smoothing: float = 1e-9):
        self.reg_param = reg_param
        self.var_smoothing = var_smoothing

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes: int | None = None):
        X, codes = start_continuous_fit(self, X, y, n_classes)
        counts, self.theta_, cov = class_moments(X, codes, len(self.classes_), covariance=True)
        self._set_priors(counts)
        self.epsilon_ = smoothing_epsilon(X, self.var_smoothing)
        p = X.shape[1]
        eye = np.eye(p)
        present = counts > 0
        cov[present] = ((1.0 - self.reg_param) * cov[present]
                        + (self.reg_param + self.epsilon_) * eye)
        self.covariance_ = cov
        # Whitening by the inverse Cholesky factor, a matrix product at predict
        # time, is several times faster than a triangular solve per batch.
        self._whiten = np.empty_like(cov)
        self._log_det = np.zeros(len(self.classes_))
        for c in range(len(self.classes_)):
            try:
                chol = linalg.cholesky(cov[c], lower=True)
            except linalg.LinAlgError:
                raise ClassifierError(
                    f"the covariance of class '{self.classes_[c]}' is singular "
                    f"({samples(counts[c])}, {p} attributes); raise reg_param or "
                    f"var_smoothing above 0") from None
            self._whiten[c] = linalg.solve_triangular(chol, eye, lower=True)
            self._log_det[c] = 2.0 * np.sum(np.log(np.diag(chol)))
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = self._validate_predict(X)
        p = X.shape[1]
        jll = np.empty((X.shape[0], len(self.classes_)))
        for c in range(len(self.classes_)):
            W = (X - self.theta_[c]) @ self._whiten[c].T
            jll[:, c] = (self._log_prior[c]
                         - 0.5 * (p * _LOG_2PI + self._log_det[c] + np.sum(W * W, axis=1)))
        return jll

    def structure_summary(self) -> str:
        return (f"full-covariance gaussian over {self.n_features_in_} attributes, "
                f"reg_param={self.reg_param:g}")


class LinearFullBayes(ContinuousClassifier):
    """Barrow's "full Bayes": every attribute corrected for its linear dependences.

    Paper 000 (Section 1.2) models each attribute as an independent part plus a
    linear effect of each other attribute, standardised:
    ``x_i = x_i^indep + sum_{j != i} cov(x_i, u_j) u_j`` with
    ``u_j = (x_j - theta_j) / sigma_j``, and scores
    ``p(x_i | x_-i, c)`` as the density of the independent part. Written out,
    within class ``c``::

        r_ci(x) = (x_i - theta_ci) - sum_{j != i} B_cij (x_j - theta_cj),
        B_cij   = S_cij / var_cj                 (simple regression of x_i on x_j)
        p(c, x) ~ p(c) * prod_i N(r_ci(x); 0, v_ci)

    Estimators: ``p(c)`` class frequency; ``theta_c`` class mean; ``S_c`` the
    maximum-likelihood class covariance; ``var_c = diag(S_c) + epsilon_``
    (``epsilon_`` as in :class:`GaussianNB`); residual variance ``v_ci`` is
    ``var_ci`` (``residual_variance="marginal"``, the paper's choice) or the
    training variance of ``r_ci`` in class ``c`` plus ``epsilon_``
    (``"fitted"``, consistent with the model: the independent part has a smaller
    variance than the attribute).

    The product of the ``n`` full conditionals is a pseudo-likelihood, not a
    normalised joint density (it lacks the Jacobian of ``x -> r``); it is what
    the paper's classifier scores, and ``predict_proba`` normalises it over the
    classes. With no dependence (``S_c`` diagonal) it is :class:`GaussianNB`.

    Departures from paper 000, whose code (Appendix 4.3) has bugs:

    - the density is ``N(r; 0, v)``, not ``phi(r / sqrt(v)) / v``;
    - the class with the largest log score wins, not the smallest ``|log score|``;
    - the coefficient is ``cov(x_i, u_j) / sigma_j = S_ij / var_j`` as derived
      in the text; the code multiplies ``u_j`` by ``S_ij`` itself, which is not
      invariant to the units of ``x_j``;
    - one estimator (divide by n) for variances and covariances; the code mixes
      ``numpy.var`` (n) with ``numpy.cov`` (n - 1);
    - the code sorts every data column independently before fitting
      (``sort(data, axis=0)``), which breaks the rows apart; rows are kept here.

    Parameters
    ----------
    var_smoothing : float, default 1e-9
        Fraction of the largest attribute variance added to every variance.
    residual_variance : {"marginal", "fitted"}, default "marginal"

    Attributes
    ----------
    classes_, class_count_, class_prior_ : ndarray of shape (n_classes,)
    theta_, var_ : ndarray of shape (n_classes, n_features)
    covariance_ : ndarray of shape (n_classes, n_features, n_features)
        Maximum-likelihood ``S_c`` (identity for an absent class).
    coef_ : ndarray of shape (n_classes, n_features, n_features)
        ``B_c``, zero on the diagonal.
    residual_var_ : ndarray of shape (n_classes, n_features)
    epsilon_ : float
    """

    _parameter_constraints = {"var_smoothing": VAR_SMOOTHING,
                              "residual_variance": RESIDUAL_VARIANCE}

    def __init__(self, *, var_smoothing: float = 1e-9, residual_variance: str = "marginal"):
        self.var_smoothing = var_smoothing
        self.residual_variance = residual_variance

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes: int | None = None):
        X, codes = start_continuous_fit(self, X, y, n_classes)
        fit_linear_moments(self, X, codes)
        set_linear_dependences(self, ~np.eye(X.shape[1], dtype=bool))
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return linear_joint_log_likelihood(self, self._validate_predict(X))

    def structure_summary(self) -> str:
        return (f"linear covariance model over {self.n_features_in_} attributes, "
                f"residual_variance={self.residual_variance}")


def fit_linear_moments(model: ContinuousClassifier, X: np.ndarray, codes: np.ndarray):
    """Set the priors, ``theta_, covariance_, var_, epsilon_`` of a linear covariance model.

    Shared by :class:`LinearFullBayes` and k-naive Bayes; the dependences are
    set afterwards by :func:`set_linear_dependences`.
    """
    counts, model.theta_, cov = class_moments(X, codes, len(model.classes_), covariance=True)
    model._set_priors(counts)
    model.epsilon_ = smoothing_epsilon(X, model.var_smoothing)
    model.covariance_ = cov
    model.var_ = np.diagonal(cov, axis1=1, axis2=2) + model.epsilon_
    model._check_positive_variances(model.var_, "variance")


def set_linear_dependences(model: ContinuousClassifier, mask: np.ndarray):
    """Set ``coef_`` and ``residual_var_`` for the dependences ``mask[i, j]`` (x_i on x_j)."""
    model.coef_ = linear_coefficients(model.covariance_, model.var_, mask)
    model._A = np.eye(mask.shape[0]) - model.coef_
    model.residual_var_ = residual_variances(model.covariance_, model._A, model.var_,
                                             model.epsilon_, model.residual_variance)
    model._check_positive_variances(model.residual_var_, "residual variance")


def linear_joint_log_likelihood(model: ContinuousClassifier, X: np.ndarray) -> np.ndarray:
    """``log p(c) + sum_i log N(r_ci(x); 0, v_ci)`` for a fitted linear covariance model."""
    jll = np.empty((X.shape[0], len(model.classes_)))
    for c in range(len(model.classes_)):
        jll[:, c] = model._log_prior[c] + residual_log_density(
            X - model.theta_[c], model._A[c], model.residual_var_[c])
    return jll
