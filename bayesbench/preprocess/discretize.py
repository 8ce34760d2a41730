"""Discretization of numeric attributes: supervised MDL, Freedman-Diaconis, equal width, equal frequency.

A discretizer is fitted on training data only and then applied to any data.
Each numeric attribute gets sorted cut points ``c_1 < ... < c_m``; a value
``x`` falls into bin ``j`` = the number of cut points strictly below ``x``, so
bins are right-closed as in Weka: ``(-inf, c_1], (c_1, c_2], ..., (c_m, inf)``.
Values outside the training range fall into the outer bins, and a missing value
stays missing. The new nominal attribute carries Weka's range labels, for
example ``(-inf-2.45]``, ``(2.45-4.75]``, ``(4.75-inf)``, or ``All`` when there
is no cut point.

Methods
-------
``mdl``
    Fayyad and Irani's (1993) recursive minimisation of class entropy with the
    MDL stopping rule, as Weka's ``weka.filters.supervised.attribute.Discretize``
    computes it with default options: a cut is placed half-way between two
    adjacent distinct values; the best boundary of an interval is the first
    one (in increasing order) that minimises the weighted class entropy of the
    two sides; it is accepted when the information gain exceeds
    ``(log2(N - 1) + delta) / N`` with ``N`` the interval's size (Weka's
    "worse" encoding of the number of cut points) and
    ``delta = log2(3^k - 2) - (k H(S) - k1 H(S1) - k2 H(S2))``, ``k`` counting the
    classes present; accepted intervals are split again on both sides. Missing
    values are left out of the search. Entropies are evaluated in Weka's
    order of operations, so ties are broken the same way. Rows whose class is
    missing never get here (the readers drop them); Weka 3.6 would count them
    as members of the first class.
``fd``
    Freedman and Diaconis (1981): equal bins of width ``2 IQR n^(-1/3)`` over
    the training range, the edges ``numpy.histogram_bin_edges(x, bins="fd")``
    gives. When the IQR is zero (more than half the values equal) that width
    is zero; when it is so small against the range that it would give more
    bins than there are values, the bins would be mostly empty. In both cases
    Sturges' rule (``ceil(log2 n) + 1`` equal bins) is used instead.
``width``
    ``bins`` equal-width intervals over the training range (Weka's
    unsupervised equal-width cuts ``min + i (max - min) / bins``).
``frequency``
    About ``bins`` intervals holding equal numbers of training values: the cut
    for the ``i/bins`` quantile is moved to the mid-point between the two
    adjacent distinct values around that quantile, so equal values always
    share a bin; cuts that coincide are merged, so heavy ties give fewer bins.
``none``
    Numeric attributes stay numeric (for the learners that model them).

A constant (or entirely missing) training column gets no cut point: one bin.
``width`` and ``frequency`` make at most as many bins as the attribute has
distinct training values, whatever ``bins`` says, so that a huge ``bins``
never allocates without bound. ``frequency`` cannot do otherwise (its cuts lie
between distinct values; computing at most one quantile per value changes
nothing). ``width`` lowers a larger ``bins`` to the number of distinct values,
where Weka would keep the extra bins, all but that many of them empty.

Cut points need finite numbers: ``fit`` refuses an attribute with an infinite
training value, naming it (make such values missing, ``?``, or replace them).
``transform`` puts ``-inf`` and ``inf`` into the outer bins like any value
beyond the cut points. Errors are :class:`~bayesbench.errors.PreprocessError`.
"""
from __future__ import annotations

import math

import numpy as np

from ..errors import DataError, NotFittedError, PreprocessError
from ..data.chunks import ChunkedSource, numeric_chunks
from ..data.dataset import Attribute, Dataset, bin_codes

#: Methods that choose cut points (what ``bayesbench discretize --method`` offers).
CUT_METHODS = ("mdl", "fd", "width", "frequency")
#: Every discretization an experiment may ask for: a cut-point method, or ``none``.
METHODS = CUT_METHODS + ("none",)
#: The methods that find cut points of a chunked data set, from its per-value class counts.
CHUNKED_METHODS = ("mdl", "width")
#: The methods that read ``bins``.
BINNED_METHODS = ("width", "frequency")
_LN2 = math.log(2.0)


def present_values(x: np.ndarray) -> np.ndarray:
    """The values of ``x`` that are not missing (NaN); refuses infinite ones."""
    x = x[~np.isnan(x)]
    n_inf = int(np.isinf(x).sum())
    if n_inf:
        raise PreprocessError(f"{n_inf} infinite value(s) among the values to discretize; "
                              "cut points need finite numbers")
    return x


# ------------------------------------------------------------------ MDL
def _xlnx(x: np.ndarray) -> np.ndarray:
    """``x ln x`` with ``0 ln 0 = 0`` (Weka's ``ContingencyTables.lnFunc``)."""
    return x * np.log(np.where(x > 0, x, 1.0))


