"""What the lower-case-name model reads about one lower-case word: is it a name its writer did not capitalise?

Chat is typed fast: "went to the mall with jake", "me and dean kowalski", "hunter said no". NER
relies on capitals and misses such names; the census list alone cannot tell "jake" the friend from
"rose" the flower or "bill" the invoice. The model reads how the word is used: the words before and
after it (by position and as a bag), whether it opens a sentence, is followed by "'s" or a comma,
whether the word is in the census first- or last-name list, an English word (and only a noun), and
the word vectors of ``en_core_web_md`` of the word itself and of three words on each side.

Candidates (``candidates``): lower-case words of three letters or more, not a stop word, chat slang
or a contraction typed without its apostrophe, not part of an address, a handle or a file name,
that are either no English word ("kowalski", "aisling") or a census first name that is at most a noun
("jake", "sarah"; not "rose", "dawn": verbs too).

Sparse features are hashed as the person-context model's are (its ``buckets``, ``DIMS``), from the
same tokens (its ``_tokens``, cached per turn: both models read the same turns).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from classifiers.person_context.features import DIMS, _mean, _tokens, buckets  # noqa: F401 (DIMS, buckets: this model's too)

VECTOR_WORDS = 3
WINDOW = 4
# A lower-case word standing alone: not inside a URL, an address, a handle, a path or a snake_case name;
# its possessive counts ("javier's grandmother"), a contraction does not ("didn't" is no "didn").
WORD = re.compile(r"(?<![\w@#/\\.'’-])([^\W\d_A-Z]{3,})(?!(?!['’]s(?![\w@/\\'’-]|[.\-:]\w))[\w@/\\'’-]|[.\-:]\w)")


@functools.lru_cache(maxsize=1 << 16)
def word_kind(word: str) -> str | None:
    """"census" (a census first name that as an English word is at most a noun: "jake", "sarah", never
    "rose", "blossom" or "brad", which are verbs too), "unknown" (no English word) or None."""
    from spacy.lang.en.stop_words import STOP_WORDS

    from builder.clean.names import first_names
    from builder.clean.truecase import APOSTROPHE_LESS, SLANG, at_most_a_noun, is_english_word

    if (not word.islower() or word in STOP_WORDS or word in SLANG or word in APOSTROPHE_LESS
            or any(ord(c) >= 0x250 for c in word)):
        return None  # a word of another script or of Vietnamese ("достаточно", "biết"): not this model's
    if word in first_names():
        return "census" if at_most_a_noun(word) else None
    return None if is_english_word(word) else "unknown"


def candidates(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the lower-case words of ``text`` that may be a name (see the module docstring)."""
    return [(m.start(1), m.end(1)) for m in WORD.finditer(text) if word_kind(m.group(1))]


def sparse(text: str, start: int, end: int) -> list[str]:
    from builder.clean.names import last_names
    from builder.clean.truecase import at_most_a_noun, is_english_word

    word = text[start:end]
    toks = _tokens(text)
    left = [w for s, e, w in toks if e <= start][::-1]
    right = [w for s, e, w in toks if s >= end]
    kind = word_kind(word) or "none"
    english = is_english_word(word)
    out = [f"kind={kind}", f"english={english}", f"len={min(len(word), 9)}",
           f"last_name_list={word in last_names()}", f"turn_capitals={any(c.isupper() for c in text)}"]
    if english:
        out.append(f"only_noun={at_most_a_noun(word)}")
    if not left or left[0] in ".!?" or "\n" in text[max(0, start - 2):start]:
        out.append("opens_sentence")
    if re.match(r"['’]s\b", text[end:end + 3]):
        out.append("possessive")
    for side, words in (("L", left), ("R", right)):
        for k, w in enumerate(words[:WINDOW]):
            out += [f"{side}{k + 1}={w}", f"{side}={w}"]
        if words:
            nk = word_kind(words[0]) if words[0].isalpha() else None
            out.append(f"{side}1_kind={nk}")
    if len(left) >= 2:
        out.append(f"L12={left[1]}_{left[0]}")
    if len(right) >= 2:
        out.append(f"R12={right[0]}_{right[1]}")
    out += [f"W={w}" for w in sorted(set(left[:10]) | set(right[:10]))]
    return out


def dense(text: str, start: int, end: int, vector_of) -> np.ndarray:
    """Word vectors (each L2-normalised): the word, the mean of ``VECTOR_WORDS`` words before, after."""
    toks = [t for t in _tokens(text) if t[2].isalpha()]
    left = [w for s, e, w in toks if e <= start][::-1][:VECTOR_WORDS]
    right = [w for s, e, w in toks if s >= end][:VECTOR_WORDS]
    return np.concatenate([_mean([text[start:end].lower()], vector_of), _mean(left, vector_of), _mean(right, vector_of)])
