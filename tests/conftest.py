"""Shared fixtures: where the read-only material beside the checkout lives."""
from pathlib import Path

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
