"""The bundled data sets: present, intact (checksums in datasets/README.md) and findable by name."""
import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from bayesbench.data import bundled_dir, find_dataset, load_dataset, locate_dataset
from bayesbench.errors import DataError

README = Path(__file__).resolve().parents[1] / "datasets" / "README.md"
ROW = re.compile(r"^\| `(?P<file>[\w.-]+)` \| (?P<rows>\d+) \| (?P<atts>\d+) \((?P<num>\d+) / "
                 r"(?P<nom>\d+)\) \| (?P<classes>\d+)[^|]* \| (?P<missing>\d+) \|")


def readme_rows():
    return [m.groupdict() for line in README.read_text().splitlines() if (m := ROW.match(line))]


def test_every_bundled_file_is_documented_and_matches_its_row():
    rows = readme_rows()
    files = {p.name for p in bundled_dir().iterdir() if p.suffix in (".arff", ".csv")}
    assert {r["file"] for r in rows} == files
    assert {"soybean.arff", "iris.arff", "vote.arff", "weather.nominal.arff"} <= files
    for r in rows:
        ds = load_dataset(bundled_dir() / r["file"])
        assert ds.n_rows == int(r["rows"]), r["file"]
        assert ds.n_attributes == int(r["atts"]), r["file"]
        assert int(ds.nominal_mask.sum()) == int(r["nom"]), r["file"]
        assert ds.n_classes == int(r["classes"]), r["file"]
        assert int(ds.missing_mask().sum()) == int(r["missing"]), r["file"]


def test_arff_files_are_the_documented_bytes():
    sums = dict(reversed(m.groups()) for m in
                re.finditer(r"^\s+([0-9a-f]{64})  (\S+)$", README.read_text(), re.M))
    arffs = sorted(p for p in bundled_dir().glob("*.arff"))
    assert sorted(sums) == [p.name for p in arffs]
    for p in arffs:
        assert hashlib.sha256(p.read_bytes()).hexdigest() == sums[p.name], p.name


def test_wine_csv_equals_scikit_learns_wine():
    sk = pytest.importorskip("sklearn.datasets")
    bunch = sk.load_wine()
    ds = load_dataset(bundled_dir() / "wine.csv")
    assert ds.attribute_names == list(bunch.feature_names)
    np.testing.assert_array_equal(ds.numeric_matrix(), bunch.data)
    assert [ds.class_names[c] for c in ds.y] == [f"class_{t}" for t in bunch.target]


def test_find_dataset_by_name(tmp_path):
    assert find_dataset("soybean", [bundled_dir()]) == bundled_dir() / "soybean.arff"
    assert find_dataset("wine", [bundled_dir()]) == bundled_dir() / "wine.csv"
    assert find_dataset("weather.nominal.arff", [bundled_dir()]).name == "weather.nominal.arff"
    assert find_dataset("nothing-like-this", [bundled_dir()]) is None
    # earlier directories win
    (tmp_path / "iris.csv").write_text("a,class\n1,x\n2,y\n")
    assert find_dataset("iris", [tmp_path, bundled_dir()]) == tmp_path / "iris.csv"
    assert locate_dataset("vote") == bundled_dir() / "vote.arff"
    with pytest.raises(DataError, match="no such file"):
        locate_dataset(tmp_path / "absent.arff")
