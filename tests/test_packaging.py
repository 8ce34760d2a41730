"""The README's set-up commands and CI must not drift apart, and the code keeps the shape CI checks."""
import ast
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
    # click's README is about sixty lines: an example, the set-up, and links to topic pages.
    assert len(text.splitlines()) <= 70
    assert text.split("\n## ", 1)[0].count("```console") == 1, "the README starts with an example"
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


def test_ci_checks_the_import_layers_and_runs_ruff():
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert ".venv/bin/lint-imports" in ci_lines and ".venv/bin/ruff check ." in ci_lines
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'type = "layers"' in pyproject and 'select = ["F", "C90"]' in pyproject


def _functions(paths):
    for path in paths:
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path, node, source.splitlines()


ORCHESTRATION = [p for p in sorted((ROOT / "bayesbench").rglob("*.py"))
                 if p.relative_to(ROOT / "bayesbench").parts[0] in (
                     "config", "evaluation", "report", "experiment.py", "cli.py", "spec.py")]


def test_no_orchestration_function_is_longer_than_60_lines():
    long = [f"{path.name}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path, node, _ in _functions(ORCHESTRATION)
            if node.end_lineno - node.lineno + 1 > 60]
    assert not long


def test_every_function_level_import_says_why():
    # Such imports are kept only where they keep `bayesbench --help` fast (or load an
    # optional dependency), and say so with a `# lazy:` comment on the line or the one above.
    silent = []
    for path, function, lines in _functions(ORCHESTRATION):
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                around = lines[node.lineno - 1] + lines[node.lineno - 2]
                if "# lazy:" not in around:
                    silent.append(f"{path.name}:{node.lineno}")
    assert not silent


def test_the_package_list_names_every_package_and_ships_the_datasets():
    # pyproject.toml lists the packages (find cannot add the mapped data package), so a new
    # subpackage missing from the list would be missing from every wheel.
    import tomllib  # lazy: only this test reads pyproject.toml as TOML
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "bayesbench").rglob("__init__.py")}
    mapped = setuptools["package-dir"]
    assert set(setuptools["packages"]) == found | set(mapped)
    assert mapped == {"bayesbench.installed_datasets": "datasets"}
    assert setuptools["package-data"]["bayesbench.installed_datasets"] == ["*.arff", "README.md"]
