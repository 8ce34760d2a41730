"""``bayesbench compare --report DIR``: the page and the figures of a comparison."""
from __future__ import annotations

from pathlib import Path

from ..analysis import Comparison
from ..figures.pages import REPORT, comparison_sections, draw_figures, write_report

__all__ = ["write_compare_report"]


def write_compare_report(out_dir, result: Comparison, inputs, networks=(), arcs=()) -> Path:
    """``out_dir/report.html`` and ``out_dir/figures/`` of a comparison of ``inputs`` (result
    directories or a CSV of scores), with the ``networks``
    (:class:`~bayesbench.report.figures.network.Network`) and the rows of their arc
    frequencies read from them (:func:`~.inputs.run_networks`,
    :func:`~.inputs.run_arcs`): rendering reads nothing from disk."""
    out_dir = Path(out_dir)
    drawn = draw_figures(out_dir, result, networks, arcs)
    protocol = [("compared", [str(p) for p in inputs]), ("metric", result.metric),
                ("baseline", result.baseline), ("test over folds", result.test or "none"),
                ("alpha", result.alpha), ("rope", result.rope),
                ("data sets", result.datasets), ("classifiers", result.classifiers)]
    return write_report(out_dir / REPORT, title=f"bayesbench compare: {result.metric}",
                        protocol=protocol, sections=comparison_sections(result), drawn=drawn)
