"""Progress for long steps: a live bar on a terminal, plain periodic lines elsewhere.

On a terminal the line is redrawn in place (count, rate, ETA); when output goes to a file,
Make or a CI log, one plain line is written every ``every_s`` seconds and at the end;
``quiet`` silences everything but errors. Output goes to stderr, so stdout stays parseable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _duration(seconds: float) -> str:
    seconds = int(max(0, seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class Progress:
    def __init__(self, label: str, total: int | None, unit: str = "items", quiet: bool = False,
                 stream: TextIO | None = None, every_s: float = 10.0, clock=time.monotonic):
        self.label, self.total, self.unit = label, total, unit
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every_s = every_s if not self.tty else 0.2
        self.clock = clock
        self.start = self.last = clock()
        self.done = 0
        self.note = ""

    def update(self, n: int = 1, note: str | None = None) -> None:
        self.done += n
        if note is not None:
            self.note = note
        now = self.clock()
        if not self.quiet and now - self.last >= self.every_s:
            self.last = now
            self._write(final=False)
            self._written = self.done

    def close(self, note: str | None = None) -> None:
        if note is not None:
            self.note = note
        # a plain log already has the line for this count: do not print it twice
        if not self.quiet and (self.tty or getattr(self, "_written", None) != self.done or note is not None):
            self._write(final=True)

    def line(self) -> str:
        elapsed = max(self.clock() - self.start, 1e-9)
        rate = self.done / elapsed
        count = f"{self.done}/{self.total}" if self.total is not None else f"{self.done}"
        text = f"{self.label}: {count} {self.unit}, {rate:.1f}/s, {_duration(elapsed)}"
        if self.total and rate > 0 and self.done < self.total:
            text += f", ETA {_duration((self.total - self.done) / rate)}"
        return text + (f" ({self.note})" if self.note else "")

    def _write(self, final: bool) -> None:
        if self.tty:
            self.stream.write("\r\033[K" + self.line() + ("\n" if final else ""))
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()
