"""A config's problems, collected with their key paths so that all are reported at once."""
from __future__ import annotations

import difflib
import reprlib

from ..errors import ConfigError

# A message shows a value by a short excerpt: a config may hold a megabyte string, or a
# list that aliases made long, and one line on the terminal must stay one line.
_EXCERPT = reprlib.Repr()
_EXCERPT.maxstring = _EXCERPT.maxother = _EXCERPT.maxlong = 40
_EXCERPT.maxlist = _EXCERPT.maxtuple = _EXCERPT.maxdict = _EXCERPT.maxset = 4
_EXCERPT.maxlevel = 2
MAX_KEY_CHARS, MAX_MESSAGE_CHARS = 120, 400


def shown(value) -> str:
    """``repr(value)`` cut to a short excerpt (``'abc...xyz'``, ``[1, 2, 3, 4, ...]``)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a very long integer"  # repr would refuse past 4,300 digits
    return clip(_EXCERPT.repr(value), 60)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ``...`` marking the cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def one_line(text: str) -> str:
    """``text`` with every character that would break or hide a line escaped (a key may
    hold a carriage return)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)

_KIND_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a mapping"}


def suggest(word, options) -> str:
    """`` (did you mean 'x'?)`` for the option closest to ``word``, or nothing."""
    close = difflib.get_close_matches(clip(str(word), 100), list(options), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def kind_of(value) -> str:
    """What a YAML value is, in words: "a list", "nothing", ..."""
    if value is None:
        return "nothing"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


def join(key: str, child) -> str:
    """The key path of ``child`` (a key, or an index) under ``key``."""
    if isinstance(child, int):
        return f"{key}[{child}]"
    return f"{key}.{child}" if key else str(child)


class Problems:
    """The problems found so far, each ``(key path, message)``; the checks return the
    value when it is usable and None (after noting why) when it is not."""

    def __init__(self):
        self.items: list[tuple[str, str]] = []

    def add(self, key: str, message: str) -> None:
        key = clip(one_line(key), MAX_KEY_CHARS)
        message = clip(one_line(message), MAX_MESSAGE_CHARS)
        if (key, message) not in self.items:  # a grid of parameters repeats one mistake
            self.items.append((key, message))

    def raise_any(self, source=None) -> None:
        if self.items:
            raise ConfigError(self.items, path=source)

    def mapping(self, value, key: str, allowed: tuple[str, ...]) -> dict:
        if not isinstance(value, dict):
            self.add(key, f"expected a mapping, got {kind_of(value)}")
            return {}
        for k in value:
            if k not in allowed:
                self.add(join(key, k), f"unknown key{suggest(k, allowed)}; expected one of "
                                       f"{', '.join(allowed)}")
        return value

    def typed(self, value, key: str, kind, *, low=None, high=None, choices=None):
        """``value`` if it has type ``kind`` (and lies in range / in choices), else None.

        Booleans are never numbers; an integer is a number (as a float)."""
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            self.add(key, f"expected {_KIND_NAMES.get(kind, kind.__name__)}, "
                          f"got {kind_of(value)} {shown(value)}")
            return None
        if choices is not None and value not in choices:
            self.add(key, f"{shown(value)} is not one of {', '.join(choices)}")
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            self.add(key, f"expected a value {bounds}, got {shown(value)}")
            return None
        return value

    def optional(self, raw: dict, key: str, kind, **checks):
        """``raw[key]`` checked as :meth:`typed` does; None when absent or null."""
        return self.typed(raw[key], key, kind, **checks) if raw.get(key) is not None else None

    def required_list(self, raw: dict, key: str, what: str) -> list:
        """The list under ``key``, which must be given (as a list of ``what``); an empty
        list is noted too, and returned."""
        if key not in raw:
            self.add(key, f"required: a list of {what}")
            return []
        items = self.typed(raw[key], key, list)
        if items == []:
            self.add(key, "the list is empty")
        return items or []

    def str_list(self, value, key: str, choices, accept=None) -> list[str]:
        """A string or list of strings from ``choices`` (or that ``accept`` accepts); an
        empty list is noted (it would ask for nothing)."""
        items = [value] if isinstance(value, str) else self.typed(value, key, list) or []
        if value == []:
            self.add(key, "the list is empty (leave the key out for the default)")
        out = []
        for i, item in enumerate(items):
            item_key = key if isinstance(value, str) else f"{key}[{i}]"
            if accept is not None and isinstance(item, str) and accept(item):
                out.append(item)
            elif self.typed(item, item_key, str, choices=choices) is not None:
                out.append(item)
        return out
