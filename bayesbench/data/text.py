"""The bytes of a data file, checked once before any reader parses them.

Every reader (ARFF, CSV, libsvm) takes its input from here, so the rules are
the same for all formats: the path must be a regular file (a FIFO or a device
such as ``/dev/zero`` would block or never end), not empty, and UTF-8 text. A
UTF-8 byte-order mark is allowed and dropped. Anything else is refused with a
:class:`~bayesbench.errors.DataError` naming the line of the first offending
byte; the text is never re-decoded silently as another encoding (a stray
Latin-1 byte used to turn a whole file into Latin-1, changing every other
non-ASCII character).
"""
from __future__ import annotations

import re
import stat
from pathlib import Path

from ..errors import DataError

_BOM_UTF8 = b"\xef\xbb\xbf"
_BOMS_UTF16 = (b"\xff\xfe", b"\xfe\xff")
_NON_SPACE = re.compile(rb"\S")


def _line_of(raw: bytes, offset: int) -> int:
    return raw.count(b"\n", 0, offset) + 1


def _raw(path: Path) -> bytes:
    """The bytes of a regular file, or a DataError saying why not."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise DataError("is a directory, not a data file", path=path)
        if not stat.S_ISREG(info.st_mode):
            raise DataError("is not a regular file (a pipe or a device?); give a data file",
                            path=path)
        return path.read_bytes()
    except FileNotFoundError:
        raise DataError("no such file", path=path) from None
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", path=path) from None


def read_bytes(path) -> bytes:
    """The file's bytes, checked to be non-empty UTF-8 text, without a byte-order mark."""
    path = Path(path)
    raw = _raw(path)
    if raw.startswith(_BOMS_UTF16):
        raise DataError("the file is UTF-16 text; save it as UTF-8", path=path)
    if raw.startswith(_BOM_UTF8):
        raw = raw[len(_BOM_UTF8):]
    if _NON_SPACE.search(raw) is None:
        raise DataError("the file is empty", path=path)
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise DataError("the file holds a NUL byte: not a text file (UTF-16 without a "
                        "byte-order mark, or binary?); save it as UTF-8 text",
                        path=path, line=_line_of(raw, nul))
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; "
                            "save the file as UTF-8", path=path,
                            line=_line_of(raw, exc.start)) from None
    return raw


def read_text(path) -> str:
    """The file's text (see :func:`read_bytes` for what is refused)."""
    return read_bytes(path).decode("utf-8")
