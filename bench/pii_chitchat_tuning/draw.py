"""Draw the chitchat PII tuning set (bench/pii_chitchat_tuning).

Source: chitchat-dataset 0.9.0 (MIT), unpacked at /tmp/ccd/chitchat_dataset/dataset.json.

Exclusions (never drawn):
  * every `source_id` in bench/pii_heldout/labels.jsonl and canaries.jsonl
    (only that field is read; nothing is printed from those files);
  * every chitchat `source_id` in classifiers/topic/seed_real/dialogues.jsonl.

The remaining ids with 4-40 turns (one turn per round) are sorted and
220 are drawn with random.Random(2512).sample.
"""
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from pii_heldout import held_out_source_ids, source_ids  # noqa: E402
SRC = Path("/tmp/ccd/chitchat_dataset/dataset.json")
OUT = Path(__file__).resolve().parent / "dialogues.jsonl"
SEED = 2512
N = 220
MIN_TURNS, MAX_TURNS = 4, 40


def to_turns(conv):
    rounds = [r for r in conv["messages"] if r]
    first = rounds[0][0]["sender"]
    turns = []
    for i, rnd in enumerate(rounds):
        role = "user" if rnd[0]["sender"] == first else "assistant"
        turns.append({"index": i, "role": role,
                      "text": "\n".join(m["text"] for m in rnd)})
    return turns


def main():
    data = json.loads(SRC.read_text())
    excluded = set()
    excluded |= held_out_source_ids()
    excluded |= source_ids(ROOT / "classifiers/topic/seed_real/dialogues.jsonl", "dataset", "chitchat")
    pool = sorted(
        cid for cid, conv in data.items()
        if cid not in excluded
        and MIN_TURNS <= len([r for r in conv["messages"] if r]) <= MAX_TURNS
    )
    drawn = random.Random(SEED).sample(pool, N)
    with open(OUT, "w") as f:
        for n, cid in enumerate(drawn, 1):
            row = {"id": f"cct-{n:03d}", "source": "chitchat-dataset 0.9.0",
                   "source_id": cid, "licence": "MIT",
                   "turns": to_turns(data[cid])}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"excluded ids: {len(excluded & set(data))} in dataset; "
          f"pool: {len(pool)}; drawn: {len(drawn)} -> {OUT}")


if __name__ == "__main__":
    main()
