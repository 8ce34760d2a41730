"""The bytes of a data file, checked before any reader parses them (whole, or block by block).

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


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of a file's text, as every reader counts them: a line ends at ``\n``,
    ``\r\n`` or ``\r``, and nowhere else.

    A vertical tab, a form feed, U+0085, U+2028 or U+2029 is a character of its line (as
    ``grep -n``, ``wc -l``, Weka's tokenizer and pandas' C reader count), not a line break
    as ``str.splitlines`` would have it, so an error after one names the line an editor
    shows; like ``str.splitlines``, a final line break does not start one more line.
    """
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def _line_of(raw: bytes, offset: int, first_line: int = 1) -> int:
    return raw.count(b"\n", 0, offset) + first_line


def _regular(path: Path):
    """The open file of a regular file, or a DataError saying why not."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise DataError("is a directory, not a data file", path=path)
        if not stat.S_ISREG(info.st_mode):
            raise DataError("is not a regular file (a pipe or a device?); give a data file",
                            path=path)
        return open(path, "rb")
    except FileNotFoundError:
        raise DataError("no such file", path=path) from None
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", path=path) from None


def _read(fh, n: int, path: Path) -> bytes:
    try:
        return fh.read(n)
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", path=path) from None


def _without_bom(raw: bytes, path: Path) -> bytes:
    if raw.startswith(_BOMS_UTF16):
        raise DataError("the file is UTF-16 text; save it as UTF-8", path=path)
    return raw[len(_BOM_UTF8):] if raw.startswith(_BOM_UTF8) else raw


def _check_text(raw: bytes, path: Path, first_line: int = 1) -> None:
    """Refuse a NUL byte or a byte that is not UTF-8, naming its line."""
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise DataError("the file holds a NUL byte: not a text file (UTF-16 without a "
                        "byte-order mark, or binary?); save it as UTF-8 text",
                        path=path, line=_line_of(raw, nul, first_line))
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; "
                            "save the file as UTF-8", path=path,
                            line=_line_of(raw, exc.start, first_line)) from None


def read_bytes(path) -> bytes:
    """The file's bytes, checked to be non-empty UTF-8 text, without a byte-order mark."""
    path = Path(path)
    with _regular(path) as fh:
        raw = _without_bom(_read(fh, -1, path), path)
    if _NON_SPACE.search(raw) is None:
        raise DataError("the file is empty", path=path)
    _check_text(raw, path)
    return raw


#: Bytes read at once by :func:`read_blocks`.
BLOCK_BYTES = 1 << 22


def _cut(buf: bytes, start: int, max_lines: int | None) -> int:
    """The end of the whole lines of ``buf[start:]`` to hand out now (at most ``max_lines``),
    ``start`` when there is none."""
    cut = buf.rfind(b"\n", start) + 1 or start
    if max_lines is not None and buf.count(b"\n", start, cut) > max_lines:
        import numpy as np  # lazy: keeps `bayesbench --help` fast

        ends = np.flatnonzero(np.frombuffer(buf, dtype=np.uint8, count=cut - start,
                                            offset=start) == 10)
        cut = start + int(ends[max_lines - 1]) + 1
    return cut


def read_blocks(path, block_bytes: int = BLOCK_BYTES, max_lines: int | None = None, *,
                span: tuple[int, int, int] | None = None):
    """The file's bytes as :func:`read_bytes` checks them, in blocks of whole lines (at
    most ``max_lines``, about ``block_bytes`` each): ``(1-based number of the block's first
    line, file offset of its first byte, bytes)``. Each block is checked when it is read, so
    the file is never held whole; an empty file is refused when its end is reached.
    ``span`` ``(start, stop, first line)`` reads only the bytes from offset ``start`` (the
    start of that line) to ``stop``, as another such call gave their offsets."""
    path = Path(path)
    start, stop, line = span if span is not None else (0, None, 1)
    buf, blank, first, offset = b"", True, span is None, start
    with _regular(path) as fh:
        fh.seek(start)
        while True:
            want = block_bytes if stop is None else min(block_bytes, stop - fh.tell())
            data = _read(fh, max(want, 4) if first else want, path)
            if first:  # at least the byte-order mark at once
                data, first = _without_bom(data, path), False
                offset += fh.tell() - len(data)
            buf, at = buf + data, 0
            while at < len(buf):
                cut = _cut(buf, at, max_lines)
                if cut == at and not data:
                    cut = len(buf)  # the last line, without a line break
                if cut == at:
                    break
                block, at = buf[at:cut], cut
                _check_text(block, path, line)
                blank = blank and _NON_SPACE.search(block) is None
                yield line, offset, block
                line, offset = line + block.count(b"\n"), offset + len(block)
            buf = buf[at:]
            if not data:
                break
    if blank and span is None:
        raise DataError("the file is empty", path=path)


def read_text(path) -> str:
    """The file's text (see :func:`read_bytes` for what is refused)."""
    return read_bytes(path).decode("utf-8")
