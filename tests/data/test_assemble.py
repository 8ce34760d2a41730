"""Class labels equal as numbers are one class, in every reader (issue 25, class 1).

The reference for "equal as numbers" is Python's exact ``fractions.Fraction`` of each
spelling; scikit-learn's ``load_svmlight_file`` (libsvm) and Weka's CSV loader with
``NumericToNominal`` (CSV) are the outside readers that read one class.
"""
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayesbench.data import load_dataset
from bayesbench.data.chunks import chunks, scan
from bayesbench.data.tokens import canonical_number
from bayesbench.errors import DataError

WEKA_JAR = Path("/usr/share/java/weka.jar")
PROPERTY = settings(max_examples=25, deadline=None, derandomize=True, database=None)


def spellings(value: Fraction) -> list[str]:
    """Ways a data file may write ``value`` (an integer or a half)."""
    plain = str(int(value)) if value.denominator == 1 else repr(float(value))
    out = [plain, f"{plain}e0", f"{float(value)}0", f"{float(value)}"]
    if value >= 0:
        out += [f"+{plain}", f"0{plain}"]
    if value == 0:
        out.append("-0")
    return out


def reference_name(value: Fraction) -> str:
    """The canonical spelling, as Weka's NumericToNominal names a number's class."""
    return str(int(value)) if value.denominator == 1 else repr(float(value))


#: A class column: rows of (value, spelling index), at least two distinct values.
columns = st.lists(
    st.tuples(st.integers(-4, 8).map(lambda n: Fraction(n, 2)), st.integers(0, 6)),
    min_size=4, max_size=30).filter(lambda rows: len({v for v, _ in rows}) >= 2)


def texts(rows) -> list[str]:
    return [spellings(v)[i % len(spellings(v))] for v, i in rows]


def expected(rows) -> tuple[list[str], int]:
    """Each row's class name and the number of classes, by exact arithmetic."""
    return [reference_name(v) for v, _ in rows], len({v for v, _ in rows})


def names(ds) -> list[str]:
    return [ds.class_names[c] for c in ds.y]


