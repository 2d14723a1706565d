"""Trait ``long_paste``: a user turn long enough to be pasted, not typed (an article, a paper, a
story, a program, a brief): what it names is public or invented, not the user's own scene."""

from __future__ import annotations

LONG_PASTE_CHARS = 1000

WHY = "a pasted text names public or invented people and things, not the user's own"
EXAMPLES = (("x " * 600, True), ("Here is my kitchen, what colour are the walls?", False))


def long_paste(text: str) -> bool:
    return len(text) >= LONG_PASTE_CHARS


def detect(turn: dict) -> bool:
    return turn["role"] == "user" and long_paste(turn["text"] or "")
