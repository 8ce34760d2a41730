"""Per-instance predictions (``predictions: true``): one file per task, kept with its record.

``<run>/predictions/<task_id>.parquet`` (with pyarrow; without it ``<task_id>.npz``, numpy's
``savez`` of the same arrays) holds one row per test row of the task: ``row`` (the row's
index in the data file, 0-based, in file order; int32, int64 for a data set of more than
2^31 rows), ``true`` and ``predicted`` (class codes, int32, in the order of the record's
``classes``) and ``p_0``, ``p_1``, ... (the probability of each class, float64; absent for a
classifier without ``predict_proba``). That is :func:`bytes_per_prediction` bytes per test
row and classifier before compression. The Parquet file is written uncompressed, its
integer columns delta-encoded and its probabilities plain: :data:`PARQUET_OPTIONS`.

A file is written first, through a temporary file and ``os.replace``, and the task's
record after it (:meth:`~.rundir.RunDirectory.keep`), holding the file's SHA-256
(:data:`DIGEST`): a run killed between the two leaves a file without a record, which
:func:`reconcile` deletes when the directory is next opened (the task runs again). A record
whose file is missing (deleted) or whose file's bytes are not those it names (the machine
crashed before they reached the disk) is dropped there, so that its task runs again: a
directory never holds a record without its predictions, nor predictions without their
record. The checksum stands in for an ``fsync`` of every file, which cost a small run
as much as writing its records (benchmarks/bench_predictions.py).
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
import os
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import PlanError, ResultStoreError
from .store import RECORDS, in_task_order, iter_records, task_list

DIRECTORY = "predictions"
# The record field through which a worker hands a task's predictions to the result
# directory, which writes them to their own file and never into records.jsonl.
FIELD = "_predictions"
# What a run may keep unless max_predictions_bytes says otherwise: 1 GiB before compression
# (a 10^6-row data set, 10 folds, 2 classifiers and 2 classes take 56 MB).
DEFAULT_MAX_BYTES = 2 ** 30
COLUMNS = ["dataset", "classifier", "repetition", "fold", "row", "true", "predicted"]
# The most rows whose indices a file keeps as int32 (the largest index is one less).
INT32_ROWS = 2 ** 31
# How a Parquet file is written. Probabilities compress by a few percent at most, so nothing
# is compressed; the integer columns (sorted row indices, class codes) are delta-encoded,
# which packs them into a few bits a row without the hashing of a dictionary; and no
# statistics. Two fifths of the time of dictionary-encoded codes, snappy and int64 rows,
# in a smaller file (benchmarks/bench_predictions.py).
PARQUET_OPTIONS = {
    "compression": "none", "use_dictionary": False, "write_statistics": False,
    "column_encoding": dict.fromkeys(("row", "true", "predicted"), "DELTA_BINARY_PACKED")}
# The record field holding the SHA-256 of its task's file, checked when a directory is opened.
DIGEST = "predictions_sha256"


def bytes_per_prediction(n_classes: int, n_rows: int) -> int:
    """The bytes of one test row's prediction before compression, on a data set of
    ``n_rows`` rows: its row index (4, or 8 above :data:`INT32_ROWS` rows), its true and
    predicted class codes (4 each) and a probability per class (8 each)."""
    return (4 if n_rows <= INT32_ROWS else 8) + 8 + 8 * n_classes


def parquet_available() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


def kept(rows, y_true, y_pred, proba) -> dict:
    """A task's predictions as a worker hands them on (the value of :data:`FIELD`)."""
    rows = np.asarray(rows)
    # int32 while every index fits (a data set of at most 2^31 rows): a third fewer bytes
    # of row indices to hand on, encode and hash.
    small = rows.size == 0 or int(rows.max()) < INT32_ROWS
    out = {"row": rows.astype(np.int32 if small else np.int64, copy=False),
           "true": np.asarray(y_true, dtype=np.int32),
           "predicted": np.asarray(y_pred, dtype=np.int32)}
    if proba is not None:
        out["proba"] = np.asarray(proba, dtype=np.float64)
    return out


