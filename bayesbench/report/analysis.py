"""Compare classifiers: the statistics of a scores table, as a frozen :class:`Comparison`.

Pure functions of in-memory scores (reading them is :mod:`.inputs`, printing
them :mod:`.render`):

- :func:`compare` takes one row per (data set, classifier, repetition, fold),
  as ``records_frame`` returns the records of runs: mean and standard deviation
  of each classifier on each data set, and a test over the folds of each data
  set against the baseline (Weka's ``v`` / ``*`` marks);
- :func:`compare_scores` takes one score per data set and classifier (e.g. a
  published table);
- both then rank the classifiers within each data set and run the tests over
  data sets (Demšar 2006): Friedman's chi-square_F and Iman-Davenport's F_F,
  the Nemenyi and Bonferroni-Dunn critical differences, each classifier against
  the baseline (z, Holm, Bonferroni-Dunn, Wilcoxon signed-rank, sign test),
  and wins/ties/losses;
- beside every significance mark an effect size: per data set the mean
  difference to the baseline with its 95% confidence interval over the folds
  (Nadeau and Bengio's corrected variance) and the Bayesian correlated t-test
  (:class:`FoldEffects`); over data sets Cohen's d_z, the rank-biserial
  correlation and the Bayesian signed-rank test (:class:`DatasetEffects`), with
  a region of practical equivalence ``rope``; and every pair's Nemenyi and
  Holm-adjusted Wilcoxon p-values.

The fold tests run on all cells at once (:func:`bayesbench.stats.fold_tests`
on a data sets x classifiers x folds array), so that comparing 50 classifiers
on 200 data sets costs array operations, not 10,000 small DataFrames.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np
import pandas as pd

from .. import stats
from ..errors import StatsError
from ..evaluation.metrics import LOWER_IS_BETTER, METRIC_NAMES
from ..spec import CompareSpec

__all__ = ["Comparison", "DatasetEffects", "FoldEffects", "compare", "compare_scores"]

# The Bayesian signed-rank test's Monte Carlo draws: baycomp's default number, one fixed seed,
# so that a comparison prints the same probabilities every time (and baycomp's, given seed 0).
# Its cost grows as draws x data sets^2 per classifier (about 0.6 s for 200 data sets), so a
# comparison at scale may ask for fewer draws, or none (samples=0: the test is left out).
SIGNED_RANK_SAMPLES = 50000
SIGNED_RANK_SEED = 0


def _none() -> Mapping:
    return MappingProxyType({})


@dataclass(frozen=True)
class FoldEffects:
    """Each classifier against the baseline on each data set, over the folds (data sets x
    classifiers frames; NaN in the baseline's column and where there are < 2 paired folds).

    ``difference`` is the mean of classifier - baseline, ``low``/``high`` its 95% confidence
    interval with Nadeau and Bengio's corrected variance (the interval the corrected t-test
    inverts); ``p_left``/``p_rope``/``p_right`` the Bayesian correlated t-test's
    probabilities that the classifier is better by more than ``rope``, practically
    equivalent, or worse (rho = n_test / n_total; NaN without the fold sizes).
    """

    difference: pd.DataFrame
    low: pd.DataFrame
    high: pd.DataFrame
    p_left: pd.DataFrame
    p_rope: pd.DataFrame
    p_right: pd.DataFrame


@dataclass(frozen=True)
class DatasetEffects:
    """One classifier against the baseline over the complete data sets: Cohen's d_z and the
    rank-biserial correlation of classifier - baseline (positive: higher scores), and the
    Bayesian signed-rank test (``p_left``: the classifier is better by more than the rope;
    None when the comparison asked for no draws)."""

    cohens_dz: float
    rank_biserial: float
    signed_rank: stats.SignedRankResult | None


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing classifiers on one metric.

    ``mean``, ``std``, ``pvalue`` and ``sign`` are data sets x classifiers
    frames (``std`` and the fold tests are absent when only one score per cell
    was given). ``sign`` is +1 where a classifier is significantly better than
    the baseline on that data set, -1 where significantly worse, 0 otherwise.
    The tests over data sets use the ``complete`` data sets (a score for every
    classifier); ``friedman`` and the post-hoc results are None when fewer than
    two data sets or classifiers are available (``notes`` says why).
    ``wilcoxon``, ``sign_test``, ``win_tie_loss``, ``significant_win_tie_loss`` and
    ``over_datasets`` map each classifier but the baseline to its result against the
    baseline; ``scores`` holds the fold scores compared (columns ``dataset``,
    ``classifier``, ``repetition``, ``fold``, ``value``; NaN for a failed task); ``effects`` holds the effect sizes and Bayesian tests per data set (fold
    scores only), ``nemenyi_pairs`` and ``wilcoxon_pairs`` every pair's post-hoc test
    (pairs of column indices of ``mean``).
    """

    metric: str
    baseline: str
    test: str | None
    alpha: float
    lower_is_better: bool
    mean: pd.DataFrame
    std: pd.DataFrame | None = None
    pvalue: pd.DataFrame | None = None
    sign: pd.DataFrame | None = None
    complete: list[str] = field(default_factory=list)
    average_ranks: pd.Series | None = None
    friedman: stats.FriedmanResult | None = None
    nemenyi: stats.NemenyiResult | None = None
    bonferroni_dunn_cd: float | None = None
    control: stats.ControlResult | None = None
    holm: stats.AdjustedResult | None = None
    bonferroni: stats.AdjustedResult | None = None
    wilcoxon: Mapping[str, stats.WilcoxonResult] = field(default_factory=_none)
    sign_test: Mapping[str, stats.SignTestResult] = field(default_factory=_none)
    win_tie_loss: Mapping[str, stats.WinTieLoss] = field(default_factory=_none)
    significant_win_tie_loss: Mapping[str, stats.WinTieLoss] = field(default_factory=_none)
    rope: float = 0.01
    scores: pd.DataFrame | None = None
    effects: FoldEffects | None = None
    over_datasets: Mapping[str, DatasetEffects] = field(default_factory=_none)
    nemenyi_pairs: stats.PairwiseResult | None = None
    wilcoxon_pairs: stats.PairwiseResult | None = None
    notes: tuple[str, ...] = ()
    # Said beside every test over data sets (omnibus, post-hoc, Bayesian signed-rank).
    warnings: tuple[str, ...] = ()

    @property
    def classifiers(self) -> list[str]:
        return list(self.mean.columns)

    @property
    def datasets(self) -> list[str]:
        return list(self.mean.index)

    def groups(self) -> list[list[str]]:
        """Sets of classifiers the Nemenyi test cannot tell apart (Demšar's bars)."""
        if self.nemenyi is None:
            return []
        names = self.classifiers
        return [[names[i] for i in g] for g in
                stats.cd_groups(self.average_ranks.to_numpy(), self.nemenyi.critical_difference)]


