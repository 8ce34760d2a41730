"""The README's set-up commands and CI must not drift apart."""
import re
import subprocess
import sys
from pathlib import Path

import bayesbench

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands():
    text = (ROOT / "README.md").read_text()
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in setup.splitlines() if line.startswith("    ")]


def test_readme_has_exactly_two_setup_commands():
    commands = _readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith("bayesbench run configs/quickstart.yaml")
    assert "pytest" in commands[1]


def test_readme_is_short_and_links_every_page_of_the_docs():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) < 200
    pages = {"configuration", "data", "classifiers", "results", "statistics", "benchmarks",
             "reproductions", "design"} | {p.stem for p in (ROOT / "docs").glob("*.md")}
    for page in pages:
        assert f"(docs/{page}.md)" in text, page
    for target in re.findall(r"\]\(((?:docs|datasets)/[^)#]+)", text):
        # docs/design.md is written on the branch that lays out the code's layers
        assert (ROOT / target).exists() or target == "docs/design.md", target


def test_ci_runs_the_readme_test_command_verbatim():
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert _readme_commands()[1] in ci_lines


def test_version_is_reported_by_the_cli():
    out = subprocess.run([sys.executable, "-m", "bayesbench.cli", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"\b" + re.escape(bayesbench.__version__) + r"\b", out)
