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
