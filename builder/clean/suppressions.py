"""What each suppression of the PII policy takes out of a dialogue's found spans.

Every function takes the dialogue's :class:`Context` and returns the scans without the spans
it suppresses; ``policy.py`` names them, says when each applies and records what each took.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable

from builder.clean import sentence
from builder.clean.asked import answered, own_value
from builder.clean.config import CleanConfig
from builder.clean.entities import STRUCTURED
from builder.clean.mentions import mentioned_not_people
from builder.clean.names import LOCATIVE_BEFORE, record_field
from builder.clean.pii import TurnScan
from builder.clean.precision import PUBLIC_FIGURES, is_public, listed_public_names
from builder.clean.samples import drop_values, echoes_user_record, keep_in_model_turns, sample_values, user_sourced_values
from builder.traits import Traits
from builder.traits.fiction import character_sheet, narrated, role_play
from builder.traits.long_paste import long_paste

WEAK = ("ner", "list", "full_name", "lower_case_name")  # a name only NER, a list next to such a name, its shape or its lower-case use vouches for
# Bases of a name the user gave as their own or a contact's: they hold in fiction and worksheets too.
OWN_NAME_BASES = ("intro", "relation", "signoff", "address_block", "lower_cue", "transcript", "first_person", "ner+intro", "ner+relation",
                  "context+intro", "context+relation")  # "named"/"field" kinds ("a kid named Hinson", "Name: Ayumi") are characters


@dataclass
class Context:
    """One dialogue as the policy sees it."""

    turns: list[dict]
    texts: list[str]
    scans: list[TurnScan]
    traits: Traits
    config: CleanConfig
    personal: bool = False  # set by the policy once the early suppressions ran
    public_parts: set[str] = field(default_factory=set)
    characters: set[str] | None = None  # name words of the dialogue's story (see own_world)
    role_play: bool | None = None  # does the user play a role-play (see own_world)
    record_words: set[str] | None = None  # name words a record's field of people lists (see own_world)


def bare(word: str) -> str:
    """A name or name part without surrounding punctuation or a possessive ("Anna's" -> "Anna")."""
    return word.strip(".,'\"’").removesuffix("’s").removesuffix("'s")


def _filter(ctx: Context, drop) -> list[TurnScan]:
    """The scans without the spans ``drop(turn_index, text, span)`` says go."""
    return [replace(scan, spans=[s for s in scan.spans if not drop(i, text, s)])
            for i, (text, scan) in enumerate(zip(ctx.texts, ctx.scans))]


def _person(span: dict) -> bool:
    return span["entity"] == "PERSON"


# -- values a model brought up -----------------------------------------------------------------


def model_names(ctx: Context) -> list[TurnScan]:
    """PERSON spans in model turns that the user did not give: a chat model cannot know private
    people, so a name it brings up itself is public knowledge or fiction. A model-turn name
    stays when a name found in a user turn holds it, or its own context vouches for it and the
    user typed it. When the other side reads as a person (trait ``peer_chat``), a name its own
    grammar shows (an introduction, a vocative, a relation) is theirs to hide too; a name NER
    (or NER with a weaker cue) finds there stays public, as chat about films and stars is what
    such talk is made of, unless the learned person-context model reads its context as a private person's
    (classifiers/person_context; ``--no-person-context`` turns it off)."""
    peer = ctx.traits.has("peer_chat")
    if peer and ctx.config.judges_person_context:
        ctx.scans = judge_by_context(ctx)
    user_text = " ".join(t for turn, t in zip(ctx.turns, ctx.texts) if turn["role"] == "user")
    user_names = {bare(part) for turn, text, scan in zip(ctx.turns, ctx.texts, ctx.scans) if turn["role"] == "user"
                  for s in scan.spans if _person(s)
                  for part in [text[s["start"]:s["end"]], *text[s["start"]:s["end"]].split()]}

    echoing = {ctx.texts[i] for i in echoes_user_record(ctx.turns, ctx.texts, ctx.scans)}

    def given(text: str, s: dict) -> bool:
        value = text[s["start"]:s["end"]]
        parts = [bare(p) for p in [value, *value.split()]]
        if _person(s) and text in echoing and record_field(text, s["start"], s["end"], phrases=False):
            return True  # "Name: Liu Shuran" in the model's translation of the user's certificate
        if _person(s) and s.get("basis") == "vocative_greeting":
            return True  # "Hi Elena!": the model greets its interlocutor by the name it was given
        if peer and _person(s) and s.get("basis") in OWN_NAME_BASES + GRAMMAR_GUESSES:
            return True  # a person on the other side: "I'm alacritas", "what about you noelle?"
        if peer and _person(s) and s.get("private_context") is not None:
            return True  # the words around it say a private person: "talk to Steve Liddle about the grant"
        return not _person(s) or any(p in user_names for p in parts if len(p) >= 3) or (
            s.get("basis") not in WEAK and any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", user_text)
                                               for p in parts if len(p) >= 3))

    return keep_in_model_turns(ctx.turns, ctx.texts, ctx.scans, given)


def judge_by_context(ctx: Context) -> list[TurnScan]:
    """The scans with each PERSON span of the second side of a person-to-person chat that no
    introduction, relation or vocative already makes that person's own marked ``private_context``
    (the model's probability) where the learned person-context model reads its context as a
    private person's (classifiers/person_context: its ``threshold`` in a chat about professional sport
    or show business, trait ``public_life``; its lower ``threshold_personal_chat`` elsewhere). Such a span stays, and no trait of the
    dialogue (a story, a worksheet) makes it a character: the model read the span's own context."""
    from classifiers.person_context.model import load

    model = load()
    traits = frozenset(ctx.traits.found)
    # a chat about players and stars names them; elsewhere a name is a private person's more often
    bar = model.threshold if ctx.traits.has("public_life") else model.threshold_personal_chat

    def judged(i: int, turn: dict, text: str, s: dict) -> dict:
        if (turn["role"] != "assistant" or not _person(s) or s.get("basis") in PEER_OWN_BASES
                or s.get("private_context") is not None):  # a word add_unfound_names accepted is judged once
            return s
        p = model.probability(text, s["start"], s["end"], s.get("basis"), turn["role"], traits,
                              ctx.traits.names_at(i))
        return {**s, "private_context": round(p, 3)} if p >= bar else s

    return [replace(scan, spans=[judged(i, turn, text, s) for s in scan.spans])
            for i, (turn, text, scan) in enumerate(zip(ctx.turns, ctx.texts, ctx.scans))]


