"""`native`: one canonical dialogue per JSONL line (see raw/README.md)."""

from __future__ import annotations

from builder.ingest.readers._common import image_specs, opt_id, require_list, require_str
from builder.ingest.records import RawDialogue, RawTurn, RecordError


def matches(obj: dict) -> bool:
    return "turns" in obj


def parse(obj: dict, locator: str) -> list[RawDialogue]:
    turns = []
    for i, turn in enumerate(require_list(obj, "turns", locator)):
        where = f"{locator} turn {i}"
        if not isinstance(turn, dict):
            raise RecordError("invalid_record", f"{where}: a turn must be an object")
        turns.append(
            RawTurn(
                role=require_str(turn, "role", where),
                text=require_str(turn, "text", where, optional=True) or "",
                images=image_specs(turn.get("images"), where),
            )
        )
    topic = obj.get("topic")
    return [
        RawDialogue(
            source_id=opt_id(obj.get("source_id", obj.get("id"))) or locator,
            locator=locator,
            turns=turns,
            user_id=obj.get("user_id"),
            model=obj.get("model"),
            created_at=obj.get("created_at"),
            language=obj.get("language"),
            topic=topic if isinstance(topic, str) else None,
        )
    ]
