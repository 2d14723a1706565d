"""Scores cached by (model hash, text hash): chat logs repeat the same messages a lot."""

from __future__ import annotations

import hashlib


def text_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class ScoreCache:
    """In-process cache; ``model_key`` changes whenever weights or scoring settings do."""

    def __init__(self, model_key: str, max_items: int = 1_000_000):
        self.model_key = model_key
        self.max_items = max_items
        self._scores: dict[str, dict[str, float]] = {}
        self.hits = 0
        self.misses = 0

    def get(self, text: str) -> dict[str, float] | None:
        found = self._scores.get(text_key(text))
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, text: str, scores: dict[str, float]) -> None:
        if len(self._scores) >= self.max_items:
            self._scores.clear()  # bounded memory beats an LRU's bookkeeping here
        self._scores[text_key(text)] = scores

    def stats(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses}
