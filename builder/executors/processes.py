"""The ``processes`` executor: a pool of worker processes on this machine.

Spawned, not forked (polars/numpy/torch thread pools do not survive a fork reliably); the
worker is pickled to each process once and set up there once, by the pool's initializer.
A worker that dies (SIGKILL, the out-of-memory killer) breaks the pool: that is one line
saying so, and the finished shards stay for the rerun, as with Ray.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing

from builder.errors import InputError

_WORKER = None
_SETUP_ERROR: BaseException | None = None


def _init(worker, device: str) -> None:
    global _WORKER, _SETUP_ERROR
    _WORKER = worker
    try:
        _WORKER.setup(device)
    except Exception as exc:  # noqa: BLE001 - re-raised with the first task, so the driver reports this
        _SETUP_ERROR = exc  # error itself (a failed initializer only says "the pool is broken")


def _call(task):
    if _SETUP_ERROR is not None:
        raise _SETUP_ERROR
    return task, _WORKER(task)


class ProcessExecutor:
    def __init__(self, spec):
        self.spec = spec

    def run(self, worker, tasks, on_done, device: str) -> None:
        """``tasks`` may be a generator: at most two per worker are in flight, so a stream of large
        tasks (a dialogue with its images) never piles up in memory."""
        if self.spec.workers <= 1:  # a pool of one is the local loop with more overhead
            worker.setup(device)
            for task in tasks:
                on_done(task, worker(task))
            return
        try:
            self._pool(worker, tasks, on_done, device)
        except cf.process.BrokenProcessPool:
            raise InputError("a worker process died (killed, e.g. by the out-of-memory killer); the shards finished "
                             "before are kept: rerun the same command to resume (with fewer --workers if memory "
                             "ran out)") from None

    def _pool(self, worker, tasks, on_done, device: str) -> None:
        ctx = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(max_workers=self.spec.workers, mp_context=ctx,
                                    initializer=_init, initargs=(worker, device)) as pool:
            pending: set[cf.Future] = set()
            try:
                for task in tasks:
                    pending.add(pool.submit(_call, task))
                    if len(pending) >= 2 * self.spec.workers:
                        done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                        for future in done:
                            on_done(*future.result())
                for future in cf.as_completed(pending):
                    on_done(*future.result())
            except BaseException:
                for future in pending:
                    future.cancel()
                raise
