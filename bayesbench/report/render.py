"""Print a :class:`~bayesbench.report.analysis.Comparison`: tables and the CD diagram.

:func:`render_comparison` gives, in any table format of :mod:`.tables`:

1. mean +- std of each classifier on each data set, the best of each row
   marked, and Weka's marks against the baseline: ``v`` significantly better,
   ``*`` significantly worse (a test over the folds of that data set);
   bottom rows with average ranks and wins/ties/losses against the baseline;
2. Friedman's chi-square_F as Demšar prints it (no tie correction) and, beside
   it, the tie-corrected value scipy reports and its exact p-value; Iman-Davenport's
   F_F (computed from the uncorrected chi-square_F, as in the paper; undefined at
   perfect agreement); the Nemenyi and
   Bonferroni-Dunn critical differences;
3. the post-hoc comparisons with the baseline as control: z, p, Holm,
   Bonferroni-Dunn, and the Wilcoxon signed-rank and sign tests over data sets,
   each with its effect sizes (Cohen's d_z, rank-biserial) and the Bayesian
   signed-rank test's P(better), P(equivalent), P(worse);
4. per data set, each classifier against the baseline: the fold test's p-value
   and mark beside the mean difference with its 95% interval and the Bayesian
   correlated t-test's probabilities;
5. every pair of classifiers: Nemenyi and Holm-adjusted Wilcoxon p-values;

then the notes. :func:`comparison_tables` gives the same tables as data, in a
tidy layout for CSV (one value per cell; marks, means and p-values each in a
column of their own), and :func:`comparison_json` as one JSON document.
(:func:`~bayesbench.report.figures.cdplot.plot_cd` draws Demšar's critical-difference diagram.)
"""
from __future__ import annotations

import json
import math
from typing import NamedTuple

import numpy as np

from .. import stats
from .analysis import Comparison
from .tables import TableFormat, render, table_format

__all__ = ["ComparisonTable", "comparison_json", "comparison_tables", "render_comparison",
           "notes"]


class ComparisonTable(NamedTuple):
    """One table of a comparison: ``name`` (``scores``, ``tests``, ``posthoc``, ``pvalues``,
    ``pairs``), caption, headers and rows."""

    name: str
    caption: str
    headers: list
    rows: list


def comparison_tables(result: Comparison, fmt: str = "text") -> list[ComparisonTable]:
    """The tables of ``result``: in a tidy format (``csv``) in the tidy layout (one value
    per cell, the headers of docs/results.md), otherwise as :func:`render_comparison`
    prints them."""
    form = table_format(fmt)
    tables = [_scores_table(result, form)]
    over = []  # the tables of tests over data sets, which carry the comparison's warnings
    if result.friedman is not None:
        over += [_tests_table(result, form), _posthoc_table(result, form)]
    if result.nemenyi_pairs is not None:
        over.append(_pairs_table(result, form))
    warned = [t._replace(caption="\n".join([*result.warnings, t.caption])) for t in over]
    tables += warned[:2]
    if result.effects is not None:
        tables.append(_pvalues_table(result, form))
    return tables + warned[2:]


def render_comparison(result: Comparison, fmt: str = "text") -> str:
    """The tables of :func:`comparison_tables` and the notes of ``result`` in ``fmt``
    (text, markdown, csv or latex)."""
    form = table_format(fmt)  # refuses an unknown format first
    parts = [render(t.rows, t.headers, fmt, caption=t.caption)
             for t in comparison_tables(result, fmt)]
    parts.append("".join(f"{form.note_prefix}{n}\n" for n in notes(result)))
    return "\n".join(parts)


def _direction(result: Comparison) -> str:
    return "lower is better" if result.lower_is_better else "higher is better"


def _p(p: float, form: TableFormat):
    # A p-value too small for 4 decimals is shown as a bound rather than as 0.0000;
    # CSV keeps full precision for whoever reads it back.
    if p is None or not np.isfinite(p):  # undefined: an empty CSV cell (JSON null), as _prob
        return "" if form.tidy else "-"
    if form.tidy:
        return float(p)
    return f"{p:.4f}" if p >= 1e-4 else "< 0.0001"


