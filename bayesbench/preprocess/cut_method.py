"""What every discretization method is: a class choosing one numeric attribute's cut points.

A method is one :class:`CutMethod` subclass in its own module (:mod:`.mdl`, :mod:`.binning`),
found by its name in the one table :data:`~bayesbench.preprocess.discretize.CUT_METHODS`,
which the config check (``preprocess.discretize``), the run, ``bayesbench discretize
--method``, the scikit-learn transformers and the docs read; adding a method touches its own
module, that table and a test.
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..errors import PreprocessError


def present_values(x: np.ndarray) -> np.ndarray:
    """The values of ``x`` that are not missing (NaN); refuses infinite ones."""
    x = x[~np.isnan(x)]
    n_inf = int(np.isinf(x).sum())
    if n_inf:
        raise PreprocessError(f"{n_inf} infinite value(s) among the values to discretize; "
                              "cut points need finite numbers")
    return x


def value_class_counts(x: np.ndarray, y: np.ndarray, n_classes: int
                       ) -> tuple[np.ndarray, np.ndarray]:
    """``(values, counts)``: the sorted distinct present values of ``x`` and the class counts
    ``(n_values, n_classes)`` of each, what :func:`mdl_cuts_from_counts` reads; the pairs of
    two parts of a data set add up by :func:`merge_value_counts`."""
    present = ~np.isnan(x)
    values, inverse = np.unique(x[present], return_inverse=True)
    counts = np.bincount(inverse.reshape(-1) * n_classes + np.asarray(y)[present],
                         minlength=values.size * n_classes)
    return values, counts.reshape(values.size, n_classes)


def merge_value_counts(a: tuple, b: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The :func:`value_class_counts` of two parts of a data set, added."""
    values, inverse = np.unique(np.concatenate([a[0], b[0]]), return_inverse=True)
    counts = np.zeros((values.size, a[1].shape[1]), dtype=np.int64)
    np.add.at(counts, inverse.reshape(-1), np.concatenate([a[1], b[1]]))
    return values, counts


class CutMethod:
    """How the cut points of one numeric attribute are chosen from training data.

    A subclass sets ``name`` (its config name), ``summary`` (one line, for the docs and
    ``--help``), ``settings`` (the ``preprocess`` keys its ``__init__`` takes, such as
    ``bins``) and ``supervised`` (whether it reads the classes), and implements
    :meth:`cuts`; one that can also find its cuts from each distinct value's class counts
    (a data set larger than memory, read in chunks) implements :meth:`cuts_from_counts` and
    sets ``chunked``. Cut points are sorted; no cut is one bin.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    settings: ClassVar[tuple[str, ...]] = ()
    supervised: ClassVar[bool] = False
    chunked: ClassVar[bool] = False

    @classmethod
    def from_settings(cls, **given) -> "CutMethod":
        """The method with the settings it reads taken from ``given`` (the others ignored:
        ``bins`` means nothing to MDL)."""
        return cls(**{k: v for k, v in given.items() if k in cls.settings})

    def cuts(self, x: np.ndarray, y: np.ndarray, n_classes: int) -> np.ndarray:
        """The sorted cut points of ``x`` (NaN missing) for class codes ``y``."""
        raise NotImplementedError

    def cuts_from_counts(self, values: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The cut points from the sorted distinct values and their class counts
        ``(n_values, n_classes)`` (:func:`~bayesbench.preprocess.mdl.value_class_counts`),
        equal to :meth:`cuts` on the rows they count; only where ``chunked``."""
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.settings)
        return f"{type(self).__name__}({args})"


class BinnedMethod(CutMethod):
    """A method that makes about ``bins`` bins (``preprocess.bins``, default 10)."""

    settings = ("bins",)

    def __init__(self, bins: int = 10):
        if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins < 1:
            raise PreprocessError(f"the number of bins must be a positive integer, got {bins!r}")
        self.bins = int(bins)
