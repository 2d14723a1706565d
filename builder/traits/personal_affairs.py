"""Trait ``personal_affairs``: in a turn the user typed (not a pasted text) they write about their
own affairs: a letter, an e-mail or a message to send or fix, an application, a CV, a relation
("my boss", "my sister"). Names there are real people's, even in a dialogue that also has a
story or a worksheet. (The PII policy also counts contact data and self-introductions the
finders found in a typed turn; see builder/clean/policy.py.)"""

from __future__ import annotations

import re

from builder.traits.long_paste import long_paste

PERSONAL_TEXT = re.compile(
    r"\b(?:(?:write|draft|compose|send|reply|respond|answer|check|proofread|rewrite|correct|polish|improve|edit"
    r"|modify|reword|paraphrase)\b[^.\n?!]{0,40}\b(?:e-?mail|letter|message|note|text)"
    r"|(?:my|this|the\s+following|following|formal|cover|recommendation|reference|motivation|resignation"
    r"|complaint|apology|thank[- ]you|condolence|invitation)\s+(?:e-?mail|letter)"
    r"|(?:e-?mail|letter|message|note|text)\s+(?:to|for)\s+(?:my|our|a|an|the)\s+(?!following\b)"
    r"|(?:^|[.!?:]\s+)(?:an?\s+)?(?:e-?mail|letter|message|note)\s+(?:to|for)\b"
    r"|cv|resume|résumé|reply\s+to\s+(?:this|my|his|her|their|an?)\b"
    r"|(?:job|visa|grant|ph\.?d\.?|university|college|school|scholarship|loan|rental|internship|my|an?)\s+application"
    r"|my\s+(?:name|friend|boss|teacher|wife|husband|colleague|mom|dad|son|daughter|landlord|manager|professor"
    r"|supervisor|client|girlfriend|boyfriend|partner|brother|sister|mother|father|ex|fianc[eé]e?|cousin|aunt|uncle"
    r"|grandma|grandmother|grandpa|grandfather|niece|nephew|neighbou?r|roommate|coworker|co-worker))\b", re.I)

WHY = "what a user writes about their own letters, applications and relations names real people"
EXAMPLES = (("write an email to my landlord about the heating", True), ("my sister Dean is 72", True),
            ("summarise this article about the moon landing", False))


def detect(turn: dict) -> bool:
    text = turn["text"] or ""
    return turn["role"] == "user" and not long_paste(text) and bool(PERSONAL_TEXT.search(text))
