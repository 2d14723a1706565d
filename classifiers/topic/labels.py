"""Topic labels from annotators: read, validate against the 14 topics, attach to dialogues.

A label file is CSV or JSONL with a ``topic`` column and one id column:

* ``dialogue_id`` - the canonical content-hash id, or
* ``source_id``  - the record's id in its raw log (what annotators see before ingest);
  resolved against the data's ``source_id``. If one source_id occurs in several log
  files, add a ``source`` column (the log file's path relative to the raw folder).

Rows with an empty ``topic`` are unlabelled (e.g. a half-filled ``classify sample``
export) and are skipped; ``Other`` marks a dialogue read and found to be none of the 14
(records.OTHER): training learns it as a class of its own (counted as ``other_rows``), so a
model can say "none of the 14" instead of forcing a topic. Topic names
match case-insensitively, with ``_``/``-`` read as spaces (``job_career`` is ``Job Career``);
anything else is an error that lists the 14 valid topics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from builder.errors import InputError, ValidationError
from builder.records import OTHER, TOPICS

_BY_KEY = {t.lower(): t for t in TOPICS}


def normalise_topic(raw: str | None) -> str | None:
    """One of TOPICS or OTHER, or None (empty or unknown)."""
    if raw is None or not str(raw).strip():
        return None
    key = " ".join(str(raw).replace("_", " ").replace("-", " ").split()).lower()
    return OTHER if key == OTHER.lower() else _BY_KEY.get(key)


@dataclass
class Labels:
    dialogue_ids: list[str]
    topics: list[str]
    report: dict = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return {t: self.topics.count(t) for t in (*TOPICS, OTHER) if t in self.topics}


def read_label_file(path: Path) -> pl.DataFrame:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"label file {path} does not exist; pass a CSV or JSONL with columns dialogue_id,topic")
    try:
        if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
            df = pl.read_ndjson(path, infer_schema_length=None)
        else:
            df = pl.read_csv(path, infer_schema=False)
    except pl.exceptions.PolarsError as exc:
        raise InputError(f"cannot read label file {path}: {exc}; write CSV (dialogue_id,topic) or JSONL") from exc
    id_cols = [c for c in ("dialogue_id", "source_id") if c in df.columns]
    if "topic" not in df.columns or not id_cols:
        raise ValidationError(
            f"label file {path} has columns {df.columns}; it needs `topic` and `dialogue_id` (or `source_id`)"
        )
    keep = [c for c in ("dialogue_id", "source_id", "source", "topic") if c in df.columns]
    return df.select([pl.col(c).cast(pl.String) for c in keep])


def validate_topics(df: pl.DataFrame, where: str) -> pl.DataFrame:
    """Map topic spellings onto TOPICS and OTHER; error on any unknown one, listing the valid 14."""
    raw = df["topic"].to_list()
    norm = [normalise_topic(t) for t in raw]
    bad = sorted({str(r) for r, n in zip(raw, norm) if n is None and r is not None and str(r).strip()})
    if bad:
        raise ValidationError(
            f"{where}: unknown topic(s) {', '.join(repr(b) for b in bad)}; valid topics are: {', '.join(TOPICS)}"
            " (or Other)"
        )
    return df.with_columns(pl.Series("topic", norm, dtype=pl.String)).filter(pl.col("topic").is_not_null())


def resolve_labels(labels: pl.DataFrame, data: pl.DataFrame, where: str) -> Labels:
    """Attach labels to the data's dialogue ids; missing ids are reported, conflicts are errors."""
    total = labels.height
    labels = validate_topics(labels, where)
    other = labels.filter(pl.col("topic") == OTHER).height
    report: dict[str, Any] = {"rows": total, "unlabelled_rows": total - labels.height, "other_rows": other}
    if "dialogue_id" in labels.columns and labels["dialogue_id"].drop_nulls().len():
        key = ["dialogue_id"]
        index = data.select("dialogue_id")
    else:
        key = ["source", "source_id"] if "source" in labels.columns else ["source_id"]
        index = data.select("dialogue_id", *key)
        dupes = (index.join(labels.select(key).unique(), on=key, how="semi")
                 .group_by(key).len().filter(pl.col("len") > 1).sort(key))
        if dupes.height:
            example = dupes.row(0, named=True)
            raise ValidationError(
                f"{where}: source_id {example['source_id']!r} occurs in {example['len']} dialogues; "
                "add a `source` column (the log file path) or label by dialogue_id"
            )
    if key == ["dialogue_id"]:
        joined = labels.join(index.with_columns(pl.col("dialogue_id").alias("_id")), on=key, how="left")
    else:
        labels = labels.drop("dialogue_id", strict=False)
        joined = labels.join(index.rename({"dialogue_id": "_id"}), on=key, how="left")
    missing = joined.filter(pl.col("_id").is_null())
    found = (joined.filter(pl.col("_id").is_not_null()).select(pl.col("_id").alias("dialogue_id"), "topic")
             .unique().sort("dialogue_id", "topic"))
    conflicts = found.group_by("dialogue_id").len().filter(pl.col("len") > 1)
    if conflicts.height:
        raise ValidationError(
            f"{where}: dialogue {conflicts['dialogue_id'][0]} has conflicting topics "
            f"{sorted(found.filter(pl.col('dialogue_id') == conflicts['dialogue_id'][0])['topic'].to_list())}; "
            "keep one label per dialogue"
        )
    id_col = key[-1]
    report.update({"matched": found.height, "missing": missing.height,
                   "missing_examples": missing[id_col].head(5).to_list()})
    if found.height == 0:
        raise ValidationError(
            f"{where}: none of the {labels.height} labels match a dialogue in the data (by {id_col}); "
            "check that --labels and --data belong together"
        )
    return Labels(found["dialogue_id"].to_list(), found["topic"].to_list(), report)


def listed_ids(labels: pl.DataFrame, data: pl.DataFrame) -> set[str]:
    """Dialogue ids a label file mentions, labelled or not (e.g. already sent to annotators)."""
    if "dialogue_id" in labels.columns and labels["dialogue_id"].drop_nulls().len():
        return set(labels["dialogue_id"].drop_nulls().to_list())
    key = ["source", "source_id"] if "source" in labels.columns else ["source_id"]
    return set(data.join(labels.select(key).unique(), on=key, how="semi")["dialogue_id"].to_list())


def inline_labels(data: pl.DataFrame) -> Labels:
    """Labels carried by the records themselves (their ``topic`` field)."""
    df = data.select("dialogue_id", "topic").filter(pl.col("topic").is_not_null())
    if df.height == 0:
        raise ValidationError(
            "no --labels given and no dialogue in --data has a topic; pass --labels FILE (dialogue_id,topic)"
        )
    df = validate_topics(df, "inline topics in --data").sort("dialogue_id")
    return Labels(df["dialogue_id"].to_list(), df["topic"].to_list(), {"rows": df.height, "matched": df.height})
