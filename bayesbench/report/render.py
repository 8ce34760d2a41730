"""Print a :class:`~bayesbench.report.analysis.Comparison`: tables and the CD diagram.

:func:`render_comparison` gives, in any table format of :mod:`.tables`:

1. mean +- std of each classifier on each data set, the best of each row
   marked, and Weka's marks against the baseline: ``v`` significantly better,
   ``*`` significantly worse (a test over the folds of that data set);
   bottom rows with average ranks and wins/ties/losses against the baseline;
2. Friedman's chi-square_F as Demšar prints it (no tie correction) and, beside
   it, the tie-corrected value scipy reports; Iman-Davenport's F_F (computed
   from the uncorrected chi-square_F, as in the paper); the Nemenyi and
   Bonferroni-Dunn critical differences;
3. the post-hoc comparisons with the baseline as control: z, p, Holm,
   Bonferroni-Dunn, and the Wilcoxon signed-rank and sign tests over data sets;

then the notes. :func:`plot_cd` draws Demšar's critical-difference diagram.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import stats as S
from ..errors import StatsError
from . import cdplot
from .analysis import Comparison
from .tables import render

__all__ = ["render_comparison", "plot_cd"]

# Cells of the LaTeX table hold these control characters, which tables.render leaves
# unescaped, and are turned into markup afterwards; they never occur in real labels.
_BOLD_ON, _BOLD_OFF, _PM = "\x02", "\x03", "\x04"
_LATEX_MARKUP = {_BOLD_ON: r"\textbf{", _BOLD_OFF: "}", _PM: r"$\pm$"}
_NOTE_PREFIX = {"latex": "% ", "csv": "# ", "markdown": "- ", "text": ""}


def render_comparison(result: Comparison, fmt: str = "text") -> str:
    """The three tables (scores, tests, post-hoc) and the notes of ``result`` in ``fmt``
    (text, markdown, csv or latex)."""
    parts = [_scores_table(result, fmt)]  # tables.render refuses an unknown format first
    if result.friedman is not None:
        parts.append(_tests_table(result, fmt))
        parts.append(_posthoc_table(result, fmt))
    parts.append("".join(f"{_NOTE_PREFIX[fmt]}{n}\n" for n in _notes(result)))
    out = "\n".join(parts)
    if fmt == "latex":
        for char, markup in _LATEX_MARKUP.items():
            out = out.replace(char, markup)
    return out


def plot_cd(result: Comparison, path, *, title: str | None = None) -> Path:
    """Write Demšar's critical-difference diagram of ``result`` (PNG, SVG or PDF by suffix)."""
    if result.nemenyi is None:
        raise StatsError("a critical-difference diagram needs at least 2 data sets and 2 classifiers"
                         + (f" ({result.notes[-1]})" if result.notes else ""))
    return cdplot.plot_cd(result.classifiers, result.average_ranks.to_numpy(),
                          result.nemenyi.critical_difference, path, alpha=result.alpha,
                          n_datasets=len(result.complete), title=title)


def _direction(result: Comparison) -> str:
    return "lower is better" if result.lower_is_better else "higher is better"


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


def _cell(mean: float, std: float, sign: int, best: bool, fmt: str) -> str:
    if not np.isfinite(mean):
        return "-"
    text = f"{mean:.4f}"
    if np.isfinite(std):
        pm = {"latex": _PM, "csv": "+-"}.get(fmt, "±")
        text += f" {pm} {std:.4f}"
    if best:
        text = {"markdown": f"**{text}**", "latex": f"{_BOLD_ON}{text}{_BOLD_OFF}"}.get(fmt, text + " •")
    return text + {1: " v", -1: " *"}.get(sign, "")


def _best(mean: np.ndarray, lower_is_better: bool) -> np.ndarray:
    """Where each row's best score is, ties (at the tests' tolerance) all marked."""
    values = S.tie_safe(mean)
    signed = -values if lower_is_better else values
    finite = np.isfinite(signed)
    top = np.max(np.where(finite, signed, -np.inf), axis=1, keepdims=True)
    return finite & (signed == top)


def _score_rows(result: Comparison, fmt: str) -> list[list]:
    """One row per data set: mean +- std, the best marked, and the marks against the baseline."""
    mean = result.mean.to_numpy(dtype=float)
    std = result.std.to_numpy(dtype=float) if result.std is not None else np.full(mean.shape, np.nan)
    sign = result.sign.to_numpy(dtype=int, copy=True) if result.sign is not None else np.zeros(mean.shape, dtype=int)
    sign[:, result.classifiers.index(result.baseline)] = 0
    best = _best(mean, result.lower_is_better)
    return [[ds] + [_cell(*cell, fmt) for cell in zip(mean[i], std[i], sign[i].tolist(), best[i])]
            for i, ds in enumerate(result.datasets)]


