"""Per-fold execution: a learner's randomness is derived from the fold when left unset."""
from bayesbench.evaluation.execute import task_seed
from bayesbench.evaluation.store import read_records


def test_random_state_is_derived_per_fold_when_left_none(finished):
    _, result = finished
    for r in read_records(result.run_dir):
        if r["learner"] == "fss":
            assert r["params"]["random_state"] == task_seed(3, r["dataset"], r["repetition"],
                                                            r["fold"])
        else:
            assert "random_state" not in r["params"]


def test_the_first_folds_network_is_kept_and_matches_its_summary(finished):
    # The record's network is the structure its one-line summary describes; only the first
    # fold's record holds it, and naive Bayes (nothing learned) has none.
    from bayesbench.models.structure import Node, Structure

    _, result = finished
    records = read_records(result.run_dir)
    held = [r for r in records if "network" in r]
    assert held and {(r["repetition"], r["fold"]) for r in held} == {(0, 0)}
    assert {r["learner"] for r in held} == {"fss"}
    for r in held:
        net = r["network"]
        structure = Structure([Node(a, p) for a, p in net["nodes"]], len(net["attributes"]),
                              attribute_names=net["attributes"])
        assert structure.summary() == r["structure"]
    assert all(r["metrics"]["cpu_seconds"] >= 0 for r in records if r["status"] == "ok")
