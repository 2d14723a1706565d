"""PII written in every shape a grid can name: cards, postal codes, streets and lower-case names.

Each grid crosses the ways a value is written (a card's length, separator and check digit; a town and
its code; a street of many countries; a name of two or three words, typed as written or in lower case)
with wordings a chat user types, and runs each message through clean as bench/pii_written_probes.py
does (the user's first turn of a two-turn dialogue, context models on). Values are generated with a fixed
seed; the wordings were written for this bench in session 46, after bench/pii_heldout.py's counts (only)
showed cards, postal codes and lower-case names leaking. Every figure here is a TUNING figure: the
rules were changed while reading these grids' misses; the held-out report stays bench/pii_heldout.py.

A value leaks when any of its 3+ character words or digit groups survives (pii_written_probes.survived).
Writes bench/results/pii_shape_grids.json: per grid, leaked/n overall and per dimension; its
``before_session_46`` entry holds the same grids run against a worktree at c851609 (the commit before
session 46's changes: ``PYTHONPATH=WORKTREE python bench/pii_shape_grids.py`` there), kept by hand; a run
here keeps the keys it does not write.

Usage: python bench/pii_shape_grids.py [--grid cards|postal_codes|streets|names ...] [--show N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from collections import Counter
from pathlib import Path

import pii_written_probes as wp

RESULTS = Path(__file__).resolve().parent / "results" / "pii_shape_grids.json"
SPLIT = {"tuned_on": "these generated grids (session 46)", "held_out": "bench/pii_heldout.py"}
CONTEXT = ["haha yeah for sure\n", "oh nice\nwhat do you do for work\n", ""]


def _message(rnd: random.Random, kind: str, frame: str, value: str, case: str, shape: str, city: str = "") -> dict:
    """A message: chat before it, ``value`` in the wording ``frame`` (``{v}``, or ``{zip}`` and ``{city}``),
    all of it lower-cased when ``case`` is "lower"."""
    text = rnd.choice(CONTEXT) + frame.format(v=value, zip=value, city=city)
    if case == "lower":
        text, value = text.lower(), value.lower()
    return {"text": text, "values": [{"kind": kind, "value": value}], "dims": {"shape": shape, "case": case, "wording": frame}}


def _luhn_fixed(digits: str, valid: bool) -> str:
    from builder.clean.numbers import luhn_ok

    for last in "0123456789":
        candidate = digits[:-1] + last
        if luhn_ok(candidate) is valid:
            return candidate
    raise AssertionError("unreachable: one last digit in ten passes Luhn")


def cards(rnd: random.Random) -> list[dict]:
    shapes = [(16, "4", [4, 4, 4, 4]), (16, "5", [4, 4, 4, 4]), (15, "37", [4, 6, 5]), (14, "36", [4, 6, 4]),
              (19, "6", [4, 4, 4, 4, 3]), (13, "4", [4, 4, 5])]
    seps = ["", " ", "-", ".", "  ", "\u00a0", " - ", "\u2013", "\t"]
    frames = ["my card number is {v}", "{v} is my visa, can you check if it's valid", "charge it to {v} please",
              "card: {v} exp 04/27", "here's my mastercard {v}, cvv 123", "use the amex {v}", "debit {v}", "cc {v}",
              "mi tarjeta es {v}", "ma carte bancaire : {v}", "i paid with {v} yesterday and it got declined", "{v}",
              "I need to update the card on file. The new one is {v}", "{v} (that's my visa)", "payment details: {v}"]
    items = []
    for (n, prefix, groups), sep, valid, frame in itertools.product(shapes, seps, (True, False), frames):
        digits = _luhn_fixed(prefix + "".join(str(rnd.randrange(10)) for _ in range(n - len(prefix))), valid)
        parts, at = [], 0
        for g in groups:
            parts.append(digits[at:at + g])
            at += g
        value = sep.join(parts)
        items.append({"text": frame.format(v=value), "values": [{"kind": "CARD", "value": value}],
                      "dims": {"length": n, "separator": repr(sep), "luhn": valid, "wording": frame}})
    return items


def postal_codes(rnd: random.Random) -> list[dict]:
    digits = lambda n: "".join(str(rnd.randrange(10)) for _ in range(n))  # noqa: E731
    letters = lambda n: "".join(rnd.choice("ABCDEFGHJKLMNPRSTUVWXY") for _ in range(n))  # noqa: E731
    shapes = {"5": lambda: digits(5), "6": lambda: str(rnd.randrange(100000, 999999)),
              "ca": lambda: f"{letters(1)}{digits(1)}{letters(1)} {digits(1)}{letters(1)}{digits(1)}",
              "uk": lambda: f"LS{rnd.randrange(1, 20)} {digits(1)}{letters(2)}", "nl": lambda: f"{digits(4)} {letters(2)}",
              "pl": lambda: digits(2) + "-" + digits(3), "4": lambda: digits(4), "jp": lambda: digits(3) + "-" + digits(4)}
    towns = [("Austin", "5"), ("Denver", "5"), ("Portland", "5"), ("Toledo", "5"), ("Berlin", "5"), ("Lyon", "5"),
             ("Madrid", "5"), ("Mumbai", "6"), ("Pune", "6"), ("Singapore", "6"), ("Moscow", "6"), ("Toronto", "ca"),
             ("Leeds", "uk"), ("Amsterdam", "nl"), ("Warsaw", "pl"), ("Sydney", "4"), ("Oslo", "4"), ("Tokyo", "jp")]
    frames = ["{city} {zip} represent lol", "is {zip} in {city}? my gps is so confused", "{city}, {zip} is home",
              "we're in {zip} {city} now", "born and raised in {city} {zip}", "i'm up in {city} ({zip})",
              "{zip} {city} gang", "anyone else from {city} {zip}??", "my mom still lives in {city} {zip}",
              "moved from {city} {zip} last year", "{city} {zip}\nthat's me", "my zip in {city} is {zip}",
              "{city} ({zip}) weather is awful today", "my postcode's {zip}", "{zip} (zip)"]
    return [_message(rnd, "ZIP", frame, shapes[shape](), case, shape, city=city)
            for (city, shape), frame, case in itertools.product(towns, frames, ("as_typed", "lower"))]


def streets(rnd: random.Random) -> list[dict]:
    names = ["Maple", "Cedar", "Willow", "Lincoln", "Sunset", "Highland", "Church", "Chestnut", "Fairview", "Orchard"]
    kinds = ["St", "Street", "Ave", "Rd", "Drive", "Ln", "Blvd", "Ct", "Way", "Close", "Crescent"]
    shapes = {
        "us": lambda n: f"{n} {rnd.choice(names)} {rnd.choice(kinds)}",
        "us_unit": lambda n: f"{n} {rnd.choice(names)} {rnd.choice(kinds)} Apt {rnd.randrange(1, 40)}{rnd.choice('ABC')}",
        "us_ordinal": lambda n: f"{n} {rnd.randrange(1, 99)}th {rnd.choice(kinds)}",
        "de": lambda n: f"Lindenweg {n}a", "de_nr": lambda n: f"Hauptstraße Nr. {n}", "fr": lambda n: f"{n} rue des Lilas",
        "es": lambda n: f"Calle Mayor {n}, 3º B", "it": lambda n: f"Via Roma {n}", "pl": lambda n: f"ul. Lipowa {n}/3",
        "tr": lambda n: f"Atatürk Caddesi No: {n}", "kr": lambda n: f"{n} Teheran-ro", "uk": lambda n: f"Flat 2, {n} Kingsley Road",
        "au": lambda n: f"Unit 4/{n} Smith St", "br": lambda n: f"Rua das Flores, {n}", "co": lambda n: f"Carrera {n} # 45-12"}
    frames = ["I live at {v}", "my address is {v}", "send it to {v}", "come over to {v} tonight", "{v} is my place",
              "the party is at my house, {v}", "drop it off at {v}, ring twice", "im at {v} rn", "we just bought {v}!!",
              "my apartment at {v} has mold", "{v}\nthat's where I live", "mail it to {v} please"]
    return [_message(rnd, "STREET", frame, make(rnd.randrange(1, 9999 if shape.startswith("us") else 200)), case, shape)
            for (shape, make), frame, case in itertools.product(shapes.items(), frames, ("as_typed", "lower"))]


def names(rnd: random.Random) -> list[dict]:
    people = ["Mary Ann Smith", "Juan Carlos Pérez", "Ana María López", "Nguyen Van Minh", "Jean Pierre Dubois",
              "Sarah Jane Miller", "Maria de Souza", "Anna Lena Schmidt", "John Paul Kowalski", "Li Wei Chen",
              "Emily Rose Carter", "Kim Min Jun", "Olga Ivanovna Petrova", "Aisha Bello Musa", "Priya Devi Sharma",
              "Teresa White", "Jean Halder", "Daan Davies", "Chiamaka Obi", "Lukas Novak", "Ines Moreau", "Keisha Brown"]
    frames = ["my name is {n}", "I'm {n} btw", "this is {n}, nice to meet you", "my sister {n} is visiting",
              "he signed the card \"{n}\" lol", "send it to {n} please", "{n} is my roommate", "I went to prom with {n}",
              "my boss {n} is so annoying", "ask for {n} at the front desk", "yeah {n} from my class", "love you {n}!!",
              "im {n} whats ur name", "we named the baby {n}"]
    items = []
    for person, frame, case in itertools.product(people, frames, ("as_typed", "name_in_lower_case")):
        value = person if case == "as_typed" else person.lower()
        items.append({"text": rnd.choice(CONTEXT) + frame.format(n=value), "values": [value],
                      "dims": {"words": len(person.split()), "case": case, "wording": frame}})
    return items


GRIDS = {"cards": cards, "postal_codes": postal_codes, "streets": streets, "names": names}


def run(grid: str, show: int = 0) -> dict:
    items = GRIDS[grid](random.Random(f"pii-shape-grids:{grid}"))
    for k, item in enumerate(items):
        item.update(id=f"g{2 * k + 1:05d}", speaker="user")  # odd ids: all of a grid is tuning data
    result = wp.score(items)
    leaked = {m["id"] for m in result["misses"] if m["kind"] != "KEEP"}
    dropped = sum(c.get("dropped", 0) for c in result["groups"].values() if "dropped" in c)
    per: dict[str, Counter] = {}
    for item in items:
        for dim, value in item["dims"].items():
            key = f"{dim}={value}"
            per.setdefault(key, Counter())["n"] += 1
            per[key]["leaked"] += item["id"] in leaked
    for miss in result["misses"][:show]:
        print(" ", grid, repr(miss["after"]), "|", miss["value"], miss["kept_by"])
    return {"n": len(items), "leaked": len(leaked), "dropped": dropped,
            "by": {k: dict(c) for k, c in sorted(per.items())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", choices=sorted(GRIDS), action="append")
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    doc = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    doc["split"] = SPLIT
    for grid in args.grid or list(GRIDS):
        doc[grid] = run(grid, args.show)
        print(f"{grid:14s} leaked {doc[grid]['leaked']}/{doc[grid]['n']}  dropped {doc[grid]['dropped']}")
        for key, c in doc[grid]["by"].items():
            if c["leaked"]:
                print(f"  {key[:60]:60s} {c['leaked']}/{c['n']}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print("->", RESULTS)


if __name__ == "__main__":
    main()
