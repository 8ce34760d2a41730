"""CSV reading and writing on hand-made files and the shared data."""
import numpy as np
import pandas as pd
import pytest

from bayesbench.data import MISSING, load_dataset, write_arff, write_csv


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_csv_types_missing_tokens_and_quoting(tmp_path):
    path = write(tmp_path, "t.csv",
                 "width,colour,count,label\n"
                 "1.5,red,3,yes\n"
                 "?,\"dark, blue\",NA,no\n"
                 ",red,-2e1,yes\n"
                 "4,?,7,no\n")
    ds = load_dataset(path)
    assert [a.kind for a in ds.attributes] == ["numeric", "nominal", "numeric"]
    np.testing.assert_array_equal(ds.columns[0], [1.5, np.nan, np.nan, 4.0])
    assert ds.attributes[1].categories == ("dark, blue", "red")
    assert ds.columns[1].tolist() == [1, 0, 1, MISSING]
    np.testing.assert_array_equal(ds.columns[2], [3, np.nan, -20, 7])
    assert ds.class_names == ("no", "yes") and ds.y.tolist() == [1, 0, 1, 0]


def test_csv_delimiter_override_and_named_numeric_looking_class(tmp_path):
    path = write(tmp_path, "t.csv", "a;grade;b\n1;2;x\n2;1;y\n3;10;x\n")
    ds = load_dataset(path, class_attribute="grade", delimiter=";")
    assert ds.target.name == "grade"
    # a numeric-looking class is nominal, its labels in numeric order
    assert ds.class_names == ("1", "2", "10")
    assert ds.y.tolist() == [1, 0, 2]
    assert ds.attribute_names == ["a", "b"]


def test_csv_matches_pandas_on_sklearn_wine():
    sklearn_data = pytest.importorskip("sklearn.datasets")
    bunch = sklearn_data.load_wine(as_frame=True)
    frame = bunch.frame
    frame["target"] = frame["target"].map({0: "class_0", 1: "class_1", 2: "class_2"})
    import tempfile, pathlib
    with tempfile.TemporaryDirectory() as d:
        path = pathlib.Path(d) / "wine.csv"
        frame.to_csv(path, index=False)
        ds = load_dataset(path)
        again = pd.read_csv(path)
    assert ds.attribute_names == list(frame.columns[:-1])
    np.testing.assert_array_equal(ds.numeric_matrix(), again.iloc[:, :-1].to_numpy())
    assert np.bincount(ds.y).tolist() == [59, 71, 48]


def test_csv_round_trip_keeps_every_value(uci_dir, tmp_path):
    for name in ("imports-85", "house-votes-84", "iris"):
        ds = load_dataset(uci_dir / f"{name}.arff")
        out = tmp_path / f"{name}.csv"
        write_csv(ds, out)
        back = load_dataset(out)
        a, b = ds.to_frame(), back.to_frame()
        assert list(a.columns) == list(b.columns)
        for col in a.columns:
            left, right = a[col], b[col]
            if isinstance(left.dtype, pd.CategoricalDtype):
                assert left.astype(object).where(left.notna(), None).tolist() == \
                    right.astype(object).where(right.notna(), None).tolist(), (name, col)
            else:
                np.testing.assert_array_equal(left.to_numpy(), right.to_numpy())


def test_written_arff_from_csv_reads_back(tmp_path):
    path = write(tmp_path, "t.csv", "x,'odd name',cls\n1,a b,p\n2,c,q\n")
    ds = load_dataset(path)
    write_arff(ds, tmp_path / "t.arff")
    back = load_dataset(tmp_path / "t.arff")
    assert back.attributes == ds.attributes and back.y.tolist() == ds.y.tolist()
