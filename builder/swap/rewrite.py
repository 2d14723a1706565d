"""Rewrite a turn so that a thing is referred to deictically ("this place") instead of named.

Every mention of the same thing in the turn is rewritten, right to left so offsets stay
valid; then the turn is checked to no longer name it. A candidate whose name survives
(an unrewritable second mention, "the tower" after "the Eiffel Tower") is refused, and so is
one whose word the turn also uses for other things (:func:`other_referent`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from builder.swap import lexicon as lx
from builder.swap.spans import Candidate, Mention


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    original: str
    replacement: str


@dataclass(frozen=True)
class Rewrite:
    text: str
    edits: tuple[Edit, ...]  # in text order; edits[i] refers to the original text

    @property
    def primary(self) -> Edit:
        return self.edits[0]


def deictic_phrase(mention: Mention, category: str) -> str:
    singular, plural = lx.DEICTIC[category]
    det, noun = (plural if mention.plural else singular).split(" ", 1)
    words = [det, *([mention.modifiers] if mention.modifiers else []), noun]
    if mention.possessive:
        words += ["of", mention.possessive]
    phrase = " ".join(words)
    return phrase[0].upper() + phrase[1:] if mention.sentence_start else phrase


def same_thing(a: Mention, b: Mention) -> bool:
    if a.proper or b.proper:
        return a.core.lower() == b.core.lower()
    return a.lemma == b.lemma


def rewrite(text: str, candidate: Candidate, turn_mentions: list[Mention]) -> Rewrite | None:
    """The rewritten turn, or None when the thing would still be named in it."""
    targets = [m for m in turn_mentions if same_thing(m, candidate.mention)]
    if candidate.mention not in targets:
        targets.append(candidate.mention)
    targets.sort(key=lambda m: m.start)
    edits = [_edit(text, m, deictic_phrase(m, candidate.category)) for m in targets]
    new = text
    for edit in reversed(edits):
        new = new[:edit.start] + edit.replacement + new[edit.end:]
    if still_named(new, candidate.mention):
        return None
    primary = next(e for e, m in zip(edits, targets) if m.start == candidate.mention.start)
    return Rewrite(new, (primary, *[e for e in edits if e is not primary]))


def other_referent(candidate: Candidate, turn_mentions: list[Mention]) -> str | None:
    """``other_referent`` when the turn uses the same word for other things too: "I own a car
    ... soldiers weren't allowed to get out of their cars". Rewriting every mention would point
    the photo at the soldiers' cars ("these items of theirs"); leaving one would keep the thing
    named. Another owner (a different possessive) or the other number marks another thing."""
    own = candidate.mention
    for m in turn_mentions:
        if m is own or m.start == own.start or not same_thing(m, own) or own.proper:
            continue
        if m.possessive != own.possessive or m.plural != own.plural:
            return "other_referent"
    return None


ON_BEFORE = re.compile(r"(?<!\w)([Oo]n)\s+$")


def _edit(text: str, mention: Mention, phrase: str) -> Edit:
    """One replacement; a place one was *on* ("on the beach") one is *at* once it is "this place"."""
    on = ON_BEFORE.search(text[max(0, mention.start - 4):mention.start])
    if on and re.search(r"\bplaces?\b", phrase):
        start = mention.start - len(on.group())
        at = "At" if on.group(1) == "On" else "at"
        return Edit(start, mention.end, text[start:mention.end], f"{at} {phrase}")
    return Edit(mention.start, mention.end, mention.text, phrase)


def still_named(text: str, mention: Mention) -> bool:
    """Does ``text`` still name the mention's thing (whole words)?"""
    # The head word names it whatever the case: "the tower" after "the Eiffel Tower".
    insensitive = {mention.core, mention.head}
    if not mention.proper:
        insensitive |= {mention.lemma, mention.lemma + "s", mention.lemma + "es"}
    if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE) for w in insensitive if w):
        return True
    # Proper-noun words are checked case-sensitively: "New" in "New York" must not
    # veto "my new camera", but a leftover "Eiffel" or "Tower" must.
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in mention.proper_words)
