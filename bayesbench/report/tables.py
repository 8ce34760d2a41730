"""Render a table as text, Markdown, CSV or LaTeX.

One function serves every command, so that a table in ``results/`` and one
printed by ``compare`` look the same in each format.
"""
from __future__ import annotations

import csv
import io
from typing import Sequence

from tabulate import tabulate

from ..errors import BayesbenchError

FORMATS = ("text", "markdown", "csv", "latex")
EXTENSIONS = {"text": "txt", "markdown": "md", "csv": "csv", "latex": "tex"}

_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$",
                   "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                   "^": r"\textasciicircum{}"}


def latex_escape(text) -> str:
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in str(text))


def render(rows: Sequence[Sequence], headers: Sequence[str], fmt: str = "text", *,
           caption: str | None = None, floatfmt: str = ".4f") -> str:
    """Return ``rows`` under ``headers`` in the format ``fmt``.

    ``latex`` gives a complete ``table`` environment (``booktabs`` rules) that
    compiles inside any document that loads ``booktabs``; cells are escaped.
    """
    if fmt not in FORMATS:
        raise BayesbenchError(f"unknown table format '{fmt}'; expected one of {', '.join(FORMATS)}")
    rows = [list(r) for r in rows]
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return buf.getvalue()
    if fmt == "markdown":
        # a | in a label would end its cell: GitHub's Markdown reads \| as the character
        rows = [[_pipe_escaped(v) for v in r] for r in rows]
        out = tabulate(rows, headers=[_pipe_escaped(h) for h in headers], tablefmt="github",
                       floatfmt=floatfmt)
        return (f"**{caption}**\n\n{out}\n" if caption else out + "\n")
    if fmt == "text":
        out = tabulate(rows, headers=headers, tablefmt="simple", floatfmt=floatfmt)
        return (f"{caption}\n\n{out}\n" if caption else out + "\n")
    return _latex(rows, headers, caption, floatfmt)


def _pipe_escaped(value):
    return value.replace("|", "\\|") if isinstance(value, str) else value


def _latex(rows, headers, caption, floatfmt) -> str:
    def cell(v):
        if isinstance(v, float):
            return format(v, floatfmt)
        return latex_escape(v)

    align = "l" + "r" * (len(headers) - 1)
    lines = [r"\begin{table}[ht]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{latex_escape(caption)}}}")
    lines += [rf"\begin{{tabular}}{{{align}}}", r"\toprule",
              " & ".join(latex_escape(h) for h in headers) + r" \\", r"\midrule"]
    lines += [" & ".join(cell(v) for v in r) + r" \\" for r in rows]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"
