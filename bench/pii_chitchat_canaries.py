"""Structured-value recall on real human–human chat, TUNING split: fake values planted into
chitchat-dataset conversations that the held-out bench does not hold, run through the real CLI.

Why: the wide canaries (bench/pii_wide_canaries.py) plant into WildChat requests, where every
structured kind reaches 0.9-1.0, while the held-out canaries (bench/pii_heldout.py, other
conversations, other wordings, never read) leak 14% of structured values. This bench keeps the
kind of host the held-out set has (person-to-person chat) but not its conversations or its
wordings: hosts are chitchat-dataset conversations whose ids are not in bench/pii_heldout/*.jsonl
(only that field is read there), and the frames are

- ``written``: bench/pii_chitchat_canaries/frames.json, written for this bench by a helper who did
  not read the rules, split into family ``C`` (tune: read and work on it) and ``D`` (check: scored
  apart; a change that lifts C and not D fitted C's wordings);
- ``wide``: the wide canaries' families A and B, for comparison with their WildChat figures.

Each frame is inserted as a message of a random turn of the first speaker (the "user"), at a
random message boundary; the dialogues go through `mmrc-build ingest` and `mmrc-build clean`
(as bench/pii_heldout.py runs them) and each value is scored as there: *leaked* when any of its
letters or digits survives at its place. ``--show N`` prints N leaks of the tune family (``--show-family D``: of that one) with the
in-process policy's reading (the rule that kept it, or not_found).

``--hosts topical_chat`` plants the same frames in Topical-Chat valid_freq conversations that the
held-out bench does not hold (389 of 539; ``--data``, default ../shared/data): talk about sport,
films and stars, where the held-out canaries' PERSON recall is lowest, and the dialogue's
``public_life`` trait keeps the names NER alone finds.

Split: tuned on WildChat, the wide canaries' family A and family C here; checked on family D;
held out: bench/pii_heldout.py. Writes bench/results/pii_chitchat_canaries[_<option>].json.

Usage: MMRC_CHITCHAT_WHEEL=PATH python bench/pii_chitchat_canaries.py [--frames written|wide] [--n 1200]
       [--names faker|wide] [--hosts all|public|topical_chat] [--show N]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import pii_heldout as held
import pii_wide_canaries as wide

HERE = Path(__file__).resolve().parent
FRAMES = HERE / "pii_chitchat_canaries" / "frames.json"
RESULTS = HERE / "results" / "pii_chitchat_canaries.json"
TUNE = {"written": "C", "wide": "A"}


def _fill(shape: str, rng: random.Random) -> str:
    shape = re.sub(r"\{L\}", lambda _: rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ"), shape)
    return wide._fill(shape, rng)


def luhn_valid(card: str) -> str:
    """The card with its last digit replaced by the Luhn check digit of the others."""
    digits = [int(c) for c in card if c.isdigit()][:-1]
    total = sum((d * 2 - 9 if d > 4 else d * 2) if i % 2 == 0 else d for i, d in enumerate(reversed(digits)))
    last = max(i for i, c in enumerate(card) if c.isdigit())
    return card[:last] + str(-total % 10) + card[last + 1:]


def written_values(spec: dict, rng: random.Random, luhn_share: float = 0.75) -> dict:
    vals = wide.values(rng)  # names, city, e-mail from the wide bench's lists
    pick = lambda kind: _fill(rng.choice(spec[kind]), rng) if spec.get(kind) else vals[kind]  # noqa: E731
    for kind in ("zip", "phone", "card", "street", "dob"):
        vals[kind] = pick(kind)
    if rng.random() < luhn_share:  # most cards people type are real ones (they pass the Luhn check); some are typos
        vals["card"] = luhn_valid(vals["card"])
    vals["street_l"] = vals["street"].lower()
    if spec.get("email"):
        vals["email"] = _fill(rng.choice(spec["email"]), rng).format(
            first_l=wide._ascii(vals["first"]).lower(), last_l=wide._ascii(vals["last"]).lower().replace(" ", ""))
    if spec.get("id"):
        cue, shape = rng.choice(spec["id"])
        vals["id_cue"], vals["id"] = cue, _fill(shape, rng)
    vals["idonly"] = vals["id"]
    return vals


NAMES = HERE / "pii_chitchat_canaries" / "names.json"


def name_pool() -> tuple[list[str], list[str]]:
    """(first names, last names) drawn by Faker with each locale's frequency weights (names.json)."""
    locales = json.loads(NAMES.read_text(encoding="utf-8"))["locales"]
    return [n for v in locales.values() for n in v["first"]], [n for v in locales.values() for n in v["last"]]


def with_names(vals: dict, pool: tuple[list[str], list[str]], rng: random.Random) -> dict:
    first, first2 = rng.sample(pool[0], 2)
    last, last2 = rng.sample(pool[1], 2)
    return {**vals, "first": first, "first2": first2, "last": last, "last2": last2, "full": f"{first} {last}",
            "first_l": first.lower(), "full_l": f"{first} {last}".lower()}


