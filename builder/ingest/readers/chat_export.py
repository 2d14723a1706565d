"""`chat_export`: a folder of per-dialogue JSON files, Chatbot Arena / WildChat style.

`{"id", "messages": [{"role", "content"}], "metadata": {"model", "timestamp", "user_id", "language"}}`
(WildChat's own names `conversation_hash`, `conversation`, `hashed_ip` are accepted too).
"""

from __future__ import annotations

from builder.ingest.readers._common import opt_id
from builder.ingest.readers.openai import parse_messages
from builder.ingest.records import RawDialogue, RecordError


def matches(obj: dict) -> bool:
    return ("messages" in obj or "conversation" in obj) and ("metadata" in obj or "conversation_hash" in obj)


def parse(obj: dict, locator: str) -> list[RawDialogue]:
    meta = obj.get("metadata") or {}
    if not isinstance(meta, dict):
        raise RecordError("invalid_record", f"{locator}: metadata must be an object")
    messages = obj.get("messages", obj.get("conversation"))
    if not isinstance(messages, list):
        raise RecordError("invalid_record", f"{locator}: field 'messages' must be a list")
    model = meta.get("model", obj.get("model"))
    language = meta.get("language", obj.get("language"))
    return [
        RawDialogue(
            source_id=opt_id(obj.get("id", obj.get("conversation_hash"))) or locator,
            locator=locator,
            turns=parse_messages(messages, locator),
            user_id=meta.get("user_id", obj.get("hashed_ip")),
            model=model,
            created_at=meta.get("timestamp", obj.get("timestamp")),
            language=language,
        )
    ]
