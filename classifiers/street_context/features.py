"""What the street-context model reads about one word near a number: is it part of a street address?

Street addresses take as many shapes as there are countries and people ("15 Ch. du Lac-Brome",
"Goethestr. 12a", "Rua Augusta, 1508, apto 42", "H.No. 1-8-449", "23/7, 2nd Main Road"), and a
rule per shape only knows the shapes its writer read. Most of them share what this model reads: a
number (a house, a flat, a plot) beside words that are names (capitalised, or a street type word,
or a word ending like one), separated by commas and abbreviations with dots, in a sentence that
places someone ("vivo en", "we're in", "courier not delivered to"). So every word within
``WINDOW`` words of a number-bearing word is judged: its shape, its own word (never digits), its
ending, whether a dictionary has it (a street's own name seldom is a word, what a number counts nearly
always is), whether it is one of the street type words ``builder.clean.addresses`` declares, the same
for its neighbours, how far the nearest number is and what shape it has, and the words before it
in its sentence as a bag (the cue, in any language the training data has).

Sparse features are hashed with CRC32 into ``DIMS`` buckets (stable across processes).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from classifiers.person_context.features import buckets as hashed

DIMS = 1 << 17
WINDOW = 6  # words judged on each side of a number-bearing word
NEIGHBOURS = 3  # positional neighbours read on each side
BAG = 10  # words before a word read as a bag (its cue) ...
BAG_REACH = 30  # ... found within this many tokens before it (and the nearest number within as many)
MAX_ANCHORS = 60  # number-bearing words a turn is read around, at most (the first ones: a table is no one's home)

# A word: letters and digits, joined inside by - / ' . (so "Lac-Brome", "1-8-449", "23/7", "H.No"),
# with a dot after it kept ("Ch.", "Goethestr."); any other mark is a token of its own.
TOKEN = re.compile(r"[^\W_]+(?:[-/'’.][^\W_]+)*\.?|\n|[^\w\s]")


@functools.lru_cache(maxsize=64)
def tokens(text: str) -> tuple[tuple[int, int, str], ...]:
    """``(start, end, token)`` of every token of ``text``."""
    return tuple((m.start(), m.end(), m.group()) for m in TOKEN.finditer(text))


def is_word(token: str) -> bool:
    return any(c.isalnum() for c in token)


def has_digit(token: str) -> bool:
    return any(c.isdigit() for c in token)


def candidates(toks: tuple[tuple[int, int, str], ...]) -> list[int]:
    """The indices of the words judged: every word within ``WINDOW`` words of a number-bearing word
    (the first ``MAX_ANCHORS`` of them)."""
    word_idx = [i for i, (_, _, t) in enumerate(toks) if is_word(t)]
    anchors = [k for k, i in enumerate(word_idx) if has_digit(toks[i][2])][:MAX_ANCHORS]
    keep: set[int] = set()
    for k in anchors:
        keep.update(word_idx[max(0, k - WINDOW):k + WINDOW + 1])
    return sorted(keep)


def full_stop(toks: tuple[tuple[int, int, str], ...], i: int) -> bool:
    """Token ``i`` ends its sentence with its dot ("Lublin. Was ...", "62704. Phone", "in March."), unless
    the dot marks an abbreviation: a word of at most three letters ("ul.", "Ch.", "St."), one with dots
    inside ("H.No."), a street type's abbreviation (addresses.ABBREVIATION_END: "Blvd.", "Pkwy.") or a
    German street's ("Goethestr.")."""
    token = toks[i][2]
    if not token.endswith(".") or len(token) < 2:
        return False
    core = token[:-1]
    following = next((t for _, _, t in toks[i + 1:] if t != "\n"), "")
    if following and not following[:1].isupper():
        return False  # "St. mary's", "approx. 4 km": the sentence goes on
    from builder.clean.addresses import ABBREVIATION_END

    if core.isalpha() and (len(core) <= 3 or ABBREVIATION_END.search(token) or core.lower().endswith("str")):
        return False
    return "." not in core


# English stop words that name a street or its part: "Via Roma", "No. 7", "Am Markt 3", "First Avenue",
# "Back Lane" (with the type words of addresses.py, never taken for a stop word).
ADDRESS_STOP_WORDS = frozenset("no am first second third fifth front back top side".split())


@functools.lru_cache(maxsize=4096)
def stop_word(token: str) -> bool:
    """An English stop word ("our", "in", "the"): it may stand inside an address ("Avenue of the
    Americas") but never begin or end one."""
    from spacy.lang.en.stop_words import STOP_WORDS

    low = token.lower()
    return low in STOP_WORDS and low not in ADDRESS_STOP_WORDS and low not in _types()[0]


def shape(token: str) -> str:
    """Letters and digits as X, x and d, a run of three or more cut to two ("Lac-Brome" -> "Xxx-Xxx", "1-8-449" -> "d-d-dd")."""
    s = re.sub(r"[^\W\d_]", lambda m: "X" if m.group().isupper() else "x", token)
    s = re.sub(r"\d", "d", s)
    return re.sub(r"(.)\1{2,}", r"\1\1", s)