def _check_rope(rope) -> float:
    if isinstance(rope, bool) or not np.isfinite(rope) or rope < 0:
        raise StatsError(f"rope must be a number >= 0, got {rope!r}")
    return float(rope)


def _check_options(test, alpha) -> None:
    if test is not None and test not in stats.FOLD_TESTS:
        raise StatsError(f"unknown test '{test}'; expected one of {', '.join(stats.FOLD_TESTS)}")
    if not 0.0 < alpha < 1.0:
        raise StatsError(f"alpha must lie strictly between 0 and 1, got {alpha}")


def _resolve_baseline(names: list[str], baseline: str | None) -> str:
    if baseline is None:
        return names[0]
    if baseline not in names:
        raise StatsError(f"baseline '{baseline}' is not among the classifiers: {', '.join(names)}")
    return baseline


# ---- one score per data set and classifier ---------------------------------------------------

def compare_scores(scores: pd.DataFrame, settings: CompareSpec = CompareSpec(metric="score"), *,
                   lower_is_better: bool = False, samples: int = SIGNED_RANK_SAMPLES) -> Comparison:
    """Compare classifiers given one score per data set (rows) and classifier (columns).

    Only the tests over data sets apply; missing scores (NaN) leave a data set
    out of them. ``settings``: the metric's name (default "score"), the baseline (default
    the first column), alpha and rope (its test over folds is not read: there are no folds).
    """
    metric, alpha = settings.metric or "score", settings.alpha
    _check_options(None, alpha)
    if scores.shape[1] < 1 or scores.shape[0] < 1:
        raise StatsError("no scores to compare")
    mean = scores.astype(float)
    mean.index = [str(i) for i in mean.index]
    mean.columns = [str(c) for c in mean.columns]
    base = _resolve_baseline(list(mean.columns), settings.baseline)
    return _over_datasets(dict(metric=metric, baseline=base, test=None, alpha=alpha,
                               lower_is_better=bool(lower_is_better), mean=mean,
                               rope=_check_rope(settings.rope)), [], samples)


