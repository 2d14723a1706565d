"""The plainest personal values a careful reviewer removes, and the look-alikes that must stay:
finders alone (no NER), so each case says exactly which shape or cue decides."""

from __future__ import annotations

import pytest

from builder.clean.addresses import find_streets
from builder.clean.dates import find_birth_dates
from builder.clean.names import RELATION, whole_name
from builder.clean.numbers import find_cards, find_phones, find_postal_codes


def values(finder, text: str) -> list[str]:
    return [text[s:e] for s, e, *_ in finder(text)]


@pytest.mark.parametrize("text, found", [
    ("cc 3509413199654323 exp 04/27", ["3509413199654323"]),  # "cc" right before: no Luhn or issuer needed
    ("my credit card 060426070011 was charged twice", ["060426070011"]),
    ("card number: 4111 1111 1111 1111", ["4111 1111 1111 1111"]),
    ("visa 4111111111111111", ["4111111111111111"]),
    ("the card game 1234 5678 9012", []),  # not Luhn, no card word right before
    ("order id 4111111111111111", []),  # labelled as another id
    ("card 000000000000", []),  # no number anybody has
])
def test_cards(text, found):
    assert values(find_cards, text) == found


@pytest.mark.parametrize("text, found", [
    ("please stop receiving messages to 0688 872 49 99", ["0688 872 49 99"]),
    ("my whatsapp is 612 345 678", ["612 345 678"]),
    ("the meeting is on 2024-03-05", []),
])
def test_phones(text, found):
    assert values(find_phones, text) == found


@pytest.mark.parametrize("text, found", [
    ("my zip code is 880", ["880"]),
    ("postcode SW1A 1AA please", ["SW1A 1AA"]),
    ("zip it 123 times", []),
])
def test_postal_codes_after_their_cue(text, found):
    assert sorted(set(values(find_postal_codes, text))) == found


@pytest.mark.parametrize("text, found", [
    ("uscgc aslakhanov fpo ae 44941", True),  # lower case, a ship with its FPO line
    ("PSC 4926, Box 7979 APO AA 63682", True),
    ("I love the USS Enterprise from Star Trek", False),  # the ship alone is no address
    ("Room 0 is connected to Room 3. Room 3 is connected to Room 5.", False),  # a puzzle's rooms
    ("I live at 42 Willow Lane, Apt 4B, Springfield", True),
])
def test_addresses(text, found):
    assert bool(find_streets(text)) is found


@pytest.mark.parametrize("text, found", [
    ("I was born on 12 March 1990 in Leeds", ["12 March 1990"]),
    ("DOB: 03/12/1990", ["03/12/1990"]),
    ("my birthday is May 4th", ["May 4th"]),
    ("date of birth 1990-03-12", ["1990-03-12"]),
    ("Mozart was born on 27 January 1756", []),  # history
    ("born in 1990", []),  # a year alone
])
def test_birth_dates(text, found):
    assert values(find_birth_dates, text) == found


@pytest.mark.parametrize("text, relation", [
    ("my 72-year-old sister ", True), ("my ex-girlfriend ", True), ("my ex ", True), ("my best friend ", True),
    ("the sister ", False),
])
def test_relations(text, relation):
    assert bool(RELATION.search(text)) is relation


@pytest.mark.parametrize("text, found, whole", [
    ("I talked to Pierpaolo Rossi yesterday.", "Rossi", "Pierpaolo Rossi"),
    ("Yesterday Anna met Bob. Smith said hi.", "Smith", "Smith"),  # "Bob." ends a sentence
    ("The Rossi family", "Rossi", "Rossi"),
    ("I just bought this Fender Stratocaster today", "Stratocaster", "Stratocaster"),  # a brand, after "this"
])
def test_half_a_name_is_never_left(text, found, whole):
    start = text.index(found)
    s, e = whole_name(text, start, start + len(found))
    assert text[s:e] == whole


@pytest.mark.parametrize("text, found", [
    ("i'm lucia, my brother dmitri says hi", ["lucia", "dmitri"]),
    ("thanks, oleksandr", ["oleksandr"]),
    ("hello ngozi!", ["ngozi"]),
    ("I am aman.", ["aman"]),
    ("i'm sooo tired", []),  # not before an end of sentence
    ("oh dear, oops, hurray", []),  # interjections, and "dear" that greets nobody
    ("Dear brides-to-be, your day", []),
    ("My little brother didn’t notice", []),
    ("thanks, bruh", []),
    ("hey mike!", []),  # a first name that is also an English word: not by rule in lower case
])
def test_lower_case_names_after_a_cue(text, found):
    from builder.clean.names import lower_case_names

    assert values(lower_case_names, text) == found
