"""Data-parallel predict: dialogues sharded over workers (processes or Ray actors), one model each.

A task is a shard of many dialogues' question groups, not one dialogue, so every worker batches
questions across the dialogues of its shard exactly as one in-process backend does (the
transformers backend pools the groups it is given). Shards are cut in dialogue order with about
``total / (workers x TASKS_PER_WORKER)`` questions each (at most :data:`TASK_QUESTIONS`), so a
small run still reaches every worker and a large one keeps each worker's batches full; an idle
worker takes the next shard. Answers are filed under their cache keys, so the merged samples do not
depend on which worker answered what (greedy decoding is padding-invariant: batch 1 == batch N).
"""

from __future__ import annotations

import os
import socket
from dataclasses import replace
from typing import Iterable, Iterator

from builder.errors import ConfigError
from builder.eval.backends import Backend, BackendSpec, Group, make_backend

TASK_QUESTIONS = 1024  # questions per shard at most: on a GPU, a few full batches of --batch-size auto
TASKS_PER_WORKER = 2  # shards per worker at least (when there are enough questions): idle workers take the rest
SUMMED = ("batches", "generated", "prompt_tokens", "padding_tokens", "prefix_groups", "prefix_unstable")


def task_questions(total_questions: int, workers: int) -> int:
    """How many questions one shard holds (a shard closes at the first dialogue that reaches it)."""
    return max(1, min(TASK_QUESTIONS, -(-total_questions // (max(1, workers) * TASKS_PER_WORKER))))


def shards(groups: Iterable[Group], size: int) -> Iterator[list[Group]]:
    """Consecutive groups (one per dialogue) cut into shards of at least ``size`` questions (the last one
    may hold fewer); lazy, so the driver reads the release as workers take shards."""
    shard: list[Group] = []
    questions = 0
    for group in groups:
        shard.append(group)
        questions += len(group.requests)
        if questions >= size:
            yield shard
            shard, questions = [], 0
    if shard:
        yield shard


class PredictWorker:
    """A model backend as an executor worker: loaded once per process or actor (one GPU each with
    ``--gpus-per-worker 1``), answering a shard of dialogues per task in cross-dialogue batches."""

    def __init__(self, spec: BackendSpec):
        self.spec = spec
        self.backend: Backend | None = None  # made by setup()
        self.name = ""

    def setup(self, device: str) -> None:
        self.backend = make_backend(replace(self.spec, device=device))
        if hasattr(self.backend, "setup"):
            self.backend.setup()
        self.name = f"{socket.gethostname()}:{os.getpid()}"

    def __call__(self, shard: list[Group]) -> dict:
        replies: list[tuple[str, dict]] = []
        assert self.backend is not None  # an executor calls setup() before the first task
        self.backend.run(shard, lambda request, reply: replies.append((request.key, reply.to_json())))
        return {"replies": replies, "worker": self.name, "stats": dict(self.backend.stats),
                "identity": self.backend.identity()}


class WorkerStats:
    """Each worker's backend stats (cumulative, the latest one a task returned), merged for the manifest."""

    def __init__(self, shard_questions: int, identity: dict):
        self.shard_questions = shard_questions
        self.identity = identity
        self.tasks = 0
        self.by_worker: dict[str, dict] = {}

    def add(self, result: dict) -> None:
        """Count a finished shard; a worker that runs the model other than the driver keyed its cache
        (another device kind or dtype) is refused before any of its answers is kept."""
        if result["identity"] != self.identity:
            differ = sorted(k for k in set(result["identity"]) | set(self.identity)
                            if result["identity"].get(k) != self.identity.get(k))
            shown = ", ".join(f"{k} {result['identity'].get(k)} (driver: {self.identity.get(k)})" for k in differ)
            raise ConfigError(f"a worker runs the model with {shown}, not as this process keys the answer cache; "
                              "pass --device and --dtype explicitly (e.g. --device cuda --dtype bfloat16)")
        self.tasks += 1
        self.by_worker[result["worker"]] = result["stats"]

    def merged(self) -> dict:
        workers = [self.by_worker[name] for name in sorted(self.by_worker)]
        if not workers:
            return {"workers": 0, "tasks": 0}
        out = {k: v for k, v in workers[0].items() if k not in SUMMED and k != "rows_max"}
        out.update({key: sum(w.get(key, 0) for w in workers) for key in SUMMED})
        out["rows_max"] = max(w.get("rows_max", 0) for w in workers)
        out.update(workers=len(workers), tasks=self.tasks, shard_questions=self.shard_questions,
                   generated_per_worker=[w.get("generated", 0) for w in workers])
        return out
