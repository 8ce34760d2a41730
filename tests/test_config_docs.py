"""The configuration reference cannot fall behind the parser: every key the parser accepts is
documented in docs/configuration.md, every mapping the parser checks is one of its tables,
and every document that --help or a message names exists."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import KEY_TABLES

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "configuration.md"
CONFIG_PACKAGE = ROOT / "bayesbench" / "config"
DOCUMENT = re.compile(r"docs/[\w./-]+?\.md")


def _documented(key: str, text: str) -> bool:
    """Whether ``key`` appears as a YAML key in ``text``: at the start of a line (after
    indentation, a list dash or a comment mark, as in `# holdout: 0.3`) or inside a flow
    mapping (`{k: [1, 2]}`)."""
    return re.search(rf"(?m)(^[ \t#-]*|[{{,][ \t]*)\"?{re.escape(key)}\"?:", text) is not None


@pytest.mark.parametrize("where", sorted(KEY_TABLES))
def test_every_key_the_parser_accepts_is_documented(where):
    text = REFERENCE.read_text()
    missing = [k for k in KEY_TABLES[where] if not _documented(k, text)]
    assert not missing, f"{where or 'top level'}: {missing} not in docs/configuration.md"


def test_the_check_of_a_key_fails_for_an_undocumented_one():
    # The check itself must be able to fail: a key that is not written as one is caught.
    text = "cv:\n  folds: 10   # or repeats\n  # holdout: 0.3\nparams: {k: [1, 2]}\n"
    assert _documented("folds", text) and _documented("holdout", text)
    assert _documented("k", text)
    assert not _documented("repeats", text) and not _documented("stratified", text)


def test_every_mapping_the_parser_checks_is_one_of_its_tables():
    # A new section written with an inline tuple of keys would escape the test above.
    names = {name for module in ("__init__", "sections", "datasets")
             for name in _constants(CONFIG_PACKAGE / f"{module}.py")
             if _constant_value(module, name) in KEY_TABLES.values()}
    calls = []
    for path in sorted(CONFIG_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "mapping" and len(node.args) == 3):
                allowed = node.args[2]
                name = allowed.attr if isinstance(allowed, ast.Attribute) else getattr(
                    allowed, "id", None)
                calls.append((path.name, node.lineno, name))
    assert len(calls) >= len(KEY_TABLES)
    assert [c for c in calls if c[2] not in names] == []


def _constants(path: Path) -> list[str]:
    return [t.id for node in ast.parse(path.read_text()).body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name) and t.id.endswith("_KEYS")]


def _constant_value(module: str, name: str):
    import importlib

    return getattr(importlib.import_module(
        "bayesbench.config" if module == "__init__" else f"bayesbench.config.{module}"), name)


@pytest.mark.parametrize("form, pattern", [
    ("a class by import path", r"name: [\w.]+:[A-Z]\w+"),
    ("an entry point", r"bayesbench\.classifiers"),
    ("input:", r"(?m)^\s+input: (codes|onehot|numeric|frame)"),
    ("tune:", r"(?m)^\s+tune:"),
])
def test_each_form_of_naming_a_classifier_has_an_example(form, pattern):
    yaml_blocks = "\n".join(re.findall(r"(?ms)^```(?:yaml|toml)\n(.*?)^```$",
                                       REFERENCE.read_text()))
    assert re.search(pattern, yaml_blocks), f"{form}: no example in docs/configuration.md"


def _help_pages() -> list[str]:
    runner = CliRunner()
    pages = [runner.invoke(main, ["--help"]).output]
    for name in main.commands:
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0, name
        pages.append(result.output)
    return pages


def _message_strings() -> list[tuple[str, str]]:
    """Every string literal of the package's code, with its file (messages, help texts)."""
    out = []
    for path in sorted((ROOT / "bayesbench").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append((str(path.relative_to(ROOT)), node.value))
    return out


def test_every_document_that_help_or_a_message_names_exists():
    named = {(f"--help of {i}", d) for i, page in enumerate(_help_pages())
             for d in DOCUMENT.findall(page.replace("\n", " "))}
    named |= {(where, d) for where, text in _message_strings() for d in DOCUMENT.findall(text)}
    assert any(d == "docs/limits.md" for _, d in named)  # run --help names it
    assert len({d for _, d in named}) >= 5
    missing = sorted((where, d) for where, d in named if not (ROOT / d).is_file())
    assert missing == []
