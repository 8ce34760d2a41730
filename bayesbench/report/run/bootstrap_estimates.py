"""The bootstrap's estimate of each classifier's error rate (``cv: {bootstrap: B}``):
``summary/bootstrap.<ext>`` and its section of report.html.

Computed (:mod:`~bayesbench.stats.bootstrap_error`) from the out-of-bag predictions every
replicate kept (:mod:`~bayesbench.evaluation.predictions`) and, for the ``632`` and
``632plus`` estimates, the confusion matrix of the classifier's apparent-error task (a model of
every row tested on them; its record is marked ``apparent``). A data set and classifier with a
failed task has no row: its estimate would rest on fewer replicates than the others'.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...evaluation.predictions import kept_arrays, promises, task_files
from ...evaluation.schemes.bootstrap import TITLES, Bootstrap
from ...evaluation.store import APPARENT
from ...stats.bootstrap_error import (bootstrap_error, leave_one_out_bootstrap,
                                      no_information_rate)
from ..html import Section, Table
from ..tables import render, table_format

__all__ = ["COLUMNS", "STEM", "caption", "estimate_rows", "write_tables", "section"]

COLUMNS = ["dataset", "classifier", "estimate", "error", "oob", "apparent", "no_information",
           "overfitting", "replicates", "rows"]
STEM = "bootstrap"  # summary/bootstrap.<ext>


def caption(cv) -> str:
    estimate = Bootstrap.value(cv, "estimate")
    parts = ("oob = leave-one-out bootstrap Err(1) over the rows out of bag at least once "
             "(rows)")
    if estimate != "oob":
        parts += (", apparent = error of a model of every row on those rows, no_information = "
                  "gamma, overfitting = relative overfitting rate R' (clipped to [0, 1])")
    return (f"error rate: the {TITLES[estimate]} estimate (Efron and Tibshirani 1997) over "
            f"{Bootstrap.value(cv, 'bootstrap')} replicates; {parts}")


def estimate_rows(run_dir, records, datasets, classifiers, cv, held=None) -> list[list]:
    """The rows of :data:`COLUMNS` of every data set and classifier (in the given orders)
    whose tasks all finished with their predictions; ``held`` (``{task id: arrays}``): those
    still in memory, not read back from their files."""
    files, cells, held = task_files(run_dir), {}, held or {}
    for r in records:
        cells.setdefault((r["dataset"], r["classifier"]), []).append(r)
    estimate = Bootstrap.value(cv, "estimate")
    needs_apparent = estimate != "oob"
    rows = []
    for d in datasets:
        for c in classifiers:
            rs = cells.get((d, c), [])
            replicates = [r for r in rs if not r.get(APPARENT)]
            apparent = [r for r in rs if r.get(APPARENT)]
            # A replicate whose record promises its file is read as it promises it (a
            # missing or changed file is an error, not a row left out).
            if not replicates or any(r["status"] != "ok" for r in rs) or \
                    any(not promises(r) and r["task_id"] not in held
                        for r in replicates) or (needs_apparent and not apparent):
                continue
            parts = [kept_arrays(run_dir, r, files, held) for r in replicates]
            oob, seen = leave_one_out_bootstrap(
                np.concatenate([p["row"] for p in parts]),
                np.concatenate([p["predicted"] != p["true"] for p in parts]))
            if needs_apparent:
                confusion = np.asarray(apparent[0]["confusion"])
                result = bootstrap_error(oob, apparent[0]["metrics"]["error"],
                                         no_information_rate(confusion))
            else:
                result = bootstrap_error(oob)
            rows.append([d, c, estimate, Bootstrap.estimate_of(cv, result), result.oob,
                         result.apparent, result.no_information, result.overfitting,
                         len(replicates), seen])
    return rows


def write_tables(out_dir, rows, cv, formats) -> list[Path]:
    """``bootstrap.csv`` (always, full precision: a table of numbers for scripts) and the
    table in each other format of ``formats``."""
    files = []
    for fmt in dict.fromkeys(("csv", *formats)):
        files.append(Path(out_dir) / f"{STEM}.{table_format(fmt).extension}")
        files[-1].write_text(render(rows, COLUMNS, fmt, caption=caption(cv)))
    return files


def section(rows, cv, missing=()) -> Section:
    """The report's section of the estimates; ``missing``: the ``(data set, classifier)``
    pairs left out for a failed task."""
    text = caption(cv) + "."
    if missing:
        text += ("\n\nNo estimate (a task failed): "
                 + ", ".join(f"{c} on {d}" for d, c in missing) + ".")
    shown = [r[:3] + [_shown(v) for v in r[3:8]] + r[8:] for r in rows]
    return Section("Bootstrap estimate of the error rate", text=text,
                   tables=[Table(STEM, headers=COLUMNS, rows=shown)])


def _shown(value: float) -> str:
    return "-" if np.isnan(value) else f"{value:.4f}"
