"""Fold-score and baseline-scatter figures, and byte-identical figures across processes."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from bayesbench.errors import ReportError
from bayesbench.report.figures.score_figures import dataset_means, plot_against_baseline, plot_fold_scores

SVG = "{http://www.w3.org/2000/svg}"


def _scores(datasets=("iris", "wdbc", "car"), classifiers=("nb", "tan", "kdb2"), reps=2, folds=5, seed=0):
    rng = np.random.default_rng(seed)
    rows = [(d, c, r, f, float(rng.uniform(0.6, 1.0)))
            for d in datasets for c in classifiers for r in range(reps) for f in range(folds)]
    return pd.DataFrame(rows, columns=["dataset", "classifier", "repetition", "fold", "value"])


def _svg(path):
    return ET.parse(path).getroot()


def _group(root, gid):
    found = [el for el in root.iter() if el.get("id") == gid]
    assert len(found) == 1, gid
    return found[0]


def _texts(root) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


# ---- fold scores ----------------------------------------------------------------------------

def test_fold_scores_one_panel_per_data_set_with_every_finite_score(tmp_path):
    scores = _scores()
    scores.loc[(scores["dataset"] == "wdbc") & (scores["classifier"] == "tan") & (scores["fold"] == 0),
               "value"] = np.nan  # two failed tasks, one per repetition
    [path] = plot_fold_scores(scores, tmp_path / "folds.svg", metric="accuracy")
    root = _svg(path)
    texts = _texts(root)
    assert {"iris", "wdbc (2 failed)", "car"} <= set(texts)
    assert texts.count("accuracy") == 1  # one row of panels: one y label
    for name in ("nb", "tan", "kdb2"):
        assert texts.count(name) == 3  # under every panel
    # Every finite score is one point of its classifier's group (pandas counts them independently).
    counts = scores.groupby(["dataset", "classifier"], sort=False)["value"].count()
    for i, d in enumerate(["iris", "wdbc", "car"]):
        for j, c in enumerate(["nb", "tan", "kdb2"]):
            assert len(list(_group(root, f"scores-{i}-{j}").iter(SVG + "use"))) == counts[(d, c)]
    assert counts[("wdbc", "tan")] == 8


def test_fold_scores_many_data_sets_write_one_file_each(tmp_path):
    names = ["a b", "a_b", "iris", "A-B/c"]
    paths = plot_fold_scores(_scores(datasets=names), tmp_path / "folds.png", max_panels=3)
    # Names that clash once made file-safe get a number; nothing is overwritten.
    assert [p.name for p in paths] == ["folds-a_b.png", "folds-a_b-2.png", "folds-iris.png", "folds-A-B_c.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in paths)
    assert not (tmp_path / "folds.png").exists()


def test_several_paths_write_the_same_files_as_one_path_at_a_time(tmp_path):
    # One drawing written as SVG and PNG must give exactly the files of two separate drawings.
    scores = _scores(datasets=("iris", "wdbc", "car"))
    both = plot_fold_scores(scores, [tmp_path / "both" / "folds.svg", tmp_path / "both" / "folds.png"],
                            max_panels=2)
    assert [p.name for p in both] == [f"folds-{d}{s}" for d in ("iris", "wdbc", "car") for s in (".svg", ".png")]
    means = dataset_means(scores)
    both += plot_against_baseline(means, "nb", [tmp_path / "both" / "vs.svg", tmp_path / "both" / "vs.png"])
    for suffix in (".svg", ".png"):
        plot_fold_scores(scores, tmp_path / "one" / f"folds{suffix}", max_panels=2)
        plot_against_baseline(means, "nb", tmp_path / "one" / f"vs{suffix}")
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == sorted(p.name for p in both)
    for path in both:
        assert path.read_bytes() == (tmp_path / "one" / path.name).read_bytes(), path.name


def test_fold_scores_refuse_ambiguous_input(tmp_path):
    scores = _scores()
    with pytest.raises(ReportError, match="no column fold, value"):
        plot_fold_scores(scores.drop(columns=["fold", "value"]), tmp_path / "f.svg")
    two = pd.concat([scores.assign(metric="accuracy"), scores.assign(metric="auc")])
    with pytest.raises(ReportError, match=r"several metrics \(accuracy, auc\); select one"):
        plot_fold_scores(two, tmp_path / "f.svg")
    with pytest.raises(ReportError, match="empty"):
        plot_fold_scores(scores.iloc[:0], tmp_path / "f.svg")
    with pytest.raises(ReportError, match="written as .png, .svg or .pdf"):
        plot_fold_scores(scores, tmp_path / "f.jpg")


def test_dataset_means_match_a_pandas_pivot():
    scores = _scores(datasets=("z", "a"), classifiers=("tan", "nb"))
    scores.loc[0, "value"] = np.nan
    means = dataset_means(scores)
    reference = scores.pivot_table(index="dataset", columns="classifier", values="value", aggfunc="mean")
    assert list(means.index) == ["z", "a"] and list(means.columns) == ["tan", "nb"]  # given order, not sorted
    pd.testing.assert_frame_equal(means, reference.loc[["z", "a"], ["tan", "nb"]], check_names=False)


# ---- against the baseline -------------------------------------------------------------------

def _means():
    # By hand: tan beats nb on d1, d2, d3, loses on d4, ties on d5; d6 has no nb score.
    return pd.DataFrame({"nb": [0.80, 0.70, 0.90, 0.95, 0.85, np.nan],
                         "tan": [0.85, 0.75, 0.91, 0.90, 0.85, 0.80],
                         "aode": [0.81, 0.69, 0.92, 0.96, 0.86, 0.70]},
                        index=[f"d{i}" for i in range(1, 7)])


def test_scatter_against_baseline_counts_each_side_of_the_diagonal(tmp_path):
    root = _svg(plot_against_baseline(_means(), "nb", tmp_path / "b.svg", metric="accuracy"))
    texts = _texts(root)
    assert "tan vs nb (1 tied, 1 without both)" in texts
    assert "tan better: 3" in texts and "nb better: 1" in texts
    assert "aode vs nb (1 without both)" in texts
    assert "aode better: 4" in texts and "nb better: 1" in texts
    assert "nb (accuracy)" in texts and "tan (accuracy)" in texts
    assert len(list(_group(root, "means-0").iter(SVG + "use"))) == 5  # d6 left out
    assert len(list(_group(root, "means-1").iter(SVG + "use"))) == 5


def test_scatter_for_a_loss_counts_lower_as_better(tmp_path):
    errors = 1 - _means()
    texts = _texts(_svg(plot_against_baseline(errors, "nb", tmp_path / "e.svg", metric="error",
                                              higher_is_better=False)))
    assert "tan better: 3" in texts and "nb better: 1" in texts


def test_scatter_refuses_unknown_baseline_and_single_classifier(tmp_path):
    with pytest.raises(ReportError, match="baseline 'j48' is not among the classifiers: nb, tan, aode"):
        plot_against_baseline(_means(), "j48", tmp_path / "b.svg")
    with pytest.raises(ReportError, match="at least one other classifier"):
        plot_against_baseline(_means()[["nb"]], "nb", tmp_path / "b.svg")


# ---- determinism across processes ----------------------------------------------------------

_DRAW_ALL = r"""
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from bayesbench.models.core.structure import Node, Structure
from bayesbench.report.figures.cdplot import Diagram, draw_cd
from bayesbench.report.figures.score_figures import dataset_means, plot_against_baseline, plot_fold_scores
from bayesbench.report.figures.network import plot_network

