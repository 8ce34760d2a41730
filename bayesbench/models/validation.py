"""Hyper-parameter constraints as declared data (TEAM.md's shared interface).

A placeholder so that learners can declare ``_parameter_constraints`` in the
agreed form while the checking base class is written on the "models" branch;
when the two meet, that branch's module replaces this one (same names, same
arguments). Nothing here checks a value.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Interval:
    """Numbers of ``type`` between ``left`` and ``right`` (None: unbounded)."""

    type: type
    left: float | None
    right: float | None
    closed: str = "both"


@dataclass(frozen=True)
class StrOptions:
    """One of a set of strings."""

    options: frozenset
