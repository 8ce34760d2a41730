"""Every code block of README.md and docs/*.md runs, so that the documentation cannot drift.

Blocks are fenced and say what they are; each kind is checked as what it is:

- ``python``: executed, the blocks of one page in order and in one namespace;
- ``pycon``: a doctest (``...`` in the output matches anything, whitespace is normalised);
- ``console``: ``$ command`` lines run by the shell, each followed by its expected output
  (standard output, then standard error), compared as a doctest compares;
- ``sh``: commands too slow to run here (benchmarks, full paper runs): each must answer
  ``--help``, accept every option it uses, and name only files that exist;
- ``yaml``: parsed; a block with ``classifiers`` is validated as an experiment config;
- ``json``: parsed; a record example must have the keys of a record ``bayesbench run`` writes;
- ``toml``: parsed; an entry-point table must be the one examples/oner declares;
- ``text``: not code (a directory tree), left alone.

The blocks of a page run in a fresh working directory holding links to the checkout's
``configs/``, ``datasets/`` and ``tests/``, with no ``BAYESBENCH_DATA``, as in a fresh clone.
docs/reproductions.md is generated; its commands are run by tests/configs/test_paper_configs.py.
"""
from __future__ import annotations

import doctest
import functools
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import bayesbench.data.load
from bayesbench.cli import main
from bayesbench.config import parse_config
from bayesbench.data import DATA_ENV

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)
KINDS = {"python", "pycon", "console", "sh", "yaml", "json", "toml", "text"}
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
BIN = Path(sys.executable).parent


def blocks(page: Path) -> list[tuple[str, str, int]]:
    """(language, body, line number) of every fenced block of ``page``."""
    text = page.read_text()
    return [(m["lang"], m["body"], text.count("\n", 0, m.start()) + 1)
            for m in FENCE.finditer(text)]


def unfenced_code(page: Path) -> list[int]:
    """Lines that start an indented code block outside the fences (Markdown's other kind of
    code block), which nothing would check. The README's two set-up commands are the exception:
    tests/test_packaging.py checks them."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), page.read_text())
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0] if page.name == "README.md" else ""
    lines = text.replace(setup, "\n" * setup.count("\n")).splitlines()
    return [i + 1 for i, line in enumerate(lines)
            if line.startswith("    ") and i and not lines[i - 1].strip()]


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    for name in ("configs", "datasets", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(DATA_ENV, raising=False)
    return tmp_path


def shell_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != DATA_ENV}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def run_console(body: str, where: str) -> None:
    commands, expected = [], []
    for line in body.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
            expected.append([])
        else:
            assert commands, f"{where}: output before the first '$ ' command"
            expected[-1].append(line)
    for command, want in zip(commands, expected):
        got = in_process(command)
        if got is None:
            done = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                                  env=shell_env())
            got = done.stdout + done.stderr
        want = "\n".join(want) + "\n" if want else ""
        if not CHECKER.check_output(want, got, FLAGS):
            pytest.fail(f"{where}: $ {command}\n" + CHECKER.output_difference(
                doctest.Example(command, want), got, FLAGS))


def in_process(command: str) -> str | None:
    """The output (standard output, then standard error) of ``command`` when it is a plain
    ``bayesbench ...`` line, run by the CLI in this process, as the shell would run it in the
    workspace without ``BAYESBENCH_DATA``; None for a line with shell syntax (a pipe, a
    redirection, a variable, ``;``), which the shell runs. A process of its own cost each
    command a second of start and imports; the console script itself is run by
    tests/test_installed.py and tests/test_cli.py."""
    words = shlex.split(command)
    if words[0] != "bayesbench" or any(c in command for c in "|&;<>$`*?"):
        return None
    result = CliRunner().invoke(main, words[1:], prog_name="bayesbench")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback the shell would have printed
    return result.stdout + result.stderr


@functools.cache
def help_of(command: tuple[str, ...]) -> subprocess.CompletedProcess:
    """``COMMAND --help``, run once per command: docs/reproductions.md alone names
    ``bayesbench run`` 26 times, and its help does not change between them."""
    return subprocess.run([*command, "--help"], capture_output=True, text=True, env=shell_env())


def check_sh(body: str, where: str) -> None:
    for line in body.splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        assert words[0] in ("python", "bayesbench"), f"{where}: {line}"
        # python SCRIPT or bayesbench COMMAND, then the arguments
        command = ([sys.executable, str(ROOT / words[1])] if words[0] == "python"
                   else [str(BIN / words[0]), words[1]])
        helped = help_of(tuple(command))
        assert helped.returncode == 0, f"{where}: {line}: --help failed: {helped.stderr}"
        for arg in words[2:]:
            if arg.startswith("-"):
                assert arg.split("=")[0] in helped.stdout, f"{where}: {line}: no option {arg}"
            elif "/" in arg and Path(arg).suffix and not arg.startswith("/tmp/"):
                assert (ROOT / arg).exists(), f"{where}: {line}: no file {arg}"


def check_json(body: str, where: str, record_keys) -> None:
    data = json.loads(body)
    if "task_id" in data:
        top, per_class = record_keys()
        assert set(data) == top, f"{where}: {set(data) ^ top}"
        assert set(data["per_class"]) == per_class, where


def check_toml(body: str, where: str) -> None:
    """A TOML block parses, and an entry-point table is the example plugin's own."""
    import tomllib

    data = tomllib.loads(body)
    points = data.get("project", {}).get("entry-points")
    if points is not None:
        example = tomllib.loads((ROOT / "examples" / "oner" / "pyproject.toml").read_text())
        assert points == example["project"]["entry-points"], where


