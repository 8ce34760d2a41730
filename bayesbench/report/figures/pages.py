"""The figures and the report.html of a run or of a comparison, from what they hold.

:func:`draw_figures` draws, into ``<dir>/figures/``, the figures of a
:class:`~.analysis.Comparison` (Demšar's critical-difference diagram, the fold
scores of every data set, each classifier against the baseline; PNG and SVG)
and the learned networks it is given (SVG and Graphviz ``.dot``).
:func:`write_report` writes ``report.html``: the protocol, the tables, the
statistics and those figures on one self-contained page (:mod:`.html`).
Drawing needs matplotlib; :func:`draw_figures` returns no figure without it and
the caller says so once (:data:`~.plotting.SKIPPED_MESSAGE`).
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ...evaluation.predictions import gathered
from ..analysis import Comparison
from ..arcs import consensus
from ..html import Figure, Section, Table, write_report_html
from ..render import comparison_tables, notes
from .cdplot import plot_cd
from .curve_figures import learning_curve_figures
from .network import Network, plot_network, structure_of, write_dot
from .plotting import FIGURES, plotting_available
from .prediction_figures import drawable, panel_curves, plot_predictions
from .score_figures import plot_against_baseline, plot_fold_scores, slug, unique_slugs

__all__ = ["FIGURES", "REPORT", "MAX_NETWORK_FIGURES", "Network", "Drawn", "structure_of",
           "draw_figures", "PredictionCurves", "prediction_curves", "draw_prediction_figures",
           "draw_learning_curves", "comparison_sections", "write_report"]

# A grid of 500 settings drew 500 networks: 93 s and 1.4 GB for figures nobody reads one by
# one; the report shows the first ones, and every structure stays in the records.
MAX_NETWORK_FIGURES = 100
REPORT = "report.html"


class Drawn(NamedTuple):
    """What :func:`draw_figures` wrote: the figures to show (SVG), every file written
    (PNG, SVG, DOT), and why a figure was not drawn."""

    figures: list
    files: list
    skipped: list


def draw_figures(out_dir, result: Comparison | None, networks=(), arcs=()) -> Drawn:
    """Draw the figures of ``result``, the ``networks`` (:class:`Network`) and, from the
    rows of ``arc_frequencies.csv`` (``arcs``), the consensus network of each of them into
    ``out_dir/figures``; nothing without matplotlib."""
    drawn = Drawn([], [], [])
    if not plotting_available():
        return drawn
    where = Path(out_dir) / FIGURES
    if result is not None:
        _comparison_figures(where, result, drawn)
    networks = list(networks)
    if len(networks) > MAX_NETWORK_FIGURES:
        drawn.skipped.append(
            f"learned networks: {len(networks)} to draw, more than the {MAX_NETWORK_FIGURES} "
            f"a run draws (docs/limits.md); the first {MAX_NETWORK_FIGURES} in config order are "
            f"drawn, and networks/ (save_networks) or the records' structures hold them all")
        networks = networks[:MAX_NETWORK_FIGURES]
    # slugged apart, then made unique together: data set a-b with classifier c and data set
    # a with classifier b-c would both be network-a-b-c
    parts = unique_slugs(f"{slug(n.dataset)}-{slug(n.classifier)}" for n in networks)
    for net, part in zip(networks, parts):
        stem = where / f"network-{part}"
        title = f"{net.classifier} on {net.dataset} (first fold)"
        _network(structure_of(net.data), stem, title, f"learned network: {title}", drawn)
        rows = [r for r in arcs if (r[0], r[1]) == (net.dataset, net.classifier)]
        if rows:
            structure, shares = consensus(rows, net.data)
            stem = where / f"consensus-{part}"
            title = f"{net.classifier} on {net.dataset} (every fold)"
            _network(structure, stem, title, f"consensus network: {title}; each arc with the "
                     f"share of the folds that learned it", drawn, shares)
    return drawn


def _network(structure, stem: Path, title: str, caption: str, drawn: Drawn, shares=None):
    """A network drawn as SVG and written as Graphviz ``.dot`` (with ``shares``, each arc
    labelled with its share of the folds)."""
    svg, dot = _suffixed(stem, ".svg"), _suffixed(stem, ".dot")
    plot_network(structure, svg, title=title, frequencies=shares)
    write_dot(structure, dot, name=title.partition(" ")[0], frequencies=shares)
    drawn.figures.append(Figure(svg, caption))
    drawn.files.extend([svg, dot])


class PredictionCurves(NamedTuple):
    """The curves of a data set's prediction figure (:func:`prediction_curves`): its name,
    its file-name part, its classes and the panels' curves (None: nothing to draw)."""

    dataset: str
    part: str
    classes: list
    panels: tuple | None


def prediction_curves(run_dir, records, datasets, classifiers, held=None) -> list:
    """Per data set of ``datasets``, the :class:`PredictionCurves` of the predictions
    ``run_dir`` kept for ``records``: ROC and precision-recall curves and a reliability
    diagram of the ``classifiers`` that have probabilities. ``held``: the predictions still
    in memory (:func:`~bayesbench.evaluation.predictions.gathered`). Numpy only: what
    :func:`draw_prediction_figures` draws."""
    kept = gathered(run_dir, records, lambda r: (r["dataset"], r["classifier"]), held)
    out = []
    for dataset, part in zip(datasets, unique_slugs(datasets)):
        scored = [(c, kept[dataset, c][1], kept[dataset, c][2]) for c in classifiers
                  if (dataset, c) in kept and kept[dataset, c][2] is not None]
        classes = next((kept[dataset, c][0] for c in classifiers if (dataset, c) in kept), [])
        shown = scored and drawable(scored[0][1], len(classes))
        out.append(PredictionCurves(dataset, part, classes,
                                    panel_curves(scored) if shown else None))
    return out


