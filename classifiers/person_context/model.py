"""The person-context model at run time: P(a name span is a private person's | its context).

A logistic regression over ``features.sparse`` (hashed) and ``features.dense`` (word vectors),
trained by ``train.py`` on hand-labelled names in real person-to-person chat (see README.md).
Weights load from ``person_context.safetensors`` beside this file; its metadata holds the
feature version and the operating threshold chosen out of fold.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from classifiers.person_context import features

WEIGHTS = Path(__file__).resolve().parent / "person_context.safetensors"
FEATURES_VERSION = "2"


class PersonContext:
    def __init__(self, sparse_w: np.ndarray, dense_w: np.ndarray, bias: float, meta: dict, vectors, first_names):
        self.sparse_w, self.dense_w, self.bias, self.meta = sparse_w, dense_w, bias, meta
        self.threshold = float(meta["threshold"])  # names a finder found, on the second side of a peer chat
        self.threshold_unfound = float(meta["threshold_unfound"])  # words no finder found (context_names.py)
        self.vectors, self.first_names = vectors, first_names

    def probability(self, text: str, start: int, end: int, basis: str | None, role: str,
                    traits: frozenset[str] = frozenset(), traits_here: frozenset[str] = frozenset()) -> float:
        idx = features.buckets(features.sparse(text, start, end, basis, role, self.first_names, traits, traits_here))
        z = self.bias + float(self.sparse_w[idx].sum())
        if self.dense_w.size:
            z += float(self.dense_w @ features.dense(text, start, end, self.vectors))
        return 1.0 / (1.0 + np.exp(-z))


@functools.cache
def weights_sha256() -> str:
    import hashlib

    return hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()


@functools.cache
def load() -> PersonContext:
    from safetensors import safe_open
    from safetensors.numpy import load_file

    from builder.clean.names import first_names
    from builder.clean.recognizers import load_ner

    tensors = load_file(str(WEIGHTS))
    with safe_open(str(WEIGHTS), framework="numpy") as f:
        meta = json.loads(f.metadata()["meta"])
    if meta.get("features_version") != FEATURES_VERSION:
        raise ValueError(f"{WEIGHTS.name} was trained on features version {meta.get('features_version')}, "
                         f"this code reads version {FEATURES_VERSION}: rerun classifiers/person_context/train.py")
    return PersonContext(tensors["sparse"], tensors["dense"], float(tensors["bias"][0]), meta,
                         features.Vectors(load_ner().vocab), first_names())