@PROPERTY
@given(columns)
def test_csv_labels_equal_as_numbers_are_one_class(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_text("a,c\n" + "".join(f"x{r % 2},{t}\n" for r, t in enumerate(texts(rows))))
    ds = load_dataset(path)
    want, n = expected(rows)
    assert names(ds) == want and ds.n_classes == n
    assert list(ds.class_names) == sorted(set(want), key=Fraction)


@PROPERTY
@given(columns)
def test_libsvm_labels_as_scikit_learn_reads_them(tmp_path_factory, rows):
    from sklearn.datasets import load_svmlight_file

    path = tmp_path_factory.mktemp("svm") / "t.libsvm"
    path.write_text("".join(f"{t} 1:{r}\n" for r, t in enumerate(texts(rows))))
    ds = load_dataset(path)
    _, y = load_svmlight_file(str(path))
    assert ds.n_classes == np.unique(y).size == expected(rows)[1]
    assert [float(n) for n in names(ds)] == y.tolist()
    assert names(ds) == expected(rows)[0]


@PROPERTY
@given(columns)
def test_arff_declared_labels_equal_as_numbers_are_one_class(tmp_path_factory, rows):
    spelled = texts(rows)
    declared = list(dict.fromkeys(spelled))
    path = tmp_path_factory.mktemp("arff") / "t.arff"
    path.write_text("@relation t\n@attribute a {x0,x1}\n"
                    f"@attribute c {{{','.join(declared)}}}\n@data\n"
                    + "".join(f"x{r % 2},{t}\n" for r, t in enumerate(spelled)))
    ds = load_dataset(path)
    want, n = expected(rows)
    assert names(ds) == want and ds.n_classes == n
    # the classes keep the declared order of their first spelling
    firsts = list(dict.fromkeys(canonical_number(t) for t in declared))
    assert list(ds.class_names) == firsts


@PROPERTY
@given(columns, st.integers(1, 3))
def test_chunked_csv_reads_the_classes_of_the_whole_file(tmp_path_factory, rows, n_files):
    directory = tmp_path_factory.mktemp("parts")
    lines = [f"x{r % 2},{t}\n" for r, t in enumerate(texts(rows))]
    for i, part in enumerate(np.array_split(np.arange(len(lines)), n_files)):
        (directory / f"{i}.csv").write_text("a,c\n" + "".join(lines[j] for j in part))
    source = scan(directory, chunk_rows=3)
    got = [source.class_names[c] for i in range(n_files) for _, _, y in chunks(source, i, 3)
           for c in y]
    want, n = expected(rows)
    assert got == want and source.n_classes == n


@PROPERTY
@given(columns)
def test_chunked_arff_merges_declared_labels_as_read_whole(tmp_path_factory, rows):
    spelled = texts(rows)
    path = tmp_path_factory.mktemp("arffparts") / "t.arff"
    path.write_text("@relation t\n@attribute a {x0,x1}\n"
                    f"@attribute c {{{','.join(dict.fromkeys(spelled))}}}\n@data\n"
                    + "".join(f"x{r % 2},{t}\n" for r, t in enumerate(spelled)))
    source = scan(str(path.parent / "*.arff"), chunk_rows=4)
    got = [source.class_names[c] for _, _, y in chunks(source, 0, 4) for c in y]
    assert got == expected(rows)[0]
    assert source.class_names == load_dataset(path).class_names


def test_parquet_integer_class_with_nulls_reads_as_integers(tmp_path):
    """pandas reads an integer Parquet column with nulls as floats (1.0): still class 1."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for d in ("nulls", "full"):
        (tmp_path / d).mkdir()
    cls = [1, 2, None, 2, 1, 1]
    pq.write_table(pa.table({"a": ["x", "y", "x", "y", "x", "y"],
                             "c": pa.array(cls, pa.int64())}), tmp_path / "nulls" / "0.parquet")
    pq.write_table(pa.table({"a": ["x", "y", "x", "y", "x", "y"],
                             "c": pa.array([c if c else 2 for c in cls], pa.int64())}),
                   tmp_path / "full" / "0.parquet")
    with_nulls, full = scan(tmp_path / "nulls"), scan(tmp_path / "full")
    assert with_nulls.class_names == full.class_names == ("1", "2")
    (_, _, y), = chunks(with_nulls, 0)
    assert [with_nulls.class_names[c] for c in y] == ["1", "2", "2", "1", "1"]


def test_weka_reads_the_same_classes_from_csv(tmp_path):
    """Weka 3's CSV loader reads the column as numbers; NumericToNominal names the classes."""
    path = tmp_path / "t.csv"
    path.write_text("a,c\nx,1\ny,1.0\nx,+1\ny,2\nx,2.00\ny,0.50\nx,.5\n")
    out = subprocess.run(["java", "-cp", str(WEKA_JAR),
                          "weka.filters.unsupervised.attribute.NumericToNominal", "-R", "last",
                          "-i", str(path)], capture_output=True, text=True, check=True).stdout
    declared = next(line for line in out.splitlines() if line.startswith("@attribute c"))
    weka_classes = declared.split("{", 1)[1].rstrip("}").split(",")
    weka_rows = [line.split(",")[1] for line in out.split("@data", 1)[1].split()]
    ds = load_dataset(path)
    assert sorted(ds.class_names, key=float) == sorted(weka_classes, key=float)
    assert names(ds) == weka_rows


def test_labels_of_one_number_only_are_one_class_and_refused(tmp_path):
    path = tmp_path / "t.libsvm"
    path.write_text("1 1:0\n1.0 1:1\n+1 1:2\n")
    with pytest.raises(DataError, match=r"the class takes a single value \('1'\)"):
        load_dataset(path)


def test_a_changed_spelling_is_noted(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,c\nx,1.0\ny,2\nx,1\n")
    ds = load_dataset(path)
    assert "class labels read as numbers: '1.0' as '1'" in ds.notes


def test_long_integers_stay_apart_and_text_labels_keep_their_spelling(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,c\nx,12345678901234567890\ny,12345678901234567891\nx,Yes\ny, yes\n")
    ds = load_dataset(path)
    assert set(ds.class_names) == {"12345678901234567890", "12345678901234567891", "Yes", "yes"}
    assert ds.notes == []


@pytest.mark.parametrize("text, canonical", [
    ("1", "1"), ("1.0", "1"), ("+1", "1"), ("01", "1"), ("1e0", "1"), ("-0", "0"),
    ("0.50", "0.5"), ("-1.5e2", "-150"), ("Infinity", "inf"), ("-inf", "-inf"),
    ("1e300", "1e+300"), ("1e-9", "1e-9"), ("100", "100")])
def test_canonical_spelling(text, canonical):
    assert canonical_number(text) == canonical
    assert float(canonical) == float(text)


def test_shipped_data_sets_keep_their_class_spellings(uci_dir):
    """Every numeric class label of the files the shipped configs read is already canonical,
    so no record of theirs changes."""
    from bayesbench.data import bundled_dir

    for path in sorted([*uci_dir.glob("*.arff"), *bundled_dir().glob("*.[ac]*")]):
        ds = load_dataset(path)
        assert not any(n.startswith("class labels read as numbers") for n in ds.notes), path
