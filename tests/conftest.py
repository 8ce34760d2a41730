"""Shared fixtures: the read-only material beside the checkout, and synthetic data with a known truth."""
import json
from pathlib import Path

import numpy as np
import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"shared material not found at {SHARED}")
    return SHARED


@pytest.fixture(scope="session")
def uci_dir(shared_dir) -> Path:
    return shared_dir / "datasets" / "uci"


@pytest.fixture(scope="session")
def reference_dir(shared_dir) -> Path:
    return shared_dir / "reference"


@pytest.fixture(scope="session")
def demsar(reference_dir) -> dict:
    return json.loads((reference_dir / "demsar2006.json").read_text())


@pytest.fixture(scope="session")
def ttest_ref(reference_dir) -> dict:
    return json.loads((reference_dir / "corrected_ttest.json").read_text())


def _dependent_pair_data(n=2000):
    """x0..x3 independent given the class; x4 copies x0 90 % of the time."""
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    signal = [np.where(rng.random(n) < 0.7, y, 1 - y) for _ in range(4)]
    copy = np.where(rng.random(n) < 0.9, signal[0], rng.integers(0, 2, n))
    return np.column_stack(signal + [copy]), y


@pytest.fixture(scope="session")
def dependent_pair_data():
    """A maker of data where exactly one pair (x0, x4) is dependent given the class."""
    return _dependent_pair_data


@pytest.fixture(scope="session")
def finished(uci_dir, tmp_path_factory):
    """``(config, result)`` of a finished run of :func:`helpers.small_config`."""
    from helpers import run, small_config

    cfg = small_config(uci_dir, tmp_path_factory.mktemp("run"))
    return cfg, run(cfg, jobs=1, quiet=True)
