"""Sufficient statistics of discrete data: class counts, per-attribute and pair counts.

Every table of naive Bayes, of TAN (with the conditional mutual information
as edge weight), of kDB with ``k = 1`` and of AODE is a single count
``N(c, x_i = a)`` or a pair count ``N(c, x_i = a, x_j = b)``, and counts are
additive over rows. So a cross-validation needs one counting pass: count each
test fold once, sum them for the whole data set, and obtain each training
fold's statistics as ``total - fold`` (exact integer arithmetic). Data too
large for memory are counted chunk by chunk and the chunks' statistics added.

Tables over more attributes (kDB's nodes of ``k >= 2`` parents, A2DE's triples) are
counted on request (:meth:`Statistics.tally`) from the rows that statistics counted
with :meth:`Statistics.from_codes`, which they keep (a reference, not a copy):
a training part's table is then the whole data set's, counted once and kept for
every fold, minus the test part's. A sum of chunks keeps no rows (that is what
bounds a chunked data set's memory); :meth:`Statistics.reading` gives it rows read
afresh chunk by chunk (:class:`ReadRows`), whose tables are the sums of their chunks',
all the tables a fit asks for counted in one pass (:meth:`Statistics.tallies`).

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

import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ...errors import ClassifierError
from .base import fresh_fit
from ...measures import information
from ...measures.codes import check_all_pairs, compact_codes, current_table_limit
from .counting import node_counts
from .structure import Node

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


class CountedRows:
    """The codes and classes of rows that :class:`Statistics` counted, and the tables
    counted from them so far (:meth:`table`), each counted once.

    The kept tables hold at most the table limit's number of cells
    (:func:`~bayesbench.measures.codes.current_table_limit`), the oldest dropped first.
    They are not pickled, but a process keeps the rows it was sent last
    (:data:`_RECEIVED`, by ``token``): a worker given the same rows by several tasks (the
    whole data set's, under every fold's training part) unpickles them as one object and
    counts each table once.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, token: str | None = None):
        self.X, self.y = X, y
        self._tables: dict = {}
        # unique across the processes and hosts of a run (it names rows, it draws no numbers)
        self.token = token or uuid.uuid4().hex

    def __reduce__(self):
        return _received, (self.token, self.X, self.y)

    def tables(self, requests) -> list[np.ndarray]:
        """:meth:`table` of each ``(key, count)`` of ``requests``."""
        return [self.table(key, count) for key, count in requests]

    def table(self, key, count: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        """``count(X, y)`` (read-only), counted on the first request for ``key``."""
        if key not in self._tables:
            table = count(self.X, self.y)
            table.flags.writeable = False
            self._tables[key] = table
            limit = current_table_limit()
            while len(self._tables) > 1 and sum(t.size for t in self._tables.values()) > limit:
                del self._tables[next(iter(self._tables))]
        return self._tables[key]


class ReadRows:
    """Rows too many to hold, read afresh as chunks ``(X, y)`` of codes by ``read()`` (a
    chunked data set's training part): a table of them is the sum of its chunks' tables,
    exact in integers. :meth:`tables` counts every table asked for in one pass."""

    def __init__(self, read: Callable, n_attributes: int):
        self.read, self.n_attributes = read, n_attributes

    def tables(self, requests) -> list[np.ndarray]:
        """``count(X, y)`` of all the rows, for each ``(key, count)`` of ``requests``."""
        totals = [None] * len(requests)
        for X, y in self.read():
            for i, (_, count) in enumerate(requests):
                table = count(X, y)
                if totals[i] is None:
                    totals[i] = table if table.flags.writeable else table.copy()
                else:
                    totals[i] += table
        empty = np.zeros((0, self.n_attributes), dtype=np.int64), np.zeros(0, dtype=np.int64)
        return [count(*empty) if total is None else total
                for total, (_, count) in zip(totals, requests)]


#: The rows unpickled in this process lately, the most recent last: a task's two terms (the
#: whole data set's rows, sent by every task, and its test part's).
_RECEIVED: OrderedDict = OrderedDict()
_RECEIVED_MAX = 2


def _received(token: str, X: np.ndarray, y: np.ndarray) -> CountedRows:
    """The rows ``token`` as this process last received them (with their tables), or
    these; unpickling calls it."""
    rows = _RECEIVED.pop(token, None)
    if rows is None:
        rows = CountedRows(X, y, token)
    _RECEIVED[token] = rows
    while len(_RECEIVED) > _RECEIVED_MAX:
        _RECEIVED.popitem(last=False)
    return rows


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
    rows : tuple of (int, CountedRows or ReadRows) or None
        The rows counted, as signed terms (``total - test part`` is
        ``((1, total rows), (-1, test rows))``), from which :meth:`tally` counts tables
        beyond pairs; None when they were not kept (a sum of chunks).

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
    rows: tuple | None = None

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
                   pair_count_matrix(X, y, cardinalities, n_classes), attribute_names,
                   ((1, CountedRows(X, y)),))

    @classmethod
    def empty(cls, cardinalities: Sequence[int], n_classes: int,
              attribute_names: Sequence[str] | None = None) -> "Statistics":
        """The statistics of no rows (the start of a sum over chunks)."""
        R = int(sum(int(c) for c in cardinalities))
        check_all_pairs(cardinalities, n_classes, square=True)
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
        # A sum keeps no rows: chunks summed must not all stay in memory.
        rows = None if sign > 0 or self.rows is None or other.rows is None else (
            self.rows + tuple((-s, r) for s, r in other.rows))
        return Statistics(self.cardinalities, self.n_classes,
                          self.class_counts + sign * other.class_counts,
                          self.pairs + sign * other.pairs,
                          self.attribute_names or other.attribute_names, rows)

    def __add__(self, other: "Statistics") -> "Statistics":
        """The statistics of the rows of both (without their rows: see the module docstring)."""
        return self._combine(other, 1)

    def __sub__(self, other: "Statistics") -> "Statistics":
        """The statistics of the rows of ``self`` not in ``other`` (``other`` a subset)."""
        return self._combine(other, -1)

    def without_rows(self) -> "Statistics":
        """The same counts, without the rows (as a sum of chunks has them)."""
        return Statistics(self.cardinalities, self.n_classes, self.class_counts, self.pairs,
                          self.attribute_names)

    def reading(self, read: Callable) -> "Statistics":
        """The same counts, their rows read chunk by chunk by ``read()`` (a fresh iterator
        over chunks ``(X, y)`` of codes: the rows these statistics count) when a table beyond
        the pairs is asked for (:class:`ReadRows`)."""
        return Statistics(self.cardinalities, self.n_classes, self.class_counts, self.pairs,
                          self.attribute_names, ((1, ReadRows(read, self.n_attributes)),))

    def tally(self, count: Callable, *args) -> np.ndarray:
        """The table ``count(X, y, cardinalities, n_classes, *args)`` of the rows counted:
        the signed sum of each term's (see ``rows``), each term's table counted once per
        ``(count, args)`` and kept (:class:`CountedRows`). ``count`` returns integer counts
        (exact in any sum); it checks its table's size itself.

        Raises :class:`StatisticsNotSufficient` when the rows were not kept.
        """
        return self.tallies([(count, args)])[0]

    def tallies(self, requests) -> list[np.ndarray]:
        """:meth:`tally` of each ``(count, args)`` of ``requests``, counted together (rows
        read chunk by chunk are read once for all of them)."""
        if self.rows is None:
            raise StatisticsNotSufficient(
                "tables over more than two attributes are counted from the rows, which "
                "the sum of a chunked data set's counts does not keep; fit it with fit "
                "or fit_chunks")
        cards, k = self.cardinalities, self.n_classes
        totals = [None] * len(requests)
        for sign, rows in self.rows:
            tables = rows.tables([((count, args), _counter(count, cards, k, args))
                                  for count, args in requests])
            for i, table in enumerate(tables):
                # In place after the first term: no product by the sign and no temporary
                # (the triple counts of A2DE are the size of its largest table).
                if totals[i] is None:
                    totals[i] = table.copy() if sign > 0 else -table
                elif sign > 0:
                    totals[i] += table
                else:
                    totals[i] -= table
        return totals

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

    def class_information(self) -> np.ndarray:
        """``I(Xi; C)`` of each attribute, to the last bit as
        :func:`~bayesbench.measures.information.mutual_information_with_class` computes it
        from the rows (it is ``I(Xi; C | constant)``)."""
        return np.array([information.cmi_from_counts(self.attribute(j).astype(np.float64)[None])
                         for j in range(self.n_attributes)])

    def cmi_matrix(self) -> np.ndarray:
        """``pair_matrix(information.cmi_from_counts)``, to the last bit, with the pairs'
        tables computed together (a Python call per pair was 12,250 calls for ten folds of
        50 attributes)."""
        m = self.n_attributes
        tables = ((i, j, self.pair(i, j))  # cast to float64 once, in their batch
                  for i in range(m) for j in range(i + 1, m))
        return information.cmi_matrix_of(tables, m)

    def nodes_counts(self, nodes: Sequence[Node]) -> list[np.ndarray]:
        """:meth:`node_counts` of every node of ``nodes``, those counted from the rows all
        in one :meth:`tallies`."""
        wide = [i for i, n in enumerate(nodes) if len(n.attributes) != 1 or len(n.parents) > 1]
        counted = dict(zip(wide, self.tallies([(_node_table, _node_key(nodes[i]))
                                               for i in wide]))) if wide else {}
        return [counted[i] if i in counted else self.node_counts(n.attributes, n.parents)
                for i, n in enumerate(nodes)]

    def node_counts(self, attributes: Sequence[int], parents: Sequence[int]) -> np.ndarray:
        """Counts of a node, as :func:`~.counting.node_counts` returns them from rows: float64
        ``(n_classes, n_parent_configs, n_values)``; from the pair counts for one attribute
        and at most one parent, else from the rows (:meth:`tally`)."""
        if len(attributes) != 1 or len(parents) > 1:
            return self.tally(_node_table, *_node_key(Node(attributes, parents)))
        [a] = attributes
        if not parents:
            return self.attribute(a).astype(np.float64)[:, None, :]
        return self.pair(parents[0], a).astype(np.float64)


