"""Structured values in human–human chat, on the TUNING split: either speaker's own values.

bench/pii_wide_canaries.py plants values in user turns of user–model logs. Logs of people
talking to people (support desks, chat apps, crowd-sourced conversations stored as "user" and
"assistant") hold the second speaker's phone, card and postcode too, and often as the answer to
a question in the turn before ("what's your zip?" / "60614"). This bench plants such values in
the real human–human conversations of the chitchat TUNING set (bench/pii_chitchat_tuning/,
already read while tuning; its held-out conversations are excluded there): on either side, in
one turn or as a question and its answer, in frames of two families written together before
any was scored:

- ``A`` (tune): may be read and worked on;
- ``B`` (check): scored only; a change that lifts A and not B fitted A's wordings.

The held-out report stays bench/pii_heldout.py. A value survives when its text is still there,
or any of its 3+ character words or digit groups is (an e-mail's domain excepted).

Usage: python bench/pii_peer_canaries.py [--seed 5] [--show 30]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from pathlib import Path

import pii_wide_canaries as wide

REPO = Path(__file__).resolve().parents[1]
HOSTS = REPO / "bench" / "pii_chitchat_tuning" / "dialogues.jsonl"

# (family, lines, kinds): one line goes to one turn; two go to a turn and the next one (the
# other speaker's). Kinds are KIND:placeholder@line.
FRAMES = [
    ("A", ("what's your zip code? i'll mail you the invite", "sure, it's {zip}"), ("ZIP:zip@1",)),
    ("A", ("can i get your number?", "yeah {phone}"), ("PHONE:phone@1",)),
    ("A", ("whats your email", "{email}"), ("EMAIL:email@1",)),
    ("A", ("which card did you pay with?", "my visa, {card}"), ("CARD:card@1",)),
    ("A", ("lol my old number was {phone}, i changed it",), ("PHONE:phone@0",)),
    ("A", ("my {id_cue} is {id} and the form keeps rejecting it",), ("ID:id@0",)),
    ("A", ("i moved! new place is {street}, {city} {zip}",), ("STREET:street@0", "ZIP:zip@0")),
    ("A", ("you can text me at {phone} whenever",), ("PHONE:phone@0",)),
    ("A", ("send the photos to {email}",), ("EMAIL:email@0",)),
    ("A", ("i got scammed, they charged my card {card} twice",), ("CARD:card@0",)),
    ("B", ("where should i send the package?", "{street}, {zip} {city}"), ("STREET:street@1", "ZIP:zip@1")),
    ("B", ("do you have a phone i can reach you at", "sure call me {phone} after 6"), ("PHONE:phone@1",)),
    ("B", ("what's your {id_cue} again?", "{idonly}"), ("ID:idonly@1",)),
    ("B", ("what's the postcode there?", "{zip} i think"), ("ZIP:zip@1",)),
    ("B", ("my mail is {email} if you want the recipe",), ("EMAIL:email@0",)),
    ("B", ("ugh i had to cancel card {card} after losing my wallet",), ("CARD:card@0",)),
    ("B", ("call my cell {phone} if you're running late",), ("PHONE:phone@0",)),
    ("B", ("we're at {street_l}, come by anytime",), ("STREET:street_l@0",)),
    ("B", ("{id_cue}: {id}",), ("ID:id@0",)),
    ("B", ("we live in {city}, postcode {zip}",), ("ZIP:zip@0",)),
]


def build(seed: int) -> list[dict]:
    rng = random.Random(seed)
    hosts = [json.loads(line) for line in HOSTS.read_text().splitlines()]
    rows = []
    for family in ("A", "B"):
        frames = [f for f in FRAMES if f[0] == family]
        for host in hosts:
            turns = [{**t, "images": []} for t in host["turns"]]
            if len(turns) < 3:
                continue
            _, lines, kinds = rng.choice(frames)
            vals = wide.values(rng)
            at = rng.randrange(len(turns) - len(lines) + 1)
            for j, line in enumerate(lines):
                turns[at + j]["text"] = turns[at + j]["text"].rstrip() + "\n" + line.format(**vals)
            planted = []
            for kind in kinds:
                name, rest = kind.split(":")
                key, line = rest.split("@")
                turn = at + int(line)
                planted.append({"kind": name, "value": vals[key], "turn": turn, "role": turns[turn]["role"],
                                "asked": len(lines) == 2})
            rows.append({"id": f"{host['id']}:{family}", "turns": turns, "planted": planted, "family": family,
                         "frame": " / ".join(lines)})
    return rows


def score(rows: list[dict]) -> dict:
    table: dict[str, Counter] = defaultdict(Counter)
    dropped: Counter = Counter()
    misses = []
    for row, red in wide.redacted(rows):
        if red.reason:
            dropped[row["family"]] += 1
            continue
        for p in row["planted"]:
            outcome = wide.outcome(row, p, red)
            side = "asked" if p["asked"] else "said"
            for key in (row["family"], f"{row['family']}:{p['kind']}", f"{row['family']}:{p['role']}",
                        f"{row['family']}:{side}"):
                table[key][outcome] += 1
            if outcome != "removed":
                misses.append({"family": row["family"], "kind": p["kind"], "value": p["value"], "role": p["role"],
                               "outcome": outcome, "frame": row["frame"]})
    groups = {}
    for key, c in sorted(table.items()):
        n = sum(c.values())
        groups[key] = {"n": n, "leaked": n - c["removed"], "recall": round(c["removed"] / n, 3), "outcomes": dict(c)}
    return {"split": {"tuned_on": "chitchat tuning conversations + frames of family A",
                      "checked_on": "frames of family B (same conversations)", "held_out": "bench/pii_heldout.py"},
            "dropped": dict(dropped), "groups": groups, "misses": misses}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    result = score(build(args.seed))
    for key, row in result["groups"].items():
        print(f"{key:12} leaked {row['leaked']:3}/{row['n']:3}  recall {row['recall']:.3f}  {row['outcomes']}")
    print("dropped", result["dropped"])
    for miss in [m for m in result["misses"] if m["family"] == "A"][: args.show]:
        print("  miss", miss)
    out = REPO / "bench" / "results" / "pii_peer_canaries.json"
    out.write_text(json.dumps({k: v for k, v in result.items() if k != "misses"}, indent=2, sort_keys=True) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
