"""Running an experiment: the plan (pure), each fold's preparation, the execution of its tasks
on an executor, the result directory and its record store, and the scores of a task.

Rooms by job: :mod:`.plan` (fold jobs and task ids), :mod:`.splits`, :mod:`.train_sizes` and
:mod:`.bias_variance_sets` (the rows each task trains and tests on), :mod:`.prepare` (a
fold's imputation, discretization and counts), :mod:`.execute` (the pending jobs on an
executor, :mod:`.executors`), :mod:`.fold_job` (one fold's classifiers),
:mod:`.classifier_task` (one task's record: :mod:`.adapter`, :mod:`.tune`, :mod:`.fitted`,
:mod:`.seeding`, :mod:`.provenance`), :mod:`.chunked_run` (a data set read in chunks),
:mod:`.metrics` and :mod:`.curves` (scores), :mod:`.predictions` (kept test predictions),
:mod:`.rundir`, :mod:`.store` and :mod:`.ownership` (the result directory),
:mod:`.progress`. Nothing is imported here.
"""

__all__ = ["adapter", "bias_variance_sets", "chunked_run", "classifier_task", "curves", "execute",
           "executors", "fitted", "fold_job", "metrics", "ownership", "plan", "predictions",
           "prepare", "progress", "provenance", "rundir", "seeding", "splits", "store",
           "train_sizes", "tune"]
