"""Confidence intervals for eval metrics.

Questions of one dialogue are not independent (they share its history), so means get a
*cluster* bootstrap: dialogues are resampled with replacement, the metric recomputed as
sum / count over the resampled dialogues' questions. The generator is seeded, so the
interval is part of the reproducible output. Proportions with no clustering to speak of
(judge failure rate) get a Wilson interval.
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> list[float] | None:
    if n == 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def cluster_mean(values: Iterable[tuple[str, float]], resamples: int = 1000, seed: int = 0) -> dict:
    """``{"mean", "n", "ci": [lo, hi]}`` for (cluster, value) pairs; ``mean`` None when empty."""
    pairs = [(c, float(v)) for c, v in values]
    if not pairs:
        return {"mean": None, "n": 0, "ci": None}
    clusters: dict[str, list[float]] = {}
    for cluster, value in pairs:
        clusters.setdefault(cluster, []).append(value)
    keys = sorted(clusters)
    sums = np.array([sum(clusters[k]) for k in keys])
    counts = np.array([len(clusters[k]) for k in keys], dtype=float)
    mean = float(sums.sum() / counts.sum())
    ci = None
    if len(keys) > 1 and resamples > 0:
        rng = np.random.default_rng(seed)
        picks = rng.integers(0, len(keys), size=(resamples, len(keys)))
        boot = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
        lo, hi = np.percentile(boot, [2.5, 97.5])
        ci = [round(float(lo), 4), round(float(hi), 4)]
    return {"mean": round(mean, 4), "n": len(pairs), "ci": ci}


def paired_difference(pairs: Iterable[tuple[str, float, float]], resamples: int = 1000, seed: int = 0) -> dict:
    """Mean of a - b over (cluster, a, b) pairs with a cluster-bootstrap CI, and the relative
    difference (mean a - mean b) / mean b in percent."""
    pairs = list(pairs)
    if not pairs:
        return {"n": 0, "mean_a": None, "mean_b": None, "difference": None, "ci": None, "relative_pct": None}
    diff = cluster_mean(((c, a - b) for c, a, b in pairs), resamples, seed)
    mean_a = sum(a for _, a, _ in pairs) / len(pairs)
    mean_b = sum(b for _, _, b in pairs) / len(pairs)
    relative = round(100 * (mean_a - mean_b) / mean_b, 2) if mean_b else None
    return {"n": len(pairs), "mean_a": round(mean_a, 4), "mean_b": round(mean_b, 4), "difference": diff["mean"],
            "ci": diff["ci"], "relative_pct": relative}
