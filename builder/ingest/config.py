"""Ingest configuration: everything that changes the output is here (and in the manifest)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IngestConfig:
    format: str = "auto"  # or a reader name from builder.ingest.readers.READERS
    min_turns: int = 4  # MMRC keeps dialogues of 4-22 turns (messages, system turns excluded)
    max_turns: int = 22
    near_dup_threshold: float = 0.85  # Jaccard over user-turn shingles; 1.0 disables near-dup
    minhash_perms: int = 64
    shingle_words: int = 3
    max_message_chars: int = 32_000
    max_image_pixels: int = 40_000_000
    max_image_bytes: int = 25_000_000
    user_salt_env: str = "MMRC_USER_SALT"  # the env var's *name*; the salt itself is never recorded
    shard_rows: int = 5_000  # dialogues per output part
    chunk_rows: int = 2_000  # dialogues buffered per raw file before spilling to disk

    def __post_init__(self):
        from builder.errors import ConfigError

        if not 1 <= self.min_turns <= self.max_turns:
            raise ConfigError(
                f"turn range {self.min_turns}-{self.max_turns} is empty; set --min-turns <= --max-turns (>= 1)"
            )
        if not 0.0 < self.near_dup_threshold <= 1.0:
            raise ConfigError("--near-dup-threshold must be in (0, 1]; use 1.0 to keep near-duplicates")
        for name in ("max_message_chars", "max_image_pixels", "max_image_bytes", "shard_rows", "chunk_rows"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name.replace('_', '-')} must be positive")