def _columns(arrays: dict) -> dict:
    cols = {k: arrays[k] for k in ("row", "true", "predicted")}
    proba = arrays.get("proba")
    if proba is not None:
        cols.update({f"p_{k}": np.ascontiguousarray(proba[:, k]) for k in range(proba.shape[1])})
    return cols


def write(run_dir, task_id: str, arrays: dict) -> str:
    """Write one task's predictions (:func:`kept`) atomically; return the SHA-256 of the
    file, which its record keeps (:data:`DIGEST`)."""
    directory = Path(run_dir) / DIRECTORY
    directory.mkdir(exist_ok=True)
    parquet = parquet_available()
    path = directory / f"{task_id}{'.parquet' if parquet else '.npz'}"
    buffer = io.BytesIO()
    if parquet:
        import pyarrow as pa  # lazy: an optional dependency
        import pyarrow.parquet as pq  # lazy: likewise

        pq.write_table(pa.table(_columns(arrays)), buffer, **PARQUET_OPTIONS)
    else:
        np.savez(buffer, **_columns(arrays))
    data = buffer.getbuffer()
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    return hashlib.sha256(data).hexdigest()


def _intact(path: Path, digest: str | None) -> bool:
    """Whether the file holds the bytes its record names (a record without a digest, written
    before there was one, trusts its file)."""
    return digest is None or hashlib.sha256(path.read_bytes()).hexdigest() == digest


def task_files(run_dir) -> dict[str, Path]:
    """The predictions file of each task id that ``run_dir`` holds one for: regular files
    only (a FIFO of a task's name would be read without end; it counts as missing)."""
    directory = Path(run_dir) / DIRECTORY
    if not directory.is_dir():
        return {}
    return {p.name.partition(".")[0]: p for p in directory.iterdir()
            if p.suffix in (".parquet", ".npz") and not p.name.endswith(".tmp") and p.is_file()}


def reconcile(run_dir, records, wanted) -> set[str]:
    """Make the predictions agree with ``records`` (the directory's valid records): delete
    every file (and temporary file) whose task has no record; return the task ids of the
    records in ``wanted`` (task ids whose predictions the run keeps) that finished but have
    no file, for the caller to drop."""
    directory = Path(run_dir) / DIRECTORY
    if directory.is_dir():
        for tmp in directory.glob("*.tmp"):
            tmp.unlink(missing_ok=True)
    files = task_files(run_dir)
    recorded = {r.get("task_id") for r in records}
    for task, path in files.items():
        if task not in recorded:
            path.unlink(missing_ok=True)
    return {r["task_id"] for r in records if r.get("task_id") in wanted
            and r.get("status") == "ok" and not (
                r["task_id"] in files and _intact(files[r["task_id"]], r.get(DIGEST)))}


def promises(record: dict) -> bool:
    """Whether ``record`` says that its task's predictions were kept: it names their file's
    SHA-256 (:data:`DIGEST`)."""
    return record.get("status") == "ok" and isinstance(record.get(DIGEST), str)


def read_task(run_dir, record: dict, files: dict | None = None) -> dict:
    """The columns (``row``, ``true``, ``predicted``, ``p_k``) of the predictions of
    ``record``'s task, as its record promises them: the one way a kept file is read.

    The file must exist if the record names its SHA-256, hold exactly those bytes, and hold
    the record's test rows and classes; otherwise one :class:`ResultStoreError` names the
    file and what is wrong (missing, changed or swapped, unreadable, other rows). ``files``:
    :func:`task_files` of ``run_dir``, when the caller has listed them already."""
    files = task_files(run_dir) if files is None else files
    task = record.get("task_id")
    path = files.get(task)
    if path is None:
        raise ResultStoreError(f"{Path(run_dir) / DIRECTORY}: no file {task}.parquet or .npz, "
                               f"although the record of {_task_words(record)} names its "
                               f"predictions; running the experiment again recomputes them")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ResultStoreError(f"{path}: cannot be read ({exc.strerror})") from None
    digest = record.get(DIGEST)
    found = hashlib.sha256(data).hexdigest()
    if digest is not None and found != digest:
        raise ResultStoreError(
            f"{path}: not the predictions the record of {_task_words(record)} names (SHA-256 "
            f"{str(digest)[:12]}... recorded, {found[:12]}... found): changed, cut short or "
            f"swapped since the task ran; running the experiment again recomputes them")
    return _checked(path, _parsed(path, data), record)


