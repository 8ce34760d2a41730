"""Compare classifiers: a data sets x classifiers table with tests against a baseline.

:func:`compare` takes the per-fold records of one or more runs (the
``records_frame`` DataFrame); :func:`compare_scores` takes one score per data
set and classifier (e.g. a published table read by :func:`read_scores_csv`);
:func:`compare_paths` reads either from disk. Each returns a
:class:`Comparison` whose :meth:`~Comparison.render` gives, in any table
format:

1. mean +- std of each classifier on each data set, the best of each row
   marked, and Weka's marks against the baseline: ``v`` significantly better,
   ``*`` significantly worse (a test over the folds of that data set);
   bottom rows with average ranks and wins/ties/losses against the baseline;
2. Friedman's chi-square_F as Demšar prints it (no tie correction) and, beside
   it, the tie-corrected value scipy reports; Iman-Davenport's F_F (computed
   from the uncorrected chi-square_F, as in the paper); the Nemenyi and
   Bonferroni-Dunn critical differences;
3. the post-hoc comparisons with the baseline as control: z, p, Holm,
   Bonferroni-Dunn, and the Wilcoxon signed-rank and sign tests over data sets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import stats as S
from ..errors import StatsError
from .tables import FORMATS, render

TESTS = ("corrected-t", "paired-t", "unpaired-t", "wilcoxon")
TEST_NAMES = {"corrected-t": "corrected resampled t-test", "paired-t": "paired t-test",
              "unpaired-t": "unpaired t-test", "wilcoxon": "Wilcoxon signed-rank test"}
_PAIRED = {"corrected-t", "paired-t", "wilcoxon"}

# Cells of the LaTeX table hold these control characters, which tables.render leaves
# unescaped, and are turned into markup afterwards; they never occur in real labels.
_BOLD_ON, _BOLD_OFF, _PM = "\x02", "\x03", "\x04"
_LATEX_MARKUP = {_BOLD_ON: r"\textbf{", _BOLD_OFF: "}", _PM: r"$\pm$"}


@dataclass
class Comparison:
    """The outcome of comparing classifiers on one metric.

    ``mean``, ``std``, ``pvalue`` and ``sign`` are data sets x classifiers
    frames (``std`` and the fold tests are absent when only one score per cell
    was given). ``sign`` is +1 where a classifier is significantly better than
    the baseline on that data set, -1 where significantly worse, 0 otherwise.
    The tests over data sets use the ``complete`` data sets (a score for every
    classifier); ``friedman`` and the post-hoc results are None when fewer than
    two data sets or classifiers are available (``notes`` says why).
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
    friedman: S.FriedmanResult | None = None
    nemenyi: S.NemenyiResult | None = None
    bonferroni_dunn_cd: float | None = None
    control: S.ControlResult | None = None
    holm: S.AdjustedResult | None = None
    bonferroni: S.AdjustedResult | None = None
    wilcoxon: dict = field(default_factory=dict)
    sign_test: dict = field(default_factory=dict)
    win_tie_loss: dict = field(default_factory=dict)
    significant_win_tie_loss: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

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
                S.cd_groups(self.average_ranks.to_numpy(), self.nemenyi.critical_difference)]

    # ---- rendering -----------------------------------------------------------------------

    def render(self, fmt: str = "text") -> str:
        """The three tables (scores, tests, post-hoc) and notes in ``fmt``
        (text, markdown, csv or latex)."""
        if fmt not in FORMATS:
            raise StatsError(f"unknown format '{fmt}'; expected one of {', '.join(FORMATS)}")
        parts = [self._scores_table(fmt)]
        if self.friedman is not None:
            parts.append(self._tests_table(fmt))
            parts.append(self._posthoc_table(fmt))
        notes = self._notes()
        if fmt == "latex":
            parts.append("".join(f"% {n}\n" for n in notes))
        elif fmt == "csv":
            parts.append("".join(f"# {n}\n" for n in notes))
        else:
            parts.append("".join(f"- {n}\n" for n in notes) if fmt == "markdown"
                         else "".join(f"{n}\n" for n in notes))
        out = "\n".join(parts)
        if fmt == "latex":
            for char, markup in _LATEX_MARKUP.items():
                out = out.replace(char, markup)
        return out

    def _direction(self) -> str:
        return "lower is better" if self.lower_is_better else "higher is better"

    def _cell(self, ds: str, name: str, best: bool, fmt: str) -> str:
        m = self.mean.at[ds, name]
        if not np.isfinite(m):
            return "-"
        text = f"{m:.4f}"
        if self.std is not None and np.isfinite(self.std.at[ds, name]):
            pm = {"latex": _PM, "csv": "+-"}.get(fmt, "±")
            text += f" {pm} {self.std.at[ds, name]:.4f}"
        if best:
            text = {"markdown": f"**{text}**", "latex": f"{_BOLD_ON}{text}{_BOLD_OFF}"}.get(fmt, text + " •")
        if self.sign is not None and name != self.baseline:
            text += {1: " v", -1: " *"}.get(int(self.sign.at[ds, name]), "")
        return text

    def _scores_table(self, fmt: str) -> str:
        names = self.classifiers
        rows = []
        for ds in self.datasets:
            values = self.mean.loc[ds].to_numpy(dtype=float)
            finite = values[np.isfinite(values)]
            target = None
            if finite.size:
                target = finite.min() if self.lower_is_better else finite.max()
            best = [np.isfinite(v) and target is not None and abs(v - target) <= 1e-12 for v in values]
            rows.append([ds] + [self._cell(ds, n, b, fmt) for n, b in zip(names, best)])
        if self.average_ranks is not None:
            rows.append([f"average rank ({len(self.complete)} data sets)"]
                        + [f"{self.average_ranks[n]:.3f}" for n in names])
        if self.win_tie_loss:
            rows.append([f"wins/ties/losses vs {self.baseline}"]
                        + [str(self.win_tie_loss[n]) if n in self.win_tie_loss else "-" for n in names])
        if self.significant_win_tie_loss:
            rows.append(["(v/ /*)"] + [f"({w.wins}/{w.ties}/{w.losses})"
                                       if (w := self.significant_win_tie_loss.get(n)) else "-"
                                       for n in names])
        caption = f"{self.metric} ({self._direction()})"
        if self.std is not None:
            caption = f"{self.metric}: mean and standard deviation over folds ({self._direction()})"
        caption += "; best in each row marked"
        if self.sign is not None:
            caption += (f"; v / *: significantly better / worse than {self.baseline} "
                        f"({TEST_NAMES[self.test]}, alpha = {self.alpha:g})")
        return render(rows, ["data set"] + names, fmt, caption=caption)

    def _tests_table(self, fmt: str) -> str:
        fr = self.friedman
        q_n, q_bd = self.nemenyi.q, self.bonferroni_dunn_cd / self.control.se
        rows = [
            ["Friedman chi2_F (Demsar 2006, no tie correction)", fr.statistic, str(fr.df),
             _p(fr.pvalue, fmt)],
            ["Friedman chi2_F, tie-corrected (scipy)", fr.corrected_statistic, str(fr.df),
             _p(fr.corrected_pvalue, fmt)],
            ["Iman-Davenport F_F (from uncorrected chi2_F)", fr.f_statistic,
             f"{fr.f_df[0]}, {fr.f_df[1]}", _p(fr.f_pvalue, fmt)],
            [f"Nemenyi critical difference (q = {q_n:.3f})", self.nemenyi.critical_difference, "", ""],
            [f"Bonferroni-Dunn critical difference (q = {q_bd:.3f})", self.bonferroni_dunn_cd, "", ""],
        ]
        caption = (f"tests over {fr.n_datasets} data sets and {fr.n_classifiers} classifiers "
                   f"(alpha = {self.alpha:g})")
        return render(rows, ["test", "statistic", "df", "p-value"], fmt, caption=caption)

    def _posthoc_table(self, fmt: str) -> str:
        names = self.classifiers
        others = [n for n in names if n != self.baseline]
        rows = []
        for j, name in enumerate(others):
            i = names.index(name)
            w, s = self.wilcoxon[name], self.sign_test[name]
            rows.append([name, float(self.average_ranks[name]), float(self.control.statistic[i]),
                         _p(self.control.pvalue[i], fmt), _p(self.holm.pvalue_adjusted[j], fmt),
                         _yes(self.holm.reject[j]), _yes(self.bonferroni.reject[j]),
                         float(w.statistic), _p(w.pvalue, fmt), f"{s.statistic}/{s.n}", _p(s.pvalue, fmt)])
        headers = ["classifier", "avg rank", "z", "p", "Holm p (adj.)", "Holm",
                   "Bonferroni-Dunn", "Wilcoxon T", "Wilcoxon p", "sign wins", "sign p"]
        caption = (f"post-hoc tests against {self.baseline} "
                   f"(average rank {self.average_ranks[self.baseline]:.3f}), alpha = {self.alpha:g}")
        return render(rows, headers, fmt, caption=caption)

    def _notes(self) -> list[str]:
        notes = []
        if self.friedman is not None:
            notes.append("Ranks: 1 = best within a data set, ties share the mean rank. chi2_F is "
                         "Demsar's formula (no tie correction), F_F is computed from it; the tie-corrected "
                         "chi2_F is what scipy.stats.friedmanchisquare reports.")
            notes.append("z = (R_baseline - R_i) / sqrt(k(k+1)/(6N)): positive when classifier i ranks "
                         "better. Wilcoxon: zero differences split between R+ and R- (one dropped if odd), "
                         "as Demsar does. Sign test: ties split evenly, exact two-sided binomial p.")
            if not np.isfinite(self.friedman.f_statistic):
                notes.append("F_F is infinite (p = 0) because every data set ranks the classifiers "
                             "in the same order; with few data sets chi2_F's p-value is the one "
                             "to read.")
            groups = self.groups()
            if groups:
                notes.append("Nemenyi cannot separate: " + "; ".join("{" + ", ".join(g) + "}" for g in groups))
        return notes + self.notes

    # ---- figure --------------------------------------------------------------------------

    def plot_cd(self, path, *, title: str | None = None) -> Path:
        """Write Demšar's critical-difference diagram (PNG, SVG or PDF by suffix)."""
        if self.nemenyi is None:
            raise StatsError("a critical-difference diagram needs at least 2 data sets and 2 classifiers"
                             + (f" ({self.notes[-1]})" if self.notes else ""))
        from .cdplot import plot_cd
        return plot_cd(self.classifiers, self.average_ranks.to_numpy(), self.nemenyi.critical_difference,
                       path, alpha=self.alpha, n_datasets=len(self.complete), title=title)


