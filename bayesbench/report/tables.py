"""The table formats: text, Markdown, CSV and LaTeX, one class each, found by name in one table.

One :func:`render` serves every command, so that a table in ``results/`` and one printed by
``compare`` look the same in each format. Everything that differs between formats is a
member of its class (its file extension, whether it is the tidy layout of one value per
cell, how a cell is marked best, how a note is written), so that the code that builds a
table asks its format rather than comparing names; the config check, the command line's
choices and the documentation (tests/report/test_table_formats.py) read :data:`FORMATS`.
Adding a format is a subclass of :class:`TableFormat`, its entry in :data:`FORMATS` and a test.
"""
from __future__ import annotations

import csv
import io
import numbers
from types import MappingProxyType
from typing import Sequence

from tabulate import tabulate

from ..errors import BayesbenchError

__all__ = ["TableFormat", "TextFormat", "MarkdownFormat", "CsvFormat", "LatexFormat", "FORMATS",
           "table_format", "format_names", "extensions", "render", "latex_escape"]

_LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$",
                   "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                   "^": r"\textasciicircum{}"}
# Cells of a LaTeX table may hold these control characters, which the escaping leaves alone
# and the table then turns into markup; they never occur in real labels.
_BOLD_ON, _BOLD_OFF, _PM = "\x02", "\x03", "\x04"
_LATEX_MARKUP = {_BOLD_ON: r"\textbf{", _BOLD_OFF: "}", _PM: r"$\pm$"}


def latex_escape(text) -> str:
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in str(text))


class TableFormat:
    """One way of writing a table: ``name`` (the config's and the command line's word),
    file ``extension``; ``tidy``: one value per cell for scripts (numbers as they are, no
    marks nor ``±`` in a cell, snake_case headers, no caption nor notes); ``prose``: whether
    the table reads well between lines of text (``check`` prints it among its lines)."""

    name = ""
    extension = ""
    tidy = False
    prose = False
    #: How a comparison's note line starts (a comment in the formats that have them).
    note_prefix = ""
    #: The sign between a mean and its standard deviation in a cell.
    plus_minus = "±"

    def table(self, rows: list[list], headers: Sequence[str], caption: str | None,
              floatfmt: str) -> str:
        """``rows`` under ``headers`` with ``caption``: the format's own writing."""
        raise NotImplementedError

    def bold(self, text: str) -> str:
        """A cell marked as its row's best."""
        return text + " •"

    def with_notes(self, rows: list[list], headers: Sequence[str], caption: str,
                   notes: Sequence[str], floatfmt: str = ".4f") -> str:
        """The table with ``notes`` (sentences about its cells) under it."""
        text = self.table(rows, headers, caption, floatfmt)
        return text + ("\n" + "".join(f"Note: {n}\n" for n in notes) if notes else "")


class TextFormat(TableFormat):
    """Plain text, aligned columns (tabulate's ``simple``), the caption above."""

    name, extension, prose = "text", "txt", True

    def table(self, rows, headers, caption, floatfmt) -> str:
        out = tabulate(rows, headers=headers, tablefmt="simple", floatfmt=floatfmt)
        return f"{caption}\n\n{out}\n" if caption else out + "\n"


class MarkdownFormat(TableFormat):
    """A GitHub Markdown table, the caption in bold above it."""

    name, extension, prose, note_prefix = "markdown", "md", True, "- "

    def table(self, rows, headers, caption, floatfmt) -> str:
        # a | in a label would end its cell: GitHub's Markdown reads \| as the character
        rows = [[_pipe_escaped(v) for v in r] for r in rows]
        out = tabulate(rows, headers=[_pipe_escaped(h) for h in headers], tablefmt="github",
                       floatfmt=floatfmt)
        return f"**{caption}**\n\n{out}\n" if caption else out + "\n"

    def bold(self, text: str) -> str:
        return f"**{text}**"


class CsvFormat(TableFormat):
    """Comma-separated values, the tidy layout: a header line, then one row per line; an
    undefined value (None, NaN) is an empty cell, which ``pd.read_csv`` reads as NaN."""

    name, extension, tidy, note_prefix, plus_minus = "csv", "csv", True, "# ", "+-"

    def table(self, rows, headers, caption, floatfmt) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows([["" if _undefined(v) else v for v in r] for r in rows])
        return buf.getvalue()

    def with_notes(self, rows, headers, caption, notes, floatfmt=".4f") -> str:
        return self.table(rows, headers, caption, floatfmt)  # one value per cell, no notes


class LatexFormat(TableFormat):
    """A complete ``table`` environment (``booktabs`` rules) that compiles inside any
    document that loads ``booktabs``; cells are escaped."""

    name, extension, note_prefix, plus_minus = "latex", "tex", "% ", _PM

    def table(self, rows, headers, caption, floatfmt) -> str:
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
        out = "\n".join(lines) + "\n"
        for char, markup in _LATEX_MARKUP.items():
            out = out.replace(char, markup)
        return out

    def bold(self, text: str) -> str:
        return f"{_BOLD_ON}{text}{_BOLD_OFF}"

    def with_notes(self, rows, headers, caption, notes, floatfmt=".4f") -> str:
        # a LaTeX table's notes go into its caption
        caption = " ".join([f"{caption}."] + list(notes)) if notes else caption
        return self.table(rows, headers, caption, floatfmt)


#: Every table format by name, in the order a run writes them and a table is shown.
FORMATS = MappingProxyType({f.name: f for f in (TextFormat(), MarkdownFormat(), CsvFormat(),
                                                LatexFormat())})


def format_names(*, prose: bool = False) -> tuple[str, ...]:
    """The names of :data:`FORMATS`, in its order; with ``prose``, of those that read well
    between lines of text."""
    return tuple(name for name, f in FORMATS.items() if f.prose or not prose)


def extensions() -> tuple[str, ...]:
    """The file extensions of :data:`FORMATS`, in its order."""
    return tuple(f.extension for f in FORMATS.values())


def table_format(name: str) -> TableFormat:
    """The format called ``name``, or a one-line error naming the formats."""
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        raise BayesbenchError(f"unknown table format '{name}'; expected one of "
                              f"{', '.join(FORMATS)}") from None


def render(rows: Sequence[Sequence], headers: Sequence[str], fmt: str = "text", *,
           caption: str | None = None, floatfmt: str = ".4f") -> str:
    """Return ``rows`` under ``headers`` in the format called ``fmt``."""
    return table_format(fmt).table([list(r) for r in rows], headers, caption, floatfmt)


def _undefined(value) -> bool:
    """Whether a cell holds no number: NaN (None is written empty by ``csv`` itself)."""
    return isinstance(value, numbers.Real) and value != value  # NaN alone is not itself


def _pipe_escaped(value):
    return value.replace("|", "\\|") if isinstance(value, str) else value
