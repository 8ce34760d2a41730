"""Attribute noise by shuffling (paper 003, Hurley and Ellingsen), in its two readings.

Paper 003's noise is "10% of the features are shuffled between examples". ``attributes``
(:func:`shuffle_attributes`): a fraction of the predictive attributes is chosen at random,
and the values of each chosen attribute are permuted across the examples (an independent
permutation per attribute); each keeps its marginal distribution but loses its relation to
the class and to the other attributes. ``values`` (:func:`shuffle_values`): in every
attribute, a fraction of the examples is chosen at random and their values of it are
permuted among them; every attribute keeps most of its relation to the class.
"""
from __future__ import annotations

import numpy as np

from ..data.dataset import Dataset
from ..errors import PreprocessError


def n_shuffled(fraction: float, n_attributes: int) -> int:
    """How many attributes ``fraction`` means: ``round(fraction * p)``, at least one if ``fraction > 0``."""
    if fraction == 0 or n_attributes == 0:
        return 0
    return min(n_attributes, max(1, int(np.floor(fraction * n_attributes + 0.5))))


def _check(fraction, rng, what: str) -> None:
    if not 0 <= fraction <= 1:
        raise PreprocessError(f"the fraction of {what} to shuffle must lie in [0, 1], "
                              f"got {fraction!r}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError("shuffling needs a numpy.random.Generator")


def shuffle_attributes(ds: Dataset, fraction: float, rng: np.random.Generator) -> Dataset:
    """``ds`` with the values of a random ``fraction`` of its attributes permuted across rows.

    Parameters
    ----------
    fraction : float in [0, 1]
        Share of the attributes to shuffle (paper 003 uses 0.1); see :func:`n_shuffled`.
    rng : numpy.random.Generator
        Chooses the attributes, then one permutation per chosen attribute in
        attribute order.

    The chosen attribute names are recorded in ``Dataset.notes``. A fraction
    outside [0, 1] is a :class:`~bayesbench.errors.PreprocessError`.
    """
    _check(fraction, rng, "attributes")
    k = n_shuffled(fraction, ds.n_attributes)
    chosen = np.sort(rng.choice(ds.n_attributes, size=k, replace=False)) if k else []
    columns = list(ds.columns)
    for j in chosen:
        columns[j] = columns[j][rng.permutation(ds.n_rows)]
    out = ds.with_columns(list(ds.attributes), columns)
    if k:
        names = [ds.attributes[j].name for j in chosen]
        out.notes.append(f"shuffled the values of {k} attributes across rows: {names}")
    return out


def shuffle_values(ds: Dataset, fraction: float, rng: np.random.Generator) -> Dataset:
    """``ds`` with, in every attribute, the values of a random ``fraction`` of the rows
    (:func:`n_shuffled` of the rows) permuted among those rows.

    ``rng`` chooses, attribute by attribute in order, the rows and then their permutation.
    A fraction outside [0, 1] is a :class:`~bayesbench.errors.PreprocessError`.
    """
    _check(fraction, rng, "values")
    k = n_shuffled(fraction, ds.n_rows)
    columns = list(ds.columns)
    for j, column in enumerate(columns):
        rows = rng.choice(ds.n_rows, size=k, replace=False)
        column = column.copy()
        column[rows] = column[rng.permutation(rows)]
        columns[j] = column
    out = ds.with_columns(list(ds.attributes), columns)
    if k:
        out.notes.append(f"shuffled the values of {k} of {ds.n_rows} rows in each attribute")
    return out


# How a fraction of the data is shuffled (the config's noise.mode).
NOISE_MODES = {"attributes": shuffle_attributes, "values": shuffle_values}
