"""The ``datasets`` and ``data_dirs`` keys: data sets given by path or by name, found on disk."""
from __future__ import annotations

import os
from pathlib import Path

from ..data import find_dataset
from ..data.chunks import chunk_files, is_chunked
from ..data.formats import WHOLE_SUFFIXES, chunk_suffixes, directory_titles, format_of
from ..data.load import search_dirs
from ..data.names import canonical, names_of
from ..errors import DataError
from ..spec import DatasetSpec
from .problems import Problems, join, shown


def relative(path: str, base_dir: Path) -> Path:
    """An input path: relative to the config file's directory, else to the working directory."""
    path = Path(os.path.expanduser(path))
    if path.is_absolute():
        return path
    # realpath, not resolve: a symbolic link loop stays a path (refused by _locate with its
    # name) instead of ending in resolve's RuntimeError
    if not (base_dir / path).exists() and path.exists():
        return Path(os.path.realpath(path))
    return Path(os.path.realpath(base_dir / path))


def data_dirs(value, problems: Problems, base_dir: Path) -> list[str]:
    """The ``data_dirs`` key: directories, each of which must exist."""
    out = []
    for i, d in enumerate(problems.typed(value, "data_dirs", list) or []):
        if problems.typed(d, f"data_dirs[{i}]", str) is not None:
            resolved = relative(d, base_dir)
            if not resolved.is_dir():
                problems.add(f"data_dirs[{i}]", f"no such directory: {d}")
            out.append(str(resolved))
    return out


def datasets(raw: dict, problems: Problems, base_dir, dirs, missing=None) -> list[DatasetSpec]:
    """The data set specs of the ``datasets`` key; with ``missing`` a list, names found
    nowhere go there as ``(name, message)`` instead of being problems."""
    items = problems.required_list(raw, "datasets", "data set names or paths")
    out, seen, read = [], {}, {}
    dirs = search_dirs(dirs)
    for i, item in enumerate(items):
        spec = _dataset(item, f"datasets[{i}]", problems, base_dir, dirs, missing)
        if spec is None:
            continue
        if spec.name in seen:
            problems.add(f"datasets[{i}]", f"data set name '{spec.name}' is used twice (also "
                                    f"{seen[spec.name]}); give one a different 'name'")
            continue
        # The same file read the same way under two names (an alias and its canonical
        # name, a name and a path) would run twice as two data sets, dealt other folds.
        reading = _reading(spec)
        if reading in read:
            at, other = read[reading]
            problems.add(f"datasets[{i}]", f"'{spec.name}' is the data set of {at} "
                                           f"('{other}'{_alias_words(spec.name, other)}), read "
                                           f"the same way; list it once")
            continue
        seen[spec.name] = f"datasets[{i}]"
        read[reading] = (f"datasets[{i}]", spec.name)
        out.append(spec)
    if missing and not out and items:
        problems.add("datasets", "none of the data sets was found: " +
              "; ".join(message for _, message in missing))
    return out


def _reading(spec: DatasetSpec) -> tuple:
    """What a data set reads: its file and how (class, attributes, delimiter, chunks)."""
    return spec.path, spec.class_attribute, spec.attributes, spec.delimiter, spec.chunked


def _alias_words(name: str, other: str) -> str:
    """``, an alias of X`` where one of two names is the other's alias."""
    if canonical(name) == other:
        return f", of which '{name}' is an alias"
    if canonical(other) == name:
        return f", an alias of '{name}'"
    return ""


# The keys of a data set given as a mapping (docs/configuration.md documents each).
DATASET_KEYS = ("path", "name", "class", "attributes", "delimiter", "chunked")


def _dataset(item, key, problems: Problems, base_dir, dirs, missing) -> DatasetSpec | None:
    """One entry of ``datasets``: a name or path, or a mapping with ``path`` or ``name``."""
    ref_key, ref, opts = key, item, {}
    if isinstance(item, dict):
        item = problems.mapping(item, key, DATASET_KEYS)
        ref = item.get("path", item.get("name"))
        if ref is None:
            problems.add(key, "needs 'path' or 'name'")
            return None
        ref_key = join(key, "path" if "path" in item else "name")
    if problems.typed(ref, ref_key, str) is None:
        return None
    if not ref.strip():
        problems.add(ref_key, "is empty; give a data set name or a path")
        return None
    if isinstance(item, dict):
        opts = _options(item, key, problems)
    path = _locate(ref, ref_key, problems, base_dir, dirs, missing)
    if path is None or not _chunked_file(path, opts.get("chunked"), key, problems):
        return None
    # A directory or glob of files (docs/large-data.md) is named after its directory.
    name = Path(path).stem if not is_chunked(path) else (
        Path(path).name if Path(path).is_dir() else Path(path).parent.name)
    if name != ref and name in names_of(ref):  # an alias keeps its name; its file is another's
        name = ref
    return DatasetSpec(opts.get("label") or name, str(Path(path).resolve()),
                       opts.get("class"), opts.get("attributes"), opts.get("delimiter"),
                       bool(opts.get("chunked")) and not is_chunked(path))


