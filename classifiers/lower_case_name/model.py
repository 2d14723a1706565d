"""The lower-case-name model at run time: P(a lower-case word is a name its writer did not capitalise).

A logistic regression over ``features.sparse`` (hashed) and ``features.dense`` (word vectors),
trained by ``train.py`` on names that careful writers capitalised in real chat, lower-cased in
their own sentences (see README.md). Weights load from ``lower_case_name.safetensors`` beside this
file; its metadata holds the feature version and the operating threshold chosen out of fold.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from classifiers import context_weights
from classifiers.lower_case_name import features

WEIGHTS = Path(__file__).resolve().parent / "lower_case_name.safetensors"
FEATURES_VERSION = "2"  # 2: census_word candidates, the word's letter triples


class LowerCaseName:
    def __init__(self, sparse_w: np.ndarray, dense_w: np.ndarray, bias: float, meta: dict, vectors):
        self.sparse_w, self.dense_w, self.bias, self.meta = sparse_w, dense_w, bias, meta
        self.threshold = float(meta["threshold"])
        self.vectors = vectors

    def probability(self, text: str, start: int, end: int) -> float:
        idx = features.buckets(features.sparse(text, start, end))
        z = self.bias + float(self.sparse_w[idx].sum())
        if self.dense_w.size:
            z += float(self.dense_w @ features.dense(text, start, end, self.vectors))
        return float(1.0 / (1.0 + np.exp(-z)))


WHAT, SWITCH = "lower-case-name", "--no-lower-case-names"


@functools.cache
def weights_sha256() -> str:
    return context_weights.sha256(WEIGHTS, WHAT, SWITCH)


@functools.cache
def load() -> LowerCaseName:
    (weights, threshold), meta = context_weights.parse(WEIGHTS, WHAT, SWITCH, lambda t, m: (
        (t["sparse"], t["dense"], float(t["bias"][0])), float(m["threshold"])))
    context_weights.require_fit(WEIGHTS, meta, FEATURES_VERSION, weights[0].shape == (features.DIMS,) and 0 < threshold < 1,
                                "classifiers.lower_case_name.train")
    vectors = context_weights.ner_vectors(WEIGHTS, lambda width: weights[1].size in (0, 3 * width),
                                          "classifiers.lower_case_name.train")
    sparse_w, dense_w, bias = weights
    return LowerCaseName(sparse_w, dense_w, bias, meta, vectors)
