"""Chunked data sets: read chunk by chunk, coded exactly as one CSV file of all their rows."""
import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.data.chunks import chunk_files, chunks, is_chunked, numeric_look, scan
from bayesbench.data.folds import fold_rng, hashed_folds
from bayesbench.errors import DataError

HEADER = "a, b,c,class\n"


def _write_parts(directory, n_files=3, n=400, seed=0):
    """CSV parts with missing values (attributes and class) and their concatenation."""
    rng = np.random.default_rng(seed)
    directory.mkdir()
    lines = []
    for i in range(n_files):
        rows = [f"{rng.choice(['x', 'y', '?'])},{rng.choice(['v1', 'v2', 'v3', ''])}, "
                f"{rng.choice(['p', 'q', 'NA'])},{rng.choice(['yes', 'no', '?'], p=[.5, .45, .05])}\n"
                for _ in range(n)]
        (directory / f"part{i}.csv").write_text(HEADER + "".join(rows))
        lines += rows
    whole = directory.parent / "whole.csv"
    whole.write_text(HEADER + "".join(lines))
    return whole


def test_chunks_code_the_rows_as_the_csv_reader_codes_all_of_them(tmp_path):
    whole = _write_parts(tmp_path / "parts")
    ref = load_dataset(whole)
    source = scan(tmp_path / "parts", chunk_rows=70)
    assert source.attribute_names == tuple(ref.attribute_names)
    assert source.categories == tuple(a.categories for a in ref.attributes)
    assert source.class_names == tuple(ref.class_names)
    assert source.n_rows == ref.n_rows
    parts = [c for i in range(3) for c in chunks(source, i, chunk_rows=70)]
    assert max(len(y) for _, _, y in parts) <= 70  # never more than a chunk at once
    starts = [s for s, _, _ in parts]
    assert starts == sorted(starts) and starts[0] == 0
    X = np.concatenate([X for _, X, _ in parts])
    y = np.concatenate([y for _, _, y in parts])
    np.testing.assert_array_equal(X, ref.codes())
    np.testing.assert_array_equal(y, ref.y)
    assert all(s == int(np.sum([len(p[2]) for p in parts[:i]])) for i, (s, _, _) in
               enumerate(parts))


def test_a_glob_names_the_same_files(tmp_path):
    _write_parts(tmp_path / "parts")
    assert is_chunked(tmp_path / "parts") and is_chunked(tmp_path / "parts" / "*.csv")
    assert not is_chunked(tmp_path / "whole.csv")
    assert chunk_files(tmp_path / "parts" / "part[12].csv") == tuple(
        str(tmp_path / "parts" / f"part{i}.csv") for i in (1, 2))


def test_scan_finds_numeric_columns_and_bounds_their_values(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "0.csv").write_text("a,n,class\nx,1.5,y\nz,2,n\nx,?,y\nz,3,y\n")
    source = scan(tmp_path / "d")
    assert source.numeric == (False, True) and source.numeric_names == ("n",)
    assert source.categories == (("x", "z"), ())
    assert numeric_look(tmp_path / "d") == ("n",) == numeric_look(tmp_path / "d", chunk_rows=1)
    assert numeric_look(tmp_path / "d", attributes=["a"]) == ()
    with pytest.raises(DataError, match=r"0\.csv: attribute 'n': numeric column of more than 2 "
                                        r"distinct values"):
        scan(tmp_path / "d", max_numeric=2)


def test_scan_refuses_too_many_values_naming_file_and_column(tmp_path):
    (tmp_path / "d").mkdir()
    rows = "".join(f"v{i},{'yn'[i % 2]}\n" for i in range(12))
    (tmp_path / "d" / "0.csv").write_text("a,class\n" + rows)
    with pytest.raises(DataError, match=r"0\.csv: attribute 'a': more than 10 distinct"):
        scan(tmp_path / "d", max_values=10)


def test_scan_refuses_files_with_another_header(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "0.csv").write_text("a,class\nx,y\nz,n\n")
    (tmp_path / "d" / "1.csv").write_text("b,class\nx,y\n")
    with pytest.raises(DataError, match=r"1\.csv: header differs"):
        scan(tmp_path / "d")


def test_an_empty_directory_is_refused(tmp_path):
    with pytest.raises(DataError, match="no CSV file matches"):
        scan(tmp_path)


# hashed_folds lives in data/folds.py (whose other primitives tests/evaluation/test_splits.py
# covers); it deals the folds of chunked data sets only.
def test_hashed_folds_depend_on_the_row_index_alone():
    rows = np.arange(100_000)
    whole = hashed_folds(rows, 10, fold_rng(3, "d", 0, 7))
    pieces = np.concatenate([hashed_folds(rows[i:i + 999], 10, fold_rng(3, "d", 0, 7))
                             for i in range(0, rows.size, 999)])
    np.testing.assert_array_equal(whole, pieces)
    counts = np.bincount(whole, minlength=10)
    # Uniform in expectation: a chi-square test at the 0.001 level (critical value 27.88, 9 df).
    assert ((counts - 10_000) ** 2 / 10_000).sum() < 27.88
    other = hashed_folds(rows, 10, fold_rng(3, "d", 1, 7))
    assert (other != whole).mean() > 0.8  # another repetition deals other folds
