"""Planning: every unusable data set reported at once, before anything is written."""
import pytest

from bayesbench.config import key_paths
from bayesbench.errors import ConfigError, PlanError
from helpers import run, small_config


def test_plan_reports_unusable_data_sets_before_creating_the_directory(uci_dir, tmp_path):
    cfg = small_config(uci_dir, tmp_path, datasets=[{"name": "iris", "class": "colour"}, "lenses"],
                       cv={"folds": 30})
    with pytest.raises(PlanError) as info:
        run(cfg, jobs=1, quiet=True)
    fields = [f for f, _ in info.value.problems]
    assert fields == [("datasets", 0), ("cv", "folds")]
    assert not (tmp_path / "out").exists()
    # The config layer names the key paths.
    with pytest.raises(ConfigError) as info, key_paths():
        run(cfg, jobs=1, quiet=True)
    keys = [k for k, _ in info.value.problems]
    assert keys == ["datasets[0]", "cv.folds"]
    assert "colour" in info.value.problems[0][1] and "lenses" in info.value.problems[1][1]
    assert not (tmp_path / "out").exists()
