"""PII on real human–human chat, TUNING split: bench/pii_chitchat_tuning/ (220 chitchat-dataset
conversations labelled by hand, drawn apart from the held-out set's; read as closely as needed).

What `clean` runs in-process (detector, policy, redaction) on each conversation; scored per value:
a must-redact value is removed when its text no longer stands as a word in its turn; a must-keep
value is damaged when it is gone. Split: tuned on WildChat, the wide canaries' family A and this
set; held out: bench/pii_heldout.py (its chitchat conversations are excluded here by id).

Usage: python bench/pii_chitchat_tuning.py [--show N]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "pii_chitchat_tuning"


def present(value: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def score(show: int = 0) -> dict:
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue

    dialogues = [json.loads(line) for line in (DATA / "dialogues.jsonl").read_text().splitlines()]
    labels = {r["id"]: r for r in map(json.loads, (DATA / "labels.jsonl").read_text().splitlines())}
    config = CleanConfig()
    turns_of = {d["id"]: [{**t, "images": []} for t in d["turns"]] for d in dialogues}
    flat = iter(PiiDetector(config).scan([t["text"] for d in dialogues for t in turns_of[d["id"]]], None,
                                         [k > 0 for d in dialogues for k in range(len(turns_of[d["id"]]))]))
    redact, keep = defaultdict(Counter), defaultdict(Counter)
    misses, damage, dropped = [], [], 0
    for d in dialogues:
        turns = turns_of[d["id"]]
        scans = [next(flat) for _ in turns]
        red = redact_dialogue(d["id"], turns, scans, config)
        if red.reason:
            dropped += 1
            continue
        for v in labels[d["id"]]["must_redact"]:
            role = turns[v["turn"]]["role"]
            gone = not present(v["text"], red.turns[v["turn"]]["text"])
            for key in (v["kind"], f"{v['kind']}:{role}"):
                redact[key]["removed" if gone else "left"] += 1
            if not gone:
                rules = sorted({s["suppressed_by"] for s in red.suppressed if s["turn"] == v["turn"]
                                and v["text"] in turns[v["turn"]]["text"][s["start"]:s["end"]]})
                misses.append((d["id"], role, v["text"], rules, turns[v["turn"]]["text"][:160]))
        for v in labels[d["id"]]["must_keep"]:
            ok = present(v["text"], red.turns[v["turn"]]["text"])
            keep[v["kind"]]["kept" if ok else "damaged"] += 1
            if not ok:
                damage.append((d["id"], v["kind"], v["text"], turns[v["turn"]]["text"][:160]))
    out = {"split": {"tuned_on": "WildChat, wide canaries family A, this set (chitchat, disjoint from the held-out ids)",
                     "held_out": "bench/pii_heldout.py"},
           "dialogues": len(dialogues), "dropped": dropped,
           "must_redact": {k: {"n": sum(c.values()), "removed": c["removed"],
                               "recall": round(c["removed"] / sum(c.values()), 3)} for k, c in sorted(redact.items())},
           "must_keep": {k: {"n": sum(c.values()), "damaged": c["damaged"],
                             "rate": round(c["damaged"] / sum(c.values()), 3)} for k, c in sorted(keep.items())}}
    total = sum(c.values() for c in keep.values()) if False else sum(sum(c.values()) for c in keep.values())
    out["must_keep_all"] = {"n": total, "damaged": len(damage), "rate": round(len(damage) / total, 3)}
    for m in misses[:show]:
        print("  miss", m)
    for m in damage[:show]:
        print("  damage", m)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    if not (DATA / "labels.jsonl").exists():
        raise SystemExit(f"skipped: {DATA} has no labels")
    result = score(args.show)
    print(json.dumps({k: v for k, v in result.items() if k != "split"}, indent=1))
    (HERE / "results" / "pii_chitchat_tuning.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
