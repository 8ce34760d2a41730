"""A fold job: every classifier of one fold, on the fold prepared once (imputed, discretized,
its counts) for all of them; one record each."""
from __future__ import annotations

from dataclasses import replace

from ..measures.codes import TableTooLarge, table_limit
from ..models.core.sufficient import fits_from_statistics
from ..models.registry import make_classifier
from .classifier_task import run_classifier
from .plan import FoldJob
from .prepare import counts_subtract, prepare_fold, with_total_statistics
from .store import APPARENT

__all__ = ["run_fold", "with_statistics"]


def _uses_statistics(job: FoldJob) -> bool:
    """Whether some classifier of ``job`` would be fitted from the fold's statistics."""
    if not counts_subtract(job.preprocess, job.data):
        return False
    for spec in job.classifiers:
        try:
            if spec.tune is None and not spec.steps and fits_from_statistics(make_classifier(spec.learner,
                                                                          **spec.params)):
                return True
        except Exception:  # noqa: BLE001 - a learner that cannot be made fails in its task
            continue
    return False


def with_statistics(jobs: list[FoldJob]) -> list[FoldJob]:
    """``jobs``, each data set's carrying the statistics of all its rows (counted once here,
    shared by its jobs) when some classifier of the job can be fitted from them."""
    totals, out = {}, []
    for job in jobs:
        if _uses_statistics(job):
            key = id(job.data)
            if key not in totals:
                try:
                    totals[key] = with_total_statistics(job.data)
                except TableTooLarge:
                    # All pairs in one table exceed the limit; each fold counts its own pairs.
                    totals[key] = job.data
            job = replace(job, data=totals[key])
        out.append(job)
    return out


def run_fold(job: FoldJob, max_table_cells: int | None = None, networks=()) -> list[dict]:
    """Run every classifier of a fold job; return one record per classifier. A learner
    whose table of counts would exceed ``max_table_cells`` fails (None: the default);
    ``networks``: the formats its fitted network is returned in (:func:`run_classifier`)."""
    with table_limit(max_table_cells):
        return _run_fold(job, networks)


def _run_fold(job: FoldJob, networks=()) -> list[dict]:
    views = prepare_fold(job)
    records = []
    for spec, tid in zip(job.classifiers, job.task_ids):
        record = {"dataset": job.dataset.name, "repetition": job.repetition, "fold": job.fold,
                  "classifier": spec.label, "seed": job.seed, "fold_id": job.fold_id,
                  "task_id": tid}
        if job.train_size is not None:  # absent without a learning curve, as records were
            record["train_size"] = job.train_size
        if job.apparent:  # likewise: a bootstrap's apparent error, which no table averages
            record[APPARENT] = True
        record.update(run_classifier(spec, views, job, networks))
        records.append(record)
    return records
