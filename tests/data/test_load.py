"""Finding data sets by name, and the data the checkout ships: every file in ``datasets/`` and
``bayesbench/datasets/`` against its row and checksum in datasets/README.md, the search order,
and ``list_datasets`` / ``describe_dataset`` against the README and published summaries."""
import hashlib
from pathlib import Path

import numpy as np
import pytest

from bayesbench.data import (DATA_ENV, bundled_dir, checkout_dir, describe_dataset, find_dataset,
                             list_datasets, load_dataset, locate_dataset, search_dirs,
                             search_path)
from bayesbench.data.names import canonical
from bayesbench.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
DIRS = {"checkout": ROOT / "datasets", "bundled": bundled_dir()}


@pytest.fixture
def no_env(monkeypatch):
    monkeypatch.delenv(DATA_ENV, raising=False)


def data_files(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir() if p.suffix in (".arff", ".csv")}


@pytest.mark.parametrize("where", DIRS)
def test_every_file_is_documented_and_matches_its_row(datasets_readme, where):
    rows = datasets_readme[where]
    assert {r["file"] for r in rows} == data_files(DIRS[where])
    for row in rows:
        ds = load_dataset(DIRS[where] / row["file"])
        assert ds.n_rows == int(row["rows"]), row["file"]
        assert ds.n_attributes == int(row["atts"]), row["file"]
        assert int((~ds.nominal_mask).sum()) == int(row["num"]), row["file"]
        assert int(ds.nominal_mask.sum()) == int(row["nom"]), row["file"]
        assert ds.target.name == row["cls"], row["file"]
        assert np.unique(ds.y).size == int(row["classes"]), row["file"]
        assert ds.n_classes == int(row["declared"] or row["classes"]), row["file"]
        mask = ds.missing_mask()
        if row["missing"] == "no":
            assert not mask.any(), row["file"]
        else:
            assert int(mask.sum()) == int(row["cells"]), row["file"]
            assert int(mask.any(axis=1).sum()) == int(row["mrows"]), row["file"]


@pytest.mark.parametrize("where", DIRS)
def test_files_are_the_documented_bytes(datasets_readme, where):
    sums = datasets_readme["sha256"][where]
    assert set(sums) == data_files(DIRS[where])
    for name, digest in sums.items():
        assert hashlib.sha256((DIRS[where] / name).read_bytes()).hexdigest() == digest, name


def test_the_papers_data_sets_are_all_shipped():
    # Table 1 of paper 002 (the four added last: balance-scale, lymphography, primary-tumor,
    # tic-tac-toe), hepatitis of paper 001 and mushroom of paper 004.
    for name in ("balance-scale", "lymphography", "primary-tumor", "tic-tac-toe", "hepatitis",
                 "mushroom"):
        assert (ROOT / "datasets" / f"{name}.arff").is_file(), name


def test_wine_csv_equals_scikit_learns_wine():
    from sklearn.datasets import load_wine
    bunch = load_wine()
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
    # within a directory: the exact name, then .arff, .csv, .libsvm, .svm
    (tmp_path / "s.svm").write_text("1:0 x\n")
    assert find_dataset("s", [tmp_path]) == tmp_path / "s.svm"
    (tmp_path / "s.libsvm").write_text("1:0 x\n")
    assert find_dataset("s", [tmp_path]) == tmp_path / "s.libsvm"
    (tmp_path / "s.csv").write_text("a,class\n1,x\n")
    assert find_dataset("s", [tmp_path]) == tmp_path / "s.csv"
    (tmp_path / "s").write_text("a,class\n1,x\n")
    assert find_dataset("s", [tmp_path]) == tmp_path / "s"


