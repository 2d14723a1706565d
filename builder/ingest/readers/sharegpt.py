"""`sharegpt`: `{"id", "conversations": [{"from", "value"}], "image"|"images"}`.

Each `<image>` placeholder takes the next listed image, in order; listed images without a
placeholder attach to the first human turn (LLaVA-style single-image records).
"""

from __future__ import annotations

import re

from builder.ingest.readers._common import image_specs, opt_id, require_list, require_str
from builder.ingest.records import RawDialogue, RawTurn, RecordError

ROLE_MAP = {"human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant",
            "chatgpt": "assistant", "bing": "assistant", "bard": "assistant", "system": "system"}
PLACEHOLDER = re.compile(r"\s*<image>\s*")


def matches(obj: dict) -> bool:
    return "conversations" in obj


def parse(obj: dict, locator: str) -> list[RawDialogue]:
    images = image_specs(obj.get("images", obj.get("image")), locator)
    turns: list[RawTurn] = []
    next_image = 0
    for i, msg in enumerate(require_list(obj, "conversations", locator)):
        where = f"{locator} turn {i}"
        if not isinstance(msg, dict):
            raise RecordError("invalid_record", f"{where}: a turn must be an object")
        role = require_str(msg, "from", where)
        value = require_str(msg, "value", where, optional=True) or ""
        count = value.count("<image>")
        if next_image + count > len(images):
            raise RecordError(
                "invalid_record", f"{where}: {next_image + count} <image> placeholders but {len(images)} images listed"
            )
        text = PLACEHOLDER.sub(" ", value).strip() if count else value
        turns.append(RawTurn(ROLE_MAP.get(role.lower(), role), text, images[next_image:next_image + count]))
        next_image += count
    if next_image < len(images):
        first_user = next((t for t in turns if t.role == "user"), None)
        if first_user is None:
            raise RecordError("invalid_record", f"{locator}: images listed but no human turn to attach them to")
        first_user.images = images[next_image:] + first_user.images
    return [
        RawDialogue(
            source_id=opt_id(obj.get("id")) or locator,
            locator=locator,
            turns=turns,
            user_id=obj.get("user_id"),
            model=obj.get("model"),
            created_at=obj.get("created_at"),
            language=obj.get("language"),
        )
    ]
