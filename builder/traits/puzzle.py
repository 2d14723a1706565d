"""Trait ``puzzle``: the user poses a riddle or a logic puzzle. Its people ("Anna calls Beth...
who does 'her' refer to?", "Tom is taller than Ann") and places ("Room 0 is connected to Room
3") are the puzzle's pieces, invented to be reasoned about, not anyone's personal data."""

from __future__ import annotations

import re

PUZZLE = re.compile(
    r"\b(?:riddles?|puzzles?|brain\s*-?\s*teasers?|logic\s+(?:problem|question|puzzle|test|game|grid)|trick\s+question"
    r"|lateral\s+thinking|who\s+is\s+(?:lying|telling\s+the\s+truth|the\s+(?:murderer|killer|thief|culprit|liar))"
    r"|knights?\s+and\s+knaves|(?:what|who|whom)\s+does\s+[\"'“‘]?\w+[\"'”’]?\s+(?:refer|point)\s+to"
    r"|(?:what|who)\s+is\s+[\"'“‘]\w+[\"'”’]\s+referring\s+to"
    r"|how\s+many\s+(?:brothers|sisters|siblings|children|daughters|sons|cousins)\s+does\s+\w+\s+have"
    r"|(?:room|node|cell|city|station)\s+\w{1,3}\s+(?:is\s+)?(?:connected|linked|adjacent)\s+to)\b", re.I)
COMPARISON = re.compile(r"\b[A-Z]\w*\s+is\s+(?:\w+er|more\s+\w+|less\s+\w+)\s+than\s+[A-Z]\w*\b")

WHY = "a puzzle's people and places are invented pieces to reason about"
EXAMPLES = (("Anna calls Beth, interrupting her concentration. Who does 'her' refer to?", True),
            ("Room 0 is connected to Room 3. Room 3 is connected to Room 5. Find a path.", True),
            ("Tom is taller than Ann. Ann is taller than Bo. Who is shortest?", True),
            ("I solved the crossword with my dad Tom yesterday", False))


def puzzle(text: str) -> bool:
    return bool(PUZZLE.search(text)) or len(COMPARISON.findall(text)) >= 2


def detect(turn: dict) -> bool:
    return turn["role"] == "user" and puzzle(turn["text"] or "")
