"""CSV reading and writing on hand-made files and the shared data."""
import numpy as np
import pandas as pd
import pytest

from bayesbench.data import MISSING, Attribute, load_dataset, write_arff, write_csv
from bayesbench.errors import DataError


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


@pytest.mark.parametrize("sep", [";", "\t"])
def test_semicolon_and_tab_are_detected(tmp_path, sep):
    # a semicolon file used to be read as one column that became the class (accuracy 0)
    path = write(tmp_path, "t.csv", sep.join(["a", "b", "label"]) + "\n"
                 + "\n".join(sep.join(r) for r in [["1,5", "x", "p"], ["2", "y", "q"]]) + "\n")
    ds = load_dataset(path)
    assert ds.attribute_names == ["a", "b"] and ds.target.name == "label"
    assert ds.attributes[0].categories == ("1,5", "2")  # a decimal comma is text
    assert ds.class_names == ("p", "q")


def test_a_file_that_reads_as_one_column_is_refused_with_a_hint(tmp_path):
    path = write(tmp_path, "pipes.csv", "a|b|label\n1|2|p\n3|4|q\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value) == (f"{path}: the header reads as a single column ('a|b|label') with a "
                              "comma, semicolon or tab as delimiter, leaving no attribute besides "
                              "the class; set the file's delimiter")
    with pytest.raises(DataError, match="with the delimiter ';'"):
        load_dataset(path, delimiter=";")
    assert load_dataset(path, delimiter="|").attribute_names == ["a", "b"]


def test_nan_is_missing_and_inf_a_number_in_a_numeric_column(tmp_path):
    # one NaN or inf token used to turn the column nominal
    path = write(tmp_path, "t.csv", "x,y,label\n1.5,NaN,p\ninf,2,q\n-Infinity,nan,p\n?,NA,q\n")
    ds = load_dataset(path)
    assert [a.kind for a in ds.attributes] == ["numeric", "numeric"]
    np.testing.assert_array_equal(ds.columns[0], [1.5, np.inf, -np.inf, np.nan])
    np.testing.assert_array_equal(ds.columns[1], [np.nan, 2.0, np.nan, np.nan])


@pytest.mark.parametrize("category", ["?", "NA", "nan", ""])
def test_write_csv_refuses_a_category_that_would_read_back_as_missing(tmp_path, category):
    ds = load_dataset(write(tmp_path, "t.csv", "c,label\na,p\nb,q\n"))
    odd = Attribute("c", "nominal", ("a", category))
    ds = ds.with_columns([odd], ds.columns)
    with pytest.raises(DataError) as err:
        write_csv(ds, tmp_path / "out.csv")
    assert str(err.value).startswith(f"attribute 'c': the category {category!r} would read back")
    assert not (tmp_path / "out.csv").exists()


# ------------------------------------------------ the body read block by block
def _both(path, monkeypatch, block_bytes):
    """The file read by the csv module (the reference), and by the C reader in blocks."""
    from bayesbench.data import csv_format

    whole = csv_format.read_csv(path, engine="python")
    monkeypatch.setattr(csv_format, "BLOCK_BYTES", block_bytes)
    return whole, csv_format.read_csv(path)


def _same(a, b):
    assert (a.attributes, a.target, a.notes) == (b.attributes, b.target, b.notes)
    np.testing.assert_array_equal(a.y, b.y)
    for att, x, y in zip(a.attributes, a.columns, b.columns):
        assert x.dtype == y.dtype, att.name
        np.testing.assert_array_equal(x, y, err_msg=att.name)


def test_blocks_give_the_csv_modules_reading_quoted_line_breaks_and_late_missing_values(
        tmp_path, monkeypatch):
    from bayesbench.data import c_reader

    rows = [f'{i % 7}.25,"w {i % 5},\nnext",{"?" if i == 700 else i % 3 + 0.5},{"ab"[i % 2]}'
            for i in range(900)]
    path = tmp_path / "q.csv"
    path.write_text("x,text,late,class\n" + "\n".join(rows) + "\n")
    seen = []
    csv_columns = c_reader.csv_columns
    monkeypatch.setattr(c_reader, "csv_columns", lambda body, *a: seen.append(len(body))
                        or csv_columns(body, *a))
    whole, blocks = _both(path, monkeypatch, 1000)
    _same(whole, blocks)
    assert blocks.attributes[2].kind == "numeric" and np.isnan(blocks.columns[2][700])
    # read in blocks, then whole: 'late' reads as numbers in some blocks only
    assert len(seen) > 5 and max(seen[:-1]) < 5000 and seen[-1] == len(path.read_bytes()) - 18
    seen.clear()
    path.write_text("x,text,class\n" + "".join(f'{i % 7}.25,"w,\n{i % 5}",{"ab"[i % 2]}\n'
                                               for i in range(900)))
    whole, blocks = _both(path, monkeypatch, 1000)
    _same(whole, blocks)
    assert len(seen) > 5 and max(seen) < 5000 and sum(seen) == len(path.read_bytes()) - 13
