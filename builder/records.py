"""Canonical records: the one source of truth for the dialogue schema.

The polars schema (what every stage reads and writes) and the ``datasets.Features``
(what the release publishes) are both derived from the definitions here, so a field
added in one place is added everywhere.
"""

from __future__ import annotations

import functools
import hashlib
import json
import unicodedata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl
    from polars._typing import PolarsDataType

ROLES = ("user", "assistant", "system")

TOPIC_GROUPS: dict[str, tuple[str, ...]] = {
    "daily_life": ("Travel", "Music", "Film", "Sport", "Game", "House", "Food", "Shopping"),
    "professional_knowledge": (
        "History", "Economy", "Biology", "Computer", "Society", "Job Career",
    ),
}
TOPICS: tuple[str, ...] = tuple(t for group in TOPIC_GROUPS.values() for t in group)
TOPIC_TO_GROUP = {t: g for g, ts in TOPIC_GROUPS.items() for t in ts}
# A dialogue read and found to be none of the 14 (code, maths, riddles, role-play, greetings): a class
# the topic model learns, never a released topic (predicted Other -> topic null, ledger off_taxonomy).
OTHER = "Other"

ABILITIES = {
    "IE": "information extraction",
    "CR": "cross-turn reasoning",
    "IU": "information update",
    "IM": "image management",
    "MR": "memory recall",
    "AR": "answer refusal",
}
QUESTION_FORMATS = ("open", "mcq", "tf")

LEDGER_DECISIONS = ("kept", "modified", "dropped", "quarantined")

# ---------------------------------------------------------------------------
# polars schema
# ---------------------------------------------------------------------------

# Built on first use (``from builder.records import DIALOGUE_SCHEMA`` works as ever): what only reads
# releases (the eval) imports this module without polars.
POLARS_TYPES = ('IMAGE_REF', 'TURN', 'PII_SPAN', 'TOXICITY', 'TRAITS', 'QUESTION', 'SWAP', 'DIALOGUE_SCHEMA', 'LEDGER_SCHEMA')


@functools.cache
def _polars_types() -> dict[str, Any]:
    import polars as pl

    IMAGE_REF = pl.Struct(
        {
            "sha256": pl.String,  # null when the image could not be resolved (remote url)
            "mime": pl.String,
            "width": pl.Int32,
            "height": pl.Int32,
            # Not in the original DESIGN table: http(s) images are recorded, never fetched,
            # so an unresolved reference keeps its url here and has a null sha256.
            "url": pl.String,
        }
    )

    TURN = pl.Struct(
        {
            "index": pl.Int32,
            "role": pl.String,
            "text": pl.String,
            "images": pl.List(IMAGE_REF),
        }
    )

    PII_SPAN = pl.Struct(
        {
            "turn": pl.Int32,
            "start": pl.Int32,
            "end": pl.Int32,
            "entity": pl.String,
            "score": pl.Float32,
            "action": pl.String,
        }
    )

    # Detoxify label sets differ per model, so per-label maxima are a list, not fixed fields.
    TOXICITY = pl.Struct(
        {
            "model": pl.String,
            "labels": pl.List(pl.Struct({"label": pl.String, "score": pl.Float32, "turn": pl.Int32})),
        }
    )

    # What a dialogue is (builder/traits): a trait's name and the turns where it holds (none: the whole
    # dialogue). Tagged by clean; released too (researchers filter on "code", "fiction", ...).
    TRAITS = pl.List(pl.Struct({"name": pl.String, "turns": pl.List(pl.Int32)}))

    QUESTION = pl.Struct(
        {
            "question_id": pl.String,
            "ability": pl.String,
            "format": pl.String,
            "question": pl.String,
            "choices": pl.List(pl.String),
            "answer": pl.String,
            "gold_items": pl.List(pl.String),
            "gold_images": pl.List(pl.Int32),
            "gold_turns": pl.List(pl.Int32),
            "should_refuse": pl.Boolean,
            "annotators": pl.List(pl.String),
            "review": pl.String,
        }
    )

    SWAP = pl.Struct(
        {
            "turn": pl.Int32,
            "original": pl.String,
            "replacement": pl.String,
            "image_sha256": pl.String,
            "image_source": pl.String,
            "score": pl.Float32,
        }
    )

    dialogue_columns: dict[str, PolarsDataType] = (
        {
            "dialogue_id": pl.String,
            "source": pl.String,
            "source_id": pl.String,
            "user_id": pl.String,
            "model": pl.String,
            "created_at": pl.Datetime("us", "UTC"),
            "language": pl.String,
            "turns": pl.List(TURN),
            "pii": pl.List(PII_SPAN),
            "toxicity": TOXICITY,
            "traits": TRAITS,
            "topic": pl.String,
            "topic_group": pl.String,
            "topic_scores": pl.List(pl.Float32),
            "questions": pl.List(QUESTION),
            "variant_of": pl.String,
            "swaps": pl.List(SWAP),
        }
    )
    DIALOGUE_SCHEMA = pl.Schema(dialogue_columns)

    LEDGER_SCHEMA = pl.Schema(
        {
            "dialogue_id": pl.String,
            "stage": pl.String,
            "decision": pl.String,
            "reason": pl.String,
            "detail": pl.String,  # JSON object
        }
    )

    return {name: value for name, value in locals().items() if name in POLARS_TYPES}