def _p(p: float, fmt: str):
    # A p-value too small for 4 decimals is shown as a bound rather than as 0.0000;
    # CSV keeps full precision for whoever reads it back.
    if p is None or not np.isfinite(p):
        return "-"
    if fmt == "csv":
        return float(p)
    return f"{p:.4f}" if p >= 1e-4 else "< 0.0001"


def _yes(flag) -> str:
    return "reject" if bool(flag) else "-"


# ---- building a comparison ---------------------------------------------------------------

def _check_options(test, alpha) -> None:
    if test is not None and test not in TESTS:
        raise StatsError(f"unknown test '{test}'; expected one of {', '.join(TESTS)}")
    if not 0.0 < alpha < 1.0:
        raise StatsError(f"alpha must lie strictly between 0 and 1, got {alpha}")


def _resolve_baseline(names: list[str], baseline: str | None) -> str:
    if baseline is None:
        return names[0]
    if baseline not in names:
        raise StatsError(f"baseline '{baseline}' is not among the classifiers: {', '.join(names)}")
    return baseline


def _over_datasets(cmp: Comparison) -> Comparison:
    """Fill in ranks, Friedman, post-hoc tests and win/tie/loss from ``cmp.mean``."""
    names = cmp.classifiers
    k = len(names)
    base = cmp.baseline
    complete = [ds for ds in cmp.datasets if np.all(np.isfinite(cmp.mean.loc[ds].to_numpy(dtype=float)))]
    cmp.complete = complete
    dropped = [ds for ds in cmp.datasets if ds not in complete]
    if dropped:
        cmp.notes.append(f"{len(dropped)} data set(s) lack a score for some classifier and are left "
                         f"out of the ranks and the tests over data sets: {', '.join(dropped)}; "
                         f"wins/ties/losses count every data set where both classifiers have a score.")
    for name in names:
        if name == base:
            continue
        both = cmp.mean[[name, base]].dropna()
        cmp.win_tie_loss[name] = S.win_tie_loss(both[name], both[base], lower_is_better=cmp.lower_is_better)
        if cmp.sign is not None:
            cmp.significant_win_tie_loss[name] = S.win_tie_loss(
                both[name], both[base], significant=cmp.sign.loc[both.index, name].to_numpy() != 0,
                lower_is_better=cmp.lower_is_better)
    if k < 2:
        cmp.notes.append("only one classifier: nothing to compare.")
        return cmp
    if len(complete) < 2:
        cmp.notes.append(f"the tests over data sets need at least 2 data sets with every classifier; "
                         f"there are {len(complete)}.")
        return cmp
    scores = cmp.mean.loc[complete, names].to_numpy(dtype=float)
    ranks = S.rank_scores(scores, lower_is_better=cmp.lower_is_better)
    n = len(complete)
    cmp.friedman = S.friedman(ranks)
    cmp.average_ranks = pd.Series(cmp.friedman.average_ranks, index=names)
    cmp.nemenyi = S.nemenyi(cmp.friedman.average_ranks, n, cmp.alpha)
    cmp.bonferroni_dunn_cd = S.critical_difference(k, n, cmp.alpha, method="bonferroni-dunn")
    control = names.index(base)
    cmp.control = S.control_ztest(cmp.friedman.average_ranks, n, control)
    others = [i for i in range(k) if i != control]
    cmp.holm = S.holm(cmp.control.pvalue[others], cmp.alpha)
    cmp.bonferroni = S.bonferroni(cmp.control.pvalue[others], cmp.alpha)
    sign = -1.0 if cmp.lower_is_better else 1.0
    for i in others:
        a, b = sign * scores[:, i], sign * scores[:, control]
        cmp.wilcoxon[names[i]] = S.wilcoxon(a, b)
        cmp.sign_test[names[i]] = S.sign_test(a, b)
    return cmp


