"""The bytes every reader starts from: UTF-8 or a one-line error naming the line; never a guess."""
import io
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bayesbench.data import load_dataset
from bayesbench.data.text import read_bytes, read_text, split_lines
from bayesbench.errors import DataError

ARFF = "@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n2,y\n"


@pytest.mark.parametrize("name", ["e.arff", "e.csv", "e.libsvm"])
@pytest.mark.parametrize("content", [b"", b"\n  \r\n\t\n"])
def test_an_empty_file_says_empty_in_every_format(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value) == f"{path}: the file is empty"


def test_utf16_is_named_not_read_as_a_layout_error(tmp_path):
    path = tmp_path / "u16.arff"
    path.write_bytes(ARFF.encode("utf-16"))  # with its byte-order mark
    with pytest.raises(DataError, match="UTF-16 text; save it as UTF-8"):
        load_dataset(path)
    bare = tmp_path / "u16le.arff"
    bare.write_bytes(ARFF.encode("utf-16-le"))  # no mark: NUL bytes betray it
    with pytest.raises(DataError) as err:
        load_dataset(bare)
    assert str(err.value).startswith(f"{bare}:1: ") and "NUL byte" in str(err.value)


def test_a_stray_latin1_byte_is_an_error_naming_its_line(tmp_path):
    # 0xe9 is 'é' in Latin-1 and not UTF-8; the file used to be re-decoded as Latin-1 whole
    text = ARFF.replace("@data\n", "@data\n% caf\xe9\n").encode("latin-1")
    path = tmp_path / "latin1.arff"
    path.write_bytes(text)
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value) == (f"{path}:5: not UTF-8 text: byte 0xe9 cannot be decoded; save the "
                              "file as UTF-8")


def test_utf8_with_a_byte_order_mark_and_non_ascii_names(tmp_path):
    path = tmp_path / "bom.arff"
    path.write_bytes(b"\xef\xbb\xbf" + ARFF.replace("@attribute a ", "@attribute '\u00e9t\u00e9' ")
                     .encode("utf-8"))
    ds = load_dataset(path)
    assert ds.attribute_names == ["\u00e9t\u00e9"]
    np.testing.assert_array_equal(ds.columns[0], [1.0, 2.0])
    assert read_text(path).startswith("@relation")  # the mark is dropped


def test_a_fifo_is_refused_instead_of_blocking(tmp_path):
    fifo = tmp_path / "pipe.arff"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_bytes(fifo)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        read_bytes(tmp_path / "absent.arff")
    with pytest.raises(DataError, match="is a directory"):
        read_bytes(tmp_path)


_ODD = st.sampled_from(["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])


@given(st.lists(st.lists(st.one_of(st.sampled_from("ab1, \t"), _ODD), max_size=6)
                .map("".join), max_size=8),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_split_lines_breaks_where_universal_newlines_do(texts, newline, final):
    # The reference is Python's universal-newline mode, which ends a line at \n, \r\n and
    # \r only, as grep -n and the C reader count.
    text = newline.join(texts) + (newline if final and texts else "")
    reference = [line.rstrip("\n") for line in io.StringIO(text, newline=None)]
    assert split_lines(text) == reference


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), _ODD), min_size=1, max_size=6))
def test_an_error_after_odd_line_breaks_names_the_editors_line(tmp_path_factory, rows):
    # Rows whose values end in a character str.splitlines breaks at, then a bad row: the
    # error names the bad row's line counted by newlines alone.
    body = "".join(f"{v}{odd},x\n" for v, odd in rows)
    path = tmp_path_factory.mktemp("odd") / "odd.arff"
    path.write_text("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
                    + body + "abc,y\n", encoding="utf-8")
    with pytest.raises(DataError, match=rf"odd.arff:{5 + len(rows)}: "):
        load_dataset(path)
