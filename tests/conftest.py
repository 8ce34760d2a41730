"""Shared fixtures: the data and reference figures inside the checkout, and synthetic data
with a known truth.

Everything a test compares against is in the repository: the data sets in ``datasets/``
(provenance in datasets/README.md) and the reference figures in ``tests/reference/``
(provenance in tests/reference/README.md). A missing directory or file is a test failure,
never a skip.
"""
import json
import os
import re
import sys
from pathlib import Path

# scikit-learn's estimator checks include one that re-runs fit under array API dispatch, which
# scipy reads from this variable when it is first imported; unset, that check skips itself.
# Set before numpy/scipy are imported, so that every check runs (tests/models/test_sklearn_checks.py).
os.environ.setdefault("SCIPY_ARRAY_API", "1")


def _shared_bytecode() -> None:
    """Bytecode in one cache outside the checkout, written once and read by every process of
    the run, when PYTHONDONTWRITEBYTECODE asks that none be written beside the sources (as
    many container images do). Without a cache, each of the suite's processes (pytest-xdist's
    workers, the commands tests start, Dask's workers) compiled numpy, pandas, scipy,
    matplotlib and bayesbench from source again: about 6 s of CPU for a worker's imports,
    2.5 s with the cache. The environment is set before the workers start, so they and every
    process they start share the cache; nothing is written inside the checkout."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    import tempfile  # lazy: only needed here, when the variable is set

    prefix = os.environ.setdefault(
        "PYTHONPYCACHEPREFIX",
        os.path.join(tempfile.gettempdir(), f"bayesbench-pycache-{os.getuid()}"))
    # numba writes the HDP sampler's machine code beside the sources whatever the variable
    # says (cache=True): into the same cache instead, read before numba is first imported
    os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(prefix, "numba"))
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False


_shared_bytecode()

import numpy as np  # noqa: E402
import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(items):
    """The tests marked ``slow`` first, in their order, then the rest: pytest-xdist's workers
    then start with the long tests and end on short ones, instead of one worker running a
    long test alone while the other waits at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _existing(path: Path) -> Path:
    assert path.is_dir(), f"{path} is missing from the checkout"
    return path


@pytest.fixture(scope="session")
def uci_dir() -> Path:
    """``datasets/``: the UCI files of the paper configs and of the tests."""
    return _existing(ROOT / "datasets")


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """``tests/reference/``: Weka's outputs and the published worked examples."""
    return _existing(ROOT / "tests" / "reference")


# A row of the tables in datasets/README.md, up to its "missing values" column.
_README_ROW = re.compile(
    r"^\| (?P<file>[\w.-]+\.(?:arff|csv)) \| (?P<rows>\d+) \| (?P<atts>\d+) \((?P<num>\d+) / "
    r"(?P<nom>\d+)\) \| (?P<classes>\d+)(?: present, (?P<declared>\d+) declared)? "
    r"\(`(?P<cls>[^`]+)`\) \| (?P<missing>no|yes \((?P<cells>\d+) cells, (?P<mrows>\d+) rows\)) \|")
_README_SECTIONS = {"Files in this directory": "checkout",
                    "Bundled with the package (`bayesbench/datasets/`)": "bundled"}


@pytest.fixture(scope="session")
def datasets_readme() -> dict:
    """The two tables of datasets/README.md as ``{"checkout": rows, "bundled": rows}``, each
    row a dict of strings (file, rows, atts, num, nom, classes, declared, cls, missing, cells,
    mrows), and its SHA-256 lines as ``{"checkout": {file: hex}, "bundled": {file: hex}}``
    under the key ``"sha256"``."""
    text = (ROOT / "datasets" / "README.md").read_text()
    tables = {}
    for section in text.split("\n## ")[1:]:
        title, body = section.split("\n", 1)
        if title in _README_SECTIONS:
            tables[_README_SECTIONS[title]] = [
                m.groupdict() for line in body.splitlines() if (m := _README_ROW.match(line))]
    assert set(tables) == set(_README_SECTIONS.values()), "datasets/README.md lost a table"
    sums = text.split("\n## SHA-256\n", 1)[1].split("and in `bayesbench/datasets/`:")
    tables["sha256"] = {
        where: dict(reversed(m.groups()) for m in re.finditer(r"^ +([0-9a-f]{64})  (\S+)$", block, re.M))
        for where, block in zip(("checkout", "bundled"), sums)}
    return tables


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


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _entry_points_txt(pyproject: Path) -> str:
    """The ``entry_points.txt`` that pip writes for the entry points a pyproject.toml declares."""
    out, group = [], None
    for line in pyproject.read_text().splitlines():
        header = re.match(r'^\[project\.entry-points\."([^"]+)"\]$', line.strip())
        if header:
            group = header.group(1)
            out.append(f"[{group}]")
        elif line.startswith("["):
            group = None
        elif group and "=" in line:
            name, value = (part.strip().strip('"') for part in line.split("=", 1))
            out.append(f"{name} = {value}")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="session")
def oner_plugin(tmp_path_factory):
    """The example plugin examples/oner, installed as pip installs it (its package importable,
    and a dist-info declaring its entry point from its own pyproject.toml), for this process
    and every process it starts (worker processes, Dask workers, command-line runs); works
    offline from a fresh clone. Yields the entries put on the path."""
    source = EXAMPLES / "oner"
    site = tmp_path_factory.mktemp("site")
    info = site / "bayesbench_oner-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bayesbench-oner\n"
                                   "Version: 0.1.0\n")
    (info / "entry_points.txt").write_text(_entry_points_txt(source / "pyproject.toml"))
    paths = [str(source), str(site)]
    saved_path, saved_env = list(sys.path), os.environ.get("PYTHONPATH")
    sys.path[:0] = paths
    os.environ["PYTHONPATH"] = os.pathsep.join(paths + ([saved_env] if saved_env else []))
    try:
        yield paths
    finally:
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved_env
