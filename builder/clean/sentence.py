"""The sentence around a found value, and whether it speaks of the user's own world.

Traits (builder/traits) are tagged per turn: a turn that asks for a story is ``fiction`` even
when its next line says "I broke up with Jovana last month". The policy's trait rules keep a
story's or a worksheet's names; they must not keep a name whose own sentence is the user
talking about their life. That sentence is recognised by grammar, not by lists of situations:

- it speaks in the first person as subject or owner (I, my, we, our...), or it holds a structured value the
  finders found (a phone, a card, a street: a contact, a record); and
- it is not itself the story request, the worksheet item or the riddle (the trait detectors run
  on the sentence alone: "write me a story about my cat Lily" is fiction, "my son Tom has a
  fever" is not).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from builder.traits.exercise import exercise
from builder.traits.fiction import asks_for_fiction
from builder.traits.puzzle import puzzle

BOUNDARY = re.compile(r"[.!?;]+(?=\s|$)|\n")
# Subjects and possessives only: "me" and "us" are mostly the object of a request ("give me 10
# points about travers robert goff"), which says nothing of whose world a name is from.
FIRST_PERSON = re.compile(r"(?<![\w'’])(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|my|mine|myself|we|we're|we’re"
                          r"|we've|we’ve|our|ours)(?![\w'’]|\.\w)", re.I)  # "i.e." is no I
# "Samsung" is no "I": a lone capital I inside a word never counts; "US" (the country) is no "us".
COUNTRY_US = re.compile(r"(?<![\w])US(?![\w])")
QUOTED = re.compile(r"[\"“”«»]")  # a name inside quotes is somebody speaking or a title, not the user's scene
ACTION = re.compile(r"\*[^*\n]{2,}\*")  # a role-play action ("*I smile at Natsuki*"): a character speaks

WHY = "a name in a sentence where the user speaks of their own life is a real person's, whatever the turn asks"
EXAMPLES = (("Write a story about a dragon.\nI broke up with Jovana last month.", "Jovana", True),
            ("Write a short story about Lily Marsh and her dragon.", "Lily Marsh", False),
            ("write me a story about my cat Lily", "Lily", False),
            ("Anna calls Beth. Who does 'her' refer to? My teacher gave it.", "Anna", False),
            ("She said “I met Tomas there”, and laughed.", "Tomas", False),
            ("of course you can tell me your story!!!\nme and Maggie went to Lyon last summer", "Maggie", True),
            ("tell me your story!!\nit was just me and Maggie", "Maggie", True),
            ("tell me your story!!\nDan and me are going to Lyon", "Dan", True),
            ("Write a story. Between you and me, Gandalf is overrated", "Gandalf", False))


def bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or line) holding ``text[start:end]``."""
    return _last_boundary_end(text, start), (after.start() if (after := BOUNDARY.search(text, end)) else len(text))


def _last_boundary_end(text: str, start: int, reach: int = 256) -> int:
    """Where the last boundary before ``start`` ends (0: none), read back ``reach`` characters at a time
    instead of from the turn's start. The same ends are found from any point: a boundary's run of
    marks ends where a space follows (or at ``start``), wherever its scan began."""
    lo = start
    while lo > 0:
        lo = max(0, lo - reach)
        last = None
        for last in BOUNDARY.finditer(text, lo, start):
            pass
        if last is not None:
            return last.end()
        reach *= 2
    return 0


# ... but "me" joined to someone is a subject in speech: "me and Maggie went to Lyon", "Dan and me are"
ME_AND = re.compile(r"(?<![\w'’])(?:me|us)\s+(?:and|&|n|\+)\s+\S|(?<![\w'’])(?!you\b)\w+\s+(?:and|&|n)\s+me(?![\w'’])",
                    re.I)  # (not "between you and me")


def first_person(sentence: str) -> bool:
    sentence = COUNTRY_US.sub(" ", sentence)
    return bool(FIRST_PERSON.search(sentence) or ME_AND.search(sentence))


def _request(sentence: str) -> bool:
    return asks_for_fiction(sentence) or exercise(sentence) or puzzle(sentence) or bool(ACTION.search(sentence))


def in_request(text: str, start: int, end: int) -> bool:
    """The sentence around the span asks for a story, is a worksheet item, a riddle or a role-play action."""
    left, right = bounds(text, start, end)
    return _request(text[left:right])


# Between two people chatting, "you" is the other one: "Ashley and Michael are coming to dinner
# sat, u should come" is their world. ("you know", "you see" are fillers.)
SECOND_PERSON = re.compile(r"(?<![\w'’])(?:you|u|ya|ur|your|you're|youre|y'all|yall)(?![\w'’])(?!\s+(?:know|see)\b)",
                           re.I)


def own_world(text: str, start: int, end: int, structured: Sequence[tuple[int, int]] = (),
              second_person: bool = False) -> bool:
    """True when the sentence around ``text[start:end]`` is the user speaking of their own world
    (first person, or a structured value beside it; with ``second_person``, in a chat between two
    people, addressing the other) and is no story, worksheet or riddle itself."""
    left, right = bounds(text, start, end)
    sentence = text[left:right]
    if _request(sentence):
        return False
    if QUOTED.search(sentence[:start - left]) and QUOTED.search(sentence[end - left:]):
        return False
    rest = sentence[:start - left] + " Someone " + sentence[end - left:]  # the name itself is no pronoun ("Im Ho")
    return (first_person(rest) or (second_person and SECOND_PERSON.search(rest) is not None)
            or any(left <= s < right and not (s < end and start < e) for s, e in structured))
