"""The ``local`` executor: every task in this process, one after another."""

from __future__ import annotations


class LocalExecutor:
    def __init__(self, spec):
        self.spec = spec

    def run(self, worker, tasks, on_done, device: str) -> None:
        worker.setup(device)
        for task in tasks:
            on_done(task, worker(task))
