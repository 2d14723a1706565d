"""What the lower-case-name model reads about one lower-case word: is it a name its writer did not capitalise?

Chat is typed fast: "went to the mall with jake", "me and dean kowalski", "hunter said no". NER
relies on capitals and misses such names; the census list alone cannot tell "jake" the friend from
"rose" the flower or "bill" the invoice. The model reads how the word is used: the words before and
after it (by position and as a bag), whether it opens a sentence, is followed by "'s" or a comma,
whether the word is in the census first- or last-name list, an English word (and only a noun), and
the word vectors of ``en_core_web_md`` of the word itself and of three words on each side.

Candidates (``candidates``): lower-case words of three letters or more, not a stop word, chat slang
or a contraction typed without its apostrophe, not part of an address, a handle or a file name, not
after an article or a quantifier ("a robin", "some karen", "the holly bush"), not alone on its line
("jollibee!": only its letters would speak),
that are either no English word ("kowalski", "aisling"), a census first name that is at most a noun
("jake", "sarah"), or a census first name that is also a verb or an adjective ("grace", "amber",
"frank": kind ``census_word``; the words beside it decide between "with grace and her brother" and
"with grace and style"). The characters of the word count too (its letter triples and ends: "-ak",
"-ia", "-ek", with the word's start and end marked), so a name on no list reads like the names the model saw, and whether it is an English
word with one letter too many ("insuline"; "aisling" too) or a slip of one ("peroid").

Sparse features are hashed (CRC32) into ``DIMS`` buckets of this model's own, from the person-context
model's tokens (its ``_tokens``, cached per turn: both models read the same turns).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from classifiers.person_context.features import _mean, _tokens
from classifiers.person_context.features import buckets as hashed

# Hashed buckets of this model's own (the person-context model's 32,768 were shared until session 43): the
# letter triples and the bags of words collided there ("R=hyperthyroid" carried another feature's weight).
DIMS = 1 << 18


def buckets(names: list[str]) -> np.ndarray:
    return hashed(names, DIMS)

VECTOR_WORDS = 3
WINDOW = 4
HINT_LETTERS = 24  # letters of a word read for its letter triples and its slips
# A lower-case word standing alone: not inside a URL, an address, a handle, a path or a snake_case name;
# its possessive counts ("javier's grandmother"), a contraction does not ("didn't" is no "didn").
WORD = re.compile(r"(?<![\w@#/\\.'’-])([^\W\d_A-Z]{3,})(?!(?!['’]s(?![\w@/\\'’-]|[.\-:]\w))[\w@/\\'’-]|[.\-:]\w)")


@functools.lru_cache(maxsize=1 << 16)
def word_kind(word: str) -> str | None:
    """"census" (a census first name that as an English word is at most a noun: "jake", "sarah"),
    "census_word" (a census first name that is also a verb or an adjective: "grace", "rose", "frank"),
    "unknown" (no English word) or None."""
    from spacy.lang.en.stop_words import STOP_WORDS

    from builder.clean.names import MONTHS, first_names
    from builder.clean.truecase import APOSTROPHE_LESS, SLANG, at_most_a_noun, is_english_word

    if (not word.islower() or word in STOP_WORDS or word in SLANG or word in APOSTROPHE_LESS
            or any(ord(c) >= 0x250 for c in word)):
        return None  # a word of another script or of Vietnamese ("достаточно", "biết"): not this model's
    if word in first_names():
        if word in MONTHS:
            return None  # "april", "june", "august": months first
        return "census" if at_most_a_noun(word) else "census_word"
    return None if is_english_word(word) else "unknown"


# A word after an article or a quantifier is a thing or a kind of person, not someone's name typed in
# lower case: "a robin at the feeder", "some karen at the checkout", "the holly bush", "every tom".
DETERMINER = re.compile(r"(?<![\w'’])(?:a|an|the|some|any|every|each|another)[ \t\u00a0]+\Z", re.IGNORECASE)


LETTERS = re.compile(r"[^\W\d_]")


def alone_on_its_line(text: str, start: int, end: int) -> bool:
    """No other word on the word's line ("jollibee!"): nothing beside it to read, only its letters, which
    cannot tell a brand or a shout from a name. A line that goes on from a line ending in a comma or a
    colon is not alone ("thanks,\nkowalski"; "from:\nngozi")."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if line_start and text[max(0, line_start - 80):line_start].rstrip()[-1:] in (",", ":"):
        return False
    return not LETTERS.search(text[line_start:start]) and not LETTERS.search(text[end:line_end])


def candidates(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the lower-case words of ``text`` that may be a name (see the module docstring)."""
    return [(m.start(1), m.end(1)) for m in WORD.finditer(text)
            if word_kind(m.group(1)) and not DETERMINER.search(text, max(0, m.start(1) - 12), m.start(1))
            and not alone_on_its_line(text, m.start(1), m.end(1))]


def sparse(text: str, start: int, end: int) -> list[str]:
    from builder.clean.names import last_names
    from builder.clean.truecase import at_most_a_noun, extra_letter_of_english_word, is_english_word, typo_of_english_word

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
    elif len(word) > HINT_LETTERS:
        pass  # no slip of an English word is that long; the checks would cost a second
    elif typo_of_english_word(word):
        out.append("slip_of_a_word")  # "peroid"; also ruled out after the model, where it is flagged
    elif extra_letter_of_english_word(word):
        out.append("extra_letter_of_a_word")  # "insuline", "aisling"
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
    marked = f"^{word.lower()[:HINT_LETTERS]}$"
    out += [f"c3={marked[i:i + 3]}" for i in range(len(marked) - 2)]  # "^de", "eep", "ak$"
    return out


def dense(text: str, start: int, end: int, vector_of) -> np.ndarray:
    """Word vectors (each L2-normalised): the word, the mean of ``VECTOR_WORDS`` words before, after."""
    toks = [t for t in _tokens(text) if t[2].isalpha()]
    left = [w for s, e, w in toks if e <= start][::-1][:VECTOR_WORDS]
    right = [w for s, e, w in toks if s >= end][:VECTOR_WORDS]
    return np.concatenate([_mean([text[start:end].lower()], vector_of), _mean(left, vector_of), _mean(right, vector_of)])
