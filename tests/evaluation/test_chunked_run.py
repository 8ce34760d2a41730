"""A chunked data set's two-pass cross-validation against fitting each fold's rows in memory,
and serial against Dask."""
import numpy as np
import pandas as pd
import pytest

from bayesbench.config import parse_config
from bayesbench.data import load_dataset
from bayesbench.data.chunks import scan
from bayesbench.data.fold_assignment import fold_rng, hashed_folds
from bayesbench.errors import PlanError
from bayesbench.evaluation.chunked_folds import FOLD_HASH_STREAM, Dealing
from bayesbench.evaluation.chunked_run import FileTask, count_file
from bayesbench.evaluation.metrics import evaluate
from bayesbench.evaluation.store import read_records
from bayesbench.models.registry import make_classifier
from bayesbench.models.core.sufficient import Statistics
from bayesbench.preprocess.discretize import Discretizer
from helpers import run, stable_order, write_numeric_parts, without_timings

N_FILES, ROWS, FOLDS, REPEATS, SEED = 4, 300, 5, 2, 7


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    """CSV parts of dependent nominal data with missing values (class too), and one CSV
    file of all their rows in the same order."""
    root = tmp_path_factory.mktemp("chunked")
    rng = np.random.default_rng(5)
    (root / "parts").mkdir()
    lines, header = [], "a,b,c,d,class\n"
    for i in range(N_FILES):
        y = rng.integers(0, 3, ROWS)
        a = (y + rng.integers(0, 2, ROWS)) % 3
        b = np.where(rng.random(ROWS) < 0.7, a, rng.integers(0, 3, ROWS))
        c, d = rng.integers(0, 2, ROWS), (b + y) % 4
        cells = np.column_stack([np.array(["a0", "a1", "a2"])[a], np.array(["b0", "b1", "b2"])[b],
                                 np.array(["c0", "c1"])[c], np.array(["d0", "d1", "d2", "d3"])[d],
                                 np.array(["k0", "k1", "k2"])[y]]).astype(object)
        cells[rng.random(cells.shape) < 0.05] = "?"
        rows = [",".join(r) + "\n" for r in cells]
        (root / "parts" / f"p{i}.csv").write_text(header + "".join(rows))
        lines += rows
    (root / "whole.csv").write_text(header + "".join(lines))
    return root


def _raw(parts, out, **over):
    raw = {"name": "ooc", "seed": SEED, "datasets": [{"path": str(parts / "parts"),
                                                      "name": "parts"}],
           "cv": {"folds": FOLDS, "repeats": REPEATS}, "classifiers": ["nb", "tan", "aode"],
           "metrics": ["accuracy", "log_loss", "brier", "kappa"], "output": str(out)}
    raw.update(over)
    return raw


@pytest.fixture(scope="module")
def serial(parts):
    result = run(parse_config(_raw(parts, parts / "serial")), jobs=1, quiet=True)
    assert result.n_run == FOLDS * REPEATS * 3 and not result.errors
    return stable_order(read_records(parts / "serial"))


def test_each_fold_equals_fitting_its_rows_in_memory(parts, serial):
    ds = load_dataset(parts / "whole.csv")
    X, y = pd.DataFrame(ds.codes(), columns=ds.attribute_names), ds.y
    for record in serial:
        _check_against_memory(record, ds, X, y)
        assert record["classes"] == list(ds.class_names)
        assert "auc_ovr" not in record["metrics"]


def _check_against_memory(record, ds, X, y):
    """``record`` against fitting its training fold's rows of ``X`` (codes of ``ds``)."""
    rng = fold_rng(SEED, "parts", record["repetition"], FOLD_HASH_STREAM)
    test = hashed_folds(np.arange(ds.n_rows), FOLDS, rng) == record["fold"]
    clf = make_classifier(record["learner"], **record["params"])
    clf.fit(X[~test], y[~test], cardinalities=ds.cardinalities, n_classes=ds.n_classes)
    proba = clf.predict_proba(X[test])
    ref = evaluate(y[test], proba.argmax(axis=1), proba, ds.n_classes)
    assert (record["n_train"], record["n_test"]) == (int((~test).sum()), int(test.sum()))
    assert record["confusion"] == ref["confusion"].tolist()
    for name in ("accuracy", "kappa", "f1_macro", "log_loss", "brier"):
        assert record["metrics"][name] == pytest.approx(ref["metrics"][name], rel=1e-12)
    if record["learner"] in ("tan", "skdb", "eskdb"):
        assert record["structure"] == clf.structure_.summary()