# ---- the tests over data sets ----------------------------------------------------------------

# Below this many data sets the tests over data sets are reported with a warning: autorank
# (Herbold 2020) refuses them, and Demšar (2006) finds them almost powerless.
MIN_DATASETS = 5


def few_datasets_warning(n: int) -> str:
    """The warning every test over ``n`` data sets carries when ``n`` < :data:`MIN_DATASETS`."""
    return (f"WARNING: only {n} data sets. The tests over data sets (Friedman, Iman-Davenport, "
            f"Nemenyi, Bonferroni-Dunn, Holm, Wilcoxon, sign) and the Bayesian signed-rank test "
            f"need at least {MIN_DATASETS} to mean much (autorank refuses fewer); read the "
            f"per-data-set results instead.")


def _over_datasets(fields: dict, notes: list[str], samples: int) -> Comparison:
    """The :class:`Comparison` of ``fields`` (metric ... mean, std, pvalue, sign), with ranks,
    Friedman, post-hoc tests and win/tie/loss computed from ``fields["mean"]``."""
    mean, base, lower = fields["mean"], fields["baseline"], fields["lower_is_better"]
    names, values = list(mean.columns), mean.to_numpy(dtype=float)
    finite = np.isfinite(values)
    complete = [ds for ds, ok in zip(mean.index, finite.all(axis=1)) if ok]
    dropped = [ds for ds, ok in zip(mean.index, finite.all(axis=1)) if not ok]
    if dropped:
        notes.append(f"{len(dropped)} data set(s) lack a score for some classifier and are left "
                     f"out of the ranks and the tests over data sets: {', '.join(dropped)}; "
                     f"wins/ties/losses count every data set where both classifiers have a score.")
    fields.update(complete=complete, **_win_tie_loss(values, finite, names, base, fields.get("sign"), lower))
    if len(names) < 2:
        notes.append("only one classifier: nothing to compare.")
    elif len(complete) < 2:
        notes.append(f"the tests over data sets need at least 2 data sets with every classifier; "
                     f"there are {len(complete)}.")
    else:
        complete_values = values[finite.all(axis=1)]
        fields.update(_rank_tests(complete_values, names, base, fields["alpha"], lower))
        fields.update(_effects_over_datasets(complete_values, names, base, fields["rope"], lower,
                                             samples))
        fields.update(_all_pairs(complete_values, fields["nemenyi"], fields["friedman"].average_ranks,
                                 fields["alpha"]))
        if len(complete) < MIN_DATASETS:
            fields["warnings"] = (few_datasets_warning(len(complete)),)
    return Comparison(**fields, notes=tuple(notes))


def _effects_over_datasets(scores, names, base, rope, lower, samples) -> dict:
    """Cohen's d_z, the rank-biserial correlation and the Bayesian signed-rank test of each
    classifier against the baseline over the complete data sets."""
    control = names.index(base)
    out = {}
    for i, name in enumerate(names):
        if i == control:
            continue
        a, b = scores[:, i], scores[:, control]
        with np.errstate(invalid="ignore", divide="ignore"):
            dz = stats.cohens_dz(a, b)
        out[name] = DatasetEffects(
            cohens_dz=dz, rank_biserial=stats.rank_biserial(a, b),
            signed_rank=stats.bayesian_signed_rank(a, b, rope=rope, n_samples=samples,
                                               seed=SIGNED_RANK_SEED, lower_is_better=lower)
            if samples else None)
    return dict(over_datasets=MappingProxyType(out))


def _all_pairs(scores, nemenyi, average_ranks, alpha) -> dict:
    """Every pair's Nemenyi p-value (from the Nemenyi test of the ranks) and Holm-adjusted
    Wilcoxon signed-rank p-value."""
    return dict(nemenyi_pairs=stats.nemenyi_pairs(nemenyi, average_ranks, alpha),
                wilcoxon_pairs=stats.wilcoxon_pairwise(scores, alpha=alpha))


