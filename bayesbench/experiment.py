"""Run an experiment: plan -> open the result directory -> execute -> finalize
(summary tables, figures, report.html).

Every arm is planned before any runs, so that a data problem in one arm stops them all
before anything is written. Finished tasks already in a result directory are kept; the
summary tables are written from the records the run holds in memory.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import naming
from .evaluation.execute import execute
from .evaluation.executors import connected, default_jobs
from .evaluation.plan import Plan, plan
from .evaluation.predictions import check_size
from .evaluation.prepare import DataCache
from .evaluation.rundir import check_outputs, claim_arms, open_run_dir
from .report.run.comparison import write_arm_comparison
from .report.run.finalize import finalize_run
from .report.tables import format_names
from .spec import Experiment, RunOptions


@dataclass(frozen=True)
class RunResult:
    """What a run did: its directory, task counts, and the records of the experiment's
    tasks in the order written (failed ones also in ``errors``), and the warnings their
    classifiers raised (:mod:`~bayesbench.report.run.run_warnings`)."""

    run_dir: Path
    n_tasks: int
    n_skipped: int
    n_run: int
    errors: list[dict] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)
    summary_files: list[Path] = field(default_factory=list)
    report: Path | None = None
    figures_skipped: bool = False
    warnings: tuple = ()


def run_experiment(experiment: Experiment, options: RunOptions = RunOptions()) -> list[RunResult]:
    """Run (or resume) ``experiment``: one result per run (each arm, or itself).

    With arms, ``<output>/comparison.*`` also compares the classifiers of all arms.
    Raises :class:`~bayesbench.errors.PlanError` for unusable data sets before anything
    is written, and :class:`~bayesbench.errors.ResultStoreError` when a directory is not
    bayesbench's to write (:mod:`~bayesbench.evaluation.ownership`, also before anything is
    written), is locked by another run or holds a different experiment (unless resumed or
    forced).
    """
    options = replace(options, formats=tuple(options.formats or format_names()))
    cache = DataCache(keep_ids=True, jobs=options.jobs, threads=options.worker_threads)
    try:
        plans = [plan(run, cache) for run in experiment.runs()]
        check_size(plans, options.max_predictions_bytes)  # refused before any directory is made
        check_outputs(experiment, options)  # likewise: a directory that is not bayesbench's
        # A scheduler that cannot be reached is an error before any directory is made; a
        # local cluster is started here and stopped when the last arm is done (or on an error).
        with connected(options.scheduler, options.jobs, options.worker_threads) as scheduler:
            claim_arms(experiment, options)
            results = [_run(run, work, options, scheduler)
                       for run, work in zip(experiment.runs(), plans)]
    finally:
        cache.close()  # the chunked data sets' ids kept on disk
    if experiment.arms:
        write_arm_comparison(experiment, [(r.run_dir, r.records) for r in results],
                             options.formats)
    return results


def _figure_jobs(options: RunOptions) -> int:
    """The processes that draw the figures: those of ``--jobs``; on Dask, this one (the
    figures go to this machine's disk, and no process is forked beside a Dask client's
    threads)."""
    return 1 if options.scheduler is not None else options.jobs or default_jobs()


def _run(experiment: Experiment, work: Plan, options: RunOptions, scheduler) -> RunResult:
    with open_run_dir(experiment, options, work.tasks) as run:
        n_skipped = len(run.records)
        new = execute(work, run, replace(options, scheduler=scheduler))
        experiment = replace(experiment, compare=replace(experiment.compare,
                                                         baseline=run.baseline))
        with naming(run.path):  # a full disk names the result directory at least
            out = finalize_run(run.path, experiment, run.records, options.formats,
                               run.predictions, options.figures, _figure_jobs(options))
    return RunResult(run_dir=run.path, n_tasks=len(work.task_ids), n_skipped=n_skipped,
                     n_run=len(new), errors=[r for r in run.records if r["status"] != "ok"],
                     records=list(run.records), summary_files=out.files, report=out.report,
                     figures_skipped=out.figures_skipped, warnings=out.warnings)
