"""The second side's names in real person-to-person chat: the decision the person-context model makes,
measured on 640 spans it never learnt from.

Data: classifiers/person_context/candidates_4.jsonl (round 4 of the person-context labelling; drawn
by ``draw.py`` from chitchat-dataset conversations that rounds 1-3, bench/pii_heldout,
bench/pii_chitchat_tuning and the topic seed do not hold): every PERSON span on the second side
whose basis does not already make it that person's own, at most 3 per conversation, labelled by
hand (private / public / fictional / not_person; four AI helpers who saw no code).

Split: round 4 is in no model's training set (the shipped person-context weights learnt rounds 1-3,
the chitchat tuning bench and the names probes' tuning half), so ``model`` measures the shipped model
on data it never saw. Its kept private names were then read (session 51) to write rules (chat
greetings and vocatives, a relation after the name, one's own teacher, screen names), so for those
rules ``policy`` is a tuning figure; bench/pii_heldout.py stays the held-out report.

Two readings:
- ``model``: the shipped model's probability for each span (its context, its dialogue's traits),
  the AUC, and precision / recall of "private" at thresholds around the shipped one;
- ``policy``: what `clean` (in process: detector, policy, redaction, every default) leaves of each
  span's text in its turn, by label: redacted (the value is gone) or kept.

Usage: python bench/pii_second_side.py [--chitchat WHEEL]   (or $MMRC_CHITCHAT_WHEEL)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "bench" / "results" / "pii_second_side.json"
ROUND = "candidates_4.jsonl"
LABELS = ("private", "public", "fictional", "not_person")
THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def model_reading(rows: list[dict]) -> dict:
    import numpy as np

    from classifiers.person_context.model import load
    from classifiers.person_context.train import auc

    model = load()
    p = np.array([model.probability(r["text"], r["start"], r["end"], r["basis"], r["role"], frozenset(r["traits"]),
                                    frozenset(r["traits_here"])) for r in rows])
    y = np.array([r["label"] for r in rows])
    table = []
    for t in THRESHOLDS:
        flagged = p >= t
        tp = int((flagged & (y == 1)).sum())
        table.append({"threshold": t, "flagged": int(flagged.sum()), "private_flagged": tp,
                      "precision": round(tp / max(1, int(flagged.sum())), 3), "recall": round(tp / max(1, int(y.sum())), 3)})
    # outside chats about professional sport or show business: the rule behind THRESHOLD_PERSONAL_CHAT
    from classifiers.person_context.model import PERSONAL_CHAT_PRECISION, THRESHOLD_PERSONAL_CHAT

    outside = np.array(["public_life" not in r["traits"] for r in rows])
    personal = []
    for t in sorted({0.2, 0.25, 0.3, 0.35, *THRESHOLDS}):
        flagged = (p >= t) & outside
        tp = int((flagged & (y == 1)).sum())
        personal.append({"threshold": t, "flagged": int(flagged.sum()), "private_flagged": tp,
                         "precision": round(tp / max(1, int(flagged.sum())), 3),
                         "recall": round(tp / max(1, int((y[outside] == 1).sum())), 3)})
    chosen = next((e["threshold"] for e in personal if e["precision"] >= PERSONAL_CHAT_PRECISION), None)
    return {"spans": len(rows), "private": int(y.sum()), "auc": round(auc(y, p), 3), "shipped_threshold": model.threshold,
            "by_threshold": table,
            "outside_public_life": {"spans": int(outside.sum()), "private": int((y[outside] == 1).sum()),
                                    "rule": f"the lowest threshold whose precision is at least {PERSONAL_CHAT_PRECISION}",
                                    "chosen": chosen, "shipped": THRESHOLD_PERSONAL_CHAT, "by_threshold": personal}}


def policy_reading(raw: list[dict], data: dict) -> dict:
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue
    from classifiers.person_context.draw import to_turns

    config = CleanConfig()
    detector = PiiDetector(config)
    ids = sorted({r["source_id"] for r in raw})
    after: dict[str, list[str] | None] = {}
    for k in range(0, len(ids), 50):
        batch = [(cid, to_turns(data[cid])) for cid in ids[k:k + 50]]
        scans = iter(detector.scan([t["text"] for _, turns in batch for t in turns], None,
                                   [i > 0 for _, turns in batch for i in range(len(turns))]))
        for cid, turns in batch:
            red = redact_dialogue(cid, turns, [next(scans) for _ in turns], config)
            after[cid] = None if red.reason else [t["text"] for t in red.turns]
    table: Counter = Counter()
    for r in raw:
        turns = after[r["source_id"]]
        outcome = "dropped" if turns is None else ("kept" if r["value"] in turns[r["turn"]] else "redacted")
        table[(outcome, r["label"])] += 1
    out = {outcome: {label: table[(outcome, label)] for label in LABELS} for outcome in ("redacted", "kept", "dropped")}
    redacted = sum(out["redacted"].values())
    out["precision_of_redacted"] = round(out["redacted"]["private"] / redacted, 3) if redacted else None
    private = sum(table[(o, "private")] for o in ("redacted", "kept"))
    out["private_redacted"] = round(out["redacted"]["private"] / private, 3) if private else None
    return out


def main() -> None:
    from classifiers.person_context.draw import HERE, load
    from classifiers.person_context.train import hand_labelled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chitchat", type=Path, default=os.environ.get("MMRC_CHITCHAT_WHEEL"),
                        help="chitchat-dataset 0.9.0 wheel or its dataset.json (else $MMRC_CHITCHAT_WHEEL)")
    args = parser.parse_args()
    if not args.chitchat or not Path(args.chitchat).is_file():
        print("skipped: pass --chitchat WHEEL or set $MMRC_CHITCHAT_WHEEL (pip download --no-deps chitchat-dataset==0.9.0 -d DIR)")
        return
    raw = [json.loads(line) for line in (HERE / ROUND).read_text().splitlines()]
    raw = [r for r in raw if r["label"] in LABELS]
    result = {"bench": "pii_second_side",
              "split": {"tuned_on": "the person-context model: its rounds 1-3, bench/pii_chitchat_tuning, the names probes' "
                                    "tuning half; session 51's vocative, relation, teacher and screen-name rules: this set",
                        "measured_on": f"classifiers/person_context/{ROUND} (round 4: never in a model's training; read "
                                       "while writing session 51's rules, so the policy reading is a tuning figure)",
                        "held_out": "bench/pii_heldout.py"},
              "labels": dict(Counter(r["label"] for r in raw)),
              "model": model_reading(hand_labelled(Path(args.chitchat), (ROUND,))),
              "policy": policy_reading(raw, load(Path(args.chitchat)))}
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=1))
    print(f"-> {RESULTS}")


if __name__ == "__main__":
    main()
