"""`openai`: `{"id", "messages": [{"role", "content"}]}` per JSONL line; content may be a part list."""

from __future__ import annotations

from builder.ingest.readers._common import openai_content, opt_id, require_list, require_str
from builder.ingest.records import RawDialogue, RawTurn, RecordError

ROLE_MAP = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}


def matches(obj: dict) -> bool:
    return "messages" in obj


def parse_messages(messages: list, locator: str) -> list[RawTurn]:
    turns = []
    for i, msg in enumerate(messages):
        where = f"{locator} message {i}"
        if not isinstance(msg, dict):
            raise RecordError("invalid_record", f"{where}: a message must be an object")
        role = require_str(msg, "role", where)
        text, images = openai_content(msg.get("content"), where)
        turns.append(RawTurn(role=ROLE_MAP.get(role, role), text=text, images=images))
    return turns


def parse(obj: dict, locator: str) -> list[RawDialogue]:
    user = obj.get("user", obj.get("user_id"))
    return [
        RawDialogue(
            source_id=opt_id(obj.get("id")) or locator,
            locator=locator,
            turns=parse_messages(require_list(obj, "messages", locator), locator),
            user_id=user,
            model=obj.get("model"),
            created_at=obj.get("created_at", obj.get("created")),
            language=obj.get("language"),
        )
    ]