def model_values(ctx: Context) -> list[TurnScan]:
    """Structured values only a model turn holds, less those a person gives as their own: every
    value of a dialogue whose other side reads as a person (trait ``peer_chat``), an answer to
    "what's your ...?" and a value after "my"/"text me at" in a chat-sized turn (asked.py)."""
    if ctx.traits.has("peer_chat"):
        return ctx.scans
    sourced = user_sourced_values(ctx.turns, ctx.texts, ctx.scans)
    out = []
    for i, (text, scan, kept) in enumerate(zip(ctx.texts, ctx.scans, sourced)):
        answer = i > 0 and answered(ctx.texts[i - 1], text) is not None
        stays = {id(span) for span in kept.spans}
        out.append(replace(kept, spans=[span for span in scan.spans
                                        if id(span) in stays or answer or own_value(text, span["start"])]))
    return out


def course_samples(ctx: Context) -> list[TurnScan]:
    return drop_values(ctx.texts, ctx.scans, sample_values(ctx.turns, ctx.texts, ctx.scans))


# -- words that are no names ----------------------------------------------------------------------


def lower_case_words(ctx: Context) -> list[TurnScan]:
    """A one-word name NER found that the dialogue also uses in lower case ("Kelvin" and
    "kelvin structure", "Rose" and "a rose") is a word, not a name."""
    cased = "\n".join(t for t in ctx.texts if any(c.isupper() for c in t))  # all lower case proves nothing
    lower = set(re.findall(r"(?<![\w.])[a-z][a-z'-]+(?![\w])", cased))
    return _filter(ctx, lambda i, text, s: _person(s) and s.get("basis") == "ner"
                   and text[s["start"]:s["end"]].lower() in lower)


_MULTIWORD_PUBLIC = re.compile(r"(?<!\w)(" + "|".join(sorted((re.escape(n) for n in PUBLIC_FIGURES if " " in n),
                                                                key=len, reverse=True)) + r")(?!\w)")


def public_name_parts(texts: list[str]) -> set[str]:
    """The words (three letters or more) of the well-known full names the dialogue mentions (the
    shipped list's and the user's gazetteer's)."""
    text = "\n".join(texts).lower()
    names = [m.group() for m in _MULTIWORD_PUBLIC.finditer(text)] + listed_public_names(text)
    return {w for name in names for w in name.split() if len(w) >= 3}


def public_parts(ctx: Context) -> list[TurnScan]:
    """A dialogue that names "Kobe Bryant" means him by "bryant" too."""
    def public(value: str) -> bool:
        words = [bare(w).lower() for w in value.split()]
        return bool(words) and all(w in ctx.public_parts for w in words if w)

    return _filter(ctx, lambda i, text, s: _person(s) and public(text[s["start"]:s["end"]]))


# -- whose names they are: the dialogue's traits --------------------------------------------------


