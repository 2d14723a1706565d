"""Which language each turn is in, for PII routing and the ``--languages`` filter.

A turn's language comes from ``builder.language`` (lingua, offline). A turn too short to
tell ("ok", "Привет") takes the dialogue's language; when that is unknown too, the script
decides: mostly Latin letters count as English (the English finders then run), anything
else does not. In an English dialogue a turn in Latin letters whose words are mostly English
words gets the English finders whatever lingua calls it. English NER runs only on English turns; the others get the
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


_WORDS = re.compile(r"[^\W\d_]{3,}(?:['’][^\W\d_]+)?")
ENGLISH_WORDS_SHARE = 0.75


def english_words(text: str) -> bool:
    """At least ENGLISH_WORDS_SHARE of the lower-case words of three letters or more are English
    words (a capitalised word may be a name, which tells no language)."""
    from builder.clean.truecase import is_english_word

    words = [re.sub(r"['’](?:s|t|re|ve|ll|d|m)$", "", w.replace("’", "'")).removesuffix("n")
             if re.search(r"n['’]t$", w) else re.sub(r"['’](?:s|re|ve|ll|d|m)$", "", w)
             for w in _WORDS.findall(text) if not w[0].isupper()]  # "don't" -> "do", "you're" -> "you"
    return bool(words) and sum(is_english_word(w) for w in words) >= ENGLISH_WORDS_SHARE * len(words)


def english_turns(turns: list[dict], languages: list[str | None], dialogue: str | None = None) -> list[bool]:
    """Which turns get the English-only finders (NER names and locations). In an English dialogue
    a turn lingua calls another language still counts as English when it is in Latin letters and
    most of its words are English words: one turn's call is weak evidence (a foreign name makes
    "Send the contract to Hiroshi Sørensen ..." Latin, short chat reads as Tagalog or Tswana), and a
    turn that escapes NER keeps every name it holds; a French turn of an English dialogue stays French.
    A dialogue whose language lingua cannot tell (short, slangy chat: "Hahaha / Hey / omg my name is
    Erika too lol" reads as Yoruba) is judged turn by turn the same way."""
    def english(turn: dict, lang: str | None) -> bool:
        text = turn.get("text") or ""
        if lang == "en" or lang is None and mostly_latin(text):
            return True
        return dialogue in ("en", None) and lang is not None and mostly_latin(text) and english_words(text)

    return [english(t, lang) for t, lang in zip(turns, languages)]
