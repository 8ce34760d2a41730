"""Sufficient statistics of discrete data: class counts, per-attribute and pair counts.

Every table of naive Bayes, of TAN (with the conditional mutual information
as edge weight), of kDB with ``k = 1`` and of AODE is a single count
``N(c, x_i = a)`` or a pair count ``N(c, x_i = a, x_j = b)``, and counts are
additive over rows. So a cross-validation needs one counting pass: count each
test fold once, sum them for the whole data set, and obtain each training
fold's statistics as ``total - fold`` (exact integer arithmetic). Data too
large for memory are counted chunk by chunk and the chunks' statistics added.

Layout: with ``R = sum of the cardinalities`` and value ``a`` of attribute
``i`` at offset ``s_i + a`` (``s_i`` the sum of the cardinalities before
``i``), one ``(n_classes, R, R)`` int64 array holds every pair count; it is
symmetric, and its diagonal blocks hold the per-attribute counts on their
diagonals (zeros elsewhere). A missing value (code ``-1``) or a code beyond
its cardinality removes the row from every count involving that attribute
only (available-case counting, as :mod:`.counting` does).

:func:`pair_count_matrix` is the one function that counts rows; it may be
replaced by any implementation returning the same array.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ...errors import ClassifierError
from .base import fresh_fit
from ...measures import information
from ...measures.codes import check_all_pairs, check_table_size, compact_codes

class StatisticsNotSufficient(ClassifierError):
    """A learner's parameters need the rows themselves, not only their counts
    (say, attribute weights learned from the rows); fit it with ``fit`` instead."""


def pair_count_matrix(X: np.ndarray, y: np.ndarray, cardinalities: Sequence[int],
                      n_classes: int) -> np.ndarray:
    """``N(c, s_i + a, s_j + b)`` of every attribute pair (``i = j``: the diagonal), int64,
    shape ``(n_classes, R, R)``: :func:`~bayesbench.measures.information.pair_count_matrix` (all pairs as one-hot
    Gram matrices, exact in float64), as integers that add and subtract exactly."""
    cards = np.asarray(cardinalities, dtype=np.int64)
    check_all_pairs(cards, n_classes, square=True)
    X = compact_codes(np.asarray(X), cards)
    return information.pair_count_matrix(X, np.asarray(y, dtype=np.int64), cards,
                                         n_classes).astype(np.int64)


@dataclass(frozen=True, eq=False)
class Statistics:
    """Sufficient statistics of discrete rows: see the module docstring for the layout.

    Attributes
    ----------
    cardinalities : tuple of int
    n_classes : int
    class_counts : ndarray of int64, shape (n_classes,)
        ``N(c)``, every row counted (a class is never missing).
    pairs : ndarray of int64, shape (n_classes, R, R)
        ``N(c, x_i = a, x_j = b)`` at ``[c, s_i + a, s_j + b]``.
    attribute_names : tuple of str or None
        The attributes' names, for the structures and checks of the learners fitted
        from the statistics (None: unnamed, like an array given to ``fit``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [1, -1], [1, 0]])
    >>> s = Statistics.from_codes(X, np.array([0, 1, 1]), [2, 2], 2)
    >>> s.attribute(1).tolist()
    [[0, 1], [1, 0]]
    >>> s.pair(0, 1)[1].tolist()
    [[0, 0], [1, 0]]
    """

    cardinalities: tuple
    n_classes: int
    class_counts: np.ndarray
    pairs: np.ndarray
    attribute_names: tuple | None = None

    def __post_init__(self):
        cards = tuple(int(c) for c in self.cardinalities)
        object.__setattr__(self, "cardinalities", cards)
        object.__setattr__(self, "n_classes", int(self.n_classes))
        R = sum(cards)
        if self.class_counts.shape != (self.n_classes,) or \
                self.pairs.shape != (self.n_classes, R, R):
            raise ClassifierError(
                f"statistics of shape {self.class_counts.shape} and {self.pairs.shape} do not "
                f"fit {self.n_classes} classes and cardinalities summing to {R}")
        if self.attribute_names is not None:
            object.__setattr__(self, "attribute_names", tuple(map(str, self.attribute_names)))
        for array in (self.class_counts, self.pairs):
            array.flags.writeable = False

    @classmethod
    def from_codes(cls, X: np.ndarray, y: np.ndarray, cardinalities: Sequence[int],
                   n_classes: int, attribute_names: Sequence[str] | None = None
                   ) -> "Statistics":
        """Count the rows of ``X`` (codes, -1 missing) with class codes ``y``."""
        X = np.asarray(X)
        y = np.asarray(y, dtype=np.int64)
        if X.ndim != 2 or X.shape[0] != y.shape[0] or X.shape[1] != len(cardinalities):
            raise ClassifierError(
                f"X of shape {X.shape} does not match {y.shape[0]} classes and "
                f"{len(cardinalities)} cardinalities")
        if y.size and (y.min() < 0 or y.max() >= n_classes):
            raise ClassifierError(f"class codes must lie in 0..{n_classes - 1}")
        return cls(cardinalities, n_classes, np.bincount(y, minlength=n_classes),
                   pair_count_matrix(X, y, cardinalities, n_classes), attribute_names)

    @classmethod
    def empty(cls, cardinalities: Sequence[int], n_classes: int,
              attribute_names: Sequence[str] | None = None) -> "Statistics":
        """The statistics of no rows (the start of a sum over chunks)."""
        R = int(sum(int(c) for c in cardinalities))
        check_table_size((n_classes, R, R), range(len(cardinalities)))
        return cls(cardinalities, n_classes, np.zeros(n_classes, dtype=np.int64),
                   np.zeros((n_classes, R, R), dtype=np.int64), attribute_names)

    @property
    def n_rows(self) -> int:
        return int(self.class_counts.sum())

    @property
    def n_attributes(self) -> int:
        return len(self.cardinalities)

    def _combine(self, other: "Statistics", sign: int) -> "Statistics":
        if not isinstance(other, Statistics):
            return NotImplemented
        if (other.cardinalities, other.n_classes) != (self.cardinalities, self.n_classes):
            raise ClassifierError(
                f"statistics of {self.n_classes} classes and cardinalities "
                f"{list(self.cardinalities)} cannot be combined with those of "
                f"{other.n_classes} classes and {list(other.cardinalities)}")
        return Statistics(self.cardinalities, self.n_classes,
                          self.class_counts + sign * other.class_counts,
                          self.pairs + sign * other.pairs,
                          self.attribute_names or other.attribute_names)

    def __add__(self, other: "Statistics") -> "Statistics":
        return self._combine(other, 1)

    def __sub__(self, other: "Statistics") -> "Statistics":
        """The statistics of the rows of ``self`` not in ``other`` (``other`` a subset)."""
        return self._combine(other, -1)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Statistics):
            return NotImplemented
        return ((self.cardinalities, self.n_classes) == (other.cardinalities, other.n_classes)
                and np.array_equal(self.class_counts, other.class_counts)
                and np.array_equal(self.pairs, other.pairs))

    __hash__ = None

    def _span(self, i: int) -> slice:
        start = sum(self.cardinalities[:i])
        return slice(start, start + self.cardinalities[i])

    def attribute(self, i: int) -> np.ndarray:
        """``N(c, x_i = a)``, shape ``(n_classes, r_i)``, rows missing ``x_i`` left out."""
        span = self._span(i)
        return np.einsum("kii->ki", self.pairs[:, span, span]).copy()

    def pair(self, i: int, j: int) -> np.ndarray:
        """``N(c, x_i = a, x_j = b)``, shape ``(n_classes, r_i, r_j)``, rows missing either
        left out (``i = j``: the per-attribute counts on the diagonal)."""
        return self.pairs[:, self._span(i), self._span(j)].copy()

    def pair_matrix(self, measure: Callable[[np.ndarray], float]) -> np.ndarray:
        """Symmetric ``(m, m)`` matrix of ``measure(N(c, a, b))`` over the pairs ``i < j``
        (float64 counts), zero diagonal: the edge weights of TAN-like structures."""
        m = self.n_attributes
        out = np.zeros((m, m))
        for i in range(m):
            for j in range(i + 1, m):
                out[i, j] = out[j, i] = measure(self.pair(i, j).astype(np.float64))
        return out

    def cmi_matrix(self) -> np.ndarray:
        """``pair_matrix(information.cmi_from_counts)``, to the last bit, with the pairs'
        tables computed together (a Python call per pair was 12,250 calls for ten folds of
        50 attributes)."""
        m = self.n_attributes
        tables = ((i, j, self.pair(i, j))  # cast to float64 once, in their batch
                  for i in range(m) for j in range(i + 1, m))
        return information.cmi_matrix_of(tables, m)

    def node_counts(self, attributes: Sequence[int], parents: Sequence[int]) -> np.ndarray:
        """Counts of a node, as :func:`~.counting.node_counts` returns them from rows: float64
        ``(n_classes, n_parent_configs, n_values)``; one attribute and at most one parent."""
        if len(attributes) != 1 or len(parents) > 1:
            raise StatisticsNotSufficient(
                f"a node of {len(attributes)} attribute(s) with {len(parents)} attribute "
                f"parent(s) needs more than pair counts")
        [a] = attributes
        if not parents:
            return self.attribute(a).astype(np.float64)[:, None, :]
        return self.pair(parents[0], a).astype(np.float64)


class StatisticsLearner:
    """Mixin of the learners that can be fitted from :class:`Statistics` instead of rows.

    ``fit_statistics(stats)`` is the learner API's one addition for count-based
    learning: it fits the model that ``fit(X, y, cardinalities=stats.cardinalities,
    n_classes=stats.n_classes)`` would fit on the rows ``stats`` counts, exactly (same
    structure, same tables, same predictions), without the rows. The runner uses it
    to fit each training fold of a cross-validation as ``total - test fold``, and to
    fit data too large for memory from the sum of their chunks' counts.

    Learners that have it: ``nb``, ``tan`` and ``ddr_tan`` (every criterion), ``kdb``
    with ``k <= 1``, ``aode``; with ``weights`` (AWNB, MANB, WANBIA), which read the
    rows, and with ``kdb``'s ``k >= 2`` (triple counts) it raises
    :class:`StatisticsNotSufficient` and the runner fits from rows. External
    classifiers need not implement it: the runner calls it only when it exists.

    A subclass implements ``_fit_statistics(stats)`` (the part after the checks).
    """

    @fresh_fit
    def fit_statistics(self, stats: Statistics):
        """Fit from the sufficient statistics ``stats`` of the training rows; returns self."""
        if not isinstance(stats, Statistics):
            raise ClassifierError(f"fit_statistics takes a Statistics object, got "
                                  f"{type(stats).__name__}")
        if stats.n_rows == 0:
            raise ClassifierError("cannot fit on zero rows")
        self.classes_ = np.arange(stats.n_classes)
        self.n_features_in_ = stats.n_attributes
        if stats.attribute_names is not None:
            self.feature_names_in_ = np.asarray(stats.attribute_names, dtype=object)
        self.cardinalities_ = np.asarray(stats.cardinalities, dtype=np.int64)
        self.categories_ = None
        self._fit_statistics(stats)
        return self

    def _fit_statistics(self, stats: Statistics):
        raise NotImplementedError


def fits_from_statistics(clf) -> bool:
    """Whether ``clf`` (an unfitted classifier) can be fitted by ``fit_statistics`` with its
    parameters: it has the method and does not refuse a trial fit on two counted rows (a
    learner refuses parameters that need rows before it reads the counts)."""
    if not callable(getattr(clf, "fit_statistics", None)):
        return False
    trial = Statistics.from_codes(np.array([[0], [1]]), np.array([0, 1]), [2], 2)
    try:
        type(clf)(**clf.get_params()).fit_statistics(trial)
    except ClassifierError:
        # Not sufficient, or parameters that fail anyway: fitting from rows reports why.
        return False
    return True