def own_world(ctx: Context, i: int, text: str, span: dict, addressed: bool = True) -> bool:
    """The span is in a user turn the user typed (no long paste), in a sentence where they speak
    of their own world (builder/clean/sentence.py), and it names no character the dialogue's
    story sets up or tells: no trait of the turn makes it a character or a public name. In a chat
    between two people a sentence addressing the other counts too (``addressed``), except for
    public life: "did you see Tom Brady last night" asks about a star."""
    words = text[span["start"]:span["end"]].split()
    if span.get("private_context") is not None and ctx.turns[i]["role"] != "user":
        return True  # the second side of a person-to-person chat, read by the person-context model as private
    if _in_record(ctx, words):
        return True  # "Attendees: Ana Ruiz, Tom Lee": people a record the user typed lists are real ones
    if ctx.turns[i]["role"] != "user":
        return False
    if long_paste(text) or narrated(text):
        return False  # a script or a story the user types: its "I" is a character's
    if span.get("basis") in VOCATIVES:
        # the user calls someone by name ("So, Victoria, what do you like?"): the person they are
        # talking to, not a story's, unless the user plays a role-play or this sentence asks for a story
        if _role_play(ctx) or sentence.in_request(text, span["start"], span["end"]):
            return False
        return not set(words) & _characters(ctx)
    structured = [(s["start"], s["end"]) for s in ctx.scans[i].spans if s["entity"] in STRUCTURED]
    if not sentence.own_world(text, span["start"], span["end"], structured, second_person=addressed and ctx.traits.has("peer_chat")):
        return False
    if span.get("basis") in WEAK and LOCATIVE_BEFORE.search(text[max(0, span["start"] - 14):span["start"]]):
        return False  # "my trip to the Great Wall at Mutianyu": NER's PERSON after "at" is a place
    return not set(words) & _characters(ctx)


VOCATIVES = ("vocative", "vocative_greeting")


def _in_record(ctx: Context, words: list[str]) -> bool:
    """A name listed in a record's field of people in a turn the user typed, or a word of a name so
    listed, anywhere in the dialogue ("Attendees: Zainab Okafor ... Action: Zainab to send"). A story's
    character sheet is no record ("Name: Ayumi / Appearance: ..."), nor are the story's
    characters or a public figure ("From: Abraham Lincoln")."""
    if ctx.record_words is None:
        ctx.record_words = set()
        for j, (t, scan) in enumerate(zip(ctx.texts, ctx.scans)):
            if ctx.turns[j]["role"] != "user" or character_sheet(t):
                continue
            for s in scan.spans:
                value = t[s["start"]:s["end"]]
                if _person(s) and not is_public(value) and record_field(t, s["start"], s["end"]):
                    ctx.record_words |= {bare(w) for w in value.split()}
    return bool({bare(w) for w in words} & ctx.record_words) and not set(words) & _characters(ctx)


def _role_play(ctx: Context) -> bool:
    if ctx.role_play is None:
        ctx.role_play = any(t["role"] == "user" and role_play(text) for t, text in zip(ctx.turns, ctx.texts))
    return ctx.role_play


def _characters(ctx: Context) -> set[str]:
    """Name words of the dialogue's story: in a model turn that tells one, or in the sentence
    that asks for it."""
    if ctx.characters is None:
        ctx.characters = set()
        for i, (text, scan) in enumerate(zip(ctx.texts, ctx.scans)):
            story_turn = ctx.traits.at("fiction", i) and ctx.turns[i]["role"] != "user"
            for s in scan.spans:
                if _person(s) and (story_turn or sentence.in_request(text, s["start"], s["end"])):
                    ctx.characters |= set(text[s["start"]:s["end"]].split())
    return ctx.characters


# Names found by grammar alone: a capitalised non-word in a first-person sentence, a word in a
# vocative slot ("..., Chase."). In a model turn the "I" is the model and the comma is a narrator's
# apposition ("his roommate, Chase."); only a greeting ("Hi Elena!") says it is the interlocutor.
GRAMMAR_GUESSES = ("first_person", "vocative")
# On the second side of a person-to-person chat these bases make a name that person's own already;
# the person-context model judges the others (judge_by_context).
PEER_OWN_BASES = (*OWN_NAME_BASES, *GRAMMAR_GUESSES, "vocative_greeting")


def model_grammar_guesses(ctx: Context) -> list[TurnScan]:
    """Names found by grammar alone (GRAMMAR_GUESSES) in a model turn."""
    return _filter(ctx, lambda i, text, s: ctx.turns[i]["role"] != "user" and s.get("basis") in GRAMMAR_GUESSES)


# Traits whose names live in the turns that carry them: a riddle is one message. A story or a
# public text runs on over the dialogue (the model continues it, the user edits it), and so does a
# lesson (the demo's history chat: a quiz turn, then "the Ming dynasty" in the next), so their names
# are kept in every turn (WildChat: scoping stories redacted the characters of 9 of them).
TURN_SCOPED = frozenset({"puzzle"})


