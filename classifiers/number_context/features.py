"""What the number-context model reads about one run of digits: its shape and the words around it.

A number's digits say little about whose it is ("30309" is a ZIP, a price, a count of steps);
the words around it say a lot ("we're in 30309", "it's 4417 2231 9902 1186 exp 09/27", "my nhs
one is 485 777 3456" against "scored 30309 points", "the 4417 model"). So the features are the
number's shape (how many digits, their groups and separators, letters in it, a leading zero, a
Luhn check digit, a year's look, the character before and after it), the words before and after
it (by position and as a bag), the content words of its sentence wherever they stand ("lmk if 02139 is
still the right one for the package": "package" is nine words away), a few sentence cues
(first/second person, a question), and the word vectors of ``en_core_web_md`` (already loaded by
clean's NER) of the three words on each side and the mean vector of the sentence's words, so
"postcode" carries over from "zip", "policy" from "member" and "parcel" from "package". The digits
themselves are never features, so no value is learnt by heart.

Sparse features are hashed with CRC32 into ``DIMS`` buckets (stable across processes).
"""

from __future__ import annotations

import bisect
import functools
import re

import numpy as np

from builder.clean.numbers import DASHES, luhn_ok
from classifiers.person_context.features import _mean
from classifiers.person_context.features import buckets as hashed

DIMS = 1 << 16
WINDOW = 4  # words each side in the positional window
BAG = 8  # words each side in the bag
VECTOR_WORDS = 3  # words each side whose word vectors are averaged
MIN_DIGITS = 3  # a run with fewer digits is no candidate ("zip is 880" holds three) ...
MIN_DIGITS_WITH_LETTERS = 2  # ... unless letters make up the rest of it ("LS6 2QT")
MAX_GROUPS = 8  # a longer run of groups is a list of numbers, not one value
MAX_CANDIDATES = 200  # judged per turn at run time
CLASSES = ("none", "ZIP", "CARD", "ID", "PHONE")

# A token that holds a digit: up to four letters before it ("A448812", "LS6", "SW1A", "KA01AB1234"),
# or an area code in brackets; tokens joined by one separator make one candidate ("4417 2231 9902
# 1186", "0161 496 0000", "123-45-6789", "LS6 2QT", "(312) 555-0187").
_TOKEN = r"(?:\+?\(\d{1,5}\)|\+?[A-Za-z]{0,4}-?\d[A-Za-z\d]*)"
# A dash and up to three capitals may end one ("32.447.891-X", "FG-207-KL", "8827-PX").
# Pasted or autocorrected text joins them by a tab, two spaces or an en or em dash too ("4417\t2231 ..."); the
# shape reads those as the space or hyphen they stand for (``SAME_SEPARATOR``).
CANDIDATE = re.compile(rf"(?<![\w@$€£¥%,./:#*\-{DASHES}]){_TOKEN}(?:(?:[ \-./\t]|  |\s-\s|[ \t]?[{DASHES}][ \t]?|\)\s?)"
                       rf"{_TOKEN})*(?:-[A-Z]{{1,3}})?"
                       r"(?![\w@]|[.,:]\d|-\w)")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+|[^\w\s]", re.UNICODE)
FIRST = frozenset("i me my mine myself we us our ours im i'm i’m ive i've i’ve id i'd i’d ill i'll i’ll we're we’re "
                  "we've we’ve we'll we’ll".split())
SECOND = frozenset("you your yours u ur youre you're you’re".split())


