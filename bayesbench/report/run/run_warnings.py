"""The warnings a run's classifiers raised, gathered from its records.

A record keeps the distinct warnings its classifier raised in ``fit`` or ``predict``
(``warnings``, :mod:`~bayesbench.evaluation.adapter`); one per fold would be lost among
hundreds of records, so the summary shows each message once per data set and classifier,
with the number of folds that raised it: in the terminal, in ``summary/warnings.csv`` and
in a section of report.html.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

WARNINGS_FILE = "warnings.csv"
WARNING_COLUMNS = ["dataset", "classifier", "folds", "of", "warning"]


class Warned(NamedTuple):
    """A warning of one classifier on one data set: raised in ``folds`` of its ``of`` tasks."""

    dataset: str
    classifier: str
    folds: int
    of: int
    warning: str

    def line(self) -> str:
        return (f"{self.dataset} / {self.classifier}: {self.folds} of {self.of} folds: "
                f"{self.warning}")


def warned(records) -> list[Warned]:
    """Each distinct warning per data set and classifier, in the order of ``records`` (the
    summary's task order), with the folds that raised it out of the tasks run."""
    tasks, counts = Counter(), Counter()
    for r in records:
        tasks[r["dataset"], r["classifier"]] += 1
        for message in dict.fromkeys(r.get("warnings") or ()):
            counts[r["dataset"], r["classifier"], message] += 1
    return [Warned(d, c, n, tasks[d, c], message) for (d, c, message), n in counts.items()]
