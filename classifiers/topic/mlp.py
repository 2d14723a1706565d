"""The two-layer MLP head over frozen dialogue embeddings (MMRC §3: MPNet + 2-layer MLP).

Training is seeded end to end (init, dropout, batch order) and class-weighted, so the
rare topics of a small seed set are not drowned by the common ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MLPConfig:
    hidden: int = 256
    dropout: float = 0.1
    epochs: int = 60
    batch_size: int = 16
    lr: float = 3e-3
    weight_decay: float = 1e-2
    seed: int = 0


def build_net(in_dim: int, n_classes: int, hidden: int, dropout: float):
    import torch.nn as nn

    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, n_classes))


def fit_mlp(x: np.ndarray, y: np.ndarray, n_classes: int, config: MLPConfig = MLPConfig()):
    """Train a fresh head on (x, y); returns the torch module in eval mode."""
    import torch

    threads = torch.get_num_threads()
    # A 2-layer head on a few hundred rows: thread hand-offs cost more than the maths
    # (15x slower on a busy 2-core machine), and one thread is bit-reproducible.
    torch.set_num_threads(1)
    try:
        return _fit(torch, x, y, n_classes, config)
    finally:
        torch.set_num_threads(threads)


def _fit(torch, x, y, n_classes, config):
    torch.manual_seed(config.seed)
    gen = torch.Generator().manual_seed(config.seed)
    net = build_net(x.shape[1], n_classes, config.hidden, config.dropout)
    xt = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
    yt = torch.from_numpy(np.asarray(y, dtype=np.int64))
    counts = torch.bincount(yt, minlength=n_classes).float()
    weights = torch.where(counts > 0, counts.sum() / (n_classes * counts.clamp(min=1)), torch.zeros_like(counts))
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights)
    opt = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    net.train()
    for _ in range(config.epochs):
        order = torch.randperm(len(yt), generator=gen)
        for start in range(0, len(order), config.batch_size):
            idx = order[start:start + config.batch_size]
            opt.zero_grad()
            loss_fn(net(xt[idx]), yt[idx]).backward()
            opt.step()
    return net.eval()


def predict_proba(net, x: np.ndarray) -> np.ndarray:
    import torch

    if len(x) == 0:
        return np.zeros((0, net[-1].out_features), dtype=np.float32)
    with torch.no_grad():
        logits = net(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)))
        return torch.softmax(logits, dim=-1).numpy().astype(np.float32)
