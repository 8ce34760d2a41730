"""A chunked run against the in-memory run of the same rows dealt into the same folds (issue
35, item 1): rmse and the model scores, kdb of k = 2 and A2DE through ``fit_chunks``, cut
points found per fold, and class-stratified hashed folds. The files are read in several
chunks each, so that every pass adds up chunks."""
import doctest

import numpy as np
import pytest

from bayesbench.config import parse_config
from bayesbench.data import chunked_csv, fold_assignment, load_dataset
from bayesbench.data.chunks import scan
from bayesbench.data.fold_assignment import fold_rng, hashed_folds, stratified_hashed_folds
from bayesbench.evaluation import plan as plan_module
from bayesbench.evaluation.chunked_folds import FOLD_HASH_STREAM, Dealing, fold_sources
from bayesbench.evaluation.executors import map_jobs
from bayesbench.evaluation.splits import Split
from bayesbench.evaluation.store import read_records
from bayesbench.preprocess.discretize import Discretizer, cut_method
from helpers import run, stable_order

FOLDS, SEED, NAME = 5, 11, "mixed"
CLASSIFIERS = ["nb", "tan", {"name": "kdb", "params": {"k": 2}},
               {"name": "ande", "params": {"n": 2}}, {"name": "skdb", "params": {"k_max": 2}}]
