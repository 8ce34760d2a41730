"""One self-contained HTML page for a run or a comparison.

:func:`write_report_html` writes a single file holding the protocol, the
tables, the statistics and the figures, so that it can be mailed, archived or
opened offline: SVG figures are inlined (their ids prefixed per figure so that
two figures never share one), PNG and JPEG figures are embedded as ``data:``
URIs, the style sheet is inline, and the page declares a Content-Security-Policy
that lets a browser load nothing from anywhere. Every text given as a plain
string is escaped; only :attr:`Table.html` is inserted as it is, for tables
already rendered by :mod:`bayesbench.report.tables`.
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from html import escape
from numbers import Integral, Real
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..errors import ReportError

_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
FIGURE_SUFFIXES = (".svg", *_IMAGE_TYPES)  # the figure files a page can embed

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 72em;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
dl.protocol { display: grid; grid-template-columns: max-content auto; gap: .2em 1.2em; }
dl.protocol dt { font-weight: 600; } dl.protocol dd { margin: 0; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f2f4f7; }
pre { background: #f7f7f7; padding: .8em; overflow-x: auto; font-size: .88em; }
figure { margin: 1.2em 0; } figure svg, figure img { max-width: 100%; height: auto; }
figcaption, p.note { color: #555; font-size: .9em; }
nav ul { padding-left: 1.2em; }
"""
_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


@dataclass(frozen=True)
class Table:
    """A table: ``headers`` and ``rows`` (escaped; floats shown with ``float_format``)
    or ``html`` already rendered and inserted as it is."""

    title: str
    headers: Sequence[str] = ()
    rows: Sequence[Sequence] = ()
    html: str | None = None
    note: str = ""
    float_format: str = "{:.4f}"


@dataclass(frozen=True)
class Figure:
    """A figure file (``.svg``, ``.png``, ``.jpg``) to embed, with an optional caption."""

    path: str | Path
    caption: str = ""


@dataclass(frozen=True)
class Section:
    """A titled section: paragraphs (blank-line separated), verbatim text, tables, figures."""

    title: str
    text: str = ""
    preformatted: str = ""
    tables: Sequence[Table] = field(default_factory=tuple)
    figures: Sequence[Figure] = field(default_factory=tuple)


def write_report_html(path, *, title: str, protocol: Mapping | Iterable[tuple] = (),
                      tables: Sequence[Table] = (), statistics: Sequence[Section] = (),
                      figures: Sequence[Figure | str | Path] = ()) -> Path:
    """Write the page to ``path`` (UTF-8) and return the path; see :func:`render_report_html`."""
    text = render_report_html(title=title, protocol=protocol, tables=tables, statistics=statistics,
                              figures=figures)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def render_report_html(*, title: str, protocol: Mapping | Iterable[tuple] = (),
                       tables: Sequence[Table] = (), statistics: Sequence[Section] = (),
                       figures: Sequence[Figure | str | Path] = ()) -> str:
    """The page as text.

    Parameters
    ----------
    title : str
        Page title and first heading.
    protocol : mapping or pairs
        What was run, as ``key: value`` (data sets, classifiers, folds, seed...);
        a list or tuple value is shown comma-separated.
    tables, statistics, figures
        The sections of the page, in this order after the protocol; a figure may be
        given as a bare path. Figure files must exist when the page is written.
    """
    counter = _Ids()
    parts = [f"<h1>{escape(title)}</h1>"]
    sections = []
    pairs = list(protocol.items() if isinstance(protocol, Mapping) else protocol)
    if pairs:
        sections.append(("Protocol", _protocol(pairs)))
    if tables:
        sections.append(("Tables", "\n".join(_table(t) for t in tables)))
    for section in statistics:
        sections.append((section.title, _section(section, counter)))
    if figures:
        sections.append(("Figures", "\n".join(_figure(_as_figure(f), counter) for f in figures)))
    toc = "".join(f'<li><a href="#s{i}">{escape(name)}</a></li>' for i, (name, _) in enumerate(sections))
    if len(sections) > 1:
        parts.append(f"<nav><ul>{toc}</ul></nav>")
    parts += [f'<section id="s{i}">\n<h2>{escape(name)}</h2>\n{body}\n</section>'
              for i, (name, body) in enumerate(sections)]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(parts) + "\n</body>\n</html>\n")


