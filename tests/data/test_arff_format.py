"""ARFF reading: values and codes of the UCI files, and the format's corners (every file in
datasets/ against its row in datasets/README.md: tests/data/test_load.py)."""
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    # dates are read (see below); a format letter we cannot translate is refused
    path = tmp_path / "date.arff"
    path.write_text("@relation s\n@attribute when date 'yyyy-MM-dd G'\n@attribute class {p,q}\n"
                    "@data\n2020-01-01 AD,p\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}:2: ") and "'when'" in msg and "date" in msg


def _millis(*args, tz=timezone.utc):
    return datetime(*args, tzinfo=tz).timestamp() * 1000


def test_dates_read_as_weka_stores_them_milliseconds_since_1970(tmp_path):
    path = tmp_path / "dates.arff"
    path.write_text("@relation s\n"
                    "@attribute iso date\n"  # Weka's default yyyy-MM-dd'T'HH:mm:ss
                    "@attribute day DATE 'dd/MM/yyyy'\n"
                    "@attribute stamp date \"yyyy-MM-dd HH:mm:ss Z\"\n"
                    "@attribute class {p,q}\n@data\n"
                    "2020-01-02T03:04:05,31/12/1999,'2001-04-03 12:12:12 +0200',p\n"
                    "?,01/01/1970,?,q\n")
    ds = load_dataset(path)
    assert [a.kind for a in ds.attributes] == ["numeric"] * 3
    np.testing.assert_array_equal(ds.columns[0], [_millis(2020, 1, 2, 3, 4, 5), np.nan])
    np.testing.assert_array_equal(ds.columns[1], [_millis(1999, 12, 31), 0.0])
    plus2 = timezone(timedelta(hours=2))
    np.testing.assert_array_equal(ds.columns[2], [_millis(2001, 4, 3, 12, 12, 12, tz=plus2),
                                                  np.nan])
    assert "date attribute 'iso' read as numeric: milliseconds since 1970-01-01 00:00 UTC" \
        in ds.notes
    bad = tmp_path / "baddate.arff"
    bad.write_text("@relation s\n@attribute d date 'yyyy-MM-dd'\n@attribute class {p,q}\n"
                   "@data\n2020-01-01,p\n2020-13-45,q\n")
    with pytest.raises(DataError) as err:
        load_dataset(bad)
    assert str(err.value).startswith(f"{bad}:6: ") and "does not match its format" in str(err.value)


def test_numeric_types_followed_by_a_range_as_in_public_uci_copies(tmp_path):
    # Weka 3.6 ignores whatever follows numeric/real/integer on the line
    path = tmp_path / "zoo.arff"
    path.write_text("@relation zoo\n@attribute legs INTEGER [0,9]\n@attribute w REAL [0.0,1.0)\n"
                    "@attribute n numeric (-inf, inf)\n@attribute class {p,q}\n@data\n"
                    "4,0.5,-1,p\n2,1,3.5,q\n")
    ds = load_dataset(path)
    assert [a.kind for a in ds.attributes] == ["numeric"] * 3
    np.testing.assert_array_equal(ds.numeric_matrix(), [[4, 0.5, -1], [2, 1, 3.5]])


def test_quoted_and_escaped_names_tabs_and_trailing_comments(tmp_path):
    path = tmp_path / "names.arff"
    path.write_text("@relation\t'r 1'\n"
                    "@attribute 'it\\'s' numeric % a comment after the type\n"
                    "@attribute\t\"x y\"\tnumeric\n"
                    "@attribute 'tab\\there' {a, 'b c'} % nominal, then a comment\n"
                    "@attribute '50%' numeric\n"
                    "@attribute 'back\\\\slash' numeric\n"
                    "@attribute class {p,q}\n@data\n"
                    "1,2,a,3,4,p % a comment after a row\n"
                    "5,6,'b c',7,8,q\n")
    ds = load_dataset(path)
    assert ds.attribute_names == ["it's", "x y", "tab\there", "50%", "back\\slash"]
    assert ds.attributes[2].categories == ("a", "b c")
    np.testing.assert_array_equal(ds.columns[0], [1, 5])
    assert ds.columns[2].tolist() == [0, 1] and ds.y.tolist() == [0, 1]


