"""The figures and report.html of `bayesbench run configs/quickstart.yaml` and of `compare`.

One quick-start run (two, for the byte comparison) serves every test here: its page is
well formed, self-contained and drawn by headless chromium when installed, every figure
it names is there, its figures are the same bytes in a second run drawn in one process, every summary CSV loads
into its documented columns, and the Bayesian probabilities `compare` prints are
baycomp's on the same fold scores.
"""
import json
import subprocess
from pathlib import Path

import baycomp
import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner
from helpers import check_page, check_summary_csvs, chromium

from bayesbench.cli import main
from bayesbench.evaluation.store import records_frame
from bayesbench.report.compare.inputs import compare_paths
from bayesbench.spec import CompareSpec

QUICKSTART = Path(__file__).resolve().parents[2] / "configs" / "quickstart.yaml"
FIGURES = ["cd", "cd-control", "folds", "baseline"]


def _run(out, jobs="2"):
    res = CliRunner().invoke(main, ["run", str(QUICKSTART), "-o", str(out), "-j", jobs, "-q"])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("quickstart") / "run")


def test_the_quickstart_writes_its_figures_and_page(quickstart):
    figures = quickstart / "figures"
    for stem in FIGURES:
        for suffix in (".svg", ".png"):
            assert (figures / f"{stem}{suffix}").stat().st_size > 0, stem
    # TAN and kDB learn a network on each data set; naive Bayes and AODE have none to draw.
    networks = sorted(p.name for p in figures.glob("network-*"))
    assert networks == sorted(f"network-{d}-{c}{s}" for d in ("iris", "wine", "glass", "diabetes")
                              for c in ("tan", "kdb") for s in (".svg", ".png", ".dot"))
    dot = (figures / "network-iris-tan.dot").read_text()
    assert dot.startswith('digraph "tan"') and '"class" [shape=doublecircle]' in dot
    # And their consensus over the folds (tests/report/test_arcs.py checks the shares).
    consensus = sorted(p.name for p in figures.glob("consensus-*"))
    assert consensus == [n.replace("network-", "consensus-") for n in networks]
    page = quickstart / "report.html"
    check = check_page(page)
    text = page.read_text()
    # Every SVG figure the run drew is on the page (inlined), and nothing else is.
    svgs = sorted(figures.glob("*.svg"))
    assert text.count("<svg") == len(svgs) == len(FIGURES) + 8 + 8
    words = " ".join(check.text)
    for needed in ("Protocol", "Statistical comparison", "P(better)", "tan", "diabetes",
                   "critical-difference diagram", "learned network: tan on iris (first fold)"):
        assert needed in words, needed


def test_figures_are_the_same_bytes_in_a_second_run_drawn_in_one_process(quickstart, tmp_path):
    # The first run drew its figures in two worker processes, this one in its own.
    again = _run(tmp_path / "again", jobs="1")
    first = sorted(p.name for p in (quickstart / "figures").iterdir())
    assert first == sorted(p.name for p in (again / "figures").iterdir())
    assert {Path(n).suffix for n in first} == {".svg", ".png", ".dot"}
    for name in first:
        assert (quickstart / "figures" / name).read_bytes() == (again / "figures" / name).read_bytes(), name


def test_every_quickstart_summary_csv_loads_into_its_documented_columns(quickstart):
    stems = check_summary_csvs(quickstart / "summary", ["accuracy", "error", "precision_macro",
                                                        "recall_macro", "f1_macro"])
    assert {"comparison", "comparison_tests", "comparison_posthoc", "comparison_pvalues",
            "comparison_pairs", "scores"} <= stems


def test_compare_on_the_summary_accuracy_table_gives_the_ranks_of_the_run(quickstart):
    from_run = compare_paths([quickstart])
    from_table = compare_paths([quickstart / "summary" / "accuracy.csv"])
    assert from_table.classifiers == from_run.classifiers == ["nb", "tan", "kdb", "aode", "gnb"]
    assert from_table.average_ranks.tolist() == pytest.approx(from_run.average_ranks.tolist(), abs=1e-12)
    # The long scores.csv with folds gets the fold tests too, with the run's p-values.
    from_scores = compare_paths([quickstart / "summary" / "scores.csv"], CompareSpec(metric="accuracy"))
    np.testing.assert_allclose(from_scores.pvalue.loc[from_run.datasets, from_run.classifiers],
                               from_run.pvalue.to_numpy(float), atol=1e-12)


