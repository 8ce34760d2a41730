"""The figures and the report.html of a run or of a comparison, from what they hold.

:func:`draw_figures` draws, into ``<dir>/figures/``, the figures of a
:class:`~.analysis.Comparison` (Demšar's critical-difference diagram, the fold
scores of every data set, each classifier against the baseline) and the learned
networks it is given with their consensus over the folds (and Graphviz ``.dot``), each
in the formats of a :class:`~bayesbench.spec.FigureSpec` (SVG and PNG by default); with
``jobs`` above 1 they are drawn in that many worker processes (each figure writes its own
files), which is most of the end of a run that learns many networks.
:func:`write_report` writes ``report.html``: the protocol, the tables, the
statistics and those figures on one self-contained page (:mod:`.html`).
Drawing needs matplotlib; :func:`draw_figures` returns no figure without it and
the caller says so once (:data:`~.plotting.SKIPPED_MESSAGE`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, NamedTuple

from ...evaluation.executors import FORKED, map_jobs
from ...evaluation.predictions import gathered
from ...spec import FigureSpec
from ..analysis import Comparison
from ..arcs import consensus
from ..html import Figure, Section, Table, write_report_html
from ..render import comparison_tables, notes
from .cdplot import plot_cd
from .curve_figures import learning_curve_figures
from .network import Network, plot_network, structure_of, write_dot
from .plotting import FIGURES, SHOWN, plotting_available
from .prediction_figures import drawable, panel_curves, plot_predictions
from .score_figures import plot_against_baseline, plot_fold_scores, slug, unique_slugs

__all__ = ["FIGURES", "REPORT", "MAX_NETWORK_FIGURES", "Network", "Drawn", "FigureJob",
           "structure_of", "draw_figures", "draw_network", "PredictionCurves",
           "prediction_curves", "draw_learning_curves",
           "comparison_sections", "write_report"]

# A grid of 500 settings drew 500 networks: 93 s and 1.4 GB for figures nobody reads one by
# one; the report shows the first ones, and every structure stays in the records.
MAX_NETWORK_FIGURES = 100
REPORT = "report.html"


class Drawn(NamedTuple):
    """What :func:`draw_figures` wrote: the figures to show (SVG), every file written
    (SVG, PNG, PDF, DOT), and why a figure was not drawn."""

    figures: list
    files: list
    skipped: list


class FigureJob(NamedTuple):
    """One figure to draw, here or in a worker process: ``draw(*args, paths, **kwargs)``
    writes it to ``paths`` (one per format) and returns the files it wrote; ``caption``
    is the report's. ``draw`` is a module's function, so that the job travels to a
    worker."""

    draw: Callable
    args: tuple
    kwargs: dict
    paths: tuple
    caption: str


def _draw(job: FigureJob) -> list:
    written = job.draw(*job.args, list(job.paths), **job.kwargs)
    return list(written) if isinstance(written, (list, tuple)) else [written]


class _Nth(NamedTuple):
    """The ``index``-th of ``jobs``, whose list forked workers inherit instead of receiving
    each job pickled (a comparison holds mapping proxies, which do not pickle): the shared
    part of :mod:`~bayesbench.evaluation.executors`."""

    index: int
    jobs: tuple | None

    def detach(self):
        return _Nth(self.index, None), self.jobs

    def attach(self, jobs):
        return _Nth(self.index, jobs)


def _draw_nth(nth: _Nth) -> list:
    return _draw(nth.jobs[nth.index])


def draw_figures(out_dir, result: Comparison | None, networks=(), arcs=(),
                 figures: FigureSpec = FigureSpec(), jobs: int = 1, curves=()) -> Drawn:
    """Draw the figures of ``result``, the ``networks`` (:class:`Network`), from the
    rows of ``arc_frequencies.csv`` (``arcs``) the consensus network of each of them and
    the figure of each :class:`PredictionCurves` of ``curves`` (:func:`prediction_curves`)
    into ``out_dir/figures``, in the formats of ``figures`` and ``jobs`` processes; nothing
    without matplotlib."""
    drawn = Drawn([], [], [])
    if not plotting_available():
        return drawn
    where = Path(out_dir) / FIGURES
    todo = [] if result is None else _comparison_figures(where, result, drawn, figures.formats)
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
    threshold = figures.consensus_threshold
    for net, part in zip(networks, parts):
        title = f"{net.classifier} on {net.dataset} (first fold)"
        todo.append(_network(structure_of(net.data), where / f"network-{part}", title,
                             f"learned network: {title}", figures.formats))
        rows = [r for r in arcs if (r[0], r[1]) == (net.dataset, net.classifier)]
        if rows:
            structure, shares = consensus(rows, net.data, threshold)
            title = f"{net.classifier} on {net.dataset} (every fold)"
            left_out = (f"; arcs of fewer than {threshold:.0%} of the folds not drawn"
                        if threshold > 0 else "")
            todo.append(_network(structure, where / f"consensus-{part}", title,
                                 f"consensus network: {title}; each arc with the share of "
                                 f"the folds that learned it{left_out}", figures.formats,
                                 shares, threshold))
    # The prediction figures with the others: drawn after them in one process, their PNG
    # copies made the kept predictions cost 1.18 times a run without (bench_predictions.py).
    todo += _prediction_figures(where, curves, drawn, figures.formats)
    _draw_all(todo, drawn, figures.formats, jobs)
    return drawn


def _draw_all(todo: list, drawn: Drawn, formats, jobs: int) -> None:
    """Draw every :class:`FigureJob` of ``todo`` in ``jobs`` processes; add its files, each
    format's in turn (a ``.dot`` last), and the figure to show, to ``drawn``, in order."""
    jobs = jobs if FORKED else 1
    if jobs > 1 and len(todo) > 1:
        # The workers forked below inherit matplotlib instead of each importing it (a second
        # of CPU apiece).
        import matplotlib.backends.backend_agg  # noqa: F401  # lazy: matplotlib is optional
        import matplotlib.backends.backend_svg  # noqa: F401  # lazy: as above
        import matplotlib.figure  # noqa: F401  # lazy: as above
    every = tuple(todo)
    written = dict(map_jobs(_draw_nth, [_Nth(i, every) for i in range(len(every))], jobs=jobs))
    order = [f".{name}" for name in formats] + [".dot"]
    for i, job in enumerate(todo):
        files = sorted(written[i], key=lambda f: (order.index(f.suffix), f.name))
        drawn.files.extend(files)
        drawn.figures.extend(Figure(f, job.caption) for f in files if f.suffix == f".{SHOWN}")


