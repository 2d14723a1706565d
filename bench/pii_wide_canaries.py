"""PII recall on the TUNING source with many wordings: a check of how rules generalise.

``bench/pii_tuning_canaries.py`` plants values in ten sentence frames, and the rules reach 0.99
on it while held-out recall (bench/pii_heldout.py, other sources and wordings) is far lower: ten
frames are ten fitted parameters. This bench plants values from many countries' formats and
name traditions in 48 frames of the kinds chat users write (introductions, family, forms and
pasted records, letters, complaints, bookings, CVs, transcripts), upper and lower case, into
real WildChat user turns (the tuning source). The frames are split into two families:

- ``A`` (tune): may be read and worked on;
- ``B`` (check): written at the same time, scored separately; a rule change that lifts A and
  not B fitted A's wordings.

Both stay the tuning split: the held-out report is bench/pii_heldout.py. A value survives when
its text is still there, or any of its 3+ character words or digit groups is (an e-mail's
domain excepted); a dialogue that is dropped keeps nothing and is counted apart.

Usage: python bench/pii_wide_canaries.py [--n 400] [--seed 11] [--family A|B|both] [--show 30]
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

import pii_tuning_canaries as base

REPO = Path(__file__).resolve().parents[1]

FIRST = ["Ksenia", "Abebe", "Siobhan", "Joaquín", "Mei-Lin", "Oluwaseun", "Bartholomew", "Anneliese", "Rustam",
         "Pooja", "Tiago", "Zainab", "Eero", "Magdalena", "Kwame", "Ludmila", "Hamza", "Ayesha", "Bjørn", "Camille",
         "Dorothea", "Emeka", "Fatoumata", "Gwendolyn", "Hiroshi", "Ilse", "Jovana", "Karan", "Leocadia", "Marisol",
         "Nnamdi", "Orsolya", "Paulo", "Quentin", "Radhika", "Svetlana", "Tariq", "Ulla", "Valentina", "Wanjiru",
         "Yerlan", "Zofia", "Darnell", "Shanice", "Brody", "Kayleigh", "Tobias", "Greta", "Anh", "Minh"]
LAST = ["Abernathy", "Bogdanović", "Chukwuemeka", "Dąbrowski", "Eriksen", "Fitzgerald-Obi", "Gonçalves", "Hakobyan",
        "Iwasaki", "Jankowska", "Kaczmarek", "Lemaire", "Moreno-Vidal", "Nwachukwu", "O'Sullivan", "Pellegrini",
        "Quispe", "Rautio", "Szabó", "Tkachenko", "Uchenna", "van der Linde", "Wiśniewski", "Xu", "Yilmaz",
        "Zielinski", "Nguyen", "Okafor", "Sørensen", "McAllister", "Baptiste", "Kuznetsova"]
STREET = ["{n} Birchwood Drive", "{n} Kensington Gardens Road", "{n} W 34th St", "{n} Old Mill Lane", "{n} Harbour View Crescent",
          "Flat {m}, {n} Cranbrook Road", "Apt {m}B, {n} Sycamore Blvd", "{n} Rue Saint-Honoré", "Schillerstraße {n}",
          "Carrer de Provença {n}", "Avenida Paulista, {n}", "ul. Marszałkowska {n}/{m}", "{n} Jalan Ampang",
          "Plot {n}, Sector {m}", "{n} Wattle Grove", "Keizersgracht {n}", "{n} Ocean Pkwy", "Via dei Mille {n}",
          "{n} Maple Ct", "{n} Kings Way", "{n} Church St", "{n} Pine Hollow Rd"]
ZIP = ["{d5}", "{d5}-{d4}", "M5V 2T6", "EH1 1YZ", "10117", "1017 CT", "560034", "01310-100", "00-950", "2000", "160-0022"]
PHONE = ["({d3}) {d3}-{d4}", "{d3}.{d3}.{d4}", "+1-{d3}-{d3}-{d4}", "07{d3} {d6}", "+44 20 {d4} {d4}",
         "06 {d2} {d2} {d2} {d2}", "+49 30 {d7}", "9{d4} {d5}", "+55 11 9{d4}-{d4}", "04{d2} {d3} {d3}",
         "090-{d4}-{d4}", "0803 {d3} {d4}", "{d3}{d3}{d4}", "+7 9{d2} {d3}-{d2}-{d2}", "+234 80{d1} {d3} {d4}"]
CARD = ["4{d3} {d4} {d4} {d4}", "5{d3}-{d4}-{d4}-{d4}", "37{d2} {d6} {d5}", "6011{d12}", "4{d15}"]
IDS = [("social security number", "{d3}-{d2}-{d4}"), ("NI number", "QQ {d2} {d2} {d2} C"),
       ("aadhaar", "{d4} {d4} {d4}"), ("SIN", "{d3} {d3} {d3}"), ("passport no.", "K{d7}"),
       ("licence number", "D{d3}-{d4}-{d4}"), ("student ID", "2019{d5}"), ("account number", "{d8}"),
       ("member number", "{d3}-{d3}-{d3}"), ("tax ID", "{d2}-{d7}"), ("CPF", "{d3}.{d3}.{d3}-{d2}"),
       ("DNI", "{d8}Z"), ("policy #", "PLY-{d7}"), ("patient ID", "MRN{d6}")]
DOB = ["{day} {month} {year}", "{month} {day}, {year}", "{d2_day}/{d2_mon}/{year}", "{year}-{d2_mon}-{d2_day}"]
MONTHS = ["January", "February", "April", "June", "August", "September", "November", "December"]

# (family, frame, kinds). Placeholders: {full} {first} {last} {first_l} {full_l} {first2} {street}
# {zip} {phone} {card} {id_cue} {id} {email} {dob} {city}. Kinds: KIND:placeholder.
FRAMES = [
    ("A", "Hello, my name is {first} and I need help with a letter.", ("PERSON:first",)),
    ("A", "hi im {first_l} and i have a question about my visa", ("PERSON:first_l",)),
    ("A", "My sister {first2} is 72 and she keeps forgetting her pills, how can I help her?", ("PERSON:first2",)),
    ("A", "I broke up with {first2} last month and I still text her at night.", ("PERSON:first2",)),
    ("A", "Name: {full}\nPhone: {phone}\nAddress: {street}, {city} {zip}", ("PERSON:full", "PHONE:phone", "STREET:street", "ZIP:zip")),
    ("A", "Please write a complaint. My order never arrived at {street}, {city}, {zip}.", ("STREET:street", "ZIP:zip")),
    ("A", "my cc is {card} exp 09/27, is it safe to give it to this site?", ("CARD:card",)),
    ("A", "they asked for my {id_cue} {id} on the phone, was that a scam?", ("ID:id",)),
    ("A", "Can you fix the grammar: Dear Sir, I am {full}, born on {dob}, and I apply for the position.", ("PERSON:full", "DOB:dob")),
    ("A", "Rewrite this CV header:\n{full}\n{street}\n{email} | {phone}", ("PERSON:full", "STREET:street", "EMAIL:email", "PHONE:phone")),
    ("A", "I keep getting texts to {phone} from an unknown sender, how do I stop them?", ("PHONE:phone",)),
    ("A", "Our landlord {full} has not returned the deposit for {street}.", ("PERSON:full", "STREET:street")),
    ("A", "[10:32] {first}: are you coming tonight?\n[10:33] {first2}: yes", ("PERSON:first", "PERSON:first2")),
    ("A", "Review by {full} (verified buyer): the blender broke after two weeks.", ("PERSON:full",)),
    ("A", "my son {first2} has a fever of 39, should I take him to the ER?", ("PERSON:first2",)),
    ("A", "write a birthday message for my best friend {full_l}", ("PERSON:full_l",)),
    ("A", "The transfer to {full} failed, the card ending {card} was declined.", ("PERSON:full", "CARD:card")),
    ("A", "ship it to {full}, {street}, {zip} {city} please", ("PERSON:full", "STREET:street", "ZIP:zip")),
    ("A", "emergency contact: {first2} {last} ({phone})", ("PERSON:first2", "PHONE:phone")),
    ("A", "i live at {street_l} and the noise from the bar is unbearable", ("STREET:street_l",)),
    ("A", "Thanks a lot!\n{first}", ("PERSON:first",)),
    ("A", "my zip is {zip} and the form says it is invalid", ("ZIP:zip",)),
    ("A", "I'm {full}, {age} years old, and I was diagnosed with diabetes last year.", ("PERSON:full",)),
    ("A", "Meeting notes. Attendees: {full}, {first2} {last2}, me. Action: {first} to send the budget.", ("PERSON:full", "PERSON:first2")),
    ("B", "Good evening, {first} here. Could you help me plan a trip?", ("PERSON:first",)),
    ("B", "this is {full_l} writing, my laptop won't boot", ("PERSON:full_l",)),
    ("B", "My husband {first2} lost his job and we can't pay rent.", ("PERSON:first2",)),
    ("B", "Yesterday {first2}, my coworker, yelled at me in front of everyone.", ("PERSON:first2",)),
    ("B", "Customer: {full}; tel. {phone}; deliver to {street}", ("PERSON:full", "PHONE:phone", "STREET:street")),
    ("B", "The bank says my card {card} was used in another country.", ("CARD:card",)),
    ("B", "write an email to the embassy, my {id_cue} is {id} and my name {full}", ("ID:id", "PERSON:full")),
    ("B", "I moved to {street}, {city}. How do I update my address with the DMV?", ("STREET:street",)),
    ("B", "pls call {first_l} at {phone} tomorrow, it's about the car", ("PERSON:first_l", "PHONE:phone")),
    ("B", "Signed,\n{full}\n{phone}", ("PERSON:full", "PHONE:phone")),
    ("B", "Help me reply to {first2}, she wrote that she is pregnant and scared.", ("PERSON:first2",)),
    ("B", "Booking for {full}, {dob}, passport {id}", ("PERSON:full", "DOB:dob", "ID:idonly")),
    ("B", "our new address: {street_l}, {zip}", ("STREET:street_l", "ZIP:zip")),
    ("B", "{first} and I are getting divorced; who keeps the house at {street}?", ("PERSON:first", "STREET:street")),
    ("B", "Mail me at {email} or whatsapp {phone}.", ("EMAIL:email", "PHONE:phone")),
    ("B", "Grandma {first2} {last2} passed away, help me write the eulogy.", ("PERSON:first2",)),
    ("B", "The teacher, Mrs. {last}, gave my daughter {first2} a detention.", ("PERSON:last", "PERSON:first2")),
    ("B", "postal code {zip}, is this area safe?", ("ZIP:zip",)),
    ("B", "Patient: {full}, DOB {dob}. Complains of chest pain.", ("PERSON:full", "DOB:dob")),
    ("B", "I paid with {card} and got charged twice", ("CARD:card",)),
    ("B", "my ex {first2} keeps calling {phone}, that's my work phone", ("PERSON:first2", "PHONE:phone")),
    ("B", "Cheers, {first_l}", ("PERSON:first_l",)),
    ("B", "Translate to French: I am {full} and I live at {street}.", ("PERSON:full", "STREET:street")),
    ("B", "From: {full} <{email}>\nSubject: refund", ("PERSON:full", "EMAIL:email")),
]
CITIES = ["Leeds", "Porto Alegre", "Kraków", "Enugu", "Tampere", "Sapporo", "Winnipeg", "Bendigo", "Lyon", "Bhopal"]


def _fill(shape: str, rng: random.Random) -> str:
    def digits(k: int) -> str:
        return str(rng.randrange(1, 10)) + "".join(str(rng.randrange(10)) for _ in range(k - 1))

    return re.sub(r"\{d(\d+)\}", lambda m: digits(int(m.group(1))), shape)


def values(rng: random.Random) -> dict:
    first, first2 = rng.sample(FIRST, 2)
    last, last2 = rng.sample(LAST, 2)
    street = _fill(rng.choice(STREET).replace("{n}", "{d3}" if rng.random() < 0.5 else "{d2}").replace("{m}", "{d1}"), rng)
    id_cue, id_shape = rng.choice(IDS)
    day, month, year = rng.randrange(1, 29), rng.choice(MONTHS), rng.randrange(1950, 2006)
    dob = rng.choice(DOB).format(day=day, month=month, year=year, d2_day=f"{day:02d}",
                                 d2_mon=f"{MONTHS.index(month) + 1:02d}")
    out = {"first": first, "first2": first2, "last": last, "last2": last2, "full": f"{first} {last}",
           "first_l": first.lower(), "full_l": f"{first} {last}".lower(), "street": street, "street_l": street.lower(),
           "zip": _fill(rng.choice(ZIP), rng), "phone": _fill(rng.choice(PHONE), rng), "card": _fill(rng.choice(CARD), rng),
           "id_cue": id_cue, "id": _fill(id_shape, rng), "dob": dob, "city": rng.choice(CITIES),
           "age": rng.randrange(19, 80)}
    out["idonly"] = out["id"]
    out["email"] = f"{_ascii(first).lower()}.{_ascii(last).lower().replace(' ', '')}{rng.randrange(10, 99)}@outlook.com"
    return out


def _ascii(text: str) -> str:
    import unicodedata

    return re.sub(r"[^A-Za-z]", "", unicodedata.normalize("NFKD", text))


def build(n: int, seed: int, family: str) -> list[dict]:
    rng = random.Random(seed)
    frames = [f for f in FRAMES if family in ("both", f[0])]
    host = base.build(n, seed)  # real WildChat user turns (the tuning source), one per dialogue
    out = []
    for row in host:
        for turn in row["turns"]:  # take out the ten-frame sentence the base bench appended
            if row["planted"] and turn["index"] == row["turns"][row["planted"][0]["turn"]]["index"]:
                turn["text"] = turn["text"].rsplit("\n", 1)[0]
        fam, frame, kinds = rng.choice(frames)
        vals = values(rng)
        sentence = frame.format(**vals)
        at = row["planted"][0]["turn"]
        row["turns"][at]["text"] = row["turns"][at]["text"].rstrip() + "\n" + sentence
        planted = [{"kind": k.split(":")[0], "value": vals[k.split(":")[1]], "turn": at} for k in kinds]
        out.append({"id": row["id"], "turns": row["turns"], "planted": planted, "template": frame, "family": fam})
    return out


def survived(value: str, text: str) -> bool:
    own = value.split("@")[0]
    if own in text:
        return True
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in re.findall(r"\w{3,}", own))


def redacted(rows: list[dict]):
    """Each row (``id``, ``turns``) with what the clean stage's PII path makes of it, in-process."""
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue

    config = CleanConfig()
    flat = iter(PiiDetector(config).scan([t["text"] for row in rows for t in row["turns"]], None,
                                         [k > 0 for row in rows for k in range(len(row["turns"]))]))
    for row in rows:
        scans = [next(flat) for _ in row["turns"]]
        yield row, redact_dialogue(row["id"], row["turns"], scans, config)


