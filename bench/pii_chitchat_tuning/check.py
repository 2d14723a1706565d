"""Validate labels.jsonl against dialogues.jsonl and print counts.

Checks: one label row per dialogue (same ids, same order), valid kinds,
turn index in range, every "text" an exact substring of its turn, no
duplicate (turn, text) within a list.
"""
import collections
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REDACT = {"PRIVATE_NAME", "CONTACT", "ID", "OTHER_PRIVATE"}
KEEP = {"PUBLIC_NAME", "FICTIONAL", "PLACE", "ORG_PRODUCT", "WORK"}


def load(name):
    with open(HERE / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    dialogues = load("dialogues.jsonl")
    labels = load("labels.jsonl")
    errors = []
    if [d["id"] for d in dialogues] != [row["id"] for row in labels]:
        errors.append("label ids do not match dialogue ids one to one, in order")
    by_id = {d["id"]: d for d in dialogues}
    kinds = collections.Counter()
    convs_with = collections.Counter()
    pn_lower = pn_assistant = 0
    for row in labels:
        d = by_id.get(row["id"])
        if d is None:
            errors.append(f"{row['id']}: no such dialogue")
            continue
        turns = d["turns"]
        for field, allowed in (("must_redact", REDACT), ("must_keep", KEEP)):
            seen = set()
            for v in row[field]:
                where = f"{row['id']} {field} {v!r}"
                if v["kind"] not in allowed:
                    errors.append(f"{where}: bad kind")
                if not 0 <= v["turn"] < len(turns):
                    errors.append(f"{where}: turn out of range")
                    continue
                if v["text"] not in turns[v["turn"]]["text"]:
                    errors.append(f"{where}: not a substring of its turn")
                key = (v["turn"], v["text"])
                if key in seen:
                    errors.append(f"{where}: duplicate")
                seen.add(key)
                kinds[v["kind"]] += 1
                if v["kind"] == "PRIVATE_NAME":
                    if v["text"] == v["text"].lower():
                        pn_lower += 1
                    if turns[v["turn"]]["role"] == "assistant":
                        pn_assistant += 1
        for k in {v["kind"] for v in row["must_redact"] + row["must_keep"]}:
            convs_with[k] += 1
    print(f"conversations: {len(labels)}")
    print(f"turns: {sum(len(d['turns']) for d in dialogues)}")
    print("values per kind (one per turn in which a value appears):")
    for k in sorted(REDACT) + sorted(KEEP):
        print(f"  {k:13s} {kinds[k]:4d}   in {convs_with[k]} conversations")
    print(f"conversations with no must_redact value: "
          f"{sum(1 for r in labels if not r['must_redact'])}")
    print(f"conversations with no value at all: "
          f"{sum(1 for r in labels if not r['must_redact'] and not r['must_keep'])}")
    print(f"PRIVATE_NAME values all lower-case: {pn_lower}")
    print(f"PRIVATE_NAME values in assistant-role turns: {pn_assistant}")
    if errors:
        print(f"{len(errors)} ERRORS:")
        for e in errors:
            print("  " + e)
        sys.exit(1)
    print("OK: every text is an exact substring of its turn")


if __name__ == "__main__":
    main()
