"""Rendering a comparison: well-formed LaTeX, and Demšar's critical-difference diagram."""
import html as html_lib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import check_latex, table6_scores

from bayesbench.errors import StatsError
from bayesbench.report.analysis import compare_scores
from bayesbench.report.figures.cdplot import plot_cd
from bayesbench.report.render import render_comparison
from bayesbench.report.tables import render
from bayesbench.spec import CompareSpec


def test_latex_output_is_a_well_formed_table(demsar):
    text = render_comparison(compare_scores(table6_scores(demsar), CompareSpec(metric="AUC")), "latex")
    check_latex(text)
    assert text.count(r"\begin{table}") == 4  # scores, tests, post-hoc, all pairs
    assert r"\textbf{0.7980}" in text


def test_cd_diagram_svg_names_every_classifier_and_groups(tmp_path, demsar):
    cmp = compare_scores(table6_scores(demsar), CompareSpec(alpha=0.10))
    # At 0.10 (CD 1.118) C4.5 is separated from C4.5+m and C4.5+m+cf; C4.5+cf sits in both groups.
    assert cmp.groups() == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]
    svg = plot_cd(cmp, tmp_path / "cd.svg").read_text()
    for name in demsar["table6"]["classifiers"]:
        assert f">{name}  (" in svg
    assert "CD = 1.118" in svg
    again = plot_cd(cmp, tmp_path / "again.svg").read_text()
    assert again == svg  # deterministic output
    with pytest.raises(StatsError, match=".png, .svg or .pdf"):
        plot_cd(cmp, tmp_path / "cd.jpg")


@pytest.mark.parametrize("n", [3, 4, 5, 14])
def test_fewer_than_five_data_sets_carry_a_warning_in_text_json_and_cli(demsar, tmp_path, n):
    import json

    from click.testing import CliRunner

    from bayesbench.cli import main
    from bayesbench.report.render import comparison_json

    scores = table6_scores(demsar).iloc[:n]
    cmp = compare_scores(scores, CompareSpec(metric="AUC"))
    warning = f"WARNING: only {n} data sets"
    text = render_comparison(cmp, "text")
    doc = json.loads(comparison_json(cmp))
    long = scores.stack().rename("mean").rename_axis(["dataset", "classifier"]).reset_index()
    long.to_csv(tmp_path / "auc.csv", index=False)
    printed = CliRunner().invoke(main, ["compare", str(tmp_path / "auc.csv"),
                                        "--report", str(tmp_path / "report")])
    assert printed.exit_code == 0, printed.output
    page = (tmp_path / "report" / "report.html").read_text()
    if n < 5:
        # Above the Friedman test, the post-hoc table (Bayesian signed-rank) and all pairs.
        assert text.count(warning) == 4  # three captions and the notes
        assert doc["warnings"] and doc["warnings"][0].startswith(warning)
        assert doc["notes"][0].startswith(warning)
        assert printed.output.count(warning) == 4
        assert page.count(warning) >= 3
    else:
        assert "WARNING" not in text and doc["warnings"] == [] and "WARNING" not in printed.output
        assert "WARNING" not in page


def test_bonferroni_dunn_diagram_marks_one_cd_around_the_control(tmp_path, demsar):
    # Demšar's Figure 2: Table 6 against C4.5 at alpha 0.05; q = 2.394 (his Table 5b, k = 4),
    # CD = q sqrt(k (k + 1) / (6 N)) = 2.394 sqrt(20 / 84) = 1.168 by hand.
    cmp = compare_scores(table6_scores(demsar), CompareSpec(baseline="C4.5", alpha=0.05))
    svg = plot_cd(cmp, tmp_path / "cd-control.svg", control=True).read_text()
    assert "CD = 1.168 (Bonferroni-Dunn" in svg
    assert 'id="control-interval"' in svg
    # C4.5's printed average rank is 3.143: the interval 1.975 .. 4 leaves out C4.5+m+cf
    # (printed rank 1.929) alone; C4.5+m (2.000) lies just inside.
    ranks = cmp.average_ranks
    outside = [n for n in cmp.classifiers if abs(ranks[n] - ranks["C4.5"]) > 1.168]
    assert outside == ["C4.5+m+cf"]


@settings(max_examples=30, deadline=None, database=None)
@given(st.lists(st.text(st.sampled_from("ab| -.1"), min_size=1, max_size=6)
                .filter(str.strip),
                min_size=2, max_size=4, unique_by=str.strip))
def test_a_pipe_in_a_label_stays_in_its_markdown_cell(labels):
    # A | in a label ended its cell and broke the table; the reference is markdown-it-py's
    # GitHub table parser: every row has its columns, every cell its label. (Markdown's
    # other marks, * _ \ `, are left to the reader as in any Markdown text.)
    from markdown_it import MarkdownIt  # lazy: a test dependency of this test alone
    text = render([[label, 0.5] for label in labels], ["data set", labels[0]], "markdown")
    html = MarkdownIt("commonmark").enable("table").render(text)
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    cells = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S) for row in rows]
    assert len(cells) == len(labels) + 1 and all(len(c) == 2 for c in cells), html
    unescaped = [html_lib.unescape(c[0]) for c in cells]
    assert [html_lib.unescape(cells[0][1])] + unescaped[1:] == [labels[0].strip()] + [
        label.strip() for label in labels]
