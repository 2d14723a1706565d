"""Trait ``fiction``: the turn asks for, sets up or tells a story, a script or a role-play.

In a user turn: a request to write or continue a story, a script, a chapter, a role-play
("write a story about Lily"), an imagined scene ("imagine you are a pirate"), a made-up world
("a channel I made"), or a script of three or more speaker lines ("Natsuki: ..."). In a model
turn: it tells a story (a fairy-tale opening, speaker lines, quoted speech with speech verbs
throughout a long text). Names in fiction are characters; what fiction names is no scene of
the user's own. Poems and songs are ``verse_request`` (they are often for real people).
"""

from __future__ import annotations

import re

from builder.traits.long_paste import LONG_PASTE_CHARS

FICTION = re.compile(
    r"\b(?:write|writing|continue|create|make|generate|tell|compose|rewrite|imagine)\b[^.\n]{0,60}"
    r"\b(?:story|stories|fanfic\w*|fan[- ]?fiction|script|screenplay|episode|chapter|novel|scene|roleplay|role-play"
    r"|dialogue|tale|fable|sitcom|movie|comic|backstory|lore)\b"
    r"|\b(?:fanfic\w*|fan[- ]?fiction|role-?play(?:ing)?|screenplay|fictional|character(?:s)?\s*:|(?:main|the|these)\s+"
    r"characters?|protagonist|antagonist|storyline|(?:rpg|dnd|d&d)\b|\bin\s+the\s+(?:anime|manga|game|series|show"
    r"|movie|film|novel|book|story)|\b(?:anime|manga|cartoon|video\s+game|tv\s+show|tv\s+series)\b"
    r"|\b(?:channel|show|company|country|kingdom|world|city|town|brand|band|game|universe|school)\s+(?:that\s+)?"
    r"(?:i|we)\s+(?:made|invented|created|came\s+up\s+with|made\s+up)\b|\bmade[- ]up\b|\binvented\s+by\s+me\b)",
    re.I)
PRETEND = re.compile(r"\b(?:imagine\s+(?:you\b|yourself|that\b|if\b|a\s+(?:world|scenario|story|universe|future|place))"
                     r"|pretend|act\s+as|you\s+are\s+now|once\s+upon\s+a\s+time|story|stories|storyline"
                     r"|characters|narrative|fairy\s*tale|point\s+of\s+view|plot|season\s+\d+|episode|chapter|script"
                     r"|sequel|prequel|crossover|universe|forum\s+(?:post|conversation|thread)|monologue|sitcom|episodes"
                     r"|credits|react(?:s|ing)?\s+to)\b", re.I)
SPEAKER_LINE = re.compile(r"^\s*\(?(?!(?:name|date|phone|tel|email|e-mail|address|subject|from|to|cc|age|id|title"
                          r"|note|time|re|fax|mobile)\s*:)[A-Z][\w .'-]{0,24}\)?\s*:\s*[\"“(*]?\w", re.M | re.I)
STORY_MARKERS = re.compile(r"\bonce upon a time\b|\bhappily ever after\b|\blittle did (?:he|she|they) know\b", re.I)
QUOTED_SPEECH = re.compile(r"[\"“][^\"“”\n]{2,200}[\"”]")
SPEECH_VERB = re.compile(r"\b(?:said|asked|replied|exclaimed|whispered|shouted|muttered|smiled|laughed|nodded|sighed)\b")

WHY = "names in a story are characters; what a story names is its premise, not the user's scene"
EXAMPLES = (("write a story about Lily and her dragon", True), ("imagine you are a pirate captain", True),
            ("Natsuki: hi\nMonika: hello\nYuri: hey", True), ("my sister Lily lives in Leeds", False),
            ("Here's the group chat:\nMarco: who's bringing drinks\nNadia: me\nDerek: ice", False))


# A turn that calls its speaker lines a real chat it pastes ("here's the group chat:", "our whatsapp
# thread") holds no script: its speakers are people.
CHAT_LOG = re.compile(r"\b(?:group\s*chat|chat\s+log|our\s+chat|(?:text|whatsapp|slack|discord|imessage|sms)\s+"
                      r"(?:messages?|chat|thread|convo|conversation)|(?:messages?|conversation|chat)\s+(?:with|between)\s+"
                      r"(?:my|me\s+and)\b)", re.I)


def asks_for_fiction(text: str) -> bool:
    return bool(FICTION.search(text) or PRETEND.search(text)) or (len(SPEAKER_LINE.findall(text)) >= 3
                                                                    and not CHAT_LOG.search(text))


# A role-play: the user speaks to characters, so the names they call out are the story's too.
ROLE_PLAY_SETUP = re.compile(r"\brole-?play|\brp\b|\bpretend\b|\bact\s+as\b|\byou\s+are\s+now\b|\bimagine\s+you"
                             r"|\bplay\s+(?:the\s+role|as)\b|\byour\s+character\b|\bstay\s+in\s+character", re.I)
ROLE_PLAY_MOVE = re.compile(r"\*[^*\n]{2,}\*|^\s*\(?[A-Z][\w ]{1,20}\)?\s*:\s", re.M)  # "*waves*", "Natsuki: hi"


def role_play(text: str) -> bool:
    """The user sets up or plays a role-play ("pretend you are...", "*waves*", "Natsuki: hi")."""
    return bool(ROLE_PLAY_SETUP.search(text) or ROLE_PLAY_MOVE.search(text))


def role_play_setup(text: str) -> bool:
    """The user asks for a role-play in words ("pretend you are...", "act as", "stay in character")."""
    return bool(ROLE_PLAY_SETUP.search(text))


# A character sheet: a made-up person's record ("Name: Ayumi / Appearance: ... / Backstory: ..."), whose
# "Name:" field holds a character, not a customer or an attendee.
SHEET_FIELD = re.compile(r"^\W*(?:appearance|personality|backstory|back\s*story|background\s+story|abilities|powers"
                         r"|special\s+(?:abilities|powers|skills)|species|race|alignment|weapons?|fighting\s+style"
                         r"|strengths?|weakness(?:es)?|quirks?|catchphrase|voice\s+actor)\W*:", re.I | re.M)
SHEET_EXAMPLES = (("Name: Ayumi Nagano\nAppearance: tall, red hair\nPersonality: sarcastic", True),
                  ("Name: Ana Ruiz\nPhone: 0612 345 678\nAddress: 4 Elm St", False))


def character_sheet(text: str) -> bool:
    """The text describes a made-up person field by field (two sheet fields or more)."""
    return len(SHEET_FIELD.findall(text)) >= 2


def narrated(text: str) -> bool:
    """A model's answer that is a story or a script."""
    return bool(STORY_MARKERS.search(text)) or len(SPEAKER_LINE.findall(text)) >= 3 or (
        len(text) >= LONG_PASTE_CHARS and len(QUOTED_SPEECH.findall(text)) >= 4 and len(SPEECH_VERB.findall(text)) >= 2)


def detect(turn: dict) -> bool:
    text = turn["text"] or ""
    return asks_for_fiction(text) if turn["role"] == "user" else narrated(text)
