"""The seed of a task's stochastic classifier: a ``random_state`` left None in the config
is drawn from the run's seed, the data set's name, the repetition and the fold, so the same
task gets the same numbers serially, in processes and on Dask (the seed travels in the
parameters, and is written in the record's ``params``).

A class with a ``random_state`` parameter is seeded unless it says, for the parameters
given, that it draws no random numbers (a classmethod ``is_stochastic(params)``: the
count-based learners draw only for HDP estimates), so the records of deterministic fits
hold no seed.
"""
from __future__ import annotations

from ..data.fold_assignment import fold_rng
from ..models.registry import parameter_defaults
from .prepare import CLASSIFIER_STREAM


def task_seed(seed: int, dataset: str, repetition: int, fold: int) -> int:
    """The ``random_state`` given to a classifier whose own is left None."""
    return int(fold_rng(seed, dataset, repetition, fold, CLASSIFIER_STREAM).integers(2 ** 31 - 1))


def seed_task(cls, params: dict, seed: int, dataset: str, repetition: int, fold: int) -> None:
    """Set ``params["random_state"]`` to the task's seed when ``cls`` draws random numbers
    with ``params`` and its own is left None."""
    if "random_state" not in (parameter_defaults(cls) or {}) or \
            params.get("random_state") is not None:
        return
    stochastic = getattr(cls, "is_stochastic", None)
    if stochastic is None or stochastic(params):
        params["random_state"] = task_seed(seed, dataset, repetition, fold)
