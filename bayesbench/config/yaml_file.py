"""Reading a config file: UTF-8 YAML, a key given twice refused, mistakes named by line."""
from __future__ import annotations

from pathlib import Path

import yaml

from ..errors import ConfigError


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
                    None, None, f"key '{key}' given twice (lines {seen[key]} and {line})",
                    key_node.start_mark)
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: Path):
    """The YAML document in ``path``; any reason it cannot be read is one :class:`ConfigError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError([("", f"cannot read the config: {exc.strerror}")], path=path) from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise ConfigError([("", f"line {line}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); "
                                f"save the config as UTF-8")], path=path) from None
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ConfigError([("", f"{where}not valid YAML ({getattr(exc, 'problem', exc)})")],
                          path=path) from None
