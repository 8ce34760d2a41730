"""Hyper-parameter constraints: declared once per learner, checked in one place.

A learner lists in ``_parameter_constraints`` what each ``__init__`` parameter may be,
as a list of constraints; a value is valid when it satisfies any of them:

- a type (``numbers.Integral``, ``numbers.Real``, ``str``, ...): an instance of it,
  booleans excepted for the number types (``True`` is not the integer 1 here);
- ``None``: the value None;
- ``"boolean"``: True or False (numpy's ``bool_`` too);
- :class:`Interval`: a finite number of a type within bounds (an integer within 64 bits,
  :data:`INT64`, whatever the bounds);
- :class:`StrOptions`: one string among a few.

::

    class TAN(AugmentedNaiveBayes):
        _parameter_constraints = {
            "alpha": [Interval(Real, 0, None, closed="left")],
            "root": [Interval(Integral, 0, None, closed="left")],
        }

:func:`validate_params` checks a model against its class's constraints (the base
class does it at ``fit``, the registry at construction); a broken one is a one-line
:class:`~bayesbench.errors.ClassifierError` such as
``TAN: parameter 'alpha' must be a number >= 0, got -1`` whose ``parameter``
attribute names the parameter, so that the config layer can add its key path.
Parameters without a declared constraint are not checked (a subclass written in a
test may add one); every registered learner declares all of its parameters. A value
allowed alone but not beside another parameter's (``missing="exact"`` with attribute
weights) is refused by the class's ``_check_combinations()``, which :func:`validate_params`
calls after the single checks, so that it too is refused at construction.
"""
from __future__ import annotations

from collections.abc import Mapping

import math
from numbers import Integral, Real

import numpy as np

from ...errors import ClassifierError

_CLOSED = ("left", "right", "both", "neither")

#: The integers a parameter may hold: a run's records keep every parameter in a
#: column of 64-bit integers (Parquet's), so ``random_state: 1e23`` passed the check
#: and then broke the run's summary after every task had run.
INT64 = (-2 ** 63, 2 ** 63 - 1)


def _is_boolean(value) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_instance(value, kind) -> bool:
    """``isinstance``, except that a boolean is never a number."""
    if kind in (Integral, Real, int, float) and _is_boolean(value):
        return False
    return isinstance(value, kind)


def _type_name(kind) -> str:
    names = {Integral: "an integer", Real: "a number", str: "a string", int: "an integer",
             float: "a number", dict: "a mapping", list: "a list"}
    return names.get(kind, f"an instance of {kind.__name__}")


class Interval:
    """A finite number of ``kind`` (``Integral`` or ``Real``) between two bounds.

    Parameters
    ----------
    kind : numbers.Integral or numbers.Real
        ``Real`` admits integers too; ``Integral`` admits no float, even 2.0.
    left, right : number or None
        The bounds; None leaves that side unbounded (but infinity and NaN are
        never inside an interval).
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.
    """

    def __init__(self, kind, left, right, *, closed: str):
        if kind not in (Integral, Real):
            raise TypeError(f"Interval kind must be Integral or Real, got {kind!r}")
        if closed not in _CLOSED:
            raise ValueError(f"closed must be one of {_CLOSED}, got {closed!r}")
        if left is not None and right is not None and left > right:
            raise ValueError(f"empty interval: {left} > {right}")
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def is_satisfied_by(self, value) -> bool:
        if not _is_instance(value, self.kind):
            return False
        if not isinstance(value, Integral) and not math.isfinite(value):
            return False
        if isinstance(value, Integral) and not INT64[0] <= value <= INT64[1]:
            return False
        if self.left is not None:
            if value < self.left or (value == self.left and self.closed in ("right", "neither")):
                return False
        if self.right is not None:
            if value > self.right or (value == self.right and self.closed in ("left", "neither")):
                return False
        return True

    def __str__(self) -> str:
        noun = _type_name(self.kind)
        left_in = self.closed in ("left", "both")
        right_in = self.closed in ("right", "both")
        if self.left is None and self.right is None:
            return noun
        if self.right is None:
            return f"{noun} {'>=' if left_in else '>'} {self.left}"
        if self.left is None:
            return f"{noun} {'<=' if right_in else '<'} {self.right}"
        if self.kind is Integral and left_in and right_in:
            return f"{noun} in {self.left}..{self.right}"
        opening, closing = "[" if left_in else "(", "]" if right_in else ")"
        return f"{noun} in {opening}{self.left}, {self.right}{closing}"


class StrOptions:
    """One string among ``options``; a mapping is read as it is when checked (a table of
    classes found by name, to which a test may add an entry)."""

    def __init__(self, options):
        self.options = options if isinstance(options, Mapping) else frozenset(options)

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, str) and value in self.options

    def __str__(self) -> str:
        return "one of " + ", ".join(repr(o) for o in sorted(self.options))


def _satisfies(value, constraint) -> bool:
    if constraint is None:
        return value is None
    if constraint == "boolean":
        return _is_boolean(value)
    if isinstance(constraint, (Interval, StrOptions)):
        return constraint.is_satisfied_by(value)
    if isinstance(constraint, type):
        return _is_instance(value, constraint)
    raise TypeError(f"unknown parameter constraint {constraint!r}")


def _describe(constraint) -> str:
    if constraint is None:
        return "None"
    if constraint == "boolean":
        return "True or False"
    if isinstance(constraint, type):
        return _type_name(constraint)
    return str(constraint)


def describe(constraints) -> str:
    """What a list of constraints admits, in words: ``"None or an integer >= 0"``."""
    words = [_describe(c) for c in constraints]
    # None first reads best ("None or an integer"), whatever order the list has.
    words.sort(key=lambda w: w != "None")
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _shown(value) -> str:
    """``repr`` of a value, numpy scalars shown as the Python numbers they hold."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def parameter_error(owner: str, name: str, requirement: str, value) -> ClassifierError:
    """The one-line error of a bad hyper-parameter, with ``parameter`` set.

    Also used by the checks that need the data (a root attribute index, a
    subset size), so that they read like the declared ones.
    """
    return ClassifierError(f"{owner}: parameter '{name}' must be {requirement}, "
                           f"got {_shown(value)}", parameter=name)


def check_parameter(owner: str, name: str, value, constraints) -> None:
    """Raise :func:`parameter_error` unless ``value`` satisfies one of ``constraints``."""
    if not any(_satisfies(value, c) for c in constraints):
        requirement = describe(constraints)
        if _is_instance(value, Integral) and not INT64[0] <= value <= INT64[1]:
            requirement += f" within 64 bits ({INT64[0]}..{INT64[1]})"
        raise parameter_error(owner, name, requirement, value)


def validate_params(model) -> None:
    """Check every parameter of ``model`` that its class constrains, in ``__init__`` order."""
    constraints = type(model)._parameter_constraints
    owner = type(model).__name__
    for name, value in model.get_params().items():
        if name in constraints:
            check_parameter(owner, name, value, constraints[name])
    combinations = getattr(model, "_check_combinations", None)
    if callable(combinations):
        combinations()
