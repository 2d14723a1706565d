"""Validate a reader's RawDialogue and turn it into a canonical row (or a RecordError)."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

from builder.ingest.config import IngestConfig
from builder.ingest.records import RawDialogue, RecordError
from builder.records import ROLES, dialogue_id, normalise_text

MAX_MODEL_CHARS = 200


class Resolver(Protocol):
    """What turns an image reference into its image row: the ingest stage's ImageResolver, or a
    text-only source's resolver that refuses every image."""

    def resolve(self, ref: str, base_dir: Path) -> dict: ...


def hash_user(user_id: Any, salt: bytes | None) -> str | None:
    """Salted HMAC-SHA256 of a user id; the same user gets the same hash within one salt.

    An id of another JSON type (an object, a list) is hashed from its canonical JSON: it is
    still the user's identity, so it is never written in clear, not even in an error message.
    """
    if user_id is None or user_id == "":
        return None
    if salt is None:  # guarded earlier with a clear ConfigError; never write ids in clear
        raise AssertionError("user ids present but no salt")
    if isinstance(user_id, str):
        text = user_id
    elif isinstance(user_id, int) and not isinstance(user_id, bool):
        text = str(user_id)
    else:
        text = json.dumps(user_id, sort_keys=True, ensure_ascii=False, default=str)
    return hmac.new(salt, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:32]


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


def language(value: Any) -> str | None:
    """ISO 639-1 from a code ("en-US") or a name ("English", "русский"); None otherwise."""
    from builder.language import iso_code

    return iso_code(value)


def metadata(raw: RawDialogue, detail: dict) -> tuple[str | None, str | None]:
    """(model, language) as validated strings; a value of the wrong type or unrecognised is
    dropped and recorded in the ledger detail, never silently."""
    ignored = {}
    model = raw.model
    if model is not None and not (isinstance(model, str) and len(model) <= MAX_MODEL_CHARS):
        ignored["model"] = type(model).__name__ if not isinstance(model, str) else f"longer than {MAX_MODEL_CHARS}"
        model = None
    lang = language(raw.language)
    if raw.language not in (None, "") and lang is None:
        ignored["language"] = (str(raw.language)[:40] if isinstance(raw.language, str)
                               else type(raw.language).__name__)
    if raw.user_id is not None and not isinstance(raw.user_id, (str, int)):
        detail["user_id_type"] = type(raw.user_id).__name__  # hashed from its JSON; the value is not shown
    if ignored:
        detail["ignored_fields"] = ignored
    return model or None, lang


def order_turns(turns: list[dict]) -> tuple[list[dict], int]:
    """Consecutive user messages become one turn (people send several in a row); returns the
    turns and how many were merged. Consecutive assistant turns are not merged: in flattened
    exports they are alternative replies, which :func:`normalise` quarantines."""
    out: list[dict] = []
    merged = 0
    for turn in turns:
        if out and turn["role"] == "user" and out[-1]["role"] == "user":
            last = out[-1]
            last["text"] = "\n\n".join(t for t in (last["text"], turn["text"]) if t)
            last["images"] = last["images"] + turn["images"]
            merged += 1
        else:
            out.append(turn)
    for index, turn in enumerate(out):
        turn["index"] = index
    return out, merged


def normalise(raw: RawDialogue, source: str, base_dir: Path, resolver: Resolver,
              config: IngestConfig, salt: bytes | None) -> tuple[dict, dict]:
    """(canonical row, ledger detail) for a valid dialogue; raises RecordError otherwise."""
    turns: list[dict[str, Any]] = []
    for i, turn in enumerate(raw.turns):
        if turn.role not in ROLES:
            raise RecordError("unknown_role", f"turn {i} has role {str(turn.role)[:40]!r}; expected one of "
                                              f"{', '.join(ROLES)}")
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
    n_kept = len(turns)
    turns, merged = order_turns(turns)
    roles = [t["role"] for t in turns if t["role"] != "system"]
    if "assistant" not in roles:
        raise RecordError("no_assistant_turn", "the dialogue has no assistant turn: there is no model reply to "
                                               "evaluate against")
    if any(a == b == "assistant" for a, b in zip(roles, roles[1:])):
        raise RecordError("same_role_turns", "two assistant turns in a row (alternative replies in a flattened "
                                             "export?); keep one reply per user turn")
    detail: dict[str, Any] = {"source": source, "source_id": raw.source_id}
    if len(raw.turns) != n_kept:
        detail["empty_turns_removed"] = len(raw.turns) - n_kept
    if merged:
        detail["merged_user_turns"] = merged
    if raw.repaired_surrogates:
        detail["repaired_surrogates"] = raw.repaired_surrogates
    model, lang = metadata(raw, detail)
    unresolved = sum(1 for t in turns for im in t["images"] if im["sha256"] is None)
    if unresolved:
        detail["unresolved_images"] = unresolved
    created = parse_time(raw.created_at)
    if raw.created_at not in (None, "") and created is None:
        detail["created_at_unparsed"] = (str(raw.created_at)[:64] if isinstance(raw.created_at, (str, int, float))
                                         else type(raw.created_at).__name__)
    row = {
        "dialogue_id": dialogue_id(turns),
        "source": source,
        "source_id": raw.source_id,
        "user_id": hash_user(raw.user_id, salt),
        "model": model,
        "created_at": created,
        "language": lang,
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
