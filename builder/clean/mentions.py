"""Names that are mentioned, not people: the dialogue itself says what a name stands for.

NER finds a name's shape; the words around some mention of it often say that it is no private
person. Whatever one mention says holds for the whole dialogue, so the decision is per value:

* a name discussed as a word: "the name Gerald", "имя Gerald", "is Aiden a good name";
* a character of a work: a sentence that names the work or calls it a character ("Joey from
  Friends", "she's your favorite character", "the Rachel gif");
* a place: a single word after "in"/"near" ("at Zone Bowling in Robina");
* a public figure: a public role next to the name or a sentence about professional sport or
  show business ("his QB Tom Brady", "Mayfield was drafted first");
* not a person at all: a name after "the" ("a fan of the Patriots", "the Mona Lisa"), a pet's
  name ("a cat named Mr. Whiskers").

The trait ``public_life`` (builder/traits/public_life.py) judges a whole dialogue: a chat about
professional sport or show business that is not about the user's own affairs names players,
coaches and stars (the policy's ``public_life_name``).

Only names that NER alone vouches for (``suppressions.WEAK``) are judged here, and in a dialogue
about the user's own affairs (the policy's ``personal``) only places: in a letter the user drafts, "Sarah and
I saw a movie" is a real Sarah.
"""

from __future__ import annotations

import re

from spacy.lang.en.stop_words import STOP_WORDS

from builder.traits.public_life import PRO_SPORT

NAME_TALK = re.compile(r"(?:\bthe\s+(?:first\s+|last\s+|given\s+|family\s+|sur|nick|baby\s+|middle\s+)?names?"
                       r"|\b(?:имя|имени|именем|фамилия|фамилию|фамилии|le\s+(?:pré)?nom|el\s+nombre|der\s+name"
                       r"|il\s+nome|o\s+nome)|名字|名前)\s*[\"“«'‘]?$", re.I)
NAME_TALK_AFTER = re.compile(r"^[\"”»'’]?\s+(?:is\s+|sounds\s+|seems\s+)?(?:an?\s+)?(?:good|nice|common|rare|popular"
                             r"|unusual|typical|real|cool|strong|beautiful|pretty|uncommon|old-fashioned|unique)?\s*"
                             r"(?:(?:first|last|given|family|baby|boy's|girl's|boy|girl)\s+)?name\b", re.I)
# A sentence about a work of fiction and its people.
# ("the Takuda novel" names an author: a work alone does not make its neighbours characters.)
WORK_WORDS = re.compile(r"\b(?:characters?|episodes?|season\s+\d+|sitcom|tv\s+(?:show|series)|the\s+show|the\s+series"
                        r"|cartoon|anime|manga|gif|meme|cosplay|fandom"
                        r"|(?:pop[- ]culture\s+)?reference|quote\s+from|played\s+by|portrayed\s+by|voiced\s+by)\b",
                        re.I)
FROM_WORK = re.compile(r"^(?:'s)?\s+(?:from|in|of)\s+(?:the\s+)?[A-Z][\w'’]*(?:\s+[A-Z][\w'’]*){0,3}", re.U)
SHOW_TALK = re.compile(r"\b(?:tv\s+show|the\s+show|sitcom|episodes?|series|season\s+\d+)\b", re.I)
PLACE_BEFORE = re.compile(r"\b(?:in|near|around|outside|inside|downtown|suburb\s+of)\s+$", re.I)


Occurrences = list[tuple[str, int, int]]  # (text, start, end) of every mention of a value


def occurrences(texts: list[str], value: str) -> Occurrences:
    """Every whole-word mention of ``value``; each judge below takes them, so that
    :func:`mentioned_not_people` looks for a value once, not once per judge."""
    pattern = re.compile(rf"(?<![\w@]){re.escape(value)}(?![\w@])")
    return [(text, m.start(), m.end()) for text in texts for m in pattern.finditer(text)]


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    left = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    stops = [i for i in (text.find(c, end) for c in ".!?\n") if i >= 0]
    return left, min(stops) if stops else len(text)


def discussed_as_name(found: Occurrences) -> bool:
    """Some mention talks about the name itself ("the name Gerald Commerson", "Gerald is a nice name")."""
    return any(NAME_TALK.search(text[max(0, s - 30):s]) or NAME_TALK_AFTER.match(text[e:e + 50])
               for text, s, e in found)