def _win_tie_loss(values, finite, names, base, sign, lower) -> dict:
    """Wins/ties/losses of each classifier against the baseline over the data sets where
    both have a score, and (with fold tests) Weka's significant ones."""
    control = names.index(base)
    plain, significant = {}, {}
    for i, name in enumerate(names):
        if i == control:
            continue
        both = finite[:, i] & finite[:, control]
        a, b = values[both, i], values[both, control]
        plain[name] = stats.win_tie_loss(a, b, lower_is_better=lower)
        if sign is not None:
            significant[name] = stats.win_tie_loss(a, b, significant=sign.to_numpy()[both, i] != 0,
                                               lower_is_better=lower)
    return dict(win_tie_loss=MappingProxyType(plain),
                significant_win_tie_loss=MappingProxyType(significant))


def _rank_tests(scores, names, base, alpha, lower) -> dict:
    """Friedman, Nemenyi, the tests against the control, Wilcoxon and sign tests on an
    N x k matrix of complete scores."""
    n, k = scores.shape
    friedman = stats.friedman(stats.rank_scores(scores, lower_is_better=lower))
    control = names.index(base)
    against = stats.control_ztest(friedman.average_ranks, n, control)
    others = [i for i in range(k) if i != control]
    direction = -1.0 if lower else 1.0
    wilcoxon, sign_test = {}, {}
    for i in others:
        a, b = direction * scores[:, i], direction * scores[:, control]
        wilcoxon[names[i]] = stats.wilcoxon(a, b)
        sign_test[names[i]] = stats.sign_test(a, b)
    return dict(friedman=friedman, average_ranks=pd.Series(friedman.average_ranks, index=names),
                nemenyi=stats.nemenyi(friedman.average_ranks, n, alpha),
                bonferroni_dunn_cd=stats.critical_difference(k, n, alpha, method="bonferroni-dunn"),
                control=against, holm=stats.holm(against.pvalue[others], alpha),
                bonferroni=stats.bonferroni(against.pvalue[others], alpha),
                wilcoxon=MappingProxyType(wilcoxon), sign_test=MappingProxyType(sign_test))


# ---- scores per fold -------------------------------------------------------------------------

@dataclass(frozen=True)
class _Cells:
    """The fold scores as arrays: ``values[d, k, f]`` is classifier k's score on fold f of
    data set d (NaN: no score), ``present`` where a record exists, ``fold_ids`` the codes
    of the folds' identities (-1: none), ``n_train``/``n_test`` their sizes; cells without
    a score on every fold of their run are absent and named in ``incomplete``."""

    datasets: list[str]
    names: list[str]
    values: np.ndarray
    present: np.ndarray
    fold_ids: np.ndarray
    n_train: np.ndarray | None
    n_test: np.ndarray | None
    incomplete: dict


def compare(frame: pd.DataFrame, settings: CompareSpec = CompareSpec(metric="accuracy"), *,
            lower_is_better: bool | None = None, datasets=None,
            samples: int = SIGNED_RANK_SAMPLES) -> Comparison:
    """Compare the classifiers of one or more runs with the comparison ``settings``.

    ``frame`` has one row per finished (data set, repetition, fold, classifier)
    task, as ``bayesbench.evaluation.store.records_frame`` returns: columns
    ``dataset``, ``classifier``, ``repetition``, ``fold``, the metric, and for
    the paired tests ``fold_id`` (and ``n_train``/``n_test`` for the corrected
    t-test); a ``run`` column tells runs apart. Of ``settings``
    (:class:`~bayesbench.spec.CompareSpec`): ``metric`` (default accuracy), ``baseline``
    (default the first classifier), ``test``, the test over the folds of each data set (a
    key of :data:`bayesbench.stats.FOLD_TESTS`, or None for none), ``alpha``, and ``rope``,
    the half-width of practical equivalence of the Bayesian tests, in the
    metric's units. ``lower_is_better`` defaults to
    the metric's direction (:data:`~bayesbench.evaluation.metrics.LOWER_IS_BETTER`);
    ``samples`` is the Bayesian signed-rank test's draws (0: no such test).

    Rows whose ``status`` is not "ok" are failed tasks (``records_frame(..., failed=True)``).
    A cell lacking a score on a (repetition, fold) that its run (``run`` column; the whole
    frame without one) has on that data set, failed tasks included, is left empty, out of
    every test, and named in the notes.

    Classifiers appear in the order of their first record (a run writes the
    classifiers of each fold in config order). Data sets appear in the order
    ``datasets`` gives (e.g. the config's), the others after them by name:
    records of parallel runs arrive in completion order, which must not
    change the table.
    """
    metric, baseline, test = settings.metric or "accuracy", settings.baseline, settings.test
    alpha = settings.alpha
    _check_options(test, alpha)
    rope = _check_rope(settings.rope)
    frame = _checked_records(frame, metric, test)
    if lower_is_better is None:
        lower_is_better = metric in LOWER_IS_BETTER
    cells = _fold_cells(frame, metric, datasets)
    base = _resolve_baseline(cells.names, baseline)
    k_base = cells.names.index(base)
    with np.errstate(invalid="ignore", divide="ignore"):
        counts = np.isfinite(cells.values).sum(axis=2)
        mean = np.nansum(cells.values, axis=2) / counts
        std = np.sqrt(np.nansum((cells.values - mean[..., None]) ** 2, axis=2) / (counts - 1))
    mean[~cells.present.any(axis=2) | (counts == 0)] = np.nan
    std[counts < 2] = np.nan
    if stats.FOLD_TESTS[test].paired:
        _check_pairing(cells, k_base)
    pvalue, sign, n_untested = _fold_marks(cells, k_base, test, alpha, mean, bool(lower_is_better))
    frames = {name: pd.DataFrame(x, index=cells.datasets, columns=cells.names)
              for name, x in (("mean", mean), ("std", std), ("pvalue", pvalue), ("sign", sign))}
    n_nan = int((cells.present & ~np.isfinite(cells.values)).sum())
    effects = _fold_effects(cells, k_base, rope, bool(lower_is_better))
    return _over_datasets(dict(metric=metric, baseline=base, test=test, alpha=alpha,
                               lower_is_better=bool(lower_is_better), rope=rope,
                               effects=effects, scores=_compared_fold_scores(frame, metric, cells),
                               **frames),
                          _fold_notes(cells, metric, test, n_nan, n_untested), samples)


