"""The swap stage's configuration (recorded in the manifest; part of the resume state)."""

from __future__ import annotations

from dataclasses import dataclass

from builder.errors import ConfigError
from builder.models import MINILM, SPACY_PACKAGE


@dataclass(frozen=True)
class SwapConfig:
    count: int = 100  # variants to make (MMRC rewrote 100 conversations)
    seed: int = 0  # orders the dialogues: the selection is a pure function of (seed, ids)
    image_source: str = "bank"
    image_bank: str | None = None
    source_hash: str = ""  # content hash of the bank / pipeline, filled in by the stage
    threshold: float = 0.5  # minimum retrieval score; below it: no_matching_image
    span_weight: float = 0.7  # score = w * cos(span, caption) + (1 - w) * cos(sentence, caption)
    top_k: int = 5  # images considered per span (the best one not used yet in the dialogue wins)
    embedder: str = MINILM
    embedder_dtype: str = "float32"  # off CUDA; the CLI picks bfloat16 on CUDA (classifiers.topic.embed)
    embedder_batch: int = 64  # off CUDA; the CLI picks classifiers.topic.embed.CUDA_BATCH on CUDA
    spacy_model: str = SPACY_PACKAGE
    min_category_score: float = 0.35  # embedder similarity a noun needs to count as picturable
    swaps_per_dialogue: int = 1  # at most one per turn
    max_candidates: int = 8  # per dialogue, most picturable first
    max_image_pixels: int = 40_000_000
    max_image_bytes: int = 20 * 2**20
    t2i_model: str | None = None
    t2i_steps: int = 25
    t2i_size: int = 512

    def validate(self) -> "SwapConfig":
        if self.count < 0:
            raise ConfigError(f"--count must be 0 or more (got {self.count})")
        if not -1.0 <= self.threshold <= 1.0:
            raise ConfigError(f"--threshold is a cosine score in [-1, 1] (got {self.threshold})")
        if not 0.0 <= self.span_weight <= 1.0:
            raise ConfigError(f"--span-weight must be in [0, 1] (got {self.span_weight})")
        if self.embedder_dtype not in ("float32", "bfloat16") or self.embedder_batch < 1:
            raise ConfigError("--embedder-dtype must be float32 or bfloat16 and --embedder-batch at least 1")
        if self.swaps_per_dialogue < 1 or self.top_k < 1 or self.max_candidates < 1:
            raise ConfigError("--swaps-per-dialogue, --top-k and --max-candidates must be at least 1")
        return self