def _yes(flag) -> str:
    return "reject" if bool(flag) else "-"


def _cell(mean: float, std: float, sign: int, best: bool, form: TableFormat) -> str:
    if not np.isfinite(mean):
        return "-"
    text = f"{mean:.4f}"
    if np.isfinite(std):
        text += f" {form.plus_minus} {std:.4f}"
    if best:
        text = form.bold(text)
    return text + {1: " v", -1: " *"}.get(sign, "")


def _best(mean: np.ndarray, lower_is_better: bool) -> np.ndarray:
    """Where each row's best score is, ties (at the tests' tolerance) all marked."""
    values = stats.tie_safe(mean)
    signed = -values if lower_is_better else values
    finite = np.isfinite(signed)
    top = np.max(np.where(finite, signed, -np.inf), axis=1, keepdims=True)
    return finite & (signed == top)


def _score_rows(result: Comparison, form: TableFormat) -> list[list]:
    """One row per data set: mean +- std, the best marked, and the marks against the baseline."""
    mean = result.mean.to_numpy(dtype=float)
    std = result.std.to_numpy(dtype=float) if result.std is not None else np.full(mean.shape, np.nan)
    sign = result.sign.to_numpy(dtype=int, copy=True) if result.sign is not None else np.zeros(mean.shape, dtype=int)
    sign[:, result.classifiers.index(result.baseline)] = 0
    best = _best(mean, result.lower_is_better)
    return [[ds] + [_cell(*cell, form) for cell in zip(mean[i], std[i], sign[i].tolist(), best[i])]
            for i, ds in enumerate(result.datasets)]


def _scores_long(result: Comparison) -> ComparisonTable:
    """One row per data set and classifier: mean, std, rank, best, and the mark against
    the baseline, each in its own column."""
    mean = result.mean.to_numpy(dtype=float)
    std = result.std.to_numpy(dtype=float) if result.std is not None else np.full(mean.shape, np.nan)
    sign = result.sign.to_numpy(dtype=int) if result.sign is not None else np.zeros(mean.shape, int)
    ranks = np.full(mean.shape, np.nan)  # within the complete data sets, as the tests rank
    complete_rows = np.isfinite(mean).all(axis=1)
    if complete_rows.any() and mean.shape[1] > 1:
        ranks[complete_rows] = stats.rank_scores(mean[complete_rows],
                                             lower_is_better=result.lower_is_better)
    best = _best(mean, result.lower_is_better)
    rows = []
    for i, ds in enumerate(result.datasets):
        for j, name in enumerate(result.classifiers):
            mark = "" if name == result.baseline else {1: "v", -1: "*"}.get(int(sign[i, j]), "")
            rows.append([ds, name, _num(mean[i, j]), _num(std[i, j]), _num(ranks[i, j]),
                         bool(best[i, j]), mark])
    return ComparisonTable("scores", _scores_caption(result),
                           ["dataset", "classifier", "mean", "std", "rank", "best", "mark"], rows)


def _num(x):
    """A float for a CSV cell, empty when undefined."""
    return "" if x is None or not np.isfinite(x) else float(x)


def _scores_caption(result: Comparison) -> str:
    caption = f"{result.metric} ({_direction(result)})"
    if result.std is not None:
        caption = f"{result.metric}: mean and standard deviation over folds ({_direction(result)})"
    caption += "; best in each row marked"
    if result.sign is not None:
        caption += (f"; v / *: significantly better / worse than {result.baseline} "
                    f"({stats.FOLD_TESTS[result.test].title}, alpha = {result.alpha:g})")
    return caption