out = Path(sys.argv[1])
rng = np.random.default_rng(3)
rows = [(d, c, r, f, float(rng.uniform(0.7, 1.0)))
        for d in ("iris", "wdbc", "car") for c in ("nb", "tan", "aode") for r in range(2) for f in range(5)]
scores = pd.DataFrame(rows, columns=["dataset", "classifier", "repetition", "fold", "value"])
structure = Structure((Node((0,)), Node((1, 2), (0,)), Node((3,), (1,))), 5,
                      attribute_names=("a", "b", "c", "d", "e"))
for suffix in (".png", ".svg", ".pdf"):
    plot_fold_scores(scores, out / f"folds{suffix}", metric="accuracy")
    plot_against_baseline(dataset_means(scores), "nb", out / f"baseline{suffix}", metric="accuracy")
    plot_network(structure, out / f"network{suffix}", title="bsej on toy")
    draw_cd(Diagram(["nb", "tan", "aode", "kdb"], [3.1, 1.9, 1.4, 3.6], 1.2, alpha=0.05,
                    n_datasets=12), out / f"cd{suffix}")
"""


def test_every_figure_has_the_same_bytes_when_drawn_again_in_another_process(tmp_path):
    outputs = []
    for run, seed in enumerate(("1", "2")):  # different str hashing: no set or dict order leaks in
        out = tmp_path / f"run{run}"
        out.mkdir()
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("MPL")}, "PYTHONHASHSEED": seed}
        res = subprocess.run([sys.executable, "-c", _DRAW_ALL, str(out)], capture_output=True, text=True,
                             env=env, timeout=300)
        assert res.returncode == 0, res.stderr
        outputs.append(out)
    names = sorted(p.name for p in outputs[0].iterdir())
    assert names == sorted(f"{f}{s}" for f in ("folds", "baseline", "network", "cd")
                           for s in (".png", ".svg", ".pdf"))
    for name in names:
        assert (outputs[0] / name).read_bytes() == (outputs[1] / name).read_bytes(), name