def _counter(count: Callable, cardinalities, n_classes: int, args) -> Callable:
    """``count`` of the rows ``(X, y)`` alone (the table :meth:`Statistics.tally` asks for)."""
    return lambda X, y: count(X, y, cardinalities, n_classes, *args)


def _node_key(node: Node) -> tuple[tuple, tuple]:
    """``(attributes, parents)`` of a node as tuples of ints: the arguments of its table."""
    return tuple(int(a) for a in node.attributes), tuple(int(p) for p in node.parents)


def _node_table(X, y, cardinalities, n_classes, attributes, parents) -> np.ndarray:
    """A node's counts from rows (integers held exactly in float64), for :meth:`Statistics.tally`."""
    return node_counts(Node(attributes, parents), X, y, cardinalities, n_classes)


class StatisticsLearner:
    """Mixin of the learners that can be fitted from :class:`Statistics` instead of rows.

    ``fit_statistics(stats)`` is the learner API's one addition for count-based
    learning: it fits the model that ``fit(X, y, cardinalities=stats.cardinalities,
    n_classes=stats.n_classes)`` would fit on the rows ``stats`` counts, exactly (same
    structure, same tables, same predictions), without the rows. The runner uses it
    to fit each training fold of a cross-validation as ``total - test fold``, and to
    fit data too large for memory from the sum of their chunks' counts.

    Learners that have it: ``nb``, ``tan`` and ``ddr_tan`` (every criterion), ``kdb``,
    ``aode`` and ``ande``; with ``weights`` (AWNB, MANB, WANBIA), which read the
    rows, it raises :class:`StatisticsNotSufficient` and the runner fits from rows.
    ``kdb`` of ``k >= 2`` and ``ande`` of ``n = 2`` count their tables beyond pairs from
    the rows (:meth:`Statistics.tally`): from statistics without rows (a chunked data
    set's) they fit by ``fit_chunks``, which reads the rows in chunks for those tables.
    External classifiers need not implement it: the runner calls it only when it exists.

    A subclass implements ``_fit_statistics(stats)`` (the part after the checks).
    """

    @fresh_fit
    def fit_statistics(self, stats: Statistics):
        """Fit from the sufficient statistics ``stats`` of the training rows; returns self."""
        start_statistics_fit(self, stats)
        self._fit_statistics(stats)
        return self

    def fit_chunks(self, stats: Statistics, read: Callable):
        """Fit on rows too many for memory: ``stats`` their sufficient statistics, ``read()``
        a fresh iterator over them as chunks ``(X, y)`` of codes, read (once) only for the
        tables beyond the pair counts (kDB's nodes of two parents or more, A2DE's triples);
        the model of ``fit`` on all the rows. Returns self."""
        return self.fit_statistics(stats.reading(read))

    def _fit_statistics(self, stats: Statistics):
        raise NotImplementedError