def test_compare_prints_baycomps_probabilities(quickstart):
    res = CliRunner().invoke(main, ["compare", str(quickstart), "--baseline", "nb", "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    frame = records_frame(quickstart, metrics=["accuracy"])
    folds = {c: frame[frame.classifier == c].sort_values(["dataset", "repetition", "fold"])
             for c in ("nb", "tan")}
    for row in doc["tables"]["pvalues"]:
        if row["classifier"] != "tan":
            continue
        tan = folds["tan"][folds["tan"].dataset == row["dataset"]]["accuracy"].to_numpy()
        nb = folds["nb"][folds["nb"].dataset == row["dataset"]]["accuracy"].to_numpy()
        expected = baycomp.CorrelatedTTest.probs(tan, nb, rope=0.01, runs=1)
        assert [row["p_better"], row["p_rope"], row["p_worse"]] == pytest.approx(expected, abs=1e-6)
    # One mean per data set, in the order compare lists them (the draws follow that order).
    means = {c: f.groupby("dataset")["accuracy"].mean()[doc["datasets"]].to_numpy()
             for c, f in folds.items()}
    [tan_row] = [r for r in doc["tables"]["posthoc"] if r["classifier"] == "tan"]
    expected = baycomp.SignedRankTest.probs(means["tan"], means["nb"], rope=0.01, nsamples=50000,
                                            random_state=0)
    assert [tan_row["p_better"], tan_row["p_rope"], tan_row["p_worse"]] == pytest.approx(expected, abs=1e-6)


def test_compare_writes_the_same_figures_and_a_page(quickstart, tmp_path):
    out = tmp_path / "cmp"
    res = CliRunner().invoke(main, ["compare", str(quickstart), "--report", str(out)])
    assert res.exit_code == 0, res.output
    names = {p.name for p in (out / "figures").iterdir()}
    assert names == {p.name for p in (quickstart / "figures").iterdir()}
    for name in names:
        if name.startswith(("network-", "consensus-")):  # the same networks, from the run
            assert (out / "figures" / name).read_bytes() == (quickstart / "figures" / name).read_bytes()
    check_page(out / "report.html")


@pytest.mark.skipif(chromium() is None, reason="chromium not installed: the page was only validated "
                    "(test_the_quickstart_writes_its_figures_and_page)")
def test_the_quickstart_page_renders_in_headless_chromium(quickstart, tmp_path):
    common = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--proxy-server=http://127.0.0.1:9", f"--user-data-dir={tmp_path / 'profile'}",
              "--hide-scrollbars", "--window-size=1200,1600"]
    page = (quickstart / "report.html").as_uri()
    shot = tmp_path / "shot.png"
    res = subprocess.run(common + [f"--screenshot={shot}", page], capture_output=True, timeout=180)
    assert shot.is_file(), res.stderr.decode(errors="replace")[-2000:]
    import matplotlib.image
    pixels = matplotlib.image.imread(shot)
    assert pixels[..., :3].std() > 0.05 and (pixels[..., :3].mean(axis=2) < 0.3).mean() > 0.001
    dom = subprocess.run(common + ["--dump-dom", page], capture_output=True, timeout=180, text=True).stdout
    assert dom.count("<svg") == 20 and "critical-difference diagram" in dom


# ------------------------------------------ figure names that collide (issue 25, class 7)

@settings(max_examples=6, deadline=None, database=None)
@given(st.lists(st.tuples(st.text("aB-_/ .", min_size=1, max_size=4),
                          st.text("aB-_/ ()=", min_size=1, max_size=4)),
                min_size=2, max_size=3, unique=True))
def test_networks_whose_names_collide_get_a_figure_each(tmp_path_factory, pairs):
    # network-<slug(data set)>-<slug(classifier)>: data set a-b with classifier c and data
    # set a with b-c, or nb(a/b) and nb(a_b), were drawn over each other while the report
    # captioned both; so was every classifier of a data set with a dot in its name
    # (network-weather.nominal-nb.svg was written as network-weather.svg).
    from bayesbench.report.figures.pages import Network, draw_figures  # lazy: with matplotlib
    out = tmp_path_factory.mktemp("nets")
    data = {"class": "c", "attributes": ["x", "y"], "nodes": [[[0], []], [[1], [0]]]}
    drawn = draw_figures(out, None, [Network(d, c, data) for d, c in pairs])
    svgs = [f.path for f in drawn.figures]
    assert len({str(p).lower() for p in svgs}) == len(pairs)       # case-blind file systems too
    assert sorted(p.name for p in (out / "figures").iterdir()) == sorted(
        p.name for p in drawn.files)
    assert all(p.name.startswith("network-") for p in svgs)
    dots = draw_figures(out, None, [Network("weather.nominal", c, data) for c in ("nb", "tan")])
    assert [f.path.name for f in dots.figures] == ["network-weather.nominal-nb.svg",
                                                   "network-weather.nominal-tan.svg"]


def test_a_run_draws_at_most_max_network_figures_and_says_so(tmp_path, monkeypatch):
    # A grid of 500 settings drew 500 networks (93 s, 1.4 GB): the figures are capped, and
    # the report's "Figures not drawn" says how many there were.
    from bayesbench.report.figures import pages  # lazy: with matplotlib
    monkeypatch.setattr(pages, "MAX_NETWORK_FIGURES", 3)
    data = {"class": "c", "attributes": ["x", "y"], "nodes": [[[0], []], [[1], [0]]]}
    drawn = pages.draw_figures(tmp_path, None,
                               [pages.Network("d", f"tan(alpha={a})", data) for a in range(7)])
    assert [f.path.name for f in drawn.figures] == [f"network-d-tan_alpha_{a}.svg"
                                                    for a in range(3)]
    assert len(list((tmp_path / "figures").glob("*.svg"))) == 3
    assert drawn.skipped == ["learned networks: 7 to draw, more than the 3 a run draws "
                             "(docs/limits.md); the first 3 in config order are drawn, and "
                             "networks/ (save_networks) or the records' structures hold them all"]
    page = pages.write_report(tmp_path / "report.html", title="t", protocol=[], drawn=drawn)
    assert "Figures not drawn" in page.read_text() and "7 to draw" in page.read_text()


def test_figure_formats_and_the_consensus_threshold_of_a_config(tmp_path):
    from bayesbench.config import parse_config
    from helpers import run

    raw = {"name": "f", "seed": 2, "datasets": ["weather.nominal", "contact-lenses"],
           "cv": {"folds": 3}, "classifiers": ["nb", "tan"], "output": str(tmp_path / "run"),
           "figure_format": ["pdf", "svg"], "consensus_threshold": 1}
    result = run(parse_config(raw, base_dir=tmp_path), jobs=2, quiet=True)
    figures = result.run_dir / "figures"
    stems = {p.name.rsplit(".", 1)[0] for p in figures.iterdir()}
    assert {"cd", "folds", "baseline", "consensus-weather.nominal-tan"} <= stems
    for stem in stems:  # every figure in both formats, none as PNG
        assert {p.suffix for p in figures.glob(f"{stem}.*")} - {".dot"} == {".pdf", ".svg"}
    assert (figures / "cd.pdf").read_bytes().startswith(b"%PDF")
    # Only the arcs every fold learned are drawn: those of arc_frequencies.csv at 1.
    rows = [line.split(",") for line in (result.run_dir / "summary" / "arc_frequencies.csv")
            .read_text().splitlines()[1:] if line.startswith("contact-lenses,tan,")]
    dot = (figures / "consensus-contact-lenses-tan.dot").read_text()
    assert dot.count("label=") == sum(float(r[4]) == 1 for r in rows) < len(rows)
    written = yaml.safe_load((result.run_dir / "config.yaml").read_text())
    assert written["figure_format"] == ["svg", "pdf"] and written["consensus_threshold"] == 1.0
