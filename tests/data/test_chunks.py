"""Chunked data sets: read chunk by chunk, coded exactly as one CSV file of all their rows."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayesbench.data import load_dataset
from bayesbench.data.chunks import (chunk_files, chunks, is_chunked, numeric_chunks,
                                    numeric_look, read_chunks, scan)
from bayesbench.data.fold_assignment import fold_rng, hashed_folds
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
    with pytest.raises(DataError, match="no CSV or Parquet file in the directory"):
        scan(tmp_path)
    with pytest.raises(DataError, match=r"no file matches .*\*\.arff"):
        scan(tmp_path / "*.arff")


# hashed_folds lives in data/fold_assignment.py (whose other primitives tests/evaluation/test_splits.py
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


def test_one_arff_file_in_chunks_gives_the_codes_of_reading_it_whole(uci_dir):
    from bayesbench.data import load_dataset

    path = uci_dir / "mushroom.arff"  # nominal, with missing values
    ds = load_dataset(path)
    source = scan(path, chunk_rows=500)
    assert source.files == (str(path),) and source.n_rows == ds.n_rows
    assert source.categories == tuple(a.categories for a in ds.attributes)
    parts = list(chunks(source, 0, chunk_rows=500))
    assert len(parts) > 10 and [p[0] for p in parts][:2] == [0, parts[0][2].size]
    np.testing.assert_array_equal(np.concatenate([X for _, X, _ in parts]), ds.codes())
    np.testing.assert_array_equal(np.concatenate([y for _, _, y in parts]), ds.y)
    # cut into parts of about 100 kB (tasks of their own), each read from its offset
    cut = scan(path, chunk_rows=500, part_bytes=100_000)
    assert len(cut.files) > 3 and cut.n_rows == ds.n_rows and cut.spans[-1][1] is None
    assert all(a[1] == b[0] >= a[0] + 100_000 for a, b in zip(cut.spans, cut.spans[1:]))
    pieces = [c for i in range(len(cut.files)) for c in chunks(cut, i, chunk_rows=500)]
    assert [start for start, _, _ in pieces] == list(
        np.cumsum([0] + [y.size for _, _, y in pieces])[:-1])
    np.testing.assert_array_equal(np.concatenate([X for _, X, _ in pieces]), ds.codes())


def test_an_error_in_a_chunk_of_an_arff_file_names_its_line(tmp_path):
    rows = [f"{'uv'[i % 2]},{'ab'[i % 3 % 2]}" for i in range(3000)]
    rows[2500] = "w,a"
    path = tmp_path / "big.arff"
    path.write_text("@relation r\n@attribute x {u,v}\n@attribute c {a,b}\n@data\n"
                    + "\n".join(rows) + "\n")
    with pytest.raises(DataError, match=r"big\.arff:2505: not a valid ARFF file"):
        scan(path, chunk_rows=100)
    path.write_text("@relation r\n@attribute x string\n@attribute c {a,b}\n@data\nu,a\n")
    with pytest.raises(DataError, match="attribute 'x': a string attribute cannot be read"):
        scan(path)


def test_parquet_files_are_read_as_the_same_table_in_csv(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rng = np.random.default_rng(2)
    a = np.array(["x", "y", "?"], dtype=object)[rng.integers(0, 3, 400)]
    n = rng.normal(size=400).round(3)
    cls = np.array(["p", "q"], dtype=object)[rng.integers(0, 2, 400)]
    for d in ("csv", "pq"):
        (tmp_path / d).mkdir()
    for i, rows in enumerate(np.array_split(np.arange(400), 2)):
        (tmp_path / "csv" / f"{i}.csv").write_text("a,n,c\n" + "".join(
            f"{a[r]},{'?' if r % 9 == 0 else repr(float(n[r]))},{cls[r]}\n" for r in rows))
        pq.write_table(pa.table({"a": [None if a[r] == "?" else a[r] for r in rows],
                                 "n": [None if r % 9 == 0 else float(n[r]) for r in rows],
                                 "c": list(cls[rows])}), tmp_path / "pq" / f"{i}.parquet",
                       row_group_size=50)
    csv_source, pq_source = scan(tmp_path / "csv"), scan(tmp_path / "pq", chunk_rows=30)
    assert pq_source.format == "parquet" and pq_source.numeric_names == ("n",)
    fields = ("attribute_names", "categories", "class_names", "file_rows", "numeric")
    assert all(getattr(csv_source, f) == getattr(pq_source, f) for f in fields)
    for i in range(2):
        (v1, y1), = list(numeric_chunks(csv_source, i))
        parts = list(numeric_chunks(pq_source, i, chunk_rows=30))
        np.testing.assert_array_equal(np.concatenate([v for v, _ in parts]), v1)
        np.testing.assert_array_equal(np.concatenate([y for _, y in parts]), y1)


def test_a_file_that_is_not_parquet_is_named_in_one_line(tmp_path):
    pytest.importorskip("pyarrow")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "0.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(DataError, match=r"0\.parquet: not a readable Parquet file \("):
        scan(tmp_path / "d")


def test_a_glob_of_files_of_several_kinds_is_refused(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "0.csv").write_text("a,class\nx,y\n")
    (tmp_path / "d" / "notes").write_text("not data\n")
    with pytest.raises(DataError, match=r"reads files of one kind among \.arff, \.csv, "
                                        r"\.parquet; found \(no extension\), \.csv"):
        chunk_files(tmp_path / "d" / "*")
    assert chunk_files(tmp_path / "d") == (str(tmp_path / "d" / "0.csv"),)


# ------------------------------- one reader's checks, whole or in chunks (issue 25, class 3)

def _whole_or_chunked(path, chunk_rows):
    """The outcome of reading one CSV file whole and as a chunked data set: the class labels
    of every row, or the error's message."""
    def whole():
        try:
            ds = load_dataset(path, delimiter=",")
            return [ds.class_names[c] for c in ds.y]
        except DataError as exc:
            return str(exc)

    def chunked():
        try:
            source = scan(path.parent, chunk_rows=chunk_rows)
            return [source.class_names[c] for _, _, y in chunks(source, 0, chunk_rows) for c in y]
        except DataError as exc:
            return str(exc)
    return whole(), chunked()