def _entropy(counts: np.ndarray) -> float:
    """Class entropy in bits of one count vector, summed in Weka's order."""
    acc = 0.0
    for c in counts.tolist():
        acc -= c * math.log(c) if c > 0 else 0.0
    total = float(counts.sum())
    if total == 0:
        return 0.0
    return (acc + total * math.log(total)) / (total * _LN2)


def _split_entropies(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Weighted class entropy (bits) of every candidate split at once.

    ``left`` and ``right`` are ``(n_candidates, n_classes)`` counts. The sum
    runs class by class, left side first, then right, as Weka's
    ``entropyConditionedOnRows`` does, so equal splits compare equal here too.
    """
    acc = np.zeros(left.shape[0])
    for side in (left, right):
        for j in range(side.shape[1]):
            acc = acc + _xlnx(side[:, j])
        acc = acc - _xlnx(side.sum(axis=1))
    total = left.sum(axis=1) + right.sum(axis=1)
    return -acc / (total * _LN2)


def _mdl_accepts(prior: np.ndarray, left: np.ndarray, right: np.ndarray,
                 split_entropy: float, n: int) -> bool:
    """Fayyad and Irani's MDL test for one split, with Weka's ``log2(N - 1)``."""
    prior_entropy = _entropy(prior)
    gain = prior_entropy - split_entropy
    k, k1, k2 = (int((v > 0).sum()) for v in (prior, left, right))
    try:
        log_3k = math.log(3.0 ** k - 2)
    except OverflowError:  # beyond 646 classes Java's Math.pow(3, k) is infinite, as in Weka
        log_3k = math.inf  # an infinite cost: no split is accepted
    delta = (log_3k / _LN2
             - (k * prior_entropy - k2 * _entropy(right) - k1 * _entropy(left)))
    return gain > (math.log(n - 1) / _LN2 + delta) / n


def mdl_cuts(x: np.ndarray, y: np.ndarray, n_classes: int) -> np.ndarray:
    """Fayyad-Irani MDL cut points of ``x`` (NaN = missing) for class codes ``y``.

    Returns the sorted cut points (empty when no split is accepted), equal to
    Weka's supervised ``Discretize`` with default options.
    """
    present_values(x)  # refuses infinite values
    return mdl_cuts_from_counts(*value_class_counts(x, y, n_classes))


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


def mdl_cuts_from_counts(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """:func:`mdl_cuts` from the sorted distinct values and their class counts
    ``(n_values, n_classes)``: the same cut points as from the rows they count (the
    candidate cuts lie between distinct values, and every entropy reads counts only)."""
    n_classes = counts.shape[1]
    # cum[i] = class counts of the first i distinct values
    cum = np.zeros((values.size + 1, n_classes))
    np.cumsum(counts, axis=0, out=cum[1:])
    cuts = []
    intervals = [(0, values.size)]
    while intervals:
        first, stop = intervals.pop()
        candidates = np.arange(first, stop - 1)  # a cut may follow distinct value i
        if candidates.size == 0:
            continue
        prior = cum[stop] - cum[first]
        left = cum[candidates + 1] - cum[first]
        right = prior - left
        entropies = _split_entropies(left, right)
        best = int(np.argmin(entropies))  # first minimum, as Weka's strict '<' scan
        if not entropies[best] < _entropy(prior):
            continue
        if not _mdl_accepts(prior, left[best], right[best], float(entropies[best]),
                            int(prior.sum())):
            continue
        i = int(candidates[best])
        cuts.append((values[i] + values[i + 1]) / 2.0)
        intervals += [(first, i + 1), (i + 1, stop)]
    return np.array(sorted(cuts), dtype=np.float64)


# ------------------------------------------------------- unsupervised
def fd_cuts(x: np.ndarray) -> np.ndarray:
    """Interior Freedman-Diaconis bin edges; Sturges' rule when FD degenerates (see above)."""
    x = present_values(x)
    if x.size == 0 or x.min() == x.max():
        return np.empty(0)
    q75, q25 = np.percentile(x, [75, 25])
    width = 2.0 * (q75 - q25) * x.size ** (-1.0 / 3.0)
    with np.errstate(divide="ignore", over="ignore"):
        n_bins = (x.max() - x.min()) / width if width > 0 else np.inf
    rule = "fd" if n_bins <= x.size else "sturges"
    edges = np.histogram_bin_edges(x, bins=rule)
    return np.unique(edges[1:-1])


def width_cuts(x: np.ndarray, bins: int) -> np.ndarray:
    """``bins - 1`` equally spaced cut points over the range of ``x``.

    ``bins`` is lowered to the number of distinct values of ``x`` (see above).
    """
    x = present_values(x)
    if x.size == 0 or x.min() == x.max():
        return np.empty(0)
    bins = min(bins, np.unique(x).size)
    lo, hi = float(x.min()), float(x.max())
    width = (hi - lo) / bins
    return np.unique(lo + width * np.arange(1, bins))


def frequency_cuts(x: np.ndarray, bins: int) -> np.ndarray:
    """Cut points near the ``i / bins`` quantiles, each half-way between distinct values.

    At most ``x.size`` quantiles are computed: from that many on, every gap between
    distinct values already holds one, so a larger ``bins`` gives the same cuts.
    """
    x = np.sort(present_values(x))
    distinct = np.unique(x)
    if distinct.size < 2:
        return np.empty(0)
    bins = min(bins, x.size)
    targets = np.quantile(x, np.arange(1, bins) / bins)
    # index of the largest distinct value <= the quantile; the cut follows it
    below = np.searchsorted(distinct, targets, side="right") - 1
    below = np.unique(below[(below >= 0) & (below < distinct.size - 1)])
    return (distinct[below] + distinct[below + 1]) / 2.0


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
    method : {"mdl", "fd", "width", "frequency", "none"}, default "mdl"
        How cut points are chosen (see the module docstring); one of :data:`METHODS`.
    bins : int, default 10
        Number of bins of ``width`` and ``frequency``; ignored by the other methods.

    Attributes
    ----------
    cuts_ : dict of str -> ndarray
        Sorted cut points of every numeric attribute seen in ``fit`` (empty for ``none``).
    """

    def __init__(self, method: str = "mdl", bins: int = 10):
        self.method = method
        self.bins = bins

    def _check_params(self):
        if self.method not in METHODS:
            raise PreprocessError(f"unknown discretization method {self.method!r}; "
                                  f"expected one of {', '.join(METHODS)}")
        if self.method in BINNED_METHODS and (
                isinstance(self.bins, bool) or not isinstance(self.bins, (int, np.integer))
                or self.bins < 1):
            raise PreprocessError(f"the number of bins must be a positive integer, "
                                  f"got {self.bins!r}")

    def fit(self, ds: Dataset) -> "Discretizer":
        """Choose cut points for every numeric attribute of the training data ``ds``."""
        self._check_params()
        cuts = {}
        for att, col in zip(ds.attributes, ds.columns):
            if att.is_nominal or self.method == "none":
                continue
            n_inf = int(np.isinf(col).sum())
            if n_inf:
                where = f"{ds.source}: " if ds.source else ""
                raise PreprocessError(
                    f"{where}attribute '{att.name}': {n_inf} infinite value(s) in the data to "
                    f"discretize; cut points need finite numbers (make them missing with '?' "
                    f"or replace them)")
            if self.method == "mdl":
                cuts[att.name] = mdl_cuts(col, ds.y, ds.n_classes)
            elif self.method == "fd":
                cuts[att.name] = fd_cuts(col)
            elif self.method == "width":
                cuts[att.name] = width_cuts(col, int(self.bins))
            else:
                cuts[att.name] = frequency_cuts(col, int(self.bins))
        self.cuts_ = cuts
        return self

    def transform(self, ds: Dataset) -> Dataset:
        """``ds`` with each fitted numeric attribute replaced by its bin codes."""
        if not hasattr(self, "cuts_"):
            raise NotFittedError("this Discretizer is not fitted yet; call fit first")
        if self.method == "none":
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
        return f"Discretizer(method={self.method!r}, bins={self.bins!r})"


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
                       chunk_rows: int | None = None) -> ChunkedSource:
    """``source`` with its numeric attributes coded by cut points found on all its rows (the
    ``global`` scope), as :class:`Discretizer` finds them on the same rows: ``mdl`` from each
    value's class counts, ``width`` from the distinct values. One more pass over the files."""
    if not source.numeric_names:
        return source
    if method not in CHUNKED_METHODS:
        raise PreprocessError(f"numeric attribute '{source.numeric_names[0]}' of a chunked "
                              f"data set: discretization '{method}' is not available for "
                              f"chunked data; use one of {', '.join(CHUNKED_METHODS)}")
    Discretizer(method, bins)._check_params()
    counts = chunked_value_counts(source, chunk_rows)
    for name, (values, _) in counts.items():
        if np.isinf(values).any():
            raise PreprocessError(f"{source.name}: attribute '{name}': infinite value(s) in "
                                  f"the data to discretize; cut points need finite numbers")
    cuts = {name: mdl_cuts_from_counts(v, c) if method == "mdl" else width_cuts(v, int(bins))
            for name, (v, c) in counts.items()}
    return source.discretized(cuts, {name: range_labels(c) for name, c in cuts.items()})
