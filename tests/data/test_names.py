"""An alias of a shipped data set gives its canonical data set's file, checksum and folds, from
any directory; no shipped config names an alias, so none of their records change."""
import hashlib
from pathlib import Path

import numpy as np
import yaml
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.data import bundled_dir, find_dataset, load_dataset, locate_dataset
from bayesbench.data.names import ALIASES, canonical, names_of
from bayesbench.evaluation.splits import make_splits
from bayesbench.evaluation.store import read_records
from bayesbench.evaluation.schemes import KFold

ROOT = Path(__file__).resolve().parents[2]


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_vote_is_house_votes_84():
    assert canonical("vote") == "house-votes-84" and names_of("vote") == ("house-votes-84", "vote")
    assert names_of("iris") == ("iris",)
    # With the checkout, and with the bundled data sets alone (an installed package run
    # from elsewhere): both names find one file.
    assert locate_dataset("vote") == locate_dataset("house-votes-84")
    bundled = find_dataset("house-votes-84", [bundled_dir()])
    assert bundled == find_dataset("vote", [bundled_dir()]) == bundled_dir() / "vote.arff"
    # The two copies are the same bytes, so the checksum is the same wherever they are found.
    assert _sha(bundled) == _sha(ROOT / "datasets" / "house-votes-84.arff")


def test_an_alias_gets_the_same_folds():
    y = load_dataset(locate_dataset("vote")).y
    for rep in range(3):
        ours = make_splits(y, KFold.spec(folds=10), seed=7, dataset="vote", repetition=rep)
        theirs = make_splits(y, KFold.spec(folds=10), seed=7, dataset="house-votes-84",
                             repetition=rep)
        assert all(np.array_equal(a.test, b.test) for a, b in zip(ours, theirs))
    other = make_splits(y, KFold.spec(folds=10), seed=7, dataset="vote-copy", repetition=0)
    assert not all(np.array_equal(a.test, b.test) for a, b in zip(ours, other))  # guard


def test_each_name_gets_identical_scores_from_another_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def records_of(datasets, out):
        # One config per name: both in one config are refused as one data set listed twice
        # (issue 34, class 6; tests/test_config.py).
        (tmp_path / f"{out}.yaml").write_text(yaml.safe_dump({
            "name": "aliases", "seed": 3, "datasets": datasets,
            "cv": {"folds": 5}, "preprocess": {"impute": "weighted_random",
                                               "noise": {"fraction": 0.2, "on": "both"}},
            "classifiers": ["nb", "tan", {"name": "fss", "params": {"inner_folds": 2}}]}))
        res = CliRunner().invoke(main, ["run", f"{out}.yaml", "-o", out, "-j", "1", "-q"])
        assert res.exit_code == 0, res.output
        return read_records(tmp_path / out)

    records = records_of(["iris", "vote"], "alias") + records_of(["house-votes-84"], "canonical")

    def scores(name):
        return {(r["fold"], r["classifier"]): (r["n_test"], r["confusion"], r["metrics"]["log_loss"],
                                               r["params"].get("random_state"))
                for r in records if r["dataset"] == name}

    assert scores("vote") == scores("house-votes-84") and len(scores("vote")) == 15


def test_no_shipped_config_names_an_alias():
    for path in sorted((ROOT / "configs").rglob("*.yaml")):
        raw = yaml.safe_load(path.read_text())
        entries = raw.get("datasets") or [] if isinstance(raw, dict) else []
        names = {e if isinstance(e, str) else e.get("name") or e.get("path") for e in entries}
        assert not names & set(ALIASES), path
