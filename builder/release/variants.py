"""Questions of modality-swap variants, re-pointed at the variant's own images.

Annotators write questions against the original dialogue: ``gold_images`` count the
original's images in turn order. A variant has extra images (the swapped-in photos), so
the same numbers would name other pictures. Each original image is found again in the
variant by its content (sha256, or url when unresolved) inside the same turn (matched by
the turn's own ``index``), which holds wherever the swap put its image. ``gold_turns``
are turn indices, which a swap never changes; a variant whose turns differ from its
original's is refused rather than guessed at.
"""

from __future__ import annotations

import polars as pl

from builder.records import conform
from builder.swap.variant import image_map, repoint


def repoint_questions(variants: pl.DataFrame, originals: pl.DataFrame) -> pl.DataFrame:
    """``variants`` with each question's ``gold_images`` moved onto the variant's images."""
    if not variants.height:
        return variants
    turns = dict(originals.select("dialogue_id", "turns").iter_rows())
    rows = variants.to_dicts()
    for row in rows:
        row["questions"] = repoint(row["questions"], image_map(turns[row["variant_of"]], row["turns"],
                                                                row["dialogue_id"]))
    return conform(pl.DataFrame(rows, schema=variants.schema))
