"""Which language each turn is in, for PII routing and the ``--languages`` filter.

A turn's language comes from ``builder.language`` (lingua, offline). A turn too short to
tell ("ok", "Привет") takes the dialogue's language; when that is unknown too, the script
decides: mostly Latin letters count as English (the English finders then run), anything
else does not. English NER runs only on English turns; the others get the
language-independent finders (recognizers.py).
"""

from __future__ import annotations

import re

from builder.language import detect_many, dialogue_text

UNDETERMINED = "und"  # the code ``--languages`` uses for a dialogue whose language is unknown
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]")  # Latin letters, with diacritics
_LETTER = re.compile(r"[^\W\d_]")


def mostly_latin(text: str) -> bool:
    letters = len(_LETTER.findall(text))
    return letters > 0 and len(_LATIN.findall(text)) / letters >= 0.8


def dialogue_languages(dialogues: list[list[dict]]) -> list[tuple[str | None, list[str | None]]]:
    """Per dialogue: ``(dialogue language, [language of each turn])`` in one lingua batch."""
    texts = []
    for turns in dialogues:
        texts.append(dialogue_text(turns))
        texts.extend(t.get("text") or "" for t in turns)
    found = iter(detect_many(texts))
    out = []
    for turns in dialogues:
        whole = next(found)
        out.append((whole, [next(found) or whole for _ in turns]))
    return out


def english_turns(turns: list[dict], languages: list[str | None]) -> list[bool]:
    """Which turns get the English-only finders (NER names and locations)."""
    return [lang == "en" or (lang is None and mostly_latin(t.get("text") or ""))
            for t, lang in zip(turns, languages)]
