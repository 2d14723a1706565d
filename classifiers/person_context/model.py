"""The person-context model at run time: P(a name span is a private person's | its context).

A logistic regression over ``features.sparse`` (hashed) and ``features.dense`` (word vectors),
trained by ``train.py`` on hand-labelled names in real person-to-person chat (see README.md).
Weights load from ``person_context.safetensors`` beside this file; its metadata holds the
feature version and the operating threshold chosen out of fold.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from classifiers import context_weights
from classifiers.person_context import features

WEIGHTS = Path(__file__).resolve().parent / "person_context.safetensors"
FEATURES_VERSION = "3"
# The bar for a found name on the second side of a peer chat that is not about professional sport or
# show business (no trait ``public_life``): recall first, the lowest threshold whose precision on the
# round-4 names outside such chats (hand-labelled, never learnt) is at least 1/2, one wrong redaction for
# each right one (bench/pii_second_side.py: ``model.outside_public_life``). Where the chat is about
# players and stars the weights' own ``threshold`` (precision 2/3 out of fold) holds.
THRESHOLD_PERSONAL_CHAT = 0.3
PERSONAL_CHAT_PRECISION = 0.5


class PersonContext:
    def __init__(self, sparse_w: np.ndarray, dense_w: np.ndarray, bias: float, meta: dict, vectors, first_names):
        self.sparse_w, self.dense_w, self.bias, self.meta = sparse_w, dense_w, bias, meta
        self.threshold = float(meta["threshold"])  # names a finder found, on the second side of a peer chat
        self.threshold_unfound = float(meta["threshold_unfound"])  # words no finder found (context_names.py)
        self.threshold_personal_chat = min(self.threshold, THRESHOLD_PERSONAL_CHAT)  # ... in a chat not about stars
        self.vectors, self.first_names = vectors, first_names

    def probability(self, text: str, start: int, end: int, basis: str | None, role: str,
                    traits: frozenset[str] = frozenset(), traits_here: frozenset[str] = frozenset()) -> float:
        idx = features.buckets(features.sparse(text, start, end, basis, role, self.first_names, traits, traits_here))
        z = self.bias + float(self.sparse_w[idx].sum())
        if self.dense_w.size:
            z += float(self.dense_w @ features.dense(text, start, end, self.vectors))
        return 1.0 / (1.0 + np.exp(-z))


WHAT, SWITCH = "person-context", "--no-person-context"


@functools.cache
def weights_sha256() -> str:
    return context_weights.sha256(WEIGHTS, WHAT, SWITCH)


@functools.cache
def load() -> PersonContext:
    from builder.clean.names import first_names

    (weights, thresholds), meta = context_weights.parse(WEIGHTS, WHAT, SWITCH, lambda t, m: (
        (t["sparse"], t["dense"], float(t["bias"][0])), (float(m["threshold"]), float(m["threshold_unfound"]))))
    context_weights.require_fit(WEIGHTS, meta, FEATURES_VERSION, weights[0].shape == (features.DIMS,) and all(
        0 < t < 1 for t in thresholds), "classifiers.person_context.train")
    vectors = context_weights.ner_vectors(
        WEIGHTS, lambda width: weights[1].size in (0, width * (3 if features.NAME_VECTOR else 2)),
        "classifiers.person_context.train")
    sparse_w, dense_w, bias = weights
    return PersonContext(sparse_w, dense_w, bias, meta, vectors, first_names())
