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

from builder.errors import ValidationError
from builder.records import conform


def _key(image: dict) -> str:
    return image.get("sha256") or f"url:{image.get('url')}"


def image_map(original: list[dict], variant: list[dict], variant_id: str) -> dict[int, int]:
    """Original image position (turn order) -> the same image's position in the variant."""
    by_index, offset = {}, 0
    for turn in variant:
        images = turn.get("images") or []
        by_index[turn["index"]] = (offset, [_key(im) for im in images])
        offset += len(images)
    if [t["index"] for t in original] != [t["index"] for t in variant]:
        raise ValidationError(f"modality-swap variant {variant_id} does not have its original's turns "
                              f"({[t['index'] for t in original]} vs {[t['index'] for t in variant]}); "
                              "rerun `mmrc-build swap` on the released data")
    mapping, position = {}, 0
    for turn in original:
        start, keys = by_index[turn["index"]]
        used: set[int] = set()
        for image in turn.get("images") or []:
            found = next((k for k, key in enumerate(keys) if key == _key(image) and k not in used), None)
            if found is None:
                raise ValidationError(f"modality-swap variant {variant_id} lost image {_key(image)} of turn "
                                      f"{turn['index']} of its original; rerun `mmrc-build swap`")
            used.add(found)
            mapping[position] = start + found
            position += 1
    return mapping


def repoint_questions(variants: pl.DataFrame, originals: pl.DataFrame) -> pl.DataFrame:
    """``variants`` with each question's ``gold_images`` moved onto the variant's images."""
    if not variants.height:
        return variants
    turns = dict(originals.select("dialogue_id", "turns").iter_rows())
    rows = variants.to_dicts()
    for row in rows:
        mapping = image_map(turns[row["variant_of"]], row["turns"], row["dialogue_id"])
        row["questions"] = [{**q, "gold_images": [mapping[i] for i in q["gold_images"] or []]}
                            for q in row["questions"] or []]
    return conform(pl.DataFrame(rows, schema=variants.schema))
