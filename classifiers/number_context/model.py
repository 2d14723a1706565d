"""The number-context model at run time: which personal number (if any) a run of digits is, from its
shape and its context.

A multinomial logistic regression over ``features.sparse`` (hashed) and ``features.dense`` (word
vectors), trained by ``train.py`` (see README.md). Weights load from ``number_context.safetensors``
beside this file; its metadata holds the feature version, the classes and the operating threshold
chosen out of fold.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from classifiers import context_weights
from classifiers.number_context import features

WEIGHTS = Path(__file__).resolve().parent / "number_context.safetensors"
FEATURES_VERSION = "2"


class NumberContext:
    def __init__(self, sparse_w: np.ndarray, dense_w: np.ndarray, bias: np.ndarray, meta: dict, vectors):
        self.sparse_w, self.dense_w, self.bias, self.meta = sparse_w, dense_w, bias, meta
        self.threshold = float(meta["threshold"])
        self.classes = tuple(meta["classes"])
        self.vectors = vectors

    def judge(self, text: str, start: int, end: int) -> tuple[float, str]:
        """(the probability that ``text[start:end]`` is someone's personal number, its likeliest kind)."""
        idx = features.buckets(features.sparse(text, start, end))
        z = self.bias + self.sparse_w[:, idx].sum(axis=1)
        if self.dense_w.size:
            z = z + self.dense_w @ features.dense(text, start, end, self.vectors)
        p = np.exp(z - z.max())
        p /= p.sum()
        return float(1.0 - p[0]), self.classes[1 + int(np.argmax(p[1:]))]


WHAT, SWITCH = "number-context", "--no-number-context"


@functools.cache
def weights_sha256() -> str:
    return context_weights.sha256(WEIGHTS, WHAT, SWITCH)


@functools.cache
def load() -> NumberContext:
    (weights, threshold), meta = context_weights.parse(WEIGHTS, WHAT, SWITCH, lambda t, m: (
        (t["sparse"], t["dense"], t["bias"]), float(m["threshold"])))
    n = len(features.CLASSES)
    context_weights.require_fit(WEIGHTS, meta, FEATURES_VERSION, tuple(meta.get("classes", ())) == features.CLASSES
                                and weights[0].shape == (n, features.DIMS) and weights[2].shape == (n,)
                                and 0 < threshold < 1, "classifiers.number_context.train")
    vectors = context_weights.ner_vectors(
        WEIGHTS, lambda width: not weights[1].size or weights[1].shape == (n, features.DENSE_PARTS * width),
        "classifiers.number_context.train")
    sparse_w, dense_w, bias = weights
    return NumberContext(sparse_w, dense_w, bias, meta, vectors)
