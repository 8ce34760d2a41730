"""The bootstrap (Efron and Tibshirani 1997): ``B`` replicates, each trained on ``n`` rows drawn
with replacement and tested on the rows it did not draw (out of bag).

Replicate ``b`` is repetition ``b`` (fold 0), drawn from the generator of ``(seed, data set,
b)`` as every repetition's splits are; its training part holds each row as often as it was
drawn, and the runner gives the learner every copy (a row drawn three times counts three times
in its counts, in the discretization and imputation fitted on that part). ``stratified`` draws
each class's rows from that class, as many as it has, so every replicate keeps the class counts
of the data.

The estimate of the error rate (``estimate``, :data:`ESTIMATES`) is computed after the run from
every replicate's out-of-bag predictions (kept for that) and, for ``632`` and ``632plus``, from
each classifier's apparent error: one more task per classifier and data set, trained and tested
on every row (repetition ``B``, its record marked ``apparent``; no table of scores averages it).
The formulas are :mod:`bayesbench.stats.bootstrap_error`'s.
"""
from __future__ import annotations

import numpy as np

from ...errors import PlanError
from ...spec import MAX_REPEATS
from .scheme import CVScheme, Setting, Split

#: The estimates of the error rate the bootstrap reports, with the field of
#: :class:`~bayesbench.stats.bootstrap_error.BootstrapError` each one is and its words.
ESTIMATES = {
    "oob": ("oob", "the leave-one-out bootstrap `Err(1)`: each row's error averaged over the "
                   "replicates that left it out, then over the rows"),
    "632": ("point632", "`.368 err + .632 Err(1)`, `err` the apparent error of a model of every "
                        "row on those rows (Efron 1983)"),
    "632plus": ("point632plus", "the .632+ estimate: the weight of `Err(1)` raised from .632 "
                                "with the relative overfitting rate (Efron and Tibshirani 1997)"),
}
TITLES = {"oob": "leave-one-out bootstrap", "632": ".632 bootstrap", "632plus": ".632+ bootstrap"}


def _named(value):
    """``estimate: 632``, which YAML reads as a number, names the estimate ``'632'``."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class Bootstrap(CVScheme):
    """``bootstrap`` replicates, each tested on its out-of-bag rows, and an estimate of the
    error rate made of them (and of the apparent error)."""

    name = "bootstrap"
    title = "the bootstrap"
    summary = ("`bootstrap` samples of n rows drawn with replacement, each tested on the rows it "
               "left out; the .632+ (or .632, or out-of-bag) estimate of the error rate")
    settings = (Setting("bootstrap", int, 50, low=2, high=MAX_REPEATS),
                Setting("estimate", str, "632plus", choices=tuple(ESTIMATES), coerce=_named),
                Setting("stratified", bool, False))
    repeated_by = "bootstrap"
    repeats_rows = True
    keeps_predictions = True

    def splits(self, y, spec, rng, dataset, repetition):
        n, rng = y.shape[0], rng()
        if self.value(spec, "stratified"):
            drawn = []
            for c in np.unique(y):
                members = np.flatnonzero(y == c)
                drawn.append(members[rng.integers(0, members.size, members.size)])
            train = np.sort(np.concatenate(drawn))
        else:
            train = np.sort(rng.integers(0, n, n))
        test = np.flatnonzero(np.bincount(train, minlength=n) == 0)
        if test.size == 0:
            raise PlanError([(("cv", "bootstrap"), (
                f"replicate {repetition} of data set '{dataset}' drew every one of its {n} "
                f"rows: no row is left out to test it on"))])
        return [Split(repetition, 0, train, test)]

    def apparent_split(self, y, spec):
        if self.value(spec, "estimate") == "oob":
            return None
        everything = np.arange(y.shape[0])
        return Split(self.value(spec, "bootstrap"), 0, everything, everything, apparent=True)

    def describe(self, spec):
        strata = "stratified " if self.value(spec, "stratified") else ""
        return (f"{self.value(spec, 'bootstrap')} {strata}bootstrap replicates, each tested on "
                f"its out-of-bag rows")

    def tasks_words(self, spec):
        estimate = self.value(spec, "estimate")
        return (f"the {self.describe(spec)} (the {TITLES[estimate]} estimate of the error rate "
                f"in summary/bootstrap.*)")

    @classmethod
    def estimate_of(cls, spec, result) -> float:
        """The value of the spec's ``estimate`` among ``result`` (a
        :class:`~bayesbench.stats.bootstrap_error.BootstrapError`)."""
        return getattr(result, ESTIMATES[cls.value(spec, "estimate")][0])
