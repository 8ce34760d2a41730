"""Bad input on the command line: one line on standard error naming the file, a non-zero exit,
never a traceback, and nothing written."""
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import load_config


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(res, code, *fragments):
    assert res.exit_code == code, (res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bayesbench: error: "), res.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.mark.parametrize("text, got", [("- iris\n- nb\n", "a list"), ("", "an empty file"),
                                       ("just words\n", "a string")])
def test_a_config_that_is_not_a_mapping_is_one_line(tmp_path, text, got):
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    one_line_error(invoke("run", path), 2, str(path), "expected a mapping", got)


def test_a_config_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_bytes(b"name: x\ndatasets: [caf\xe9]\nclassifiers: [nb]\n")
    one_line_error(invoke("run", path), 2, str(path), "line 2: not UTF-8")


def test_a_key_given_twice_is_refused_not_silently_overwritten(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text("name: x\ndatasets: [iris]\nclassifiers: [nb]\nclassifiers: [tan]\n")
    one_line_error(invoke("run", path), 2, "line 4", "key 'classifiers' given twice (lines 3 and 4)")
    path.write_text("name: x\ndatasets: [iris]\nclassifiers:\n  - {name: nb, params: {alpha: 1, alpha: 2}}\n")
    one_line_error(invoke("run", path), 2, "key 'alpha' given twice")
    # YAML merge keys may still be overridden: that is their purpose, not a repetition.
    path.write_text("name: x\ndatasets: [iris]\nbase: &b {alpha: 1}\n"
                    "classifiers:\n  - {name: nb, params: {<<: *b, alpha: 2}}\n")
    res = invoke("run", path)
    assert "given twice" not in res.stderr and "base: unknown key" in res.stderr
    path.write_text("name: x\ndatasets: [iris]\nclassifiers:\n  - {name: nb, params: {<<: {alpha: 1}, alpha: 2}}\n")
    assert load_config(path).classifiers[0].params == {"alpha": 2}
