"""The runner: a Parquet-to-Parquet stage under the stage contract, on any executor.

A stage object provides::

    name: str; version: str; reads: tuple[str, ...]; writes: tuple[str, ...]
    config            a frozen dataclass (recorded in the manifest, part of the resume state)
    setup(device)     load heavy models (called once, lazily, only if a shard needs work)
    models() -> list  [{"name", "version", "files": {file: sha256}}] for the manifest
    process(df, ctx) -> ShardResult
    finalize(folder: Path, stats: dict) -> dict   optional: extra manifest fields / figures
    prepare(input_dir, device)   optional: a global step run once in the driver before the
                                 shards (e.g. swap's selection); its result travels with the stage

Input part ``i`` becomes output part ``i`` (:class:`ShardWorker`), on the executor asked for
(``local``, ``processes``, ``ray``: :mod:`builder.executors`); the driver marks each finished
shard with the sha256 of its files, so a rerun after a crash (on any executor) verifies and
keeps what is done, redoes the rest, and produces the same bytes. One writer per output
folder: a second one is refused with the holder's pid (:mod:`builder.locks`).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import polars as pl

from builder import io
from builder.devices import resolve_device
from builder.errors import InputError
from builder.executors import ExecutorSpec, run_tasks
from builder.images import ImageStore, carry_images
from builder.locks import FolderLock
from builder.progress import Progress
from builder.records import LEDGER_SCHEMA


@dataclass
class ShardContext:
    index: int
    in_images: ImageStore
    out_images: ImageStore
    device: str
    work_dir: Path  # scratch space inside the partial folder, removed on commit


@dataclass
class ShardResult:
    dialogues: pl.DataFrame
    ledger: pl.DataFrame
    stats: dict[str, Any] = field(default_factory=dict)


def config_dict(config: Any) -> dict:
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return dataclasses.asdict(config)
    return dict(config)


def merge_stats(total: dict, new: dict) -> dict:
    """Sum numbers and nested dicts of numbers; other values keep the first seen."""
    for key, value in new.items():
        if isinstance(value, dict):
            merge_stats(total.setdefault(key, {}), value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            total[key] = total.get(key, 0) + value
        else:
            total.setdefault(key, value)
    return total


class ShardWorker:
    """One input part -> one output part + its ledger shard, on whichever executor runs it.

    Picklable before ``setup`` (it holds the stage object with its config, and paths); the
    files it writes depend only on the shard, so completion order never changes the bytes.
    """

    def __init__(self, stage: Any, input_dir: Path, partial: Path):
        self.stage, self.input_dir, self.partial = stage, Path(input_dir), Path(partial)
        self.device = "cpu"

    def setup(self, device: str) -> None:
        t0 = time.perf_counter()
        self.device = device
        self.stage.setup(device)
        self.setup_s = time.perf_counter() - t0  # reported once, with the first shard this worker runs

    def __call__(self, index: int) -> dict:
        key = shard_key(index)
        df = pl.read_parquet(io.parts(self.input_dir)[index])
        work = self.partial / "_work" / key
        work.mkdir(parents=True, exist_ok=True)
        in_store, out_store = ImageStore(self.input_dir), ImageStore(self.partial)
        result = self.stage.process(df, ShardContext(index, in_store, out_store, self.device, work))
        _check_balance(self.stage.name, df, result.ledger)
        carry_images(result.dialogues, in_store, out_store)
        part, ledger = self.partial / io.PART_FMT.format(index), self.partial / "_shards" / f"ledger-{key}.parquet"
        io.write_dialogues(result.dialogues, part)
        io.write_parquet_atomic(io.sort_ledger(result.ledger), ledger)
        setup_s, self.setup_s = getattr(self, "setup_s", 0.0), 0.0
        return {"stats": result.stats, "rows_in": df.height, "rows_out": result.dialogues.height,
                "part_sha256": io.sha256_file(part), "ledger_sha256": io.sha256_file(ledger), "setup_s": setup_s}


def shard_key(index: int) -> str:
    return f"{index:05d}"


def shard_verified(out: io.OutputFolder, index: int) -> bool:
    """A finished shard counts only if its files are there with the bytes its marker recorded:
    a marker left by a crashed or concurrent writer never hides a missing or torn part."""
    key = shard_key(index)
    if not out.shard_done(key):
        return False
    try:
        info = out.shard_info(key)
        part, ledger = out.path(io.PART_FMT.format(index)), out.path(f"_shards/ledger-{key}.parquet")
        return (info.get("part_sha256") == io.sha256_file(part)
                and info.get("ledger_sha256") == io.sha256_file(ledger))
    except (OSError, ValueError):
        return False


def check_reads(stage: Any, input_dir: Path) -> None:
    """The columns a stage declares it reads must be in its input, before any work."""
    files = io.parts(input_dir)
    if not files:
        return
    have = set(pl.read_parquet_schema(files[0]).keys())
    missing = [c for c in getattr(stage, "reads", ()) if c not in have]
    if missing:
        raise InputError(f"{input_dir} lacks column(s) {', '.join(missing)} that {stage.name} reads; it was not "
                         "written by the stage before it (rerun that stage)")


def run_stage(
    stage: Any,
    input_dir: Path,
    output_dir: Path,
    *,
    force: bool = False,
    device: str = "auto",
    executor: ExecutorSpec = ExecutorSpec(),
    log: Callable[[str], None] = lambda msg: None,
    quiet: bool = False,
) -> dict:
    """Run ``stage`` over every input part on ``executor``; returns the manifest (also on 'up to date')."""
    input_dir, output_dir = Path(input_dir), Path(output_dir)
    executor.validate()
    in_manifest = io.require_finished(input_dir)
    config = config_dict(stage.config)
    state = {
        "stage": stage.name,
        "stage_version": stage.version,
        "config": config,
        "input_hash": in_manifest.get("output_hash"),
    }
    out = io.OutputFolder(output_dir, state, force=force, inputs=[input_dir])
    with FolderLock(output_dir):
        if (finished := out.finished_manifest()) is not None:
            log(f"{stage.name}: {output_dir} is up to date")
            return finished
        check_reads(stage, input_dir)
        out.open()
        started = time.perf_counter()
        in_parts = io.parts(input_dir)
        todo = [i for i in range(len(in_parts)) if not shard_verified(out, i)]
        resolved = resolve_device(device) if executor.name != "ray" else device
        timings = {"prepare_s": 0.0, "setup_s": 0.0, "process_s": 0.0}  # setup_s: model loading, summed over workers
        if todo and hasattr(stage, "prepare"):  # a global step (e.g. swap's selection), in the driver
            t0 = time.perf_counter()
            stage.prepare(input_dir, resolved if resolved != "auto" else resolve_device("auto"))
            timings["prepare_s"] = time.perf_counter() - t0
        progress = Progress(stage.name, len(in_parts), "shards", quiet=quiet)
        progress.update(len(in_parts) - len(todo))

        def done(index: int, info: dict) -> None:
            timings["setup_s"] += info.get("setup_s", 0.0)
            out.mark_shard(shard_key(index), info)
            progress.update(1, note=f"shard {index + 1}: {info['rows_in']} dialogues")

        t0 = time.perf_counter()
        run_tasks(executor, ShardWorker(stage, input_dir, out.partial), todo, done, resolved)
        timings["process_s"] = time.perf_counter() - t0
        progress.close()
        stats: dict[str, Any] = {}
        for index in range(len(in_parts)):  # shard order, whatever order they finished in
            merge_stats(stats, out.shard_info(shard_key(index)).get("stats", {}))
        ledger_parts = [pl.read_parquet(out.path(f"_shards/ledger-{shard_key(i)}.parquet")) for i in range(len(in_parts))]
        mine = pl.concat(ledger_parts) if ledger_parts else pl.DataFrame(schema=LEDGER_SCHEMA)
        ledger = io.sort_ledger(pl.concat([io.read_ledger(input_dir), mine]))
        io.write_parquet_atomic(ledger, out.path(io.LEDGER))
        extra = stage.finalize(out.partial, stats) if hasattr(stage, "finalize") else {}
        timings["total_s"] = time.perf_counter() - started
        manifest = {
            "stage": stage.name,
            "stage_version": stage.version,
            "reads": list(stage.reads),
            "writes": list(stage.writes),
            "config": config,
            "input": {"path": str(input_dir), "content_hash": state["input_hash"], "stage": in_manifest.get("stage")},
            "models": stage.models(),
            "device": resolved,
            "executor": executor.describe(),
            "rows": io.ledger_counts(ledger, stage.name),
            "stats": stats,
            "timings": timings,
            **(extra or {}),
        }
        return out.commit(manifest)


def _check_balance(stage: str, df: pl.DataFrame, ledger: pl.DataFrame) -> None:
    """Rows in = kept + modified + dropped + quarantined: a broken stage must not pass."""
    wanted = sorted(df["dialogue_id"].to_list())
    got = sorted(ledger.filter(pl.col("stage") == stage)["dialogue_id"].to_list())
    if wanted != got:
        raise AssertionError(
            f"stage {stage}: ledger rows do not match input dialogues ({len(got)} vs {len(wanted)})"
        )
