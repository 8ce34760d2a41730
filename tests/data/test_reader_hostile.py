"""Hostile files for the readers against scikit-learn's and liac-arff's (issue 34, class 7).

libsvm: a malformed pair and a multi-label line were read with exit 0 where scikit-learn's
``load_svmlight_file`` refuses them; an index of non-ASCII digits was a traceback or read as
another index. ARFF: a valid file with a value over 131,072 characters (Python's ``csv``
limit inside liac-arff) was refused, or a traceback; a malformed nominal declaration with many
values made liac-arff's pattern backtrack without end.
"""
import re

import pytest
from hypothesis import given, settings, strategies as st
from sklearn.datasets import load_svmlight_file

from bayesbench.data import load_dataset
from bayesbench.data.arff_header import _categories_well_formed, liac
from bayesbench.errors import DataError

LONG = 200_000  # over csv's default field limit of 131,072


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, line, words", [
    ("1 1:0.5\n0 1:0.5.5 2:3\n", 2, "a number as the value, found '1:0.5.5'"),
    ("1 1:0.5\n0 1:2:3\n", 2, "expected 'index:value', found '1:2:3'"),
    ("1 1:0.5\n0 2:abc\n", 2, "found '2:abc'"),
    ("1 1:0.5\n0 ²:3\n", 2, "expected an integer index, found '²'"),
    ("1 1:0.5\n0 ١:3\n", 2, "expected an integer index, found '١'"),
    ("1 1:0.5\n1,3 1:0.5\n", 2, "a multi-label line (labels '1,3')"),
])
def test_libsvm_refuses_what_scikit_learn_refuses_in_one_line(tmp_path, text, line, words):
    path = _write(tmp_path, "bad.libsvm", text)
    with pytest.raises(ValueError):
        load_svmlight_file(str(path))
    with pytest.raises(DataError) as err:
        load_dataset(path)
    message = str(err.value)
    assert message.startswith(f"{path}:{line}: ") and words in message and "\n" not in message


def test_a_multi_label_file_is_one_scikit_learn_reads_only_as_multi_label(tmp_path):
    path = _write(tmp_path, "ml.libsvm", "1,2 1:0.5\n0 1:1\n")
    _, labels = load_svmlight_file(str(path), multilabel=True)
    assert labels == [(1.0, 2.0), (0.0,)]
    with pytest.raises(DataError, match="bayesbench reads one class per example"):
        load_dataset(path)


def test_the_first_bad_pair_of_the_file_is_named(tmp_path):
    # the bad value of the higher index comes first in the file
    path = _write(tmp_path, "bad.libsvm", "1 1:0.5 2:1\n0 2:x\n1 1:y\n")
    with pytest.raises(DataError, match=r"bad\.libsvm:2: .*found '2:x'"):
        load_dataset(path)


def test_nominal_values_stay_in_the_class_last_layout_of_paper_004(tmp_path):
    path = _write(tmp_path, "v.svm", "1:y 2:0.5 class:d\n1:n 2:x class:r\n")
    ds = load_dataset(path)
    assert ds.target.name == "class" and [a.kind for a in ds.attributes] == ["nominal"] * 2


@pytest.mark.timeout(60)
@pytest.mark.parametrize("declaration", [
    "{" + ",".join(["v"] * 40) + " x",            # no closing brace
    "{" + ",".join(f"v{i}" for i in range(40)) + "} junk",
    "{" + ", ".join(["a b"] * 40) + "}",          # a value with a space, unquoted
    "{'a', " + ", ".join(["b"] * 40) + ", 'c' 'd'}",
])
def test_a_malformed_nominal_declaration_is_refused_at_once(tmp_path, declaration):
    path = _write(tmp_path, "b.arff", f"@relation r\n@attribute a {declaration}\n"
                                      "@attribute class {p,q}\n@data\nv,p\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value).startswith(f"{path}:2: attribute 'a': its categories are not")


def _arff(value: str, extra_row: str = "") -> str:
    return (f"@relation r\n@attribute a {{{value},b}}\n@attribute s string\n"
            f"@attribute class {{p,q}}\n@data\n{value},{value},p\nb,z,q\n{extra_row}")


def test_a_value_longer_than_csvs_limit_is_read_as_liac_arff_reads_it_quoted(tmp_path):
    value = "x" * LONG
    quoted = liac().loads(_arff(f"'{value}'"))
    assert quoted["attributes"][0][1] == [value, "b"]
    # the header, the C reader's rows, and the row decoder's (a backslash hands it the rows)
    for extra in ("", "b,'a\\'b',p\n"):
        ds = load_dataset(_write(tmp_path, "long.arff", _arff(value, extra)))
        assert ds.attributes[0].categories == (value, "b")
        assert ds.attributes[1].categories[0] == value
        assert ds.columns[0][:2].tolist() == [0, 1]


# braces aside: liac-arff strips them at the ends of the values, and read {a,''{} as a and ''
_ITEM_TEXT = st.text(alphabet="ab ,'\"\\", max_size=9)


@settings(max_examples=150, deadline=None)
@given(_ITEM_TEXT)
def test_the_declaration_check_admits_only_what_liac_arff_reads(inner):
    declaration = "{a," + inner + "}"
    text = f"@relation r\n@attribute x {declaration}\n@data\n"
    try:
        categories = liac().loads(text)["attributes"][0][1]
    except Exception:  # noqa: BLE001 - liac-arff's refusals are of several kinds
        categories = None
    if _categories_well_formed(declaration):
        # what the check admits, liac-arff's pattern matches at once
        assert re.match(r"^\{\s*((\".*\"|\'.*\'|\S*)\s*,\s*)*(\".*\"|\'.*\'|\S*)\s*\}$",
                        declaration)
    else:
        assert categories is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ab c,'\\%", min_size=1, max_size=6), min_size=1, max_size=5,
                unique=True))
def test_quoted_categories_read_as_liac_arff_reads_them(tmp_path_factory, values):
    quoted = ", ".join("'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'" for v in values)
    text = f"@relation r\n@attribute x {{{quoted}}}\n@attribute class {{p,q}}\n@data\n"
    expected = liac().loads(text)["attributes"][0][1]
    path = tmp_path_factory.mktemp("q") / "q.arff"
    path.write_text(text + "?,p\n?,q\n")
    assert list(load_dataset(path).attributes[0].categories) == expected == values

