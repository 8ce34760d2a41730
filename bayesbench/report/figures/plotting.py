"""Matplotlib figures with the same bytes for the same input.

Every bayesbench figure is drawn through :func:`styled_figure` and written by
:func:`save_figure`, so that they share one look and one guarantee: drawing
the same data twice, in two processes, writes byte-identical PNG, SVG and PDF
files. Three things would otherwise vary: the user's ``matplotlibrc`` (the
figure is drawn in matplotlib's default style, not the user's), the metadata
(dates and the matplotlib version are left out) and the random ids of SVG
elements (salted with a fixed string). SVG text stays text, so that a page
embedding the figure can be searched.

A figure wanted in several formats is drawn once and written to each file:
every drawing function takes one path or a sequence of paths (see
:func:`save_figure`).

Matplotlib is an optional dependency (``pip install "bayesbench[plots]"``);
:func:`plotting_available` says whether it is installed, and a caller that
skips its figures says so once with :data:`SKIPPED_MESSAGE`.
"""
from __future__ import annotations

import importlib.util
import os
from contextlib import contextmanager
from pathlib import Path

from ...errors import ReportError

FIGURES = "figures"  # the directory of a run's (or a comparison's) figures
SKIPPED_MESSAGE = 'figures skipped: matplotlib is not installed (pip install "bayesbench[plots]")'

# Per-format metadata: a None value makes matplotlib leave the key out.
_METADATA = {
    ".png": {"Software": None},
    ".svg": {"Date": None, "Creator": None},
    ".pdf": {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None},
}
FORMATS = tuple(_METADATA)  # the suffixes a figure may have
#: The format report.html shows, which every run writes.
SHOWN = "svg"
#: The formats a run may write its figures in (config key ``figure_format``), by name, in
#: the order a figure's files are listed.
FORMAT_NAMES = (SHOWN, *(suffix[1:] for suffix in FORMATS if suffix[1:] != SHOWN))


def figure_format_problem(names) -> str | None:
    """None if ``names`` (figure format names, each of :data:`FORMAT_NAMES`) include the
    format the report shows; else what is wrong."""
    if SHOWN not in names:
        return f"must include {SHOWN}, the format report.html shows"
    return None

_RC = {
    "svg.hashsalt": "bayesbench",  # fixed ids for clip paths and markers
    "svg.fonttype": "none",        # text as <text>, not glyph outlines
    "text.parse_math": False,      # a '$' in a data-set name is not mathtext
    "pdf.fonttype": 42,
}


def plotting_available() -> bool:
    """Whether matplotlib is installed, i.e. whether figures can be drawn."""
    return importlib.util.find_spec("matplotlib") is not None


def check_figure_path(path) -> Path:
    """``path`` as a Path, after checking that its suffix is a format we write."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ReportError(f"{path}: a figure is written as .png, .svg or .pdf")
    return path


@contextmanager
def styled_figure(width: float, height: float):
    """Yield a matplotlib Figure of ``width`` x ``height`` inches in the fixed style.

    Save it with :func:`save_figure` inside the ``with`` block: the style also
    governs how it is written. The figure is not registered with pyplot, so no
    backend is chosen and nothing needs closing.
    """
    if not plotting_available():
        raise ReportError(SKIPPED_MESSAGE.replace("figures skipped: ", "cannot draw figures: "))
    import matplotlib  # lazy: matplotlib is optional and slow to import
    import matplotlib.style  # lazy: as above
    from matplotlib.figure import Figure  # lazy: as above
    with matplotlib.style.context("default"), matplotlib.rc_context(_RC):
        yield Figure(figsize=(width, height))


def figure_paths(path) -> list[Path]:
    """``path`` (one path, or a sequence of paths) as a list of Paths, each checked as by
    :func:`check_figure_path`."""
    if isinstance(path, (str, os.PathLike)):
        return [check_figure_path(path)]
    return [check_figure_path(p) for p in path]


def save_figure(fig, path, *, dpi: int = 150, tight: bool = True):
    """Write ``fig`` to ``path`` (format by suffix) with no date or version in it.

    ``path`` may be a sequence of paths: the figure, drawn once, is written to each (an SVG
    and a PNG of the same figure), and the list of Paths is returned; otherwise the Path.
    ``tight`` crops the figure to what is drawn on it (plus 0.12 inch), measured once for
    all the files, so that every format shows the same region.
    """
    paths = figure_paths(path)
    extra = {}
    if tight:
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # lazy: matplotlib is optional
        renderer = FigureCanvasAgg(fig).get_renderer()
        extra = {"bbox_inches": fig.get_tightbbox(renderer).padded(0.12)}
    for p in paths:
        p.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(p, dpi=dpi, metadata=_METADATA[p.suffix.lower()], **extra)
    return paths[0] if isinstance(path, (str, os.PathLike)) else paths


def colors(n: int) -> list:
    """``n`` line colours: matplotlib's default colour cycle, repeated, so that each
    classifier keeps its colour in every panel."""
    cycle = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
             "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
    return [cycle[i % len(cycle)] for i in range(n)]
