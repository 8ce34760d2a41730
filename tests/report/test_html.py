"""The self-contained report page: escaped text, balanced tags, figures inlined, and (when
Debian's chromium is installed) rendered by a real browser in headless mode."""
import base64
import re
import subprocess

import numpy as np
import pytest

from helpers import check_page, chromium

from bayesbench.errors import ReportError
from bayesbench.models.core.structure import Node, Structure
from bayesbench.report.html import Figure, Section, Table, inline_svg, render_report_html, write_report_html
from bayesbench.report.figures.network import plot_network

@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    import matplotlib.pyplot as plt  # a PNG from plain pyplot: the page must not care who drew it
    out = tmp_path_factory.mktemp("figs")
    s = Structure((Node((0,)), Node((1, 2), (0,)), Node((3,), (1,))), 4, attribute_names=list("abcd"))
    net_svg = plot_network(s, out / "net.svg", title="bsej <toy>")
    net2_svg = plot_network(Structure.from_parents([None, 0, 1]), out / "chain.svg")
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot(np.arange(5), np.arange(5) ** 2)
    fig.savefig(out / "curve.png")
    plt.close(fig)
    return net_svg, net2_svg, out / "curve.png"


@pytest.fixture(scope="module")
def page(figures, tmp_path_factory):
    net_svg, net2_svg, png = figures
    path = tmp_path_factory.mktemp("page") / "report.html"
    write_report_html(
        path, title="Run <quickstart> & friends",
        protocol={"data sets": ["iris", "wdbc"], "folds": 10, "note": "a <b>bold</b> claim"},
        tables=[Table("Accuracy", headers=["data set", "nb", "tan"],
                      rows=[["iris", 0.94, np.float64(0.9533)], ["<wdbc>", 0.93, float("nan")], ["n", 3, True]],
                      note="mean over 10 folds"),
                Table("Pre-rendered", html="<table><tr><td>x</td></tr></table>")],
        statistics=[Section("Friedman test", text="First paragraph.\n\nSecond & last.",
                            preformatted="chi2 = 3.2 < 5.99", figures=[Figure(net2_svg, "chain")])],
        figures=[Figure(net_svg, "the learned network"), png])
    return path


def test_page_is_well_formed_and_self_contained(page, figures):
    check = check_page(page)
    text = page.read_text()
    assert "<script" not in text
    # Both SVGs are inline (their ids prefixed apart) and the PNG is a data: URI of the very file.
    assert text.count("<svg") == 2
    assert 'id="fig1-node-0"' in text and 'id="fig2-node-0"' in text
    [src] = check.img_src
    assert base64.b64decode(src.split(",", 1)[1]) == figures[2].read_bytes()
    assert "default-src 'none'" in text  # a browser may load nothing from anywhere


def test_every_text_is_escaped(page):
    text = page.read_text()
    assert "<title>Run &lt;quickstart&gt; &amp; friends</title>" in text
    assert "<dd>a &lt;b&gt;bold&lt;/b&gt; claim</dd>" in text and "<b>" not in text
    assert "<dd>iris, wdbc</dd>" in text
    assert "<td>&lt;wdbc&gt;</td>" in text
    assert "<pre>chi2 = 3.2 &lt; 5.99</pre>" in text
    assert "<p>Second &amp; last.</p>" in text
    assert "bsej &lt;toy&gt;" in text  # a title drawn into the SVG, escaped by matplotlib
    assert "<table><tr><td>x</td></tr></table>" in text  # the one trusted input


def test_numbers_in_rows(page):
    text = page.read_text()
    assert "<td>0.9400</td><td>0.9533</td>" in text
    assert "<td>nan</td>" in text  # a missing value shows, it is not a blank
    assert "<td>3</td><td>True</td>" in text  # integers and booleans are not floats


def test_sections_in_order_with_contents_links(page):
    headings = re.findall(r'<section id="(s\d)">\n<h2>([^<]+)</h2>', page.read_text())
    assert headings == [("s0", "Protocol"), ("s1", "Tables"), ("s2", "Friedman test"), ("s3", "Figures")]
    assert re.findall(r'<a href="#(s\d)">', page.read_text()) == ["s0", "s1", "s2", "s3"]


def test_missing_or_unsupported_figures_are_refused(tmp_path):
    with pytest.raises(ReportError, match="nope.svg: figure file not found"):
        render_report_html(title="t", figures=[tmp_path / "nope.svg"])
    (tmp_path / "cd.pdf").write_bytes(b"%PDF")
    with pytest.raises(ReportError, match=r"cd.pdf: a page embeds figures as .svg, .png, .jpg, .jpeg"):
        render_report_html(title="t", figures=[tmp_path / "cd.pdf"])


def test_inline_svg_prefixes_ids_and_references():
    svg = ('<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg"><defs>'
           '<clipPath id="p1"><rect/></clipPath><path id="m2"/></defs>'
           '<g clip-path="url(#p1)"><use xlink:href="#m2" x="1"/><use href="#m2"/></g></svg>')
    out = inline_svg(svg, "f7")
    assert out.startswith("<svg") and "DOCTYPE" not in out
    assert 'id="f7-p1"' in out and 'id="f7-m2"' in out and "url(#f7-p1)" in out
    assert 'xlink:href="#f7-m2"' in out and ' href="#f7-m2"' in out
    with pytest.raises(ReportError, match="no <svg> element"):
        inline_svg("<html></html>", "f1")


def test_the_page_checker_catches_what_it_should(tmp_path):
    # The validator itself can fail: unbalanced tags, missing files, remote images, dangling ids.
    bad = {"unbalanced": "<div><p>x</div>", "remote": '<img src="https://example.org/a.png">',
           "missing": '<img src="gone.png">', "dangling": '<svg><use href="#nowhere"/></svg>'}
    for name, body in bad.items():
        path = tmp_path / f"{name}.html"
        path.write_text(f"<html><body>{body}</body></html>")
        with pytest.raises(AssertionError):
            check_page(path)
    ok = tmp_path / "ok.html"
    (tmp_path / "here.png").write_bytes(b"x")
    ok.write_text('<html><body><img src="here.png"><p>x</p></body></html>')
    check_page(ok)


@pytest.mark.skipif(chromium() is None, reason="chromium not installed: the page was only validated "
                    "(test_page_is_well_formed_and_self_contained)")
def test_page_renders_in_headless_chromium(page, tmp_path):
    # Offline as far as the browser knows: no proxy reachable, no background networking.
    common = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--proxy-server=http://127.0.0.1:9", f"--user-data-dir={tmp_path / 'profile'}",
              "--hide-scrollbars", "--window-size=1200,1600"]
    shot = tmp_path / "shot.png"
    res = subprocess.run(common + [f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=180)
    assert shot.is_file(), res.stderr.decode(errors="replace")[-2000:]
    import matplotlib.image
    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[:2] == (1600, 1200)
    # Something was drawn: the page is not one flat colour, and some pixels are dark (text, lines).
    assert pixels[..., :3].std() > 0.05 and (pixels[..., :3].mean(axis=2) < 0.3).mean() > 0.001
    dom = subprocess.run(common + ["--dump-dom", page.as_uri()], capture_output=True, timeout=180,
                         text=True).stdout
    assert "<title>Run &lt;quickstart&gt; &amp; friends</title>" in dom
    assert dom.count("<svg") == 2 and dom.count('<img src="data:image/png;base64,') == 1