def _scores_table(result: Comparison, form: TableFormat) -> ComparisonTable:
    if form.tidy:
        return _scores_long(result)
    names = result.classifiers
    rows = _score_rows(result, form)
    if result.average_ranks is not None:
        rows.append([f"average rank ({len(result.complete)} data sets)"]
                    + [f"{result.average_ranks[n]:.3f}" for n in names])
    if result.win_tie_loss:
        rows.append([f"wins/ties/losses vs {result.baseline}"]
                    + [str(result.win_tie_loss[n]) if n in result.win_tie_loss else "-" for n in names])
    if result.significant_win_tie_loss:
        rows.append(["(v/ /*)"] + [f"({w.wins}/{w.ties}/{w.losses})"
                                   if (w := result.significant_win_tie_loss.get(n)) else "-"
                                   for n in names])
    return ComparisonTable("scores", _scores_caption(result), ["data set"] + names, rows)


def _tests_table(result: Comparison, form: TableFormat) -> ComparisonTable:
    fr = result.friedman
    q_n, q_bd = result.nemenyi.q, result.bonferroni_dunn_cd / result.control.se
    rows = [
        ["Friedman chi2_F (Demsar 2006, no tie correction)", fr.statistic, str(fr.df),
         _p(fr.pvalue, form)],
        ["Friedman chi2_F, tie-corrected (scipy)", fr.corrected_statistic, str(fr.df),
         _p(fr.corrected_pvalue, form)],
        ["Friedman chi2_F, exact p (the ranks permuted)", fr.statistic, "",
         _p(fr.exact_pvalue, form)],
        # at perfect agreement F_F is infinite and its p-value undefined ("-"), not 0
        ["Iman-Davenport F_F (from uncorrected chi2_F)", fr.f_statistic,
         f"{fr.f_df[0]}, {fr.f_df[1]}", _p(fr.f_pvalue, form)],
        [f"Nemenyi critical difference (q = {q_n:.3f})", result.nemenyi.critical_difference, "", ""],
        [f"Bonferroni-Dunn critical difference (q = {q_bd:.3f})", result.bonferroni_dunn_cd, "", ""],
    ]
    caption = (f"tests over {fr.n_datasets} data sets and {fr.n_classifiers} classifiers "
               f"(alpha = {result.alpha:g})")
    if not form.tidy:
        return ComparisonTable("tests", caption, ["test", "statistic", "df", "p-value"], rows)
    # One value per cell: F_F's two degrees of freedom in two columns, q in its own.
    q = {4: q_n, 5: q_bd}
    rows = [[name.split(" (q =")[0], float(stat), *(df.split(", ") + [""])[:2], p, q.get(n, "")]
            for n, (name, stat, df, p) in enumerate(rows)]
    rows = [[r[0], r[1], int(r[2]) if r[2] else "", int(r[3]) if r[3] else "", r[4], r[5]]
            for r in rows]
    return ComparisonTable("tests", caption, ["test", "statistic", "df", "df_denominator",
                                              "pvalue", "q"], rows)


def _posthoc_table(result: Comparison, form: TableFormat) -> ComparisonTable:
    names = result.classifiers
    others = [n for n in names if n != result.baseline]
    rows = []
    for j, name in enumerate(others):
        i = names.index(name)
        w, s, e = result.wilcoxon[name], result.sign_test[name], result.over_datasets[name]
        wtl = result.win_tie_loss[name]
        sr = e.signed_rank or _NO_TEST
        rows.append([name, float(result.average_ranks[name]), float(result.control.statistic[i]),
                     _p(result.control.pvalue[i], form), _p(result.holm.pvalue_adjusted[j], form),
                     _yes(result.holm.reject[j]), _yes(result.bonferroni.reject[j]),
                     float(w.statistic), _p(w.pvalue, form), s.statistic, s.n, _p(s.pvalue, form),
                     wtl.wins, wtl.ties, wtl.losses, _f(e.cohens_dz, form), _f(e.rank_biserial, form),
                     _prob(sr.p_left, form), _prob(sr.p_rope, form), _prob(sr.p_right, form)])
    headers = ["classifier", "avg rank", "z", "p", "Holm p (adj.)", "Holm",
               "Bonferroni-Dunn", "Wilcoxon T", "Wilcoxon p", "sign wins", "sign n", "sign p",
               "wins", "ties", "losses", "d_z", "rank-biserial", "P(better)", "P(rope)", "P(worse)"]
    if form.tidy:
        headers = ["classifier", "average_rank", "z", "pvalue", "holm_pvalue", "holm_reject",
                   "bonferroni_dunn_reject", "wilcoxon_statistic", "wilcoxon_pvalue", "sign_wins",
                   "sign_n", "sign_pvalue", "wins", "ties", "losses", "cohens_dz",
                   "rank_biserial", "p_better", "p_rope", "p_worse"]
        rows = [r[:5] + [r[5] == "reject", r[6] == "reject"] + r[7:] for r in rows]
    caption = (f"post-hoc tests against {result.baseline} over {len(result.complete)} data sets "
               f"(average rank {result.average_ranks[result.baseline]:.3f}), alpha = "
               f"{result.alpha:g}; effect sizes of classifier - {result.baseline}; Bayesian "
               f"signed-rank test with rope {result.rope:g}: P(better), P(rope), P(worse) of "
               f"the classifier")
    return ComparisonTable("posthoc", caption, headers, rows)


