"""``--concurrency auto`` for the openai backend: requests in flight ramp up (4, 8, 16, ...) while
throughput keeps rising, and settle where doubling stopped paying.

A batching server (vLLM, SGLang) answers more requests per second the more it has in flight, until
its batch or memory is full; past that, more concurrency only queues. Each level runs for a window
of completions (``WINDOW_ROUNDS`` x the level, at least ``MIN_WINDOW``); when a doubling raised the
completions per second by less than ``GAIN``, the ramp goes back to the level before and stays there.
The levels tried and their rates go into the backend's stats.
"""

from __future__ import annotations

import asyncio
import time

START, CAP = 4, 256
GAIN = 0.10  # a doubling must raise throughput by more than this to be kept
WINDOW_ROUNDS, MIN_WINDOW = 3, 12


class ConcurrencyRamp:
    """An async limiter whose limit ramps; its state outlives one event loop (the backend runs once per chunk)."""

    def __init__(self, start: int = START, cap: int = CAP, gain: float = GAIN, clock=time.monotonic):
        self.limit, self.cap, self.gain, self.clock = start, cap, gain, clock
        self.settled = start >= cap
        self.history: list[tuple[int, float]] = []  # (level, completions per second)
        self.in_flight = 0
        self._window_start: float | None = None
        self._window_done = 0
        self._condition: asyncio.Condition | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _cond(self) -> asyncio.Condition:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a new run: a new condition on its loop; the window restarts
            self._loop, self._condition, self.in_flight = loop, asyncio.Condition(), 0
            self._window_start, self._window_done = None, 0
        assert self._condition is not None  # made with self._loop, above or on an earlier call
        return self._condition

    async def __aenter__(self) -> "ConcurrencyRamp":
        cond = self._cond()
        async with cond:
            await cond.wait_for(lambda: self.in_flight < self.limit)
            self.in_flight += 1
            if self._window_start is None:
                self._window_start = self.clock()
        return self

    async def __aexit__(self, *exc) -> None:
        cond = self._cond()
        async with cond:
            self.in_flight -= 1
            self._completed()
            cond.notify_all()

    def _completed(self) -> None:
        if self.settled:
            return
        self._window_done += 1
        if self._window_done < max(MIN_WINDOW, WINDOW_ROUNDS * self.limit):
            return
        rate = self._window_done / max(self.clock() - self._window_start, 1e-9)
        self.history.append((self.limit, round(rate, 2)))
        if len(self.history) > 1 and rate <= self.history[-2][1] * (1 + self.gain):
            self.limit, self.settled = self.history[-2][0], True  # doubling stopped paying: back one level
        elif self.limit * 2 > self.cap:
            self.settled = True
        else:
            self.limit *= 2
        self._window_start, self._window_done = self.clock(), 0

    def describe(self) -> dict:
        return {"concurrency": self.limit, "concurrency_settled": self.settled,
                "concurrency_ramp": [list(step) for step in self.history]}
