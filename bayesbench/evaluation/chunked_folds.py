"""The folds of a chunked data set (:mod:`bayesbench.data.chunks`): how its rows are dealt
into folds without seeing the other rows, and each fold's cut points when numeric
attributes are discretized per fold.

**Dealing** (:class:`Dealing`). Every row has a *global row index*: its position among the
rows with a class, across the files in order. Unstratified, its fold is a seeded hash of
that index (:func:`~bayesbench.data.fold_assignment.hashed_folds`). Stratified, it is dealt
from its *class rank*, its position among the rows of its class (counted from the scan's
rows of each class per file, :attr:`~bayesbench.data.chunked_format.ChunkedSource.
file_class_rows`): each class's rows are taken ``k`` at a time, and each such block gives
one row to each fold in an order drawn by a seeded hash
(:func:`~bayesbench.data.fold_assignment.stratified_hashed_folds`), so each class's share of
every fold is within one row of ``n_c / k``. Either way a row's fold depends on the seed,
the data set's name, the repetition and the row itself, in every process and every pass.

**Per-fold cut points** (:func:`fold_sources`, ``preprocess.scope: fold``): one pass counts,
for each fold, each numeric attribute's class counts per distinct value among the fold's
rows; a fold's training counts are the data set's minus the fold's, and its cut points are
found from them by the code that finds them from the training rows in memory
(:meth:`~bayesbench.preprocess.cut_method.CutMethod.cuts_from_counts`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data.chunks import ChunkedSource, read_chunks
from ..data.fold_assignment import fold_rng, hashed_folds, stratified_hashed_folds
from ..errors import PreprocessError
from ..preprocess.cut_method import merge_value_counts, value_class_counts
from ..preprocess.discretize import range_labels

# The stream of the fold hash's salt (prepare.py numbers the fold's other streams 1 to 5).
FOLD_HASH_STREAM = 6


@dataclass(frozen=True)
class Dealing:
    """How a chunked data set's rows are dealt into ``folds`` in each of ``repetitions``:
    hashed from the ``seed`` and the data set's ``name``, ``stratified`` by class or not."""

    seed: int
    name: str
    folds: int
    repetitions: int
    stratified: bool = False

    def deal(self, start: int, y: np.ndarray, ranks: np.ndarray | None) -> list[np.ndarray]:
        """The fold of each row of a chunk in each repetition: rows ``start ..`` of class
        codes ``y``, their class ranks ``ranks`` (stratified only)."""
        out = []
        for rep in range(self.repetitions):
            rng = fold_rng(self.seed, self.name, rep, FOLD_HASH_STREAM)
            out.append(stratified_hashed_folds(ranks, y, self.folds, rng) if self.stratified
                       else hashed_folds(np.arange(start, start + y.size), self.folds, rng))
        return out


def dealt_chunks(source: ChunkedSource, index: int, dealing: Dealing, chunk_rows: int):
    """``(columns, y, folds)`` of each chunk of file ``index``: its columns as read
    (:func:`~bayesbench.data.chunks.read_chunks`), class codes, and the fold of each row in
    each repetition (:meth:`Dealing.deal`)."""
    before = source.first_class_rows(index) if dealing.stratified else None
    for start, columns, y in read_chunks(source, index, chunk_rows):
        ranks = None if before is None else before[y] + _within_class(y, before.size)
        yield columns, y, dealing.deal(start, y, ranks)
        if before is not None:
            before += np.bincount(y, minlength=before.size)


def _within_class(y: np.ndarray, n_classes: int) -> np.ndarray:
    """Each row's position among the rows of its class in ``y``."""
    order = np.argsort(y, kind="stable")
    counts = np.bincount(y, minlength=n_classes)
    out = np.empty(y.size, dtype=np.int64)
    out[order] = np.arange(y.size) - np.repeat(np.cumsum(counts) - counts, counts)
    return out


# ------------------------------------------------------------ per-fold cut points
@dataclass(frozen=True)
class ValueTask:
    """One file of a chunked data set whose numeric attributes' per-fold value counts are
    wanted, for a worker."""

    source: ChunkedSource
    index: int
    dealing: Dealing
    chunk_rows: int


def value_counts_file(task: ValueTask) -> list[list[dict]]:
    """Each fold's ``{numeric attribute: (values, class counts)}`` of its rows in one file,
    ``[repetition][fold]`` (:func:`~bayesbench.preprocess.discretize.value_class_counts`)."""
    s, d = task.source, task.dealing
    which = [i for i, is_num in enumerate(s.numeric) if is_num]
    k = s.n_classes
    empty = (np.empty(0), np.zeros((0, k), dtype=np.int64))
    out = [[{s.attribute_names[i]: empty for i in which} for _ in range(d.folds)]
           for _ in range(d.repetitions)]
    for columns, y, dealt in dealt_chunks(s, task.index, d, task.chunk_rows):
        for rep, fold_of in enumerate(dealt):
            for f in range(d.folds):
                rows = fold_of == f
                part = out[rep][f]
                for i in which:
                    name = s.attribute_names[i]
                    part[name] = merge_value_counts(
                        part[name], value_class_counts(columns[i][rows], y[rows], k))
    return out


def _minus(total: tuple, part: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The value counts of the rows of ``total`` not in ``part`` (a subset of them), the
    values that no such row holds left out."""
    values, counts = total[0], total[1].copy()
    counts[np.searchsorted(values, part[0])] -= part[1]
    kept = counts.sum(axis=1) > 0
    return values[kept], counts[kept]


def fold_sources(source: ChunkedSource, dealing: Dealing, finder, run_on,
                 chunk_rows: int) -> tuple[tuple[ChunkedSource, ...], ...]:
    """The source of each fold, ``[repetition][fold]``, its numeric attributes coded into
    the bins of cut points found by ``finder`` (a
    :class:`~bayesbench.preprocess.cut_method.CutMethod` that counts) on the fold's training
    rows: one pass over the files, each counted by ``run_on(value_counts_file, tasks)``."""
    folds = None
    tasks = [ValueTask(source, i, dealing, chunk_rows) for i in range(len(source.files))]
    for _, counts in run_on(value_counts_file, tasks):
        folds = counts if folds is None else [
            [{name: merge_value_counts(a[name], b[name]) for name in a}
             for a, b in zip(mine, theirs)] for mine, theirs in zip(folds, counts)]
    out = []
    for per_rep in folds:
        total = {name: per_rep[0][name] for name in per_rep[0]}
        for part in per_rep[1:]:
            total = {name: merge_value_counts(total[name], part[name]) for name in total}
        for name, (values, _) in total.items():
            if np.isinf(values).any():
                raise PreprocessError(f"{source.name}: attribute '{name}': infinite value(s) "
                                      f"in the data to discretize; cut points need finite "
                                      f"numbers")
        rows = []
        for part in per_rep:
            cuts = {name: finder.cuts_from_counts(*_minus(total[name], part[name]))
                    for name in total}
            rows.append(source.discretized(cuts, {n: range_labels(c) for n, c in cuts.items()}))
        out.append(tuple(rows))
    return tuple(out)