def _pvalues_table(result: Comparison, form: TableFormat) -> ComparisonTable:
    """Per data set, each classifier against the baseline: fold test, effect size, Bayes."""
    e = result.effects
    diff = e.difference.to_numpy(dtype=float)
    # Arrays, not per-cell pandas look-ups: 50 classifiers on 200 data sets are 10,000 rows.
    columns = [(result.pvalue, _p), (None, None), (e.difference, _f), (e.low, _f), (e.high, _f),
               (e.p_left, _prob), (e.p_rope, _prob), (e.p_right, _prob)]
    values = [None if frame is None else frame.to_numpy(dtype=float) for frame, _ in columns]
    sign = (result.sign.to_numpy(dtype=int) if result.sign is not None
            else np.zeros(diff.shape, dtype=int))
    # The labels once: each ``result.datasets`` builds a list from the frame's index.
    datasets, names = result.datasets, result.classifiers
    base = names.index(result.baseline)
    rows = []
    for i, j in zip(*np.nonzero(np.isfinite(diff))):
        if j == base:
            continue
        cells = [{1: "v", -1: "*"}.get(int(sign[i, j]), "") if v is None else show(v[i, j], form)
                 for v, (_, show) in zip(values, columns)]
        rows.append([datasets[i], names[j], *cells])
    headers = (["dataset", "classifier", "pvalue", "mark", "difference", "ci_low", "ci_high",
                "p_better", "p_rope", "p_worse"] if form.tidy else
               ["data set", "classifier", "p", "mark", "difference", "95% CI low", "95% CI high",
                "P(better)", "P(rope)", "P(worse)"])
    caption = (f"each classifier against {result.baseline} on each data set: "
               f"{stats.FOLD_TESTS[result.test].title} p-value and mark, mean difference (classifier - "
               f"{result.baseline}) with its 95% interval (Nadeau-Bengio corrected), Bayesian "
               f"correlated t-test with rope {result.rope:g}")
    return ComparisonTable("pvalues", caption, headers, rows)


def _pairs_table(result: Comparison, form: TableFormat) -> ComparisonTable:
    """Every pair of classifiers: Nemenyi and Holm-adjusted Wilcoxon p-values."""
    names, nem, wil = result.classifiers, result.nemenyi_pairs, result.wilcoxon_pairs
    rows = [[names[i], names[j], float(result.average_ranks[names[i]] - result.average_ranks[names[j]]),
             _p(nem.pvalue[n], form), _yes(nem.reject[n]), _p(wil.pvalue[n], form),
             _p(wil.pvalue_adjusted[n], form), _yes(wil.reject[n])]
            for n, (i, j) in enumerate(nem.pairs)]
    headers = ["classifier A", "classifier B", "rank difference", "Nemenyi p", "Nemenyi",
               "Wilcoxon p", "Wilcoxon Holm p (adj.)", "Wilcoxon Holm"]
    if form.tidy:
        headers = ["classifier_a", "classifier_b", "rank_difference", "nemenyi_pvalue",
                   "nemenyi_reject", "wilcoxon_pvalue", "wilcoxon_holm_pvalue", "wilcoxon_holm_reject"]
        rows = [r[:4] + [r[4] == "reject"] + r[5:7] + [r[7] == "reject"] for r in rows]
    caption = (f"every pair over {len(result.complete)} data sets (alpha = {result.alpha:g}): "
               f"rank difference R_A - R_B, Nemenyi p-values, Wilcoxon signed-rank p-values "
               f"and Holm's adjustment over the {len(rows)} pairs")
    return ComparisonTable("pairs", caption, headers, rows)


