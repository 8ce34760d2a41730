"""After a plain (non-editable) `pip install .`, every shipped data set resolves by name from a
directory outside the checkout (issue 24, item 6), and an alias gets its canonical data set's
folds and scores there too.

The wheel is built from a copy of the checkout without the network (`--no-index`, no build
isolation: setuptools and wheel come from the test environment) and installed with `--target`
into a temporary directory that is put first on PYTHONPATH; the commands run from another
temporary directory, so neither the checkout nor the working directory can supply the data.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bayesbench.data.names import canonical

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow  # a wheel built and installed, then runs from outside


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(site directory holding the installed package, environment that imports it first)."""
    tmp = tmp_path_factory.mktemp("installed")
    src = tmp / "src"
    src.mkdir()
    # The files the build reads; a copy, so the build's own build/ and egg-info stay out of
    # the checkout that other tests are reading.
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("bayesbench", "datasets"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-w", str(tmp / "wheel"), str(src)], check=True, capture_output=True)
    wheel, = (tmp / "wheel").glob("bayesbench-*.whl")
    site = tmp / "site"
    subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(site),
                    str(wheel)], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != "BAYESBENCH_DATA"}
    env["PYTHONPATH"] = str(site)
    return site, env


def _python(code, env, cwd, *args):
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_every_shipped_data_set_resolves_by_name_from_elsewhere(installed, tmp_path):
    site, env = installed
    out = subprocess.run([sys.executable, "-m", "bayesbench.cli", "datasets"], env=env,
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("---")) + 1:]
    # name, rows (a count, not the reason a file could not be read), ..., where it was found
    listed = {line.split()[0]: (line.split()[1], line.split("  ")[-1].strip().split(",")[0])
              for line in table}
    assert all(rows.isdigit() for rows, _ in listed.values()), out.stdout
    shipped = {p.stem for p in (ROOT / "datasets").glob("*.arff")}
    bundled = {p.stem for p in (ROOT / "bayesbench" / "datasets").iterdir()
               if p.suffix in (".arff", ".csv")}
    assert set(listed) == shipped | bundled
    found = _python(
        "import json, sys, bayesbench\n"
        "from bayesbench.data import locate_dataset, search_path\n"
        "print(json.dumps({'package': bayesbench.__file__,\n"
        "    'path': [o for o, _ in search_path()],\n"
        "    'located': {n: str(locate_dataset(n)) for n in sys.argv[1:]}}))",
        env, tmp_path, *listed)
    assert Path(found["package"]).is_relative_to(site)      # not the checkout's package
    assert found["path"] == ["installed", "bundled"]
    for name, path in found["located"].items():
        origin = listed[name][1]
        assert Path(path).is_relative_to(site), name
        # The installed file is the checkout's, byte for byte (the checksums of
        # datasets/README.md hold for it), and hides the bundled one of the same name; an
        # alias (vote) finds its canonical data set's installed file.
        assert origin == ("installed" if canonical(name) in shipped else "bundled"), name
        source = ROOT / ("datasets" if origin == "installed" else "bayesbench/datasets")
        assert _sha(path) == _sha(source / Path(path).name), name


def test_iris_vote_and_house_votes_84_run_from_elsewhere_and_the_alias_scores_the_same(
        installed, tmp_path):
    site, env = installed

    def run(out, datasets):
        # One config per name: listing an alias beside its canonical name in one config is
        # refused as one data set listed twice (issue 34, class 6).
        (tmp_path / f"{out}.yaml").write_text(yaml.safe_dump({
            "name": "anywhere", "seed": 5, "datasets": datasets,
            "cv": {"folds": 5}, "preprocess": {"impute": "weighted_random"},
            "classifiers": ["nb", "tan"], "metrics": ["accuracy", "log_loss"]}))
        done = subprocess.run([sys.executable, "-m", "bayesbench.cli", "run", f"{out}.yaml",
                               "-o", out, "-j", "1", "-q"], env=env, cwd=tmp_path,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return [json.loads(line)
                for line in (tmp_path / out / "records.jsonl").read_text().splitlines()]

    records = run("run", ["iris", "vote"]) + run("canonical", ["house-votes-84"])
    assert {r["status"] for r in records} == {"ok"}

    def scores(name):
        return {(r["classifier"], r["repetition"], r["fold"]):
                (r["fold_id"], r["seed"], r["n_test"], r["confusion"],
                 {k: v for k, v in r["metrics"].items() if not k.endswith("_seconds")})
                for r in records if r["dataset"] == name}

    assert len(scores("iris")) == 10
    assert scores("vote") == scores("house-votes-84") and len(scores("vote")) == 10
    env_record = json.loads((tmp_path / "run" / "environment.json").read_text())
    text = json.dumps(env_record)
    # The run read the installed copy, whose checksum is the checkout's file's.
    assert str(site) in text and str(ROOT) not in text