def frames(kind: str) -> tuple[list[tuple[str, str, tuple[str, ...]]], dict]:
    if kind == "wide":
        return [(f, t, k) for f, t, k in wide.FRAMES], {}
    spec = json.loads(FRAMES.read_text(encoding="utf-8"))
    return [(f["family"], f["text"], tuple(f["kinds"])) for f in spec["frames"]], spec.get("values", {})


def fill(frame: str, vals: dict) -> tuple[str, dict[str, int]]:
    """The frame with its values, and where each placeholder's value starts (its first use): "{first}"
    inside an earlier "{full}" is located by the frame, not by searching the text."""
    import string

    out, where = "", {}
    for literal, field, _, _ in string.Formatter().parse(frame):
        out += literal
        if field is not None:
            where.setdefault(field, len(out))
            out += str(vals[field])
    return out, where


def build(n: int, seed: int, which: str, conversations: dict[str, list[dict]], luhn_share: float = 0.75,
          names: str = "faker", hosts: str = "all", source: str = "chitchat") -> list[dict]:
    rng = random.Random(seed)
    people = name_pool() if names == "faker" else None
    table, spec = frames(which)
    excluded = held.held_out_source_ids(source)
    pool = sorted(cid for cid, turns in conversations.items() if cid not in excluded and len(turns) >= 2)
    if hosts == "public":  # conversations about sport, show business or stories (as Topical-Chat's are)
        from builder.traits import tag

        pool = [cid for cid in pool if {"public_life", "fiction"} & set(tag(conversations[cid]).found)]
    rows = []
    if n > len(pool):
        raise SystemExit(f"--n {n} is more than the {len(pool)} host conversations")
    for k, cid in enumerate(rng.sample(pool, n)):
        family, frame, kinds = table[k % len(table)] if k < len(table) else rng.choice(table)
        vals = written_values(spec, rng, luhn_share) if spec else wide.values(rng)
        if people:
            vals = with_names(vals, people, rng)
        sentence, where = fill(frame, vals)
        turns = [dict(t) for t in conversations[cid]]
        at = rng.choice([i for i, t in enumerate(turns) if t["role"] == "user"])
        lines = turns[at]["text"].split("\n")
        cut = rng.randrange(len(lines) + 1)
        prefix = "\n".join(lines[:cut]) + ("\n" if cut else "")
        turns[at]["text"] = prefix + sentence + ("\n" + "\n".join(lines[cut:]) if cut < len(lines) else "")
        canaries = []
        for key in kinds:
            kind, name = key.split(":")
            value = vals[name]
            if name not in where:
                raise SystemExit(f"frame without its value {name!r}: {frame!r}")
            pos = where[name]
            canaries.append({"kind": kind, "value": value, "turn": at, "start": len(prefix) + pos})
        rows.append({"id": f"ccc-{k:04d}", "source": source, "source_id": cid, "family": family,
                     "frame": frame, "turns": turns, "canaries": canaries})
    return rows


def run_cli(rows: list[dict]) -> dict:
    work = Path(tempfile.mkdtemp(prefix="pii-cc-canaries-"))
    try:
        (work / "raw").mkdir()
        held.write_native(rows, work / "raw" / "canaries.jsonl")
        held.run(["ingest", str(work / "raw"), "-o", str(work / "ingested"), "--min-turns", "2", "--max-turns", "200",
                  "--force", "--quiet"])
        held.run(["clean", str(work / "ingested"), "-o", str(work / "clean"), "--toxicity-backend", "lexicon",
                  "--force", "--quiet"])
        ingested, ingest_ledger = held.read_stage(work / "ingested")
        cleaned, clean_ledger = held.read_stage(work / "clean")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    by_source_id = {json.loads(detail).get("source_id"): did for did, (_, _, detail) in ingest_ledger.items()}
    return {row["id"]: held.outcome(row, ingested, ingest_ledger, cleaned, clean_ledger, by_source_id) for row in rows}


def score(rows: list[dict], fates: dict) -> tuple[dict, list[dict]]:
    table: dict[str, Counter] = defaultdict(Counter)
    leaks = []
    for row in rows:
        f = fates[row["id"]]
        if f[0] != "kept":
            table[f"{row['family']}:dialogues"][f"{f[0]}:{f[1]}"] += 1
        for v in row["canaries"]:
            groups = [f"{row['family']}:{v['kind']}", f"{row['family']}:all"]
            if v["kind"] in held.STRUCTURED:
                groups.append(f"{row['family']}:structured")
            if f[0] != "kept":
                for g in groups:
                    table[g]["dropped"] += 1
                continue
            raw, keep = f[1][v["turn"]], f[2][v["turn"]]
            at = held.locate(raw, row["turns"][v["turn"]]["text"], v["start"], v["value"]) if keep else None
            if at is None:
                for g in groups:
                    table[g]["unaligned"] += 1
                continue
            removed, _, _ = held.fate(keep, at, v["value"])
            for g in groups:
                table[g]["n"] += 1
                table[g]["leaked"] += not removed
            if not removed:
                kept = "".join(c if keep[at + k] else "_" for k, c in enumerate(v["value"]))
                leaks.append({"row": row, "canary": v, "kept": kept})
    out = {g: {**dict(c), "leak_rate": round(c["leaked"] / c["n"], 3) if c["n"] else None,
               "leaked_ci95": held.wilson(c["leaked"], c["n"])["ci95"]}
           for g, c in sorted(table.items())}
    return out, leaks