def _network(structure, stem: Path, title: str, caption: str, formats, shares=None,
             threshold: float = 0.0) -> FigureJob:
    """A network to draw in ``formats`` and write as Graphviz ``.dot`` (with ``shares``, each
    arc labelled with its share of the folds, those of fewer than ``threshold`` left out)."""
    return FigureJob(draw_network, (structure,),
                     {"title": title, "shares": shares, "threshold": threshold,
                      "dot": _suffixed(stem, ".dot")},
                     tuple(_suffixed(stem, f".{name}") for name in formats), caption)


def draw_network(structure, paths, *, title: str, shares=None, threshold: float = 0.0,
                 dot: Path) -> list[Path]:
    """A network drawn to ``paths`` and written as Graphviz text to ``dot``: the files."""
    plot_network(structure, paths, title=title, frequencies=shares, threshold=threshold)
    write_dot(structure, dot, name=title.partition(" ")[0], frequencies=shares)
    return [*paths, dot]


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
    :func:`draw_figures` draws."""
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


def _prediction_figures(where: Path, curves, drawn: Drawn, formats) -> list:
    """The :class:`FigureJob` of each :class:`PredictionCurves` of ``curves`` (why one is
    not drawn in ``drawn``)."""
    todo = []
    for dataset, part, classes, panels in curves:
        if panels is None:
            drawn.skipped.append(f"ROC and calibration of {dataset}: no kept probabilities "
                                 f"with both a class and its rest")
            continue
        paths = tuple(_suffixed(where / f"predictions-{part}", f".{name}") for name in formats)
        todo.append(FigureJob(plot_predictions, (panels, dataset, classes), {}, paths,
                              f"{dataset}: ROC and precision-recall curves of every test "
                              f"prediction, with their areas, and reliability diagram of the "
                              f"predicted class, with the expected calibration error"))
    return todo


def draw_learning_curves(run_dir, rows, metrics, drawn: Drawn,
                         formats=FigureSpec.formats) -> None:
    """Add to ``drawn`` each data set's learning curve (``rows`` of
    :func:`~.learning_curves.curve_rows`) in ``formats``; nothing without matplotlib."""
    if not plotting_available():
        return
    datasets = list(dict.fromkeys(r[0] for r in rows))
    classifiers = list(dict.fromkeys(r[1] for r in rows))
    files, figures = learning_curve_figures(Path(run_dir) / FIGURES, rows, metrics, datasets,
                                            classifiers, formats)
    drawn.files.extend(files)
    drawn.figures.extend(figures)


def _comparison_figures(where: Path, result: Comparison, drawn: Drawn, formats) -> list:
    """The :class:`FigureJob` of each figure of ``result`` (why one is not drawn in
    ``drawn``)."""
    metric, todo = result.metric, []

    def job(stem, draw, args, caption, **kwargs):
        paths = tuple(_suffixed(where / stem, f".{name}") for name in formats)
        todo.append(FigureJob(draw, args, kwargs, paths, caption))

    if result.nemenyi is not None:
        job("cd", plot_cd, (result,),
            f"critical-difference diagram of {metric} (Nemenyi, alpha = {result.alpha:g})",
            title=f"{metric}: average ranks")
        job("cd-control", plot_cd, (result,),
            f"critical-difference diagram of {metric} against {result.baseline} "
            f"(Bonferroni-Dunn, alpha = {result.alpha:g}): outside the interval, "
            f"significantly different from {result.baseline}",
            title=f"{metric}: average ranks against {result.baseline}", control=True)
    else:
        drawn.skipped.append("critical-difference diagram: it needs at least 2 data sets "
                             "with a score for every classifier")
    if result.scores is not None:
        job("folds", plot_fold_scores, (result.scores,), f"{metric} of every fold, per data set",
            metric=metric)
    if len(result.classifiers) > 1:
        job("baseline", plot_against_baseline, (result.mean, result.baseline),
            f"mean {metric} of each classifier against {result.baseline}, one point per "
            f"data set", metric=metric, higher_is_better=not result.lower_is_better)
    return todo


def _suffixed(stem: Path, suffix: str) -> Path:
    """``stem`` plus ``suffix``: ``with_suffix`` would replace what follows a dot of a name
    (network-weather.nominal-nb became network-weather.svg for every classifier)."""
    return stem.with_name(stem.name + suffix)


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
