"""The end of a run: the summary tables (:mod:`.summary`), the figures (the comparison's, the
first fold's learned networks, the learning curves, the prediction curves, the bias-variance
bars, in ``<run>/figures``) and ``<run>/report.html``; with an evaluation or an estimate made of
the tasks, its table (the bias-variance decomposition, the bootstrap's estimate)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

from ...evaluation.schemes.bootstrap import Bootstrap
from ...evaluation.store import in_task_order, task_list, validation_records
from ...spec import Experiment, FigureSpec
from ..figures.decomposition_figure import draw_decomposition
from ..figures.network import Network
from ..figures.pages import (REPORT, comparison_sections, draw_figures, draw_learning_curves,
                             prediction_curves, write_report)
from ..figures.plotting import plotting_available
from ..html import Section, Table
from . import bootstrap_estimates, decomposition
from .learning_curves import at_largest, has_curve
from .protocol import protocol
from .records import declared_order
from .run_warnings import WARNING_COLUMNS, Warned, warned
from .summary import arcs_of, curve_of, write_run_summary
from .summary_tables import metric_tables

__all__ = ["RunOutputs", "finalize_run", "warning_sections", "first_fold_networks"]


class RunOutputs(NamedTuple):
    """What the end of a run wrote: the summary files, figures included, and report.html;
    ``figures_skipped`` when matplotlib is missing; the classifiers' warnings."""

    files: list
    report: Path
    figures_skipped: bool
    warnings: tuple[Warned, ...] = ()


def finalize_run(run_dir, experiment: Experiment, records, formats, held=None,
                 figures: FigureSpec = FigureSpec(), jobs: int = 1) -> RunOutputs:
    """The summary tables (:func:`~.summary.write_run_summary`), the figures (the
    comparison's, the first fold's learned networks and, with kept predictions, the ROC,
    precision-recall and reliability curves, in ``<run>/figures``, in the formats of
    ``figures``, the comparison's and the networks in ``jobs`` processes) and
    ``<run>/report.html``; ``held``: the predictions the session holds in memory (the
    others are read from their files). Every table and figure reads ``records`` in their
    canonical order, put here once (:func:`~bayesbench.evaluation.store.in_task_order`):
    the order the tasks finished in changes no byte of them."""
    run_dir = Path(run_dir)
    tasks = in_task_order(records, task_list(run_dir))
    every = validation_records(tasks)  # apparent errors: their own table
    largest = at_largest(every)  # a learning curve: its largest size
    # The prediction figures' curves (a sort of every kept row of each classifier) are
    # computed in a thread while the tables are written: numpy releases the GIL and the
    # workers have finished, so the end of a run of a million rows takes the longer of the
    # two rather than their sum (benchmarks/bench_predictions.py).
    with ThreadPoolExecutor(1) as pool:
        curves = (pool.submit(prediction_curves, run_dir, largest,
                              [d.name for d in experiment.datasets],
                              [c.label for c in experiment.classifiers], held)
                  if experiment.predictions and plotting_available() else None)
        files, result, reason = write_run_summary(run_dir / "summary", experiment, every,
                                                  formats, held)
        # Done before the figures' worker processes are forked, with no other thread running.
        curves = curves.result() if curves is not None else None
    drawn = draw_figures(run_dir, result, first_fold_networks(largest, experiment),
                         arcs_of(largest, experiment), figures, jobs, curves or ())
    if has_curve(every):
        draw_learning_curves(run_dir, curve_of(every, experiment), experiment.metrics, drawn,
                             figures.formats)
    raised = tuple(warned(largest))
    decomposed, sections = _bias_variance(run_dir, experiment, largest, formats, held,
                                          figures.formats)
    estimated, more = _bootstrap(run_dir, experiment, tasks, formats, held)
    decomposed, sections = decomposed + estimated, sections + more
    report = write_report(run_dir / REPORT, title=f"bayesbench: {experiment.name}",
                          protocol=protocol(experiment, tasks),
                          tables=metric_tables(experiment, largest),
                          sections=(comparison_sections(result, reason) + sections
                                    + warning_sections(raised)),
                          drawn=drawn)
    return RunOutputs(files + decomposed + drawn.files, report, not plotting_available(), raised)


def _bias_variance(run_dir: Path, experiment: Experiment, records, formats, held=None,
                   figure_formats=FigureSpec.formats):
    """The files and the report section of the bias-variance decomposition (none without
    ``evaluation``), from the predictions of ``held`` in memory and the others' files."""
    evaluation = experiment.evaluation
    if evaluation is None:
        return [], []
    datasets, classifiers = declared_order(records, experiment)
    rows = decomposition.decomposition_rows(run_dir, records, datasets, classifiers, evaluation,
                                            held)
    files = decomposition.write_tables(run_dir / "summary", rows, evaluation, formats)
    figures = []
    if rows and plotting_available():
        drawn, figures = draw_decomposition(run_dir, rows, decomposition.COLUMNS,
                                            figure_formats)
        files += drawn
    present = {(r[0], r[1]) for r in rows}
    missing = [(d, c) for d in datasets for c in classifiers if (d, c) not in present]
    return files, [decomposition.section(rows, evaluation, figures, missing)]


def _bootstrap(run_dir: Path, experiment: Experiment, records, formats, held=None):
    """The files and the report section of the bootstrap's estimate (none without
    ``cv: {bootstrap: B}``), from every task's record, apparent errors included."""
    cv = experiment.cv
    if experiment.evaluation is not None or cv.kind != Bootstrap.name:
        return [], []
    datasets, classifiers = declared_order(records, experiment)
    rows = bootstrap_estimates.estimate_rows(run_dir, records, datasets, classifiers, cv, held)
    files = bootstrap_estimates.write_tables(run_dir / "summary", rows, cv, formats)
    present = {(r[0], r[1]) for r in rows}
    missing = [(d, c) for d in datasets for c in classifiers if (d, c) not in present]
    return files, [bootstrap_estimates.section(rows, cv, missing)]


def warning_sections(raised) -> list[Section]:
    """The report's section of the classifiers' warnings (none without any)."""
    if not raised:
        return []
    return [Section("Warnings", text="Warnings the classifiers raised in fit or predict, "
                                     "each once per data set and classifier, with the folds "
                                     "that raised it (also in summary/warnings.csv).",
                    tables=[Table("warnings", headers=WARNING_COLUMNS, rows=raised)])]


def first_fold_networks(records, experiment: Experiment) -> list[Network]:
    """The learned networks the records of the first fold hold, in config order."""
    found = {(r["dataset"], r["classifier"]): r["network"] for r in records if r.get("network")}
    return [Network(d.name, c.label, found[d.name, c.label]) for d in experiment.datasets
            for c in experiment.classifiers if (d.name, c.label) in found]
