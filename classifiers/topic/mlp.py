"""The head over frozen dialogue embeddings: MMRC's two-layer MLP, or a linear one.

MMRC §3 uses MPNet + a 2-layer MLP (``hidden`` > 0). ``hidden = 0`` is a linear head: multinomial
logistic regression, class-weighted, L2-penalised (``c`` is the inverse strength, as in
scikit-learn), fitted to convergence with L-BFGS on the whole set. On real chat labelled from four
sources it is the better default: the MLP learns each source's style and falls back to it on chat
from elsewhere (bench/classify_seed.py, leave one source out). Either head may first append the
dialogue's similarity to the topic descriptions (:mod:`classifiers.topic.prototypes`), scaled by
``prototype_weight``; the description vectors travel inside the head (a buffer saved with it). The
dialogue's task traits (:mod:`classifiers.topic.task_traits`) may follow the vector as inputs; the
descriptions are compared with the vector part only.

Training is seeded end to end (init, dropout, batch order) and class-weighted, so the
rare topics of a small seed set are not drowned by the common ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MLPConfig:
    hidden: int = 0  # 0: a linear head (logistic regression); > 0: MMRC's two-layer MLP
    dropout: float = 0.1
    epochs: int = 60
    batch_size: int = 16
    lr: float = 3e-3
    weight_decay: float = 1e-2
    seed: int = 0
    c: float = 4.0  # linear head: inverse L2 strength
    prototype_weight: float = 3.0  # scale of the description similarities (0: not used)


def _prototype_module():
    import torch
    import torch.nn as nn

    class PrototypeFeatures(nn.Module):
        """x -> [x, weight * cos(x, description)]: the zero-shot topic signal beside the vector (the
        first ``dim`` inputs; any after it, the task traits, pass through)."""

        def __init__(self, vectors: np.ndarray | int, dim: int, weight: float, in_features: int | None = None):
            super().__init__()
            rows = vectors if isinstance(vectors, int) else len(vectors)
            init = torch.zeros(rows, dim) if isinstance(vectors, int) else torch.from_numpy(np.asarray(vectors))
            self.register_buffer("vectors", init.float().contiguous())
            self.weight = float(weight)
            self.dim = dim
            self.in_features = in_features or dim

        def forward(self, x):
            return torch.cat([x, self.weight * (x[:, :self.dim] @ self.vectors.T)], dim=-1)

    return PrototypeFeatures


def build_net(in_dim: int, n_classes: int, hidden: int, dropout: float, prototypes: np.ndarray | int = 0,
              prototype_weight: float = 0.0, n_traits: int = 0):
    """The head as an ``nn.Sequential``; ``prototypes`` (vectors, or their count when loading) adds the
    description similarities as its first layer. ``in_dim`` counts the ``n_traits`` task-trait inputs
    that follow the vector (:mod:`classifiers.topic.task_traits`)."""
    import torch.nn as nn

    n_proto = prototypes if isinstance(prototypes, int) else len(prototypes)
    layers = [_prototype_module()(prototypes, in_dim - n_traits, prototype_weight, in_dim)] if n_proto else []
    width = in_dim + n_proto
    if hidden:
        layers += [nn.Linear(width, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, n_classes)]
    else:
        layers += [nn.Linear(width, n_classes)]
    return nn.Sequential(*layers)


def fit_mlp(x: np.ndarray, y: np.ndarray, n_classes: int, config: MLPConfig = MLPConfig(),
            prototypes: np.ndarray | None = None, n_traits: int = 0):
    """Train a fresh head on (x, y); returns the torch module in eval mode. The last ``n_traits``
    columns of ``x`` are task traits, not part of the vector the descriptions are compared with."""
    import torch

    threads = torch.get_num_threads()
    # A 2-layer head on a few hundred rows: thread hand-offs cost more than the maths
    # (15x slower on a busy 2-core machine), and one thread is bit-reproducible.
    torch.set_num_threads(1)
    try:
        if prototypes is not None and config.prototype_weight == 0:
            prototypes = None
        return _fit(torch, x, y, n_classes, config, prototypes, n_traits)
    finally:
        torch.set_num_threads(threads)


def _fit(torch, x, y, n_classes, config, prototypes, n_traits):
    torch.manual_seed(config.seed)
    gen = torch.Generator().manual_seed(config.seed)
    net = build_net(x.shape[1], n_classes, config.hidden, config.dropout,
                    0 if prototypes is None else prototypes, config.prototype_weight, n_traits)
    xt = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
    yt = torch.from_numpy(np.asarray(y, dtype=np.int64))
    counts = torch.bincount(yt, minlength=n_classes).float()
    if not config.hidden:
        present = int((counts > 0).sum())  # scikit-learn's "balanced": n / (classes present * count)
        weights = torch.where(counts > 0, counts.sum() / (present * counts.clamp(min=1)), torch.zeros_like(counts))
        return _fit_linear(torch, net, xt, yt, weights, config.c)
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


def _fit_linear(torch, net, xt, yt, weights, c: float):
    """Multinomial logistic regression: minimise sum_i w_i CE_i + |W|^2 / (2c) (bias not penalised),
    full batch, L-BFGS, in float64 (the same optimum as scikit-learn's ``class_weight="balanced"``)."""
    linear = net[-1]
    features = net[:-1]
    with torch.no_grad():
        z = features(xt).double()
    w = torch.zeros(linear.out_features, z.shape[1], dtype=torch.float64, requires_grad=True)
    b = torch.zeros(linear.out_features, dtype=torch.float64, requires_grad=True)
    sample_w = weights.double()[yt]
    opt = torch.optim.LBFGS([w, b], lr=1, max_iter=500, tolerance_grad=1e-6, tolerance_change=1e-10,
                            history_size=20, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        ce = torch.nn.functional.cross_entropy(z @ w.T + b, yt, reduction="none")
        loss = (sample_w * ce).sum() + (w * w).sum() / (2 * c)
        loss.backward()
        return loss

    opt.step(closure)
    with torch.no_grad():
        linear.weight.copy_(w.float())
        linear.bias.copy_(b.float())
    return net.eval()


def predict_proba(net, x: np.ndarray) -> np.ndarray:
    import torch

    if len(x) == 0:
        return np.zeros((0, net[-1].out_features), dtype=np.float32)
    with torch.no_grad():
        logits = net(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)))
        return torch.softmax(logits, dim=-1).numpy().astype(np.float32)