def _parsed(path: Path, data: bytes) -> dict:
    """The columns of a file's bytes; bytes that are no such file, one error naming it."""
    try:
        if path.suffix == ".parquet":
            import pyarrow as pa  # lazy: an optional dependency
            import pyarrow.parquet as pq  # lazy: likewise

            table = pq.read_table(pa.BufferReader(data))
            return {name: table.column(name).to_numpy() for name in table.column_names}
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            return {k: arrays[k] for k in arrays.files}
    except ImportError:
        raise ResultStoreError(f"{path}: reading Parquet predictions needs pyarrow "
                               f"(pip install pyarrow)") from None
    except Exception as exc:  # noqa: BLE001 - pyarrow's and numpy's errors, told in one line
        raise ResultStoreError(f"{path}: not a readable predictions file "
                               f"({type(exc).__name__}: {str(exc)[:120]})") from None


def _checked(path: Path, columns: dict, record: dict) -> dict:
    """``columns`` if they are the record's test rows in its classes (a file of a record
    written before the checksum has nothing else to vouch for it)."""
    n_classes, n_test = len(record.get("classes") or ()), record.get("n_test")
    need = ["row", "true", "predicted"]
    lacking = [c for c in need if c not in columns]
    sizes = {np.asarray(v).shape for v in columns.values()}
    why = (f"no column {', '.join(lacking)}" if lacking else
           "columns of different lengths" if len(sizes) != 1 else
           f"{next(iter(sizes))[0]} rows, its record {n_test} test rows"
           if n_test is not None and next(iter(sizes)) != (n_test,) else None)
    if why is None:
        codes = np.concatenate([np.asarray(columns["true"]), np.asarray(columns["predicted"])])
        probabilities = sum(c.startswith("p_") for c in columns)
        if codes.size and (codes.min() < 0 or codes.max() >= n_classes):
            why = f"a class code outside the record's {n_classes} classes"
        elif probabilities not in (0, n_classes):
            why = f"{probabilities} probability columns for {n_classes} classes"
    if why is not None:
        raise ResultStoreError(f"{path}: not the predictions of {_task_words(record)}: {why}")
    return columns


def _task_words(record: dict) -> str:
    """A task in words: its data set, classifier, repetition and fold."""
    size = f", train size {record['train_size']}" if "train_size" in record else ""
    return (f"{record.get('dataset')} / {record.get('classifier')} (repetition "
            f"{record.get('repetition')}, fold {record.get('fold')}{size})")


def load_predictions(run_dir) -> pd.DataFrame:
    """Every kept prediction of a result directory as one long frame
    (``bayesbench.load_predictions``): columns ``dataset``, ``classifier``, ``repetition``,
    ``fold``, ``row``, ``true``, ``predicted`` (class names) and ``p_<class>`` per class
    of any data set (NaN where a data set lacks the class, or a classifier has no
    probabilities); rows in the canonical order of the tasks
    (:func:`~.store.task_rank`, that of ``load_results``), each task's in its test rows'
    order. Only the tasks of the directory's current config (``tasks.txt``) count."""
    run_dir = Path(run_dir)
    if not (run_dir / RECORDS).is_file():
        raise ResultStoreError(f"{run_dir}: not a result directory (no {RECORDS})")
    files, listed = task_files(run_dir), task_list(run_dir)
    tasks = None if listed is None else set(listed)
    frames = []
    for record in in_task_order(iter_records(run_dir), listed):
        if tasks is not None and record.get("task_id") not in tasks:
            continue
        # A record that names its file's SHA-256 promises that file, those bytes; one of
        # before the checksum existed (none named) counts if its file is there.
        if promises(record) or (record.get("status") == "ok" and record.get("task_id") in files):
            frames.append(_named(read_task(run_dir, record, files), record))
    if not frames:
        raise ResultStoreError(f"{run_dir}: holds no predictions (run with 'predictions: true')")
    frame = pd.concat(frames, ignore_index=True)
    probabilities = list(dict.fromkeys(c for f in frames for c in f.columns if c.startswith("p_")))
    curve = ["train_size"] if "train_size" in frame.columns else []
    return frame[COLUMNS[:4] + curve + COLUMNS[4:] + probabilities]