DEFECTS = {
    "short row": lambda rows: rows[:-1] + [rows[-1].rsplit(",", 1)[0]],
    "long row": lambda rows: rows[:-1] + [rows[-1] + ",z"],
    "duplicate name": lambda rows: ["a,a,c"] + rows[1:],
    "empty name": lambda rows: ["a,,c"] + rows[1:],
    "semicolons": lambda rows: [r.replace(",", ";") for r in rows],
    "NUL byte": lambda rows: rows[:-1] + [rows[-1].replace("x", "x\0", 1)],
    "quoted line break": lambda rows: rows[:-1] + ['"x\ny",' + rows[-1].split(",", 1)[1]],
    "nothing": lambda rows: rows,
}
ENCODINGS = {"utf-8": "utf-8", "BOM": "utf-8-sig", "Latin-1": "latin-1", "UTF-16": "utf-16"}


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(n=st.integers(2, 12), defect=st.sampled_from(sorted(DEFECTS)), where=st.integers(0, 11),
       encoding=st.sampled_from(sorted(ENCODINGS)), chunk_rows=st.integers(1, 5),
       accent=st.booleans())
def test_a_csv_file_reads_the_same_whole_and_in_chunks(tmp_path_factory, n, defect, where,
                                                       encoding, chunk_rows, accent):
    """Short and long rows, a ';' delimiter, duplicated and empty header names and NUL bytes
    were accepted in chunks; long rows, Latin-1 and UTF-16 ended in a traceback; a BOM was
    refused. Every such file now gets the same one-line error (or the same rows) both ways."""
    rows = [f"{'xé' if accent and i == 1 else 'x'}{i % 3},y{i % 2},{'pq'[i % 2]}"
            for i in range(n)]
    cut = min(where, n - 1) + 1
    text = "\n".join(["a,b,c"] + DEFECTS[defect](rows[:cut]) + rows[cut:]) + "\n"
    path = tmp_path_factory.mktemp("one") / "part.csv"
    path.write_bytes(text.encode(ENCODINGS[encoding]))
    whole, chunked = _whole_or_chunked(path, chunk_rows)
    assert chunked == whole
    assert isinstance(whole, list) or "\n" not in whole


@settings(max_examples=25, deadline=None, database=None)
@given(st.lists(st.binary(min_size=1, max_size=4), min_size=2, max_size=12),
       st.integers(1, 5))
def test_parquet_text_and_binary_columns_get_the_csv_readers_encoding_checks(
        tmp_path_factory, values, chunk_rows):
    # A binary column was read as Python's b'...' spellings (a class "b'p\\xff'"), and
    # bytes that are not UTF-8 or hold a NUL were accepted, where the same values in a CSV
    # file are refused naming their line (issue 25, encodings of chunked Parquet).
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    tmp = tmp_path_factory.mktemp("enc")
    classes = [b"p" if i % 2 else b"q" for i in range(len(values))]
    (tmp / "pq").mkdir()
    pq.write_table(pa.table({"a": pa.array(values, pa.binary()),
                             "c": pa.array(classes, pa.binary())}), tmp / "pq" / "0.parquet")
    bad = [i for i, v in enumerate(values) if b"\x00" in v or not _is_utf8(v)]
    if not bad:
        source = scan(tmp / "pq", chunk_rows=chunk_rows)
        assert set(source.class_names) == {c.decode() for c in classes}
        if "a" not in source.numeric_names:            # texts, not b'...' spellings
            assert set(source.categories[0]) == {v.decode().strip() for v in values} - {"", "?"}
        return
    first = bad[0]
    words = ("a value holds a NUL byte" if b"\x00" in values[first]
             else "not UTF-8 text: byte 0x")
    with pytest.raises(DataError) as err:
        scan(tmp / "pq", chunk_rows=chunk_rows)
    message = str(err.value)
    assert message.startswith(f"{tmp / 'pq' / '0.parquet'}: row {first + 1}, column 'a': "
                              + words), message
    assert "\n" not in message


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# ------------------------------- the scan in processes (issue 35, item 7)

