"""SetFit-style contrastive fine-tuning of the embedder (beyond the paper).

SetFit (Tunstall et al. 2022) first fine-tunes a sentence-transformer on pairs built from
the few labelled examples - same topic -> cosine 1, different topic -> cosine 0, with
sentence-transformers' ``CosineSimilarityLoss`` - then fits a head on the tuned
embeddings. Here the head is the same one (`mlp.py`), so the two methods differ only in
the embedder, and are compared on the same folds.

During fine-tuning each dialogue is represented by its first ``max_seq_length`` tokens
(user turns come first, so that is the user's request); inference uses the tuned model
with the usual chunk-and-pool rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class ContrastiveConfig:
    pairs_per_item: int = 8  # SetFit's num_iterations x 2: half positive, half negative
    epochs: int = 1
    batch_size: int = 16
    lr: float = 2e-5
    max_seq_length: int = 128


def make_pairs(y: np.ndarray, pairs_per_item: int, seed: int) -> list[tuple[int, int, float]]:
    """(i, j, target) pairs: for each item, half positives (same label) and half negatives."""
    rng = np.random.default_rng(seed)
    y = np.asarray(y)
    pairs = []
    for i, label in enumerate(y):
        same = np.flatnonzero((y == label) & (np.arange(len(y)) != i))
        other = np.flatnonzero(y != label)
        for r in range(pairs_per_item):
            pool, target = (same, 1.0) if r % 2 == 0 else (other, 0.0)
            if len(pool):
                pairs.append((i, int(rng.choice(pool)), target))
    order = rng.permutation(len(pairs))
    return [pairs[k] for k in order]


def fine_tune(embedder_path: Path, texts: list[str], y: np.ndarray, config: ContrastiveConfig,
              seed: int = 0, device: str = "cpu"):
    """A fine-tuned copy of the sentence-transformer at ``embedder_path`` (in memory, eval mode)."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import CosineSimilarityLoss

    torch.manual_seed(seed)
    model = SentenceTransformer(str(embedder_path), device=device, local_files_only=True)
    inference_len = model.max_seq_length
    assert inference_len is not None  # a transformer-backed sentence-transformer has its length limit
    model.max_seq_length = min(config.max_seq_length, inference_len)
    loss_fn = CosineSimilarityLoss(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr)
    model.train()
    for epoch in range(config.epochs):
        pairs = make_pairs(y, config.pairs_per_item, seed + epoch)
        for start in range(0, len(pairs), config.batch_size):
            batch = pairs[start:start + config.batch_size]
            left = _features(model, [texts[i] for i, _, _ in batch], device)
            right = _features(model, [texts[j] for _, j, _ in batch], device)
            target = torch.tensor([t for _, _, t in batch], dtype=torch.float32, device=device)
            optimizer.zero_grad()
            loss_fn([left, right], target).backward()
            optimizer.step()
    model.max_seq_length = inference_len
    return model.eval()


def _features(model, texts: list[str], device: str) -> dict:
    features = model.preprocess(texts)
    return {k: v.to(device) if hasattr(v, "to") else v for k, v in features.items()}
