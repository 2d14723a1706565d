"""The PII policy: which found values are not personal data, as one ordered table of named rules.

Finders (recognizers.py) propose spans; the span rules of ``precision.SPAN_RULES`` judge each
span alone (a name in code, an example e-mail); then the dialogue rules below run in order,
each when its condition holds, reading the dialogue's traits (builder/traits). Every span a
rule takes out is recorded with the rule's name (``suppressed_by``): the ledger detail counts
them per rule, ``clean --report`` lists the counts, and one parametrized test runs every rule's
examples (tests/clean/test_clean_policy.py).

``personal`` (the dialogue is about the user's own affairs: the ``personal_affairs`` trait, or a
turn the user typed holds contact data or a name they gave as their own or a relation's) is
decided after the first five rules: from then on it keeps the names of a letter the user drafts
even inside a story request or a worksheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from builder.clean import entities, suppressions as s
from builder.traits.long_paste import long_paste


@dataclass(frozen=True)
class Example:
    """A dialogue (``(role, text)`` turns) and a value in it that the rule keeps (suppresses)."""

    turns: tuple[tuple[str, str], ...]
    kept: str


@dataclass(frozen=True)
class Rule:
    name: str
    entities: tuple[str, ...]
    why: str
    applies: Callable[[s.Context], bool]
    suppress: Callable[[s.Context], list]
    examples: tuple[Example, ...] = ()


def _not_personal(trait: str) -> Callable[[s.Context], bool]:
    return lambda ctx: not ctx.personal and ctx.traits.has(trait)


NAMES = ("PERSON",)
MODEL_MADE = tuple(sorted(entities.MODEL_MADE))

RULES: tuple[Rule, ...] = (
    Rule("model_first_person_guess", NAMES,
         "a name guessed from grammar (a first-person sentence, a vocative comma) means the user's scene only in a "
         "turn the user typed; in a model's story the comma is a narrator's",
         lambda ctx: not ctx.traits.has("peer_chat"), s.model_grammar_guesses,
         (Example((("user", "Tell me about your summer."),
                   ("assistant", "As I said, I went to Kraków with Marek last summer.")), "Marek"),)),
    Rule("model_brought_up_name", NAMES,
         "a chat model cannot know private people: a name only a model turn brings up is public or made up",
         lambda ctx: ctx.config.model_names_public, s.model_names,
         (Example((("user", "Who wrote the Gettysburg speech before Lincoln spoke?"),
                   ("assistant", "Edward Everett spoke for two hours before Lincoln.")), "Edward Everett"),)),
    Rule("model_made_value", MODEL_MADE,
         "an IP, e-mail or number only a model turn holds is an example it invented, unless a person gives it as "
         "their own (the other side of a person-to-person chat, an answer to 'what's your number?', 'my number is')",
         lambda ctx: ctx.config.model_names_public, s.model_values,
         (Example((("user", "How do I copy a file to my server?"),
                   ("assistant", "Run scp file.txt root@203.0.113.77:/tmp to copy it.")), "203.0.113.77"),)),
    Rule("course_sample_record", ("*",),
         "coursework hands over tables of made-up records: values only those rows hold are the course's",
         lambda ctx: ctx.traits.has("coursework"), s.course_samples,
         (Example((("user", "My homework: add a row to this table.\nid,first,last,email\n"
                            "1,Suzan,Erickson,suzan.erickson@mail.com\n2,Omar,Fadel,omar.fadel@mail.com\n"
                            "3,Lena,Brandt,lena.brandt@mail.com"),), "suzan.erickson@mail.com"),)),
    Rule("word_also_in_lower_case", NAMES,
         "a one-word NER name the dialogue also writes in lower case is a word (Rose and a rose)",
         lambda ctx: True, s.lower_case_words,
         (Example((("user", "Kelvin is the unit. What is the kelvin scale used for?"),), "Kelvin"),)),
    Rule("part_of_public_name", NAMES,
         "a dialogue that names a well-known person means them by a part of the name too",
         lambda ctx: bool(ctx.public_parts), s.public_parts,
         (Example((("user", "Was Kobe Bryant better than Jordan? I think Bryant was."),), "Bryant"),)),
    Rule("fiction_character", NAMES,
         "names in a requested or told story are its characters",
         _not_personal("fiction"), s.names_in("fiction"),
         (Example((("user", "Write a short story about Lily Marsh and her dragon."),), "Lily Marsh"),)),
    Rule("exercise_name", NAMES,
         "a worksheet's people are invented",
         _not_personal("exercise"), s.names_in("exercise"),
         (Example((("user", "Suki Tanaka wants to build a sheep pen 4 m long and 3 m wide. What would be the "
                            "area of the pen?"),), "Suki Tanaka"),)),
    Rule("puzzle_name", NAMES,
         "a riddle's or logic puzzle's people are its pieces",
         _not_personal("puzzle"), s.names_in("puzzle"),
         (Example((("user", "Anna Kovacs calls Beth Moreau, interrupting her concentration. Who does 'her' "
                            "refer to?"),), "Anna Kovacs"),)),
    Rule("public_text_name", NAMES,
         "names in a public text handed over to summarise or translate are public",
         _not_personal("public_text"), s.names_in("public_text"),
         (Example((("user", "Summarize this news article: Mayor Ellen Cordova opened the new bridge on Monday."),),
                  "Ellen Cordova"),)),
    Rule("credited_on_a_work", NAMES,
         "a name credited on a film, book or song is a public person's, in a personal chat too ('books by X')",
         lambda ctx: True, s.credited_names,
         (Example((("user", "Which films were directed by Bong Joon-ho before Parasite?"),), "Bong Joon-ho"),
          Example((("user", "I am a big fan of Duke Ellington, what should I listen to first?"),), "Duke Ellington"))),
    Rule("public_life_name", NAMES,
         "players, coaches and stars of professional sport and show business are public figures",
         _not_personal("public_life"), s.public_life_names,
         (Example((("user", "Do you think Baker Mayfield deserved to be drafted first in the NFL?"),
                   ("assistant", "He was the first pick; as a quarterback he threw for 3,725 yards.")),
                  "Baker Mayfield"),)),
    Rule("pasted_text_name", NAMES,
         "names NER alone finds in a long pasted text are public or invented",
         lambda ctx: not ctx.personal and any(long_paste(t) for t in ctx.texts), s.pasted_names),
    Rule("lower_case_peer_of_public_name", NAMES,
         "in a lower-case chat about well-known people, NER's other guesses are their peers",
         lambda ctx: not ctx.personal and bool(ctx.public_parts), s.lower_case_guesses,
         (Example((("user", "write a 2016 nba season with kobe bryant and kevin durant as teammates"),),
                  "kevin durant"),)),
    Rule("mentioned_not_a_person", NAMES,
         "a mention shows the name is a place, a word discussed as a name, a character or a public role",
         lambda ctx: True, s.mentioned,
         (Example((("user", "I met Sarah at the bowling place in Robina. Robina is nice."),), "Robina"),
          Example((("user", "Is Gerald Ommers a good name for a baby? I like the name Gerald Ommers."),),
                  "Gerald Ommers"))),
)
PERSONAL_AFTER = "part_of_public_name"  # ``personal`` is decided once this rule has run
BY_NAME = {rule.name: rule for rule in RULES}


def personal(ctx: s.Context) -> bool:
    """The user writes about their own affairs: the ``personal_affairs`` trait, or a turn they typed
    holds contact data or a name they gave as their own or a relation's."""
    if ctx.traits.has("personal_affairs"):
        return True
    for turn, scan in zip(ctx.turns, ctx.scans):
        if turn["role"] != "user" or long_paste(turn["text"] or ""):
            continue
        if any(sp["entity"] in entities.STRUCTURED or (sp["entity"] == "PERSON" and sp.get("basis") in s.OWN_NAME_BASES)
               for sp in scan.spans):
            return True
    return False


def apply(ctx: s.Context) -> list[dict]:
    """Run the table over ``ctx`` (its scans are replaced); returns the suppressed spans, each with
    its turn and ``suppressed_by``."""
    ctx.public_parts = s.public_name_parts(ctx.texts)
    suppressed: list[dict] = []
    for rule in RULES:
        if rule.applies(ctx):
            before = ctx.scans
            ctx.scans = rule.suppress(ctx)
            for turn, (old, new) in enumerate(zip(before, ctx.scans)):
                kept = {(sp["start"], sp["end"], sp["entity"]) for sp in new.spans}
                suppressed += [{"turn": turn, "start": sp["start"], "end": sp["end"], "entity": sp["entity"],
                                "suppressed_by": rule.name} for sp in old.spans
                               if (sp["start"], sp["end"], sp["entity"]) not in kept]
        if rule.name == PERSONAL_AFTER:
            ctx.personal = personal(ctx)
    return suppressed


def counts(suppressed: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for sp in suppressed:
        out[sp["suppressed_by"]] = out.get(sp["suppressed_by"], 0) + 1
    return dict(sorted(out.items()))
