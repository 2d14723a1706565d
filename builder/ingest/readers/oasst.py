"""`oasst`: OpenAssistant message trees; every root-to-leaf path becomes one dialogue.

A path through a message marked `deleted` is quarantined (`deleted_message`) rather than
silently cut short. `source_id` is the leaf message id.
"""

from __future__ import annotations

from typing import Any

from builder.ingest.records import Quarantined, RawDialogue, RawTurn, RecordError

ROLE_MAP = {"prompter": "user", "assistant": "assistant"}


def matches(obj: dict) -> bool:
    return "message_tree_id" in obj or ("prompt" in obj and isinstance(obj.get("prompt"), dict))


def parse(obj: dict, locator: str) -> list[RawDialogue | Quarantined]:
    root = obj.get("prompt")
    if not isinstance(root, dict):
        raise RecordError("invalid_record", f"{locator}: field 'prompt' must be a message object")
    tree_id = str(obj.get("message_tree_id") or root.get("message_id") or locator)
    out: list[RawDialogue | Quarantined] = []
    stack: list[tuple[Any, list[Any]]] = [(root, [])]  # (message, the messages on the path to it)
    while stack:  # iterative DFS: deep trees must not hit the recursion limit
        node, path = stack.pop()
        if not isinstance(node, dict) or not isinstance(node.get("text"), str):
            raise RecordError("invalid_record", f"{locator}: tree {tree_id} has a message without text")
        path = path + [node]
        replies = node.get("replies") or []
        if replies:
            stack.extend((child, path) for child in reversed(replies))
            continue
        leaf_id = str(node.get("message_id") or f"{tree_id}:{len(out)}")
        where = f"{locator} tree {tree_id} path to {leaf_id}"
        if any(m.get("deleted") for m in path):
            out.append(Quarantined(where, "deleted_message", "path goes through a deleted message", leaf_id))
            continue
        out.append(
            RawDialogue(
                source_id=leaf_id,
                locator=where,
                turns=[RawTurn(ROLE_MAP.get(m.get("role"), str(m.get("role"))), m["text"]) for m in path],
                model=root.get("model_name"),
                created_at=root.get("created_date"),
                language=root.get("lang"),
            )
        )
    return out