def _scores_table(result: Comparison, fmt: str) -> str:
    names = result.classifiers
    rows = _score_rows(result, fmt)
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
    caption = f"{result.metric} ({_direction(result)})"
    if result.std is not None:
        caption = f"{result.metric}: mean and standard deviation over folds ({_direction(result)})"
    caption += "; best in each row marked"
    if result.sign is not None:
        caption += (f"; v / *: significantly better / worse than {result.baseline} "
                    f"({S.FOLD_TESTS[result.test]}, alpha = {result.alpha:g})")
    return render(rows, ["data set"] + names, fmt, caption=caption)


def _tests_table(result: Comparison, fmt: str) -> str:
    fr = result.friedman
    q_n, q_bd = result.nemenyi.q, result.bonferroni_dunn_cd / result.control.se
    rows = [
        ["Friedman chi2_F (Demsar 2006, no tie correction)", fr.statistic, str(fr.df),
         _p(fr.pvalue, fmt)],
        ["Friedman chi2_F, tie-corrected (scipy)", fr.corrected_statistic, str(fr.df),
         _p(fr.corrected_pvalue, fmt)],
        ["Iman-Davenport F_F (from uncorrected chi2_F)", fr.f_statistic,
         f"{fr.f_df[0]}, {fr.f_df[1]}", _p(fr.f_pvalue, fmt)],
        [f"Nemenyi critical difference (q = {q_n:.3f})", result.nemenyi.critical_difference, "", ""],
        [f"Bonferroni-Dunn critical difference (q = {q_bd:.3f})", result.bonferroni_dunn_cd, "", ""],
    ]
    caption = (f"tests over {fr.n_datasets} data sets and {fr.n_classifiers} classifiers "
               f"(alpha = {result.alpha:g})")
    return render(rows, ["test", "statistic", "df", "p-value"], fmt, caption=caption)


def _posthoc_table(result: Comparison, fmt: str) -> str:
    names = result.classifiers
    others = [n for n in names if n != result.baseline]
    rows = []
    for j, name in enumerate(others):
        i = names.index(name)
        w, s = result.wilcoxon[name], result.sign_test[name]
        rows.append([name, float(result.average_ranks[name]), float(result.control.statistic[i]),
                     _p(result.control.pvalue[i], fmt), _p(result.holm.pvalue_adjusted[j], fmt),
                     _yes(result.holm.reject[j]), _yes(result.bonferroni.reject[j]),
                     float(w.statistic), _p(w.pvalue, fmt), f"{s.statistic}/{s.n}", _p(s.pvalue, fmt)])
    headers = ["classifier", "avg rank", "z", "p", "Holm p (adj.)", "Holm",
               "Bonferroni-Dunn", "Wilcoxon T", "Wilcoxon p", "sign wins", "sign p"]
    caption = (f"post-hoc tests against {result.baseline} "
               f"(average rank {result.average_ranks[result.baseline]:.3f}), alpha = {result.alpha:g}")
    return render(rows, headers, fmt, caption=caption)


def _notes(result: Comparison) -> list[str]:
    notes = []
    if result.friedman is not None:
        notes.append("Ranks: 1 = best within a data set, ties share the mean rank. chi2_F is "
                     "Demsar's formula (no tie correction), F_F is computed from it; the tie-corrected "
                     "chi2_F is what scipy.stats.friedmanchisquare reports.")
        notes.append("z = (R_baseline - R_i) / sqrt(k(k+1)/(6N)): positive when classifier i ranks "
                     "better. Wilcoxon: zero differences split between R+ and R- (one dropped if odd), "
                     "as Demsar does. Sign test: ties split evenly, exact two-sided binomial p.")
        if not np.isfinite(result.friedman.f_statistic):
            notes.append("F_F is infinite (p = 0) because every data set ranks the classifiers "
                         "in the same order; with few data sets chi2_F's p-value is the one "
                         "to read.")
        groups = result.groups()
        if groups:
            notes.append("Nemenyi cannot separate: " + "; ".join("{" + ", ".join(g) + "}" for g in groups))
    return notes + list(result.notes)
