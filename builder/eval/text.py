"""How answer text is compared: one normalisation for items, options and image answers.

NFKC, casefold, punctuation and symbols to spaces, leading articles dropped, whitespace
collapsed.
"""

from __future__ import annotations

import unicodedata

ARTICLES = {"a", "an", "the"}
STOPWORDS = ARTICLES | {"and", "or", "of", "in", "on", "at", "to", "for", "with", "they", "it", "he", "she", "we",
                        "you", "i", "is", "are", "was", "were", "be", "that", "this", "these", "those", "their",
                        "his", "her", "its", "my", "your", "our", "use", "uses", "used", "some", "small", "big"}


def normalise(text: str | None) -> str:
    text = unicodedata.normalize("NFKC", text or "").casefold()
    text = "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text)
    words = text.split()
    while words and words[0] in ARTICLES:
        words = words[1:]
    return " ".join(words)


def content_words(text: str | None) -> set[str]:
    return {w for w in normalise(text).split() if w not in STOPWORDS}