def names_in(trait: str) -> Callable[[Context], list[TurnScan]]:
    """The PERSON spans a trait makes no one's. For a riddle (TURN_SCOPED): in the turns where it
    holds, the model turns that answer them, and wherever a name word of those turns comes up again.
    For a story, a worksheet or a public text: in every turn (in a story even "I'm John Smith" is a
    character speaking). Never a name in a sentence where the user speaks of
    their own world ("I broke up with Jovana")."""

    def suppress(ctx: Context) -> list[TurnScan]:
        scoped = trait in TURN_SCOPED or ctx.traits.has("peer_chat")  # people chatting continue no story
        tagged = set(ctx.traits.turns(trait)) if scoped else set()
        if not tagged:  # the whole dialogue
            return _filter(ctx, lambda i, text, s: _person(s) and not own_world(ctx, i, text, s))
        scope = tagged | {i + 1 for i in tagged if i + 1 < len(ctx.turns) and ctx.turns[i + 1]["role"] != "user"}
        words = {bare(w) for i in scope for sp in ctx.scans[i].spans if _person(sp)
                 for w in ctx.texts[i][sp["start"]:sp["end"]].split()}
        return _filter(ctx, lambda i, text, s: _person(s) and (
            i in scope or bool({bare(w) for w in text[s["start"]:s["end"]].split()} & words))
            and not own_world(ctx, i, text, s))

    suppress.__name__ = f"names_in_{trait}"
    return suppress


def credited_names(ctx: Context) -> list[TurnScan]:
    """A name credited on a work ("directed by X", "a fan of X", "the songs of X") is a public
    person's, and so is the same name wherever NER alone finds it in the dialogue ("I've read books
    by Michio Kaku" ... "never heard of Michio Kaku")."""
    credited = {bare(text[s["start"]:s["end"]]) for text, scan in zip(ctx.texts, ctx.scans) for s in scan.spans
                if _person(s) and str(s.get("basis", "")).endswith("+credit")}
    return _filter(ctx, lambda i, text, s: _person(s) and (str(s.get("basis", "")).endswith("+credit") or (
        s.get("basis") in WEAK and bare(text[s["start"]:s["end"]]) in credited)))


def public_life_names(ctx: Context) -> list[TurnScan]:
    """A chat about professional sport or show business: its people are players, coaches and
    stars; a self-introduction or a relation still counts."""
    return _filter(ctx, lambda i, text, s: _person(s) and s.get("basis") not in OWN_NAME_BASES
                   and not own_world(ctx, i, text, s, addressed=False))


def pasted_names(ctx: Context) -> list[TurnScan]:
    """Names NER alone found in a long pasted text (an article, a paper, a story) are public or
    invented; they stay everywhere in the dialogue."""
    public = {text[s["start"]:s["end"]] for text, scan in zip(ctx.texts, ctx.scans) if long_paste(text)
              for s in scan.spans if _person(s) and s.get("basis") in WEAK}
    return _filter(ctx, lambda i, text, s: _person(s) and s.get("basis") in WEAK and text[s["start"]:s["end"]] in public
                   and not own_world(ctx, i, text, s))


def lower_case_guesses(ctx: Context) -> list[TurnScan]:
    """A dialogue about well-known people typed all in lower case ("write a 2016 nba season with
    kobe bryant ... and kevin durant"): the other names NER guessed after truecasing are their
    peers; cues ("my friend kevin") still count."""
    return _filter(ctx, lambda i, text, s: ctx.turns[i]["role"] == "user" and not any(c.isupper() for c in text)
                   and _person(s) and s.get("basis") in WEAK)


def mentioned(ctx: Context) -> list[TurnScan]:
    """NER-only names that some mention shows are no private person (mentions.py): a place
    ("in Robina"); outside a personal dialogue also a name discussed as a word, a character of a
    work, a public role."""
    weak = {text[s["start"]:s["end"]] for text, scan in zip(ctx.texts, ctx.scans) for s in scan.spans
            if _person(s) and s.get("basis") in WEAK}
    gone = mentioned_not_people(ctx.texts, weak, places_only=ctx.personal)
    if not gone:
        return ctx.scans
    parts = {bare(p) for v in gone for p in v.split() if len(bare(p)) >= 3}
    holds_gone = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(v) for v in gone) + r")(?!\w)")

    def is_gone(value: str) -> bool:  # the value, a longer span around it, a part
        return bool(holds_gone.search(value)) or all(bare(p) in parts for p in value.split())

    return _filter(ctx, lambda i, text, s: _person(s) and s.get("basis") in WEAK and is_gone(text[s["start"]:s["end"]]))