def test_load_dataset_takes_a_name_when_no_such_file_exists(tmp_path, no_env, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_dataset("car").source == load_dataset(ROOT / "datasets" / "car.arff").source
    (tmp_path / "car.csv").write_text("a,class\n1,x\n2,y\n")
    assert load_dataset("car.csv").n_rows == 2           # an existing file wins over a name
    with pytest.raises(DataError, match="^absent.arff: no such file, nor a data set"):
        load_dataset("absent.arff")


def test_locate_dataset(tmp_path, no_env):
    # An alias finds its canonical data set's file (the checkout's, which comes first).
    assert locate_dataset("vote") == ROOT / "datasets" / "house-votes-84.arff"
    assert locate_dataset("car") == ROOT / "datasets" / "car.arff"
    with pytest.raises(DataError, match="no such file") as info:
        locate_dataset(tmp_path / "absent.arff")
    assert str(ROOT / "datasets") in str(info.value) and str(bundled_dir()) in str(info.value)


def test_search_order_is_data_dirs_environment_checkout_bundled(tmp_path, monkeypatch):
    first, second, env1, env2 = (tmp_path / n for n in ("first", "second", "env1", "env2"))
    monkeypatch.setenv(DATA_ENV, f"{env1}:{env2}")
    # The working directory does not matter: the checkout is the one the package comes from.
    monkeypatch.chdir(tmp_path)
    assert checkout_dir() == ROOT / "datasets"
    assert search_path([first, second]) == [
        ("data_dirs", first), ("data_dirs", second), (DATA_ENV, env1), (DATA_ENV, env2),
        ("checkout", ROOT / "datasets"), ("bundled", bundled_dir())]
    assert search_dirs([first]) == [first, env1, env2, ROOT / "datasets", bundled_dir()]
    # A name in an earlier directory hides the same name later on.
    env1.mkdir()
    (env1 / "car.csv").write_text("a,class\n1,x\n2,y\n")
    assert locate_dataset("car") == env1 / "car.csv"
    first.mkdir()
    (first / "car.arff").write_text("@relation r\n@attribute class {x,y}\n@data\nx\ny\n")
    assert locate_dataset("car", [first]) == first / "car.arff"


def test_list_datasets_agrees_with_the_readme(datasets_readme, no_env):
    entries = {e.name: e for e in list_datasets()}
    expected = {}
    for where in ("bundled", "checkout"):       # a checkout file hides a bundled one
        for row in datasets_readme[where]:
            expected[Path(row["file"]).stem] = (where, row)
    assert set(entries) == set(expected)
    for name, (where, row) in expected.items():
        entry = entries[name]
        # An alias lists the file of its canonical data set (bayesbench/data/names.py).
        where, file = expected[canonical(name)][0], expected[canonical(name)][1]["file"]
        assert (entry.origin, entry.path) == (where, DIRS[where] / file), name
        c = entry.counts
        assert (c.n_rows, c.n_attributes, c.n_numeric, c.n_nominal, c.class_attribute) == (
            int(row["rows"]), int(row["atts"]), int(row["num"]), int(row["nom"]), row["cls"])
        assert (c.classes_present, c.n_classes) == (
            int(row["classes"]), int(row["declared"] or row["classes"])), name
        assert (c.missing_cells, c.missing_rows) == (
            (0, 0) if row["missing"] == "no" else (int(row["cells"]), int(row["mrows"]))), name
    hidden = {name: [p.name for p in e.hidden] for name, e in entries.items() if e.hidden}
    # vote: the bundled copy, hidden by the checkout's house-votes-84.arff (its canonical name)
    assert hidden == {"iris": ["iris.arff"], "glass": ["glass.arff"], "wine": ["wine.csv"],
                      "vote": ["vote.arff"]}
    assert all(e.hidden[0].parent == bundled_dir() for e in entries.values() if e.hidden)


def test_list_datasets_reports_an_unreadable_file_and_goes_on(tmp_path, no_env):
    (tmp_path / "broken.arff").write_text("@relation r\n@attribute a numeric\n@data\n1\n")
    (tmp_path / "notes.txt").write_text("not a data set")
    entries = {e.name: e for e in list_datasets([tmp_path])}
    assert "notes" not in entries
    broken = entries["broken"]
    assert broken.origin == "data_dirs" and broken.counts is None and "broken.arff" in broken.error
    assert entries["car"].counts.n_rows == 1728


def test_describe_iris_against_the_uci_summary_statistics(no_env):
    # iris.names (UCI): min, max and mean of each attribute; 50 rows of each class.
    d = describe_dataset("iris")
    assert d.entry.origin == "checkout" and d.entry.path == ROOT / "datasets" / "iris.arff"
    published = [(4.3, 7.9, 5.84), (2.0, 4.4, 3.05), (1.0, 6.9, 3.76), (0.1, 2.5, 1.20)]
    assert [a.kind for a in d.attributes] == ["numeric"] * 4
    for a, (lo, hi, mean) in zip(d.attributes, published):
        assert (a.minimum, a.maximum, a.missing) == (lo, hi, 0)
        assert abs(a.mean - mean) < 0.0051
    assert d.class_counts == (("Iris-setosa", 50), ("Iris-versicolor", 50),
                              ("Iris-virginica", 50))


def test_describe_car_and_a_file_given_by_path(no_env):
    # car.names (UCI): class distribution unacc 1210, acc 384, good 69, v-good 65.
    d = describe_dataset(ROOT / "datasets" / "car.arff")
    assert d.entry.origin == "path"
    assert dict(d.class_counts) == {"unacc": 1210, "acc": 384, "good": 69, "vgood": 65}
    assert [(a.name, a.kind, a.categories) for a in d.attributes][:2] == [
        ("buying", "nominal", ("vhigh", "high", "med", "low")),
        ("maint", "nominal", ("vhigh", "high", "med", "low"))]
    # glass declares a class that never occurs: it is listed with no rows.
    assert ("vehic wind non-float", 0) in describe_dataset("glass").class_counts
    assert sum(a.missing for a in describe_dataset("labor").attributes) == 326
