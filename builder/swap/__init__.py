"""Modality-swap variants (MMRC §3): a named thing in a user turn becomes an image.

"I visited the Colosseum last week." -> "I visited this place last week." + a photo of
the Colosseum. Originals are kept; each variant is a new dialogue (its id is the hash of
its own turns) with ``variant_of`` = the original's id and ``swaps`` saying what changed.

Modules: ``spans`` (candidate noun phrases, picturability), ``rewrite`` (deictic
rewrite), ``sources`` (image bank retrieval / text-to-image), ``variant`` (row building,
image-index shifting), ``planner`` (global deterministic selection), ``stage``.

Splits: a dialogue and its variants must land in the same split, or a model could be
tuned on one form and tested on the other. Assign splits by :func:`split_key`, never by
``dialogue_id`` alone.
"""

from __future__ import annotations

from typing import Any


def split_key(row: dict[str, Any]) -> str:
    """The id a split assigner must hash: the original's id for a variant, else its own."""
    return row.get("variant_of") or row["dialogue_id"]


def split_key_expr():
    """:func:`split_key` as a polars expression (column ``split_key``)."""
    import polars as pl

    return pl.coalesce(pl.col("variant_of"), pl.col("dialogue_id")).alias("split_key")
