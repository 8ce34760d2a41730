"""Turn the columns a reader parsed into a checked :class:`Dataset`.

Every reader ends here, so the rules about the class live in one place: the
class is the last attribute unless one is named, it must be nominal, class labels
equal as numbers are one class named by their canonical spelling
(:func:`.tokens.class_labels`), rows whose class is missing are dropped (and the
drop is recorded in ``Dataset.notes``), and a data set with no rows or a single
observed class is refused.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .dataset import MISSING, Attribute, Dataset
from .tokens import class_labels


def labelled(target: Attribute, y: np.ndarray, notes: list[str]) -> tuple[Attribute, np.ndarray]:
    """The class attribute named by :func:`.tokens.class_labels` and its codes into it;
    a spelling changed is recorded in ``notes``."""
    labels, index = class_labels(target.categories)
    if labels == tuple(target.categories):
        return target, y
    renamed = sorted({(text, labels[i]) for text, i in zip(target.categories, index)
                      if text != labels[i]}, key=lambda pair: pair[1])
    notes.append("class labels read as numbers: " + ", ".join(
        f"'{text}' as '{label}'" for text, label in renamed))
    table = np.append(np.asarray(index, dtype=np.int64), MISSING)
    return Attribute(target.name, "nominal", labels), table[np.asarray(y, dtype=np.int64)]


def assemble(name: str, attributes: list[Attribute], columns: list[np.ndarray],
             class_attribute: str | None, path, notes: list[str] | None = None) -> Dataset:
    """Split off the class attribute and build the data set.

    Parameters
    ----------
    attributes, columns : every attribute of the file, the class included,
        with nominal columns as int64 codes (``-1`` missing) and numeric ones
        as float64 (``NaN`` missing).
    class_attribute : name of the class, or None for the last attribute.
    """
    notes = list(notes or [])
    if not attributes:
        raise DataError("the file declares no attributes", path=path)
    if class_attribute is None:
        k = len(attributes) - 1
    else:
        names = [a.name for a in attributes]
        if class_attribute not in names:
            raise DataError(f"no class attribute named '{class_attribute}'; "
                            f"attributes are {names}", path=path)
        k = names.index(class_attribute)
    target, y = attributes[k], columns[k]
    if not target.is_nominal:
        raise DataError("the class attribute is numeric; bayesbench needs a nominal class "
                        "(discretize it or name another class attribute)",
                        path=path, attribute=target.name)
    if y.shape[0] == 0:
        raise DataError("the data set has no rows", path=path)
    target, y = labelled(target, y, notes)
    keep = y != MISSING
    n_dropped = int((~keep).sum())
    if n_dropped == y.shape[0]:
        raise DataError(f"every one of the {n_dropped} rows has a missing class",
                        path=path, attribute=target.name)
    observed = np.unique(y[keep])
    if observed.size < 2:
        raise DataError(f"the class takes a single value ('{target.categories[observed[0]]}'); "
                        "a classifier needs at least two", path=path, attribute=target.name)
    others = [a for i, a in enumerate(attributes) if i != k]
    other_cols = [c for i, c in enumerate(columns) if i != k]
    if n_dropped:
        notes.append(f"dropped {n_dropped} rows whose class '{target.name}' is missing")
        other_cols = [c[keep] for c in other_cols]
        y = y[keep]
    return Dataset(name=name, attributes=others, columns=other_cols, target=target, y=y,
                   source=None if path is None else str(path), notes=notes)
