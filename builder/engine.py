"""Run a Parquet-to-Parquet stage under the stage contract (local, shard by shard).

A stage object provides::

    name: str; version: str; reads: tuple[str, ...]; writes: tuple[str, ...]
    config            a frozen dataclass (recorded in the manifest, part of the resume state)
    setup(device)     load heavy models (called once, lazily, only if a shard needs work)
    models() -> list  [{"name", "version", "files": {file: sha256}}] for the manifest
    process(df, ctx) -> ShardResult
    finalize(folder: Path, stats: dict) -> dict   optional: extra manifest fields / figures

Input part ``i`` becomes output part ``i``; a finished shard is marked, so a rerun after
a crash only processes what is missing and produces the same bytes.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import polars as pl

from builder import io
from builder.errors import ConfigError
from builder.images import ImageStore, carry_images
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


def resolve_device(device: str) -> str:
    if device not in ("auto", "cpu", "cuda") and not device.startswith("cuda:"):
        raise ConfigError(f"unknown device {device!r}; use auto, cpu, cuda or cuda:N")
    if device == "cpu":
        return "cpu"
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if not torch.cuda.is_available():
        raise ConfigError(f"--device {device} was asked for but no CUDA device is visible; use --device cpu")
    return device


def config_dict(config: Any) -> dict:
    return dataclasses.asdict(config) if dataclasses.is_dataclass(config) else dict(config)


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


def run_stage(
    stage: Any,
    input_dir: Path,
    output_dir: Path,
    *,
    force: bool = False,
    device: str = "auto",
    log: Callable[[str], None] = lambda msg: None,
) -> dict:
    """Run ``stage`` over every input part; returns the manifest (also on 'up to date')."""
    input_dir, output_dir = Path(input_dir), Path(output_dir)
    in_manifest = io.require_finished(input_dir)
    config = config_dict(stage.config)
    state = {
        "stage": stage.name,
        "stage_version": stage.version,
        "config": config,
        "input_hash": in_manifest.get("output_hash"),
    }
    out = io.OutputFolder(output_dir, state, force=force)
    if (finished := out.finished_manifest()) is not None:
        log(f"{stage.name}: {output_dir} is up to date")
        return finished
    out.open()
    started = time.perf_counter()
    in_store, out_store = ImageStore(input_dir), ImageStore(out.partial)
    in_parts = io.parts(input_dir)
    resolved = None
    stats: dict[str, Any] = {}
    timings = {"setup_s": 0.0, "process_s": 0.0}
    for index, part in enumerate(in_parts):
        key = f"{index:05d}"
        name = io.PART_FMT.format(index)
        if out.shard_done(key):
            merge_stats(stats, out.shard_info(key).get("stats", {}))
            continue
        if resolved is None:
            t0 = time.perf_counter()
            resolved = resolve_device(device)
            stage.setup(resolved)
            timings["setup_s"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        df = pl.read_parquet(part)
        work = out.path("_work") / key
        work.mkdir(parents=True, exist_ok=True)
        ctx = ShardContext(index, in_store, out_store, resolved, work)
        result = stage.process(df, ctx)
        _check_balance(stage.name, df, result.ledger)
        carry_images(result.dialogues, in_store, out_store)
        io.write_dialogues(result.dialogues, out.path(name))
        io.write_parquet_atomic(io.sort_ledger(result.ledger), out.path(f"_shards/ledger-{key}.parquet"))
        out.mark_shard(key, {"stats": result.stats})
        merge_stats(stats, result.stats)
        timings["process_s"] += time.perf_counter() - t0
        log(f"{stage.name}: shard {index + 1}/{len(in_parts)} done ({df.height} dialogues)")
    ledger_parts = [pl.read_parquet(p) for p in sorted(out.path("_shards").glob("ledger-*.parquet"))]
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