@functools.lru_cache(maxsize=1)
def _types() -> tuple[frozenset, tuple[str, ...]]:
    """Street type words (English, USPS, weak, Australian, prefixed in other languages) and the
    endings of the name-first languages ("-straße", "-veien"), as builder.clean.addresses declares them."""
    from builder.clean import addresses as a

    words = set()
    for group in (a.EN_TYPES, a.USPS_TYPES, a.WEAK_TYPES, a.PREFIX_TYPES):
        for alt in group.split("|"):
            alt = alt.replace("\\", "")
            if re.fullmatch(r"[^\W\d_/]+\.?|c/", alt):
                words.add(alt.rstrip("."))
            else:  # "meadows?", "harbou?r", "callej[oó]n": its plain spellings
                for variant in _spellings(alt):
                    words.add(variant)
    endings = tuple(e for e in a.NAME_FIRST_ENDINGS.split("|") if len(e) >= 3)
    return frozenset(words), endings


def _spellings(alt: str) -> list[str]:
    out = [""]
    i = 0
    while i < len(alt):
        c = alt[i]
        if c == "[":
            j = alt.index("]", i)
            out = [o + x for o in out for x in alt[i + 1:j]]
            i = j + 1
            continue
        if i + 1 < len(alt) and alt[i + 1] == "?":
            out = [o + x for o in out for x in ("", c)]
            i += 2
            continue
        if c in "?.()":
            i += 1
            continue
        out = [o + c for o in out]
        i += 1
    return out


@functools.lru_cache(maxsize=1 << 16)
def kind(token: str) -> tuple[str, ...]:
    """What a token is, never its digits: its shape, its word (letters only), its type-word status."""
    return tuple(_kind(token))


def _kind(token: str) -> list[str]:
    low = token.lower().rstrip(".")
    if token == "\n":
        return ["nl"]
    if not is_word(token):
        return [f"p={token}"]
    out = [f"s={shape(token)}"]
    if has_digit(token):
        digits = sum(c.isdigit() for c in token)
        out.append(f"nd={min(digits, 6)}")
        if re.search(r"(?:st|nd|rd|th|º|ª|°)$", low):
            out.append("ordinal")
        return out
    types, endings = _types()
    out.append(f"w={low}")
    out.append("lex=en" if _english(low) else "lex=oov")
    if low in types:
        out.append("type")
    elif len(low) > 4 and low.endswith(endings):
        out.append("type_end")
    if len(low) >= 5:
        out.append(f"suf={low[-3:]}")
    if token.endswith("."):
        out.append("dot")
    return out


def _english(word: str) -> bool:
    """Whether a dictionary has the word ("pine", "people", "min"): a street's own name seldom is one
    ("dunraven", "hoyne", "ashgrove"), what a number counts nearly always is."""
    from builder.clean.truecase import is_english_word

    return is_english_word(word)


@functools.lru_cache(maxsize=1 << 16)
def _short(token: str) -> tuple[str, ...]:
    """A neighbour's kind, without its word's ending."""
    return tuple(f for f in kind(token) if not f.startswith(("suf=", "nd=")))


def sparse(text: str, toks: tuple[tuple[int, int, str], ...], i: int) -> list[str]:
    """The named features of token ``i`` of ``text``."""
    t = toks[i][2]
    out = [f"o:{f}" for f in kind(t)]
    if toks[i][0] > 0 and text[toks[i][0] - 1] == "\n":
        out.append("o:line_start")
    for d in range(1, NEIGHBOURS + 1):
        for side, j in (("L", i - d), ("R", i + d)):
            if 0 <= j < len(toks):
                out += [f"{side}{d}:{f}" for f in _short(toks[j][2])]
            else:
                out.append(f"{side}{d}:edge")
    # the nearest number-bearing word on each side, within WINDOW words
    for side, step in (("L", -1), ("R", 1)):
        j, words = i + step, 0
        while 0 <= j < len(toks) and words < WINDOW and abs(j - i) <= BAG_REACH:
            if is_word(toks[j][2]):
                words += 1
                if has_digit(toks[j][2]):
                    out += [f"N{side}={words}", f"N{side}s={shape(toks[j][2])}"]
                    break
            elif toks[j][2] in ".!?\n" and toks[j][2] != ".":
                break
            j += step
    # the words before it in its sentence, as a bag: the cue ("address", "vivo en", "delivered to")
    bag: set[str] = set()
    j = i - 1
    while j >= max(0, i - BAG_REACH) and len(bag) < BAG:
        tj = toks[j][2]
        if tj in ("!", "?", "\n") or (tj == "." and j > 0 and not toks[j - 1][2].endswith(".")) or full_stop(toks, j):
            break
        if is_word(tj) and not has_digit(tj):
            bag.add(tj.lower().rstrip("."))
        j -= 1
    out += [f"B={w}" for w in bag]
    if lower_text(text):
        out.append("text_lower")
    return out


@functools.lru_cache(maxsize=64)
def lower_text(text: str) -> bool:
    return not any(c.isupper() for c in text)


def buckets(names: list[str]) -> np.ndarray:
    return np.array(sorted({_bucket(n) for n in names}), dtype=np.int64)


@functools.lru_cache(maxsize=1 << 18)
def _bucket(name: str) -> int:
    return int(hashed([name], DIMS)[0])  # person_context's CRC32 hashing, one name at a time, remembered
