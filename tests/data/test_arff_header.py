"""ARFF header pieces: escapes, comments, date formats, and what the header declares."""
from datetime import datetime

import pytest

from bayesbench.data.arff_header import (DEFAULT_DATE_FORMAT, date_format, read_header,
                                         strip_comment, unescape)
from bayesbench.errors import DataError


def test_unescape_as_weka_writes_names():
    # weka.core.Utils.quote backslash-escapes \\ ' " \t \n \r %
    assert unescape(r"'it\'s'") == "it's"
    assert unescape(r'"say \"hi\""') == 'say "hi"'
    assert unescape(r"'a\tb\nc\\d\%e'") == "a\tb\nc\\d%e"
    assert unescape(r"'\101\u00e9'") == "A\u00e9"
    assert unescape("plain") == "plain"


def test_comments_end_lines_outside_quotes_only():
    assert strip_comment("@attribute x numeric % note") == "@attribute x numeric "
    assert strip_comment("@attribute '50%' numeric") == "@attribute '50%' numeric"
    assert strip_comment(r"'it\'s % in', b % note") == r"'it\'s % in', b "
    assert strip_comment("no comment") == "no comment"


def test_java_date_patterns_become_strptime_formats():
    assert date_format(DEFAULT_DATE_FORMAT) == "%Y-%m-%dT%H:%M:%S"
    assert date_format("dd/MM/yy HH:mm") == "%d/%m/%y %H:%M"
    assert date_format("EEE, d MMM yyyy hh:mm a Z") == "%a, %d %b %Y %I:%M %p %z"
    assert date_format("yyyy.MM.dd 'at' HH:mm:ss.SSS") == "%Y.%m.%d at %H:%M:%S.%f"
    assert date_format("''yy''%") == "'%y'%%"
    # the translation parses what Java's pattern formats
    parsed = datetime.strptime("Wed, 4 Jul 2001 12:08 PM -0700",
                               date_format("EEE, d MMM yyyy hh:mm a Z"))
    assert (parsed.hour, parsed.utcoffset().total_seconds()) == (12, -7 * 3600)
    with pytest.raises(DataError, match="pattern letter 'G'"):
        date_format("yyyy G")
    with pytest.raises(DataError, match="unterminated quote"):
        date_format("yyyy 'at")


def test_header_declarations_and_the_data_line():
    lines = ["% a comment", "@RELATION\tr", "@attribute 'a b' {x, 'y z'}",
             "@attribute n INTEGER [0,9]", "@attribute s string", "@attribute d date",
             "@attribute c {p,q}", "", "@data", "x,1,w,2020-01-01T00:00:00,p"]
    header = read_header(lines, "h.arff")
    assert header.data_index == 8
    assert [(d.name, d.kind, d.line) for d in header.attributes] == [
        ("a b", "nominal", 3), ("n", "numeric", 4), ("s", "string", 5), ("d", "date", 6),
        ("c", "nominal", 7)]
    assert header.attributes[0].categories == ("x", "y z")
    assert header.attributes[3].date_format == "%Y-%m-%dT%H:%M:%S"
    assert len(header.liac_lines) == len(lines) - 1  # line for line up to @data


def test_relational_and_bad_lines_are_refused_with_their_line():
    with pytest.raises(DataError) as err:
        read_header(["@relation r", "@attribute bag relational", "@end bag", "@data"], "h.arff")
    assert str(err.value).startswith("h.arff:2: attribute 'bag': relational attributes")
    with pytest.raises(DataError) as err:
        read_header(["@relation r", "@attribute {x} numeric", "@data"], "h.arff")
    assert str(err.value).startswith("h.arff:2: not a valid ARFF file: Bad @ATTRIBUTE format")
