"""The reports of the commands that read results, in rooms whose imports point one way (the
contract "Report's rooms point one way" in ``pyproject.toml``; docs/design.md draws them):

- :mod:`.run`: the end of ``bayesbench run``: the summary tables, the comparison, the
  figures and report.html of a run;
- :mod:`.compare`: ``bayesbench compare``: reading result directories or a CSV of scores,
  and its report page;
- :mod:`.check`: ``bayesbench check``: a run held against the table its paper printed;
- :mod:`.figures`: the figures and the report page, drawn for ``run`` and ``compare``;
- below them, shared by all: :mod:`.render` (a comparison's tables in any format and as
  JSON), :mod:`.analysis` (the statistics of a comparison), :mod:`.arcs` (arc
  frequencies), :mod:`.html` (the self-contained page) and :mod:`.tables` (the table
  formats).

Nothing is imported here: ``bayesbench --help`` reads :mod:`.tables` only.
"""

__all__ = ["run", "compare", "check", "figures", "render", "analysis", "arcs", "html", "tables"]