def draw_prediction_figures(run_dir, curves, drawn: Drawn) -> None:
    """Add to ``drawn`` the figure of each :class:`PredictionCurves` of ``curves``, in
    ``run_dir/figures``; nothing without matplotlib."""
    if not plotting_available():
        return
    where = Path(run_dir) / FIGURES
    for dataset, part, classes, panels in curves:
        if panels is None:
            drawn.skipped.append(f"ROC and calibration of {dataset}: no kept probabilities "
                                 f"with both a class and its rest")
            continue
        # SVG only, as the networks: the page shows the SVG, and a PNG as well would double
        # the drawing, which is most of what keeping predictions costs a small run
        # (benchmarks/bench_predictions.py); plot_predictions draws a PNG on request.
        _both(where / f"predictions-{part}",
              lambda p: plot_predictions(panels, dataset, classes, p),
              f"{dataset}: ROC and precision-recall curves of every test prediction, with "
              f"their areas, and reliability diagram of the predicted class, with the "
              f"expected calibration error", drawn, suffixes=(".svg",))


def draw_learning_curves(run_dir, rows, metrics, drawn: Drawn) -> None:
    """Add to ``drawn`` each data set's learning curve (``rows`` of
    :func:`~.learning_curves.curve_rows`); nothing without matplotlib."""
    if not plotting_available():
        return
    datasets = list(dict.fromkeys(r[0] for r in rows))
    classifiers = list(dict.fromkeys(r[1] for r in rows))
    files, figures = learning_curve_figures(Path(run_dir) / FIGURES, rows, metrics, datasets,
                                            classifiers)
    drawn.files.extend(files)
    drawn.figures.extend(figures)


def _comparison_figures(where: Path, result: Comparison, drawn: Drawn) -> None:
    metric = result.metric
    if result.nemenyi is not None:
        _both(where / "cd", lambda p: plot_cd(result, p, title=f"{metric}: average ranks"),
              f"critical-difference diagram of {metric} (Nemenyi, alpha = {result.alpha:g})",
              drawn)
        _both(where / "cd-control", lambda p: plot_cd(
            result, p, title=f"{metric}: average ranks against {result.baseline}", control=True),
              f"critical-difference diagram of {metric} against {result.baseline} "
              f"(Bonferroni-Dunn, alpha = {result.alpha:g}): outside the interval, "
              f"significantly different from {result.baseline}", drawn)
    else:
        drawn.skipped.append("critical-difference diagram: it needs at least 2 data sets "
                             "with a score for every classifier")
    if result.scores is not None:
        _both(where / "folds", lambda p: plot_fold_scores(result.scores, p, metric=metric),
              f"{metric} of every fold, per data set", drawn)
    if len(result.classifiers) > 1:
        _both(where / "baseline", lambda p: plot_against_baseline(
            result.mean, result.baseline, p, metric=metric,
            higher_is_better=not result.lower_is_better),
            f"mean {metric} of each classifier against {result.baseline}, one point per "
            f"data set", drawn)


def _suffixed(stem: Path, suffix: str) -> Path:
    """``stem`` plus ``suffix``: ``with_suffix`` would replace what follows a dot of a name
    (network-weather.nominal-nb became network-weather.svg for every classifier)."""
    return stem.with_name(stem.name + suffix)


def _both(stem: Path, draw, caption: str, drawn: Drawn, suffixes=(".svg", ".png")) -> None:
    """Draw one figure once and write it in each of ``suffixes`` (``draw`` takes the list of
    paths and returns the files written, one per data set and format for the many data
    sets' folds)."""
    written = draw([_suffixed(stem, suffix) for suffix in suffixes])
    files = sorted(f for f in written if f.suffix == ".svg") + sorted(f for f in written if f.suffix == ".png")
    drawn.files.extend(files)
    drawn.figures.extend(Figure(f, caption) for f in files if f.suffix == ".svg")


def comparison_sections(result: Comparison | None, reason: str = "") -> list[Section]:
    """The statistics of ``result`` as report sections (or why there are none)."""
    if result is None:
        return [Section("Statistical comparison", text=reason or "no comparison")]
    tables = [Table(t.caption, headers=t.headers, rows=t.rows)
              for t in comparison_tables(result, "text")]
    return [Section("Statistical comparison", tables=tables, text="\n\n".join(notes(result)))]


def write_report(path, *, title: str, protocol, tables=(), sections=(),
                 drawn: Drawn | None = None) -> Path:
    """Write report.html: ``protocol`` (pairs), ``tables`` (:class:`~..html.Table`), the
    statistics ``sections`` (:class:`~..html.Section`: :func:`comparison_sections` and
    others) and the figures of ``drawn``."""
    statistics = list(sections)
    figures = list(drawn.figures) if drawn is not None else []
    if drawn is not None and drawn.skipped:
        statistics.append(Section("Figures not drawn", text="\n\n".join(drawn.skipped)))
    return write_report_html(path, title=title, protocol=protocol, tables=tables,
                             statistics=statistics, figures=figures)
