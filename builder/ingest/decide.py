"""Ingest phase 2: turn-range filter, exact and near duplicates -> decisions + ledger.

Works on the small columns only (row key, id, turn count, signature, detail JSON), with
polars expressions for the common paths so memory stays ~100 bytes per dialogue.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from builder.ingest import dedup
from builder.ingest.config import IngestConfig
from builder.records import LEDGER_SCHEMA, ledger_frame

STAGE = "ingest"
META = {"_row": pl.String, "dialogue_id": pl.String, "_n_turns": pl.Int32, "_sig": pl.Binary, "_detail": pl.String}


def decide(work: Path, config: IngestConfig) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(kept rows with their output shard: `_row, _shard`, ingest ledger rows for non-quarantined)."""
    files = sorted((work / "rows").glob("*.parquet"))
    meta = (pl.scan_parquet(files).select(list(META)).collect() if files else pl.DataFrame(schema=META)).sort("_row")
    ledgers = []

    in_range = pl.col("_n_turns").is_between(config.min_turns, config.max_turns)
    ledgers.append(_ledger(meta.filter(~in_range), "dropped", "turn_count_out_of_range", pl.concat_str([
        pl.lit(', "turns": '), pl.col("_n_turns").cast(pl.String),
        pl.lit(f', "allowed": [{config.min_turns}, {config.max_turns}]}}')])))
    meta = meta.filter(in_range)

    first = pl.col("_row") == pl.col("_row").first().over("dialogue_id")
    keeper = meta.filter(first).select("dialogue_id", pl.col("_detail").alias("_kept"))
    dups = meta.filter(~first).join(keeper, on="dialogue_id", how="left")
    ledgers.append(_ledger(dups, "dropped", "duplicate_exact", pl.concat_str([
        pl.lit(', "duplicate_of": {'), _json_field("_kept", "source"), pl.lit(", "),
        _json_field("_kept", "source_id"), pl.lit("}}")])))
    meta = meta.filter(first).sort("dialogue_id")

    sigs = (np.frombuffer(b"".join(meta["_sig"].to_list()), dtype=np.uint32).reshape(meta.height, -1)
            if meta.height else np.zeros((0, config.minhash_perms), np.uint32))
    dup_of = dedup.near_duplicates(sigs, config.near_dup_threshold) if config.near_dup_threshold < 1.0 else {}
    ids = meta["dialogue_id"].to_list()
    near_rows = []
    for j, (i, similarity) in sorted(dup_of.items()):
        detail = json.loads(meta["_detail"][j])
        detail.update({"near_duplicate_of": ids[i], "similarity": round(similarity, 4)})
        near_rows.append({"dialogue_id": ids[j], "stage": STAGE, "decision": "dropped",
                          "reason": "duplicate_near", "detail": detail})
    ledgers.append(ledger_frame(near_rows))
    kept = meta.with_row_index("_i").filter(~pl.col("_i").is_in(list(dup_of))).drop("_i")
    ledgers.append(_ledger(kept, "kept", "ingested", None))
    assign = kept.with_row_index("_rank").select(
        "_row", (pl.col("_rank") // config.shard_rows).cast(pl.Int64).alias("_shard"))
    return assign, pl.concat(ledgers)


def _ledger(frame: pl.DataFrame, decision: str, reason: str, extra: pl.Expr | None) -> pl.DataFrame:
    """Ledger rows whose detail is the record's detail JSON, extended by ``extra`` (', "k": v}')."""
    if frame.height == 0:
        return pl.DataFrame(schema=LEDGER_SCHEMA)
    detail = pl.col("_detail") if extra is None else pl.concat_str(
        [pl.col("_detail").str.strip_suffix("}"), extra])
    return frame.select(
        "dialogue_id", pl.lit(STAGE).alias("stage"), pl.lit(decision).alias("decision"),
        pl.lit(reason).alias("reason"), detail.alias("detail"))


def _json_field(column: str, key: str) -> pl.Expr:
    """The `"key": value` text of a top-level string field, copied verbatim from a JSON column."""
    return pl.col(column).str.extract(rf'("{key}": (?:"(?:[^"\\]|\\.)*"|null))', 1)
