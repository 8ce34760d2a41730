"""The one table of table formats (:data:`bayesbench.report.tables.FORMATS`): the config check,
the command line's choices, a run's summary and the documentation read it, so that a format
added there (its class and its entry) is used everywhere without another change."""
import re
import types
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from tabulate import tabulate

from bayesbench.cli import main
from bayesbench.errors import BayesbenchError, ConfigError
from bayesbench.report import tables
from bayesbench.report.tables import render, table_format
from helpers import run, small_config

DOCS = Path(__file__).resolve().parents[2] / "docs"


def documented() -> dict[str, set[str]]:
    """What each page that lists the table formats lists: the config key's comment
    (configuration.md), compare's option (statistics.md), the summary's file extensions
    (results.md)."""
    config = re.search(r"# summary formats: ([^(]+) \(", (DOCS / "configuration.md").read_text())
    option = re.search(r"`--format ([a-z]+(?:\|[a-z]+)+)`", (DOCS / "statistics.md").read_text())
    summary = (DOCS / "results.md").read_text().split("## Summary tables", 1)[1].split("\n\n")[1]
    return {"configuration.md": set(config[1].strip().split(", ")),
            "statistics.md": set(option[1].split("|")),
            "results.md": set(re.findall(r"`\.(\w+)`", summary))}


def undocumented() -> dict[str, list[str]]:
    """Per page, the formats of the table it does not list (by name, or by extension on the
    page of the summary's files)."""
    out = {}
    for page, listed in documented().items():
        words = {f.name: f.extension if page == "results.md" else f.name
                 for f in tables.FORMATS.values()}
        missing = [name for name, word in words.items() if word not in listed]
        if missing:
            out[page] = missing
    return out


class RstFormat(tables.TextFormat):
    """A throwaway format: reStructuredText's simple table."""

    name, extension = "rst", "rst"

    def table(self, rows, headers, caption, floatfmt):
        out = tabulate(rows, headers=headers, tablefmt="rst", floatfmt=floatfmt)
        return f"{caption}\n\n{out}\n" if caption else out + "\n"


@pytest.fixture
def with_rst(monkeypatch):
    table = dict(tables.FORMATS)
    table["rst"] = RstFormat()
    monkeypatch.setattr(tables, "FORMATS", types.MappingProxyType(table))


def test_the_table_lists_the_formats_in_order_with_their_members():
    assert tables.format_names() == ("text", "markdown", "csv", "latex")
    assert tables.format_names(prose=True) == ("text", "markdown")
    assert tables.extensions() == ("txt", "md", "csv", "tex")
    assert [f.name for f in tables.FORMATS.values() if f.tidy] == ["csv"]
    assert table_format("latex").bold("x") == "\x02x\x03"
    assert render([["a", 0.5]], ["name", "x"], "latex").count(r"\textbf") == 0
    with pytest.raises(BayesbenchError, match=r"unknown table format 'rst'; expected one of "
                                              r"text, markdown, csv, latex"):
        render([], [], "rst")


def test_every_page_lists_every_format():
    assert undocumented() == {}


def test_a_format_unknown_to_the_table_is_refused_by_the_config(uci_dir, tmp_path):
    with pytest.raises(ConfigError, match=r"format\[0\]"):
        small_config(uci_dir, tmp_path, format=["rst"])


def test_a_new_format_is_one_entry(with_rst, uci_dir, tmp_path):
    # The config check, a run's summary and comparison, compare's and check's choices and the
    # documentation's check all see it.
    cfg = small_config(uci_dir, tmp_path, format=["rst", "csv"], datasets=["iris"],
                       classifiers=["nb", "tan"], cv={"folds": 3})
    assert cfg.options.formats == ("rst", "csv")
    result = run(cfg, quiet=True, jobs=1)
    summary = result.run_dir / "summary"
    text = (summary / "accuracy.rst").read_text()
    assert text.startswith("accuracy: mean ± std") and "=======" in text and "nb" in text
    assert (summary / "comparison.rst").read_text().count("=====") >= 4
    assert not list(summary.glob("*.txt"))
    out = CliRunner().invoke(main, ["compare", str(result.run_dir), "--format", "rst"])
    assert out.exit_code == 0 and out.output.startswith("accuracy: mean and standard deviation")
    assert "=====" in out.output
    bad = CliRunner().invoke(main, ["compare", str(result.run_dir), "--format", "rest"])
    assert bad.exit_code == 2 and "'rest' is not one of 'text', 'markdown', 'csv', 'latex', " \
                                  "'rst', 'json'" in bad.output
    check = CliRunner().invoke(main, ["check", str(result.run_dir), "--format", "rst"])
    assert "is not one of" not in check.output  # a prose format: check takes it
    assert undocumented() == {"configuration.md": ["rst"], "statistics.md": ["rst"],
                              "results.md": ["rst"]}


@given(st.lists(st.lists(st.one_of(st.floats(allow_infinity=False), st.none(),
                                   st.integers(-10**6, 10**6)), min_size=3, max_size=3),
                max_size=6))
def test_an_undefined_value_is_an_empty_csv_cell_that_reads_back_as_nan(rows):
    # pooled.csv wrote 'nan' where docs/results.md says the cell is empty (issue 34, class 6).
    import io
    import math

    import pandas as pd

    text = render(rows, ["a", "b", "c"], "csv")
    assert "nan" not in text.lower()
    back = pd.read_csv(io.StringIO(text), dtype=float)
    for row, read in zip(rows, back.itertuples(index=False)):
        for value, got in zip(row, read):
            undefined = value is None or (isinstance(value, float) and math.isnan(value))
            assert math.isnan(got) if undefined else got == float(value)
