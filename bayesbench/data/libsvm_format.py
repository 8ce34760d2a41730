"""libsvm/svmlight reading, in both layouts bayesbench meets.

Standard layout, one example per line: ``label index:value index:value ...``
with integer indices (1-based by convention). The class is named ``class``.

Paper 004's layout (Alvarez Vecino 2017): the class comes last as a named
pair, ``1:x 2:y ... classLabel:democrat``; the class attribute takes the
pair's name (``classLabel``).

Attributes are named ``att_<index>``. A column is numeric when every value
given for it is a number (``inf`` included, see :mod:`.tokens`); an index that
a row leaves out is then 0, the sparse convention. A column with any other
value is nominal (categories sorted), and an index a row leaves out is then
missing. ``?`` and ``nan`` (any case) are missing in either case, and as class
labels. Text after ``#`` is a comment. Class labels are nominal, sorted
numerically when they all look like numbers; labels equal as numbers are one class
(``+1`` and ``1.0`` are ``1``, :func:`.tokens.class_labels`), as scikit-learn reads them.
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
    pairs = {}
    for tok in tokens:
        key, sep, value = tok.partition(":")
        if not sep or not key or not value:
            raise DataError(f"expected 'index:value', found {tok!r}", path=path, line=line)
        if key.isdigit():
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
    labels, rows = [], []
    class_keys = set()
    for line, raw in enumerate(split_lines(read_text(path)), start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        label, key, pairs = _parse_line(text, line, path)
        class_keys.add(key)
        labels.append(label)
        rows.append(pairs)
    if not rows:
        raise DataError("the data set has no rows", path=path)
    if len(class_keys) > 1:
        raise DataError("lines mix the class-first and class-last layouts "
                        f"(class names seen: {sorted(str(k) for k in class_keys)})", path=path)
    class_name = class_keys.pop() or "class"

    indices = sorted(set().union(*rows))
    attributes, columns = [], []
    for index in indices:
        name = f"att_{index}"
        tokens = [r.get(index) for r in rows]
        given = sorted({t for t in tokens if t is not None})
        values, bad = numbers(given)
        if not any(b and not _is_missing(t) for t, b in zip(given, bad)):
            value_of = {t: np.nan if _is_missing(t) else v for t, v in zip(given, values)}
            attributes.append(Attribute(name, "numeric"))
            columns.append(np.array([0.0 if t is None else value_of[t] for t in tokens],
                                    dtype=np.float64))
        else:
            attribute, codes = _nominal(tokens, name)
            attributes.append(attribute)
            columns.append(codes)
    attribute, codes = _nominal(labels, class_name)
    attributes.append(attribute)
    columns.append(codes)
    return assemble(path.stem, attributes, columns, class_attribute, path)