def compare_scores(scores: pd.DataFrame, *, metric: str = "score", baseline: str | None = None,
                   alpha: float = 0.05, lower_is_better: bool = False) -> Comparison:
    """Compare classifiers given one score per data set (rows) and classifier (columns).

    Only the tests over data sets apply; missing scores (NaN) leave a data set
    out of them.
    """
    _check_options(None, alpha)
    if scores.shape[1] < 1 or scores.shape[0] < 1:
        raise StatsError("no scores to compare")
    mean = scores.astype(float)
    mean.index = [str(i) for i in mean.index]
    mean.columns = [str(c) for c in mean.columns]
    base = _resolve_baseline(list(mean.columns), baseline)
    cmp = Comparison(metric=metric, baseline=base, test=None, alpha=alpha,
                     lower_is_better=lower_is_better, mean=mean)
    return _over_datasets(cmp)


def _labels(frame: pd.DataFrame) -> pd.Series:
    """Classifier labels, prefixed with the run name where two runs share a label."""
    labels = frame["classifier"].astype(str)
    if "run" not in frame:
        return labels
    runs_per_label = frame.groupby(labels)["run"].nunique()
    shared = set(runs_per_label.index[runs_per_label > 1])
    return pd.Series([f"{r}/{c}" if c in shared else c for r, c in zip(frame["run"], labels)],
                     index=frame.index)


