"""The ingest stage: raw log folder -> canonical Parquet parts + ledger + quarantine.

Phase 1 (one shard per log file, resumable): read, validate, resolve images, hash ids.
Phase 2 (global, cheap): turn-range filter, exact and near-duplicate decisions over
         the id/turn-count/signature columns only.
Phase 3 (one shard per output part, resumable): stream the kept rows into parts
         sorted by dialogue_id, and carry their images into the output store.
Memory is bounded by one chunk of one file plus the (n x perms) signature matrix.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import hmac
import json
import os
import time
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from builder import io
from builder.errors import ConfigError, InputError
from builder.images import ImageStore, carry_images
from builder.ingest import dedup
from builder.ingest.config import IngestConfig
from builder.ingest.normalise import normalise, turn_count, user_text
from builder.ingest.readers import detect_file, iter_file, log_files, reader
from builder.ingest.records import Quarantined, RecordError
from builder.ingest.resolve import ImageResolver
from builder.records import dialogues_frame, ledger_frame

STAGE, VERSION = "ingest", "1"
IGNORE_FILE = ".mmrcignore"
QUARANTINE = "quarantine.parquet"
Q_SCHEMA = {"dialogue_id": pl.String, "source": pl.String, "locator": pl.String, "source_id": pl.String,
            "reason": pl.String, "message": pl.String, "excerpt": pl.String}


def run_ingest(raw_dir: Path, out_dir: Path, config: IngestConfig = IngestConfig(), *,
               exclude: tuple[str, ...] = (), force: bool = False,
               log: Callable[[str], None] = lambda m: None) -> dict:
    raw_dir, out_dir = Path(raw_dir), Path(out_dir)
    if not raw_dir.is_dir():
        raise InputError(f"raw folder {raw_dir} does not exist; pass the folder that holds the chat logs")
    if config.format != "auto":
        reader(config.format)  # unknown names fail before any work
    patterns = tuple(exclude) + _ignore_file(raw_dir)
    files, skipped = _select(raw_dir, patterns)
    salt = _salt(config)
    state = {"stage": STAGE, "stage_version": VERSION, "config": dataclasses.asdict(config),
             "exclude": list(patterns), "input_hash": _raw_hash(raw_dir, files),
             "salt": hmac.new(salt, b"mmrc-salt-fingerprint", "sha256").hexdigest() if salt else None}
    out = io.OutputFolder(out_dir, state, force=force)
    if not force and out.up_to_date():
        log(f"ingest: {out_dir} is up to date")
        return json.loads((out_dir / io.MANIFEST).read_text())
    out.open()
    t0 = time.perf_counter()
    work = out.path("_work")
    for sub in ("rows", "quarantine"):
        (work / sub).mkdir(parents=True, exist_ok=True)
    resolver = ImageResolver(raw_dir, ImageStore(work), config.max_image_pixels, config.max_image_bytes)
    perms = dedup.permutations(config.minhash_perms)
    file_report = []
    for idx, path in enumerate(files):
        key = f"f{idx:06d}"
        if not out.shard_done(key):
            info = _ingest_file(idx, path, raw_dir, work, resolver, perms, config, salt)
            out.mark_shard(key, info)
            log(f"ingest: {info['file']}: {info['records']} records ({info['format']}), "
                f"{info['quarantined']} quarantined")
        file_report.append(out.shard_info(key))
    t1 = time.perf_counter()
    decisions, ledger_rows = _decide(work, config)
    t2 = time.perf_counter()
    kept = decisions.filter(pl.col("_shard").is_not_null())
    n_out = int(kept["_shard"].max() + 1) if kept.height else 0
    rows_glob = str(work / "rows" / "*.parquet")
    for shard in range(n_out):
        key = f"out{shard:05d}"
        if out.shard_done(key):
            continue
        keys = kept.filter(pl.col("_shard") == shard).select("_row")
        df = pl.scan_parquet(rows_glob).join(keys.lazy(), on="_row", how="semi").collect()
        io.write_dialogues(df, out.path(io.PART_FMT.format(shard)))
        carry_images(df, ImageStore(work), ImageStore(out.partial))
        out.mark_shard(key, {"rows": df.height})
    t3 = time.perf_counter()
    quarantine = _concat(sorted((work / "quarantine").glob("*.parquet")), Q_SCHEMA)
    io.write_parquet_atomic(quarantine.sort(["source", "locator"]), out.path(QUARANTINE))
    q_ledger = quarantine.select(
        "dialogue_id", pl.lit(STAGE).alias("stage"), pl.lit("quarantined").alias("decision"),
        "reason", pl.struct("source", "locator", "source_id", "message").struct.json_encode().alias("detail"))
    ledger = io.sort_ledger(pl.concat([q_ledger, ledger_frame(ledger_rows)]))
    io.write_parquet_atomic(ledger, out.path(io.LEDGER))
    rows = io.ledger_counts(ledger, STAGE)
    if rows["in"] != sum(f["records"] for f in file_report):
        raise AssertionError("ingest ledger does not account for every record read")
    manifest = {
        "stage": STAGE, "stage_version": VERSION, "reads": [], "writes": list(dialogues_frame([]).columns),
        "config": dataclasses.asdict(config), "exclude": list(patterns),
        "input": {"path": str(raw_dir), "content_hash": state["input_hash"]},
        "user_salt": {"env": config.user_salt_env, "set": salt is not None},
        "models": [], "files": file_report, "skipped_files": skipped, "rows": rows,
        "stats": {"images_stored": _count_images(out.partial), "output_parts": n_out},
        "timings": {"read_s": t1 - t0, "dedup_s": t2 - t1, "write_s": t3 - t2, "total_s": time.perf_counter() - t0},
    }
    return out.commit(manifest)


# ---------------------------------------------------------------------------
# phase 1
# ---------------------------------------------------------------------------


def _ingest_file(idx, path, raw_dir, work, resolver, perms, config, salt) -> dict:
    rel = path.relative_to(raw_dir).as_posix()
    for stale in (work / "rows").glob(f"f{idx:06d}-*.parquet"):
        stale.unlink()  # a crash mid-file: redo the whole file
    fmt = config.format if config.format != "auto" else (detect_file(path) or "unknown")
    rows, quarantined, chunk, records = [], [], 0, 0
    for rec_idx, item in enumerate(iter_file(path, config.format)):
        records += 1
        if isinstance(item, Quarantined):
            quarantined.append(_qrow(rel, item.locator, item.source_id, item.reason, item.message, item.excerpt))
            continue
        try:
            if item.user_id is not None and salt is None:
                raise ConfigError(
                    f"{rel} has user ids but ${config.user_salt_env} is not set; export a secret salt "
                    f"(e.g. `export {config.user_salt_env}=$(openssl rand -hex 16)`) so ids can be hashed"
                )
            row, detail = normalise(item, rel, path.parent, resolver, config, salt)
        except RecordError as exc:
            quarantined.append(_qrow(rel, item.locator, item.source_id, exc.reason, str(exc), ""))
            continue
        row["_row"] = f"{idx:06d}:{rec_idx:09d}"
        row["_n_turns"] = turn_count(row)
        row["_sig"] = dedup.signature(user_text(row), config.shingle_words, *perms).tobytes()
        row["_detail"] = json.dumps(detail, sort_keys=True, ensure_ascii=False)
        rows.append(row)
        if len(rows) >= config.chunk_rows:
            _spill(rows, work / "rows" / f"f{idx:06d}-{chunk:05d}.parquet")
            rows, chunk = [], chunk + 1
    if rows:
        _spill(rows, work / "rows" / f"f{idx:06d}-{chunk:05d}.parquet")
    io.write_parquet_atomic(pl.DataFrame(quarantined, schema=Q_SCHEMA, orient="row"),
                            work / "quarantine" / f"f{idx:06d}.parquet")
    return {"file": rel, "format": fmt, "records": records, "quarantined": len(quarantined)}


def _spill(rows: list[dict], path: Path) -> None:
    extras = pl.DataFrame({"_row": [r["_row"] for r in rows], "_n_turns": [r["_n_turns"] for r in rows],
                           "_sig": [r["_sig"] for r in rows], "_detail": [r["_detail"] for r in rows]},
                          schema={"_row": pl.String, "_n_turns": pl.Int32, "_sig": pl.Binary, "_detail": pl.String})
    io.write_parquet_atomic(pl.concat([dialogues_frame(rows), extras], how="horizontal"), path)


def _qrow(source, locator, source_id, reason, message, excerpt) -> dict:
    qid = "q-" + hashlib.sha256(f"{source}\0{locator}".encode()).hexdigest()[:30]
    return {"dialogue_id": qid, "source": source, "locator": locator, "source_id": source_id,
            "reason": reason, "message": message, "excerpt": excerpt}


# ---------------------------------------------------------------------------
# phase 2
# ---------------------------------------------------------------------------


def _decide(work: Path, config: IngestConfig) -> tuple[pl.DataFrame, list[dict]]:
    files = sorted((work / "rows").glob("*.parquet"))
    cols = ["_row", "dialogue_id", "_n_turns", "_sig", "_detail"]
    meta = (pl.scan_parquet(files).select(cols).collect() if files else
            pl.DataFrame(schema={"_row": pl.String, "dialogue_id": pl.String, "_n_turns": pl.Int32,
                                 "_sig": pl.Binary, "_detail": pl.String})).sort("_row")
    ledger: list[dict] = []

    def drop(frame: pl.DataFrame, reason: str, extra) -> None:
        for rec in frame.iter_rows(named=True):
            detail = {**json.loads(rec["_detail"]), **extra(rec)}
            ledger.append({"dialogue_id": rec["dialogue_id"], "stage": STAGE, "decision": "dropped",
                           "reason": reason, "detail": detail})

    in_range = pl.col("_n_turns").is_between(config.min_turns, config.max_turns)
    drop(meta.filter(~in_range), "turn_count_out_of_range",
         lambda r: {"turns": r["_n_turns"], "allowed": [config.min_turns, config.max_turns]})
    meta = meta.filter(in_range)
    first = pl.col("_row") == pl.col("_row").first().over("dialogue_id")
    keeper = meta.filter(first).select("dialogue_id", pl.col("_detail").alias("_kept_detail"))
    dups = meta.filter(~first).join(keeper, on="dialogue_id", how="left")
    drop(dups, "duplicate_exact", lambda r: {"duplicate_of": _where(r["_kept_detail"])})
    meta = meta.filter(first).sort("dialogue_id")
    sigs = np.frombuffer(b"".join(meta["_sig"].to_list()), dtype=np.uint32).reshape(meta.height, -1) \
        if meta.height else np.zeros((0, config.minhash_perms), np.uint32)
    dup_of = dedup.near_duplicates(sigs, config.near_dup_threshold) if config.near_dup_threshold < 1.0 else {}
    ids = meta["dialogue_id"].to_list()
    near = meta.with_row_index("_i").filter(pl.col("_i").is_in(list(dup_of)))
    drop(near, "duplicate_near", lambda r: {
        "near_duplicate_of": ids[dup_of[r["_i"]]],
        "similarity": round(float(np.mean(sigs[r["_i"]] == sigs[dup_of[r["_i"]]])), 4)})
    kept = meta.with_row_index("_i").filter(~pl.col("_i").is_in(list(dup_of))).drop("_i")
    for rec in kept.iter_rows(named=True):
        ledger.append({"dialogue_id": rec["dialogue_id"], "stage": STAGE, "decision": "kept",
                       "reason": "ingested", "detail": json.loads(rec["_detail"])})
    kept = kept.with_row_index("_rank").with_columns(
        (pl.col("_rank") // config.shard_rows).cast(pl.Int64).alias("_shard"))
    return kept.select("_row", "_shard"), ledger


def _where(detail_json: str) -> dict:
    d = json.loads(detail_json)
    return {"source": d.get("source"), "source_id": d.get("source_id")}


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _ignore_file(raw_dir: Path) -> tuple[str, ...]:
    path = raw_dir / IGNORE_FILE
    if not path.is_file():
        return ()
    return tuple(line.strip() for line in path.read_text().splitlines()
                 if line.strip() and not line.startswith("#"))


def _select(raw_dir: Path, patterns: tuple[str, ...]) -> tuple[list[Path], list[dict]]:
    files, skipped = [], []
    for path in log_files(raw_dir):
        rel = path.relative_to(raw_dir).as_posix()
        hit = next((p for p in patterns if fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p.rstrip("/") + "/*")), None)
        if hit:
            skipped.append({"file": rel, "reason": f"excluded by {hit!r}"})
        else:
            files.append(path)
    return files, skipped


def _salt(config: IngestConfig) -> bytes | None:
    value = os.environ.get(config.user_salt_env)
    return value.encode("utf-8") if value else None


def _raw_hash(raw_dir: Path, files: list[Path]) -> str:
    """Hash of what ingest reads: the selected logs plus every image-like file beside them."""
    h = hashlib.sha256()
    for path in sorted(p for p in raw_dir.rglob("*") if not any(s.startswith(".") for s in p.relative_to(raw_dir).parts)):
        rel = path.relative_to(raw_dir).as_posix()
        if path.is_symlink():
            h.update(f"{rel}\0->{os.readlink(path)}\n".encode())
        elif path.is_file():
            h.update(f"{rel}\0{io.sha256_file(path)}\n".encode())
    h.update(("\n".join(p.relative_to(raw_dir).as_posix() for p in files)).encode())
    return h.hexdigest()


def _count_images(folder: Path) -> int:
    return sum(1 for p in (folder / "images").rglob("*") if p.is_file()) if (folder / "images").is_dir() else 0


def _concat(files: list[Path], schema: dict) -> pl.DataFrame:
    return pl.concat([pl.read_parquet(f) for f in files]) if files else pl.DataFrame(schema=schema)