def _options(item: dict, key: str, problems: Problems) -> dict:
    """The keys of a ``datasets`` mapping besides its path, checked (None: left out)."""
    opts = {}
    if item.get("class") is not None:
        opts["class"] = problems.typed(item["class"], join(key, "class"), str)
    if "path" in item and "name" in item:
        opts["label"] = problems.typed(item["name"], join(key, "name"), str)
        if opts["label"] is not None and not opts["label"].strip():
            problems.add(join(key, "name"), "is empty; give the data set a name or leave the "
                                            "key out for the file's")
    if item.get("attributes") is not None:
        opts["attributes"] = _attribute_list(item["attributes"], join(key, "attributes"), problems)
    if item.get("delimiter") is not None:
        opts["delimiter"] = _delimiter(item["delimiter"], join(key, "delimiter"), problems)
    if item.get("chunked") is not None:
        opts["chunked"] = problems.typed(item["chunked"], join(key, "chunked"), bool)
    return opts


def _chunked_file(path: Path, chunked, key: str, problems: Problems) -> bool:
    """Whether the ``chunked`` key fits the file (a directory or glob is always chunked; a
    Parquet file only ever is)."""
    suffix, chunk_kinds = Path(path).suffix.lower(), chunk_suffixes()
    if chunked is False and is_chunked(path):
        problems.add(join(key, "chunked"), "a directory or glob of files is always read in chunks; "
                                    "leave the key out")
    elif chunked and not is_chunked(path) and suffix not in chunk_kinds:
        problems.add(join(key, "chunked"), f"'{suffix or '(no extension)'}' files are not read in "
                                    f"chunks; chunked data sets read {', '.join(chunk_kinds)}")
    elif not chunked and not is_chunked(path) and suffix in chunk_kinds \
            and not format_of(path).whole:
        problems.add(key, f"a {format_of(path).title} file is read only in chunks: add "
                   f"'chunked: true' (docs/large-data.md)")
    else:
        return True
    return False


def _delimiter(value, key, problems: Problems) -> str | None:
    """A CSV file's field separator: one character."""
    delimiter = problems.typed(value, key, str)
    if delimiter is not None and len(delimiter) != 1:
        problems.add(key, f"'{delimiter}' is not one character (a CSV file's field separator)")
        return None
    return delimiter


def _locate(ref: str, key: str, problems: Problems, base_dir, dirs, missing) -> Path | None:
    """The data file ``ref`` names: a path, or a name looked for in ``dirs``."""
    looks_like_path = os.sep in ref or "/" in ref or Path(ref).suffix.lower() in (
        *WHOLE_SUFFIXES, *chunk_suffixes())
    if looks_like_path and is_chunked(relative(ref, base_dir)):
        return _chunked(ref, key, problems, base_dir)
    try:
        path = relative(ref, base_dir) if looks_like_path else find_dataset(ref, dirs)
        if path is not None and Path(path).is_file():
            return path
        if path is not None and Path(path).is_symlink() and not Path(path).exists():
            problems.add(key, f"{ref} is a symbolic link to nothing (a loop, or its target is "
                              f"gone); expected a data file")
            return None
        if path is not None and Path(path).exists() and not Path(path).is_dir():
            # A device or FIFO would be read without end, or block.
            problems.add(key, f"{ref} is not a regular file; expected a data file")
            return None
    except OSError as exc:  # a name too long for a file name, ...
        problems.add(key, f"{shown(ref)}: {exc.strerror}")
        return None
    where = "" if looks_like_path else "; searched " + ", ".join(str(d) for d in dirs)
    if missing is not None and not looks_like_path:
        missing.append((ref, f"data file not found: {ref}{where}"))
    elif path is not None and Path(path).is_dir():
        problems.add(key, f"{ref} is a directory; expected a data file ({', '.join(WHOLE_SUFFIXES)})")
    else:
        problems.add(key, f"data file not found: {ref}{where}")
    return None


def _chunked(ref: str, key: str, problems: Problems, base_dir) -> Path | None:
    """A chunked data set's directory or glob, which must name at least one file."""
    path = relative(ref, base_dir)
    try:
        chunk_files(path)
    except DataError as exc:
        empty = path.is_dir() and exc.path == str(path)
        titles = directory_titles()
        problems.add(key, f"{ref} is a directory without {titles} files; expected a data file "
                          f"({', '.join(WHOLE_SUFFIXES)}) or {titles} files" if empty
                     else str(exc))
        return None
    return path


def _attribute_list(value, key, problems: Problems) -> tuple[str, ...] | None:
    """Attribute names to keep (the class is always kept); checked against the file when
    the experiment is planned, which reads it."""
    items = problems.typed(value, key, list)
    if items is None:
        return None
    if not items:
        problems.add(key, "the list is empty (leave the key out to keep every attribute)")
        return None
    names = [problems.typed(a, f"{key}[{i}]", str) for i, a in enumerate(items)]
    for dup in sorted({a for a in names if a is not None and names.count(a) > 1}):
        problems.add(key, f"attribute '{dup}' is listed more than once")
    return tuple(names) if None not in names else None
