"""Nicknames (builder/clean/nicknames.py): a greeting's addressee and a naming verb's complement are
what someone is called, whatever the word; terms of address, time words, laughs and vehicles are not.
Each outcome is written by hand for its sentence."""

from __future__ import annotations

import pytest

from builder.clean import nicknames
from builder.clean.config import CleanConfig
from builder.clean.names import after_lead_words
from builder.clean.pii import PiiDetector, resolve_overlaps
from builder.clean.redact import redact_dialogue


@pytest.mark.parametrize("text, found", nicknames.EXAMPLES)
def test_examples(text, found):
    assert [text[s:e] for s, e, *_ in nicknames.nicknames(text)] == found


@pytest.mark.parametrize("text, basis", [
    ("thanks digger", "vocative_greeting"),
    ("everyone calls me Bubba", "intro"),
])
def test_bases(text, basis):
    [(_, _, entity, score, got)] = nicknames.nicknames(text)
    assert (entity, score, got) == ("PERSON", 0.85, basis)


def test_big_and_lil_stay_with_the_name():
    text = "bye lil jay"
    assert [text[s:e] for s, e, *_ in nicknames.nicknames(text)] == ["lil jay"]


@pytest.mark.parametrize("text, start", [
    ("gracias maca", len("gracias ")),  # NER took the greeting into the name
    ("Ty Cobb", 0),  # "ty" thanks, but it is a given name before a name
    ("Chao Li", 0),  # a census surname
    ("Goodnight, Aziz", len("Goodnight, ")),  # ... set off by a comma, a greeting
])
def test_lead_words_are_not_part_of_a_name(text, start):
    assert after_lead_words(text, 0, len(text)) == start


@pytest.mark.parametrize("text, span, whole", [
    ("Hola Luisa,", "Luisa", "Luisa"),  # a greeting is not her first name
    ("Ciao Luisa,", "Luisa", "Luisa"),
    ("Dear Pierpaolo Rossi,", "Rossi", "Pierpaolo Rossi"),  # a name word still joins
    ("I met Elaine Chao there", "Elaine", "Elaine Chao"),  # a greeting that is a census name joins
])
def test_a_greeting_never_joins_a_name(text, span, whole):
    from builder.clean.names import whole_name

    start = text.index(span)
    s, e = whole_name(text, start, start + len(span))
    assert text[s:e] == whole


def test_a_cue_wins_a_tie_with_ner():
    spans = [{"start": 8, "end": 12, "entity": "PERSON", "score": 0.85, "basis": "ner"},
             {"start": 8, "end": 12, "entity": "PERSON", "score": 0.85, "basis": "vocative_greeting"}]
    assert resolve_overlaps(spans)[0]["basis"] == "vocative_greeting"
    assert resolve_overlaps(spans[::-1])[0]["basis"] == "vocative_greeting"


@pytest.fixture(scope="module")
def detector():
    return PiiDetector(CleanConfig())


PEER = [("user", "hey! how was your day?"), ("assistant", "pretty good lol, my sister visited"),
        ("user", "nice haha what's new?")]


@pytest.mark.models
@pytest.mark.parametrize("turns, gone, kept", [
    # the other side of a person-to-person chat: a greeting's addressee is theirs to hide
    ([*PEER, ("assistant", "gotta go, bye vee")], ["vee"], ["gotta go"]),
    ([*PEER, ("assistant", "ok bye sprout")], ["sprout"], ["bye"]),
    ([("user", "My coworker, aka Ace, keeps taking credit for my work. What do I do?")], ["Ace"], ["coworker"]),
    ([("user", "i call my little brother Bug and he hates it now. should i stop")], ["Bug"], ["little brother"]),
    ([("user", "thanks everyone! see you soon")], [], ["everyone", "soon"]),
    ([("user", "Write a poem: good morning, sunshine, the night sky is gone")], [], ["sunshine", "sky"]),
    ([*PEER, ("assistant", "love you sweetheart, night babe")], [], ["sweetheart", "babe"]),
])
def test_redacted_in_a_dialogue(detector, turns, gone, kept):
    rows = [{"index": i, "role": role, "text": text, "images": []} for i, (role, text) in enumerate(turns)]
    out = [t["text"] for t in redact_dialogue("d", rows, detector.scan([t["text"] for t in rows]), CleanConfig()).turns]
    last = out[-1]
    assert not [g for g in gone if g in last], last
    assert all(k in last for k in kept), last
