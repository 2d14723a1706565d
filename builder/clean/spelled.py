"""Contact data spelled out to get past filters: "jess dot k at gmail dot com", "jess.k [at] gmail
[dot] com", "text me, five five five, two one two, oh one eight seven".

People write an address or a number this way precisely so that a machine does not read it; a
person reads it at once, so it is as personal as the plain one.

* an e-mail is spelled when its "@" is a bracketed ``[at]``/``(at)`` or the word ``at``, with the
  dots bracketed, spelled (``dot``) or real, ending in a known top-level domain. With a bare
  ``at`` the writer must also spell a dot or name a mailbox provider, and the part before it must
  be able to be a name ("the team at openai.com" and "look at google.com" are no addresses);
* a phone number is spelled when a run of digit words and digit groups ("five five five", "oh",
  "0187") holds 7 to 15 digits, at least two of them words, after a phone cue ("call", "text me",
  "my number", "whatsapp").
"""

from __future__ import annotations

import functools
import re

from builder.clean.alternation import gate

TLD = (r"(?:com|net|org|edu|gov|io|co|me|info|biz|us|uk|ca|au|de|fr|es|it|nl|pl|br|in|ru|jp|mx|ch|se|no|dk|fi|be"
       r"|at|ie|nz|za|pt|cz|tr|gr|ro|hu|ar|cl|kr|tw|sg|hk|ph|vn|id|my|th)")
DOT = r"(?:\s*[\[({<]\s*dot\s*[\])}>]\s*|\s+dot\s+|\.)"
AT = r"(?P<at>\s*[\[({<]\s*(?:at|@)\s*[\])}>]\s*|\s+at\s+)"
PART = r"[A-Za-z0-9_%+-]+"
SPELLED_EMAIL = re.compile(rf"(?<![\w.@'’-])(?P<local>{PART}(?:{DOT}{PART}){{0,3}}){AT}"
                           rf"(?P<domain>{PART}(?:{DOT}{PART}){{0,2}}?){DOT}{TLD}(?![\w.@-])", re.I)
SPELLED_DOT = re.compile(r"[\[({<]\s*dot\s*[\])}>]|\sdot\s", re.I)
MAILBOX = re.compile(r"^(?:g-?mail|googlemail|yahoo|ymail|hotmail|outlook|live|msn|icloud|me|mac|aol|proton(?:mail)?|pm"
                     r"|gmx|web|mail|yandex|qq|163|126|zoho|fastmail|tutanota|hey)$", re.I)

DIGIT_WORDS = {"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
               "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_WORD = r"(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)"
DIGIT_RUN = re.compile(rf"(?<![\w-])(?:{_DIGIT_WORD}|\d{{1,4}})(?:[\s,.\-]{{1,3}}(?:{_DIGIT_WORD}|\d{{1,4}})){{3,}}(?![\w-])",
                       re.I)
PHONE_CUE = re.compile(r"\b(?:call|text|phone|number|num|cell|mobile|whats\s?app|reach\s+me|hmu|ring|digits|#)\b[^.!?\n]{0,30}$",
                       re.I)
# (its branches grouped under their first letter: alternation.py)
HINT = gate(rf"[\[({{<]\s*(?:at|dot)\s*[\])}}>]|\sdot\s|\b(?:{_DIGIT_WORD})\s*[\s,.\-]\s*(?:{_DIGIT_WORD})\b"
            r"|\bat\s+(?:g-?mail|yahoo|hotmail|outlook|icloud|aol|proton)", re.I)


@functools.lru_cache(maxsize=256)  # asked for the e-mail and the phone gate, then by find_spelled
def may_hold(text: str) -> bool:
    """A cheap test: ``text`` may hold a spelled e-mail or phone number."""
    return HINT.search(text) is not None


def _could_be_a_name(word: str) -> bool:
    from builder.clean.truecase import at_most_a_noun

    return len(word) >= 3 and (not word.isalpha() or at_most_a_noun(word))


def find_spelled(text: str) -> list[tuple[int, int, str, float, str]]:
    """``(start, end, entity, score, "spelled")`` of the e-mails and phone numbers spelled out in ``text``."""
    if not may_hold(text):
        return []
    out = []
    for m in SPELLED_EMAIL.finditer(text):
        if "@" in m.group() and not re.search(r"[\[({<]\s*@", m.group()):
            continue  # a plain address is the e-mail recognizer's
        bare_at = m.group("at").strip().lower() == "at"
        if bare_at and not (SPELLED_DOT.search(m.group()) or MAILBOX.match(re.split(DOT, m.group("domain"))[0])):
            continue  # "the team at openai.com": a bare "at" needs a spelled dot or a mailbox provider
        if bare_at and not _could_be_a_name(re.split(DOT, m.group("local"))[-1]):
            continue  # "look at google.com", "everyone at gmail.com"
        out.append((m.start(), m.end(), "EMAIL_ADDRESS", 0.85, "spelled"))
    for m in DIGIT_RUN.finditer(text):
        tokens = re.findall(rf"{_DIGIT_WORD}|\d+", m.group(), re.I)
        words = [t for t in tokens if not t.isdigit()]
        digits = "".join(DIGIT_WORDS.get(t.lower(), t) for t in tokens)
        if len(words) >= 2 and 7 <= len(digits) <= 15 and PHONE_CUE.search(text[max(0, m.start() - 40):m.start()]):
            if not any(s < m.end() and m.start() < e for s, e, *_ in out):
                out.append((m.start(), m.end(), "PHONE_NUMBER", 0.85, "spelled"))
    return out