def _compared_fold_scores(frame: pd.DataFrame, metric: str, cells: _Cells) -> pd.DataFrame:
    """The fold scores compared, one row each, data sets and classifiers in table order."""
    out = pd.DataFrame({"dataset": pd.Categorical(frame["dataset"], categories=cells.datasets),
                        "classifier": pd.Categorical(frame["_label"], categories=cells.names),
                        "repetition": frame["repetition"].to_numpy(),
                        "fold": frame["fold"].to_numpy(),
                        "value": frame[metric].where(frame["_ok"]).to_numpy(dtype=float)})
    out = out.dropna(subset=["dataset"]).sort_values(["dataset", "classifier", "repetition", "fold"],
                                                     kind="stable")
    return out.astype({"dataset": str, "classifier": str}).reset_index(drop=True)


def _fold_effects(cells: _Cells, k_base: int, rope: float, lower: bool) -> FoldEffects:
    """The mean difference to the baseline with its corrected interval, and the Bayesian
    correlated t-test, of every cell over its folds (all cells at once)."""
    n_sets, n_names, _ = cells.values.shape
    has = cells.present.any(axis=2)
    pairs = has & has[:, k_base:k_base + 1]
    pairs[:, k_base] = False
    d_idx, k_idx = np.nonzero(pairs)
    a, b = cells.values[d_idx, k_idx], cells.values[d_idx, k_base]
    ratio = np.full(d_idx.size, np.nan)
    if cells.n_train is not None and cells.n_test is not None:
        used = np.isfinite(a) & np.isfinite(b)
        train = np.where(used, cells.n_train[d_idx, k_base], 0.0).sum(axis=1)
        test = np.where(used, cells.n_test[d_idx, k_base], 0.0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(train > 0, test / train, np.nan)
    diff = stats.mean_difference_rows(a, b, test_train_ratio=ratio)
    with np.errstate(invalid="ignore"):  # the difference itself needs no fold sizes
        paired = np.isfinite(a) & np.isfinite(b)
        estimate = np.where(paired, a - b, 0.0).sum(axis=1) / paired.sum(axis=1)
    bayes = stats.correlated_ttest_rows(a, b, rho=ratio / (1.0 + ratio), rope=rope,
                                    lower_is_better=lower)

    def frame(values):
        out = np.full((n_sets, n_names), np.nan)
        out[d_idx, k_idx] = values
        return pd.DataFrame(out, index=cells.datasets, columns=cells.names)

    return FoldEffects(difference=frame(estimate), low=frame(diff.low), high=frame(diff.high),
                       p_left=frame(bayes.p_left), p_rope=frame(bayes.p_rope),
                       p_right=frame(bayes.p_right))


def _checked_records(frame, metric: str, test: str) -> pd.DataFrame:
    """The columns of ``frame`` that the comparison needs, with ``_ok`` (finished task) and
    ``_label`` (classifier label), or a StatsError saying what it lacks."""
    if frame is None or len(frame) == 0:
        raise StatsError("no finished records to compare")
    for column in ("dataset", "classifier", "repetition", "fold"):
        if column not in frame:
            raise StatsError(f"the records lack the column '{column}'")
    ok = frame["status"].fillna("ok").eq("ok") if "status" in frame else pd.Series(True, frame.index)
    if not ok.any():
        raise StatsError(f"no finished records to compare: all {len(frame)} tasks failed")
    if metric not in frame:
        known = [m for m in METRIC_NAMES if m in frame]
        raise StatsError(f"unknown metric '{metric}'; the records hold {', '.join(known) or 'no metrics'}")
    if stats.FOLD_TESTS[test].needs_sizes and not {"n_train", "n_test"} <= set(frame.columns):
        raise StatsError(f"the {stats.FOLD_TESTS[test].title} needs the training and test set size of each fold "
                         f"(n_train, n_test), which the scores lack; the other tests over folds do not")
    # Only the columns the comparison reads: a records frame has dozens more.
    slim = pd.DataFrame({"dataset": frame["dataset"].astype(str), "_label": _labels(frame),
                         "_ok": ok.to_numpy(), "repetition": frame["repetition"], "fold": frame["fold"],
                         metric: frame[metric]})
    for column in ("run", "fold_id", "n_train", "n_test"):
        if column in frame:
            slim[column] = frame[column]
    return slim


def _labels(frame: pd.DataFrame) -> np.ndarray:
    """Classifier labels, prefixed with the run name where two runs share a label."""
    labels = frame["classifier"].astype(str)
    if "run" not in frame:
        return labels.to_numpy()
    runs = frame["run"].astype(str)
    runs_per_label = runs.groupby(labels).nunique()
    shared = labels.isin(runs_per_label.index[runs_per_label > 1])
    return np.where(shared, runs + "/" + labels, labels)


def _fold_cells(frame: pd.DataFrame, metric: str, declared) -> _Cells:
    """Arrange the finished records of complete cells as data sets x classifiers x folds."""
    names = list(pd.unique(frame["_label"]))
    present_sets = set(pd.unique(frame["dataset"]))  # the distinct names, not 100,000 look-ups
    datasets = [d for d in dict.fromkeys(map(str, declared or ())) if d in present_sets]
    datasets += sorted(present_sets.difference(datasets))
    # A resumed run may hold a task twice; the last record wins.
    frame = frame.drop_duplicates(["dataset", "_label", "repetition", "fold"], keep="last")
    incomplete, complete_cell = _incomplete_cells(frame)
    rows = frame[frame["_ok"] & complete_cell]
    d = pd.Categorical(rows["dataset"], categories=datasets).codes
    k = pd.Categorical(rows["_label"], categories=names).codes
    keys = pd.DataFrame({"d": d, "r": rows["repetition"].to_numpy(), "f": rows["fold"].to_numpy()})
    unique = keys.drop_duplicates().sort_values(["d", "r", "f"])
    unique["pos"] = unique.groupby("d").cumcount()
    f = keys.merge(unique, on=["d", "r", "f"], how="left")["pos"].to_numpy()
    shape = (len(datasets), len(names), int(f.max()) + 1 if len(f) else 0)

    def array(values, fill, dtype=float):
        out = np.full(shape, fill, dtype=dtype)
        out[d, k, f] = values
        return out

    ids = (pd.factorize(rows["fold_id"].astype(str))[0] if "fold_id" in rows
           else np.zeros(len(rows), dtype=int))
    sizes = {c: array(rows[c].to_numpy(dtype=float), np.nan) if c in rows else None
             for c in ("n_train", "n_test")}
    return _Cells(datasets=datasets, names=names, values=array(rows[metric].to_numpy(dtype=float), np.nan),
                  present=array(True, False, bool), fold_ids=array(ids, -1, int),
                  incomplete=incomplete, **sizes)


def _incomplete_cells(frame: pd.DataFrame):
    """``({(data set, label): reason}, mask of the rows of the other cells)`` for the cells
    lacking a score on some fold of their run.

    A run's folds of a data set are the (repetition, fold) keys of any of its records there,
    failed ones included. A mean over fewer folds than the other classifiers had would be
    ranked as if it were comparable, and a paired test could not pair it, so such a cell is
    reported rather than scored.
    """
    run = frame["run"].astype(str) if "run" in frame else pd.Series("", frame.index)
    keyed = pd.DataFrame({"run": run, "dataset": frame["dataset"], "label": frame["_label"],
                          "repetition": frame["repetition"], "fold": frame["fold"], "ok": frame["_ok"]})
    total = keyed.drop_duplicates(["run", "dataset", "repetition", "fold"]).groupby(["run", "dataset"]).size()
    cells = keyed.groupby(["dataset", "label"], sort=False).agg(run=("run", "first"), ok=("ok", "sum"),
                                                               rows=("ok", "size"))
    cells["total"] = total.reindex(list(zip(cells["run"], cells.index.get_level_values(0)))).to_numpy()
    cells["failed"] = cells["rows"] - cells["ok"]
    short = cells[cells["ok"] < cells["total"]]
    out = {}
    for (ds, name), cell in short.iterrows():
        if cell["failed"] == cell["total"]:
            out[ds, name] = f"failed on all {cell['total']} folds"
        else:
            out[ds, name] = (f"{cell['total'] - cell['ok']} of {cell['total']} folds without a score, "
                             f"{cell['failed']} of them failed")
    rows_ok = ~pd.MultiIndex.from_arrays([keyed["dataset"], keyed["label"]]).isin(list(out))
    return out, rows_ok


def _check_pairing(cells: _Cells, k_base: int) -> None:
    """A paired test needs each cell's folds to be the baseline's, fold by fold."""
    base_present, base_ids = cells.present[:, k_base:k_base + 1], cells.fold_ids[:, k_base:k_base + 1]
    has = cells.present.any(axis=2)
    compared = has & has[:, k_base:k_base + 1]
    differ = (cells.present != base_present).any(axis=2) | (cells.fold_ids != base_ids).any(axis=2)
    bad = np.argwhere(compared & differ)
    if bad.size:
        ds, name = cells.datasets[bad[0][0]], cells.names[bad[0][1]]
        raise StatsError(
            f"data set '{ds}': '{name}' and '{cells.names[k_base]}' were not evaluated on the same "
            f"folds (different seeds, repetitions or fold counts); a paired test needs identical "
            f"folds (the unpaired t-test does not)")


def _fold_marks(cells: _Cells, k_base: int, test: str, alpha: float, mean, lower: bool):
    """p-values and v / * signs of every cell against the baseline's cell on its data set,
    and the number of cells with too few scores for ``test``."""
    n_sets, n_names, n_folds = cells.values.shape
    has = cells.present.any(axis=2)
    pairs = has & has[:, k_base:k_base + 1]
    pairs[:, k_base] = False
    d_idx, k_idx = np.nonzero(pairs)
    sizes = {}
    if stats.FOLD_TESTS[test].needs_sizes:
        sizes = dict(n_train=cells.n_train[d_idx, k_base], n_test=cells.n_test[d_idx, k_base])
    res = stats.fold_tests(test, cells.values[d_idx, k_idx], cells.values[d_idx, k_base], **sizes)
    pvalue = np.full((n_sets, n_names), np.nan)
    pvalue[d_idx, k_idx] = res.pvalue
    direction = -1.0 if lower else 1.0
    diff = mean[d_idx, k_idx] - mean[d_idx, k_base]
    sign = np.zeros((n_sets, n_names), dtype=int)
    sign[d_idx, k_idx] = np.where(res.tested & (res.pvalue <= alpha), np.sign(direction * diff), 0)
    return pvalue, sign, int((~res.tested).sum())


def _fold_notes(cells: _Cells, metric: str, test: str, n_nan: int, n_untested: int) -> list[str]:
    notes = []
    if cells.incomplete:
        order = sorted(cells.incomplete.items(), key=lambda kv: (cells.names.index(kv[0][1]),
                                                                 cells.datasets.index(kv[0][0])))
        notes.append("cells without a score on every fold are left empty (-) and out of every "
                     "test: " + "; ".join(f"{name} on {ds} ({why})" for (ds, name), why in order))
    if n_nan:
        notes.append(f"{n_nan} fold score(s) of {metric} are undefined (NaN) and were left out.")
    if n_untested:
        notes.append(f"{n_untested} cell(s) have too few scores for the {stats.FOLD_TESTS[test].title} "
                     f"(it needs at least 2 folds) and carry no mark.")
    return notes
