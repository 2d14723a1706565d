"""The ``ray`` executor: Ray core actors, one per worker, over the shards not yet done.

Each actor receives the worker once and calls ``setup(device)`` once (with
``--gpus-per-worker 1`` Ray gives it one GPU and the device is ``cuda``); an ``ActorPool``
feeds it shards. Not Ray Data: its ``map_batches`` with an actor pool deadlocked on a 2-CPU
machine, and its ``write_parquet`` names files with a random id per run and merges parts,
which would break part-to-part resume and byte identity. Workers write their shard's files
to the output's partial folder, which must be on storage every node sees; the driver
writes the done-markers, merges ledgers and stats in shard order and commits.

``--address auto`` joins a running cluster (``ray start --head``); no address starts a
local one for the run. Ray is an optional extra: ``pip install 'mmrc-build[ray]'``.
"""

from __future__ import annotations

import os

from builder.errors import ConfigError, DependencyError, InputError


def _ray():
    try:
        import ray
        from ray.util import ActorPool
    except ImportError:
        raise DependencyError("--executor ray needs Ray: pip install 'mmrc-build[ray]'") from None
    return ray, ActorPool


def _local_gpus() -> int:
    try:
        import torch
    except ImportError:
        return 0
    return torch.cuda.device_count()


class _Actor:
    def __init__(self, worker, device: str):
        if device == "auto":
            import torch

            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.worker = worker
        self.worker.setup(device)

    def run(self, task):
        return task, self.worker(task)

    def pid(self) -> int:
        return os.getpid()


class RayExecutor:
    def __init__(self, spec):
        self.spec = spec

    def run(self, worker, tasks, on_done, device: str) -> None:
        ray, ActorPool = _ray()
        started_here = False
        if not ray.is_initialized():
            if not self.spec.address:  # a local cluster gets this machine's GPUs: say so before starting it
                self._check_gpus(_local_gpus())
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            kwargs = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
            try:
                if self.spec.address:
                    ray.init(address=self.spec.address, **kwargs)
                else:
                    cpus = max(os.cpu_count() or 1, int(self.spec.workers * self.spec.cpus_per_worker))
                    ray.init(num_cpus=cpus, **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise InputError(f"cannot reach the Ray cluster at {self.spec.address or 'a new local cluster'} "
                                 f"({str(exc).splitlines()[0][:200]}); start one with `ray start --head` or "
                                 "drop --address") from None
            started_here = True
        try:
            self._check_gpus(ray.cluster_resources().get("GPU", 0))
        except ConfigError:
            if started_here:
                ray.shutdown()
            raise
        actor_device = "cuda" if self.spec.gpus_per_worker else device
        remote = ray.remote(num_cpus=self.spec.cpus_per_worker, num_gpus=self.spec.gpus_per_worker)(_Actor)
        actors = [remote.remote(worker, actor_device) for _ in range(self.spec.workers)]
        try:
            pool = ActorPool(actors)
            in_flight = 0
            for task in tasks:  # at most two tasks per actor in flight: a generator of tasks stays lazy
                pool.submit(lambda actor, t: actor.run.remote(t), task)
                in_flight += 1
                while in_flight >= 2 * len(actors):
                    on_done(*pool.get_next_unordered())
                    in_flight -= 1
            while in_flight:
                on_done(*pool.get_next_unordered())
                in_flight -= 1
        except ray.exceptions.RayActorError as exc:
            raise InputError(f"a Ray worker died ({type(exc).__name__}); the shards it finished are kept: rerun "
                             "the same command to resume") from None
        except ray.exceptions.RayTaskError as exc:
            raise exc.as_instanceof_cause() from None
        finally:
            for actor in actors:
                ray.kill(actor)
            if started_here:
                ray.shutdown()

    def _check_gpus(self, have: float) -> None:
        """Actors asking for GPUs the cluster does not have would wait for them for ever: one line instead."""
        needed = self.spec.workers * self.spec.gpus_per_worker
        if needed and have < needed:
            where = self.spec.address or "the local Ray cluster started for this run"
            raise ConfigError(f"--workers {self.spec.workers} x --gpus-per-worker {self.spec.gpus_per_worker:g} needs "
                              f"{needed:g} GPU(s) but {where} has {have:g}; use --gpus-per-worker 0 (CPU workers) "
                              "or fewer --workers, or run on a machine or cluster with GPUs")
