"""libsvm/svmlight reading, in both layouts bayesbench meets.

Standard layout, one example per line: ``label index:value index:value ...``
with integer indices (1-based by convention). The class is named ``class``.

Paper 004's layout (Alvarez Vecino 2017): the class comes last as a named
pair, ``1:x 2:y ... classLabel:democrat``; the class attribute takes the
pair's name (``classLabel``).

Attributes are named ``att_<index>``. A pair is one index of ASCII digits, one
``:`` and a value. In the standard layout every value is a number (``inf``
included, see :mod:`.tokens`), as scikit-learn's ``load_svmlight_file`` has it:
``1:0.5.5`` or ``1:2:3`` is refused with its line, where it used to make its
column nominal, and an index that a row leaves out is 0, the sparse convention.
In paper 004's layout a column with a value that is no number is nominal
(categories sorted, ``1:y 2:n``), and an index a row leaves out is then missing.
``?`` and ``nan`` (any case) are missing in either layout, and as class labels.
Text after ``#`` is a comment. Class labels are nominal, sorted numerically when
they all look like numbers; labels equal as numbers are one class (``+1`` and
``1.0`` are ``1``, :func:`.tokens.class_labels`), as scikit-learn reads them. A
multi-label line (``1,3 1:0.5``, labels joined by commas, which scikit-learn
reads only with ``multilabel=True``) is refused: bayesbench runs single-label
classification.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import DataError
from .assemble import assemble
from .dataset import MISSING, Attribute, Dataset
from .text import read_text, split_lines
from .tokens import is_nan, numbers, sorted_categories


def _is_missing(token: str) -> bool:
    return token == "?" or is_nan(token)


def _nominal(tokens: list, name: str) -> tuple[Attribute, np.ndarray]:
    """A nominal column of tokens (None or a missing token: missing), categories sorted."""
    tokens = [None if t is None or _is_missing(t) else t for t in tokens]
    categories = sorted_categories([t for t in tokens if t is not None])
    index = {c: i for i, c in enumerate(categories)}
    codes = np.fromiter((MISSING if t is None else index[t] for t in tokens), dtype=np.int64,
                        count=len(tokens))
    return Attribute(name, "nominal", categories), codes


def _parse_line(text: str, line: int, path):
    """(label, class name or None, {index: token}) of one example."""
    tokens = text.split()
    label, class_key = None, None
    if ":" not in tokens[0]:
        label = tokens.pop(0)
        if "," in label:
            raise DataError(f"a multi-label line (labels {label!r}): bayesbench reads one "
                            "class per example; give each example a single label",
                            path=path, line=line)
    pairs = {}
    for tok in tokens:
        key, sep, value = tok.partition(":")
        if not sep or not key or not value or ":" in value:
            raise DataError(f"expected 'index:value', found {tok!r}", path=path, line=line)
        # ASCII digits: str.isdigit() also admits '²', which int() refuses, and '١' (an
        # Arabic-Indic one), which int() reads as 1
        if key.isascii() and key.isdigit():
            index = int(key)
            if index in pairs:
                raise DataError(f"index {index} appears twice", path=path, line=line)
            pairs[index] = value
        elif label is None:
            label, class_key = value, key
        else:
            raise DataError(f"expected an integer index, found {key!r} in {tok!r}",
                            path=path, line=line)
    if label is None:
        raise DataError("no class label: expected 'label index:value ...' or "
                        "'index:value ... classLabel:value'", path=path, line=line)
    return label, class_key, pairs


def read_libsvm(path, class_attribute: str | None = None) -> Dataset:
    """Read a libsvm file (standard or class-last layout) into a :class:`Dataset`."""
    path = Path(path)
    labels, rows, lines = [], [], []
    class_keys = set()
    for line, raw in enumerate(split_lines(read_text(path)), start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        label, key, pairs = _parse_line(text, line, path)
        class_keys.add(key)
        labels.append(label)
        rows.append(pairs)
        lines.append(line)
    if not rows:
        raise DataError("the data set has no rows", path=path)
    if len(class_keys) > 1:
        raise DataError("lines mix the class-first and class-last layouts "
                        f"(class names seen: {sorted(str(k) for k in class_keys)})", path=path)
    standard = class_keys == {None}  # the class first, as svmlight has it
    class_name = class_keys.pop() or "class"

    indices = sorted(set().union(*rows))
    attributes, columns, first_bad = [], [], None
    for index in indices:
        name = f"att_{index}"
        tokens = [r.get(index) for r in rows]
        given = sorted({t for t in tokens if t is not None})
        values, bad = numbers(given)
        not_number = {t for t, b in zip(given, bad) if b and not _is_missing(t)}
        if not_number and standard:
            row = next(i for i, t in enumerate(tokens) if t in not_number)
            first_bad = min(first_bad or (row, index), (row, index))
        if not not_number:
            value_of = {t: np.nan if _is_missing(t) else v for t, v in zip(given, values)}
            attributes.append(Attribute(name, "numeric"))
            columns.append(np.array([0.0 if t is None else value_of[t] for t in tokens],
                                    dtype=np.float64))
        else:
            attribute, codes = _nominal(tokens, name)
            attributes.append(attribute)
            columns.append(codes)
    if first_bad is not None:  # the file's first pair whose value is no number
        row, index = first_bad
        raise DataError(f"expected 'index:value' with a number as the value, found "
                        f"'{index}:{rows[row][index]}' (only paper 004's layout, the class "
                        "last as 'classLabel:value', reads nominal values)",
                        path=path, line=lines[row])
    attribute, codes = _nominal(labels, class_name)
    attributes.append(attribute)
    columns.append(codes)
    return assemble(path.stem, attributes, columns, class_attribute, path)
