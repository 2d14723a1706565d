"""Build a variant row: rewritten turns, the image inserted, questions and PII re-indexed.

``gold_images`` index a dialogue's images in order of appearance (turn by turn, image by image).
A variant has the swapped-in images too, so every original image is found again in the variant by
its content inside the same turn (:func:`image_map`): one mapping, used here when a variant is
made and by the release when questions imported against the originals reach the variants.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from builder.errors import ValidationError
from builder.images import ImageInfo
from builder.records import dialogue_id
from builder.swap.rewrite import Rewrite
from builder.swap.spans import Candidate


@dataclass(frozen=True)
class PlannedSwap:
    turn: int  # position in the turns list
    candidate: Candidate
    rewrite: Rewrite
    image_key: str
    image: ImageInfo
    source: str
    score: float | None


def swapped_turns(turns: list[dict], planned: list[PlannedSwap]) -> tuple[list[dict], list[int]]:
    """New turns and, per swap (in turn order), the image index the inserted image gets."""
    turns = copy.deepcopy(turns)
    inserted = []
    for swap in sorted(planned, key=lambda s: s.turn):
        turn = turns[swap.turn]
        images = list(turn.get("images") or [])
        inserted.append(sum(len(t.get("images") or []) for t in turns[:swap.turn]) + len(images))
        turn["text"] = swap.rewrite.text
        turn["images"] = [*images, swap.image.ref()]
    return turns, inserted


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


def repoint(questions: list[dict] | None, mapping: dict[int, int]) -> list[dict]:
    """Questions with ``gold_images`` moved from the original's image positions to the variant's."""
    return [{**q, "gold_images": [mapping[i] for i in q.get("gold_images") or []]} for q in questions or []]


def shift_pii(spans: list[dict] | None, turn_index: int, rewrite: Rewrite) -> list[dict]:
    """PII offsets are into the turn text, so spans after an edit move by its length change."""
    out = []
    for span in spans or []:
        span = dict(span)
        if span["turn"] == turn_index:
            delta = sum(len(e.replacement) - (e.end - e.start) for e in rewrite.edits if e.end <= span["start"])
            span["start"] += delta
            span["end"] += delta
        out.append(span)
    return out


def build_variant(row: dict, planned: list[PlannedSwap]) -> dict:
    turns, _ = swapped_turns(row["turns"], planned)
    questions = repoint(copy.deepcopy(row.get("questions") or []), image_map(row["turns"], turns, "(new variant)"))
    pii = row.get("pii") or []
    swaps = []
    for swap in sorted(planned, key=lambda s: s.turn):
        turn_index = row["turns"][swap.turn]["index"]
        pii = shift_pii(pii, turn_index, swap.rewrite)
        swaps.append({
            "turn": turn_index, "original": swap.rewrite.primary.original,
            "replacement": swap.rewrite.primary.replacement, "image_sha256": swap.image.sha256,
            "image_source": swap.source, "score": swap.score,
        })
    variant = dict(row)
    variant.update(turns=turns, questions=questions, pii=pii, swaps=swaps, variant_of=row["dialogue_id"])
    variant["dialogue_id"] = dialogue_id(turns)
    return variant


def overlaps(rewrite: Rewrite, spans: list[dict] | None, turn_index: int) -> bool:
    """Does any edit touch a PII span (e.g. a redaction placeholder)?"""
    return any(
        s["turn"] == turn_index and e.start < s["end"] and s["start"] < e.end
        for s in spans or [] for e in rewrite.edits
    )