def candidates(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each run of digit tokens with at least ``MIN_DIGITS`` digits."""
    out = []
    for m in CANDIDATE.finditer(text):
        value = m.group()
        digits, letters = sum(c.isdigit() for c in value), sum(c.isalpha() for c in value)
        if digits < MIN_DIGITS and not (digits >= MIN_DIGITS_WITH_LETTERS and letters >= 2):
            continue
        if len(re.findall(r"[A-Za-z\d]+", value)) > MAX_GROUPS:
            continue
        out.append((m.start(), m.end()))
    return out


@functools.lru_cache(maxsize=64)
def _words(text: str) -> tuple[tuple[int, int, str], ...]:
    return tuple((m.start(), m.end(), m.group().lower()) for m in WORD.finditer(text))


def _sides(text: str, start: int, end: int, alpha: bool = False) -> tuple[list[str], list[str]]:
    """The words before ``start`` (nearest first) and after ``end``; a bisection, not a scan per number."""
    words = _alpha_words(text) if alpha else _words(text)
    starts = _starts(text, alpha)
    cut = bisect.bisect_left(starts, start)
    while cut > 0 and words[cut - 1][1] > start:
        cut -= 1  # a word reaching into the number is on neither side
    after = bisect.bisect_left(starts, end)
    return [w for _, _, w in words[cut - 1::-1]] if cut else [], [w for _, _, w in words[after:]]


@functools.lru_cache(maxsize=64)
def _alpha_words(text: str) -> tuple[tuple[int, int, str], ...]:
    return tuple(t for t in _words(text) if t[2].isalpha())


@functools.lru_cache(maxsize=128)
def _starts(text: str, alpha: bool) -> list[int]:
    return [s for s, _, _ in (_alpha_words(text) if alpha else _words(text))]


SAME_SEPARATOR = str.maketrans({"\t": " ", **{dash: "-" for dash in DASHES}})


def shape(value: str, before: str, after: str) -> list[str]:
    """The number's own shape, never its digits."""
    value = re.sub(r" {2,}", " ", value.translate(SAME_SEPARATOR))
    digits = re.sub(r"\D", "", value)
    groups = re.findall(r"[A-Za-z\d]+", value)
    lens = "-".join(str(min(len(g), 9)) for g in groups)
    seps = sorted(set(re.findall(r"[^A-Za-z\d]", value)) - {"+"})
    n = len(digits)
    out = [f"digits={min(n, 20)}", f"digits_band={'3' if n == 3 else '4' if n == 4 else '5' if n == 5 else '6-8' if n <= 8 else '9-11' if n <= 11 else '12-19' if n <= 19 else '20+'}",
           f"groups={min(len(groups), 6)}", f"lens={lens}", *(f"sep={s!r}" for s in seps)]
    letters = sum(c.isalpha() for c in value)
    if letters:
        out += ["letters", f"letters={'prefix' if value[0].isalpha() or value[:2].lstrip('+')[:1].isalpha() else 'inside'}",
                f"letter_case={'upper' if value.upper() == value else 'lower' if value.lower() == value else 'mixed'}"]
    if digits.startswith("0"):
        out.append("leading_zero")
    if value.startswith("+"):
        out.append("plus")
    if "(" in value:
        out.append("bracket_area")
    if 12 <= n <= 19 and luhn_ok(digits):
        out.append("luhn")
    if n == 4 and not letters and re.fullmatch(r"1[5-9]\d\d|20[0-4]\d", digits):
        out.append("year_like")
    if len(set(digits)) <= 2:
        out.append("few_distinct")
    b, a = before[-1:] or "^", after[:1] or "$"
    out += [f"before_char={b if not b.isalnum() else 'w'}", f"after_char={a if not a.isalnum() else 'w'}"]
    if re.search(r"[$€£¥]\s*$", before) or re.match(r"\s*(?:%|percent|dollars?|euros?|bucks|usd|eur|gbp|k\b)", after, re.I):
        out.append("money_or_percent")
    return out


def sparse(text: str, start: int, end: int) -> list[str]:
    """The named features of the candidate ``text[start:end]``."""
    left, right = _sides(text, start, end)
    out = shape(text[start:end], text[max(0, start - 12):start], text[end:end + 12])
    for k, w in enumerate(left[:WINDOW]):
        out += [f"L{k + 1}={w}"]
    for k, w in enumerate(right[:WINDOW]):
        out += [f"R{k + 1}={w}"]
    out += [f"L={w}" for w in set(left[:BAG])] + [f"R={w}" for w in set(right[:BAG])]
    if len(left) >= 2:
        out.append(f"L12={left[1]}_{left[0]}")
    if len(right) >= 2:
        out.append(f"R12={right[0]}_{right[1]}")
    if not left:
        out.append("opens_text")
    if not right:
        out.append("ends_text")
    sentence = _sentence(left) | _sentence(right)
    out += [f"S:{name}" for name, ws in (("first", FIRST), ("second", SECOND)) if sentence & ws]
    if "?" in right[:12]:
        out.append("S:question")
    out += [f"T={w}" for w in set(sentence_words(text, start, end))]
    return out


# A sentence ends at a line break, or at a stop mark before a space or the end ("$3.50", "St.Mary" go on).
SENTENCE_END = re.compile(r"[\n\r]|[.!?…。！？]\s")
SENTENCE_WORDS = 30  # at most this many words each side: a sentence can be a whole unpunctuated paste
SENTENCE_REACH = 600  # characters read each side, at most
# Stop words that are cues for a number ("call me on", "the name on it", "first 6", "last four", "the back
# says", "we moved", "mine is"): kept in the sentence's words.
CUE_STOP_WORDS = frozenset("call name first last back front move mine".split())
CONTRACTION = re.compile(r"(?:n't|'s|'m|'re|'ve|'ll|'d)$")


@functools.lru_cache(maxsize=1 << 16)
def _content(word: str) -> bool:
    from spacy.lang.en.stop_words import STOP_WORDS

    if word in CUE_STOP_WORDS:
        return True
    base = CONTRACTION.sub("", word.replace("’", "'"))  # "i'm", "don't" (do), "it's"
    return word not in STOP_WORDS and base not in STOP_WORDS and base not in ("ca", "wo", "sha", "ai")


def sentence_words(text: str, start: int, end: int) -> list[str]:
    """``_sentence_words``, read once per candidate (``sparse`` and ``dense`` both ask for them)."""
    return list(_sentence_words(text, start, end))


@functools.lru_cache(maxsize=256)
def _sentence_words(text: str, start: int, end: int) -> tuple[str, ...]:
    """The content words (letters only; no stop words but ``CUE_STOP_WORDS``, no contraction of one) of
    the sentence around ``text[start:end]`` (at most ``SENTENCE_REACH`` characters each side), the
    number left out. Stop words say how a message is written, not what the number is: with them the
    written probes' "the", "and", "this" lifted "my Cyberpunk 2077 benchmark, and the second screenshot"
    to a card."""
    left = max(0, start - SENTENCE_REACH)
    for stop in SENTENCE_END.finditer(text, left, start):
        left = stop.end()
    reach = min(len(text), end + SENTENCE_REACH)
    after_stop = SENTENCE_END.search(text, end, reach)
    right = after_stop.start() if after_stop else reach
    before = [w for m in WORD.finditer(text, left, start) if m.group()[0].isalpha() and _content(w := m.group().lower())]
    after = [w for m in WORD.finditer(text, end, right) if m.group()[0].isalpha() and _content(w := m.group().lower())]
    return tuple(before[-SENTENCE_WORDS:] + after[:SENTENCE_WORDS])


def _sentence(side: list[str]) -> set[str]:
    out = set()
    for w in side:
        if w in ".!?":
            break
        out.add(w)
    return out


def buckets(names: list[str]) -> np.ndarray:
    return hashed(names, DIMS)  # as person_context's, into this model's DIMS


DENSE_PARTS = 3


def dense(text: str, start: int, end: int, vector_of) -> np.ndarray:
    """Mean word vector of the ``VECTOR_WORDS`` words before the number, of those after it and of its
    sentence's words (zeros where none), each L2-normalised: ``DENSE_PARTS`` x the vector width."""
    left, right = _sides(text, start, end, alpha=True)
    return np.concatenate([_mean(left[:VECTOR_WORDS], vector_of), _mean(right[:VECTOR_WORDS], vector_of),
                           _mean(sentence_words(text, start, end), vector_of)])
