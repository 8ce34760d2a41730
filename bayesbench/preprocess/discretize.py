"""Discretization of numeric attributes, fitted on training data only and then applied to any data.

Each numeric attribute gets sorted cut points ``c_1 < ... < c_m``; a value ``x`` falls into
bin ``j`` = the number of cut points strictly below ``x``, so bins are right-closed as in Weka:
``(-inf, c_1], (c_1, c_2], ..., (c_m, inf)``. Values outside the training range fall into the
outer bins, and a missing value stays missing. The new nominal attribute carries Weka's range
labels, for example ``(-inf-2.45]``, ``(2.45-4.75]``, ``(4.75-inf)``, or ``All`` when there is
no cut point.

Methods
-------
How the cut points are chosen is one class per method (:class:`~.cut_method.CutMethod`),
found by name in :data:`CUT_METHODS`: ``mdl`` (:mod:`.mdl`, Fayyad and Irani's supervised
method as Weka computes it, at most ``max_cuts`` cut points), ``fd``, ``width`` and
``frequency`` (:mod:`.binning`), ``pki`` and ``wpki`` (:mod:`.proportional`, Yang and Webb's
proportional k-interval discretization as Weka's ``PKIDiscretize``, and its weighted form).
``none`` keeps numeric attributes numeric (for the learners that model them).

A constant (or entirely missing) training column gets no cut point: one bin. Cut points need
finite numbers: ``fit`` refuses an attribute with an infinite training value, naming it (make
such values missing, ``?``, or replace them). ``transform`` puts ``-inf`` and ``inf`` into the
outer bins like any value beyond the cut points. Errors are
:class:`~bayesbench.errors.PreprocessError`.
"""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from ..errors import DataError, NotFittedError, PreprocessError
from ..data.chunks import ChunkedSource, numeric_chunks
from ..data.dataset import Attribute, Dataset, bin_codes
from .binning import EqualFrequency, EqualWidth, FreedmanDiaconis
from .cut_method import CutMethod, merge_value_counts, value_class_counts
from .mdl import MDL
from .proportional import PKI, WPKI

#: Every method that chooses cut points, by name (what ``bayesbench discretize --method``
#: offers, in this order); the one table the config check, the run and the docs read.
CUT_METHODS = MappingProxyType({m.name: m for m in (
    MDL, FreedmanDiaconis, EqualWidth, EqualFrequency, PKI, WPKI)})
#: What an experiment asks for to keep its numeric attributes numeric.
NONE = "none"


def methods() -> tuple[str, ...]:
    """Every discretization an experiment may ask for: a cut-point method, or ``none``."""
    return (*CUT_METHODS, NONE)


def methods_reading(setting: str) -> tuple[str, ...]:
    """The methods that read the ``preprocess`` key ``setting`` (``bins``, ``max_cuts``)."""
    return tuple(name for name, method in CUT_METHODS.items() if setting in method.settings)


def chunked_methods() -> tuple[str, ...]:
    """The methods that find the cut points of a chunked data set from its per-value class
    counts."""
    return tuple(name for name, method in CUT_METHODS.items() if method.chunked)


def cut_method(name: str, **settings) -> CutMethod:
    """The method called ``name`` with the settings it reads (``bins``, ``max_cuts``) taken
    from ``settings``."""
    if name not in CUT_METHODS:
        raise PreprocessError(f"unknown discretization method {name!r}; "
                              f"expected one of {', '.join(methods())}")
    return CUT_METHODS[name].from_settings(**settings)


# ------------------------------------------------------------- bins
def _weka_number(value: float) -> str:
    """``weka.core.Utils.doubleToString(value, 6)``: 6 decimals, half away from zero, no trailing 0."""
    scaled = abs(value) * 1e6
    if scaled >= 2 ** 63:
        return repr(float(value))  # float(): numpy 2 would print 'np.float64(...)'
    q = int(scaled + 0.5)
    if q == 0:
        return "0"
    text = f"{q // 1_000_000}.{q % 1_000_000:06d}".rstrip("0").rstrip(".")
    return ("-" if value < 0 else "") + text


def range_labels(cuts: np.ndarray) -> tuple[str, ...]:
    """Weka's bin labels: ``(-inf-a]``, ``(a-b]``, ..., ``(z-inf)``; ``All`` for one bin."""
    if len(cuts) == 0:
        return ("All",)
    text = [_weka_number(c) for c in cuts]
    if len(set(text)) < len(text):  # cuts closer than 1e-6: keep them distinguishable
        text = [repr(float(c)) for c in cuts]
    bounds = ["-inf"] + text + ["inf"]
    labels = [f"({a}-{b}]" for a, b in zip(bounds[:-2], bounds[1:-1])]
    return tuple(labels) + (f"({bounds[-2]}-inf)",)


def cut_point_table(cuts: dict) -> dict:
    """``{attribute: {"cut_points": [...], "states": [...]}}``: fitted cut points as numbers
    (each the float it is, for JSON) and the names of the bins they make (:func:`range_labels`).

    >>> cut_point_table({"petallength": np.array([2.45, 4.75])})["petallength"]["states"]
    ['(-inf-2.45]', '(2.45-4.75]', '(4.75-inf)']
    """
    return {name: {"cut_points": [float(c) for c in cut], "states": list(range_labels(cut))}
            for name, cut in cuts.items()}


def cut_point_rows(cuts: dict) -> list[list]:
    """Rows ``[attribute, bins, cut points]`` for a printed table (cuts as in Weka's labels)."""
    return [[name, len(c) + 1, ", ".join(_weka_number(v) for v in c) or "-"]
            for name, c in cuts.items()]


