"""One language identifier for the whole tool (clean, classify, the release card).

Lingua (``lingua-language-detector``, the identifier WildChat used) ships its models inside
the wheel, so it works offline. Text too short or too ambiguous to call is ``None`` ("unknown"),
never a guess: a two-word message like "ok" is not Zulu, and "what's a pogonphora" + "yes" (a
dialogue's whole user text: four words, one of them rare) is not Tswana. A claim needs MIN_LETTERS letters *and* MIN_WORDS words (a CJK,
kana or Hangul character counts as a word: those scripts do not space words). Codes are ISO 639-1, lower case.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

MIN_LETTERS = 12  # fewer letters than this: not enough evidence
MIN_WORDS = 6  # fewer words than this: one odd word decides the guess (lingua calls "what's a pogonphora yes" Tswana)
MIN_RELATIVE_DISTANCE = 0.1  # lingua returns None when the top two languages are closer than this
SAMPLE_CHARS = 2000  # a dialogue's language is read from its first user text, up to this many characters
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\W\d_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+(?:['\u2019][^\W\d_]+)*")


@functools.cache
def _detector():
    from builder.errors import require

    lingua = require("lingua", "lingua-language-detector")
    return (lingua.LanguageDetectorBuilder.from_all_languages()
            .with_minimum_relative_distance(MIN_RELATIVE_DISTANCE).build())


def _prepare(text: str | None) -> str | None:
    if not text:
        return None
    text = _without_code(text)[:SAMPLE_CHARS]
    enough = len(_LETTER.findall(text)) >= MIN_LETTERS and len(_WORD.findall(text)) >= MIN_WORDS
    return text if enough else None


def _without_code(text: str) -> str:
    """Code is no language's evidence (unfenced Python reads as Somali): the ranges the ``code``
    trait finds (fenced and inline code, code-like lines, tab-separated rows) become spaces."""
    from builder.traits.code import code_ranges

    ranges = code_ranges(text)
    if not ranges:
        return text
    out, pos = [], 0
    for start, end in ranges:
        if start > pos:
            out.append(text[pos:start])
        out.append(" ")
        pos = max(pos, end)
    out.append(text[pos:])
    return "".join(out)


def detect(text: str | None) -> str | None:
    """ISO 639-1 code of ``text``, or None when it is too short or ambiguous to tell."""
    return detect_many([text])[0]


def detect_many(texts: Sequence[str | None]) -> list[str | None]:
    """Batch form of :func:`detect` (lingua runs the batch in parallel)."""
    prepared = [_prepare(t) for t in texts]
    todo = [t for t in prepared if t is not None]
    found = iter(_detector().detect_languages_in_parallel_of(todo) if todo else [])
    out: list[str | None] = []
    for text in prepared:
        if text is None:
            out.append(None)
            continue
        language = next(found)
        out.append(language.iso_code_639_1.name.lower() if language is not None else None)
    return out


def dialogue_text(turns: list[dict]) -> str:
    """What a dialogue's language is read from: its user turns (the user's language), else all turns."""
    users = " ".join(t.get("text") or "" for t in turns if t.get("role") == "user")
    return users if _prepare(users) else " ".join(t.get("text") or "" for t in turns)


def dialogue_language(turns: list[dict]) -> str | None:
    return detect(dialogue_text(turns))


# names and native names people write in "language" fields, beyond lingua's English names
_EXTRA_NAMES = {"chinese (simplified)": "zh", "chinese (traditional)": "zh", "mandarin": "zh", "cantonese": "zh",
                "中文": "zh", "简体中文": "zh", "繁體中文": "zh", "english (us)": "en", "english (uk)": "en",
                "русский": "ru", "español": "es", "français": "fr", "deutsch": "de", "日本語": "ja", "한국어": "ko",
                "português": "pt", "italiano": "it", "türkçe": "tr", "polski": "pl", "nederlands": "nl",
                "farsi": "fa", "filipino": "tl", "tagalog": "tl", "bokmal": "nb", "bokmål": "nb",
                "norwegian": "nb", "nynorsk": "nn", "slovenian": "sl", "ukrainian": "uk", "українська": "uk"}


@functools.cache
def _names() -> dict[str, str]:
    from lingua import Language

    names = {lang.name.lower(): lang.iso_code_639_1.name.lower() for lang in Language.all()}
    names.update(_EXTRA_NAMES)
    return names


_CODE_RE = re.compile(r"^([A-Za-z]{2})(?:[-_][A-Za-z0-9]+)*$")


def iso_code(value: str | None) -> str | None:
    """ISO 639-1 from what a log's language field says: "en", "en-US", "English", "русский"...;
    None when it says nothing recognisable (the caller records the unparsed value)."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    match = _CODE_RE.match(text)
    if match:
        return match.group(1).lower()
    return _names().get(text.casefold())
