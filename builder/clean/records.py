"""A pasted personal record: one line of a few fields, separated by commas, semicolons, pipes or
tabs, one of them an e-mail address or a phone number ("charles bilewicz, 11th of August 1994,
zoe88@yahoo.com"; "Ana Ruiz | 0176 2234 9981 | 03/12/1990"). The contact value says whose line it
is: its name-shaped fields are that person's name and its date fields their birth date, in any
case and without a cue word. (A lower-case name is invisible to English NER when the line holds a
capital elsewhere, and a bare date has no birth cue: either leaks without the record.)

A line of prose with an e-mail at its end ("thanks, mail me at a@b.com") has no other field that
is a name or a date alone, so nothing of it is taken; neither is a field of English words
("support team", "main office") or of words no census lists ("Xiaomi Redmi"), and a date is taken
only in a line that holds a name. A phone counts in grouped or international shapes, not as a bare
run of digits.

The same record comes in other layouts: after a lead-in ("Check this for errors: Ana Ruiz, ..."), in
brackets inside a sentence ("the landlord (Ana Ruiz, 0176 2234 9981) never answers"), or one field
per line ("Best,\nAna Ruiz\nana@x.com"; ``record_blocks``), where a date and an identifier of six
digits or more vouch for the block as a contact value does ("Ana Ruiz\n03/12/1990\n62598822").
In a person's record such an identifier field, neither a date nor a contact value, is theirs too
(an ``ID_NUMBER`` span): a bare run of digits has no cue word an id finder could read.
"""

from __future__ import annotations

import re

from builder.clean.dates import DATE, DAY, MONTHS
from builder.traits.code import CONTACT

SEPARATOR = re.compile(r"[ \t]*(?:[,;|\t])[ \t]*")
# The comma of a date written "March 11, 1934" or "11 March, 1934" separates no fields.
COMMA_YEAR = re.compile(r",[ \t]*\d{4}")  # DATE_COMMA's cheap necessary condition
DATE_COMMA = re.compile(rf"(?i:(?:{MONTHS})[ \t]+{DAY}|{DAY}[ \t]+(?:of[ \t]+)?(?:{MONTHS}))[ \t]*,[ \t]*\d{{4}}\b")
DATE_FIELD = re.compile(rf"(?:{DATE})", re.I)
PHONE_FIELD = re.compile(r"\+?[\d ().-]+")
NAME_FIELD = re.compile(r"[^\W\d_][^\W\d_'’.-]*(?:[’'.-][^\W\d_]+)*\.?(?:[ \t]+[^\W\d_][^\W\d_'’-]*(?:[’'-][^\W\d_]+)*){1,3}")
LEAD_IN = re.compile(r"^[^:]{1,60}:[ \t]+(?=\S)")  # words and a colon before the first field
BRACKETED = re.compile(r"\(([^()\n]{5,200})\)")
MAX_FIELDS = 8
MAX_BLOCK_LINE = 60
ID_FIELD = re.compile(r"(?=(?:[^\d\n]*\d){6})[A-Z]{0,3}[ -]?\d[\dA-Z .-]{4,22}[\dA-Z]")  # "62598822", "LS 82 89 54 X"
MAX_LINE = 240

