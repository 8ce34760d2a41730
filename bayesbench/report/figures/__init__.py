"""The figures and the report page, drawn for ``run`` and ``compare``: :mod:`.pages` draws a
comparison's and a run's figures and writes report.html; each kind of figure has its module
(:mod:`.cdplot`, :mod:`.score_figures`, :mod:`.network`, :mod:`.prediction_figures`,
:mod:`.curve_figures`, :mod:`.decomposition_figure`), drawn without matplotlib's axes where
panels are many (:mod:`.panels`) in the fixed style of :mod:`.plotting`. matplotlib is optional
and imported only when a figure is drawn."""

__all__ = ["pages", "plotting", "panels", "cdplot", "score_figures", "network",
           "prediction_figures", "curve_figures", "decomposition_figure"]
