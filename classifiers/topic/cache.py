"""Embedding cache keyed by (embedder hash, text hash): nothing is embedded twice.

Layout (no pickle: ``.npy`` loaded with ``allow_pickle=False`` + JSON)::

    ROOT/<embedder-hash[:24]>/meta.json             {"embedder": name, "hash": full hash, "dim": n}
    ROOT/<embedder-hash[:24]>/batch-<id>.npy        float32 [n, dim]
    ROOT/<embedder-hash[:24]>/batch-<id>.json       [text sha256, ...] (row i of the .npy)

Each :meth:`put` writes one new batch (``.npy`` first, then its key list, both by atomic
rename), so a killed run leaves either a whole batch or nothing, and two processes
filling the same cache never overwrite each other's work. There is no global index to
race on: the key lists are read at open.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from builder.errors import ConfigError


def default_cache_dir() -> Path:
    env = os.environ.get("MMRC_CACHE")
    if env:
        return Path(env).expanduser() / "embeddings"
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "mmrc-build" / "embeddings"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors for one embedder; ``root=None`` keeps them in memory only (``--no-cache``)."""

    def __init__(self, root: Path | None, embedder_hash: str, embedder_name: str = ""):
        self.folder = Path(root) / embedder_hash[:24] if root is not None else None
        self.embedder_hash = embedder_hash
        self.embedder_name = embedder_name
        self._where: dict[str, tuple[str, int]] = {}
        self._arrays: dict[str, np.ndarray] = {}
        self.hits = 0
        self.misses = 0
        if self.folder is not None and self.folder.is_dir():
            self._check_meta()
            for keys in sorted(self.folder.glob("batch-*.json")):
                if keys.with_suffix(".npy").exists():
                    for row, key in enumerate(json.loads(keys.read_text())):
                        self._where.setdefault(key, (keys.stem, row))

    def _check_meta(self) -> None:
        assert self.folder is not None  # called only with a cache folder
        meta = self.folder / "meta.json"
        if meta.exists():
            stored = json.loads(meta.read_text()).get("hash")
            if stored != self.embedder_hash:
                raise ConfigError(
                    f"embedding cache {self.folder} belongs to embedder hash {stored}, not {self.embedder_hash}; "
                    "remove that folder or pass another --cache"
                )

    def _array(self, batch: str) -> np.ndarray:
        if batch not in self._arrays:
            assert self.folder is not None  # put() keeps every batch in memory: only one read from disk is missing
            self._arrays[batch] = np.load(self.folder / f"{batch}.npy", allow_pickle=False)
        return self._arrays[batch]

    def get(self, keys: list[str]) -> dict[str, np.ndarray]:
        found = {}
        for key in keys:
            where = self._where.get(key)
            if where is not None:
                found[key] = self._array(where[0])[where[1]]
        self.hits += len(found)
        self.misses += len(set(keys)) - len(found)
        return found

    def put(self, keys: list[str], vectors: np.ndarray) -> None:
        if not keys:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        batch = "batch-" + hashlib.sha256("\n".join(keys).encode()).hexdigest()[:24]
        self._arrays[batch] = vectors
        for row, key in enumerate(keys):
            self._where.setdefault(key, (batch, row))
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        meta = self.folder / "meta.json"
        if not meta.exists():
            _atomic_write(meta, json.dumps(
                {"embedder": self.embedder_name, "hash": self.embedder_hash, "dim": int(vectors.shape[1])}
            ).encode())
        tmp = self.folder / f".{batch}.{os.getpid()}.npy"
        np.save(tmp, vectors, allow_pickle=False)
        os.replace(tmp, self.folder / f"{batch}.npy")
        _atomic_write(self.folder / f"{batch}.json", json.dumps(keys).encode())


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
