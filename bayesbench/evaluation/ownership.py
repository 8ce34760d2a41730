"""Which directories bayesbench may write into: the ownership rule of every output.

bayesbench writes only into a directory it made, or one that holds its marker
(:data:`MARKER`, written when it claims the directory), never over a file it did not
write: a run's ``-o DIR`` that names a directory of the user's (holding a report, a
config, data, an ``environment.json`` of its own) is refused rather than written over, and
no output of ``compare`` goes into a result directory. Ownership rests on the marker, not
on the names of the files a directory holds.

A directory bayesbench wrote before it left its marker is known by bayesbench's own
signature instead: a result directory by the first line of its
``records.jsonl``, a record whose checksum holds (a SHA-256 of the record's canonical JSON,
which no file of the user's carries by chance), and the first line of its ``tasks.txt``, a
task id; the directory of a config's arms by its arms, result directories, beside nothing
but the comparison files a run writes there. Claiming such a directory marks it. What
``compare`` will not write into (:func:`owning_run`) is wider: any directory whose
``records.jsonl`` starts with such a record.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..errors import ResultStoreError
from .store import TASKS, first_record

#: The file that says which kind of bayesbench output a directory is.
MARKER = ".bayesbench"
#: The kinds of directory bayesbench makes: a run's, the directory holding the runs of a
#: config's arms (and their comparison), a comparison's report.
RUN, ARMS, COMPARE_REPORT = "result directory", "directory of arms", "comparison report"
KINDS = (RUN, ARMS, COMPARE_REPORT)
# A task id, as tasks.txt lists them (evaluation/plan.py: 16 hex digits of a SHA-256).
_TASK_ID = re.compile(rb"[0-9a-f]{16}\n?")
# The files a run with arms writes beside their directories: comparison*.<table format>.
_ARMS_FILE = re.compile(r"comparison(_[a-z]+)?\.(txt|md|csv|tex)")


def marked_kind(path) -> str | None:
    """The kind of bayesbench output directory ``path`` is, or None if it is not one: its
    marker's kind, else the kind its contents show it was written as before the marker
    (the module docstring)."""
    path = Path(path)
    kind = _marker_kind(path)
    if kind is None and _older_run(path):
        return RUN
    if kind is None and _older_arms(path):
        return ARMS
    return kind


def is_run(path) -> bool:
    """Whether ``path`` is a result directory (:func:`marked_kind`), found without looking
    into its subdirectories."""
    kind = _marker_kind(Path(path))
    return kind == RUN or (kind is None and _older_run(Path(path)))


def _marker_kind(path: Path) -> str | None:
    """The kind that ``path``'s marker names, if bayesbench wrote it."""
    try:
        marker = json.loads((path / MARKER).read_text())
        kind = marker.get("kind") if marker.get("made_by") == "bayesbench" else None
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        return None
    return kind if kind in KINDS else None


def _older_arms(path: Path) -> bool:
    """Whether ``path`` holds result directories and nothing else but the comparison files
    a run with arms writes beside them (stopping at the first entry that is neither)."""
    found = False
    try:
        for entry in (path.iterdir() if path.is_dir() else ()):
            if entry.is_file() and _ARMS_FILE.fullmatch(entry.name):
                continue
            if not (entry.is_dir() and is_run(entry)):
                return False
            found = True
    except OSError:
        return False
    return found


def _older_run(path: Path) -> bool:
    """Whether ``path`` holds a result directory's signature: a first record whose checksum
    holds, and a first task id in ``tasks.txt``."""
    try:
        with open(path / TASKS, "rb") as fh:
            first = fh.readline(64)
    except OSError:
        return False
    return bool(_TASK_ID.fullmatch(first)) and first_record(path) is not None


def owning_run(path) -> Path | None:
    """The result directory that ``path`` (symbolic links followed) is or lies in: one of its
    files, its summary tables, its report and figures. None if it lies in none."""
    path = Path(os.path.realpath(path))  # resolve() raises on a symbolic link loop
    for candidate in (path, *path.parents):
        # Protected as much as claimed: a directory of bayesbench's records, even without
        # its task list, is written into by nothing but its run.
        if candidate.is_dir() and (is_run(candidate) or first_record(candidate) is not None):
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
