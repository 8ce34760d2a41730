"""The training and test sets of a bias-variance decomposition (``evaluation: {kind:
bias_variance}``), drawn as Weka 3.6 draws them, each one a task of the run like a fold.

``kohavi_wolpert`` is Weka's ``BVDecompose`` (Kohavi and Wolpert 1996): the data are
shuffled once and split into a training pool of ``floor(train_fraction * n)`` rows and a
test set of the rest; each iteration shuffles the pool and trains on its first half
(``pool // 2`` rows), and every iteration is tested on the same test set.

``subsampled_cv`` is Weka's ``BVDecomposeSegCVSub`` (Webb 2000, sub-sampled
cross-validation) with Weka's default overlap ``p = m / (n - 1)``: training sets of
``m = floor(train_fraction * n)`` rows; the data are cut into ``q`` segments of
``tps = ceil(m / p + 1)`` rows (the rest left over) and each segment into ``k =
ceil(tps / (tps - m))`` folds; in each iteration every segment is shuffled and each of its
folds is tested on a model trained on ``m`` rows drawn from the segment's other folds. The
first fold of the first segment also tests the rows left over, so that every row is
classified once per iteration.

Every draw is a pure function of ``(seed, data set name, iteration)`` (the first shuffle of
``(seed, data set name)``), as the folds of cross-validation are: any executor, any order.
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
# The fold_rng streams of the first shuffle and of each iteration's draws, apart from the
# streams of evaluation/prepare.py (1 to 5) that the same (iteration, fold) also seeds.
_SHUFFLE_STREAM, _DRAW_STREAM = 6, 7


def pool_size(n: int, spec: EvaluationSpec) -> int:
    """The rows of the training pool (``kohavi_wolpert``) or of each training set
    (``subsampled_cv``) of a data set of ``n`` rows: Weka's ``-T``."""
    return int(math.floor(spec.train_fraction * n))


def bias_variance_splits(n: int, spec: EvaluationSpec, *, seed: int, dataset: str) -> list[Split]:
    """Every train/test split of the decomposition of a data set of ``n`` rows, iteration
    by iteration (``repetition`` is the iteration, ``fold`` its segment's fold)."""
    size = pool_size(n, spec)
    order = fold_rng(seed, dataset, 0, 0, _SHUFFLE_STREAM).permutation(n)
    if spec.method == "kohavi_wolpert":
        if size < 2 or size >= n:
            raise PlanError([(("evaluation", "train_fraction"), (
                f"a training pool of {size} of the {n} rows of '{dataset}' leaves no "
                f"training set of {size // 2} rows or no test row"))])
        pool, test = order[:size], np.sort(order[size:])
        return [Split(i, 0, np.sort(_draws(seed, dataset, i).permutation(pool)[:size // 2]), test)
                for i in range(spec.iterations)]
    if spec.method != "subsampled_cv":
        raise ValueError(f"unknown method {spec.method!r}; expected one of {', '.join(METHODS)}")
    return _subsampled_cv(order, size, spec.iterations, seed, dataset)


def _draws(seed: int, dataset: str, iteration: int) -> np.random.Generator:
    return fold_rng(seed, dataset, iteration, 0, _DRAW_STREAM)


def segments(n: int, m: int) -> tuple[int, int, int]:
    """Weka's ``(tps, k, q)`` for ``n`` rows and training sets of ``m``: the rows of a
    segment, its folds and the number of whole segments, with ``p = m / (n - 1)``."""
    p = m / (n - 1)
    tps = math.ceil(m / p + 1)
    k = math.ceil(tps / (tps - m))
    return tps, k, n // tps


def _subsampled_cv(order, m: int, iterations: int, seed: int, dataset: str) -> list[Split]:
    n = order.size
    if m < 1 or m >= n - 1:
        raise PlanError([(("evaluation", "train_fraction"), (
            f"training sets of {m} of the {n} rows of '{dataset}': Weka's sub-sampled "
            f"cross-validation needs between 1 and {n - 2} rows"))])
    tps, k, q = segments(n, m)
    if k > tps or q < 1:
        raise PlanError([(("evaluation", "train_fraction"), (
            f"training sets of {m} of the {n} rows of '{dataset}' need {k} folds of a "
            f"segment of {tps} rows"))])
    # Fold sizes as Weka deals them: the first tps % k folds one row longer.
    sizes = [tps // k + (f < tps % k) for f in range(k)]
    if m > tps - sizes[0]:
        raise PlanError([(("evaluation", "train_fraction"), (
            f"training sets of {m} rows of '{dataset}' exceed the {tps - sizes[0]} rows "
            f"left beside a fold of a segment"))])
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    left_over = order[q * tps:]
    out = []
    for i in range(iterations):
        rng = _draws(seed, dataset, i)
        for s in range(q):
            segment = rng.permutation(order[s * tps:(s + 1) * tps])
            for f in range(k):
                test = segment[bounds[f]:bounds[f + 1]]
                rest = np.concatenate([segment[:bounds[f]], segment[bounds[f + 1]:]])
                train = rng.permutation(rest)[:m]
                if s == 0 and f == 0:
                    test = np.concatenate([test, left_over])
                out.append(Split(i, s * k + f, np.sort(train), np.sort(test)))
    return out