def _fold_test(test: str, a: pd.DataFrame, b: pd.DataFrame, metric: str):
    if test == "unpaired-t":
        return S.unpaired_ttest(a[metric].dropna(), b[metric].dropna())
    both = pd.concat([a[metric].rename("a"), b[metric].rename("b")], axis=1, join="inner").dropna()
    x, y = both["a"].to_numpy(), both["b"].to_numpy()
    if test == "paired-t":
        return S.paired_ttest(x, y)
    if test == "wilcoxon":
        return S.wilcoxon(x, y)
    used = b.loc[both.index]
    n_train = float(used["n_train"].sum())
    if n_train <= 0:
        raise StatsError("the corrected t-test needs training set sizes (n_train)")
    return S.corrected_ttest(x, y, float(used["n_test"].sum()) / n_train)


def _incomplete_cells(frame: pd.DataFrame) -> dict:
    """``{(data set, label): reason}`` for the cells lacking a score on some fold of their run.

    A run's folds of a data set are the (repetition, fold) keys of any of its records there,
    failed ones included. A mean over fewer folds than the other classifiers had would be
    ranked as if it were comparable, and a paired test could not pair it, so such a cell is
    reported rather than scored.
    """
    run = frame["run"].astype(str) if "run" in frame else pd.Series("", frame.index)
    keys = list(zip(frame["repetition"], frame["fold"]))
    folds: dict = {}
    for r, ds, key in zip(run, frame["dataset"], keys):
        folds.setdefault((r, ds), set()).add(key)
    seen: dict = {}
    for r, ds, name, key, ok in zip(run, frame["dataset"], frame["_label"], keys, frame["_ok"]):
        cell = seen.setdefault((ds, name), {"run": r, "ok": set(), "failed": 0})
        if ok:
            cell["ok"].add(key)
        else:
            cell["failed"] += 1
    out = {}
    for (ds, name), cell in seen.items():
        total = len(folds[cell["run"], ds])
        missing = total - len(cell["ok"])
        if not missing:
            continue
        if cell["failed"] == total:
            out[ds, name] = f"failed on all {total} folds"
        else:
            out[ds, name] = (f"{missing} of {total} folds without a score, {cell['failed']} "
                             f"of them failed")
    return out