def start_statistics_fit(clf, stats: Statistics) -> None:
    """Check ``stats`` and set what ``fit`` sets of a classifier before its tables
    (classes, attribute count and names, cardinalities) from them."""
    if not isinstance(stats, Statistics):
        raise ClassifierError(f"fit_statistics takes a Statistics object, got "
                              f"{type(stats).__name__}")
    if stats.n_rows == 0:
        raise ClassifierError("cannot fit on zero rows")
    clf.classes_ = np.arange(stats.n_classes)
    clf.n_features_in_ = stats.n_attributes
    if stats.attribute_names is not None:
        clf.feature_names_in_ = np.asarray(stats.attribute_names, dtype=object)
    clf.cardinalities_ = np.asarray(stats.cardinalities, dtype=np.int64)
    clf.categories_ = None


def fits_from_statistics(clf, rows: bool = True) -> bool:
    """Whether ``clf`` (an unfitted classifier) can be fitted by ``fit_statistics`` with its
    parameters: it has the method and does not refuse a trial fit on two counted rows of
    three attributes (a learner refuses parameters that need rows before it reads the
    counts). Without ``rows``, from statistics that keep no rows (a chunked data set's)."""
    if not callable(getattr(clf, "fit_statistics", None)):
        return False
    trial = Statistics.from_codes(np.array([[0, 0, 1], [1, 1, 0]]), np.array([0, 1]),
                                  [2, 2, 2], 2)
    if not rows:
        trial = trial.without_rows()
    try:
        type(clf)(**clf.get_params()).fit_statistics(trial)
    except ClassifierError:
        # Not sufficient, or parameters that fail anyway: fitting from rows reports why.
        return False
    return True


def fits_from_chunks(clf) -> bool:
    """Whether ``clf`` (an unfitted classifier) fits in passes over rows read chunk by
    chunk: ``fit_chunks(stats, read)``, ``stats`` the training rows' :class:`Statistics`
    (kept rows or not) and ``read()`` a fresh iterator over their chunks ``(X, y)`` of codes
    (SKDB's second and third passes; a chunked data set's runner reads them from its files).
    A :class:`StatisticsLearner` does with its parameters when it fits from statistics that
    keep their rows (:func:`fits_from_statistics`): its ``fit_chunks`` reads the rows for
    what it would count from the kept ones."""
    if isinstance(clf, StatisticsLearner):
        return fits_from_statistics(clf)
    return callable(getattr(clf, "fit_chunks", None))
