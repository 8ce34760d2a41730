"""The training and test sets of a bias-variance decomposition (``evaluation: {kind:
bias_variance}``), drawn as Weka 3.6 draws them, each one a task of the run like a fold.

``kohavi_wolpert`` is Weka's ``BVDecompose`` (Kohavi and Wolpert 1996): the data are
shuffled once and split into a training pool of ``floor(train_fraction * n)`` rows and a
test set of the rest; each iteration shuffles the pool and trains on its first half
(``pool // 2`` rows), and every iteration is tested on the same test set.

``subsampled_cv`` is Weka's ``BVDecomposeSegCVSub`` (Webb 2000, sub-sampled
cross-validation) with Weka's default overlap ``p = m / (n - 1)``: training sets of
``m = floor(train_fraction * n)`` rows. Weka cuts the data into segments of ``tps = ceil(m /
p + 1)`` rows, which with that ``p`` is one segment of all ``n`` rows, and the segment into
``k = ceil(n / (n - m))`` folds; in each iteration the segment is shuffled and each fold is
tested on a model trained on ``m`` rows drawn from the other folds, so that every row is
classified once per iteration.

Every draw is a pure function of ``(seed, data set name, iteration)`` (the first shuffle of
``(seed, data set name)``), as the folds of cross-validation are: any executor, any order.

``repeats`` independent decompositions (each quantity's standard error comes from their
spread) each draw anew: decomposition ``r`` shuffles the data with the generator of ``(seed,
data set name, r)``, and its iterations are the tasks' repetitions ``r x iterations`` to
``(r + 1) x iterations - 1``, each drawn from its own repetition's generator, so that the
first decomposition is the one a run without ``repeats`` draws, task for task.
The decomposition itself is :mod:`bayesbench.stats.bias_variance`.
"""
from __future__ import annotations

import math

import numpy as np

from ..data.fold_assignment import fold_rng
from ..errors import PlanError
from ..spec import EvaluationSpec
from .splits import Split

# The evaluation kinds besides the ``cv`` scheme, and the protocols of bias_variance.
KINDS = ("bias_variance",)
METHODS = ("kohavi_wolpert", "subsampled_cv")
# Iterations: a bound on the tasks one decomposition asks for (Weka's default is 50; each
# iteration adds one task per classifier, or one per fold of every segment).
MAX_ITERATIONS = 1000
# Independent decompositions: a bound on their number (100 give each quantity's standard error
# a tenth of one decomposition's spread; each adds `iterations` tasks per classifier).
MAX_REPEATS = 100
# The fold_rng streams of the first shuffle and of each iteration's draws, apart from the
# streams of evaluation/prepare.py (1 to 5) that the same (iteration, fold) also seeds.
_SHUFFLE_STREAM, _DRAW_STREAM = 6, 7


def pool_size(n: int, spec: EvaluationSpec) -> int:
    """The rows of the training pool (``kohavi_wolpert``) or of each training set
    (``subsampled_cv``) of a data set of ``n`` rows: Weka's ``-T``."""
    return int(math.floor(spec.train_fraction * n))


def bias_variance_splits(n: int, spec: EvaluationSpec, *, seed: int, dataset: str) -> list[Split]:
    """Every train/test split of the decompositions of a data set of ``n`` rows, iteration
    by iteration (``repetition`` is the iteration, counted over the ``repeats``
    decompositions, ``fold`` its segment's fold)."""
    return [s for r in range(spec.repeats) for s in _decomposition(n, spec, seed, dataset, r)]


def repeat_of(repetition: int, spec: EvaluationSpec) -> int:
    """The decomposition (0 to ``repeats - 1``) of a task's ``repetition``."""
    return repetition // spec.iterations


def _decomposition(n: int, spec: EvaluationSpec, seed: int, dataset: str, r: int) -> list[Split]:
    """The splits of decomposition ``r``."""
    size = pool_size(n, spec)
    order = fold_rng(seed, dataset, r, 0, _SHUFFLE_STREAM).permutation(n)
    first = r * spec.iterations  # the repetition of its first iteration
    if spec.method == "kohavi_wolpert":
        if size < 2 or size >= n:
            raise PlanError([(("evaluation", "train_fraction"), (
                f"a training pool of {size} of the {n} rows of '{dataset}' leaves no "
                f"training set of {size // 2} rows or no test row"))])
        pool, test = order[:size], np.sort(order[size:])
        return [Split(i, 0, np.sort(_draws(seed, dataset, i).permutation(pool)[:size // 2]), test)
                for i in range(first, first + spec.iterations)]
    if spec.method != "subsampled_cv":
        raise ValueError(f"unknown method {spec.method!r}; expected one of {', '.join(METHODS)}")
    return _subsampled_cv(order, size, range(first, first + spec.iterations), seed, dataset)


def _draws(seed: int, dataset: str, iteration: int) -> np.random.Generator:
    return fold_rng(seed, dataset, iteration, 0, _DRAW_STREAM)


def n_folds(n: int, m: int) -> int:
    """Weka's folds ``k = ceil(tps / (tps - m))`` of its one segment: with its default
    overlap ``p = m / (n - 1)``, ``tps = ceil(m / p + 1) = n`` in exact arithmetic (Weka's
    doubles can make it ``n + 1``, which leaves it no whole segment and fails)."""
    return -(-n // (n - m))


def _subsampled_cv(order, m: int, iterations: range, seed: int, dataset: str) -> list[Split]:
    n = order.size
    if m < 1 or m >= n - 1:
        raise PlanError([(("evaluation", "train_fraction"), (
            f"training sets of {m} of the {n} rows of '{dataset}': Weka's sub-sampled "
            f"cross-validation needs between 1 and {n - 2} rows"))])
    k = n_folds(n, m)
    # Fold sizes as Weka deals them: the first n % k folds one row longer.
    bounds = np.concatenate([[0], np.cumsum([n // k + (f < n % k) for f in range(k)])])
    out = []
    for i in iterations:
        rng = _draws(seed, dataset, i)
        segment = rng.permutation(order)
        for f in range(k):
            test = segment[bounds[f]:bounds[f + 1]]
            rest = np.concatenate([segment[:bounds[f]], segment[bounds[f + 1]:]])
            out.append(Split(i, f, np.sort(rng.permutation(rest)[:m]), np.sort(test)))
    return out
