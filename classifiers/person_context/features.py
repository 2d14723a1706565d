"""What the person-context model reads about one name span: its context, and its words only as word vectors.

A name's own letters say little about whether its bearer is a private person (a friend called
Chris, Chris Evans); the words around it say a lot ("my roommate X", "X texted me" against "X
as Captain America", "X's new album"). So the features are the words before and after the span
(by position and as a bag), a few sentence cues (first/second person, a question), the span's
shape (how many words, lower case, in the census first-name list, possessive), how the detector
found it (``basis``), whose turn it is and the dialogue's traits (a story, sport and show
business, a worksheet: builder/traits); and the NER model's word vectors of the three words on
each side, so "my nephew" carries over from "my cousin", and of the name's own words (how the
language uses them: "Thor" sits with characters, "Haley" with first names). The name's own words
are never hashed as features, so no name is learnt by heart.

Sparse features are hashed with CRC32 into ``DIMS`` buckets (stable across processes).
"""

from __future__ import annotations

import functools
import re
import zlib

import numpy as np

DIMS = 1 << 15
VECTOR_WORDS = 3  # words each side whose word vectors are averaged
NAME_VECTOR = True  # also the mean vector of the name's own words (how the language uses them)
WINDOW = 5  # words each side in the positional window
TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+|[^\w\s]", re.UNICODE)
FIRST = frozenset("i me my mine myself we us our ours im i'm i’m ive i've id i'd ill i'll".split())
SECOND = frozenset("you your yours u ur youre you're".split())
THIRD = frozenset("he him his she her hers they them their".split())


@functools.lru_cache(maxsize=64)
def _tokens(text: str) -> tuple[tuple[int, int, str], ...]:
    """The turn's tokens, once per turn however many of its spans are judged."""
    return tuple((m.start(), m.end(), m.group().lower()) for m in TOKEN.finditer(text))


def sparse(text: str, start: int, end: int, basis: str | None, role: str, first_names: frozenset[str],
           traits: frozenset[str] = frozenset(), traits_here: frozenset[str] = frozenset()) -> list[str]:
    """The named features of the span ``text[start:end]``; ``traits``: the dialogue's traits
    (builder/traits), ``traits_here``: those that hold at the span's turn."""
    toks = _tokens(text)
    left = [w for s, e, w in toks if e <= start][::-1]  # nearest first
    right = [w for s, e, w in toks if s >= end]
    value = text[start:end]
    words = value.split()
    out = [f"basis={basis or 'none'}", f"role={role}", f"n_words={min(len(words), 3)}",
           *(f"trait={t}" for t in sorted(traits)), *(f"trait_here={t}" for t in sorted(traits_here)),
           f"case={'lower' if value == value.lower() else 'title' if value.istitle() else 'mixed'}"]
    if words and words[0].lower().strip(".,") in first_names:
        out.append("first_name_list")
    if re.match(r"['’]s\b", text[end:end + 3]):
        out.append("possessive")
    before = [(s, e) for s, e, _ in toks if e <= start]
    if not left or left[0] in ".!?" or "\n" in text[before[-1][1]:start]:
        out.append("opens_sentence")
    for k, w in enumerate(left[:WINDOW]):
        out += [f"L{k + 1}={w}", f"L={w}"]
    for k, w in enumerate(right[:WINDOW]):
        out += [f"R{k + 1}={w}", f"R={w}"]
    if len(left) >= 2:
        out.append(f"L12={left[1]}_{left[0]}")
    if len(right) >= 2:
        out.append(f"R12={right[0]}_{right[1]}")
    near = set(left[:12]) | set(right[:12])
    out += [f"W={w}" for w in sorted(near)]
    sentence = _sentence(left, right)
    out += [f"S:{name}" for name, words_ in (("first", FIRST), ("second", SECOND), ("third", THIRD))
            if sentence & words_]
    if "?" in right[:WINDOW + 10]:
        out.append("S:question")
    return out


def _sentence(left: list[str], right: list[str]) -> set[str]:
    before = []
    for w in left:
        if w in ".!?":
            break
        before.append(w)
    after = []
    for w in right:
        if w in ".!?":
            break
        after.append(w)
    return set(before) | set(after)


def dense(text: str, start: int, end: int, vector_of) -> np.ndarray:
    """Mean word vector of the ``VECTOR_WORDS`` words before and after the span and (``NAME_VECTOR``)
    of the span's own words (zeros where none), each L2-normalised: 3 x the vector width."""
    toks = [t for t in _tokens(text) if t[2].isalpha()]
    left = [w for s, e, w in toks if e <= start][::-1][:VECTOR_WORDS]
    right = [w for s, e, w in toks if s >= end][:VECTOR_WORDS]
    name = [w for s, e, w in toks if s >= start and e <= end]
    parts = [_mean(left, vector_of), _mean(right, vector_of)]
    if NAME_VECTOR:
        parts.append(_mean(name, vector_of))
    return np.concatenate(parts)


def _mean(words: list[str], vector_of) -> np.ndarray:
    vecs = [v for v in (vector_of(w) for w in words) if v is not None]
    if not vecs:
        return np.zeros(vector_of.width, dtype=np.float32)
    m = np.mean(vecs, axis=0)
    n = float(np.linalg.norm(m))
    return (m / n if n else m).astype(np.float32)


class Vectors:
    """Word vectors from the NER model's vocabulary (None for a word it has none for)."""

    def __init__(self, vocab):
        self.vocab = vocab
        self.width = vocab.vectors.shape[1]

    def __call__(self, word: str):
        if not self.vocab.has_vector(word):
            return None
        return np.asarray(self.vocab.get_vector(word), dtype=np.float32)


def buckets(names: list[str], dims: int = DIMS) -> np.ndarray:
    """The sorted, distinct hashed columns (CRC32 mod ``dims``) of the feature names: this model's, and the
    number-context and lower-case-name models' into their own ``dims``."""
    return np.array(sorted({zlib.crc32(f.encode("utf-8", "surrogatepass")) % dims for f in names}), dtype=np.int64)