EXAMPLES: tuple[tuple[str, list[str], list[str]], ...] = (  # (line, the names, the dates and identifiers)
    ("charles bilewicz, 11th of August 1994, zoe88@yahoo.com", ["charles bilewicz"], ["11th of August 1994"]),
    ("Ana Ruiz | 0176 2234 9981 | 03/12/1990", ["Ana Ruiz"], ["03/12/1990"]),
    ("martha grant; 23.08.1992; +44 7700 900123", ["martha grant"], ["23.08.1992"]),
    ("thanks, mail me at a@b.com", [], []),                          # prose with an e-mail: no field alone
    ("support team, main office, help@shop.com", [], []),            # English words: no name
    ("Anna Berg, 12 May 2020", [], []),                              # no contact value: no record
    ("see you soon, Anna Berg, 555 123 4567", ["Anna Berg"], []),
    # a review's reproducers: companies and products, a citation's page range, a schedule, a version
    ("Deutsche Telekom, Kundenservice, 0800 330 1000", [], []),
    ("Huawei Mate, Xiaomi Redmi, Oppo Reno, 1234567", [], []),
    ("Vaswani Ashish, Shazeer Noam, 2017, 5998-6008", [], []),
    ("Office closed; 25/12/2024; 0800 123 4567", [], []),
    ("numpy, 1.24.10, 12345678", [], []),
    ("Gwendolyn van der Plas, 12/03/1990, g.plas@ziggo.nl", ["Gwendolyn van der Plas"], ["12/03/1990"]),
    ("ayse king, March 11, 1934, ayse.k@gmail.com", ["ayse king"], ["March 11, 1934"]),  # a date's own comma
    ("Check this for typos: Ana Ruiz, 03/12/1990, ana.r@gmail.com", ["Ana Ruiz"], ["03/12/1990"]),  # a lead-in
    ("Note: call the office, 0800 123 4567", [], []),
    ("the landlord (Aurora de Bock, 0176 2234 9981) never answers", ["Aurora de Bock"], []),  # in brackets
    ("call support (Mon-Fri, 0800 123 4567) today", [], []),
)
BLOCK_EXAMPLES: tuple[tuple[str, list[str], list[str]], ...] = (  # (text, the names, the dates and identifiers)
    ("Best,\nKiaan Newman\nkiaan.n@gmail.com | 0176 2234 9981", ["Kiaan Newman"], []),
    ("Ana Ruiz\n03/12/1990\nLS 82 89 54 X", ["Ana Ruiz"], ["03/12/1990", "LS 82 89 54 X"]),
    ("Ana Ruiz\n03/12/1990\n62598822", ["Ana Ruiz"], ["03/12/1990", "62598822"]),
    ("Agenda\nTom Lee\n03/12/2024", [], []),                       # a name and a date alone: no record
    ("Team Sync\n12/03/2024\nRoom 4512-88", [], []),                # no name-shaped field
)


def _contact(field: str) -> bool:
    """An e-mail address, or a phone number: seven digits or more after a "+" or a bracket or in three
    groups, or a shape the phone finder takes without a cue word (not a page range, a timestamp or a
    bare count)."""
    from builder.clean.numbers import find_phones

    if DATE_FIELD.fullmatch(field):
        return False
    if "@" in field:
        return bool(CONTACT.fullmatch(field))  # the e-mail shape a code line's contact data has
    if not PHONE_FIELD.fullmatch(field):
        return False
    groups = re.findall(r"\d+", field)
    digits = sum(map(len, groups))
    return (7 <= digits <= 15 and (field[0] in "+(" or len(groups) >= 3)  # "+44 7700 900123", "0176 2234 9981"
            or any(s == 0 and e == len(field) for s, e, *_ in find_phones(field)))


def _date(field: str) -> bool:
    """A calendar date: its numbers a day and a month ("1.24.10" is a version) and a year."""
    if not DATE_FIELD.fullmatch(field):
        return False
    numbers = [int(n) for n in re.findall(r"\d+", field)]
    small = [n for n in numbers if n < 100]
    if len(numbers) == 3 and len(small) >= 2:  # 23.08.1992, 09/22/08, 1994-08-11
        day_month = small[:2] if numbers[0] < 100 else numbers[1:]
        return min(day_month) <= 12 and max(day_month) <= 31 and min(day_month) >= 1
    return True


def _name(field: str) -> bool:
    from spacy.lang.en.stop_words import STOP_WORDS

    from builder.clean.names import PARTICLES, census_name, first_names, last_names
    from builder.clean.truecase import is_english_word

    if not NAME_FIELD.fullmatch(field):
        return False
    words = [w.strip(".").lower() for w in field.split()]
    if any(w in STOP_WORDS and w not in PARTICLES for w in words) or not all(
            census_name(w) or not is_english_word(w) for w in words if w not in PARTICLES):
        return False  # "see you soon", "main office": a function word, or an English word that is nobody's name
    if not (words[0] in first_names() or words[-1] in last_names()):
        return False  # "Deutsche Telekom", "Museo Reina Sofía": a person's name starts or ends as people's do
    return words[0] in first_names() or not is_english_word(words[0])  # "Grant Lee" yes, "Main Smith" no


