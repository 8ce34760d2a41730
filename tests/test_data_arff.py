"""ARFF reading: values and codes of the UCI files, and the format's corners (every file in
datasets/ against its row in datasets/README.md: tests/data/test_load.py)."""
import numpy as np
import pytest

from bayesbench.data import MISSING, load_dataset, write_arff
from bayesbench.errors import DataError


def test_iris_values_and_codes(uci_dir):
    ds = load_dataset(uci_dir / "iris.arff")
    assert ds.attribute_names == ["sepallength", "sepalwidth", "petallength", "petalwidth"]
    assert ds.class_names == ("Iris-setosa", "Iris-versicolor", "Iris-virginica")
    # first and last data rows of the file
    assert [c[0] for c in ds.columns] == [5.1, 3.5, 1.4, 0.2]
    assert [c[-1] for c in ds.columns] == [5.9, 3.0, 5.1, 1.8]
    assert np.bincount(ds.y).tolist() == [50, 50, 50]


def test_missing_nominal_values_are_minus_one(uci_dir):
    ds = load_dataset(uci_dir / "house-votes-84.arff")
    codes = ds.codes()
    assert (codes == MISSING).sum() == 392
    assert codes.min() == MISSING and codes.max() == 1
    frame = ds.to_frame()
    assert int(frame.iloc[:, :-1].isna().sum().sum()) == 392


def test_named_class_attribute(uci_dir):
    ds = load_dataset(uci_dir / "weather-nominal.arff", class_attribute="outlook")
    assert ds.target.name == "outlook"
    assert ds.attribute_names == ["temperature", "humidity", "windy", "play"]


TRICKY = """% a comment before the header
@relation 'tricky relation'

@attribute 'petal length' numeric
@attribute count integer
@attribute 'colour name' {'light red', "dark blue", green}
% a comment between declarations
@attribute weight REAL
@attribute class {'yes', no}

@data
% a comment inside the data
1.5, 3, 'light red', 2.25, 'yes'
?,4,"dark blue",?,no
 2.0 , ? , green , 1e3 , yes
3,5.5,?,0.5,no
"""


def test_quotes_comments_missing_and_types(tmp_path):
    path = tmp_path / "tricky.arff"
    path.write_text(TRICKY)
    ds = load_dataset(path)
    assert ds.attribute_names == ["petal length", "count", "colour name", "weight"]
    assert [a.kind for a in ds.attributes] == ["numeric", "numeric", "nominal", "numeric"]
    assert ds.attributes[2].categories == ("light red", "dark blue", "green")
    np.testing.assert_array_equal(ds.columns[0], [1.5, np.nan, 2.0, 3.0])
    # an integer attribute is numeric, its values kept as written (Weka does not truncate 5.5)
    np.testing.assert_array_equal(ds.columns[1], [3, 4, np.nan, 5.5])
    assert ds.columns[2].tolist() == [0, 1, 2, MISSING]
    np.testing.assert_array_equal(ds.columns[3], [2.25, np.nan, 1000.0, 0.5])
    assert ds.y.tolist() == [0, 1, 0, 1]


def test_crlf_line_endings(tmp_path):
    path = tmp_path / "crlf.arff"
    path.write_bytes(TRICKY.replace("\n", "\r\n").encode())
    lf = tmp_path / "lf.arff"
    lf.write_text(TRICKY)
    a, b = load_dataset(path), load_dataset(lf)
    assert a.attribute_names == b.attribute_names
    for x, y in zip(a.columns, b.columns):
        np.testing.assert_array_equal(x, y)


def test_sparse_rows(tmp_path):
    path = tmp_path / "sparse.arff"
    path.write_text("@relation s\n@attribute a numeric\n@attribute b numeric\n"
                    "@attribute c {x,y,z}\n@attribute class {p,q}\n@data\n"
                    "{0 1.5, 2 z, 3 q}\n{1 2}\n{0 ?, 3 q}\n")
    ds = load_dataset(path)
    # an absent sparse value is 0 (numeric) or the first category (nominal), as in Weka
    np.testing.assert_array_equal(ds.columns[0], [1.5, 0.0, np.nan])
    np.testing.assert_array_equal(ds.columns[1], [0.0, 2.0, 0.0])
    assert ds.columns[2].tolist() == [2, 0, 0]
    assert ds.y.tolist() == [1, 0, 1]


def test_string_attribute_becomes_nominal_with_a_note(tmp_path):
    path = tmp_path / "str.arff"
    path.write_text("@relation s\n@attribute word string\n@attribute class {p,q}\n@data\n"
                    "b,p\na,q\n?,p\nb,q\n")
    ds = load_dataset(path)
    assert ds.attributes[0].categories == ("b", "a")
    assert ds.columns[0].tolist() == [0, 1, MISSING, 0]
    assert any("string attribute 'word'" in n for n in ds.notes)


def test_date_attribute_is_refused_with_its_name_and_line(tmp_path):
    path = tmp_path / "date.arff"
    path.write_text("@relation s\n@attribute when date 'yyyy-MM-dd'\n@attribute class {p,q}\n"
                    "@data\n2020-01-01,p\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}:2: ") and "'when'" in msg and "date" in msg


def test_rows_with_missing_class_are_dropped_and_noted(tmp_path):
    path = tmp_path / "mc.arff"
    path.write_text("@relation s\n@attribute a numeric\n@attribute class {p,q}\n@data\n"
                    "1,p\n2,?\n3,q\n4,?\n5,p\n")
    ds = load_dataset(path)
    assert ds.n_rows == 3
    np.testing.assert_array_equal(ds.columns[0], [1, 3, 5])
    assert ds.notes == ["dropped 2 rows whose class 'class' is missing"]


def test_write_arff_round_trip(uci_dir, tmp_path):
    for name in ("imports-85.arff", "house-votes-84.arff", "lenses.arff"):
        ds = load_dataset(uci_dir / name)
        out = tmp_path / name
        write_arff(ds, out)
        back = load_dataset(out)
        assert back.attributes == ds.attributes and back.target == ds.target
        np.testing.assert_array_equal(back.y, ds.y)
        for x, y in zip(back.columns, ds.columns):
            np.testing.assert_array_equal(x, y)


def test_write_arff_quotes_awkward_names(tmp_path):
    path = tmp_path / "tricky.arff"
    path.write_text(TRICKY)
    ds = load_dataset(path)
    out = tmp_path / "out.arff"
    write_arff(ds, out)
    back = load_dataset(out)
    assert back.attributes == ds.attributes
    for x, y in zip(back.columns, ds.columns):
        np.testing.assert_array_equal(x, y)