def __getattr__(name: str):
    if name in POLARS_TYPES:
        return _polars_types()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def empty_dialogues() -> pl.DataFrame:
    import polars as pl

    return pl.DataFrame(schema=_polars_types()["DIALOGUE_SCHEMA"])


def dialogues_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """Build a canonical frame from python dicts; missing fields become null.

    Goes through Arrow: for nested rows it is ~1.7x faster than polars' own dict path.
    """
    if not rows:
        return empty_dialogues()
    import polars as pl
    import pyarrow as pa

    names = _polars_types()["DIALOGUE_SCHEMA"].names()
    table = pa.Table.from_pylist([{n: row.get(n) for n in names} for row in rows], schema=_arrow_schema())
    df = pl.from_arrow(table)
    assert isinstance(df, pl.DataFrame)  # a Table comes back as a DataFrame
    return df


@functools.cache
def _arrow_schema():
    return empty_dialogues().to_arrow().schema


def conform(df: pl.DataFrame) -> pl.DataFrame:
    """Cast/complete a frame to the canonical column order and types."""
    import polars as pl

    schema = _polars_types()["DIALOGUE_SCHEMA"]
    missing = [pl.lit(None, dtype=dt).alias(n) for n, dt in schema.items() if n not in df.columns]
    if missing:
        df = df.with_columns(missing)
    return df.select([pl.col(n).cast(dt) for n, dt in schema.items()])


def ledger_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    for row in rows:
        if row["decision"] not in LEDGER_DECISIONS:
            raise AssertionError(f"ledger decision {row['decision']!r} is not one of {LEDGER_DECISIONS}")
        if not isinstance(row.get("detail"), str):
            row["detail"] = json.dumps(row.get("detail") or {}, sort_keys=True, ensure_ascii=False)
    import polars as pl

    schema = _polars_types()["LEDGER_SCHEMA"]
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


# ---------------------------------------------------------------------------
# identity
# ---------------------------------------------------------------------------


def normalise_text(text: str) -> str:
    """NFC, unified newlines, trimmed: what the dialogue id is computed over."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).strip()


def dialogue_id(turns: list[dict[str, Any]]) -> str:
    """sha256 over the normalised turns (role + text + image hashes), first 32 hex chars."""
    canon = [
        [
            t["role"],
            normalise_text(t["text"]),
            [img["sha256"] or f"url:{img.get('url')}" for img in t.get("images") or []],
        ]
        for t in turns
    ]
    payload = json.dumps(canon, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]


# ---------------------------------------------------------------------------
# Hugging Face features (release)
# ---------------------------------------------------------------------------


def hf_features(embed_images: bool = True):
    """``datasets.Features`` of the released default config.

    Images are embedded as ``datasets.Image`` inside the nested turns; lists of structs
    use ``datasets.List`` (not ``Sequence(dict)``, which turns into a dict of lists).
    """
    import datasets as ds

    image = (
        {"image": ds.Image(), "sha256": ds.Value("string"), "mime": ds.Value("string"),
         "width": ds.Value("int32"), "height": ds.Value("int32"), "url": ds.Value("string")}
        if embed_images
        else {"sha256": ds.Value("string"), "mime": ds.Value("string"), "width": ds.Value("int32"),
              "height": ds.Value("int32"), "url": ds.Value("string")}
    )
    turn = {"index": ds.Value("int32"), "role": ds.Value("string"), "text": ds.Value("string"),
            "images": ds.List(image)}
    question = {
        "question_id": ds.Value("string"), "ability": ds.Value("string"), "format": ds.Value("string"),
        "question": ds.Value("string"), "choices": ds.List(ds.Value("string")),
        "answer": ds.Value("string"), "gold_items": ds.List(ds.Value("string")),
        "gold_images": ds.List(ds.Value("int32")), "gold_turns": ds.List(ds.Value("int32")),
        "should_refuse": ds.Value("bool"), "annotators": ds.List(ds.Value("string")),
        "review": ds.Value("string"),
    }
    return ds.Features(
        {
            "dialogue_id": ds.Value("string"),
            "source": ds.Value("string"),
            "source_id": ds.Value("string"),
            "user_id": ds.Value("string"),
            "model": ds.Value("string"),
            "created_at": ds.Value("timestamp[us, tz=UTC]"),
            "language": ds.Value("string"),
            "turns": ds.List(turn),
            "pii": ds.List({"turn": ds.Value("int32"), "start": ds.Value("int32"), "end": ds.Value("int32"),
                            "entity": ds.Value("string"), "score": ds.Value("float32"),
                            "action": ds.Value("string")}),
            "toxicity": {"model": ds.Value("string"),
                         "labels": ds.List({"label": ds.Value("string"), "score": ds.Value("float32"),
                                            "turn": ds.Value("int32")})},
            "traits": ds.List({"name": ds.Value("string"), "turns": ds.List(ds.Value("int32"))}),
            "topic": ds.Value("string"),
            "topic_group": ds.Value("string"),
            "topic_scores": ds.List(ds.Value("float32")),
            "questions": ds.List(question),
            "variant_of": ds.Value("string"),
            "swaps": ds.List({"turn": ds.Value("int32"), "original": ds.Value("string"),
                              "replacement": ds.Value("string"), "image_sha256": ds.Value("string"),
                              "image_source": ds.Value("string"), "score": ds.Value("float32")}),
        }
    )
