"""PII as people type it, in messages written by helpers who never saw this code or its data.

Seventeen sets under bench/pii_written_probes/, each written for this bench by an AI helper from its
own knowledge (nothing copied from a dataset; every value fake), each split by id: odd ids are
the TUNING half (their misses may be read), even ids the CHECK half (scored only):

- ``structured`` (probes.jsonl): 200 messages with phones, cards, postcodes, ids, e-mails,
  streets and birth dates of many countries, and 60 with numbers that are no one's;
- ``structured_d``: 180 longer messages with postcodes, cards and ids in ordinary talk, 60 to keep;
- ``names``: 180 messages with private names, 80 with public, fictional or puzzle names to keep;
- ``streets``: 150 messages with private street addresses, 50 with public ones or street names.
- ``accounts``: 140 messages that give an online account (handles, usernames, gamer tags, payment
  handles) or a secret (passwords, PINs, door codes), 37 of them in seven other languages, and 60
  with public accounts, code annotations, placeholders and talk about accounts to keep.
- ``numbers``: 300 messages with 387 postcodes, cards (also last fours, expiries, CVVs), ids and
  phones, about a third with no cue word before the value, 47 in seven other languages, and 120
  with numbers that are no one's (public ZIPs, documentation test cards, models, hotlines) to keep.

- ``numbers_b``: 200 messages with 242 postcodes, cards, ids and phones in texting style or to
  support, and 200 with tempting numbers nobody owns ("my score was 30412", "my room is 1204").
  Written after the number-context model was trained: neither half was in its training or
  read until session 44, when its tuning half joined the training; its check half measures it.

- ``numbers_c`` (session 44): 200 messages with 217 postcodes, cards, ids and phones, half of them
  with no cue word naming their kind, 15% in other languages, and 200 with 261 tempting numbers
  nobody owns (scores, SKUs, hotlines, documentation test cards, a city's public ZIP asked about).
  Written before the number-context model learnt from ``numbers_b``'s and its own tuning halves;
  measured on both halves first, then its tuning half joined the training.

- ``streets_b`` (session 45): 260 messages with 271 private street addresses of many countries and
  shapes (a third in other languages, half with no cue word such as "address" or "live"), and 140
  with public addresses, street names and numbers beside capitalised words to keep. Written before
  the street-context model was built; its tuning half is in that model's training, its check half
  measures it.

- ``names_b``: 200 messages typed with capitals in which private names are typed in lower case
  ("Went to the cinema with jake and his brother"), most with no relation word before the name,
  39 of the names also English words, a third of them between people; and 120 with the same
  style and lower-case words that look like names but are none here (a rose garden, pay the bill,
  tom yum, nike, a public figure typed in lower case) to keep. Written in session 42, after
  bench/pii_heldout.py showed (in counts only) that lower-case names in turns with capitals are
  most of what it misses; the tuning sets held few of them.

- ``places_c`` (session 47): 200 messages with 275 private postal codes and street addresses (138 ZIP,
  137 STREET; 120 US, 80 of 20 other countries; a third in other languages; most with no cue word),
  typed as students text each other or a user writes to a chatbot, and 100 with public, famous or
  fictional addresses, routes, scores, years and prices after a town to keep.
- ``names_c`` (session 47): 200 messages with 237 private names (125 typed in lower case, 51 of two
  words or more: particles, middle initials, initials, nicknames, names that are English words, many
  cultures), half between friends, and 100 with celebrities, characters, brands, places and words
  that look like names to keep.
  Both were written by helpers who saw no code or data, after bench/pii_heldout.py's counts; their
  figures before any rule read them are in the JSON's ``before_reading`` entries.
- ``places_d`` (session 50): 200 messages with 271 private postal codes and streets of about 30
  countries (codes before and after the town, alone, in brackets, in questions, half typed in lower
  case, a quarter in other languages), and 100 with years, counts, scores, public addresses, titles,
  routes and model numbers after towns to keep.
- ``nicknames_d`` (session 50): 200 messages naming private people by nicknames, short forms and
  handles (205 values: vocatives, sign-offs, "call me ...", word-like nicknames such as "tank",
  half in lower case, 15% in other languages, 60% between people), and 100 with terms of address,
  the same words as plain words, public figures' nicknames, characters and brands to keep.
  Written by helpers who saw no code or data; ``before_reading`` as above.

- ``places_e`` (session 52): 200 messages with 204 private values (93 postal codes of many countries,
  often standing where a place would, "whats the vibe in 94110"; 81 streets typed as people text them,
  lower case, units first, cue words misspelt; 19 ids and 11 phones typed casually), half between
  people, a fifth in other languages; and 100 with look-alikes to keep (years, counts, amounts after
  towns, ranges, model and route numbers, public addresses). Written by a helper who saw no code or
  data, after session 52's first rules (codes where a place stands, ids named after them, lower-case
  streets after "at"), so both halves measure them; its must-keep values are every token with a digit
  in the 100 messages to keep, taken by a script (the helper wrote no ``keep`` lists).

- ``ids_e`` (session 52): 160 messages with 168 private identifiers (108: national ids, passports, licences,
  member, patient and account numbers, plates, IBANs) and phones (60) typed casually, the cue word after the
  value, misspelt or missing, on its own line under a name, half between people, a fifth in other languages;
  and 80 with 128 public numbers to keep (hotlines, order and tracking numbers asked about, SKUs, ISBNs,
  flights, error codes, test cards, sums), each listed in its ``keep``. Written by a helper who saw no code
  or data, after session 52's rules for ids named after them and records' identifiers.

- ``places_f`` (session 53): 200 messages with 157 private street addresses (about three in four
  without an English street-type word or a cue: "im at 220 w 14th", house numbers after the name, the
  local language's way in a third of them) and 69 postal codes typed as people drop them (lower case,
  four and six digits), the speaker a coin flip per message; and 100 with look-alikes to keep (public
  and fictional addresses, street names without a number, routes, times, rooms, model numbers, a
  city's code asked about), every token with a digit listed in its ``keep``. Written by a helper who
  saw no code or data, and measured (``before_reading``) before any of it was read.

``--rules-only`` runs clean without the number- and street-context models (``--no-number-context
--no-street-context``) and saves
the set's figures as ``<set>:rules_only``, beside the default run's.

The held-out report stays bench/pii_heldout.py.

A message by the user is the first turn of a two-turn dialogue; a second person's message is the
fourth turn of a chat whose other turns read as people chatting. Each dialogue's languages are
detected as clean detects them, so a turn in another language gets only the language-independent
finders, as it would in clean (before session 47 every message was read as English, and the NER
made names of "número" and "Kannst"). A value survives when its text
is still there, or any of its 3+ character words or digit groups is (an e-mail's domain excepted);
a kept number is damaged when it no longer stands in its turn.

Usage: python bench/pii_written_probes.py [--set structured|structured_d|names|names_b|names_c|nicknames_d|streets|streets_b|places_c|places_d|places_e|places_f|ids_e|accounts|numbers|numbers_b|numbers_c ...] [--rules-only] [--show 40]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import pii_wide_canaries as wide

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "pii_written_probes"
SETS = {"structured": "probes.jsonl", "names": "names.jsonl", "structured_d": "structured_d.jsonl",
        "streets": "streets.jsonl", "accounts": "accounts.jsonl", "numbers": "numbers.jsonl",
        "numbers_b": "numbers_b.jsonl", "names_b": "names_b.jsonl", "numbers_c": "numbers_c.jsonl",
        "streets_b": "streets_b.jsonl", "places_c": "places_c.jsonl", "names_c": "names_c.jsonl",
        "places_d": "places_d.jsonl", "nicknames_d": "nicknames_d.jsonl",
        "places_e": "places_e.jsonl", "ids_e": "ids_e.jsonl", "places_f": "places_f.jsonl"}  # set -> file (each split by id parity)
PEER_BEFORE = [("user", "hey! how was your day?"), ("assistant", "pretty good lol, my sister visited"),
               ("user", "nice haha what's new?")]


def half(item_id: str) -> str:
    return "tune" if int(re.sub(r"\D", "", item_id)) % 2 else "check"


def dialogue(item: dict) -> tuple[list[dict], int]:
    if item.get("speaker") == "other":
        turns, at = [*PEER_BEFORE, ("assistant", item["text"])], 3
    else:
        turns, at = [("user", item["text"]), ("assistant", "Thanks, noted.")], 0
    return [{"index": i, "role": r, "text": t, "images": []} for i, (r, t) in enumerate(turns)], at


def survived(value: dict, text: str) -> bool:
    if value["kind"] in ("USERNAME", "PASSWORD"):  # an "@handle" is no e-mail: all of it is the value
        bare = value["value"].lstrip("@$").removeprefix("u/")
        return bare in text or any(re.search(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", text)
                                   for w in re.findall(r"[^\W_]{3,}", bare) if w.lower() not in ("the", "and"))
    if value["kind"] != "PERSON":
        return wide.survived(value["value"], text)
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in value["value"].split() if len(w) >= 2)


def score(items: list[dict], context_models: bool = True) -> dict:
    from builder.clean.config import CleanConfig
    from builder.clean.languages import dialogue_languages, english_turns
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue

    config = CleanConfig(number_context=context_models, street_context=context_models)
    built = [(item, *dialogue(item)) for item in items]
    found = dialogue_languages([turns for _, turns, _ in built])  # the English-only finders where clean runs them
    english = [e for (_, turns, _), (lang, per_turn) in zip(built, found) for e in english_turns(turns, per_turn, lang)]
    flat = iter(PiiDetector(config).scan([t["text"] for _, turns, _ in built for t in turns], english,
                                         [t["index"] > 0 for _, turns, _ in built for t in turns]))
    table: dict[str, Counter] = defaultdict(Counter)
    misses = []
    for item, turns, at in built:
        scans = [next(flat) for _ in turns]
        red = redact_dialogue(item["id"], turns, scans, config)
        side = half(item["id"])
        if red.reason:
            table[f"{side}:dropped"]["dropped"] += 1
            continue
        text = red.turns[at]["text"]
        for v in item.get("values", []):
            v = {"kind": "PERSON", "value": v} if isinstance(v, str) else v
            outcome = "leaked" if survived(v, text) else "removed"
            for key in (side, f"{side}:{v['kind']}", f"{side}:{item.get('speaker', 'user')}"):
                table[key][outcome] += 1
            if outcome == "leaked":
                original = turns[at]["text"]
                rules = sorted({sp["suppressed_by"] for sp in red.suppressed if sp["turn"] == at
                                and v["value"] in original[sp["start"]:sp["end"]]})
                misses.append({"half": side, "id": item["id"], "kind": v["kind"], "value": v["value"],
                               "kept_by": rules or "not_found", "after": text})
        for value in item.get("keep", []):
            ok = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None
            table[f"{side}:must_keep"]["kept" if ok else "damaged"] += 1
            if not ok:
                misses.append({"half": side, "id": item["id"], "kind": "KEEP", "value": value, "after": text})
    groups = {key: dict(c) for key, c in sorted(table.items())}
    return {"split": {"tuned_on": "odd ids of bench/pii_written_probes (and WildChat, wide canaries A, chitchat tuning)",
                      "checked_on": "even ids (scored only)", "held_out": "bench/pii_heldout.py"},
            "groups": groups, "misses": misses}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--set", choices=sorted(SETS), action="append")
    parser.add_argument("--rules-only", action="store_true", help="without the number- and street-context models")
    args = parser.parse_args()
    out = REPO / "bench" / "results" / "pii_written_probes.json"
    saved = json.loads(out.read_text()) if out.exists() else {}
    saved.pop("groups", None)  # the layout before there were several sets
    for name in args.set or sorted(SETS):
        items = [json.loads(line) for line in (DATA / SETS[name]).read_text().splitlines() if line.strip()]
        result = score(items, context_models=not args.rules_only)
        name = f"{name}:rules_only" if args.rules_only else name
        for key, row in result["groups"].items():
            print(f"{name}:{key:16} {row}")
        for miss in [m for m in result["misses"] if m["half"] == "tune"][: args.show]:
            print("  miss", miss)
        saved["split"] = result["split"]
        saved.setdefault("sets", {}).setdefault(name, {}).update(  # other keys (before_reading) stay
            {"file": f"bench/pii_written_probes/{SETS[name.split(':')[0]]}", "groups": result["groups"]})
    out.write_text(json.dumps(saved, indent=2, sort_keys=True) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
