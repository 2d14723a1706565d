"""Which dialogues an eval run reads: all, the first N by id (``--limit``), or N drawn at random
and stratified by topic (``--sample N --seed S``); modality-swap variants follow their originals.

The draw is reproducible without a random generator's state: within each topic dialogues are
ordered by sha256(seed, dialogue_id), and each topic gets its share of N by largest remainder
(every topic with dialogues gets at least one while N allows), so the same seed on the same
release draws the same dialogues on any machine.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict


def _rank(seed: int, dialogue_id: str) -> str:
    return hashlib.sha256(f"{seed}:{dialogue_id}".encode()).hexdigest()


def stratified_sample(rows: list[tuple[str, str | None]], n: int, seed: int) -> set[str]:
    """``n`` dialogue ids from (dialogue_id, topic) rows, each topic in proportion to its size."""
    by_topic: dict[str, list[str]] = defaultdict(list)
    for dialogue_id, topic in rows:
        by_topic[topic or "none"].append(dialogue_id)
    total = sum(len(ids) for ids in by_topic.values())
    if n >= total:
        return {d for ids in by_topic.values() for d in ids}
    topics = sorted(by_topic)
    quota = {t: n * len(by_topic[t]) / total for t in topics}
    take = {t: int(quota[t]) for t in topics}
    if n >= len(topics):  # every topic is represented
        for t in topics:
            take[t] = max(take[t], 1)
    while sum(take.values()) > n:  # the floors of one-per-topic overshoot: trim the largest shares
        t = max(topics, key=lambda t: (take[t] - quota[t], t))
        take[t] -= 1
    for t in sorted(topics, key=lambda t: (-(quota[t] - take[t]), t)):
        if sum(take.values()) >= n:
            break
        if take[t] < len(by_topic[t]):
            take[t] += 1
    chosen = set()
    for t in topics:
        chosen.update(sorted(by_topic[t], key=lambda d: _rank(seed, d))[: take[t]])
    return chosen


def choose_dialogues(ref, limit: int | None, sample: int | None, seed: int) -> set[str] | None:
    """The ids to evaluate (originals and their variants), or None for every dialogue."""
    if limit is None and sample is None:
        return None
    import pyarrow.parquet as pq

    from builder.eval import source

    rows: list[tuple[str, str | None]] = []  # (dialogue id, topic)
    for path in source.shard_files(ref, "default"):
        table = pq.read_table(path, columns=["dialogue_id", "topic"]).to_pylist()
        rows.extend((r["dialogue_id"], r["topic"]) for r in table)
    if limit is not None:
        chosen = set(sorted(d for d, _ in rows)[:limit])
    else:
        assert sample is not None  # limit or sample, or returned above
        chosen = stratified_sample(rows, sample, seed)
    for path in source.shard_files(ref, "modality_swap"):
        table = pq.read_table(path, columns=["dialogue_id", "variant_of"]).to_pylist()
        chosen.update(r["dialogue_id"] for r in table if r["variant_of"] in chosen)
    return chosen