def test_selective_kdb_fits_in_passes_over_the_files_as_in_memory(parts, tmp_path):
    # SKDB's counts and leave-one-out pass read each fold's training rows file by file
    # (four chunks, their sums equal to counting all the rows at once).
    classifiers = ["skdb", {"name": "skdb", "label": "skdb-hdp",
                            "params": {"estimator": "hdp", "iterations": 20}},
                   {"name": "eskdb", "params": {"n_estimators": 2, "iterations": 20}}]
    raw = _raw(parts, tmp_path / "out", classifiers=classifiers,
               cv={"folds": FOLDS, "repeats": 1})
    result = run(parse_config(raw), jobs=1, quiet=True)
    assert result.n_run == FOLDS * 3 and not result.errors
    ds = load_dataset(parts / "whole.csv")
    X = pd.DataFrame(ds.codes(), columns=ds.attribute_names)
    records = read_records(tmp_path / "out")
    for record in records:
        _check_against_memory(record, ds, X, ds.y)
    assert any(", k=0" not in r["structure"] for r in records)  # parents kept somewhere


def test_numeric_chunked_data_equal_the_globally_discretized_data_in_memory(uci_dir, tmp_path):
    # Cut points found on all the chunked rows (preprocess scope global), then each fold as
    # fitting its training rows of the in-memory data discretized on all its rows.
    whole = write_numeric_parts(load_dataset(uci_dir / "pima-indians-diabetes.arff"),
                                tmp_path / "parts", n_files=4, seed=3)
    raw = _raw(tmp_path, tmp_path / "out", classifiers=["nb", "tan"],
               cv={"folds": FOLDS, "repeats": 1, "stratified": False},
               preprocess={"discretize": "mdl", "scope": "global"})
    result = run(parse_config(raw), jobs=1, quiet=True)
    assert result.n_run == FOLDS * 2 and not result.errors
    ds = Discretizer("mdl").fit_transform(load_dataset(whole))
    assert (ds.cardinalities > 1).sum() >= 4  # MDL cut most attributes' ranges
    X = pd.DataFrame(ds.codes(), columns=ds.attribute_names)
    for record in read_records(tmp_path / "out"):
        _check_against_memory(record, ds, X, ds.y)


def test_the_folds_are_counted_file_by_file(parts):
    # Statistics are all a counting task returns; they add up to the whole data set's.
    source = scan(parts / "parts", chunk_rows=64)
    per_file = [count_file(FileTask(source, i, Dealing(SEED, "parts", FOLDS, 1), chunk_rows=64)).parts
                for i in range(N_FILES)]
    total = sum((s for counts in per_file for s in counts[0]),
                Statistics.empty(source.cardinalities, source.n_classes))
    ds = load_dataset(parts / "whole.csv")
    assert total == Statistics.from_codes(ds.codes(), ds.y, ds.cardinalities, ds.n_classes)


def test_dask_local_cluster_gives_the_serial_records(parts, serial, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, distributed.get_task_stream(client) as ts:
        run(parse_config(_raw(parts, tmp_path / "dask")), scheduler=client, quiet=True)
        workers = set(client.scheduler_info()["workers"])
    # One task per file in each pass, run on the workers.
    assert len(ts.data) == 2 * N_FILES
    assert {t["worker"] for t in ts.data} <= workers
    dask = [without_timings(r) for r in stable_order(read_records(tmp_path / "dask"))]
    assert dask == [without_timings(r) for r in serial]


def test_the_records_are_resumed(parts, serial, tmp_path):
    result = run(parse_config(_raw(parts, parts / "serial"), base_dir=tmp_path), jobs=1,
                 quiet=True)
    assert (result.n_skipped, result.n_run) == (FOLDS * REPEATS * 3, 0)


def test_a_per_class_metric_must_name_a_class_of_the_chunked_data_set(parts, tmp_path):
    config = parse_config(_raw(parts, tmp_path / "x", metrics=["f1[k1]", "f1[zz]"]))
    with pytest.raises(PlanError, match=r"'zz' is not a class of parts"):
        run(config, jobs=1, quiet=True)
    assert not (tmp_path / "x").exists()


def test_the_same_rows_as_csv_parts_parquet_files_or_one_arff_give_the_same_records(tmp_path,
                                                                                  monkeypatch):
    # One table, with a numeric attribute (discretized on all the rows) and missing values,
    # written three ways; every record but the timings must be the same.
    from bayesbench.data import arff_format, chunked_arff

    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(11)
    n = 900
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.75, y, 1 - y)
    num = np.round(y * 1.5 + rng.normal(size=n), 2)
    cells = {"a": np.array(["lo", "hi"], dtype=object)[a],
             "b": np.array(["red", "green", "blue"], dtype=object)[rng.integers(0, 3, n)],
             "n": np.array([repr(float(v)) for v in num], dtype=object),
             "class": np.array(["no", "yes"], dtype=object)[y]}
    for name in ("b", "n"):
        cells[name][rng.random(n) < 0.05] = "?"
    names = list(cells)
    for d in ("csv", "pq"):
        (tmp_path / d).mkdir()
    for i, rows in enumerate(np.array_split(np.arange(n), 3)):
        lines = [",".join(cells[c][r] for c in names) for r in rows]
        (tmp_path / "csv" / f"p{i}.csv").write_text(",".join(names) + "\n" + "\n".join(lines))
        numbers = [None if t == "?" else float(t) for t in cells["n"][rows]]
        table = pa.table({"a": list(cells["a"][rows]), "b": list(cells["b"][rows]),
                          "n": pa.array(numbers, pa.float64()), "class": list(cells["class"][rows])})
        pq.write_table(table, tmp_path / "pq" / f"p{i}.parquet", row_group_size=100)
    (tmp_path / "one.arff").write_text(
        "@relation one\n@attribute a {hi,lo}\n@attribute b {blue,green,red}\n"
        "@attribute n numeric\n@attribute class {no,yes}\n@data\n"
        + "".join(",".join(cells[c][r] for c in names) + "\n" for r in range(n)))
    records = []
    arff = {"path": str(tmp_path / "one.arff"), "chunked": True}
    for i, entry in enumerate([{"path": str(tmp_path / "csv")}, {"path": str(tmp_path / "pq")},
                               arff, arff]):
        if i == 3:  # the ARFF file cut into parts of ~4 kB, counted and scored in 2 processes
            for module in (chunked_arff, arff_format):
                monkeypatch.setattr(module, "BLOCK_BYTES", 1024)
            monkeypatch.setattr(chunked_arff, "PART_BYTES", 4096)
            assert len(scan(arff["path"]).spans) > 3
        raw = {"name": "three", "seed": SEED, "datasets": [{**entry, "name": "same"}],
               "cv": {"folds": FOLDS, "stratified": False}, "classifiers": ["nb", "tan"],
               "preprocess": {"discretize": "mdl", "scope": "global"},
               "metrics": ["accuracy", "log_loss", "brier"], "output": str(tmp_path / f"o{i}")}
        result = run(parse_config(raw), jobs=1 if i < 3 else 2, quiet=True)
        assert result.n_run == FOLDS * 2 and not result.errors
        records.append([without_timings(r) for r in stable_order(read_records(tmp_path / f"o{i}"))])
    for r in (r for rs in records for r in rs):
        r.pop("task_id")  # made from the data set's path
    assert records[0] == records[1] == records[2] == records[3]
    assert sum(r["n_test"] for r in records[0]) == 2 * n


