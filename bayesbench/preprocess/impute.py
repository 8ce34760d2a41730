"""Missing-value handling, fitted on training data and applied to any data.

Strategies
----------
``mean_mode``
    A missing numeric value becomes the training mean of its column, a missing
    nominal value the training mode (the lowest code among tied modes).
``weighted_random``
    Paper 003 (Hurley and Ellingsen): a missing nominal value is drawn at
    random from the column's observed training distribution, ``P(v) =
    n_v / n_observed``; a missing numeric value becomes the training mean.
    The draws come from the ``rng`` given to ``transform``, column by column
    in attribute order, so a seed fixes them.
``drop``
    Paper 002 (Mihaljevic et al.): every row with a missing value is removed
    (``transform`` drops the rows of whatever data it is given, and says how
    many in ``Dataset.notes``).
``none``
    Leave missing values as they are (the discrete models treat code ``-1``).

A column with no observed training value cannot be imputed; ``fit`` says so,
naming the attribute (a :class:`~bayesbench.errors.DataError`). A numeric
column whose training values include an infinity has no finite mean, and
filling a missing value with it is refused. Other misuse is a
:class:`~bayesbench.errors.PreprocessError`.
"""
from __future__ import annotations

import numpy as np

from ..data.dataset import MISSING, Dataset
from ..errors import DataError, NotFittedError, PreprocessError

#: The imputation strategies (see the module docstring).
STRATEGIES = ("mean_mode", "weighted_random", "drop", "none")


class Imputer:
    """Fill in (or drop) missing values with statistics of the training data.

    Parameters
    ----------
    strategy : {"mean_mode", "weighted_random", "drop", "none"}, default "mean_mode"
        See the module docstring.

    Attributes
    ----------
    fill_ : dict of str -> float or int
        Per attribute with a missing-value rule: the training mean (numeric)
        or mode code (nominal) used by ``mean_mode``, and the mean of numeric
        attributes under ``weighted_random``.
    distributions_ : dict of str -> ndarray
        ``weighted_random`` only: each nominal attribute's observed training
        frequencies (summing to one).
    """

    def __init__(self, strategy: str = "mean_mode"):
        self.strategy = strategy

    def fit(self, ds: Dataset) -> "Imputer":
        """Learn each column's fill value (or distribution) from training data ``ds``."""
        if self.strategy not in STRATEGIES:
            raise PreprocessError(f"unknown imputation strategy {self.strategy!r}; "
                                  f"expected one of {', '.join(STRATEGIES)}")
        self.attributes_ = list(ds.attributes)
        self.fill_, self.distributions_ = {}, {}
        if self.strategy in ("drop", "none"):
            return self
        for att, col in zip(ds.attributes, ds.columns):
            if att.is_nominal:
                counts = np.bincount(col[col != MISSING], minlength=att.cardinality)
                observed = counts.sum()
                if observed == 0 and (col == MISSING).any():
                    raise DataError("no observed value in the training data to impute from",
                                    path=ds.source, attribute=att.name)
                if observed == 0:
                    continue
                if self.strategy == "weighted_random":
                    self.distributions_[att.name] = counts / observed
                else:
                    self.fill_[att.name] = int(np.argmax(counts))
            else:
                present = col[~np.isnan(col)]
                if present.size == 0:
                    if np.isnan(col).any():
                        raise DataError("no observed value in the training data to impute "
                                        "from", path=ds.source, attribute=att.name)
                    continue
                self.fill_[att.name] = float(present.mean())
        return self

    def transform(self, ds: Dataset, rng: np.random.Generator | None = None) -> Dataset:
        """``ds`` with its missing values filled in (or its incomplete rows dropped)."""
        if not hasattr(self, "attributes_"):
            raise NotFittedError("this Imputer is not fitted yet; call fit first")
        if [a.name for a in ds.attributes] != [a.name for a in self.attributes_]:
            raise DataError("the attributes differ from those the imputer was fitted on",
                            path=ds.source)
        if self.strategy == "none":
            return ds
        missing = ds.missing_mask()
        if self.strategy == "drop":
            incomplete = missing.any(axis=1)
            out = ds.take(~incomplete)
            if incomplete.any():
                out.notes.append(f"dropped {int(incomplete.sum())} rows with missing values")
            return out
        if self.strategy == "weighted_random" and not isinstance(rng, np.random.Generator):
            raise TypeError("weighted_random imputation needs a numpy.random.Generator, "
                            "e.g. numpy.random.default_rng(1)")
        columns = [self._filled(att, col, missing[:, j], ds.source, rng) if missing[:, j].any()
                   else col for j, (att, col) in enumerate(zip(ds.attributes, ds.columns))]
        return ds.with_columns(list(ds.attributes), columns)

    def _filled(self, att, col: np.ndarray, holes: np.ndarray, source, rng) -> np.ndarray:
        """A copy of ``col`` with its ``holes`` filled by the fitted rule of ``att``."""
        if att.name not in self.fill_ and att.name not in self.distributions_:
            raise DataError("has missing values but none in the training data",
                            path=source, attribute=att.name)
        col = col.copy()
        if att.name in self.distributions_:
            p = self.distributions_[att.name]
            col[holes] = rng.choice(p.size, size=int(holes.sum()), p=p)
            return col
        fill = self.fill_[att.name]
        if not np.isfinite(fill):
            where = f"{source}: " if source else ""
            raise PreprocessError(f"{where}attribute '{att.name}': cannot fill missing values "
                                  f"with the training mean, which is {fill} because the "
                                  f"training values include infinities")
        col[holes] = fill
        return col

    def fit_transform(self, ds: Dataset, rng: np.random.Generator | None = None) -> Dataset:
        return self.fit(ds).transform(ds, rng=rng)

    def __repr__(self) -> str:
        return f"Imputer(strategy={self.strategy!r})"