class _Ids:
    """Numbers figures so that their inlined SVG ids get distinct prefixes."""

    def __init__(self):
        self.n = 0

    def next(self) -> str:
        self.n += 1
        return f"fig{self.n}"


def _text(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def _protocol(pairs) -> str:
    items = "".join(f"<dt>{escape(str(k))}</dt><dd>{escape(_text(v))}</dd>" for k, v in pairs)
    return f'<dl class="protocol">{items}</dl>'


def _cell(value, float_format: str) -> str:
    if isinstance(value, Real) and not isinstance(value, Integral):  # bool is Integral
        return escape(float_format.format(value))
    return escape(str(value))


def _table(table: Table) -> str:
    parts = [f"<h3>{escape(table.title)}</h3>"] if table.title else []
    if table.html is not None:
        parts.append(table.html)
    else:
        head = "".join(f"<th>{escape(str(h))}</th>" for h in table.headers)
        body = "".join("<tr>" + "".join(f"<td>{_cell(v, table.float_format)}</td>" for v in row) + "</tr>"
                       for row in table.rows)
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    if table.note:
        parts.append(f'<p class="note">{escape(table.note)}</p>')
    return "\n".join(parts)


def _section(section: Section, counter: _Ids) -> str:
    parts = [f"<p>{escape(p.strip())}</p>" for p in re.split(r"\n\s*\n", section.text) if p.strip()]
    if section.preformatted:
        parts.append(f"<pre>{escape(section.preformatted)}</pre>")
    parts += [_table(t) for t in section.tables]
    parts += [_figure(_as_figure(f), counter) for f in section.figures]
    return "\n".join(parts)


def _as_figure(figure) -> Figure:
    return figure if isinstance(figure, Figure) else Figure(figure)


def _figure(figure: Figure, counter: _Ids) -> str:
    path = Path(figure.path)
    suffix = path.suffix.lower()
    if suffix not in FIGURE_SUFFIXES:
        raise ReportError(f"{path}: a page embeds figures as {', '.join(FIGURE_SUFFIXES)}")
    if not path.is_file():
        raise ReportError(f"{path}: figure file not found")
    alt = figure.caption or path.stem
    if suffix == ".svg":
        body = inline_svg(path.read_text(encoding="utf-8"), counter.next())
    else:
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        body = f'<img src="data:{_IMAGE_TYPES[suffix]};base64,{data}" alt="{escape(alt)}">'
    caption = f"<figcaption>{escape(figure.caption)}</figcaption>" if figure.caption else ""
    return f"<figure>\n{body}\n{caption}</figure>"


_ID = re.compile(r'\bid="([^"]+)"')
_URL_REF = re.compile(r"url\(#([^)]+)\)")
_HREF_REF = re.compile(r'\b((?:xlink:)?href)="#([^"]+)"')


def inline_svg(svg: str, prefix: str) -> str:
    """The ``<svg>`` element of an SVG file, ready to sit in an HTML page.

    The XML declaration and DOCTYPE are dropped, and every id and every
    reference to one (``url(#...)``, ``href="#..."``) gets ``prefix-`` in front,
    so that several figures on one page keep their own clip paths and markers.
    """
    start = svg.find("<svg")
    if start < 0:
        raise ReportError("not an SVG file: no <svg> element")
    body = svg[start:].strip()
    body = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', body)
    body = _URL_REF.sub(lambda m: f"url(#{prefix}-{m.group(1)})", body)
    return _HREF_REF.sub(lambda m: f'{m.group(1)}="#{prefix}-{m.group(2)}"', body)
