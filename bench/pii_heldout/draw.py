"""Draw the held-out PII dialogues (labels skeleton) and build the canary set.

    python bench/pii_heldout/draw.py labels   --chitchat WHEEL -o skeleton.jsonl
    python bench/pii_heldout/draw.py canaries --chitchat WHEEL -o bench/pii_heldout/canaries.jsonl
    python bench/pii_heldout/draw.py check    --chitchat WHEEL   # labels.jsonl ids == the draw

`labels` writes the drawn dialogues without labels (they were then labelled by hand, by
reading). `canaries` draws other dialogues from the same sources (never one of labels.jsonl's)
and inserts generated fake personal data into user turns. Everything is seeded (SEED below):
the same sources give the same files. HELD OUT: not for reading while tuning builder/clean.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import pii_heldout as bench

SEED = "pii-heldout-2025"
LICENCES = {"chitchat": "MIT", "oasst": "Apache-2.0", "topical_chat": "CDLA-Sharing-1.0"}
PREFIX = {"chitchat": "cc", "oasst": "oa", "topical_chat": "tc"}
# labels: (random, targeted) per source; canaries: random only
LABEL_DRAW = {"chitchat": (60, 80), "oasst": (45, 15), "topical_chat": (50, 20)}
CANARY_DRAW = {"chitchat": 185, "oasst": 40, "topical_chat": 80}
# targeted cues in the order they are drawn, with how many dialogues each may add
CUES = {
    "chitchat": [("my_name", 22), ("relative", 20), ("street", 6), ("at_sign", 6), ("digits", 6), ("greeting_name", 20)],
    "oasst": [("my_name", 2), ("relative", 2), ("street", 2), ("at_sign", 2), ("digits", 15)],
    "topical_chat": [("my_name", 2), ("relative", 17), ("street", 3), ("at_sign", 2), ("digits", 20)],
}
CUE_RE = {k: re.compile(v, re.IGNORECASE) for k, v in {
    "my_name": r"\bmy name\b",
    "relative": r"\bmy (wife|husband|son|daughter|sister|brother|friend|mom|mother|dad|father|boyfriend|"
                r"girlfriend|roommate|cousin|aunt|uncle|boss|grandma|grandmother|grandpa|grandfather)s?\b",
    "street": r"\bstreet\b",
    "at_sign": r"@",
    "digits": r"\d",
}.items()}
# someone greeted or thanked by a capitalised word ("hey Anna"): case-sensitive
CUE_RE["greeting_name"] = re.compile(r"\b(?:[Hh]i|[Hh]ey|[Hh]ello|[Tt]hanks|[Bb]ye|[Ss]orry)[,!]? [A-Z][a-z]{2,}\b")
MIN_TURNS, MAX_TURNS, MAX_CHARS = 4, 40, {"chitchat": 4000, "oasst": 8000, "topical_chat": 8000}


def _text(turns):
    return "\n".join(t["text"] for t in turns)


def pools(data: Path, wheel: Path) -> dict[str, dict[str, list[dict]]]:
    """Candidate dialogues per source, sorted by source id. chitchat and Topical-Chat: every
    conversation with MIN_TURNS..MAX_TURNS turns and at most MAX_CHARS characters; OASST: per
    message tree, the paths (leaf ids) that end in an assistant turn, under the tree id."""
    cc = bench.load_chitchat(wheel)
    tc = bench.load_topical(data / bench.TOPICAL_FILE)
    out = {}
    for name, src in (("chitchat", cc), ("topical_chat", tc)):
        out[name] = {k: v for k, v in sorted(src.items())
                     if MIN_TURNS <= len(v) <= MAX_TURNS and len(_text(v)) <= MAX_CHARS[name]}
    trees: dict[str, dict[str, list[dict]]] = {}
    for leaf, p in sorted(bench.load_oasst(data / bench.OASST_FILE).items()):
        if p["turns"][-1]["role"] == "assistant" and len(_text(p["turns"])) <= MAX_CHARS["oasst"]:
            trees.setdefault(p["tree"], {})[leaf] = p["turns"]
    out["oasst"] = dict(sorted(trees.items()))
    return out


def draw_labels(pool: dict) -> list[dict]:
    rows = []
    for source, (n_random, n_targeted) in LABEL_DRAW.items():
        rng = random.Random(f"{SEED}:labels:{source}")
        candidates = pool[source]
        keys = list(candidates)
        chosen = [(k, "random") for k in rng.sample(keys, n_random)]
        taken = {k for k, _ in chosen}
        budget = n_targeted
        for cue, most in CUES[source]:
            hits = [k for k in keys if k not in taken and _matches(source, candidates[k], cue)]
            pick = rng.sample(hits, min(most, budget, len(hits)))
            chosen += [(k, f"targeted:{cue}") for k in pick]
            taken.update(pick)
            budget -= len(pick)
        for n, (key, how) in enumerate(chosen):
            source_id, turns = _one(source, key, candidates[key], rng, how)
            rows.append({"id": f"L-{PREFIX[source]}-{n:03d}", "source": source, "source_id": source_id,
                         "licence": LICENCES[source], "draw": how, "turns": turns,
                         "must_redact": [], "must_keep": []})
    return rows


def _matches(source, item, cue) -> bool:
    paths = item.values() if source == "oasst" else [item]
    return any(CUE_RE[cue].search(_text(t)) for t in paths)


def _one(source, key, item, rng, how="random"):
    """(source_id, turns); an OASST tree gives one path: a seeded random one, or for a targeted
    draw a seeded random one among the paths that match the cue."""
    if source != "oasst":
        return key, item
    leaves = list(item)
    if how.startswith("targeted:"):
        leaves = [k for k in leaves if CUE_RE[how.split(":")[1]].search(_text(item[k]))]
    leaf = rng.choice(leaves)
    return leaf, item[leaf]


def build_canaries(pool: dict, exclude: set[tuple[str, str]]) -> list[dict]:
    """CANARY_DRAW dialogues per source (seeded, none of labels.jsonl's; OASST: the trees that
    labels.jsonl does not use, one seeded random path each), 1-3 snippets of fake personal data
    each, inserted into user turns (a turn of 30+ characters when there is one)."""
    import fakes

    rows = []
    for source, n in CANARY_DRAW.items():
        rng = random.Random(f"{SEED}:canaries:{source}")
        candidates = pool[source]
        if source == "oasst":
            used_trees = {tree for tree, paths in candidates.items() if any((source, leaf) in exclude for leaf in paths)}
            keys = [k for k in candidates if k not in used_trees]
        else:
            keys = [k for k in candidates if (source, k) not in exclude]
        for i, key in enumerate(rng.sample(keys, min(n, len(keys)))):
            source_id, turns = _one(source, key, candidates[key], rng)
            turns = [dict(t) for t in turns]
            words = set(re.findall(r"[\w'-]+", _text(turns)))
            fake = fakes.Fakes(rng, avoid=words)
            inserted, values = [], []
            for _ in range(rng.choices([1, 2, 3], [0.5, 0.35, 0.15])[0]):
                group = rng.choices(list(fakes.GROUP_WEIGHTS), list(fakes.GROUP_WEIGHTS.values()))[0]
                template = rng.choice(fakes.TEMPLATES[group])
                casual = template == template.lower()
                snippet, found = fakes.fill(template, fake, lower=casual and rng.random() < 0.6)
                _insert(turns, snippet, found, inserted, values, rng, source)
            rows.append({"id": f"C-{PREFIX[source]}-{i:03d}", "source": source, "source_id": source_id,
                         "licence": LICENCES[source], "turns": turns, "inserted": inserted,
                         "canaries": sorted(values, key=lambda v: (v["turn"], v["start"]))})
    return rows


def _insert(turns, snippet, found, inserted, values, rng, source):
    users = [i for i, t in enumerate(turns) if t["role"] == "user"]
    long_ = [i for i in users if len(turns[i]["text"]) >= 30]
    t = rng.choice(long_ or users)
    text = turns[t]["text"]
    taken = [(x["at"], x["at"] + len(x["text"])) for x in inserted if x["turn"] == t]
    # where: the start, the end, after a sentence end or a line break (never inside an insert)
    spots = [0, len(text)] + [m.end() for m in re.finditer(r"[.!?](?= )|\n", text)]
    at = rng.choice(sorted({s for s in spots if not any(a < s < b for a, b in taken)}))
    if at == 0:
        piece, offset = snippet + rng.choice(["\n", " ", ". "] if text else [""]), 0
    elif at == len(text):
        sep = rng.choice(["\n", "\n", " "] if source == "chitchat" else [" ", " ", ". ", "\n", " - "])
        piece, offset = sep + snippet, len(sep)
    elif text[at - 1] == "\n":
        piece, offset = snippet + "\n", 0
    else:
        piece, offset = " " + snippet + rng.choice([".", "", "!"]), 1
    for x in inserted:
        if x["turn"] == t and x["at"] >= at:
            x["at"] += len(piece)
    for v in values:
        if v["turn"] == t and v["start"] >= at:
            v["start"] += len(piece)
    turns[t]["text"] = text[:at] + piece + text[at:]
    inserted.append({"turn": t, "at": at, "text": piece})
    values.extend({"turn": t, **v, "start": at + offset + v["start"]} for v in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["labels", "canaries", "check"])
    parser.add_argument("--data", type=Path, default=bench.ROOT.parent / "shared" / "data")
    parser.add_argument("--chitchat", type=Path, default=None, help="chitchat-dataset 0.9.0 wheel or dataset.json")
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args()
    wheel = bench.chitchat_path(args.chitchat)
    if wheel is None:
        sys.exit(bench.CHITCHAT_HELP)
    pool = pools(args.data, wheel)
    labels_file = HERE / "labels.jsonl"
    if args.what == "labels":
        rows = draw_labels(pool)
    elif args.what == "check":
        drawn = [(r["id"], r["source_id"]) for r in draw_labels(pool)]
        have = [(r["id"], r["source_id"]) for r in map(json.loads, labels_file.read_text().splitlines())]
        print("labels.jsonl matches the draw" if drawn == have else "labels.jsonl differs from the draw")
        sys.exit(0 if drawn == have else 1)
    else:
        labelled = {(r["source"], r["source_id"]) for r in map(json.loads, labels_file.read_text().splitlines())}
        rows = build_canaries(pool, labelled)
    with open(args.output, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    print(f"{len(rows)} rows -> {args.output}")


if __name__ == "__main__":
    main()