def test_the_sums_of_losses_are_exact_however_the_rows_are_grouped():
    # math.fsum is the exactly rounded sum (Shewchuk); the groups must not change it.
    import math

    from bayesbench.evaluation.chunked_run import ExactSum

    rng = np.random.default_rng(3)
    values = rng.exponential(size=3000) * 10.0 ** rng.integers(-300, 3, 3000)
    values[:3] = [5e-324, 1e-310, 0.0]
    for n_groups in (1, 7, 300):
        groups = np.array_split(rng.permutation(values), n_groups)
        total = sum((ExactSum.of(g) for g in groups), ExactSum())
        assert total.value == math.fsum(values)


def test_the_report_calls_hashed_folds_what_they_are(parts, serial):
    """The folds of a chunked data set are dealt by a hash of the row index (issue 25): the
    captions and the report's protocol said "stratified"."""
    run_dir = parts / "serial"
    texts = [p.read_text() for p in sorted((run_dir / "summary").glob("accuracy.*"))
             if p.suffix != ".csv"]  # a CSV table has no caption
    texts.append((run_dir / "report.html").read_text())
    for text in texts:
        assert "folds dealt by a hash of the row index (not stratified) on parts" in text
        assert "stratified 5-fold" not in text


def test_the_ids_kept_by_the_scan_give_the_records_of_parsing_the_files(parts, serial, tmp_path,
                                                                         monkeypatch):
    # The passes after the scan read the ids the scan kept (data/chunk_cache.py); without
    # them (a worker that does not see them, or a disk too full to keep them) they parse
    # the files, and the records are the same. Either way the ids are gone after the run.
    import tempfile

    from bayesbench.data import chunk_cache

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    read = []
    monkeypatch.setattr(chunk_cache.CodeCache, "read",
                        lambda self, *a, real=chunk_cache.CodeCache.read: read.append(a) or
                        real(self, *a))
    for case in ("kept", "unseen", "full"):
        if case == "unseen":
            monkeypatch.setattr(chunk_cache.CodeCache, "usable", lambda self: False)
        if case == "full":
            monkeypatch.setattr(chunk_cache, "MIN_FREE_BYTES", 1 << 62)
        read.clear()
        run(parse_config(_raw(parts, tmp_path / case)), jobs=1, quiet=True)
        records = [without_timings(r) for r in stable_order(read_records(tmp_path / case))]
        assert records == [without_timings(r) for r in serial], case
        assert bool(read) == (case == "kept")  # every pass read the ids, or none did
        assert not list(tmp_path.glob("bayesbench-chunks-*"))
