"""PII recall on the TUNING source: fake personal values written into real WildChat dialogues.

The held-out check is bench/pii_heldout.py (other sources, other wordings, never read while the
rules change). This one is for working on the rules: it may be read as closely as one likes,
because it is built from the tuning source (../shared/data/logs/wildchat) with wordings written
here. Each English WildChat dialogue gets one sentence with fake values (names, streets in
several countries' formats and in lower case, phones, postal codes, ids, cards, e-mails, birth
dates) appended to a user turn; the in-process detector and policy (what `clean` runs) redact it,
and every value is scored: removed (no letter or digit of it left), not found, or kept by a named
rule. Split: tuned on WildChat + these wordings; reported on held out in bench/pii_heldout.py.

Usage: python bench/pii_tuning_canaries.py [--n 300] [--seed 7] [--show 20]
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "logs" / "wildchat"

FIRST = ["Oleksandr", "Priya", "Tomasz", "Aiyana", "Mateo", "Ngozi", "Henrik", "Yuki", "Farida", "Bastien", "Keanu",
         "Ingrid", "Dmitri", "Lucia", "Rashid", "Sigrun", "Thabo", "Mirela", "Cormac", "Xiulan"]
LAST = ["Kowalczyk", "Ramaswamy", "Okonkwo", "Lindqvist", "Ferreira", "Nakagawa", "Haddad", "Brennan", "Vukovic",
        "Achterberg", "Oyelaran", "Castellanos", "Petrakis", "Dufresne", "Mbeki", "Halvorsen"]
STREETS = [("{n} {w} Street", "Maple"), ("{n} {w} Avenue", "Linden"), ("{n} {w} rd", "oakridge"),
           ("{n} {w} lane", "willow"), ("{w}straße {n}", "Linden"), ("Calle {w} {n}", "Mayor"),
           ("{n} rue {w}", "des Lilas"), ("Via {w} {n}", "Garibaldi"), ("{w}gatan {n}", "Drottning"),
           ("ul. {w} {n}", "Kwiatowa"), ("{n} {w} Close, Flat 3", "Rowan")]


def fakes(rng: random.Random) -> dict:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    form, word = rng.choice(STREETS)
    digits = lambda k: "".join(str(rng.randrange(10)) for _ in range(k))  # noqa: E731
    return {"first": first, "last": last, "full": f"{first} {last}", "street": form.format(n=rng.randrange(2, 400), w=word),
            "phone": rng.choice([f"+44 7{digits(3)} {digits(6)}", f"({digits(3)}) {digits(3)}-{digits(4)}",
                                 f"06 {digits(2)} {digits(2)} {digits(2)} {digits(2)}", f"+91 {digits(5)} {digits(5)}"]),
            "zip": rng.choice([digits(5), f"{digits(4)} AB", "SW1A 2AA", digits(6)]),
            "email": f"{first.lower()}.{last.lower()}{rng.randrange(10, 99)}@gmail.com",
            "card": rng.choice(["4539 1488 0343 6467", "5425-2334-3010-9903", "4916338506082832"]),
            "id": rng.choice([f"passport number {rng.choice('XYZ')}{digits(8)}", f"SSN {digits(3)}-{digits(2)}-{digits(4)}",
                              f"employee id {digits(6)}"]),
            "dob": f"{rng.randrange(1, 28)} {rng.choice(['March', 'July', 'October'])} {rng.randrange(1960, 2004)}"}


TEMPLATES = [  # (sentence, the values it holds by kind)
    ("By the way, my name is {full} and you can call me on {phone}.", ("PERSON:full", "PHONE:phone")),
    ("i'm {first_l}, my brother {first2} says hi", ("PERSON:first_l", "PERSON:first2")),
    ("Please send the parcel to {street}, {zip}.", ("STREET:street", "ZIP:zip")),
    ("my address is {street} and my zip is {zip}", ("STREET:street", "ZIP:zip")),
    ("My wife {first2} was born on {dob}.", ("PERSON:first2", "DOB:dob")),
    ("You can email me at {email} or text {phone}.", ("EMAIL:email", "PHONE:phone")),
    ("My card is {card}, what should I do if it was stolen?", ("CARD:card",)),
    ("For the form: {id}, name {full}.", ("ID:id", "PERSON:full")),
    ("My colleague {full} lives at {street}.", ("PERSON:full", "STREET:street")),
    ("thanks, {first_l}", ("PERSON:first_l",)),
]


def english(text: str) -> bool:
    return bool(re.search(r"\b(?:the|and|is|you|what|how)\b", text.lower()))


def build(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    files = sorted(glob.glob(str(DATA / "*.json")))
    rng.shuffle(files)
    out = []
    for path in files:
        record = json.loads(Path(path).read_text())
        record = record[0] if isinstance(record, list) else record
        turns = [{"index": i, "role": m["role"], "text": m["content"] if isinstance(m["content"], str) else "",
                  "images": []} for i, m in enumerate(record["messages"]) if m["role"] in ("user", "assistant")]
        users = [i for i, t in enumerate(turns) if t["role"] == "user" and english(t["text"]) and len(t["text"]) < 800]
        if not users:
            continue
        values = fakes(rng)
        values["first_l"] = values["first"].lower()
        values["first2"] = rng.choice([f for f in FIRST if f != values["first"]])
        template, kinds = rng.choice(TEMPLATES)
        sentence = template.format(**values)
        at = rng.choice(users)
        turns[at]["text"] = turns[at]["text"].rstrip() + "\n" + sentence
        planted = []
        for kind in kinds:
            name, key = kind.split(":")
            value = values[key]
            if name == "ID":
                value = value.split()[-1]
            planted.append({"kind": name, "value": value, "turn": at})
        out.append({"id": record["id"], "turns": turns, "planted": planted, "template": template})
        if len(out) >= n:
            break
    return out


def score(rows: list[dict]) -> dict:
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue

    config = CleanConfig()
    detector = PiiDetector(config)
    texts = [t["text"] for row in rows for t in row["turns"]]
    flat = iter(detector.scan(texts))
    table: dict[str, Counter] = defaultdict(Counter)
    misses = []
    dropped = 0
    for row in rows:
        scans = [next(flat) for _ in row["turns"]]
        red = redact_dialogue(row["id"], row["turns"], scans, config)
        dropped += bool(red.reason)
        for p in row["planted"]:
            text = red.turns[p["turn"]]["text"] if not red.reason else ""
            kept_chars = re.findall(r"\w", p["value"])
            own = p["value"].split("@")[0]  # an e-mail's domain (gmail.com) is everybody's
            survived = red.reason is None and any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)
                                                  for w in re.findall(r"\w{3,}", own))
            original = row["turns"][p["turn"]]["text"]
            start = original.find(p["value"])
            rules = {s["suppressed_by"] for s in red.suppressed if s["turn"] == p["turn"]
                     and s["start"] < start + len(p["value"]) and start < s["end"]}
            outcome = "removed" if not survived else ("kept:" + ",".join(sorted(rules)) if rules else "not_found")
            table[p["kind"]][outcome] += 1
            if survived and kept_chars:
                misses.append({"kind": p["kind"], "value": p["value"], "outcome": outcome, "template": row["template"]})
    summary = {kind: {"n": sum(c.values()), "removed": c["removed"], "recall": round(c["removed"] / sum(c.values()), 3),
                      "outcomes": dict(c)} for kind, c in sorted(table.items())}
    return {"split": {"tuned_on": "WildChat (this bench) + presidio generated", "held_out": "bench/pii_heldout.py"},
            "dialogues": len(rows), "dropped": dropped, "kinds": summary, "misses": misses}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=0, help="print this many misses (tuning source: fine to read)")
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"skipped: {DATA} not present")
    result = score(build(args.n, args.seed))
    for kind, row in result["kinds"].items():
        print(f"{kind:7} recall {row['recall']:.3f} ({row['removed']}/{row['n']})  {row['outcomes']}")
    print(f"dropped {result['dropped']}/{result['dialogues']}")
    for miss in result["misses"][: args.show]:
        print("  miss", miss)
    out = REPO / "bench" / "results" / "pii_tuning_canaries.json"
    out.write_text(json.dumps({k: v for k, v in result.items() if k != "misses"}, indent=2, sort_keys=True) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
