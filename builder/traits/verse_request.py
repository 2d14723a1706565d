"""Trait ``verse_request``: the user asks for a poem, a song or lyrics. What the verse is about is
its subject, not a thing of the user's own scene (swap); a poem is often for a real person, so
it does not make names characters (clean)."""

from __future__ import annotations

import re

VERSE = re.compile(r"\b(?:write|continue|tell|compose|create|generate|make)\b[^.\n?!]{0,60}\b(?:poem|poems|lyrics|song"
                   r"|songs|verse|verses|haiku|limerick|sonnet|rap)\b", re.I)

WHY = "the subject of a requested verse is no thing of the user's scene"
EXAMPLES = (("write a poem about my cat", True), ("compose lyrics for a birthday song", True),
            ("I read a poem yesterday", False))


def detect(turn: dict) -> bool:
    return turn["role"] == "user" and bool(VERSE.search(turn["text"] or ""))
