"""The frozen sentence-transformers embedder: the topic classifier's (chunked, cached dialogue
vectors) and swap's (``encode``: short texts) — one class for both.

An :class:`Embedder` is identified by the content hash of its folder (every weight,
config and vocabulary file); that hash keys the embedding cache and is written into a
trained model's config, so ``predict`` can refuse an embedder other than the one the
head was trained on.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from builder.io import sha256_json
from builder.models import folder_fingerprint, resolve_embedder
from classifiers.topic.cache import EmbeddingCache, default_cache_dir, text_hash
from classifiers.topic.text import Chunked, TextConfig, chunk_text, dialogue_text

def embedder_hash(folder: Path) -> str:
    return sha256_json(folder_fingerprint(folder))


@dataclass
class Embedded:
    """Dialogue vectors (L2-normalised, float32) and how each was chunked."""

    vectors: np.ndarray
    chunks: list[int]
    truncated_tokens: list[int]
    stats: dict = field(default_factory=dict)


# float32: reproducible everywhere. bfloat16: on a CPU with native bf16 (AVX512-BF16/AMX) about
# 2.6x faster for MPNet with vectors at cosine >= 0.9997 to float32 (bench/classify_modes.py);
# on other CPUs it can be slower. Dynamic int8 was tried and is not offered: 1.5x faster but
# its MPNet vectors fell to cosine 0.48 on average.
DTYPES = ("float32", "bfloat16")
# On CUDA the embedder runs in bfloat16 with large batches unless told otherwise: MPNet-base on an H200
# embedded 5,302 sequences/s in bf16 at batch 256 x 256 tokens, 804/s in float32 at batch 32 (issue 21).
# Off CUDA float32 and the caller's batch stay: reproducible, and bf16 is slower on CPUs without native bf16.
CUDA_DTYPE = "bfloat16"
CUDA_BATCH = 256


def embedding_precision(device: str, dtype: str | None = None, batch_size: int | None = None,
                        cpu_batch: int = 32) -> tuple[str, int]:
    """(dtype, batch size) the embedder runs with on ``device`` (a resolved device: cpu, cuda, cuda:N):
    what the user gave, else bfloat16 and :data:`CUDA_BATCH` on CUDA, float32 and ``cpu_batch`` elsewhere."""
    on_cuda = device.startswith("cuda")
    if dtype is not None and dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, not {dtype!r}")
    if batch_size is not None and batch_size < 1:
        raise ValueError(f"batch size must be at least 1, not {batch_size}")
    return (dtype or (CUDA_DTYPE if on_cuda else "float32"),
            batch_size or (CUDA_BATCH if on_cuda else cpu_batch))


class Embedder:
    def __init__(self, name_or_path: str, device: str = "cpu", cache_dir: Path | None | bool = True,
                 batch_size: int = 32, dtype: str = "float32"):
        if dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {DTYPES}, not {dtype!r}")
        self.path: Path | None = resolve_embedder(name_or_path)  # None: an in-memory model (from_model)
        given = Path(name_or_path).expanduser()
        self.name = self.path.name if given.is_dir() else name_or_path
        self.files = folder_fingerprint(self.path)
        self.hash = sha256_json(self.files)  # the weights' identity, whatever precision they run in
        self.device = device
        self.batch_size = batch_size
        self.dtype = dtype
        root = default_cache_dir() if cache_dir is True else (None if cache_dir is False else cache_dir)
        # bfloat16 vectors differ in the 4th decimal: they get their own cache, never mixed with float32
        cache_key = self.hash if dtype == "float32" else sha256_json({"embedder": self.hash, "dtype": dtype})
        self.cache = EmbeddingCache(root, cache_key, self.name)
        self._model = None
        self._tokenizer = None

    @classmethod
    def from_model(cls, model, name: str, hash_: str, batch_size: int = 32) -> "Embedder":
        """Wrap an in-memory model (a fine-tuned fold model); its vectors are cached in memory only."""
        self = cls.__new__(cls)
        self.path, self.name, self.files, self.hash = None, name, {}, hash_
        self.device, self.batch_size, self.dtype = str(model.device), batch_size, "float32"
        self.cache = EmbeddingCache(None, hash_, name)
        self._model = model
        self._tokenizer = None
        return self

    @property
    def model(self):
        if self._model is None:
            from builder.errors import ModelError, require
            from builder.models import no_loading_bars

            st = require("sentence_transformers", "sentence-transformers")
            try:
                with no_loading_bars():
                    self._model = st.SentenceTransformer(str(self.path), device=self.device, local_files_only=True)
            except Exception as exc:  # a broken folder raises many kinds of errors
                raise ModelError(f"cannot load the sentence-transformers model at {self.path} ({exc}); run `make "
                                 "models` or pass --embedder PATH to a working sentence-transformers folder") from exc
            if self.dtype == "bfloat16":
                import torch

                self._model = self._model.to(torch.bfloat16)  # vectors come back as float32 numpy
        return self._model

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        """Sentence vectors (L2-normalised float32), no chunking, no cache: for short texts such as
        swap's spans, sentences and image captions (in batches of ``batch_size``, else the embedder's)."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors = self.model.encode(texts, batch_size=batch_size or self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def describe(self) -> dict:
        out = {"name": self.name, "version": self.hash[:12], "hash": self.hash, "files": self.files}
        return out if self.dtype == "float32" else {**out, "dtype": self.dtype}

    def _tokenizer_and_length(self):
        """The embedder's tokenizer and max length, without loading weights when possible:
        a rerun whose chunks are all cached never loads the model."""
        if self._model is not None:
            return self._model.tokenizer, int(self._model.max_seq_length)
        if self._tokenizer is None:
            st_config = self.path / "sentence_bert_config.json"
            if st_config.is_file() and (self.path / "tokenizer_config.json").is_file():
                from transformers import AutoTokenizer

                length = json.loads(st_config.read_text()).get("max_seq_length")
                if length:
                    self._tokenizer = (AutoTokenizer.from_pretrained(str(self.path), local_files_only=True),
                                       int(length))
            if self._tokenizer is None:
                self._tokenizer = (self.model.tokenizer, int(self.model.max_seq_length))
        return self._tokenizer

    def chunk(self, text: str, config: TextConfig) -> Chunked:
        tokenizer, length = self._tokenizer_and_length()
        window = max(8, length - 2) if config.window is None else min(config.window, max(8, length - 2))
        return chunk_text(text, tokenizer, window, config.max_chunks)

    def encode_chunks(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Vectors for distinct chunk texts, from the cache where possible."""
        keys = {text_hash(t): t for t in texts}
        found = self.cache.get(sorted(keys))
        missing = sorted(k for k in keys if k not in found)
        if missing:
            vectors = self.model.encode([keys[k] for k in missing], batch_size=self.batch_size,
                                        convert_to_numpy=True, show_progress_bar=False)
            self.cache.put(missing, vectors)
            found.update(zip(missing, np.asarray(vectors, dtype=np.float32)))
        return found

    def embed_texts(self, texts: list[str], config: TextConfig = TextConfig()) -> Embedded:
        t0 = time.perf_counter()
        hits0, misses0 = self.cache.hits, self.cache.misses
        chunked = [self.chunk(t, config) for t in texts]
        by_key = self.encode_chunks([c for ch in chunked for c in ch.chunks])
        dim = self.model.get_embedding_dimension() if not by_key else len(next(iter(by_key.values())))
        out = np.zeros((len(texts), dim), dtype=np.float32)
        for i, ch in enumerate(chunked):
            weights = np.asarray([max(n, 1) for n in ch.tokens], dtype=np.float32)
            stack = np.stack([by_key[text_hash(c)] for c in ch.chunks])
            pooled = (stack * weights[:, None]).sum(0) / weights.sum()
            out[i] = pooled / max(float(np.linalg.norm(pooled)), 1e-12)
        stats = {"dialogues": len(texts), "chunks": sum(len(c.chunks) for c in chunked),
                 "cache_hits": self.cache.hits - hits0, "cache_misses": self.cache.misses - misses0,
                 "embed_s": time.perf_counter() - t0}
        return Embedded(out, [len(c.chunks) for c in chunked], [c.truncated_tokens for c in chunked], stats)

    def embed_dialogues(self, turns: list[list[dict]], config: TextConfig = TextConfig()) -> Embedded:
        return self.embed_texts([dialogue_text(t, config) for t in turns], config)
