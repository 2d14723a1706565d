"""Ingest phase 1: one raw log file -> spilled row chunks + quarantine rows (one shard).

Runs in the main process or in worker processes; everything a file produces lands in
files named after its index, so results do not depend on scheduling.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from builder import io
from builder.errors import ConfigError
from builder.images import ImageStore
from builder.ingest import dedup
from builder.ingest.config import IngestConfig
from builder.ingest.normalise import normalise, turn_count, user_text
from builder.ingest.readers import iter_file, resolve_format
from builder.ingest.readers.lines import compression_note
from builder.ingest.records import Quarantined, RecordError
from builder.ingest.resolve import ImageResolver
from builder.records import dialogues_frame

Q_SCHEMA = {"dialogue_id": pl.String, "source": pl.String, "locator": pl.String, "source_id": pl.String,
            "reason": pl.String, "message": pl.String, "excerpt": pl.String}
_RESOLVERS: dict[str, ImageResolver] = {}  # per process and run: repeated images decode once


def _resolver(raw_dir: Path, work: Path, config: IngestConfig, run_token: str) -> ImageResolver:
    key = run_token
    if key not in _RESOLVERS:
        _RESOLVERS.clear()
        _RESOLVERS[key] = ImageResolver(raw_dir, ImageStore(work), config.max_image_pixels, config.max_image_bytes)
    return _RESOLVERS[key]


def ingest_file(idx: int, path: Path, raw_dir: Path, work: Path, config: IngestConfig,
                salt: bytes | None, run_token: str) -> dict:
    """Read one log file; returns its report (records, quarantined, format).

    ``run_token`` identifies one run: the resolver's memory of stored images is only
    valid for the image store of that run.
    """
    rel = path.relative_to(raw_dir).as_posix()
    for stale in (work / "rows").glob(f"f{idx:06d}-*.parquet"):
        stale.unlink()  # a crash mid-file: redo the whole file
    resolver = _resolver(raw_dir, work, config, run_token)
    perms = dedup.permutations(config.minhash_perms)
    name = resolve_format(path, config.format)  # detected once: a .json file is parsed whole
    rows, quarantined, chunk, records = [], [], 0, 0
    for rec_idx, item in enumerate(iter_file(path, name)):
        records += 1
        if isinstance(item, Quarantined):
            quarantined.append(qrow(rel, item.locator, item.source_id, item.reason, item.message, item.excerpt))
            continue
        try:
            if item.user_id is not None and salt is None:
                raise ConfigError(
                    f"{rel} has user ids but ${config.user_salt_env} is not set; export a secret salt "
                    f"(e.g. `export {config.user_salt_env}=$(openssl rand -hex 16)`) so ids can be hashed"
                )
            row, detail = normalise(item, rel, path.parent, resolver, config, salt)
        except RecordError as exc:
            quarantined.append(qrow(rel, item.locator, item.source_id, exc.reason, str(exc), ""))
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
    outputs = sorted((work / "rows").glob(f"f{idx:06d}-*.parquet")) + [work / "quarantine" / f"f{idx:06d}.parquet"]
    note = compression_note(path)
    return {"file": rel, "format": name or "unknown", "records": records, "quarantined": len(quarantined),
            **({"note": note} if note else {}),
            "outputs": {p.relative_to(work).as_posix(): io.sha256_file(p) for p in outputs}}


def _spill(rows: list[dict], path: Path) -> None:
    extras = pl.DataFrame({"_row": [r["_row"] for r in rows], "_n_turns": [r["_n_turns"] for r in rows],
                           "_sig": [r["_sig"] for r in rows], "_detail": [r["_detail"] for r in rows]},
                          schema={"_row": pl.String, "_n_turns": pl.Int32, "_sig": pl.Binary, "_detail": pl.String})
    io.write_parquet_atomic(pl.concat([dialogues_frame(rows), extras], how="horizontal"), path)


def qrow(source, locator, source_id, reason, message, excerpt) -> dict:
    import hashlib

    qid = "q-" + hashlib.sha256(f"{source}\0{locator}".encode()).hexdigest()[:30]
    return {"dialogue_id": qid, "source": source, "locator": locator, "source_id": source_id,
            "reason": reason, "message": message, "excerpt": excerpt}
