"""Learning curves' subsamples (``cv.train_sizes``): stratified prefixes of one seeded order per
fold, nested across sizes, the same in every process; the key checked before any work, the
records of a run without it as they were."""
import numpy as np
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.data.fold_assignment import fold_rng
from bayesbench.errors import ConfigError
from bayesbench.evaluation.plan import plan
from bayesbench.evaluation.train_sizes import rows_of, stratified_order, subsamples
from helpers import run, small_config


def test_every_prefix_holds_each_class_within_one_row_of_its_share():
    # 12 rows of class 0, 6 of class 1, 2 of class 2, shuffled.
    y = np.random.default_rng(0).permutation(np.repeat([0, 1, 2], [12, 6, 2]))
    order = stratified_order(y, np.random.default_rng(5))
    assert sorted(order) == list(range(20))  # every row once
    for m in range(1, 21):
        counts = np.bincount(y[order[:m]], minlength=3)
        share = m * np.array([12, 6, 2]) / 20  # the class's share of m rows, by hand
        assert np.all(np.abs(counts - share) <= 1), (m, counts, share)


def test_sizes_are_rows_or_rounded_fractions_and_nested():
    assert [rows_of(s, 135) for s in (50, 0.25, 1.0, 0.001)] == [50, 34, 135, 2]  # 33.75 -> 34
    y = np.repeat([0, 1], [90, 60])
    train = np.arange(0, 150, 1)[np.arange(150) % 10 != 3]  # 135 rows, one fold's test left out
    parts = subsamples(train, y, (10, 0.5, 1.0), seed=4, dataset="d", repetition=1, fold=2)
    assert [(s, len(rows)) for s, rows in parts] == [(10, 10), (0.5, 68), (1.0, 135)]
    assert set(parts[0][1]) <= set(parts[1][1]) <= set(parts[2][1]) == set(train)
    assert all(np.all(np.diff(rows) > 0) for _, rows in parts)  # sorted, as a split's rows
    again = subsamples(train, y, (10,), seed=4, dataset="d", repetition=1, fold=2)
    np.testing.assert_array_equal(again[0][1], parts[0][1])
    other = subsamples(train, y, (10,), seed=5, dataset="d", repetition=1, fold=2)
    assert not np.array_equal(other[0][1], parts[0][1])


def test_the_same_rows_and_scores_serially_and_in_processes(uci_dir, tmp_path):
    def records(where, jobs):
        cfg = small_config(uci_dir, tmp_path / where, cv={"folds": 3, "train_sizes": [12, 0.5]},
                           classifiers=["nb"], datasets=["iris"])
        return {r["task_id"]: (r["train_size"], r["n_train"], r["confusion"])
                for r in run(cfg, jobs=jobs, quiet=True).records}

    serial = records("serial", 1)
    assert serial == records("processes", 2)
    assert {v[:2] for v in serial.values()} == {(12, 12), (0.5, 50)}


def test_the_key_is_checked_with_its_path(uci_dir, tmp_path):
    for sizes, key, words in (([1], "cv.train_sizes[0]", "at least 2"),
                              ([0.0, 1.5], "cv.train_sizes[0]", "(0, 1]"),
                              ([50, 50], "cv.train_sizes", "twice"),
                              ([], "cv.train_sizes", "1 to 20"),
                              (list(range(2, 30)), "cv.train_sizes", "1 to 20"),
                              ("50", "cv.train_sizes", "a list"),
                              ([True], "cv.train_sizes[0]", "an integer")):
        with pytest.raises(ConfigError) as info:
            small_config(uci_dir, tmp_path, cv={"folds": 3, "train_sizes": sizes})
        problems = dict(info.value.problems)
        assert key in problems and words in problems[key], (sizes, problems)
    with pytest.raises(ConfigError) as info:
        small_config(uci_dir, tmp_path, cv={"loo": True, "train_sizes": [0.5]})
    assert "loo" in dict(info.value.problems)["cv.train_sizes"]


def test_a_count_above_a_training_part_is_refused_before_anything_is_written(uci_dir, tmp_path):
    config = tmp_path / "big.yaml"
    # iris: 150 rows, 3 folds -> training parts of 100; lenses: 24 rows -> 16.
    config.write_text(f"name: big\ndata_dirs: [{uci_dir}]\ndatasets: [iris, lenses]\n"
                      f"cv: {{folds: 3, train_sizes: [10, 20, 0.5, 120]}}\nclassifiers: [nb]\n")
    result = CliRunner().invoke(main, ["run", str(config), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert any("cv.train_sizes[1]" in ln and "lenses (16 rows)" in ln for ln in lines), lines
    assert any("cv.train_sizes[3]" in ln and "iris (100 rows)" in ln for ln in lines), lines
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_records_carry_their_size_and_a_run_without_sizes_is_as_before(uci_dir, tmp_path):
    plain = run(small_config(uci_dir, tmp_path / "a", classifiers=["nb"], cv={"folds": 3}),
                jobs=1, quiet=True)
    curve = run(small_config(uci_dir, tmp_path / "b", classifiers=["nb"],
                             cv={"folds": 3, "train_sizes": [8, 1.0]}), jobs=1, quiet=True)
    assert not any("train_size" in r for r in plain.records)
    assert [r for r in plain.records if "train_size" in r] == []
    sizes = {(r["dataset"], r["fold"], r["train_size"]): r for r in curve.records}
    assert len(sizes) == len(curve.records) == 2 * len(plain.records)
    assert len({r["task_id"] for r in curve.records}) == len(curve.records)
    for r in plain.records:  # the whole training part: the same folds, rows and scores
        full = sizes[r["dataset"], r["fold"], 1.0]
        assert (full["fold_id"], full["n_train"], full["confusion"]) == (
            r["fold_id"], r["n_train"], r["confusion"])
        assert sizes[r["dataset"], r["fold"], 8]["n_train"] == 8
    header = (plain.run_dir / "summary" / "scores.csv").read_text().splitlines()[0]
    assert "train_size" not in header
    header = (curve.run_dir / "summary" / "scores.csv").read_text().splitlines()[0]
    assert header.split(",")[4:7] == ["fold", "train_size", "fold_id"]


def test_the_subsample_streams_are_the_folds_own(uci_dir, tmp_path):
    # The order is drawn from (seed, data set, repetition, fold) and its own stream, so that
    # it never shifts the folds, the imputation or a classifier's random_state.
    cfg = small_config(uci_dir, tmp_path, cv={"folds": 3, "train_sizes": [0.3]},
                       classifiers=["nb"], datasets=["iris"])
    job = plan(cfg.experiment).jobs[0]
    y = job.data.imputed.y
    full = np.setdiff1d(np.arange(len(y)), job.test)
    rng = fold_rng(3, "iris", job.repetition, job.fold, 6)
    expected = np.sort(full[stratified_order(y[full], rng)][:30])
    np.testing.assert_array_equal(job.train, expected)


def test_kept_predictions_of_a_curve_say_their_size(uci_dir, tmp_path):
    from bayesbench import load_predictions

    result = run(small_config(uci_dir, tmp_path, classifiers=["nb"], datasets=["iris"],
                              cv={"folds": 3, "repeats": 1, "train_sizes": [10, 1.0]},
                              predictions=True), jobs=1, quiet=True)
    frame = load_predictions(result.run_dir)
    assert list(frame.columns[:7]) == ["dataset", "classifier", "repetition", "fold",
                                       "train_size", "row", "true"]
    # Every row of iris is tested once per size (the test folds do not change with the size).
    for size in (10, 1.0):
        assert sorted(frame[frame.train_size == size]["row"]) == list(range(150))
