"""Helpers that several test modules share (fixtures live in conftest.py)."""

# The fields of a record that vary between identical runs.
VARYING = ("fit_seconds", "predict_seconds", "checksum")


def without_timings(record: dict) -> dict:
    """A record minus the fields that vary between identical runs (timings, checksum)."""
    return {k: v for k, v in record.items() if k not in VARYING}


def stable_order(records: list[dict]) -> list[dict]:
    """Records sorted by (data set, repetition, fold, classifier)."""
    return sorted(records, key=lambda r: (r["dataset"], r["repetition"], r["fold"],
                                          r["classifier"]))


def run(config, **options):
    """Run a loaded config, its run options replaced by ``options``; the result of its one run."""
    from dataclasses import replace

    from bayesbench.experiment import run_experiment

    [result] = run_experiment(config.experiment, replace(config.options, **options))
    return result


def small_config(uci_dir, tmp_path, **over):
    """A small experiment on iris and lenses (``over`` replaces top-level keys), into
    ``tmp_path/out``; gnb fails on lenses, which has no numeric attribute."""
    from bayesbench.config import parse_config

    raw = {"name": "t", "seed": 3, "data_dirs": [str(uci_dir)],
           "datasets": ["iris", "lenses"], "cv": {"folds": 4, "repeats": 2},
           "classifiers": ["nb", "gnb", {"name": "fss", "params": {"inner_folds": 3}}],
           "output": str(tmp_path / "out")}
    raw.update(over)
    return parse_config(raw, base_dir=tmp_path)