def character_of_a_work(found: Occurrences, show_talk: bool) -> bool:
    """Some mention sits in a sentence about a work's characters ("one of my Joey's from Friends
    references", "did you choose Rachel because she's your favorite character"), or comes "from"
    a title in a dialogue that talks of shows (``show_talk``: :data:`SHOW_TALK` found in it)."""
    for text, s, e in found:
        left, right = _sentence_bounds(text, s, e)
        if WORK_WORDS.search(text, left, right):
            return True
        if show_talk and FROM_WORK.match(text[e:e + 40]):
            return True
    return False


def used_as_place(found: Occurrences) -> bool:
    """A one-word name that some mention puts after "in"/"near" and not before a possessive
    ("in Robina", not "in Anna's room"): a suburb, a town."""
    return any(" " not in text[s:e].strip() and PLACE_BEFORE.search(text[max(0, s - 20):s])
               and not re.match(r"['’]s\b", text[e:e + 3]) for text, s, e in found)


# A public role next to the name ("his QB Tom Brady", "President Lincoln", "Brady, the quarterback"), or a
# sentence about professional sport ("Mayfield was drafted first", "the NFL's best rookie").
ROLE = (r"(?:president|vice\s+president|senator|governor|congress(?:wo)?man|prime\s+minister|chancellor|mayor"
        r"|minister|king|queen|emperor|empress|pope|prince|princess|saint|st\.|tsar|czar|pharaoh|sultan"
        r"|ceo|founder|billionaire|actor|actress|singer|rapper|songwriter"
        r"|novelist|playwright|director|filmmaker|coach|head\s+coach|quarterback|qb|running\s+back|rb"
        r"|wide\s+receiver|linebacker|pitcher|striker|goalkeeper|point\s+guard|forward|defender)")
ROLE_BEFORE = re.compile(rf"\b{ROLE}\s+(?:[A-Z]\w*\s+)?$", re.I)
ROLE_AFTER = re.compile(rf"^(?:'s)?,?\s+(?:the|a|an|who\s+(?:is|was)\s+(?:the|a|an))\s+(?:\w+\s+){{0,2}}{ROLE}\b", re.I)

def public_role(found: Occurrences) -> bool:
    """Some mention gives the name a public role or sits in a sentence about professional sport
    or show business: a public figure, whom no list can name them all."""
    for text, s, e in found:
        if ROLE_BEFORE.search(text[max(0, s - 40):s]) or ROLE_AFTER.match(text[e:e + 60]):
            return True
        left, right = _sentence_bounds(text, s, e)
        if PRO_SPORT.search(text, left, s) or PRO_SPORT.search(text, e, right):  # the name itself aside ("Oscar")
            return True
    return False


def after_article(found: Occurrences) -> bool:
    """A name after "the" ("a fan of the Patriots", "deserved the Emmy", "who painted the Mona
    Lisa?"): a team, an award, a work, a thing; a person's name takes no article."""
    return any(re.search(r"\bthe\s+$", text[max(0, s - 5):s], re.I) and _ends_phrase(text[e:e + 20])
               for text, s, e in found)


# A pet is named, not a person: "a cat named Mr. Whiskers", "our dog called Biscuit".
PET_NAMED = re.compile(r"\b(?:cat|dog|puppy|kitten|kitty|hamster|parrot|horse|pony|rabbit|bunny|goldfish|fish|turtle"
                       r"|tortoise|snake|lizard|pet|guinea\s+pig|ferret|bird)\s+(?:named|called)\s+$", re.I)


def pet_name(found: Occurrences) -> bool:
    return any(PET_NAMED.search(text[max(0, s - 30):s]) for text, s, e in found)


def _ends_phrase(after: str) -> bool:
    """Nothing of the noun phrase follows ("the Patriots, ...", "the Emmy because"); in "the
    Takuda novel" the name is an author's, modifying the noun after it."""
    m = re.match(r"\s*(\w+)", after)
    return not m or m.group(1).lower() in STOP_WORDS or not re.match(r"\s", after)


def mentioned_not_people(texts: list[str], values: set[str], places_only: bool = False) -> set[str]:
    """The ``values`` (NER-only names) that some mention shows are no private person; with
    ``places_only`` (a personal dialogue) only places count."""
    show_talk = bool(SHOW_TALK.search("\n".join(texts)))
    gone = set()
    for value in values:
        found = occurrences(texts, value)
        if used_as_place(found) or not places_only and (
                after_article(found) or discussed_as_name(found) or character_of_a_work(found, show_talk)
                or public_role(found) or pet_name(found)):
            gone.add(value)
    return gone
