"""Progress lines: periodic plain lines off a terminal, the final count once, ETA, --quiet."""

from __future__ import annotations

import io

from builder.progress import Progress


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_plain_lines_every_period_with_rate_and_eta_and_the_last_line_once():
    out, clock = io.StringIO(), Clock()
    bar = Progress("clean", 10, "shards", stream=out, every_s=10, clock=clock)
    for _ in range(10):
        clock.t += 4
        bar.update(1)
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "clean: 3/10 shards, 0.2/s, 12s, ETA 28s"
    assert lines[-1].startswith("clean: 10/10 shards") and "ETA" not in lines[-1]
    assert len(lines) == len(set(lines))  # the final count is not printed twice


def test_quiet_prints_nothing_and_close_reports_a_note():
    out, clock = io.StringIO(), Clock()
    bar = Progress("swap", None, stream=out, quiet=True, clock=clock)
    clock.t = 100
    bar.update(5)
    bar.close("done")
    assert out.getvalue() == ""
    loud = Progress("swap", None, stream=out, every_s=1, clock=clock)
    loud.update(2)
    loud.close("7 variants")
    assert out.getvalue().splitlines()[-1].endswith("(7 variants)")