def _named(arrays: dict, record: dict) -> pd.DataFrame:
    """A task's columns with its record's fields and class names instead of codes
    (categorical: a million test rows hold two small arrays of codes, not strings)."""
    classes = list(record["classes"])
    out = pd.DataFrame({"dataset": record["dataset"], "classifier": record["classifier"],
                        "repetition": record["repetition"], "fold": record["fold"],
                        **({"train_size": record["train_size"]} if "train_size" in record else {}),
                        # int64 whatever the file holds (int32 since files became smaller)
                        "row": arrays["row"].astype(np.int64, copy=False),
                        "true": pd.Categorical.from_codes(arrays["true"], classes),
                        "predicted": pd.Categorical.from_codes(arrays["predicted"], classes)})
    for k, name in enumerate(classes):
        column = arrays.get(f"p_{k}")
        out[f"p_{name}"] = np.nan if column is None else column
    return out


def check_size(plans, limit: int | None) -> None:
    """Refuse (:class:`PlanError`, before anything is written) runs whose ``plans`` would
    keep more than ``limit`` bytes of predictions (None: :data:`DEFAULT_MAX_BYTES`)."""
    limit = DEFAULT_MAX_BYTES if limit is None else limit
    count = size = 0
    for work in plans:
        for job in work.jobs:
            if getattr(job, "predictions", False):
                n = int(job.test.size) * len(job.classifiers)
                count += n
                size += n * bytes_per_prediction(job.data.imputed.n_classes,
                                                 job.data.imputed.n_rows)
    if size > limit:
        raise PlanError([(("predictions",), (
            f"the run would keep {count:,} predictions, {size:,} bytes before compression, "
            f"over the limit of {limit:,} bytes (max_predictions_bytes)"))])


def gathered(run_dir, records, by, held=None) -> dict:
    """``{by(record): (classes, y, proba)}``: the class codes and probabilities of the test
    rows of the ``ok`` ``records`` of each group (``by`` maps a record to its group), pooled
    in the order of ``records``; only groups whose every record kept its predictions, and
    ``proba`` None for a classifier without probabilities. ``held`` (``{task id: arrays of
    kept()}``): the predictions a session wrote and still holds, not read back from disk;
    the others are read as their records promise them (:func:`read_task`)."""
    files, groups, held = task_files(run_dir), {}, held or {}
    for r in records:
        if r.get("status") == "ok":
            groups.setdefault(by(r), []).append(r)
    out = {}
    for key, rs in groups.items():
        if any(r["task_id"] not in held and not promises(r) for r in rs):
            continue
        parts = [kept_arrays(run_dir, r, files, held) for r in rs]
        y = np.concatenate([f["true"] for f in parts])
        proba = (np.concatenate([f["proba"] for f in parts])
                 if all("proba" in f for f in parts) else None)
        out[key] = (rs[0]["classes"], y, proba)
    return out


def kept_arrays(run_dir, record: dict, files: dict, held: dict) -> dict:
    """A task's predictions as :func:`kept` gives them: those the session still holds
    (``held``, by task id), else read from its file as its record promises it
    (:func:`read_task`; ``files``: :func:`task_files`)."""
    return held.get(record["task_id"]) or _as_kept(read_task(run_dir, record, files),
                                                   len(record["classes"]))


def _as_kept(columns: dict, n_classes: int) -> dict:
    """A task's file's columns (:func:`read_task`) as :func:`kept` gives them."""
    out = {k: columns[k] for k in ("row", "true", "predicted")}
    if "p_0" in columns:
        out["proba"] = np.column_stack([columns[f"p_{k}"] for k in range(n_classes)])
    return out
