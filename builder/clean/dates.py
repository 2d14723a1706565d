"""Dates of birth: a date next to a birth cue ("born on 12 March 1990", "DOB: 03/12/1990", "my
birthday is May 4th"). Next to a name it tells who the person is (with a name and a birth date
one finds most people), so it is personal data of its own; a year alone ("born in 1990") is not.
Historical births ("Mozart was born in 1756", "born on 27 January 1756") are dated before 1920
and kept: privacy law protects the living."""

from __future__ import annotations

import re

from builder.clean.alternation import Gated

MONTHS = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
          r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
ORDINAL_WORD = (r"(?:(?:twenty|thirty)[\s-]?)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)"
                r"|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth"
                r"|twentieth|thirtieth")
DAY = rf"(?:(?:[0-3]?\d)(?:st|nd|rd|th)?|{ORDINAL_WORD})"
# a year after a written month: four digits, "'99", or two digits that end the sentence ("3 march 99")
YEAR = r"(?:\d{4}|['’]\d{2}|\d{2}(?=\s*(?:$|[.,;!?)\n]|(?:lol|haha|so|and|but|btw)\b)))"
DATE = (rf"(?:{DAY}\s+(?:of\s+)?{MONTHS},?(?:\s+{YEAR})?|{MONTHS}\s+{DAY}(?:,?\s+{YEAR})?"
        rf"|\d{{1,2}}[-/ ]{MONTHS}[-/ ](?:\d{{4}}|\d{{2}})"  # 17-Oct-1971 (forms, passports)
        r"|\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}[./-]\d{1,2}[./-]\d{1,2}|\d{4}年\d{1,2}月\d{1,2}日"
        r"|(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))")  # 19960312 (a form's compact date)
# The cue in the languages chat users write in most (the CJK ones need no word boundary).
CUE = (r"(?:\b(?:born(?:\s+on)?|b\.|dob|d\.o\.b\.?|date\s+of\s+birth|birth\s*date|birthday(?:\s+is)?|bday(?:\s+is)?"
       r"|geboren(?:\s+(?:am|op))?|geburtsdatum|geboortedatum|né(?:e)?\s+le|date\s+de\s+naissance|nacid[oa]\s+el"
       r"|fecha\s+de\s+nacimiento|data\s+di\s+nascita|nat[oa]\s+il|data\s+de\s+nascimento|nascid[oa]\s+em"
       r"|data\s+urodzenia|urodzon[ya]|дата\s+рождения|родил(?:ся|ась))|出生日期|出生于|生日是?|生年月日)")
# "dob: 3/12/1990", "my dob is listed as ...", "born on the 5th of May 1990", "birthday of 4 May 1990"
BIRTH_DATE = Gated(re.compile(rf"{CUE}\s*[:=：]?\s*(?:(?:is|was)\s+)?(?:(?:listed|written|down|recorded|given|put)\s+)?"
                              rf"(?:(?:on|as|of)\s+)?(?:the\s+)?(?P<date>{DATE})(?![\w/.-]\d)", re.I))


# ... unless the birth is the speaker's own or a relative's: "I was born", "my dob", "my grandma was
# born" (names.RELATION), or a cue that opens its line or sentence ("born 29/07/1913 so yeah",
# "DOB: ..."): a person gives it, whatever the year.
OWN_BIRTH = re.compile(r"(?:\b(?:i|we)\s+(?:was|were)\s+|\bi\s*['’]?\s*m\s+|\bi\s+am\s+|\bmy\s+)$|^[\s\W]*$", re.I)


def _own_birth(text: str, cue: int) -> bool:
    from builder.clean.names import RELATION

    before = text[max(0, cue - 60):cue]
    before = before[max(before.rfind(c) for c in ".!?\n") + 1:]
    return OWN_BIRTH.search(before) is not None or RELATION.search(before) is not None


def find_birth_dates(text: str) -> list[tuple[int, int, str, float]]:
    out = []
    for m in BIRTH_DATE.finditer(text):
        year = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", m.group("date"))
        if year and int(year.group(1)) < 1920 and not _own_birth(text, m.start()):
            continue  # a historical birth
        out.append((m.start("date"), m.end("date"), "DATE_OF_BIRTH", 0.85))
    return out
