"""The ingest stage: raw log folder -> canonical Parquet parts + ledger + quarantine.

Phase 1 (one shard per log file, resumable, optionally in worker processes): read,
         validate, resolve images, hash ids, MinHash the user turns (read_files.py).
Phase 2 (global, small columns only): turn-range filter, exact and near duplicates (decide.py).
Phase 3 (resumable): bucket the kept rows by output part in one streaming pass, then
         sort each bucket by dialogue_id into its part and carry its images over.
Peak memory: one chunk of one file, one output part, and ~300 bytes per dialogue of
signatures and decisions.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import hmac
import os
import shutil
import time
from pathlib import Path
from typing import Callable, cast

import polars as pl

from builder import io
from builder.errors import InputError
from builder.executors import ExecutorSpec, run_tasks
from builder.images import ImageStore, carry_images
from builder.ingest.config import IngestConfig
from builder.ingest.decide import decide
from builder.ingest.read_files import Q_SCHEMA, ingest_file
from builder.ingest.readers import log_files, reader
from builder.locks import FolderLock
from builder.progress import Progress
from builder.records import DIALOGUE_SCHEMA

STAGE, VERSION = "ingest", "1"
IGNORE_FILE = ".mmrcignore"
QUARANTINE = "quarantine.parquet"


def run_ingest(raw_dir: Path, out_dir: Path, config: IngestConfig = IngestConfig(), *,
               exclude: tuple[str, ...] = (), force: bool = False, workers: int = 1,
               executor: ExecutorSpec | None = None, log: Callable[[str], None] = lambda m: None,
               quiet: bool = False, verbose: bool = False) -> dict:
    """Ingest ``raw_dir`` into ``out_dir``. ``executor`` runs phase 1 (one task per log file);
    ``workers > 1`` without one means a process pool. Per-file lines only with ``verbose``."""
    executor = executor or ExecutorSpec("processes" if workers > 1 else "local", workers)
    io.require_utf8_path(raw_dir, "raw folder")
    io.require_utf8_path(out_dir, "output folder")  # before the lock file is made beside it
    with FolderLock(Path(out_dir)):
        return _run_ingest(raw_dir, out_dir, config, exclude, force, executor, log, quiet, verbose)


def _run_ingest(raw_dir, out_dir, config, exclude, force, executor, log, quiet, verbose) -> dict:
    raw_dir, out_dir = Path(raw_dir), Path(out_dir)
    if not raw_dir.is_dir():
        raise InputError(f"raw folder {raw_dir} does not exist; pass the folder that holds the chat logs")
    if config.format != "auto":
        reader(config.format)  # unknown names fail before any work
    patterns = tuple(exclude) + _ignore_file(raw_dir)
    files, skipped, other_files = _select(raw_dir, patterns)
    salt = _salt(config)
    state = {"stage": STAGE, "stage_version": VERSION, "config": dataclasses.asdict(config),
             "exclude": list(patterns), "input_hash": _raw_hash(raw_dir, files),
             "salt": hmac.new(salt, b"mmrc-salt-fingerprint", "sha256").hexdigest() if salt else None}
    out = io.OutputFolder(out_dir, state, force=force, inputs=[raw_dir])
    if (finished := out.finished_manifest()) is not None:
        log(f"ingest: {out_dir} is up to date")
        return finished
    out.open()
    t0 = time.perf_counter()
    work = out.path("_work")
    for sub in ("rows", "quarantine"):
        (work / sub).mkdir(parents=True, exist_ok=True)
    _read_all(files, raw_dir, work, out, config, salt, executor, log, quiet, verbose)
    file_report = [{k: v for k, v in out.shard_info(f"f{i:06d}").items() if k != "outputs"}
                   for i in range(len(files))]
    t1 = time.perf_counter()
    assign, ledger = decide(work, config)
    t2 = time.perf_counter()
    n_out = _write_parts(work, out, assign)
    t3 = time.perf_counter()
    quarantine = _concat(sorted((work / "quarantine").glob("*.parquet")), Q_SCHEMA).sort(["source", "locator"])
    io.write_parquet_atomic(quarantine, out.path(QUARANTINE))
    q_ledger = quarantine.select(
        "dialogue_id", pl.lit(STAGE).alias("stage"), pl.lit("quarantined").alias("decision"),
        "reason", pl.struct("source", "locator", "source_id", "message").struct.json_encode().alias("detail"))
    ledger = io.sort_ledger(pl.concat([q_ledger, ledger]))
    io.write_parquet_atomic(ledger, out.path(io.LEDGER))
    rows = io.ledger_counts(ledger, STAGE)
    if rows["in"] != sum(f["records"] for f in file_report):
        raise AssertionError("ingest ledger does not account for every record read")
    manifest = {
        "stage": STAGE, "stage_version": VERSION, "reads": [], "writes": DIALOGUE_SCHEMA.names(),
        "config": dataclasses.asdict(config), "exclude": list(patterns),
        "input": {"path": str(raw_dir), "content_hash": state["input_hash"]},
        "user_salt": {"env": config.user_salt_env, "set": salt is not None},
        "models": [], "files": file_report, "skipped_files": skipped, "other_files": other_files, "rows": rows,
        "stats": {"images_stored": _count_images(out.partial), "output_parts": n_out},
        "timings": {"read_s": t1 - t0, "dedup_s": t2 - t1, "write_s": t3 - t2,
                    "total_s": time.perf_counter() - t0},
        "executor": executor.describe(),
    }
    return out.commit(manifest)


class FileReader:
    """Phase 1 as an executor worker: one task = one log file (index, path)."""

    def __init__(self, raw_dir: Path, work: Path, config: IngestConfig, salt: bytes | None, run_token: str):
        self.raw_dir, self.work, self.config, self.salt, self.run_token = raw_dir, work, config, salt, run_token

    def setup(self, device: str) -> None:  # nothing heavy to load: readers are plain Python
        pass

    def __call__(self, task: tuple[int, Path]) -> dict:
        idx, path = task
        return ingest_file(idx, path, self.raw_dir, self.work, self.config, self.salt, self.run_token)


def _verified(out: io.OutputFolder, key: str, work: Path) -> bool:
    """A file shard counts as read only if every file its marker lists is there with those bytes."""
    if not out.shard_done(key):
        return False
    try:
        outputs = out.shard_info(key).get("outputs")
        return outputs is not None and all(io.sha256_file(work / rel) == sha for rel, sha in outputs.items())
    except (OSError, ValueError):
        return False


def _read_all(files, raw_dir, work, out, config, salt, executor, log, quiet, verbose) -> None:
    todo = [(i, p) for i, p in enumerate(files) if not _verified(out, f"f{i:06d}", work)]
    run_token = f"{out.partial}:{time.time_ns()}"
    progress = Progress("ingest", len(files), "files", quiet=quiet)
    progress.update(len(files) - len(todo))

    def done(task: tuple[int, Path], info: dict) -> None:
        out.mark_shard(f"f{task[0]:06d}", info)
        progress.update(1, note=info["file"])
        if info.get("note"):
            log(f"ingest: note: {info['file']} is {info['note']}")
        if verbose:
            log(f"ingest: {info['file']}: {info['records']} records ({info['format']}), "
                f"{info['quarantined']} quarantined")

    run_tasks(executor, FileReader(raw_dir, work, config, salt, run_token), todo, done, "cpu")
    progress.close(note="")


def _write_parts(work: Path, out: io.OutputFolder, assign: pl.DataFrame) -> int:
    """Kept rows -> part files sorted by id, via per-part buckets (one streaming pass)."""
    n_out = int(cast(int, assign["_shard"].max()) + 1) if assign.height else 0  # an integer column
    buckets = work / "buckets"
    if not out.shard_done("bucketed"):
        if buckets.exists():
            shutil.rmtree(buckets)
        for chunk in sorted((work / "rows").glob("*.parquet")):
            df = pl.read_parquet(chunk).join(assign, on="_row", how="inner")
            for (shard,), rows in df.partition_by("_shard", as_dict=True, maintain_order=True).items():
                target = buckets / f"{shard:05d}"
                target.mkdir(parents=True, exist_ok=True)
                io.write_parquet_atomic(rows, target / chunk.name)
        out.mark_shard("bucketed")
    src, dst = ImageStore(work), ImageStore(out.partial)
    for shard in range(n_out):
        key, part = f"out{shard:05d}", out.path(io.PART_FMT.format(shard))
        if out.shard_done(key) and part.exists() and out.shard_info(key).get("sha256") == io.sha256_file(part):
            continue
        df = pl.read_parquet(sorted((buckets / f"{shard:05d}").glob("*.parquet")))
        io.write_dialogues(df, part)
        carry_images(df, src, dst)
        out.mark_shard(key, {"rows": df.height, "sha256": io.sha256_file(part)})
    return n_out


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _ignore_file(raw_dir: Path) -> tuple[str, ...]:
    path = raw_dir / IGNORE_FILE
    if not path.is_file():
        return ()
    return tuple(line.strip() for line in path.read_text().splitlines()
                 if line.strip() and not line.startswith("#"))


def _select(raw_dir: Path, patterns: tuple[str, ...]) -> tuple[list[Path], list[dict], dict[str, int]]:
    """Log files to read, every file not read with its reason, and counts of other files."""
    found, skipped, other = log_files(raw_dir)
    files = []
    for path in found:
        rel = path.relative_to(raw_dir).as_posix()
        hit = next((p for p in patterns if fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p.rstrip("/") + "/*")), None)
        if hit:
            skipped.append({"file": rel, "reason": f"excluded by {hit!r}"})
        else:
            files.append(path)
    return files, sorted(skipped, key=lambda s: s["file"]), other


def _salt(config: IngestConfig) -> bytes | None:
    value = os.environ.get(config.user_salt_env)
    return value.encode("utf-8") if value else None


def _raw_hash(raw_dir: Path, files: list[Path]) -> str:
    """Hash of what ingest reads: every file under the raw folder (symlinks by target name)."""
    h = hashlib.sha256()
    for path in sorted(p for p in raw_dir.rglob("*") if not any(s.startswith(".") for s in p.relative_to(raw_dir).parts)):
        rel = os.fsencode(path.relative_to(raw_dir).as_posix())  # names need not be valid UTF-8
        if path.is_symlink():
            h.update(rel + b"\0->" + os.fsencode(os.readlink(path)) + b"\n")
        elif path.is_file():
            h.update(rel + b"\0" + io.sha256_file(path).encode() + b"\n")
    h.update(b"\n".join(os.fsencode(p.relative_to(raw_dir).as_posix()) for p in files))
    return h.hexdigest()


def _count_images(folder: Path) -> int:
    return sum(1 for p in (folder / "images").rglob("*") if p.is_file()) if (folder / "images").is_dir() else 0


def _concat(files: list[Path], schema: dict) -> pl.DataFrame:
    return pl.concat([pl.read_parquet(f) for f in files]) if files else pl.DataFrame(schema=schema)