# -------------------------------------------------------- estimator
class Discretizer:
    """Turn the numeric attributes of a :class:`Dataset` into nominal ones.

    Parameters
    ----------
    method : {"mdl", "fd", "width", "frequency", "pki", "wpki", "none"}, default "mdl"
        How cut points are chosen (see the module docstring); a key of :data:`CUT_METHODS`, or ``none``.
    bins : int, default 10
        Number of bins of ``width`` and ``frequency``; ignored by the other methods.
    max_cuts : int or None, default None
        At most this many cut points per attribute for ``mdl`` (None: as many as MDL
        accepts); ignored by the other methods.

    Attributes
    ----------
    cuts_ : dict of str -> ndarray
        Sorted cut points of every numeric attribute seen in ``fit`` (empty for ``none``).
    """

    def __init__(self, method: str = "mdl", bins: int = 10, max_cuts: int | None = None):
        self.method = method
        self.bins = bins
        self.max_cuts = max_cuts

    def _method(self) -> CutMethod | None:
        """The cut-point method (None for ``none``), its settings checked."""
        return None if self.method == NONE else cut_method(self.method, bins=self.bins,
                                                           max_cuts=self.max_cuts)

    def fit(self, ds: Dataset) -> "Discretizer":
        """Choose cut points for every numeric attribute of the training data ``ds``."""
        method = self._method()
        cuts = {}
        for att, col in zip(ds.attributes, ds.columns):
            if att.is_nominal or method is None:
                continue
            n_inf = int(np.isinf(col).sum())
            if n_inf:
                where = f"{ds.source}: " if ds.source else ""
                raise PreprocessError(
                    f"{where}attribute '{att.name}': {n_inf} infinite value(s) in the data to "
                    f"discretize; cut points need finite numbers (make them missing with '?' "
                    f"or replace them)")
            cuts[att.name] = method.cuts(col, ds.y, ds.n_classes)
        self.cuts_ = cuts
        return self

    def transform(self, ds: Dataset) -> Dataset:
        """``ds`` with each fitted numeric attribute replaced by its bin codes."""
        if not hasattr(self, "cuts_"):
            raise NotFittedError("this Discretizer is not fitted yet; call fit first")
        if self.method == NONE:
            return ds
        attributes, columns = [], []
        for att, col in zip(ds.attributes, ds.columns):
            if att.is_nominal:
                if att.name in self.cuts_:
                    raise DataError("is nominal here but was numeric when the discretizer "
                                    "was fitted", path=ds.source, attribute=att.name)
                attributes.append(att)
                columns.append(col)
                continue
            if att.name not in self.cuts_:
                raise DataError("numeric attribute not seen when the discretizer was fitted",
                                path=ds.source, attribute=att.name)
            cuts = self.cuts_[att.name]
            attributes.append(Attribute(att.name, "nominal", range_labels(cuts)))
            columns.append(bin_codes(col, cuts))
        return ds.with_columns(attributes, columns)

    def fit_transform(self, ds: Dataset) -> Dataset:
        return self.fit(ds).transform(ds)

    def __repr__(self) -> str:
        extra = "" if self.max_cuts is None else f", max_cuts={self.max_cuts!r}"
        return f"Discretizer(method={self.method!r}, bins={self.bins!r}{extra})"


# ------------------------------------------------- chunked data sets
def chunked_value_counts(source: ChunkedSource, chunk_rows: int | None = None) -> dict:
    """Per numeric attribute of a chunked data set, :func:`value_class_counts` of all its rows,
    counted chunk by chunk and merged (at most as many values as its scan allowed)."""
    names, k = source.numeric_names, source.n_classes
    empty = (np.empty(0), np.zeros((0, k), dtype=np.int64))
    out = {name: empty for name in names}
    extra = {} if chunk_rows is None else {"chunk_rows": chunk_rows}
    for i in range(len(source.files)):
        for values, y in numeric_chunks(source, i, **extra):
            for j, name in enumerate(names):
                out[name] = merge_value_counts(out[name], value_class_counts(values[:, j], y, k))
    return out


def discretize_chunked(source: ChunkedSource, method: str, bins: int = 10,
                       chunk_rows: int | None = None, max_cuts: int | None = None
                       ) -> ChunkedSource:
    """``source`` with its numeric attributes coded by cut points found on all its rows (the
    ``global`` scope), as :class:`Discretizer` finds them on the same rows: ``mdl`` from each
    value's class counts, ``width`` from the distinct values. One more pass over the files."""
    if not source.numeric_names:
        return source
    finder = chunked_cut_method(source, method, bins=bins, max_cuts=max_cuts)
    counts = chunked_value_counts(source, chunk_rows)
    for name, (values, _) in counts.items():
        if np.isinf(values).any():
            raise PreprocessError(f"{source.name}: attribute '{name}': infinite value(s) in "
                                  f"the data to discretize; cut points need finite numbers")
    cuts = {name: finder.cuts_from_counts(v, c) for name, (v, c) in counts.items()}
    return source.discretized(cuts, {name: range_labels(c) for name, c in cuts.items()})


def chunked_cut_method(source: ChunkedSource, method: str, **settings) -> CutMethod:
    """The method ``method`` (with the ``settings`` it reads: ``bins``, ``max_cuts``) that
    finds the cut points of ``source``'s numeric attributes from their per-value class counts
    (:meth:`CutMethod.cuts_from_counts`, the cut points it finds on the rows themselves);
    refused in one line for a method that cannot (:func:`chunked_methods`)."""
    if method not in chunked_methods():
        raise PreprocessError(f"numeric attribute '{source.numeric_names[0]}' of a chunked "
                              f"data set: discretization '{method}' is not available for "
                              f"chunked data; use one of {', '.join(chunked_methods())}")
    return cut_method(method, **settings)
