"""Build a variant row: rewritten turns, the image inserted, questions and PII re-indexed.

``gold_images`` index a dialogue's images in order of appearance (turn by turn, image
by image). The swapped-in image goes after the images already in its turn, so every
index at or after that position moves up by one.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

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


def shift_indices(indices: list[int] | None, inserted_at: int) -> list[int]:
    return [i + 1 if i >= inserted_at else i for i in indices or []]


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
    turns, inserted = swapped_turns(row["turns"], planned)
    questions = copy.deepcopy(row.get("questions") or [])
    pii = row.get("pii") or []
    swaps = []
    for swap, position in zip(sorted(planned, key=lambda s: s.turn), inserted):
        for q in questions:
            q["gold_images"] = shift_indices(q.get("gold_images"), position)
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
