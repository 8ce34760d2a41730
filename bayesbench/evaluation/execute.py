"""Execution: the pending fold jobs of a run on an executor, one record per task.

A worker only computes (:mod:`.fold_job`); the calling process receives the records as folds
finish and hands each one to the result directory, so a record is never written twice or
interleaved. A learner that fails is recorded as a failed task and the run goes on.
"""
from __future__ import annotations

from functools import partial

from ..measures.codes import table_limit
from ..spec import RunOptions
from .chunked_run import ChunkedJob, run_chunked
from .executors import map_jobs
from .fitted import network, structure_text
from .fold_job import run_fold, with_statistics
from .plan import Plan
from .progress import Progress

__all__ = ["execute", "chunked_records"]


def execute(work: Plan, run, options: RunOptions) -> list[dict]:
    """Run the tasks of ``work`` that the open result directory ``run`` has not finished,
    on the executor ``options`` chooses; hand each record to ``run.keep`` as its fold
    finishes, reporting progress; return the new records as stored."""
    done = run.done
    todo = work.pending(done)
    totals = {d: len(ids) for d, ids in work.tasks.items()}
    finished = {d: sum(t in done for t in ids) for d, ids in work.tasks.items()}
    new = []
    with Progress(totals, finished, stream=options.stream, quiet=options.quiet) as progress:
        for note in run.notes:  # said even when quiet: they concern the results
            print(f"{run.path}: {note}", file=progress.stream)
        if run.dropped:  # likewise
            print(f"{run.path}: {run.dropped} damaged record(s) dropped; their tasks run again",
                  file=progress.stream)
        if done and not options.quiet:
            print(f"{run.path}: {len(done)} of {sum(totals.values())} tasks already done; "
                  f"running the rest", file=progress.stream)
        task = partial(run_fold, max_table_cells=options.max_table_cells,
                       networks=options.save_networks)
        chunked = [job for job in todo if isinstance(job, ChunkedJob)]
        with table_limit(options.max_table_cells):
            todo = with_statistics([job for job in todo if not isinstance(job, ChunkedJob)])
        for _, records in map_jobs(task, todo, jobs=options.jobs, scheduler=options.scheduler,
                                    threads=options.worker_threads):
            new += [run.keep(record) for record in records]
            progress.update(records[0]["dataset"], len(records),
                            sum(r["status"] != "ok" for r in records))
        for job in chunked:
            for record in chunked_records(job, options):
                new.append(run.keep(record))
                progress.update(record["dataset"], 1, int(record["status"] != "ok"))
    return new


def chunked_records(job: ChunkedJob, options: RunOptions):
    """The records of a chunked data set's tasks (:mod:`~bayesbench.config.chunked_checks`), each file's passes run
    on the executor ``options`` chooses, with their models' structures as
    :func:`run_classifier` describes them."""
    def run_on(fn, tasks):
        return map_jobs(fn, tasks, jobs=options.jobs, scheduler=options.scheduler,
                        threads=options.worker_threads)

    with table_limit(options.max_table_cells):
        for record, model in run_chunked(job, run_on):
            if model is not None:
                record["structure"] = structure_text(model)
                learned = network(model, job.source.class_name) if (
                    record["repetition"], record["fold"]) == (0, 0) else None
                if learned is not None:
                    record["network"] = learned
            yield record