def test_a_nominal_attribute_without_categories_is_refused_at_load(tmp_path):
    path = tmp_path / "empty-nominal.arff"
    path.write_text("@relation r\n@attribute a numeric\n@attribute b {}\n@attribute class {x,y}\n"
                    "@data\n1,?,x\n2,?,y\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value) == (f"{path}:3: attribute 'b': declares no categories ({{}}); a "
                              "nominal attribute needs at least one")


def test_nan_is_missing_and_inf_a_number(tmp_path):
    path = tmp_path / "inf.arff"
    path.write_text("@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n"
                    "NaN,x\nnan,y\ninf,x\n-Infinity,y\n1e400,x\n")
    ds = load_dataset(path)
    np.testing.assert_array_equal(ds.columns[0], [np.nan, np.nan, np.inf, -np.inf, np.inf])


def test_a_name_declared_twice_is_refused_with_both_lines(tmp_path):
    path = tmp_path / "twice.arff"
    path.write_text("@relation r\n@attribute a numeric\n@attribute a numeric\n"
                    "@attribute class {x,y}\n@data\n1,2,x\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value) == f"{path}:3: attribute 'a': the name is declared twice (first on line 2)"


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


# ------------------------------------------------ the data section read block by block
def _read_both(path, monkeypatch, block_bytes):
    """The file read whole by liac-arff (the reference), and in blocks of ``block_bytes``."""
    from bayesbench.data import arff_format

    whole = _outcome(lambda: arff_format.read_arff(path, engine="python"))
    monkeypatch.setattr(arff_format, "BLOCK_BYTES", block_bytes)
    return whole, _outcome(lambda: arff_format.read_arff(path))


def _outcome(read):
    try:
        return read()
    except DataError as exc:
        return str(exc)


def _assert_same(a, b):
    assert not isinstance(a, str) and not isinstance(b, str), (a, b)
    assert (a.attributes, a.target, a.notes) == (b.attributes, b.target, b.notes)
    np.testing.assert_array_equal(a.y, b.y)
    for att, x, y in zip(a.attributes, a.columns, b.columns):
        assert x.dtype == y.dtype, att.name
        np.testing.assert_array_equal(x, y, err_msg=att.name)


def test_every_shared_arff_read_in_small_blocks_is_read_as_row_by_row(uci_dir, monkeypatch):
    for path in sorted(uci_dir.glob("*.arff")):
        _assert_same(*_read_both(path, monkeypatch, 1 << 16))


def test_blocks_keep_strings_in_order_of_appearance_dates_and_sparse_rows(tmp_path,
                                                                           monkeypatch):
    rows = [f"w{(i * 7) % 13},2001-01-{1 + i % 28:02d},{'?' if i % 5 == 0 else i % 3},"
            f"{'ab'[i % 2]}" for i in range(600)]
    path = tmp_path / "mixed.arff"
    path.write_text("@relation r\n@attribute s string\n@attribute d date 'yyyy-MM-dd'\n"
                    "@attribute x numeric\n@attribute c {a,b}\n@data\n" + "\n".join(rows) + "\n")
    whole, blocks = _read_both(path, monkeypatch, 256)
    _assert_same(whole, blocks)
    sparse = tmp_path / "sparse.arff"
    sparse.write_text("@relation r\n@attribute x numeric\n@attribute y {p,q}\n@attribute c {a,b}"
                      "\n@data\n" + "".join(f"{{0 {i % 4}, 2 {'ab'[i % 2]}}}\n" if i % 3 else
                                            f"{i % 4},q,{'ab'[i % 2]}\n" for i in range(500)))
    _assert_same(*_read_both(sparse, monkeypatch, 300))


@pytest.mark.parametrize("bad, message", [
    ("4.5,zz", "not a valid ARFF file: "),
    ("4.5x,a", "not a valid ARFF file: a value of a numeric attribute is not a number "
               "(line: '4.5x,a')"),
    ("4.5,\xff", "not a valid ARFF file: "),
])
def test_an_error_in_a_later_block_names_its_file_line(tmp_path, monkeypatch, bad, message):
    rows = [f"{i % 7}.5,{'ab'[i % 2]}" for i in range(5000)]
    rows[3999] = bad  # file line 4 header lines + 4000, in the ~100th block of 256 bytes
    path = tmp_path / "big.arff"
    path.write_text("@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n"
                    + "% a comment line\n\n" + "\n".join(rows) + "\n")
    whole, blocks = _read_both(path, monkeypatch, 256)
    assert isinstance(whole, str) and whole == blocks
    assert blocks.startswith(f"{path}:4006: {message}")


def test_a_bad_byte_in_a_later_block_names_its_line(tmp_path, monkeypatch):
    rows = b"".join(b"1.5,a\n" for _ in range(2000))
    path = tmp_path / "latin.arff"
    path.write_bytes(b"@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n" + rows
                     + b"2.5,\xe9\n" + rows)
    whole, blocks = _read_both(path, monkeypatch, 512)
    assert whole == blocks and blocks.startswith(f"{path}:2005: not UTF-8 text: byte 0xe9")


def test_the_c_reader_is_given_one_block_at_a_time_never_the_whole_file(tmp_path,
                                                                        monkeypatch):
    from bayesbench.data import arff_format, c_reader

    path = tmp_path / "many.arff"
    path.write_text("@relation r\n@attribute x {u,v,w}\n@attribute c {a,b}\n@data\n"
                    + "".join(f"{'uvw'[i % 3]},{'ab'[i % 2]}\n" for i in range(20000)))
    seen = []
    dense = c_reader.arff_dense
    monkeypatch.setattr(c_reader, "arff_dense", lambda data, header: seen.append(len(data))
                        or dense(data, header))
    monkeypatch.setattr(arff_format, "read_bytes", None)  # the whole file is never read
    monkeypatch.setattr(arff_format, "BLOCK_BYTES", 4096)
    ds = arff_format.read_arff(path)
    assert ds.n_rows == 20000 and max(seen) <= 4096 and sum(seen) == 20000 * 4
    assert ds.columns[0].dtype == np.int8  # coded at once into the compact type


# ------------------------------------------- the writer quotes what the reader accepts (issue 25)

_TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(names=st.lists(_TEXTS, min_size=2, max_size=2, unique=True),
       values=st.lists(_TEXTS, min_size=2, max_size=4, unique=True),
       classes=st.lists(st.text("xyz \n'\",%{}\\\u2028\x0b", min_size=1, max_size=4),
                        min_size=2, max_size=3, unique=True))
def test_write_arff_reads_back_whatever_names_and_values(tmp_path_factory, names, values,
                                                         classes):
    """discretize -o and write_arff wrote values with line breaks or quotes they could not
    read back."""
    from bayesbench.data.dataset import Attribute, Dataset

    n = 6
    ds = Dataset("r", [Attribute(names[0], "nominal", tuple(values))],
                 [np.arange(n) % len(values) - (np.arange(n) == 0)],  # one value missing
                 Attribute(names[1], "nominal", tuple(classes)), np.arange(n) % len(classes))
    path = tmp_path_factory.mktemp("w") / "t.arff"
    write_arff(ds, path)
    back = load_dataset(path)
    assert back.attribute_names == [names[0]] and back.target.name == names[1]
    assert back.attributes[0].categories == tuple(values)
    assert back.class_names == tuple(classes)
    np.testing.assert_array_equal(back.columns[0], ds.columns[0])
    np.testing.assert_array_equal(back.y, ds.y)
