"""Reading a YAML file: UTF-8, a key given twice refused, mistakes named by line.

Every YAML file bayesbench reads goes through :func:`read_yaml`: a config, a result
directory's ``config.yaml`` (:func:`~bayesbench.evaluation.rundir.stored_config`) and a
paper's published table (:mod:`~bayesbench.report.check.published`). Reading is bounded, so
that no file makes a command run out of memory or hang: only a regular file of at most
:data:`MAX_CONFIG_BYTES` is read (``/dev/zero`` or a FIFO would never end), and a document
whose aliases expand to more than :data:`MAX_YAML_VALUES` values, or that nests more than
:data:`MAX_YAML_DEPTH` levels, is refused before any Python object is built ("billion
laughs": nine aliases of nine aliases of ... make a few hundred bytes stand for 10^9
values). A mistake is one :class:`~bayesbench.errors.ConfigError` naming the file (and the
line); a caller that reads another kind of file says so in its own error.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import yaml

from ..errors import ConfigError

MAX_CONFIG_BYTES = 1 << 20
MAX_YAML_VALUES = 100_000
MAX_YAML_DEPTH = 50


class _StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (PyYAML keeps the
    last silently, so a second ``classifiers:`` would discard the first without a word)."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # '<<: *anchor' merges keys that the mapping may override
            key = self.construct_object(key_node, deep=True)
            try:
                twice = key in seen
            except TypeError:  # an unhashable key: construct_mapping reports it
                continue
            line = key_node.start_mark.line + 1
            if twice:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key '{str(key)[:40]}' given twice (lines {seen[key]} and "
                                f"{line})", key_node.start_mark)
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


class _TooLarge(Exception):
    """The document expands beyond the limits; the message says which."""


def _expanded_size(node, depth: int, sizes: dict, open_nodes: set) -> int:
    """How many values ``node`` stands for once every alias in it is replaced by a copy.

    An alias is the same node object as its anchor, so ``sizes`` (by ``id``) makes the
    count cost one visit per distinct node; a node met again while it is being counted
    is an alias inside its own anchor, which would expand without end.
    """
    if depth > MAX_YAML_DEPTH:
        raise _TooLarge(f"values nested more than {MAX_YAML_DEPTH} levels deep")
    key = id(node)
    if key in sizes:
        return sizes[key]
    if key in open_nodes:
        raise _TooLarge("an alias refers to a value that contains it")
    open_nodes.add(key)
    if isinstance(node, yaml.SequenceNode):
        children = node.value
    elif isinstance(node, yaml.MappingNode):
        children = [part for pair in node.value for part in pair]
    else:
        children = []
    total = 1
    for child in children:
        total += _expanded_size(child, depth + 1, sizes, open_nodes)
        if total > MAX_YAML_VALUES:
            raise _TooLarge(f"its aliases expand to more than {MAX_YAML_VALUES:,} values")
    open_nodes.discard(key)
    sizes[key] = total
    return total


def read_text(path: Path, what: str = "config", limit: int = MAX_CONFIG_BYTES) -> str:
    """The UTF-8 text of ``path``, a regular file of at most ``limit`` bytes; any reason it
    cannot be read is one :class:`ConfigError`."""
    def refuse(message):
        return ConfigError([("", message)], path=path)

    try:
        # O_NONBLOCK: opening a FIFO for reading would wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise refuse(f"cannot read the {what}: {exc.strerror}") from None
    # Asked before fdopen, which raises IsADirectoryError naming the descriptor ("3: Is a
    # directory") for a directory's.
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise refuse(f"not a regular file (a device, FIFO or directory); expected a "
                     f"YAML {what} file")
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise refuse(f"cannot read the {what}: {exc.strerror}") from None
    if len(data) > limit:
        raise refuse(f"larger than {limit:,} bytes; a {what} file is at most that")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise refuse(f"line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the "
                     f"{what} as UTF-8") from None


def read_yaml(path: Path, what: str = "config"):
    """The YAML document in ``path`` (a ``what`` file, in messages); any reason it cannot be
    read is one :class:`ConfigError`."""
    text = read_text(path, what)
    loader = None
    try:
        loader = _StrictLoader(text)  # reads the text: a control character is refused here
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, 0, {}, set())
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())[:200]
        raise ConfigError([("", f"{where}not valid YAML ({problem})")], path=path) from None
    except _TooLarge as exc:
        raise ConfigError([("", f"refused: {exc}")], path=path) from None
    except RecursionError:  # PyYAML's parser recurses once per level of nesting
        raise ConfigError([("", f"refused: values nested more than {MAX_YAML_DEPTH} levels "
                                "deep")], path=path) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise ConfigError([("", f"not a usable value: {str(exc)[:120]}")], path=path) from None
    finally:
        if loader is not None:
            loader.dispose()