@pytest.fixture(scope="module")
def record_keys(tmp_path_factory):
    """The keys of a record written by `bayesbench run`, computed once when asked for."""
    cache = {}

    def keys():
        if not cache:
            out = tmp_path_factory.mktemp("record")
            config = out / "c.yaml"
            config.write_text("name: c\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers: [nb]\n")
            subprocess.run([str(BIN / "bayesbench"), "run", str(config), "-q", "-o",
                            str(out / "r")], check=True, env=shell_env())
            record = json.loads((out / "r" / "records.jsonl").read_text().splitlines()[0])
            cache["keys"] = set(record), set(record["per_class"])
        return cache["keys"]
    return keys


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_code_block_runs(page, workspace, record_keys, oner_plugin):
    # oner_plugin: docs/plugins.md names examples/oner's entry point, as after `pip install`
    assert not unfenced_code(page), f"{page.name}: indented code blocks at lines " \
                                    f"{unfenced_code(page)}; fence them with a language"
    namespace = {"__name__": f"docs_{page.stem}"}
    for lang, body, line in blocks(page):
        where = f"{page.name}:{line}"
        assert lang in KINDS, f"{where}: say what the block is (one of {sorted(KINDS)})"
        if page.name == "reproductions.md" or lang == "text":
            continue
        if lang == "python":
            exec(compile(body, where, "exec"), namespace)
        elif lang == "pycon":
            test = doctest.DocTestParser().get_doctest(body, namespace, where, where, line)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            runner.run(test, clear_globs=False)
            assert not runner.failures, f"{where}: doctest failed (output above)"
        elif lang == "console":
            run_console(body, where)
        elif lang == "sh":
            check_sh(body, where)
        elif lang == "yaml":
            raw = yaml.safe_load(body)
            if isinstance(raw, dict) and "classifiers" in raw:
                parse_config(raw, base_dir=ROOT)
        elif lang == "json":
            check_json(body, where, record_keys)
        elif lang == "toml":
            check_toml(body, where)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_lead_somewhere(page):
    text = FENCE.sub("", page.read_text())
    for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", text):
        path = (page.parent / target).resolve()
        # design.md is written on the branch that lays out the code's layers
        assert path.exists() or path == ROOT / "docs" / "design.md", f"{page.name}: {target}"


def test_the_reproduction_commands_name_existing_configs():
    for lang, body, line in blocks(ROOT / "docs" / "reproductions.md"):
        assert lang == "sh", f"reproductions.md:{line}"
        check_sh(body, f"reproductions.md:{line}")


def test_docstring_examples_of_the_data_lookup():
    result = doctest.testmod(bayesbench.data.load, optionflags=FLAGS)
    assert result.attempted and not result.failed
