"""Bad data files: one line naming the file (and line or attribute), non-zero exit, no traceback."""
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.data import load_dataset
from bayesbench.errors import DataError

HEADER = "@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n"

CASES = {
    # name: (file name, content or None for absent, extra CLI args, expected location, words)
    "missing file": ("absent.arff", None, [], "absent.arff: ", "no such file"),
    "wrong number of values": ("b.arff", HEADER + "1,x\n2,y,3\n", [], "b.arff:6: ",
                               "wrong number of values"),
    "not a number": ("b.arff", HEADER + "1,x\nabc,y\n", [], "b.arff:6: ", "not a number"),
    "undeclared category": ("b.arff", HEADER + "1,x\n2,z\n", [], "b.arff:6: ",
                            "z not found"),
    "bad attribute type": ("b.arff", "@relation r\n@attribute a numerik\n@attribute c {x,y}\n"
                           "@data\n1,x\n", [], "b.arff:2: ", "ATTRIBUTE type"),
    "unterminated quote": ("b.arff", HEADER + "1,x\n2,'y\n", [], "b.arff:6: ", "'y"),
    "csv field count": ("b.csv", "a,b\n1,x\n2,y,4\n", [], "b.csv:3: ", "expected 2 fields"),
    "csv quote": ("b.csv", "a,b\n1,x\n2,\"y\n", [], "b.csv:3: ", "CSV record"),
    "unknown class": ("ok.arff", HEADER + "1,x\n2,y\n", ["--class", "nope"], "ok.arff: ",
                      "no class attribute named 'nope'"),
    "numeric class": ("ok.arff", HEADER + "1,x\n2,y\n", ["--class", "a"], "ok.arff: ",
                      "attribute 'a': the class attribute is numeric"),
    "one class value": ("one.arff", HEADER + "1,x\n2,x\n", [], "one.arff: ",
                        "attribute 'class': the class takes a single value ('x')"),
    "empty data set": ("empty.arff", HEADER, [], "empty.arff: ", "no rows"),
    "empty csv": ("empty.csv", "", [], "empty.csv: ", "empty"),
    "only missing classes": ("mc.arff", HEADER + "1,?\n2,?\n", [], "mc.arff: ",
                             "missing class"),
    "unknown format": ("data.xlsx", "whatever", [], "data.xlsx: ", "unknown data format"),
    "empty arff": ("empty.arff", "", [], "empty.arff: ", "the file is empty"),
    "empty nominal": ("b.arff", "@relation r\n@attribute b {}\n@attribute c {x,y}\n@data\n?,x\n",
                      [], "b.arff:2: ", "attribute 'b': declares no categories"),
    "utf-16": ("u.arff", (HEADER + "1,x\n2,y\n").encode("utf-16"), [], "u.arff: ", "UTF-16"),
    "latin-1 byte": ("l.arff", (HEADER + "% caf\xe9\n1,x\n2,y\n").encode("latin-1"), [],
                     "l.arff:5: ", "not UTF-8 text: byte 0xe9"),
    "single column csv": ("one.csv", "a|b\n1|x\n2|y\n", [], "one.csv: ",
                          "reads as a single column"),
    "unsupported escape": ("b.arff", HEADER + "1,x\n'\\q',y\n", [], "b.arff:6: ",
                           "Unsupported escape sequence"),
    "csv short record": ("s.csv", "a,b,c\n1,2,x\n3,y\n", [], "s.csv:3: ",
                         "expected 3 fields as in the header, found 2"),
    # A vertical tab or U+2028 is a character of its line, not a line break: the error
    # names the line that grep -n and an editor show (7), not str.splitlines' count (8).
    "after a vertical tab": ("b.arff", HEADER + "1,x\n2\v,y\nabc,x\n", [], "b.arff:7: ",
                             "not a number"),
    "after U+2028": ("b.arff", HEADER + "1,x\n2,y\u2028\nabc,x\n", [], "b.arff:7: ",
                     "not a number"),
    "header after U+2029": ("b.arff", "@relation r\u2029\n@attribute a numerik\n"
                            "@attribute c {x,y}\n@data\n1,x\n", [], "b.arff:2: ",
                            "ATTRIBUTE type"),
    "libsvm after a form feed": ("b.libsvm", "1 1:2\f\n0 1:3\n1 x:1\n", [], "b.libsvm:3: ",
                                 ""),
}


def _write_case(tmp_path, case):
    name, content, args, where, words = CASES[case]
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    return path, args, where, words


@pytest.mark.parametrize("case", sorted(CASES))
def test_library_raises_a_data_error_naming_file_and_place(tmp_path, case):
    path, args, where, words = _write_case(tmp_path, case)
    kwargs = {"class_attribute": args[1]} if args else {}
    with pytest.raises(DataError) as err:
        load_dataset(path, **kwargs)
    msg = str(err.value)
    assert msg.startswith(str(tmp_path / where)), msg
    assert words in msg, msg
    assert "\n" not in msg


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_prints_one_line_and_fails(tmp_path, case):
    path, args, where, words = _write_case(tmp_path, case)
    result = CliRunner().invoke(main, ["discretize", str(path), *args])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"bayesbench: error: {tmp_path / where}")
    assert words in lines[0]