def explain(leaks: list[dict]) -> list[str]:
    """Each leak with the in-process policy's reading: the rule that kept it, or not_found."""
    if not leaks:
        return []
    rows = []
    for leak in leaks:
        r = leak["row"]
        rows.append({"id": r["id"], "turns": [{**t, "images": []} for t in r["turns"]], "family": r["family"],
                     "planted": [{**leak["canary"]}], "template": r["frame"], "kept": leak["kept"]})
    lines = []
    for row, red in wide.redacted(rows):
        p = row["planted"][0]
        why = red.reason or wide.outcome(row, p, red)
        lines.append(f"  {row['family']} {p['kind']:7} {p['value']!r:32} {why:28} | {row['kept']!r:32} | {row['template'][:90]!r}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", default="written", choices=["written", "wide"])
    parser.add_argument("--n", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--chitchat", type=Path, default=None)
    parser.add_argument("--luhn-share", type=float, default=0.75, help="the share of cards given a valid check digit")
    parser.add_argument("--names", default="faker", choices=["wide", "faker"],
                        help="the wide canaries' rare names, or Faker's frequency-weighted ones (names.json)")
    parser.add_argument("--hosts", default="all", choices=["all", "public", "topical_chat"],
                        help="all chitchat conversations, those about public life or stories (tagged public_life or "
                             "fiction), or Topical-Chat's (valid_freq, from --data) that the held-out bench does not hold")
    parser.add_argument("--data", type=Path, default=held.ROOT.parent / "shared" / "data",
                        help="shared data folder, for --hosts topical_chat")
    parser.add_argument("--show", type=int, default=0, help="print this many leaks of the tune family, explained")
    parser.add_argument("--show-family", default=None,
                        help="print the leaks of this family instead (reading the check family makes it a tuning one)")
    args = parser.parse_args()
    wheel = held.chitchat_path(args.chitchat)
    if wheel is None:
        print(f"skipped: {held.CHITCHAT_HELP}")
        return
    if args.hosts == "topical_chat":
        if not (args.data / held.TOPICAL_FILE).is_file():
            print(f"skipped: {args.data / held.TOPICAL_FILE} not found (--data)")
            return
        rows = build(args.n, args.seed, args.frames, held.load_topical(args.data / held.TOPICAL_FILE), args.luhn_share,
                     args.names, "all", source="topical_chat")
    else:
        rows = build(args.n, args.seed, args.frames, held.load_chitchat(wheel), args.luhn_share, args.names,
                     args.hosts)
    fates = run_cli(rows)
    table, leaks = score(rows, fates)
    for g, c in table.items():
        if g.endswith(":dialogues"):
            print(f"{g:18} not scored: {', '.join(f'{k} {v}' for k, v in sorted(c.items()) if isinstance(v, int))}")
        else:
            print(f"{g:18} leaked {c.get('leaked', 0)}/{c.get('n', 0)}  dropped {c.get('dropped', 0)}")
    tune = TUNE[args.frames]
    lines = explain(leaks)  # each leak read once by the in-process policy
    for line in [x for x in lines if x.split()[0] == (args.show_family or tune)][: args.show]:
        print(line)
    why = Counter()  # every leak's reading, counted (the check family's leaks are not printed one by one)
    for line in lines:
        family, kind, reading = line.split()[0], line.split()[1], line.split(" | ")[0].split()[-1]
        why[(family, kind, reading)] += 1
    for (family, kind, reading), count in sorted(why.items()):
        print(f"  {family}:{kind:7} {reading:28} {count}")
    for key in sorted({f"{f}:{k}" for f, k, _ in why}):
        table[key]["readings"] = {r: c for (f, k, r), c in why.items() if f"{f}:{k}" == key}
    result = {"bench": "pii_chitchat_canaries", "frames": args.frames, "n": args.n, "seed": args.seed,
              "luhn_share": args.luhn_share, "names": args.names, "hosts": args.hosts,
              "split": {"tuned_on": f"WildChat, wide canaries family A, family {tune} here",
                        "checked_on": "the other family here", "held_out": "bench/pii_heldout.py",
                        "hosts": ("Topical-Chat valid_freq" if args.hosts == "topical_chat" else "chitchat-dataset 0.9.0")
                                 + " conversations not in bench/pii_heldout"},
              "groups": table}
    suffix = "".join(f"_{value}" for value, default in ((args.frames, "written"), (args.names, "faker"),
                                                         (args.hosts, "all")) if value != default)
    out = RESULTS.with_name(f"pii_chitchat_canaries{suffix}.json")
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