def record_lines(text: str) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """``[(line_start, line_end, [(field_start, field)])]`` for each record line of ``text``, and for each
    record in brackets inside a line ("the landlord (Ana Ruiz, 0176 2234 9981) never answers")."""
    out: list[tuple[int, int, list[tuple[int, str]]]] = []
    if "@" not in text and sum(map(str.isdigit, text)) < 7:
        return out  # no contact value: most turns
    start = 0
    for line in text.split("\n"):
        line_start, start = start, start + len(line) + 1
        if len(line) > MAX_LINE or not SEPARATOR.search(line):
            continue
        parts = [(line_start, line)] + [(line_start + m.start(1), m.group(1)) for m in BRACKETED.finditer(line)]
        for part_start, part in parts:
            fields = _fields(part_start, part)
            if fields:
                out.append((part_start, part_start + len(part), fields))
                break
    return out


def _fields(line_start: int, line: str) -> list[tuple[int, str]]:
    """The fields of a record line (after a lead-in), or [] when none of them is a contact value."""
    fields = _split(line_start, line)
    return fields if len(fields) <= MAX_FIELDS and any(_contact(f) for _, f in fields) else []


def _split(line_start: int, line: str) -> list[tuple[int, str]]:
    """``[(start, field)]``: ``line`` cut at its separators, the first field after its lead-in."""
    fields: list[tuple[int, str]] = []
    at = 0
    in_dates = [(m.start(), m.end()) for m in DATE_COMMA.finditer(line)] if COMMA_YEAR.search(line) else []
    for sep in [*(m for m in SEPARATOR.finditer(line) if not any(s < m.start() < e for s, e in in_dates)), None]:
        end = sep.start() if sep else len(line)
        raw = line[at:end]
        if not fields and (lead_in := LEAD_IN.search(raw)):
            cut = lead_in.end()  # "Check this for errors: Ana Ruiz": the field is after the lead-in
            raw, at = raw[cut:], at + cut
        fields.append((line_start + at + len(raw) - len(raw.lstrip()), raw.strip().rstrip(".!")))
        at = sep.end() if sep else end
    return fields


def record_blocks(text: str) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """A record written one field per line ("Kiaan Newman\nkiaan.n@gmail.com\n0176 2234 9981";
    "Ana Ruiz\n03/12/1990\nLS 82 89 54 X"): a block of 2 to ``MAX_FIELDS`` short lines whose fields
    hold a contact value, or a date and an identifier (six digits or more). Its lines are its fields,
    each after a lead-in ("Phone: ...")."""
    out: list[tuple[int, int, list[tuple[int, str]]]] = []
    if "\n" not in text or ("@" not in text and sum(map(str.isdigit, text)) < 6):
        return out
    block: list[tuple[int, str]] = []
    start = lines = 0
    for line in [*text.split("\n"), ""]:
        line_start, start = start, start + len(line) + 1
        if line.strip() and len(line) <= MAX_BLOCK_LINE:
            block += [f for f in _split(line_start, line) if f[1]]
            lines += 1
            continue
        if 2 <= lines and len(block) <= MAX_FIELDS and (any(_contact(f) for _, f in block) or (
                any(_date(f) for _, f in block) and any(ID_FIELD.fullmatch(f) for _, f in block))):
            out.append((block[0][0], block[-1][0] + len(block[-1][1]), block))
        block, lines = [], 0
    return out


def record_fields(text: str) -> list[tuple[int, int, str, float, str]]:
    """PERSON, DATE_OF_BIRTH and ID_NUMBER spans of the record lines and blocks in ``text`` (see the
    module's note). A date is a birth date, and a field of six digits or more that is neither a date nor
    a contact value an identifier, only in a person's record ("Office closed; 25/12/2024; 0800 ...")."""
    out = []
    for _, _, fields in record_lines(text) + record_blocks(text):
        names = [(pos, pos + len(f), "PERSON", 0.85, "record") for pos, f in fields if f and _name(f)]
        if names:
            out += names + [(pos, pos + len(f), "DATE_OF_BIRTH", 0.85, "record") for pos, f in fields if f and _date(f)]
            out += [(pos, pos + len(f), "ID_NUMBER", 0.85, "record") for pos, f in fields
                    if f and ID_FIELD.fullmatch(f) and not DATE_FIELD.fullmatch(f) and not _contact(f)]
    return list(dict.fromkeys(out))  # a line of a block is also a record line: each span once