class _NoTest(NamedTuple):
    p_left: float = float("nan")
    p_rope: float = float("nan")
    p_right: float = float("nan")


_NO_TEST = _NoTest()  # a Bayesian signed-rank test not asked for: empty cells


def _f(x, form: TableFormat):
    if x is None or not np.isfinite(x):
        return "" if form.tidy else "-"
    return float(x) if form.tidy else f"{x:+.4f}"


def _prob(x, form: TableFormat):
    if x is None or not np.isfinite(x):
        return "" if form.tidy else "-"
    return float(x) if form.tidy else f"{x:.3f}"


def notes(result: Comparison) -> list[str]:
    """What a reader needs to read the tables: how ranks and tests were computed, and the
    comparison's own notes (left-out data sets, failed cells)."""
    notes = []
    if result.friedman is not None:
        notes.append("Ranks: 1 = best within a data set, ties share the mean rank. chi2_F is "
                     "Demsar's formula (no tie correction), F_F is computed from it; the tie-corrected "
                     "chi2_F is what scipy.stats.friedmanchisquare reports.")
        notes.append("z = (R_baseline - R_i) / sqrt(k(k+1)/(6N)): positive when classifier i ranks "
                     "better. Wilcoxon: zero differences split between R+ and R- (one dropped if odd), "
                     "as Demsar does. Sign test: ties split evenly, exact two-sided binomial p.")
        notes.append("chi2_F's exact p is the chance of a chi2_F as large when each data set's "
                     "ranks are permuted at random (computed for few data sets and classifiers; "
                     "'-' beyond); where it is given it is the p-value to read.")
        if not np.isfinite(result.friedman.f_statistic):
            notes.append("F_F is infinite and its p-value undefined: every data set ranks the "
                         "classifiers in the same order, so chi2_F = N(k-1) and F_F's "
                         "denominator is 0; read chi2_F's exact p.")
        notes.append(f"Bayesian tests (Benavoli et al. 2017): P(better) is the probability that "
                     f"the classifier beats {result.baseline} by more than the rope "
                     f"({result.rope:g}), P(rope) that the two are practically equivalent; a "
                     f"probability above 0.95 is a common threshold for a decision.")
        groups = result.groups()
        if groups:
            notes.append("Nemenyi cannot separate: " + "; ".join("{" + ", ".join(g) + "}" for g in groups))
    return list(result.warnings) + notes + list(result.notes)


def comparison_json(result: Comparison) -> str:
    """The comparison as one JSON document for scripts: its settings, the data sets and
    classifiers, every table of :func:`comparison_tables` as a list of records (the CSV
    columns; null for an undefined value) and the notes."""
    def cell(v):
        if isinstance(v, (float, np.floating)):
            return float(v) if math.isfinite(v) else None
        if isinstance(v, np.integer):
            return int(v)
        if isinstance(v, np.bool_):
            return bool(v)
        return None if v == "" else v

    tables = {t.name: [{h: cell(v) for h, v in zip(t.headers, row)} for row in t.rows]
              for t in comparison_tables(result, "csv")}
    doc = {"metric": result.metric, "baseline": result.baseline, "test": result.test,
           "alpha": result.alpha, "rope": result.rope, "lower_is_better": result.lower_is_better,
           "datasets": result.datasets, "classifiers": result.classifiers,
           "complete": list(result.complete), "tables": tables,
           "warnings": list(result.warnings), "notes": notes(result)}
    return json.dumps(doc, indent=1) + "\n"
