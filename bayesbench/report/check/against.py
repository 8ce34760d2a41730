"""Hold a run against the table a paper printed: ``bayesbench check RUN_DIR``.

A paper config names its paper's numbers with ``published: FILE`` (a YAML file beside it,
``configs/papers/published/``); the run's ``config.yaml`` keeps that path. Each table of
the file gives a metric, the scale the paper prints it at (100 for percentages), what its
``±`` means (``spread``: ``sd`` over ``folds`` test folds, ``se``, or ``none``), the
columns (a classifier label, or ``arm/label`` in a config with arms; a list sets several
of ours beside one printed column) and, per data set, the printed ``[mean, spread]`` (or
the mean alone) of each column.

Every cell of ours is held against the printed one with one rule:

    tolerance = 2 sqrt(se_ours^2 + se_paper^2),  within: |ours - paper| <= tolerance

``se_ours`` is the sd of the fold scores over the square root of their number, and
``se_paper`` the printed spread over the square root of ``folds`` (``sd``), the spread
itself (``se``) or 0 (``none``). Where the paper prints Friedman ranks, the outcome of a
test over folds or the p-value of a test between data sets (a ``tests`` entry with
``group`` and ``against``), :func:`check_run` puts ours beside them (``ranks``, ``tests``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...evaluation.store import records_frame
from ...spec import CompareSpec
from ...stats import unpaired_ttest
from ..analysis import compare
from .published import BETWEEN_READINGS, published_path, read_published, run_dirs

__all__ = ["RULE", "Cell", "Check", "check_run"]

RULE = ("within: |ours - paper| <= 2 sqrt(se_ours^2 + se_paper^2) + half a unit of the "
        "paper's last printed digit")
# Scores derived from a record's fields rather than read from them: errors per test fold
# (paper 003's "0/1 loss") and the rows tested per fold (paper 000's printed matrices).
_DERIVED = {"errors": lambda frame: frame["error"] * frame["n_test"],
            "n_test": lambda frame: frame["n_test"]}
_INPUTS = {"errors": ["error"], "n_test": []}   # the metrics each is made of
@dataclass(frozen=True)
class Cell:
    """One printed value against ours: ``ours`` and ``paper`` in the paper's units."""

    dataset: str
    classifier: str
    arm: str | None
    metric: str
    ours: float
    ours_sd: float
    folds: int
    paper: float
    paper_spread: float | None
    difference: float
    tolerance: float
    within: bool
    table: str
    page: int | None

    def to_dict(self) -> dict:
        return {k: _plain(v) for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class Check:
    """A run held against its paper: the cells, the printed cells we have no run for
    (``(data set, column)``), the ranks and test outcomes side by side."""

    run: str
    published: str
    paper: str
    cells: tuple[Cell, ...]
    not_run: tuple[tuple[str, str], ...]
    ranks: dict | None
    tests: tuple[dict, ...]

    @property
    def counts(self) -> dict:
        within = sum(c.within for c in self.cells)
        return {"cells": len(self.cells), "within": within, "off": len(self.cells) - within,
                "not_run": len(self.not_run)}

    def to_dict(self) -> dict:
        return {"run": self.run, "published": self.published, "paper": self.paper,
                "rule": RULE,
                "counts": self.counts, "cells": [c.to_dict() for c in self.cells],
                "not_run": [list(x) for x in self.not_run], "ranks": self.ranks,
                "tests": list(self.tests)}


def _plain(value):
    if isinstance(value, (np.floating, float)):
        return None if not math.isfinite(value) else float(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def check_run(run_dir) -> Check:
    """Hold the result directory (or directory of arms) ``run_dir`` against the published
    table its config names."""
    published = published_path(run_dir)
    raw = read_published(published)
    runs = run_dirs(run_dir)
    frame = records_frame(runs, metrics=_metrics(raw))
    cells, not_run = [], []
    # The data sets of the paper that we run (a data set with no public copy is not held
    # against us in the ranks and tests).
    printed = [d for d in _printed_datasets(raw) if d not in (raw.get("not_run") or {})]
    for table in raw.get("tables", []):
        got, missing = _table_cells(frame, table)
        cells += got
        not_run += [m for m in missing if m not in not_run]
    return Check(run=str(run_dir), published=str(published), paper=str(raw.get("paper", "")),
                 cells=tuple(cells), not_run=tuple(not_run),
                 ranks=_ranks(frame, raw.get("ranks"), printed),
                 tests=tuple(_test(frame, t, printed) for t in raw.get("tests") or []))


def _metrics(raw: dict) -> list[str]:
    """The scores the published file compares (a derived one by those it is made of)."""
    named = [t["metric"] for t in raw.get("tables", [])] + [
        part.get("metric", "accuracy") for part in [raw.get("ranks") or {}, *(raw.get("tests") or [])]]
    return list(dict.fromkeys(m for name in named for m in _INPUTS.get(name, [name])))


def _targets(column) -> list[str]:
    return [column] if isinstance(column, str) else list(column)


def _select(frame: pd.DataFrame, target: str) -> pd.DataFrame:
    """The records of ``target`` (``label``, or ``arm/label`` in a directory of arms)."""
    arm, _, label = target.rpartition("/")
    rows = frame["classifier"] == label
    if arm:  # an arm's records carry its directory's name, the arm's
        rows &= frame["run"] == arm
    return frame[rows]


def _scores(rows: pd.DataFrame, metric: str) -> np.ndarray:
    if metric in _DERIVED:
        values = _DERIVED[metric](rows)
    elif metric in rows:
        values = rows[metric]
    else:
        return np.array([])
    return values.dropna().to_numpy(dtype=float)


def _table_cells(frame: pd.DataFrame, table: dict):
    metric, scale = table["metric"], float(table.get("scale", 1))
    cells, missing = [], []
    for dataset, values in (table["values"] or {}).items():
        of_dataset = frame[frame["dataset"] == dataset] if len(frame) else frame
        for column, printed in zip(table["columns"], values):
            if printed is None:
                continue
            mean, sd = (printed[0], printed[1]) if isinstance(printed, list) else (printed, None)
            ran = False
            for target in _targets(column):
                scores = _scores(_select(of_dataset, target), metric) * scale
                if not scores.size:
                    continue
                ran = True
                cells.append(_cell(dataset, target, scores, (float(mean), sd), table))
            if not ran:
                missing.append((dataset, " / ".join(_targets(column))))
    return cells, missing


def _cell(dataset, target, scores, printed, table) -> Cell:
    """``target``'s ``scores`` on ``dataset`` held against the ``printed`` (mean, spread or
    None) of the published ``table``."""
    metric, spread, folds = table["metric"], table.get("spread", "none"), table.get("folds")
    mean, sd = printed
    arm, _, label = target.rpartition("/")
    ours = float(scores.mean())
    ours_sd = float(scores.std(ddof=1)) if scores.size > 1 else 0.0
    se_ours = ours_sd / math.sqrt(scores.size) if scores.size > 1 else 0.0
    se_paper = (0.0 if sd is None or spread == "none" else
                float(sd) / math.sqrt(folds) if spread == "sd" else float(sd))
    tolerance = 2 * math.hypot(se_ours, se_paper)
    difference = ours - mean
    # The printed digits bound what "equal" can mean: a difference within rounding is none.
    within = abs(difference) <= tolerance + 0.5 * 10 ** -int(table.get("digits", 6))
    return Cell(dataset=dataset, classifier=label, arm=arm or None,
                metric=metric, ours=ours, ours_sd=ours_sd, folds=int(scores.size), paper=mean,
                paper_spread=None if sd is None else float(sd), difference=difference,
                tolerance=tolerance, within=bool(within), table=str(table.get("table", "")),
                page=table.get("page"))


def _relabelled(frame: pd.DataFrame, targets) -> pd.DataFrame:
    """The records of ``targets`` (labels or ``arm/label``), each labelled by its target."""
    parts = [_select(frame, t).assign(classifier=t) for t in targets]
    return pd.concat(parts, ignore_index=True) if parts else frame.iloc[:0]


def _printed_datasets(raw: dict) -> list[str]:
    return list(dict.fromkeys(d for t in raw.get("tables", []) for d in (t["values"] or {})))


def _missing_note(frame: pd.DataFrame, datasets: list[str]) -> str | None:
    """Why a test over the paper's data sets is not set beside the paper's: the run lacks some."""
    have = set(frame["dataset"]) if len(frame) else set()
    lacking = [d for d in datasets if d not in have]
    return (f"not computed: the run has {len(datasets) - len(lacking)} of the paper's "
            f"{len(datasets)} data sets") if lacking else None


def _ranks(frame: pd.DataFrame, ranks: dict | None, datasets: list[str]) -> dict | None:
    """Friedman's average ranks and p-values over the paper's data sets, ours beside the
    paper's (only when the run has every one of them)."""
    if not ranks:
        return None
    note = _missing_note(frame, datasets)
    if note:
        return {"table": ranks.get("table"), "page": ranks.get("page"), "note": note}
    labels = list(ranks["values"])
    rows = _relabelled(frame[frame["dataset"].isin(datasets)], labels)
    if rows["classifier"].nunique() < 2:
        return None
    cmp = compare(rows, CompareSpec(metric=ranks.get("metric", "accuracy"), baseline=labels[0],
                                    test="wilcoxon"))
    if cmp.friedman is None:
        return None
    return {"table": ranks.get("table"), "page": ranks.get("page"),
            "datasets": len(cmp.complete),
            "ranks": {c: {"ours": float(cmp.average_ranks[c]), "paper": float(p)}
                      for c, p in ranks["values"].items() if c in cmp.average_ranks},
            "friedman_pvalue": {"ours": float(cmp.friedman.pvalue),
                                "paper": ranks.get("friedman_pvalue")},
            "iman_davenport_pvalue": {"ours": float(cmp.friedman.f_pvalue),
                                      "paper": ranks.get("iman_davenport_pvalue")}}


def _test(frame: pd.DataFrame, spec: dict, datasets: list[str]) -> dict:
    """A test over the folds that the paper reports (which data sets it found better or
    worse, win/tie/loss counts, or p-values per data set), ours beside it."""
    out = {k: spec.get(k) for k in ("table", "page", "test", "metric", "alpha", "classifier",
                                    "baseline")}
    metric, alpha, clf = spec.get("metric", "accuracy"), spec.get("alpha", 0.05), spec["classifier"]
    if "group" in spec:
        return {**out, **_between(frame, spec, metric)}
    if "pvalues" in spec:
        out["pvalues"] = {}
        for dataset, printed in spec["pvalues"].items():
            rows = frame[frame["dataset"] == dataset]
            a, b = (_scores(_select(rows, spec[k]), metric) for k in ("classifier", "baseline"))
            ours = float(unpaired_ttest(a, b).pvalue) if a.size > 1 and b.size > 1 else None
            out["pvalues"][dataset] = {"ours": ours, "paper": printed}
        return out
    note = _missing_note(frame, datasets)
    if note:
        return {**out, "note": note}
    rows = _relabelled(frame[frame["dataset"].isin(datasets)], [spec["baseline"], clf])
    if rows["classifier"].nunique() < 2:
        return out
    cmp = compare(rows, CompareSpec(metric=metric, baseline=spec["baseline"], test=spec["test"],
                                    alpha=alpha))
    better = [d for d in cmp.datasets if cmp.sign.at[d, clf] > 0]
    worse = [d for d in cmp.datasets if cmp.sign.at[d, clf] < 0]
    out["datasets"] = list(cmp.datasets)
    if "better" in spec or "worse" in spec:
        out["better"] = {"ours": better, "paper": list(spec.get("better") or [])}
        out["worse"] = {"ours": worse, "paper": list(spec.get("worse") or [])}
    if "wins" in spec:
        ties = len(cmp.datasets) - len(better) - len(worse)
        out["win_tie_loss"] = {"ours": [len(better), ties, len(worse)],
                               "paper": [spec["wins"], spec.get("ties"), spec.get("losses")]}
    return out


def _fold_scores(rows: pd.DataFrame, metric: str) -> np.ndarray:
    """The scores of ``rows`` in the order of their repetitions and folds."""
    return _scores(rows.sort_values(["repetition", "fold"]), metric)


def _between(frame: pd.DataFrame, spec: dict, metric: str) -> dict:
    """Student's t-test between the fold scores of a group of data sets and those of each
    data set of ``against``, under each reading of :data:`BETWEEN_READINGS`, ours beside
    the printed p-value."""
    rows = _select(frame, spec["classifier"])
    group = [_fold_scores(rows[rows["dataset"] == d], metric) for d in spec["group"]]
    readings = list(spec.get("readings") or BETWEEN_READINGS)
    # A group the run lacks a data set of is not the paper's group: no p-value.
    whole = bool(group) and all(g.size for g in group)
    pooled = {"folds": np.concatenate(group) if whole else np.array([]),
              "average": (np.mean(group, axis=0) if whole and all(g.size == group[0].size
                                                                   for g in group)
                          else np.array([]))}
    pvalues = {}
    for dataset, printed in spec["against"].items():
        other = _fold_scores(rows[rows["dataset"] == dataset], metric)
        ours = {r: (float(unpaired_ttest(pooled[r], other).pvalue)
                    if pooled[r].size > 1 and other.size > 1 else None) for r in readings}
        pvalues[dataset] = {"ours": ours, "paper": printed}
    return {"group": list(spec["group"]), "readings": readings, "between": pvalues}
