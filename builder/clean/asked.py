"""Values a speaker gives as their own: an answer to "what's your ...?", or "my number is ...".

Two things the finders, which read one turn at a time, cannot see:

* **The question lends its cue to the answer.** "what's your zip code?" / "sure, it's 60614":
  the answer holds a bare number, and the cue that makes it a postal code is in the turn
  before. In a turn (``ANSWER_WORDS`` words at most) that follows a question asking for the
  other speaker's value, each place where a value may start is read again by the
  language-independent finders with the question's cue in front of it ("zip code is 60614");
  a value they then find starting there is the answer's.
* **A value a speaker calls their own is nobody's invention.** The policy drops the structured
  values a model turn brings up (samples.py: a chat model invents example e-mails and IPs).
  A value given as an answer to such a question, or written after a first-person cue ("my old
  number was ...", "text me at ...") in a turn as short as a chat message, is a person's own:
  logs of people talking to people (a support desk, a chat app) are stored as "user" and
  "assistant" too. A model's letter template ("You can reach me at (555) 123-4567") is long;
  a model does not answer "what's your number?" with one.
"""

from __future__ import annotations

import re

ANSWER_WORDS = 80  # a turn longer than this is not a reply to the question
MAX_VALUES = 6  # places in one answer read with the question's cue in front
VALUE_CHARS = 40  # how much of the line after such a place is read
OWN_TURN_WORDS = 60  # a turn longer than this may be a letter written for someone
QUESTION_CHARS = 4000  # what is read of the turn before: its end, where the question is

# What the question asks for, after "your": the noun phrase (up to four words) that ends with a
# word naming a value. The finders read it in front of the answer as its cue.
PLACE_NOUN = r"(?:zip(?:\s?code)?|postal\s+code|post\s?code|pin\s?code|address)"  # a value of where one lives
VALUE_NOUN = (rf"(?:{PLACE_NOUN}|(?:phone|cell|mobile)(?:\s+(?:number|no\.|#))?"
              r"|e-?mail(?:\s+address)?|mail|card(?:\s+(?:number|no\.|#))?|id|ssn|sin|nino|aadhaa?r|cpf|dni"
              r"|(?:passport|licen[cs]e)(?:\s+(?:number|no\.|#))?|number|no\.|#)")
# "your <up to three words> <value noun>" in a clause that ends in "?" (or ends the line: "whats your email").
ASK = re.compile(rf"\b(?:your|ur|yr)\s+(?P<cue>(?:[\w'-]+\s+){{0,3}}?{VALUE_NOUN})(?![\w-])[^.!?\n]{{0,30}}(?:\?|$)",
                 re.I | re.M)
# ... or a place's value asked of where the other speaker is: "what's the postcode there?", "the zip
# where you live?" ("there", in a question to a person, is their place).
ASK_THERE = re.compile(rf"\bthe\s+(?P<cue>{PLACE_NOUN})\s+(?:there|over\s+there|where\s+you(?:['’]re|\s+are|\s+live|\s+stay)"
                       r"|at\s+(?:your|ur)\s+\w+|of\s+(?:your|ur)\s+\w+)\b[^.!?\n]{0,30}(?:\?|$)", re.I | re.M)
ASK_WHY = "an answer to a question asking for the other speaker's value holds that value; the cue is in the question"
ASK_EXAMPLES = (("what's your zip code? i'll mail you the invite", "zip code"),
                ("can i get your number?", "number"),
                ("What is your student ID again?", "student ID"),
                ("do you have a phone i can reach you at", None),
                ("I love your address book app!", None),
                ("what's the postcode there?", "postcode"),
                ("what is the zip code where you live?", "zip code"),
                ("what's the zip code of the White House?", None))

# Before a value, in its clause: the speaker's own ("my", "mine is", "text me at", "reach us on").
OWN_BEFORE = re.compile(
    r"(?:\b(?:my|mine|our)\b[^.!?\n]{0,40}"
    r"|\b(?:call|text|ring|reach|email|e-mail|mail|message|whatsapp|contact|find|dm)\s+(?:me|us)\b[^.!?\n]{0,20}"
    r"|\bme\s+(?:at|on)\b[^.!?\n]{0,5})$", re.I)
OWN_WHY = "a value a speaker calls their own in a chat-sized turn is theirs, whichever side of the log they are on"
OWN_EXAMPLES = (("lol my old number was 0781 261 6798, i changed it", "0781 261 6798", True),
                ("you can text me at 090-8372-9245 whenever", "090-8372-9245", True),
                ("Run scp file.txt root@203.0.113.77:/tmp to copy it.", "203.0.113.77", False))


def asked_cue(question: str) -> str | None:
    """The value the turn asks the other speaker for, as the question words it ("zip code")."""
    m = ASK.search(question) or ASK_THERE.search(question)
    return m.group("cue") if m else None


# Where a value may start: a digit, "+" or "(" before one, or one or two letters before one (a
# British postcode, a passport number), not inside a word or number.
VALUE_START = re.compile(r"(?<![\w.,+/@-])(?=[+(]?\d|[A-Za-z]{1,2}\d)")


def value_starts(text: str) -> list[int]:
    return [m.start() for m in VALUE_START.finditer(text)][:MAX_VALUES]


def answered(question: str, text: str) -> str | None:
    """The cue of what ``question`` asked the other speaker for, when ``text`` (the next turn) may
    answer it (``ANSWER_WORDS`` words at most); else None. Only the question's end is read."""
    if not question or not text or not 0 < len(text.split()) <= ANSWER_WORDS:
        return None
    return asked_cue(question[-QUESTION_CHARS:])


def own_value(text: str, start: int) -> bool:
    """Does the speaker call the value at ``start`` their own, in a chat-sized turn?"""
    return len(text.split()) <= OWN_TURN_WORDS and OWN_BEFORE.search(text[max(0, start - 60):start]) is not None