def outcome(row: dict, planted: dict, red) -> str:
    """removed, kept:<the rules that kept it>, or not_found."""
    text = red.turns[planted["turn"]]["text"]
    start = row["turns"][planted["turn"]]["text"].rfind(planted["value"])
    rules = {s["suppressed_by"] for s in red.suppressed if s["turn"] == planted["turn"]
             and s["start"] < start + len(planted["value"]) and start < s["end"]}
    return ("removed" if not survived(planted["value"], text)
            else "kept:" + ",".join(sorted(rules)) if rules else "not_found")


def score(rows: list[dict]) -> dict:
    table: dict[tuple[str, str], Counter] = defaultdict(Counter)
    dropped: Counter = Counter()
    misses = []
    for row, red in redacted(rows):
        if red.reason:
            dropped[row["family"]] += 1
            continue
        for p in row["planted"]:
            text = red.turns[p["turn"]]["text"]
            found = outcome(row, p, red)
            table[(row["family"], p["kind"])][found] += 1
            if found != "removed":
                misses.append({"family": row["family"], "kind": p["kind"], "value": p["value"], "outcome": found,
                                "frame": row["template"], "after": text[-200:]})
    kinds = {}
    for (fam, kind), c in sorted(table.items()):
        n = sum(c.values())
        kinds[f"{fam}:{kind}"] = {"n": n, "removed": c["removed"], "recall": round(c["removed"] / n, 3),
                                  "outcomes": dict(c)}
    fams = {}
    for fam in sorted({r["family"] for r in rows}):
        k = sum(v["removed"] for key, v in kinds.items() if key.startswith(fam + ":"))
        n = sum(v["n"] for key, v in kinds.items() if key.startswith(fam + ":"))
        structured = [v for key, v in kinds.items() if key.startswith(fam + ":") and key.split(":")[1] not in ("PERSON",)]
        fams[fam] = {"dialogues": sum(r["family"] == fam for r in rows), "dropped": dropped[fam],
                     "recall_all": round(k / n, 3) if n else None,
                     "structured_leaked": sum(v["n"] - v["removed"] for v in structured),
                     "structured_n": sum(v["n"] for v in structured)}
    return {"split": {"tuned_on": "WildChat + frames of family A", "checked_on": "frames of family B (same source)",
                      "held_out": "bench/pii_heldout.py"}, "families": fams, "kinds": kinds, "misses": misses}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--family", default="both", choices=["A", "B", "both"])
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--show-family", default="A")
    args = parser.parse_args()
    if not base.DATA.is_dir():
        raise SystemExit(f"skipped: {base.DATA} not present")
    result = score(build(args.n, args.seed, args.family))
    for key, row in result["kinds"].items():
        print(f"{key:9} recall {row['recall']:.3f} ({row['removed']}/{row['n']})  {row['outcomes']}")
    for fam, row in result["families"].items():
        print(f"family {fam}: {row}")
    shown = [m for m in result["misses"] if m["family"] == args.show_family][: args.show]
    for miss in shown:
        print("  miss", {k: miss[k] for k in ("kind", "value", "outcome", "frame")})
    out = REPO / "bench" / "results" / "pii_wide_canaries.json"
    out.write_text(json.dumps({k: v for k, v in result.items() if k != "misses"}, indent=2, sort_keys=True) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
