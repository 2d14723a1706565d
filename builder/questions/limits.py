"""How large a question row may be. Generous for real MMRC questions (the demo's longest question is
192 characters, its longest answer 198, choice 115, gold item 55; at most 4 choices and 6 gold items),
tight enough that a slip (a whole dialogue pasted into a cell, a list pasted a thousand times) is an
import error naming the row instead of a released question. Documented in release/README.md."""

from __future__ import annotations

from typing import Any

# characters in a text field
MAX_CHARS = {"dialogue_id": 200, "source": 500, "source_id": 200, "question_id": 128, "ability": 10, "format": 10,
             "question": 1_000, "answer": 2_000, "review": 500}
# characters in one item of a list field
MAX_ITEM_CHARS = {"choices": 300, "gold_items": 300, "annotators": 100}
# entries in a list field
MAX_ITEMS = {"choices": 10, "gold_items": 50, "annotators": 20, "gold_turns": 100, "gold_images": 100}


def problem(row: dict[str, Any]) -> str | None:
    """The first limit a typed question row breaks, as an error message (None: within every limit)."""
    for field, limit in MAX_CHARS.items():
        value = row.get(field)
        if isinstance(value, str) and len(value) > limit:
            return f"{field} is {len(value):,} characters (limit {limit:,}); shorten it"
    for field, limit in MAX_ITEMS.items():
        if len(row.get(field) or []) > limit:
            return f"{field} has {len(row[field]):,} entries (limit {limit:,})"
    for field, limit in MAX_ITEM_CHARS.items():
        for i, item in enumerate(row.get(field) or []):
            if len(item) > limit:
                return f"{field}[{i}] is {len(item):,} characters (limit {limit:,}); shorten it"
    return None
