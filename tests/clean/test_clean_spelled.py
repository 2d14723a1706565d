"""Contact data spelled out (builder/clean/spelled.py)."""

from __future__ import annotations

import pytest

from builder.clean.spelled import find_spelled


@pytest.mark.parametrize("text,value,entity", [
    ("email me at jess dot kowalski at gmail dot com", "jess dot kowalski at gmail dot com", "EMAIL_ADDRESS"),
    ("my email is jess.kowalski [at] gmail [dot] com", "jess.kowalski [at] gmail [dot] com", "EMAIL_ADDRESS"),
    ("reach me: jess.kowalski(at)gmail(dot)com", "jess.kowalski(at)gmail(dot)com", "EMAIL_ADDRESS"),
    ("jess_kowalski AT outlook DOT com", "jess_kowalski AT outlook DOT com", "EMAIL_ADDRESS"),
    ("write to jess at gmail.com", "jess at gmail.com", "EMAIL_ADDRESS"),           # a mailbox provider
    ("text me, five five five, two one two, oh one eight seven", "five five five, two one two, oh one eight seven",
     "PHONE_NUMBER"),
    ("my number is 555 two one two 0187", "555 two one two 0187", "PHONE_NUMBER"),
])
def test_spelled_contacts_are_found(text, value, entity):
    assert [(text[s:e], ent) for s, e, ent, *_ in find_spelled(text)] == [(value, entity)]


@pytest.mark.parametrize("text", [
    "the team at openai.com is hiring",        # a bare "at" needs a spelled dot or a mailbox provider
    "look at google.com for the answer",
    "write to jess.k@gmail.com",               # a plain address is the e-mail recognizer's
    "I have two three four five ideas",        # digit words without a phone cue
    "call me at five, or six",                 # too few digits
    "the score was one two three four five six seven to nothing",
])
def test_words_and_plain_values_are_no_spelled_contact(text):
    assert find_spelled(text) == []