def _check_pairing(ds: str, name: str, base: str, a: pd.DataFrame, b: pd.DataFrame) -> None:
    same_keys = a.index.equals(b.index)
    if same_keys and "fold_id" in a:
        same_keys = bool((a["fold_id"].astype(str) == b["fold_id"].astype(str)).all())
    if not same_keys:
        raise StatsError(
            f"data set '{ds}': '{name}' and '{base}' were not evaluated on the same folds "
            f"(different seeds, repetitions or fold counts); a paired test needs identical folds "
            f"(use --test unpaired-t)")


def compare(frame: pd.DataFrame, metric: str = "accuracy", baseline: str | None = None,
            test: str = "corrected-t", alpha: float = 0.05,
            lower_is_better: bool | None = None, *, datasets=None) -> Comparison:
    """Compare the classifiers of one or more runs on ``metric``.

    ``frame`` has one row per finished (data set, repetition, fold, classifier)
    task, as ``bayesbench.evaluation.store.records_frame`` returns: columns
    ``dataset``, ``classifier``, ``repetition``, ``fold``, the metric, and for
    the paired tests ``fold_id`` (and ``n_train``/``n_test`` for the corrected
    t-test); a ``run`` column tells runs apart. ``baseline`` defaults to the
    first classifier; ``test`` is the test over the folds of each data set
    (``corrected-t``, ``paired-t``, ``unpaired-t`` or ``wilcoxon``);
    ``lower_is_better`` defaults to True for error, log_loss and brier.

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
    _check_options(test, alpha)
    if frame is None or len(frame) == 0:
        raise StatsError("no finished records to compare")
    for column in ("dataset", "classifier", "repetition", "fold"):
        if column not in frame:
            raise StatsError(f"the records lack the column '{column}'")
    ok = frame["status"].fillna("ok").eq("ok") if "status" in frame else pd.Series(True, frame.index)
    if not ok.any():
        raise StatsError(f"no finished records to compare: all {len(frame)} tasks failed")
    if metric not in frame:
        from ..evaluation.metrics import METRIC_NAMES
        known = [m for m in METRIC_NAMES if m in frame]
        raise StatsError(f"unknown metric '{metric}'; the records hold {', '.join(known) or 'no metrics'}")
    if lower_is_better is None:
        from ..evaluation.metrics import LOWER_IS_BETTER
        lower_is_better = metric in LOWER_IS_BETTER
    frame = frame.assign(_label=_labels(frame), _ok=ok)
    names = list(dict.fromkeys(frame["_label"]))
    frame = frame.assign(dataset=frame["dataset"].astype(str))
    present = set(frame["dataset"])
    declared = [d for d in dict.fromkeys(map(str, datasets or ())) if d in present]
    datasets = declared + sorted(present.difference(declared))
    base = _resolve_baseline(names, baseline)
    # A resumed run may hold a task twice; the last record wins.
    frame = frame.drop_duplicates(["dataset", "_label", "repetition", "fold"], keep="last")
    incomplete = _incomplete_cells(frame)
    frame = frame[frame["_ok"]]
    cells = {key: g.set_index(["repetition", "fold"]).sort_index()
             for key, g in frame.groupby(["dataset", "_label"], sort=False)
             if key not in incomplete}

    mean = pd.DataFrame(np.nan, index=datasets, columns=names)
    std = mean.copy()
    pvalue = mean.copy()
    sign = pd.DataFrame(0, index=datasets, columns=names)
    n_nan, n_untested = 0, 0
    for (ds, name), g in cells.items():
        values = g[metric].astype(float)
        n_nan += int(values.isna().sum())
        mean.at[ds, name] = values.mean()
        std.at[ds, name] = values.std(ddof=1) if values.count() > 1 else np.nan
    direction = -1.0 if lower_is_better else 1.0
    for ds in datasets:
        b = cells.get((ds, base))
        for name in names:
            a = cells.get((ds, name))
            if name == base or a is None or b is None:
                continue
            if test in _PAIRED:
                _check_pairing(ds, name, base, a, b)
            try:
                res = _fold_test(test, a, b, metric)
            except StatsError:
                n_untested += 1
                continue
            pvalue.at[ds, name] = res.pvalue
            if res.pvalue <= alpha:
                diff = mean.at[ds, name] - mean.at[ds, base]
                sign.at[ds, name] = int(np.sign(direction * diff))
    cmp = Comparison(metric=metric, baseline=base, test=test, alpha=alpha,
                     lower_is_better=bool(lower_is_better), mean=mean, std=std, pvalue=pvalue, sign=sign)
    if incomplete:
        cmp.notes.append("cells without a score on every fold are left empty (-) and out of every "
                         "test: " + "; ".join(f"{name} on {ds} ({why})" for (ds, name), why
                                              in sorted(incomplete.items(), key=lambda kv: (
                                                  names.index(kv[0][1]), datasets.index(kv[0][0])))))
    if n_nan:
        cmp.notes.append(f"{n_nan} fold score(s) of {metric} are undefined (NaN) and were left out.")
    if n_untested:
        cmp.notes.append(f"{n_untested} cell(s) have too few scores for the {TEST_NAMES[test]} "
                         f"(it needs at least 2 folds) and carry no mark.")
    return _over_datasets(cmp)


def read_scores_csv(path) -> pd.DataFrame:
    """A table of scores: first column the data set names, one column per classifier."""
    path = Path(path)
    try:
        table = pd.read_csv(path, index_col=0)
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise StatsError(f"{path}: cannot read a CSV table of scores ({exc})") from None
    if table.shape[1] < 1 or table.shape[0] < 1:
        raise StatsError(f"{path}: expected a header row and one row per data set, "
                         f"with the data set name first and one column per classifier")
    # pandas renames a repeated column to 'A.1' without a word; two columns of one name are
    # a mistake in the table, not two classifiers.
    header = pd.read_csv(path, header=None, nrows=1).iloc[0, 1:].astype(str).tolist()
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        raise StatsError(f"{path}: classifier column(s) {', '.join(twice)} appear more than once")
    for column in table.columns:
        converted = pd.to_numeric(table[column], errors="coerce")
        for bad, what in ((converted.isna() & table[column].notna(), "a number"),
                          (np.isinf(converted.to_numpy(dtype=float)), "a finite number")):
            if bad.any():
                first = table.index[bad][0]
                raise StatsError(f"{path}: column '{column}', data set '{first}': "
                                 f"'{table.at[first, column]}' is not {what}")
        table[column] = converted
    if table.index.has_duplicates:
        raise StatsError(f"{path}: data set '{table.index[table.index.duplicated()][0]}' appears twice")
    return table


def _run_dirs(path: Path) -> list[Path]:
    from ..evaluation.store import RECORDS
    if (path / RECORDS).exists():
        return [path]
    runs = sorted(p for p in path.iterdir() if (p / RECORDS).exists())
    if not runs:
        raise StatsError(f"{path}: neither a result directory nor a directory of them (no {RECORDS})")
    return runs


def compare_paths(paths, *, metric: str | None = None, baseline: str | None = None,
                  test: str = "corrected-t", alpha: float = 0.05,
                  lower_is_better: bool | None = None) -> Comparison:
    """Compare from disk: result directories, directories of them, or one CSV of scores.

    ``metric`` defaults to accuracy for result directories; for a CSV it only
    names the scores (default "score").
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise StatsError("give at least one result directory or CSV file")
    for p in paths:
        if not p.exists():
            raise StatsError(f"{p}: no such file or directory")
    csvs = [p for p in paths if p.is_file()]
    if csvs:
        if len(paths) > 1:
            raise StatsError("give either one CSV file of scores or result directories, not both")
        scores = read_scores_csv(csvs[0])
        # One score per cell: with a single row or column there is no test to compute at all.
        if scores.shape[1] < 2:
            raise StatsError(f"{csvs[0]}: one classifier column ({scores.columns[0]}); a comparison "
                             f"needs at least 2")
        if scores.shape[0] < 2:
            raise StatsError(f"{csvs[0]}: one data set row ({scores.index[0]}); the tests over data "
                             f"sets need at least 2")
        return compare_scores(scores, metric=metric or "score",
                              baseline=baseline, alpha=alpha, lower_is_better=bool(lower_is_better))
    from ..evaluation.store import records_frame
    runs = {}
    for r in (r for p in paths for r in _run_dirs(p)):
        runs.setdefault(r.resolve(), r)  # one directory given twice is read once
    runs = list(runs.values())
    result = compare(records_frame(runs, failed=True), metric=metric or "accuracy", baseline=baseline,
                     test=test, alpha=alpha, lower_is_better=lower_is_better,
                     datasets=_declared_datasets(runs))
    if len(result.classifiers) < 2:
        raise StatsError(f"{', '.join(map(str, runs))}: one classifier ({result.classifiers[0]}); "
                         f"a comparison needs at least 2 (give several result directories to "
                         f"compare runs)")
    return result


def _declared_datasets(runs) -> list[str]:
    """Data set names in the order the runs' configs list them (unreadable configs are skipped:
    the order is cosmetic)."""
    import yaml
    names = []
    for run in runs:
        try:
            config = yaml.safe_load((run / "config.yaml").read_text())
            names += [str(d["name"]) for d in config["datasets"]]
        except (OSError, yaml.YAMLError, KeyError, TypeError):
            continue
    return names
