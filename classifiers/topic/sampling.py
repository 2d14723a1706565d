"""What to label next: propose unlabelled dialogues to annotators, stratified.

Two strategies, the loop a team uses to reach 50 labelled dialogues per topic:

* ``model``: a first (seed) model scores everything; topics take turns picking their
  highest-scoring remaining dialogue, so rare topics get their best candidates too,
  rather than the common topics' spill-over.
* ``clusters``: no model yet; seeded k-means on the embeddings, then the dialogues
  nearest each centroid (the most typical of each cluster).
"""

from __future__ import annotations

import numpy as np

from builder.errors import ConfigError
from builder.records import TOPICS

STRATEGIES = ("model", "clusters")


def by_model(scores: np.ndarray, per_topic: int) -> list[tuple[int, str, float]]:
    """(row, proposed topic, score) picks; round-robin over topics, each row picked once."""
    taken: set[int] = set()
    order = {j: list(np.lexsort((np.arange(len(scores)), -scores[:, j]))) for j in range(len(TOPICS))}
    cursor = {j: 0 for j in order}
    picks = []
    for _ in range(per_topic):
        for j in range(len(TOPICS)):
            ranked = order[j]
            while cursor[j] < len(ranked) and ranked[cursor[j]] in taken:
                cursor[j] += 1
            if cursor[j] == len(ranked) or scores[ranked[cursor[j]], j] <= 0:
                continue  # no candidates left, or a topic the model was not trained on
            row = int(ranked[cursor[j]])
            taken.add(row)
            picks.append((row, TOPICS[j], float(scores[row, j])))
    return picks


def kmeans(x: np.ndarray, k: int, seed: int = 0, iterations: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Seeded k-means++ (cosine on normalised vectors): (assignments, centroids)."""
    if k < 1:
        raise ConfigError(f"--clusters must be at least 1 (got {k})")
    k = min(k, len(x))
    rng = np.random.default_rng(seed)
    seeds = [x[rng.integers(len(x))]]
    for _ in range(1, k):
        dist = np.min([((x - c) ** 2).sum(1) for c in seeds], axis=0)
        probs = dist / dist.sum() if dist.sum() > 0 else np.full(len(x), 1 / len(x))
        seeds.append(x[rng.choice(len(x), p=probs)])
    centroids = np.stack(seeds)
    assign = np.zeros(len(x), dtype=np.int64)
    for _ in range(iterations):
        new = ((centroids ** 2).sum(1)[None, :] - 2 * x @ centroids.T).argmin(1)
        if _ and np.array_equal(new, assign):
            break
        assign = new
        for c in range(k):
            if (assign == c).any():
                centroids[c] = x[assign == c].mean(0)
    return assign, centroids


def by_clusters(x: np.ndarray, n_clusters: int, per_cluster: int, seed: int = 0) -> list[tuple[int, int, float]]:
    """(row, cluster, distance to centroid) for the ``per_cluster`` most central rows of each cluster."""
    assign, centroids = kmeans(x, n_clusters, seed)
    picks = []
    for c in range(len(centroids)):
        rows = np.flatnonzero(assign == c)
        dist = ((x[rows] - centroids[c]) ** 2).sum(1)
        for r in np.lexsort((rows, dist))[:per_cluster]:
            picks.append((int(rows[r]), c, float(np.sqrt(dist[r]))))
    return picks
