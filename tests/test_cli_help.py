"""`--help` pages read like man pages: what the command does, examples, and for the group the
environment and exit statuses that the commands actually use."""
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import DATA_ENV
from bayesbench.errors import ConfigError, DataError, Interrupted


def page(*args):
    res = CliRunner().invoke(main, [*args, "--help"])
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("command", ["run", "compare", "discretize"])
def test_every_command_page_has_examples_that_name_the_command(command):
    text = page(command)
    examples = text.split("Examples:", 1)[1].split("Options:", 1)[0]
    lines = [ln.strip() for ln in examples.splitlines() if ln.strip().startswith("bayesbench ")]
    assert len(lines) >= 3 and all(ln.startswith(f"bayesbench {command} ") for ln in lines)


def test_the_group_page_lists_environment_and_the_exit_statuses_in_use():
    text = page()
    assert DATA_ENV in text
    for status in (DataError.exit_code, ConfigError.exit_code, Interrupted.exit_code):
        assert f"\n    {status} " in text
    # Short help of every command fits on the command list without being cut off.
    assert "..." not in text.split("Commands:", 1)[1]


def test_compare_page_says_what_happens_to_failed_cells():
    text = " ".join(page("compare").split())
    assert "gets an empty cell there" in text and "left out of the ranks" in text
    assert "'f1[M]'" in text
