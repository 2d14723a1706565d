"""Draw the person-context labelling sets (classifiers/person_context/candidates*.jsonl).

Source: chitchat-dataset 0.9.0 (MIT): pass the wheel or its dataset.json as the first argument
(or set $MMRC_CHITCHAT_WHEEL). Never drawn: every `source_id` of bench/pii_heldout (labels and
canaries; only that field is read), of bench/pii_chitchat_tuning and of the topic seed.

The remaining conversations with 4-40 rounds are sorted and shuffled (round 1 with random.Random(3407), round 2 with 3408, without round 1's;
round 4 with 3410, without rounds 1-3's);
each is scanned by clean's PII detector (before any policy rule), and every PERSON span it finds,
on either side (round 2: only those NER alone found), becomes one candidate row with its turn and the turn before it, until n_rows.
The `label` field is then filled by hand (see README.md).
"""

from __future__ import annotations

import json
import random
import sys
import zipfile
from pathlib import Path
from typing import NamedTuple

from classifiers.context_training import excluded_ids, source_ids

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
MIN_TURNS, MAX_TURNS = 4, 40


class Round(NamedTuple):
    """One labelling round: its shuffle seed, how many rows, the bases drawn (None for all, those listed,
    "unfound" or "second_side"), its file, the rounds whose conversations it leaves out, the longest
    conversation (in rounds) it reads and at most how many spans one conversation gives (None: all)."""
    seed: int
    rows: int
    bases: tuple[str, ...] | str | None
    file: str
    after: tuple[int, ...] = ()
    max_turns: int = MAX_TURNS
    per_conversation: int | None = None


# Round 1 takes every PERSON span; round 2, from the conversations round 1 left, only names NER alone
# vouches for (the spans the model decides). Round 3, from every conversation not held out (rounds 1 and
# 2's included): the words no finder found that builder/clean/context_names.py proposes (basis "census"
# or "capital"). Round 4, from the conversations rounds 1-3 left, the long ones too, at most 3 spans from
# one: the spans the model decides in clean, and only those: PERSON spans on the second side (role
# "assistant") whose basis does not already make the name that person's own (suppressions.PEER_OWN_BASES).
ROUNDS: dict[int, Round] = {
    1: Round(3407, 640, None, "candidates.jsonl"),
    2: Round(3408, 640, ("ner", "list"), "candidates_2.jsonl", after=(1,)),
    3: Round(3409, 640, "unfound", "candidates_3.jsonl"),
    4: Round(3410, 640, "second_side", "candidates_4.jsonl", after=(1, 2, 3), max_turns=200, per_conversation=3)}


def load(path: Path) -> dict:
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            return json.loads(z.read("chitchat_dataset/dataset.json"))
    return json.loads(path.read_text())


def to_turns(conv: dict) -> list[dict]:
    rounds = [r for r in conv["messages"] if r]
    first = rounds[0][0]["sender"]
    return [{"index": i, "role": "user" if rnd[0]["sender"] == first else "assistant",
             "text": "\n".join(m["text"] for m in rnd)} for i, rnd in enumerate(rounds)]


def main() -> None:
    import os

    from builder.clean.config import CleanConfig
    from builder.clean.context_names import candidates
    from builder.clean.pii import PiiDetector
    from builder.clean.suppressions import PEER_OWN_BASES

    source = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MMRC_CHITCHAT_WHEEL", ""))
    round_ = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    seed, n_rows, bases, name, after, max_turns, per_conversation = ROUNDS[round_]
    out = HERE / name
    if out.exists() and "--force" not in sys.argv:
        raise SystemExit(f"{out.name} exists and holds hand labels; pass --force to draw it again (labels lost)")
    if not source.is_file():
        raise SystemExit("usage: draw.py CHITCHAT_WHEEL_OR_DATASET_JSON [ROUND] [--force] "
                         "(pip download --no-deps chitchat-dataset==0.9.0 -d DIR)")
    data = load(source)
    excluded = excluded_ids().union(*(source_ids(HERE / ROUNDS[earlier].file) for earlier in after))
    pool = sorted(cid for cid, conv in data.items() if cid not in excluded
                  and MIN_TURNS <= len([r for r in conv["messages"] if r]) <= max_turns)
    random.Random(seed).shuffle(pool)
    detector = PiiDetector(CleanConfig(person_context=False))  # the finders alone, as clean runs them
    rows: list[dict] = []
    convs = 0
    for start in range(0, len(pool), 100):
        batch = [(cid, to_turns(data[cid])) for cid in pool[start:start + 100]]
        texts = [t["text"] for _, turns in batch for t in turns]
        scans = iter(detector.scan(texts, None, [k > 0 for _, turns in batch for k in range(len(turns))]))
        for cid, turns in batch:
            found = [(t, next(scans)) for t in turns]
            hits: list[tuple[dict, dict]]  # (turn, span)
            if bases == "second_side":
                hits = [(t, s) for t, scan in found for s in scan.spans if s["entity"] == "PERSON"
                        and t["role"] == "assistant" and s.get("basis") not in PEER_OWN_BASES]
            elif bases == "unfound":
                hits = [(t, {"start": a, "end": b, "basis": kind}) for t, scan in found
                        for a, b, kind in candidates(t["text"], scan.spans)]
            else:
                hits = [(t, s) for t, scan in found for s in scan.spans if s["entity"] == "PERSON"
                        and (bases is None or s.get("basis") in bases)]
            hits = hits[:per_conversation]
            if not hits:
                continue
            convs += 1
            for turn, span in hits:
                prev = turns[turn["index"] - 1]["text"] if turn["index"] else ""
                number = f"pc{round_}-{len(rows) + 1:04d}" if round_ > 1 else f"pc-{len(rows) + 1:04d}"
                rows.append({"id": number, "source": "chitchat-dataset 0.9.0", "source_id": cid,
                             "licence": "MIT", "turn": turn["index"], "role": turn["role"],
                             "start": span["start"], "end": span["end"],
                             "value": turn["text"][span["start"]:span["end"]], "basis": span.get("basis"),
                             "previous": prev, "text": turn["text"], "label": None, "why": None})
        if len(rows) >= n_rows:
            break
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows[:n_rows]))
    print(f"excluded {len(excluded & set(data))}; pool {len(pool)}; conversations with a name {convs}; "
          f"rows {min(len(rows), n_rows)} -> {out}")


if __name__ == "__main__":
    main()
