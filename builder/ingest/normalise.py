"""Validate a reader's RawDialogue and turn it into a canonical row (or a RecordError)."""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from builder.ingest.config import IngestConfig
from builder.ingest.records import RawDialogue, RecordError
from builder.ingest.resolve import ImageResolver
from builder.records import ROLES, dialogue_id, normalise_text

LANG = re.compile(r"^([A-Za-z]{2})(?:[-_][A-Za-z0-9]+)*$")


def hash_user(user_id: str | None, salt: bytes | None) -> str | None:
    """Salted HMAC-SHA256 of a user id; the same user gets the same hash within one salt."""
    if user_id is None:
        return None
    if salt is None:  # guarded earlier with a clear ConfigError; never write ids in clear
        raise AssertionError("user ids present but no salt")
    return hmac.new(salt, user_id.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def parse_time(value: Any) -> datetime | None:
    """ISO-8601 strings or epoch seconds/milliseconds, as UTC; None when absent or unparseable."""
    if value is None or value == "":
        return None
    try:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            seconds = value / 1000 if value > 1e11 else value
            return datetime.fromtimestamp(seconds, tz=timezone.utc)
        if isinstance(value, str):
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            return parsed.astimezone(timezone.utc) if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def language(value: str | None) -> str | None:
    if not value:
        return None
    match = LANG.match(value.strip())
    return match.group(1).lower() if match else None


def normalise(raw: RawDialogue, source: str, base_dir: Path, resolver: ImageResolver,
              config: IngestConfig, salt: bytes | None) -> tuple[dict, dict]:
    """(canonical row, ledger detail) for a valid dialogue; raises RecordError otherwise."""
    turns = []
    for i, turn in enumerate(raw.turns):
        if turn.role not in ROLES:
            raise RecordError("unknown_role", f"turn {i} has role {turn.role!r}; expected one of {', '.join(ROLES)}")
        if len(turn.text) > config.max_message_chars:
            raise RecordError(
                "oversized_message",
                f"turn {i} has {len(turn.text)} characters (limit {config.max_message_chars}, --max-message-chars)",
            )
        text = normalise_text(turn.text)
        images = [resolver.resolve(spec.value, base_dir) for spec in turn.images]
        if not text and not images:
            continue  # an empty message carries nothing; dropping it is recorded below
        turns.append({"index": len(turns), "role": turn.role, "text": text, "images": images})
    if not any(t["role"] != "system" for t in turns):
        raise RecordError("empty_dialogue", "the dialogue has no user or assistant turn with text or an image")
    detail: dict[str, Any] = {"source": source, "source_id": raw.source_id}
    if len(turns) != len(raw.turns):
        detail["empty_turns_removed"] = len(raw.turns) - len(turns)
    unresolved = sum(1 for t in turns for im in t["images"] if im["sha256"] is None)
    if unresolved:
        detail["unresolved_images"] = unresolved
    created = parse_time(raw.created_at)
    if raw.created_at not in (None, "") and created is None:
        detail["created_at_unparsed"] = str(raw.created_at)[:64]
    row = {
        "dialogue_id": dialogue_id(turns),
        "source": source,
        "source_id": raw.source_id,
        "user_id": hash_user(raw.user_id, salt),
        "model": raw.model,
        "created_at": created,
        "language": language(raw.language),
        "turns": turns,
        "topic": raw.topic,
    }
    return row, detail


def turn_count(row: dict) -> int:
    """Turns as MMRC counts them: user and assistant messages (system prompts excluded)."""
    return sum(1 for t in row["turns"] if t["role"] != "system")


def user_text(row: dict) -> str:
    parts = []
    for t in row["turns"]:
        if t["role"] == "user":
            parts.append(t["text"])
            parts.extend(im["sha256"] or im["url"] or "" for im in t["images"])
    return "\n".join(parts)
