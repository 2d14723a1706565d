"""What the context models' training scripts share (classifiers/person_context, number_context,
lower_case_name): the conversations they may never read, WildChat's user turns as real chat, and
the hashed feature matrix."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# Never drawn or trained on: the held-out bench (labels and canaries), the chitchat tuning bench and the
# topic seed. Only their ``source_id`` fields are read.
EXCLUDE = ("bench/pii_heldout/labels.jsonl", "bench/pii_heldout/canaries.jsonl",
           "bench/pii_chitchat_tuning/dialogues.jsonl", "classifiers/topic/seed_real/dialogues.jsonl")


def source_ids(path: Path) -> set[str]:
    return {json.loads(line).get("source_id") for line in path.read_text().splitlines() if line.strip()}


def excluded_ids() -> set[str]:
    """Every ``source_id`` of the files in ``EXCLUDE``."""
    return set().union(*(source_ids(ROOT / p) for p in EXCLUDE))


def wildchat_user_turns(data: Path, max_chars: int) -> list[tuple[str, str, str]]:
    """``("wildchat", "wildchat:<file stem>", text)`` of every user turn of at most ``max_chars`` in
    ``data``/logs/wildchat (an unreadable file is skipped)."""
    out = []
    for path in sorted((data / "logs" / "wildchat").glob("wildchat_*.json")):
        try:
            conv = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        for c in conv if isinstance(conv, list) else [conv]:
            out += [("wildchat", f"wildchat:{path.stem}", m["content"]) for m in c.get("messages", [])
                    if m.get("role") == "user" and isinstance(m.get("content"), str) and len(m["content"]) <= max_chars]
    return out


def hashed_matrix(rows: list, buckets_of, dims: int):
    """A CSR matrix of ones, one row per ``rows`` entry (of any kind) at the columns ``buckets_of(row)`` gives."""
    from scipy.sparse import csr_matrix

    indptr, indices = [0], []
    for r in rows:
        indices.extend(buckets_of(r).tolist())
        indptr.append(len(indices))
    return csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr), shape=(len(rows), dims))
