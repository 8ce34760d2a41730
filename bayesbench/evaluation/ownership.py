"""Which directories bayesbench may write into: the ownership rule of every output.

bayesbench writes only into a directory it made, or one that holds its marker
(:data:`MARKER`, written when it claims the directory), never over a file it did not
write: a run's ``-o DIR`` that names a directory of the user's (holding a report, a
config, data) is refused rather than written over, and no output of ``compare`` goes
into a result directory. A result directory written before the marker existed is
recognised by its ``environment.json`` or records.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import ResultStoreError
from .store import RECORDS

#: The file that says which kind of bayesbench output a directory is.
MARKER = ".bayesbench"
#: The kinds of directory bayesbench makes.
RUN, COMPARE_REPORT = "result directory", "comparison report"


def marked_kind(path) -> str | None:
    """The kind of bayesbench output directory ``path`` is, or None if it is not one."""
    path = Path(path)
    try:
        kind = json.loads((path / MARKER).read_text()).get("kind")
    except (OSError, ValueError, AttributeError):
        kind = None
    if kind is None and ((path / "environment.json").is_file() or (path / RECORDS).is_file()):
        kind = RUN  # made before the marker
    return kind


def owning_run(path) -> Path | None:
    """The result directory that ``path`` (symbolic links followed) is or lies in: one of its
    files, its summary tables, its report and figures. None if it lies in none."""
    path = Path(os.path.realpath(path))  # resolve() raises on a symbolic link loop
    for candidate in (path, *path.parents):
        if candidate.is_dir() and marked_kind(candidate) == RUN:
            return candidate
    return None


def refusal(path, kind: str) -> str | None:
    """Why ``path`` may not be an output directory of ``kind``, or None when it is new,
    empty, or already marked as one of that kind (see the module docstring)."""
    path = Path(path)
    if path.is_symlink() and not path.exists():
        return (f"{path} is a symbolic link to nothing (a loop, or its target is gone); "
                f"choose a new directory for the {kind}")
    if not path.exists():
        return None
    if not path.is_dir():
        return f"{path} is a file, not a directory; choose a new directory for the {kind}"
    found = marked_kind(path)
    if found == kind or (found is None and not any(path.iterdir())):
        return None
    what = (f"it is a {found}" if found else
            "it holds files bayesbench did not write (" + ", ".join(
                sorted(p.name for p in path.iterdir())[:3]) + ")")
    return (f"{path} is not a {kind} of bayesbench's: {what}, which would be written over; "
            f"choose a new or empty directory for the {kind}")


def check_claimable(path, kind: str) -> None:
    """Raise :class:`ResultStoreError` if ``path`` may not be an output directory of ``kind``."""
    reason = refusal(path, kind)
    if reason is not None:
        raise ResultStoreError(reason)


def claim(path, kind: str) -> Path:
    """Make (or keep) ``path`` as an output directory of ``kind`` and mark it so; refused as
    :func:`check_claimable` says."""
    path = Path(path)
    check_claimable(path, kind)
    path.mkdir(parents=True, exist_ok=True)
    marker = path / MARKER
    if not marker.exists():
        marker.write_text(json.dumps({"made_by": "bayesbench", "kind": kind}) + "\n")
    return path
