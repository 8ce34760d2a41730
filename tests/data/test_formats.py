"""The one table of data formats: the loader, the chunked reader, the config check and the
docs read it, so a format added there is read everywhere without another change."""
import sys
import types

import numpy as np
import pytest

from bayesbench.config import parse_config
from bayesbench.data import formats, load_dataset
from bayesbench.data.chunked_csv import CsvChunks
from bayesbench.data.chunks import chunk_format
from bayesbench.errors import ConfigError, DataError
from bayesbench.evaluation.store import read_records
from helpers import documents_choices, run, stable_order, without_timings


def test_suffix_lists_come_from_the_table():
    assert formats.WHOLE_SUFFIXES == (".arff", ".csv", ".libsvm", ".svm")
    assert formats.chunk_suffixes() == (".arff", ".csv", ".parquet")
    assert formats.directory_suffixes() == (".csv", ".parquet")
    assert formats.directory_titles() == "CSV or Parquet"
    assert formats.format_of("x/Y.SVM").name == "libsvm" and formats.format_of("a.txt") is None
    assert chunk_format(["p/0.parquet"]) == "parquet"
    assert {n: c.name for n, c in formats.chunked_formats().items()} == {
        "arff": "arff", "csv": "csv", "parquet": "parquet"}


def test_the_large_data_page_lists_the_chunked_formats():
    assert documents_choices("large-data.md", formats.chunked_formats())


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


class _TsvChunks(CsvChunks):
    """Tab-separated files: a CSV file's reader with a tab for the comma (a format a test
    adds)."""

    name = "tsv"
    summary = "a directory or glob of tab-separated files"
    read = []

    def header(self, path, delimiter):
        return super().header(path, "\t")

    def frames(self, path, delimiter, chunk_rows):
        type(self).read.append(path)
        return super().frames(path, "\t", chunk_rows)


def test_a_new_chunked_format_is_one_entry_seen_by_the_config_the_run_and_the_docs(
        tmp_path, monkeypatch):
    # The same rows as two tab-separated parts and as two CSV parts.
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 400)
    a = np.where(rng.random(400) < 0.8, y, 1 - y)
    rows = [(f"{'lo hi'.split()[i]}", rng.choice(["red", "green", "?"]), f"{'no yes'.split()[c]}")
            for i, c in zip(a, y)]
    for kind, sep in (("tsv", "\t"), ("csv", ",")):
        (tmp_path / kind).mkdir()
        for i, part in enumerate((rows[:250], rows[250:])):
            (tmp_path / kind / f"p{i}.{kind}").write_text(
                "\n".join(sep.join(r) for r in [("level", "colour", "buys"), *part]) + "\n")

    def raw(kind, **entry):
        return {"name": "x", "seed": 3, "datasets": [{"path": str(tmp_path / kind),
                                                      "name": "same", **entry}],
                "cv": {"folds": 3, "stratified": False}, "classifiers": ["nb", "tan"],
                "metrics": ["accuracy", "log_loss"], "output": str(tmp_path / f"out-{kind}")}

    with pytest.raises(ConfigError, match=r"datasets\[0\]\.path: .* is a directory without CSV "
                                          r"or Parquet files"):
        parse_config(raw("tsv"))
    with pytest.raises(ConfigError, match=r"datasets\[0\]\.chunked: '\.tsv' files are not "
                                          r"read in chunks"):
        parse_config(raw("tsv/p0.tsv", chunked=True))
    # The entry, and its class in a module of the package as a new format's would be.
    module = types.ModuleType("bayesbench.data.chunked_tsv")
    module.TsvChunks = _TsvChunks
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(formats, "FORMATS", types.MappingProxyType({
        **formats.FORMATS, "tsv": formats.DataFormat("tsv", (".tsv",), "TSV", None,
                                                     chunks="chunked_tsv:TsvChunks",
                                                     directory=True)}))
    assert parse_config(raw("tsv/p0.tsv", chunked=True)).experiment.datasets[0].chunked
    with pytest.raises(ConfigError, match=r"datasets\[0\]: a TSV file is read only in chunks"):
        parse_config(raw("tsv/p0.tsv"))
    records = {}
    for kind in ("tsv", "csv"):
        assert not run(parse_config(raw(kind)), jobs=1, quiet=True).errors
        records[kind] = [{k: v for k, v in without_timings(r).items() if k != "task_id"}
                         for r in stable_order(read_records(tmp_path / f"out-{kind}"))]
    assert len(records["tsv"]) == 6 and records["tsv"] == records["csv"]
    assert {p.rsplit("/", 1)[-1] for p in _TsvChunks.read} == {"p0.tsv", "p1.tsv"}
    assert not documents_choices("large-data.md", formats.chunked_formats())
