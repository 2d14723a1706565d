"""The street-context model at run time: which words near a number are a street address.

A binary logistic regression over ``features.sparse`` (hashed), trained by ``train.py`` (see
README.md), judges every word within ``features.WINDOW`` words of a number-bearing word; ``spans``
joins the words it takes into addresses. Weights load from ``street_context.safetensors`` beside
this file; its metadata holds the feature version and the threshold chosen out of fold.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from classifiers import context_weights
from classifiers.street_context import features

WEIGHTS = Path(__file__).resolve().parent / "street_context.safetensors"
FEATURES_VERSION = "3"
# What may stand between two words of one address: commas, a "#", brackets, a dash, a slash, a colon.
# A full stop, a question mark or a line break ends it (the line above a street is its addressee's name,
# the lines below it the town and code that addresses.extend_block reads).
JOINERS = frozenset({",", "#", "(", ")", "-", "–", "/", ":", "º", "°", "&"})


def joined(toks, a: int, b: int, cased: bool) -> bool:
    """Words ``a`` < ``b`` belong to one address as far as what stands between them goes: only
    ``JOINERS``, no full stop after ``a``, and, in a text with capitals, a capitalised word or a number
    before a comma ("Rose Cottage, 2 Church Lane", "Road, apto 42"; not "our place, 2215 ...") and
    after a colon ("Sokak No: 14"; not "Main St: bring 2 beers"); in any text, no stop word after a
    comma ("..., in March")."""
    between = [toks[j][2] for j in range(a + 1, b)]
    if not all(t in JOINERS for t in between) or features.full_stop(toks, a):
        return False
    if cased and "," in between and not _named(toks[a][2]):
        return False  # "our place, 2215 ...": before a comma, an address's part is a name or a number
    if "," in between and features.stop_word(toks[b][2].rstrip(".")):
        return False  # "2215 West Fulton Avenue, in March": after a comma, a stop word starts the next clause
    if cased and ":" in between and not _named(toks[b][2]):
        return False  # "12 Main St: bring 2 beers": after a colon, the sentence goes on
    return True


def _named(token: str) -> bool:
    return any(c.isupper() or c.isdigit() for c in token)


def _trim(toks, run: list[int]) -> list[int]:
    """The run without the stop words at its ends ("our place, 2215 ...", "..., in March")."""
    while run and features.stop_word(toks[run[0]][2]):
        run = run[1:]
    while run and features.stop_word(toks[run[-1]][2].rstrip(".")):
        run = run[:-1]
    return run


def end_of(toks, i: int) -> int:
    """Where token ``i`` ends as part of an address: before its full stop when its dot ends the sentence."""
    return toks[i][1] - 1 if features.full_stop(toks, i) else toks[i][1]


def spans(toks, judged: list[int], probs, threshold: float) -> list[tuple[int, int, float]]:
    """``(start, end, score)`` of each run of taken words (``probs[k] >= threshold`` for ``judged[k]``),
    each next to the last ``joined``, without stop words at its ends, holding a number-bearing word and
    a word of two letters or more; the score is the run's lowest word probability."""
    taken = {i: float(p) for i, p in zip(judged, probs) if p >= threshold}
    out = []
    run: list[int] = []

    def close() -> None:
        kept = _trim(toks, run)
        words = [toks[i][2] for i in kept]
        if kept and any(features.has_digit(w) for w in words) and any(sum(c.isalpha() for c in w) >= 2 for w in words):
            out.append((toks[kept[0]][0], end_of(toks, kept[-1]), min(taken[i] for i in kept)))

    last = -1
    cased = any(c.isupper() for _, _, t in toks for c in t)
    for i in sorted(taken):
        if run and joined(toks, last, i, cased):
            run.append(i)
        else:
            if run:
                close()
            run = [i]
        last = i
    if run:
        close()
    return out


class StreetContext:
    def __init__(self, sparse_w: np.ndarray, bias: float, meta: dict):
        self.sparse_w, self.bias, self.meta = sparse_w, bias, meta
        self.threshold = float(meta["threshold"])

    def probabilities(self, text: str, toks, judged: list[int]) -> np.ndarray:
        z = np.array([self.bias + self.sparse_w[features.buckets(features.sparse(text, toks, i))].sum()
                      for i in judged], dtype=np.float64)
        return 1.0 / (1.0 + np.exp(-z))

    def find(self, text: str) -> list[tuple[int, int, float]]:
        """``(start, end, score)`` of the street addresses the model reads in ``text``."""
        toks = features.tokens(text)
        judged = features.candidates(toks)
        if not judged:
            return []
        return spans(toks, judged, self.probabilities(text, toks, judged), self.threshold)


WHAT, SWITCH = "street-context", "--no-street-context"


@functools.cache
def weights_sha256() -> str:
    return context_weights.sha256(WEIGHTS, WHAT, SWITCH)


@functools.cache
def load() -> StreetContext:

    (weights, threshold), meta = context_weights.parse(WEIGHTS, WHAT, SWITCH, lambda t, m: (
        (t["sparse"], t["bias"]), float(m["threshold"])))
    sparse_w, bias = weights
    context_weights.require_fit(WEIGHTS, meta, FEATURES_VERSION, sparse_w.shape == (features.DIMS,)
                                and bias.shape == (1,) and 0 < threshold < 1, "classifiers.street_context.train")
    return StreetContext(sparse_w, float(bias[0]), meta)
