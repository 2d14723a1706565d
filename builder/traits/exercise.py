"""Traits ``exercise`` and ``coursework``.

``exercise``: a user turn is a worksheet item: three or more options on their own lines, options
inline ("a 87% b 89% c 64%"), a word problem ("Suki wants to build a sheep pen ... what would be
the area"), a blank to fill or a sentence to complete or correct. Its people are invented and its
things are no scene of the user's.

``coursework``: the dialogue is a student's assignment (a student id, "assignment", "homework",
a rubric, a lab report): the records of a table it hands over are sample data.
"""

from __future__ import annotations

import re

OPTION_LINE = re.compile(r"^[ \t]*\(?[a-dA-D][).:\t][ \t]*(?:\S|$)", re.M)
INLINE_OPTIONS = re.compile(r"(^|\s)\(?a[).:\t]\s*\S.{0,60}?\s\(?b[).:\t]\s*\S.{0,60}?\s\(?c[).:\t]", re.I | re.M)
WORD_PROBLEM = re.compile(r"\b(?:which\s+of\s+the\s+following|which\s+(?:assertion|statement|expression|equation)"
                          r"|how\s+(?:many|much|long|far|fast)\b[^?\n]{0,120}\?|what\s+(?:is|was|would\s+be|will\s+be)"
                          r"\s+the\s+(?:area|perimeter|volume|probability|total|average|mean|median|ratio|speed"
                          r"|distance|cost|price|value)|solve\s+for|word\s+problem|answer\s+choices|multiple\s+choice"
                          r"|choose\s+the\s+(?:best|correct|right)|true\s+or\s+false|using\s+(?:at\s+least\s+)?\w+\s+of\s+"
                          r"(?:these|the\s+following)\s+words|use\s+the\s+(?:simple|present|past|future|correct)\b"
                          r"|(?:twice|thrice|half|\w+\s+times)\s+as\s+(?:old|many|much|tall|fast|long|heavy)\s+as\b"
                          r"|sum\s+of\s+their\s+ages)", re.I)
BLANKS = re.compile(r"_{3,}|\.\.\.\s*\(|\(\s*\)|\bfill\s+in\s+the\s+blanks?\b|\bcomplete\s+the\s+(?:sentence|text|following)\b"
                    r"|\bcorrect\s+the\s+(?:sentence|mistakes?|errors?)\b", re.I)
COURSEWORK = re.compile(r"\b(?:assignment|homework|coursework|course\s*work|student\s+(?:id|number)|my\s+(?:class|course"
                        r"|professor|instructor|teacher|lecturer)|rubric|lab\s+(?:\d+|exercise|report)"
                        r"|due\s+(?:date|tomorrow|tonight)|(?:course|module)\s+code)\b", re.I)

WHY = "a worksheet's people are invented and its things are no scene of the user's"
EXAMPLES = (("Which of the following is a mammal?\nA. shark\nB. whale\nC. trout", True),
            ("Suki wants to build a sheep pen 4 m long. What would be the area?", True),
            ("She ___ to school every day.", True), ("My son Tom goes to school by bus.", False),
            ("Jack is twice as old as Jill. In 5 years the sum of their ages will be 40. How old is Jack?", True))
COURSEWORK_WHY = "the records a course hands over are sample data, nobody's"
COURSEWORK_EXAMPLES = (("my homework: add a row to the students table", True), ("my friend works from home", False))


def exercise(text: str) -> bool:
    return (len(OPTION_LINE.findall(text)) >= 3 or bool(INLINE_OPTIONS.search(text) or WORD_PROBLEM.search(text)
                                                         or BLANKS.search(text)))


def detect(turn: dict) -> bool:
    return turn["role"] == "user" and exercise(turn["text"] or "")


def detect_coursework(turn: dict) -> bool:
    return turn["role"] == "user" and bool(COURSEWORK.search(turn["text"] or ""))
