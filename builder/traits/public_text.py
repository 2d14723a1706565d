"""Trait ``public_text``: the user hands over a public text to work on (summarise, translate,
paraphrase an article, a paper, the news): the names in it are public."""

from __future__ import annotations

import re

PUBLIC_TEXT = re.compile(r"\b(?:summari[sz]e|summary|translate|translation|paraphrase|proofread|polish|rephrase"
                         r"|academic|paper|article|essay|abstract|news|wikipedia|research)\b", re.I)

WHY = "names in a public text handed over to work on are public"
EXAMPLES = (("Summarize this article: ...", True), ("my son is sick today", False))


def detect(turn: dict) -> bool:
    return turn["role"] == "user" and bool(PUBLIC_TEXT.search(turn["text"] or ""))