METRICS = ["accuracy", "log_loss", "brier", "rmse", "kappa", "f1_macro", "loglik", "cll",
           "n_parameters", "aic", "bic"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Three CSV parts of 3-class data: nominal attributes that depend on the class and on
    each other, two numeric ones, missing values (the class's too), and one CSV file of
    all their rows in the same order."""
    root = tmp_path_factory.mktemp("folds")
    rng = np.random.default_rng(8)
    n = 900
    y = rng.choice(3, n, p=[0.55, 0.3, 0.15])
    a = (y + rng.integers(0, 2, n)) % 3
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, 3, n))
    c = (b + y + rng.integers(0, 2, n)) % 4
    cells = {"a": np.array(["a0", "a1", "a2"], dtype=object)[a],
             "b": np.array(["b0", "b1", "b2"], dtype=object)[b],
             "c": np.array(["c0", "c1", "c2", "c3"], dtype=object)[c],
             "u": np.array([repr(float(v)) for v in np.round(y + rng.normal(size=n), 1)],
                           dtype=object),
             "v": np.array([repr(float(v)) for v in np.round(2 * rng.random(n) + a, 2)],
                           dtype=object),
             "class": np.array(["k0", "k1", "k2"], dtype=object)[y]}
    for name in cells:
        cells[name][rng.random(n) < (0.02 if name == "class" else 0.05)] = "?"
    header = ",".join(cells) + "\n"
    lines = [",".join(cells[k][i] for k in cells) + "\n" for i in range(n)]
    (root / "parts").mkdir()
    for i, part in enumerate(np.array_split(np.arange(n), 3)):
        (root / "parts" / f"p{i}.csv").write_text(header + "".join(lines[j] for j in part))
    (root / "whole.csv").write_text(header + "".join(lines))
    return root


def _raw(path, out, stratified, **over):
    raw = {"name": "x", "seed": SEED, "datasets": [{"path": str(path), "name": NAME}],
           "cv": {"folds": FOLDS, "stratified": stratified}, "classifiers": CLASSIFIERS,
           "preprocess": {"discretize": "mdl", "scope": "fold"}, "metrics": METRICS,
           "output": str(out)}
    raw.update(over)
    return raw


def _assignment(y: np.ndarray, stratified: bool, repetition: int = 0) -> np.ndarray:
    """The folds a chunked run deals the rows ``y`` (classes, in row order) into, computed
    on all of them at once."""
    rng = fold_rng(SEED, NAME, repetition, FOLD_HASH_STREAM)
    if not stratified:
        return hashed_folds(np.arange(y.size), FOLDS, rng)
    ranks = np.zeros(y.size, dtype=np.int64)
    for c in np.unique(y):
        ranks[y == c] = np.arange(int((y == c).sum()))
    return stratified_hashed_folds(ranks, y, FOLDS, rng)


@pytest.fixture(scope="module", params=[False, True], ids=["hashed", "stratified"])
def runs(request, data):
    """The records of the chunked run (each file read in blocks of 2 kB, several chunks)
    and of the in-memory run of whole.csv with its splits replaced by the same folds."""
    stratified = request.param
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(chunked_csv, "BLOCK_BYTES", 2048)
        result = run(parse_config(_raw(data / "parts", data / f"c{stratified}", stratified)),
                     jobs=1, quiet=True)
        assert not result.errors
        mp.undo()
        y = load_dataset(data / "whole.csv").y
        fold_of = _assignment(y, stratified)

        def same_folds(y_, cv, *, seed, dataset, repetition):
            assert (len(y_), cv.setting("folds"), seed, dataset) == (y.size, FOLDS, SEED, NAME)
            return [Split(repetition, f, np.flatnonzero(fold_of != f),
                          np.flatnonzero(fold_of == f)) for f in range(FOLDS)]
        mp.setattr(plan_module, "make_splits", same_folds)
        result = run(parse_config(_raw(data / "whole.csv", data / f"m{stratified}", stratified)),
                     jobs=1, quiet=True)
        assert not result.errors
    finally:
        mp.undo()
    return (stratified, stable_order(read_records(data / f"c{stratified}")),
            stable_order(read_records(data / f"m{stratified}")), fold_of, y)


def test_a_chunked_run_gives_the_in_memory_runs_metrics_on_the_same_folds(runs):
    _, chunked, memory, _, _ = runs
    assert len(chunked) == len(memory) == FOLDS * len(CLASSIFIERS)
    for c, m in zip(chunked, memory):
        assert (c["classifier"], c["fold"], c["n_train"], c["n_test"], c["confusion"]) == \
               (m["classifier"], m["fold"], m["n_train"], m["n_test"], m["confusion"])
        assert c.get("structure") == m.get("structure")
        assert set(c["metrics"]) == set(m["metrics"]) - {"auc_ovr"}
        for name in set(METRICS) & set(m["metrics"]):  # A2DE and SKDB have no model scores
            assert c["metrics"][name] == pytest.approx(m["metrics"][name], rel=1e-9, abs=1e-12), \
                (c["classifier"], c["fold"], name)
    # kdb's nodes of two parents: 7 arcs over 5 attributes (a tree has 4)
    assert all(int(r["structure"].split("; ")[1].split()[0]) > 4
               for r in chunked if r["classifier"] == "kdb")


def test_stratified_hashed_folds_keep_each_class_within_one_row_per_fold(runs):
    stratified, chunked, _, fold_of, y = runs
    per_class = np.array([np.bincount(fold_of[y == c], minlength=FOLDS) for c in range(3)])
    spread = per_class.max(axis=1) - per_class.min(axis=1)
    if stratified:
        assert spread.max() <= 1
    else:  # a plain hash balances only in expectation
        assert spread.max() > 1
    sizes = {r["fold"]: r["n_test"] for r in chunked}
    assert [sizes[f] for f in range(FOLDS)] == np.bincount(fold_of, minlength=FOLDS).tolist()


def test_per_fold_cut_points_are_those_found_on_each_training_part_in_memory(data):
    source = scan(data / "parts", name=NAME, chunk_rows=50)
    ds = load_dataset(data / "whole.csv")
    for stratified in (False, True):
        dealing = Dealing(SEED, NAME, FOLDS, 2, stratified)
        folds = fold_sources(source, dealing, cut_method("mdl"),
                             lambda fn, tasks: map_jobs(fn, tasks, jobs=1), 50)
        for rep in range(2):
            fold_of = _assignment(ds.y, stratified, rep)
            for f in range(FOLDS):
                cuts = Discretizer("mdl").fit(ds.take(np.flatnonzero(fold_of != f))).cuts_
                got = folds[rep][f]
                assert {n: c.tolist() for n, c in cuts.items()} == {
                    n: list(c) for n, c in zip(got.attribute_names, got.cuts) if c is not None}
                assert sum(len(c) for c in cuts.values()) >= 2  # MDL cut somewhere


def test_the_stratified_dealing_is_documented_by_a_doctest():
    assert doctest.testmod(fold_assignment).failed == 0


def test_the_report_says_how_the_folds_were_hashed(runs, data):
    stratified = runs[0]
    text = (data / f"c{stratified}" / "report.html").read_text()
    words = ("folds dealt by a class-stratified hash of the row index on mixed" if stratified
             else "folds dealt by a hash of the row index (not stratified) on mixed")
    assert words in text
