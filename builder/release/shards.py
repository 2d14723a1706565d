"""Stream dialogue rows into Parquet shards with their image bytes embedded.

Rows go out in bounded batches (one batch = one row group): only the images of the
batch being written are in memory, however many images the release holds. A shard is
closed when it passes ``max_shard_bytes``; names follow the Hub's
``test-00000-of-00003.parquet`` convention.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import polars as pl

from builder.errors import InputError
from builder.exif import metadata_found
from builder.images import MIME_EXT, ImageStore
from builder.io import named_os_errors
from builder.release.layout import DATA_DIR, SPLIT


@dataclass(frozen=True)
class ShardConfig:
    batch_rows: int = 256  # most rows in one row group
    batch_bytes: int = 32 << 20  # most image bytes in one row group
    max_shard_bytes: int = 400 << 20
    compression: str = "zstd"


def question_features():
    import datasets as ds

    from builder.records import hf_features

    question = hf_features()["questions"].feature
    return ds.Features({"dialogue_id": ds.Value("string"), "topic": ds.Value("string"),
                        "topic_group": ds.Value("string"), **question})


def embed_images(row: dict[str, Any], store: ImageStore) -> int:
    """Add ``image = {bytes, path}`` to every image ref of ``row``; returns the bytes added."""
    added = 0
    for turn in row["turns"] or []:
        for ref in turn["images"] or []:
            if ref["sha256"] is None:  # a remote url nobody fetched: nothing to embed
                ref["image"] = None
                continue
            try:
                data = store.read(ref["sha256"], ref["mime"])
            except FileNotFoundError:
                raise InputError(f"image {ref['sha256']} of dialogue {row['dialogue_id']} is missing from "
                                 f"{store.root}; rerun the stage that wrote the data folder") from None
            if hashlib.sha256(data).hexdigest() != ref["sha256"]:
                raise InputError(f"image {ref['sha256']} of dialogue {row['dialogue_id']} in {store.root} does not "
                                 "match its sha256 (changed on disk); rerun the stage that wrote the data folder")
            found = metadata_found(data, ref["mime"])
            if found:
                raise InputError(f"image {ref['sha256']} of dialogue {row['dialogue_id']} carries metadata "
                                 f"({', '.join(found)}); a release never publishes it: run `clean` (without "
                                 "--no-exif) on this data")
            ref["image"] = {"bytes": data, "path": f"{ref['sha256']}.{MIME_EXT.get(ref['mime'], 'bin')}"}
            added += len(data)
    return added


def batches(frame: pl.DataFrame, store: ImageStore | None, config: ShardConfig) -> Iterator[list[dict]]:
    """Rows of ``frame`` in order, images embedded, cut where a batch's budget is reached."""
    batch: list[dict] = []
    size = 0
    for start in range(0, frame.height, config.batch_rows):
        for row in frame.slice(start, config.batch_rows).iter_rows(named=True):
            size += embed_images(row, store) if store is not None else 0
            batch.append(row)
            if len(batch) >= config.batch_rows or size >= config.batch_bytes:
                yield batch
                batch, size = [], 0
    if batch:
        yield batch


def write_shards(rows: Iterator[list[dict]], features, folder: Path, config_name: str, config: ShardConfig,
                 on_batch: Callable[[list[dict]], None] = lambda batch: None) -> list[Path]:
    """Write ``rows`` under ``folder/data/<config_name>/``; returns the shard paths."""
    out = Path(folder) / DATA_DIR / config_name
    out.mkdir(parents=True, exist_ok=True)
    with named_os_errors(out):  # pyarrow's full-disk OSError names no file
        return _write(rows, features.arrow_schema, out, config, on_batch)


def _write(rows, schema, out: Path, config: ShardConfig, on_batch) -> list[Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    written: list[Path] = []
    writer = None
    for batch in rows:
        on_batch(batch)
        if writer is None:
            written.append(out / f".{SPLIT}-{len(written):05d}.tmp")
            writer = pq.ParquetWriter(written[-1], schema, compression=config.compression)
        writer.write_table(pa.Table.from_pylist(batch, schema=schema), row_group_size=len(batch))
        del batch
        if written[-1].stat().st_size >= config.max_shard_bytes:
            writer.close()
            writer = None
    if writer is not None:
        writer.close()
    if not written:  # an empty config still gets one (empty) shard, so its data_files resolve
        written.append(out / f".{SPLIT}-00000.tmp")
        pq.write_table(schema.empty_table(), written[-1], compression=config.compression)
    final = []
    for i, tmp in enumerate(written):
        path = out / f"{SPLIT}-{i:05d}-of-{len(written):05d}.parquet"
        tmp.rename(path)
        final.append(path)
    return final
