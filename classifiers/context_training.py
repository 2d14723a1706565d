"""What the context models' training scripts share (classifiers/person_context, number_context,
street_context, lower_case_name): their command line, the conversations they may never read, real
chat (chitchat-dataset, Topical-Chat, WildChat's user turns), the written probes' tuning halves and a
value's places in one,
the positives' weight and the hashed feature matrix."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
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


def parse_args(description: str, *extra: tuple[tuple, dict]) -> argparse.Namespace:
    """``--chitchat WHEEL`` (or $MMRC_CHITCHAT_WHEEL; required) and ``--data`` (default ../shared/data),
    with the script's ``extra`` options (``(flags, keywords)`` of ``add_argument``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--chitchat", type=Path, default=os.environ.get("MMRC_CHITCHAT_WHEEL"),
                        help="chitchat-dataset 0.9.0 wheel or its dataset.json")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    for flags, keywords in extra:
        parser.add_argument(*flags, **keywords)
    args = parser.parse_args()
    if not args.chitchat:
        sys.exit("pass --chitchat WHEEL (pip download --no-deps chitchat-dataset==0.9.0 -d DIR)")
    args.chitchat = Path(args.chitchat)
    return args


def tuning_probes(name: str) -> list[dict]:
    """The rows of bench/pii_written_probes/``name`` in its TUNING half (odd ids; the even ids, the check
    half, are never returned), as written; none when the file is absent."""
    sys.path.insert(0, str(ROOT / "bench"))
    from pii_written_probes import half

    path = ROOT / "bench" / "pii_written_probes" / name
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [row for row in rows if half(row["id"]) == "tune"]


def find_all(text: str, value: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every place ``value`` stands in ``text``."""
    return [(m.start(), m.end()) for m in re.finditer(re.escape(value), text)]


def positive_weights(y: np.ndarray, share: float) -> np.ndarray:
    """Sample weights: 1 for a negative row (``y == 0``), and the positives together ``share`` of the
    negatives' weight."""
    pos = y != 0
    w = np.ones(len(y), dtype=np.float64)
    if pos.any():
        w[pos] = share * (~pos).sum() / pos.sum()
    return w


def real_chat_texts(data: Path, chitchat: Path) -> list[tuple[str, str, str]]:
    """``(source, group, text)`` of every message of chitchat-dataset's and Topical-Chat valid_freq's
    conversations (not ``excluded_ids``'), grouped by conversation, and of WildChat's user turns of at
    most 4,000 characters: numbers as people type them."""
    sys.path.insert(0, str(ROOT / "bench"))
    from pii_heldout import load_chitchat, load_topical

    excluded = excluded_ids()  # held-out bench, chitchat tuning bench, topic seed
    texts: list[tuple[str, str, str]] = []
    for cid, turns in load_chitchat(chitchat).items():
        if cid not in excluded:
            texts += [("chitchat", f"chitchat:{cid}", t["text"]) for t in turns]
    for cid, turns in load_topical(data / "topics" / "topical_chat_valid_freq.json").items():
        if cid not in excluded:
            texts += [("topical_chat", f"topical:{cid}", t["text"]) for t in turns]
    return texts + wildchat_user_turns(data, 4000)


def wildchat_user_turns(data: Path, max_chars: int, roles: tuple[str, ...] = ("user",)) -> list[tuple[str, str, str]]:
    """``("wildchat", "wildchat:<file stem>", text)`` of every user turn (or turn of ``roles``) of at most
    ``max_chars`` in ``data``/logs/wildchat (an unreadable file is skipped)."""
    out = []
    for path in sorted((data / "logs" / "wildchat").glob("wildchat_*.json")):
        try:
            conv = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        for c in conv if isinstance(conv, list) else [conv]:
            out += [("wildchat", f"wildchat:{path.stem}", m["content"]) for m in c.get("messages", [])
                    if m.get("role") in roles and isinstance(m.get("content"), str) and len(m["content"]) <= max_chars]
    return out


def hashed_matrix(rows: list, buckets_of, dims: int):
    """A CSR matrix of ones, one row per ``rows`` entry (of any kind) at the columns ``buckets_of(row)`` gives."""
    from scipy.sparse import csr_matrix

    indptr, indices = [0], []
    for r in rows:
        indices.extend(buckets_of(r).tolist())
        indptr.append(len(indices))
    return csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr), shape=(len(rows), dims))