def _scanned(path, run_on, cache, **limits):
    """``(source without its cache, its cache, {file name: bytes} of the cache directory)``."""
    from dataclasses import replace

    source = scan(path, cache=str(cache), run_on=run_on, **limits)
    files = {p.name: p.read_bytes() for p in sorted(cache.iterdir())}
    return replace(source, cache=None), source.cache, files


def test_a_scan_in_two_processes_gives_the_serial_scans_source_and_ids(tmp_path, monkeypatch):
    """Each file is scanned by a task of its own (``--jobs``); the findings merged in file
    order give the serial scan's source, and the workers write the same ids, byte for byte,
    which read back give the columns of parsing the files."""
    from dataclasses import replace
    from functools import partial

    from bayesbench.data import chunk_cache
    from bayesbench.evaluation.executors import map_jobs

    rng = np.random.default_rng(4)
    (tmp_path / "csv").mkdir()
    for i in range(5):  # a numeric column, missing values, rows without a class
        rows = "".join(f"{rng.choice(['x', 'y', '?', 'z' if i == 3 else 'x'])},"
                       f"{rng.choice(['1.5', '2', '?', f'{i}e1'])},"
                       f"{rng.choice(['A', 'B', '1', '1.0', '?'], p=[.4, .3, .1, .1, .1])}\n"
                       for _ in range(300))
        (tmp_path / "csv" / f"p{i}.csv").write_text("a,n,class\n" + rows)
    rows = [f"{'uv'[i % 2]},{i % 7 * 0.5 if i % 11 else '?'},{'ab'[i % 3 % 2]}" for i in range(3000)]
    for i in range(2):
        (tmp_path / f"{i}.arff").write_text("@relation r\n@attribute x {u,v}\n@attribute n numeric\n"
                                            "@attribute c {a,b}\n@data\n" + "\n".join(rows) + "\n")
    monkeypatch.setattr(chunk_cache, "CACHE_ROWS", 250)  # several arrays per file
    cases = [(tmp_path / "csv", {"chunk_rows": 70}),
             (tmp_path / "*.arff", {"chunk_rows": 100, "part_bytes": 8000})]
    for n, (path, limits) in enumerate(cases):
        serial = _scanned(path, None, tmp_path / f"s{n}", **limits)
        both = _scanned(path, partial(map_jobs, jobs=2), tmp_path / f"p{n}", **limits)
        assert serial[0] == both[0] and serial[1].entries == both[1].entries
        assert serial[1].decoders == both[1].decoders and serial[2] == both[2]
        source = scan(path, **limits)  # parsing the files, no ids kept
        assert replace(source, cache=None) == serial[0]
        assert len(source.files) == (5 if n == 0 else 6)  # each ARFF file in 3 parts
        with_ids = replace(source, cache=both[1])
        for i in range(len(source.files)):
            parsed, kept = list(read_chunks(source, i)), list(read_chunks(with_ids, i))
            assert sum(y.size for _, _, y in kept) == source.file_rows[i]
            np.testing.assert_array_equal(np.concatenate([y for _, _, y in parsed]),
                                          np.concatenate([y for _, _, y in kept]))
            for j in range(len(source.columns)):  # codes, and numbers (NaN: missing)
                np.testing.assert_array_equal(np.concatenate([c[1][j] for c in parsed]),
                                              np.concatenate([c[1][j] for c in kept]))


def test_a_scan_reports_the_first_files_error_whatever_order_the_files_end_in(tmp_path):
    """A scan in processes reports the error a serial scan meets first: that of the first
    file in order, not of the first task to end."""
    from functools import partial

    from bayesbench.evaluation.executors import map_jobs

    def backwards(fn, tasks):  # every file scanned, the last one's finding first
        return reversed([(i, fn(task)) for i, task in enumerate(tasks)])

    (tmp_path / "d").mkdir()
    for i in range(4):
        values = range(12) if i == 3 else range(2)
        (tmp_path / "d" / f"{i}.csv").write_text(
            ("b" if i == 1 else "a") + ",class\n" + "".join(f"v{v},{'yn'[v % 2]}\n" for v in values))
    for run_on in (None, backwards, partial(map_jobs, jobs=2)):
        with pytest.raises(DataError, match=r"1\.csv: header differs from .*0\.csv's"):
            scan(tmp_path / "d", max_values=10, run_on=run_on)
    (tmp_path / "d" / "1.csv").write_text("a,class\nv0,y\n")
    for run_on in (None, backwards, partial(map_jobs, jobs=2)):
        with pytest.raises(DataError, match=r"3\.csv: attribute 'a': more than 10 distinct"):
            scan(tmp_path / "d", max_values=10, run_on=run_on)
