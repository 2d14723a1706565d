"""Text preparation for the lexicon backend: code out, Unicode words in, innocent phrases out.

- Code is not speech: the ``code`` trait's ranges (fenced and inline code, lines that look like
  code, tab-separated rows; builder/traits/code.py) are removed, and so are identifiers (``len(``, ``obj.kill``, ``snake_case``, ``camelCase``), so a Python
  ``len`` or a ``kill -9`` in a shell line cannot drop a dialogue.
- Words are Unicode letter runs, case-folded: "González" stays one word (never "lez"),
  "nadużywać" stays one word (never "nad").
- Phrases in which a listed word is innocent ("Maine Coon", "penetration testing", "Hoare
  partition", "homo sapiens") are removed before words are matched.
"""

from __future__ import annotations

import regex

IDENTIFIER = regex.compile(r"[\p{L}\p{N}_]*(?:[._]\p{L}|\p{Ll}\p{Lu})[\p{L}\p{N}_.]*|\p{L}[\p{L}\p{N}_]*(?=\()"
                           r"|(?<=\w\.|\s--?)\p{L}+")
WORD = regex.compile(r"\p{L}[\p{L}\p{M}]*(?:['’]\p{L}+)?")
INNOCENT = regex.compile(
    r"\bmaine\s+coons?\b|\braccoons?\b|\bpenetration\s+(?:test\w*|rate|depth|pricing|of\s+the\s+market)\b"
    r"|\bpen\s*-?\s*test\w*\b|\bhoare(?:'s)?\s+(?:partition\w*|logic|triple|scheme)\b|\btony\s+hoare\b"
    r"|\bhomo\s+(?:sapiens|erectus|habilis|neanderthalensis)\b|\bspic\s+and\s+span\b|\bmoby\s+dick\b"
    r"|\bphilip\s+k\.?\s+dick\b|\bvietnamese\s+dong\b|\b\d[\d,.]*\s+dong\b|\bdong\s+(?:xuan|nai|hoi|thap|ha)\b"
    r"|\bslope\s+(?:of|intercept|field|stability|angle)\b|\b(?:the|a|its|steep|positive|negative|gentle)\s+slopes?\b"
    r"|\bscrew\s*(?:driver|s?\s+(?:in|into|on))\b|\bcocks?\s*(?:tail|pit|roach|ney|erel)\b"
    r"|\bkill\s+(?:-\d+|the\s+process|process|a\s+process|switch)\b", regex.I)


def strip_code(text: str) -> str:
    """The text with its code (the ``code`` trait's ranges: builder/traits/code.py) and its
    identifiers blanked."""
    from builder.traits.code import code_ranges

    for start, end in reversed(code_ranges(text)):
        text = text[:start] + " " + text[end:]
    return IDENTIFIER.sub(" ", text)


def prepare(text: str) -> str:
    """Case-folded text with code, identifiers and innocent phrases removed."""
    return INNOCENT.sub(" ", strip_code(text.replace("\u2019", "'"))).casefold()


def words(prepared: str) -> list[str]:
    return WORD.findall(prepared)
