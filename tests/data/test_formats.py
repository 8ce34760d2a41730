"""The one table of data formats: the loader, the chunked reader and the config check read it,
so a format added there is read everywhere without another change."""
import types

import numpy as np
import pytest

from bayesbench.data import formats, load_dataset
from bayesbench.data.chunks import chunk_format
from bayesbench.errors import DataError


def test_suffix_lists_come_from_the_table():
    assert formats.WHOLE_SUFFIXES == (".arff", ".csv", ".libsvm", ".svm")
    assert formats.CHUNK_SUFFIXES == (".arff", ".csv", ".parquet")
    assert formats.DIRECTORY_SUFFIXES == (".csv", ".parquet")
    assert formats.DIRECTORY_TITLES == "CSV or Parquet"
    assert formats.format_of("x/Y.SVM").name == "libsvm" and formats.format_of("a.txt") is None
    assert chunk_format(["p/0.parquet"]) == "parquet"


def test_a_new_format_is_one_entry(tmp_path, monkeypatch):
    # A tab-separated file read by the CSV reader with its delimiter: one DataFormat.
    table = dict(formats.FORMATS)
    table["tsv"] = formats.DataFormat("tsv", (".tsv",), "TSV", "csv_format:read_csv",
                                      options=("delimiter",))
    monkeypatch.setattr(formats, "FORMATS", types.MappingProxyType(table))
    path = tmp_path / "t.tsv"
    path.write_text("a\tb\tclass\n1\tx\tyes\n2\ty\tno\n3\tx\tyes\n")
    with pytest.raises(DataError, match=r"unknown data format '\.tsv'"):
        monkeypatch.undo()
        load_dataset(path)
    monkeypatch.setattr(formats, "FORMATS", types.MappingProxyType(table))
    ds = load_dataset(path, delimiter="\t")
    assert ds.n_rows == 3 and set(ds.class_names) == {"yes", "no"}
    np.testing.assert_array_equal(ds.to_frame()["a"].to_numpy(), [1.0, 2.0, 3.0])


def test_a_format_read_only_in_chunks_is_refused_whole(tmp_path):
    path = tmp_path / "d.parquet"
    path.write_bytes(b"PAR1")
    with pytest.raises(DataError, match=r"unknown data format '\.parquet'; expected one of"):
        load_dataset(path)
