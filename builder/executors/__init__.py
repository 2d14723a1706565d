"""Where shards run: ``local`` (this process), ``processes`` (a pool on this machine), ``ray``
(core actors on a Ray cluster). A stage says *what* to do with one shard; an executor says
*where*. The executor is never part of a stage's config hash: every executor gives
byte-identical data files, and a run interrupted on one resumes on another.

An executor runs a *worker* over *tasks*: the worker (a picklable object holding a stage's
config, no models yet) is sent once to every process or actor, ``worker.setup(device)``
loads its models once there, and ``worker(task)`` does one shard. ``on_done(task, result)``
runs in the driver as results arrive, in completion order; the runner makes everything it
writes from them independent of that order.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from builder.errors import ConfigError

EXECUTORS = {
    "local": "builder.executors.local:LocalExecutor",
    "processes": "builder.executors.processes:ProcessExecutor",
    "ray": "builder.executors.ray_actors:RayExecutor",
}


@dataclass(frozen=True)
class ExecutorSpec:
    name: str = "local"
    workers: int = 1
    address: str | None = None  # ray: "auto", "ray://host:10001", or None for a local cluster
    cpus_per_worker: float = 1.0
    gpus_per_worker: float = 0.0

    def validate(self) -> "ExecutorSpec":
        if self.name not in EXECUTORS:
            raise ConfigError(f"unknown executor {self.name!r}; available: {', '.join(EXECUTORS)}")
        if self.workers < 1:
            raise ConfigError("--workers must be at least 1")
        if self.cpus_per_worker <= 0 or self.gpus_per_worker < 0:
            raise ConfigError("--cpus-per-worker must be > 0 and --gpus-per-worker >= 0")
        if self.gpus_per_worker and self.name != "ray":
            raise ConfigError("--gpus-per-worker places Ray actors; use --executor ray (local and processes "
                              "use --device)")
        if self.address and self.name != "ray":
            raise ConfigError("--address is for --executor ray")
        return self

    def describe(self) -> dict:
        return {"name": self.name, "workers": self.workers, "address": self.address,
                "cpus_per_worker": self.cpus_per_worker, "gpus_per_worker": self.gpus_per_worker}


class Worker(Protocol):
    def setup(self, device: str) -> None: ...

    def __call__(self, task: Any, /) -> Any: ...


class Executor(Protocol):
    def run(self, worker: Worker, tasks: list, on_done: Callable[[Any, Any], None], device: str) -> None: ...


def make_executor(spec: ExecutorSpec) -> Executor:
    spec.validate()
    module, _, cls = EXECUTORS[spec.name].partition(":")
    return getattr(importlib.import_module(module), cls)(spec)


def run_tasks(spec: ExecutorSpec, worker: Worker, tasks: Iterable, on_done: Callable[[Any, Any], None],
              device: str) -> None:
    """Run ``worker`` over ``tasks`` (a list, or a generator consumed lazily); nothing is set up
    when there is no task."""
    stream = iter(tasks)
    try:
        first = next(stream)
    except StopIteration:
        return

    def chained():
        yield first
        yield from stream

    make_executor(spec).run(worker, chained(), on_done, device)
