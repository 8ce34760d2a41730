"""Progress of a run: a bar with counts and ETA on a terminal, one line per data set otherwise."""
from __future__ import annotations

import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    """Reports finished tasks to ``stream`` (standard error by default).

    On a terminal it redraws one bar (``[#####.....] 120/500 tasks, 0:00:12
    elapsed, ETA 0:00:38``); elsewhere (a log file, CI) it prints one line
    when a data set is finished. ``quiet`` silences both.
    """

    width = 30

    def __init__(self, totals: dict[str, int], done: dict[str, int], *, stream=None,
                 quiet: bool = False, tty: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty() if tty is None else tty
        self.totals = dict(totals)
        self.done = {name: done.get(name, 0) for name in totals}
        self.errors = {name: 0 for name in totals}
        self.total = sum(self.totals.values())
        self.skipped = sum(self.done.values())
        self.start = time.monotonic()
        self._drawn = False

    @property
    def finished(self) -> int:
        return sum(self.done.values())

    def update(self, dataset: str, n: int = 1, errors: int = 0) -> None:
        self.done[dataset] += n
        self.errors[dataset] += errors
        if self.quiet:
            return
        if self.tty:
            self._draw()
        elif self.done[dataset] == self.totals[dataset]:
            err = f", {self.errors[dataset]} failed" if self.errors[dataset] else ""
            print(f"{dataset}: {self.totals[dataset]} tasks done{err} "
                  f"({self.finished}/{self.total} overall, "
                  f"{_clock(time.monotonic() - self.start)} elapsed)",
                  file=self.stream, flush=True)

    def _draw(self) -> None:
        elapsed = time.monotonic() - self.start
        ran = self.finished - self.skipped
        left = self.total - self.finished
        eta = _clock(elapsed / ran * left) if ran else "?"
        filled = int(self.width * self.finished / self.total) if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {self.finished}/{self.total} tasks, "
                          f"{_clock(elapsed)} elapsed, ETA {eta}  ")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
