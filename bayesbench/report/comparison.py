"""Transitional: the entry points that ``cli.py``, ``config/sections.py`` and ``report/summary.py``
call today.

The comparison is now three modules: :mod:`.analysis` (pure: scores in, a frozen
:class:`~.analysis.Comparison` out), :mod:`.render` (tables and the CD diagram) and
:mod:`.inputs` (result directories and CSV tables). This module only keeps the old
calls working, results with ``render``/``plot_cd`` methods, until those callers use
the three modules (and ``stats.FOLD_TESTS``) directly; delete it then.
"""
from __future__ import annotations

from ..stats import FOLD_TESTS
from . import analysis, inputs, render

TESTS = tuple(FOLD_TESTS)  # the choice list itself lives in stats


class _Rendered:
    """A :class:`~.analysis.Comparison` with the old ``render`` and ``plot_cd`` methods."""

    def __init__(self, result: analysis.Comparison):
        self.result = result

    def __getattr__(self, name):
        return getattr(self.result, name)

    def render(self, fmt: str = "text") -> str:
        return render.render_comparison(self.result, fmt)

    def plot_cd(self, path, *, title=None):
        return render.plot_cd(self.result, path, title=title)


def compare(*args, **kwargs) -> _Rendered:
    return _Rendered(analysis.compare(*args, **kwargs))


def compare_paths(*args, **kwargs) -> _Rendered:
    return _Rendered(inputs.compare_paths(*args, **kwargs))
