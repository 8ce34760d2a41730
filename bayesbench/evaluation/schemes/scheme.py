"""What every cross-validation scheme is: a class with its settings, its splits and its words.

A scheme is one :class:`CVScheme` subclass in its own module (:mod:`.kfold`, :mod:`.holdout`,
:mod:`.resubstitution`, :mod:`.loo`, :mod:`.bootstrap`), found by its name in the one table
:data:`~bayesbench.evaluation.schemes.SCHEMES`, which the config check (the ``cv`` keys and
their values), the run (:func:`~bayesbench.evaluation.splits.make_splits`), the run's summary and
``docs/configuration.md`` read; adding a scheme touches its own module, that table and a test.

Its settings are declared once, as :class:`Setting` entries: the config layer checks a ``cv``
mapping against them, and :meth:`CVScheme.spec` turns the values into the frozen
:class:`~bayesbench.spec.CVSpec` whose settings are the scheme's identity (what task ids hash).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from ...spec import MAX_REPEATS, CVSpec


@dataclass(frozen=True)
class Split:
    """One train/test split of one repetition.

    ``train`` and ``test`` are sorted row indices; they are equal under
    resubstitution and disjoint otherwise. A bootstrap replicate's ``train`` holds a row as
    often as it was drawn (each copy is one training example); ``apparent`` marks the split of
    a scheme's apparent error (train = test = every row), which its estimate reads and no
    table of scores averages.
    """

    repetition: int
    fold: int
    train: np.ndarray
    test: np.ndarray
    apparent: bool = False

    @property
    def fold_id(self) -> str:
        """Hex digest of the sorted test indices: equal folds have equal ids."""
        data = np.ascontiguousarray(self.test, dtype="<i8").tobytes()
        return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class Setting:
    """One ``cv`` key a scheme takes: its type (``int``, ``float``, ``bool``, ``str``), default,
    bounds (``low``, ``high``, inclusive) or ``choices``, and a further ``check`` of a value of
    the right type (the problem in words, or None). ``kept``: whether the value is part of the
    spec (its identity); ``omit_default``: a kept value left out when it is the default (so
    that the task ids of runs from before the key existed stay the same); ``coerce``: the
    value as the config gave it, turned into the setting's type before it is checked (YAML
    reads ``estimate: 632`` as a number)."""

    key: str
    kind: type
    default: object
    low: object = None
    high: object = None
    choices: tuple | None = None
    check: Callable[[object], str | None] | None = None
    kept: bool = True
    omit_default: bool = False
    coerce: Callable[[object], object] | None = None


def repeats(default: int = 1) -> Setting:
    """``repeats``: independent repetitions, each with its own generator."""
    return Setting("repeats", int, default, low=1, high=MAX_REPEATS)


def stratified() -> Setting:
    """``stratified``: whether each class is spread over the parts as evenly as possible."""
    return Setting("stratified", bool, True)


class CVScheme:
    """A way of splitting a data set into train and test parts.

    A subclass sets ``name`` (``CVSpec.kind``), ``title`` (in messages: "k-fold"), ``summary``
    (one line, for the docs), ``settings`` (its :class:`Setting` entries; the first is its
    ``selector``, the key whose presence in ``cv`` chooses it, unless it is the default scheme)
    and ``learning_curve`` (whether ``train_sizes`` applies), and implements :meth:`splits` and
    :meth:`describe`. A scheme whose repetitions are counted by another setting than
    ``repeats`` names it in ``repeated_by``; one whose training parts repeat rows sets
    ``repeats_rows`` (tuning by inner cross-validation is refused); one whose estimate reads
    every task's test predictions sets ``keeps_predictions``, and one that needs each
    classifier's apparent error on all the rows returns its split from :meth:`apparent_split`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    settings: ClassVar[tuple[Setting, ...]]
    learning_curve: ClassVar[bool] = False
    repeated_by: ClassVar[str] = "repeats"
    repeats_rows: ClassVar[bool] = False
    keeps_predictions: ClassVar[bool] = False

    @classmethod
    def selector(cls) -> str:
        return cls.settings[0].key

    @classmethod
    def spec(cls, **values) -> CVSpec:
        """The spec of this scheme with ``values`` (a setting left out takes its default);
        no check: the config layer checks a user's values against :attr:`settings`.

        >>> from bayesbench.evaluation.schemes import SCHEMES
        >>> SCHEMES["kfold"].spec(folds=5).identity()
        {'folds': 5, 'repeats': 1, 'stratified': True}
        """
        unknown = set(values) - {s.key for s in cls.settings} - {"train_sizes"}
        if unknown:
            raise TypeError(f"{cls.title} takes no setting {', '.join(sorted(unknown))}")
        kept = []
        for s in cls.settings:
            value = values.get(s.key, s.default)
            if s.kept and not (s.omit_default and value == s.default):
                kept.append((s.key, value))
        return CVSpec(cls.name, tuple(kept), tuple(values.get("train_sizes", ())),
                      repeated_by=cls.repeated_by, keeps_predictions=cls.keeps_predictions,
                      written=tuple(key for key in values if key != "train_sizes"))

    @classmethod
    def value(cls, spec: CVSpec, key: str):
        """The value of setting ``key`` in ``spec`` (its default where the spec leaves it out)."""
        default = next(s.default for s in cls.settings if s.key == key)
        return spec.setting(key, default)

    def splits(self, y: np.ndarray, spec: CVSpec, rng: Callable[[], np.random.Generator],
               dataset: str, repetition: int) -> list[Split]:
        """The splits of one repetition on class vector ``y``; ``rng()`` gives the
        repetition's generator (a scheme that draws nothing never calls it)."""
        raise NotImplementedError

    def apparent_split(self, y: np.ndarray, spec: CVSpec) -> Split | None:
        """The split of each classifier's apparent error (trained and tested on every row),
        after the repetitions, when the scheme's estimate needs it; None (the default)."""
        return None

    def describe(self, spec: CVSpec) -> str:
        """The scheme in words, for the run's summary ("stratified 10-fold cross-validation")."""
        raise NotImplementedError

    def tasks_words(self, spec: CVSpec) -> str:
        """The tasks a table's mean is taken over, in words ("1 repetition(s) of stratified
        10-fold cross-validation")."""
        return f"{spec.n_repetitions} repetition(s) of {self.describe(spec)}"
