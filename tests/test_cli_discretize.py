"""`bayesbench discretize`: Weka's cut points as JSON or a table, and an ARFF that Weka reads."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.data import load_dataset

WEKA_JAR = Path("/usr/share/java/weka.jar")
needs_weka = pytest.mark.skipif(shutil.which("java") is None or not WEKA_JAR.exists(),
                                reason="java or Weka's jar not installed")


def run(*args):
    result = CliRunner().invoke(main, ["discretize", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result


def test_json_prints_wekas_cut_points_for_iris(uci_dir, reference_dir):
    expected = json.loads((reference_dir / "weka_mdl_cuts.json").read_text())["cuts"]["iris"]
    got = json.loads(run(uci_dir / "iris.arff", "--format", "json").stdout)
    assert list(got) == list(expected)
    for name in expected:
        np.testing.assert_allclose(got[name], expected[name], rtol=0, atol=1e-9)


def test_json_lists_numeric_attributes_only(uci_dir):
    got = json.loads(run(uci_dir / "cmc.arff", "--format", "json").stdout)
    ds = load_dataset(uci_dir / "cmc.arff")
    assert list(got) == [a.name for a in ds.attributes if not a.is_nominal]


def test_table_is_the_default_and_shows_bins_and_cuts(uci_dir):
    out = run(uci_dir / "iris.arff").stdout
    lines = out.strip().splitlines()
    assert lines[0].split() == ["attribute", "bins", "cut", "points"]
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in lines[2:]}
    assert rows["petallength"] == ["3", "2.45, 4.75"]
    assert rows["sepalwidth"] == ["3", "2.95, 3.35"]


@pytest.mark.parametrize("method, bins", [("fd", None), ("width", 4), ("frequency", 3)])
def test_unsupervised_methods_and_bins(uci_dir, method, bins):
    args = [uci_dir / "iris.arff", "--method", method, "--format", "json"]
    if bins:
        args += ["--bins", bins]
    got = json.loads(run(*args).stdout)
    x = load_dataset(uci_dir / "iris.arff").columns[0]
    if method == "fd":
        np.testing.assert_allclose(got["sepallength"], np.histogram_bin_edges(x, "fd")[1:-1])
    elif method == "width":
        np.testing.assert_allclose(got["sepallength"], [5.2, 6.1, 7.0])
    else:
        assert len(got["sepallength"]) == 2


def test_bundled_name_and_class_option(tmp_path):
    got = json.loads(run("iris", "--format", "json").stdout)
    assert len(got["petalwidth"]) == 2
    csv = tmp_path / "t.csv"
    csv.write_text("label;x\n" + "".join(f"{'ab'[i >= 20]};{i}\n" for i in range(40)))
    got = json.loads(run(csv, "--class", "label", "--delimiter", ";", "--format", "json").stdout)
    assert got == {"x": [19.5]}


def test_output_arff_has_weka_range_labels_and_reads_back(uci_dir, tmp_path):
    out = tmp_path / "iris-mdl.arff"
    result = run(uci_dir / "iris.arff", "-o", out)
    assert "petallength" in result.stdout  # the table is still printed
    text = out.read_text()
    assert "@attribute petallength {'(-inf-2.45]','(2.45-4.75]','(4.75-inf)'}" in text
    back = load_dataset(out)
    assert back.is_nominal
    original = load_dataset(uci_dir / "iris.arff")
    petal = original.columns[2]
    expected = np.where(petal <= 2.45, 0, np.where(petal <= 4.75, 1, 2))
    np.testing.assert_array_equal(back.columns[2], expected)
    np.testing.assert_array_equal(back.y, original.y)


def test_a_lone_cut_point_is_printed_as_written(tmp_path):
    data = tmp_path / "two.arff"
    rows = "".join(f"{v},{'ab'[v >= 20]}\n" for v in range(40))
    data.write_text("@relation n\n@attribute v numeric\n@attribute class {a,b}\n@data\n" + rows)
    assert run(data).stdout.strip().splitlines()[-1].split() == ["v", "2", "19.5"]


def test_single_bin_is_all(tmp_path):
    data = tmp_path / "noise.arff"
    rows = "".join(f"{v},{c}\n" for v, c in zip([1, 2, 3, 4, 5, 6], "xyxyxy"))
    data.write_text("@relation n\n@attribute v numeric\n@attribute class {x,y}\n@data\n" + rows)
    out = tmp_path / "o.arff"
    table = run(data, "-o", out).stdout.strip().splitlines()
    assert table[-1].split() == ["v", "1", "-"]
    assert "@attribute v {All}" in out.read_text()


@needs_weka
def test_weka_reads_the_output_and_bins_like_its_own_filter(uci_dir, tmp_path):
    source = uci_dir / "imports-85.arff"  # missing values, nominal and numeric attributes
    ours = tmp_path / "ours.arff"
    run(source, "-o", ours)
    check = subprocess.run(["java", "-cp", str(WEKA_JAR), "weka.core.Instances", str(ours)],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    assert re.search(r"Num Instances:\s+205", check.stdout)
    assert re.search(r"Num Attributes:\s+26", check.stdout)

    weka_out = tmp_path / "weka.arff"
    filt = subprocess.run(["java", "-cp", str(WEKA_JAR),
                           "weka.filters.supervised.attribute.Discretize", "-c", "last",
                           "-i", str(source), "-o", str(weka_out)],
                          capture_output=True, text=True, timeout=120)
    assert filt.returncode == 0, filt.stderr
    theirs, mine = load_dataset(weka_out), load_dataset(ours)
    assert mine.attribute_names == theirs.attribute_names
    for a, b, ca, cb in zip(mine.attributes, theirs.attributes, mine.columns, theirs.columns):
        # Weka 3.6 keeps literal quotes inside its labels: '(-inf-75.5]' as a value
        assert a.categories == tuple(c.strip("'") for c in b.categories), a.name
        np.testing.assert_array_equal(ca, cb, err_msg=a.name)
