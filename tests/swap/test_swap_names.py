"""Names that are not descriptions (builder/swap/names.py): titles of works, and bare singular
nouns (a lower-case name such as "central park", or an idiom such as "by car")."""

from __future__ import annotations

import pytest

from builder.models import SPACY_PACKAGE as SPACY
from builder.nlp import load_spacy
from builder.swap.names import bare_noun, titled_elsewhere, work_title
from builder.swap.spans import categorise, mentions


def _chunk(text: str, word: str):
    doc = load_spacy(SPACY)(text)
    chunk = next((c for c in doc.noun_chunks if word in c.text), None)
    assert chunk is not None, f"no noun chunk with {word!r} in {text!r}"
    return doc, chunk


@pytest.mark.parametrize("text, word, title", [
    ("My favourite show is the office.", "office", True),
    ("The characters in the office are so awkward.", "office", True),
    ("Did you catch the latest episode of south park?", "park", True),
    ("I loved the Family Guy episode of South Park.", "Park", True),
    ("Have you seen the office? Every episode makes me laugh.", "office", True),
    ("What is my little pony about?", "pony", True),
    # still things, not works
    ("I read a book on the beach.", "book", False),
    ("I read a book on the beach.", "beach", False),
    ("I watched the birds at the lake.", "birds", False),
    ("I have seen the Eiffel Tower twice.", "Eiffel", False),
    ("The characters in my book live in the mountains.", "book", False),
])
def test_the_name_of_a_work_is_a_title(text, word, title):
    doc, chunk = _chunk(text, word)
    assert work_title(doc.text, chunk) is title


def _candidate(text: str, word: str):
    doc = load_spacy(SPACY)(text)
    cand = next((c for c in (categorise(0, m) for m in mentions(doc)) if c is not None and word in c.mention.text),
                None)
    assert cand is not None, f"no lexicon candidate with {word!r} in {text!r}"
    return cand


@pytest.mark.parametrize("text, word, bare", [
    ("Honestly I prefer south park to most cartoons.", "park", True),  # a show written in lower case
    ("We always took the kids to central park on Sundays.", "park", True),  # a place written in lower case
    ("I grew up reading animal farm.", "farm", True),  # a book: "this animal place" would split it
    ("My brother and I went by bus to the zoo.", "bus", True),  # an idiom: no particular bus
    ("I need to get back to bed now.", "bed", True),
    # a determiner, a possessive, a plural, or a mass noun (dish, drink): still swapped
    ("We always took the kids to the park on Sundays.", "park", False),
    ("I walked my dog in the park.", "dog", False),
    ("I bought a new bike yesterday.", "bike", False),
    ("Tacos are my favourite thing to cook.", "Tacos", False),
    ("I drink coffee every morning.", "coffee", False),
    ("We made sushi at home.", "sushi", False),
    ("I visited Paris last spring.", "Paris", False),
])
def test_a_bare_singular_noun_is_a_name_or_an_idiom(text, word, bare):
    assert (bare_noun(_candidate(text, word)) == "bare_singular") is bare


@pytest.mark.parametrize("text, word, kind", [
    # a bare plural names a kind: "these items" + a photo would point at particular ones
    ("i know tracking chips in helmets and pads to record moves.", "helmets", True),
    ("I drive through the drive-thru of restaurants all the time.", "restaurants", True),
    ("Honestly I love dogs more than people.", "dogs", True),
    # a determiner, a possessive or a number makes them particular; dishes and drinks stand for themselves
    ("I finally washed my old sneakers.", "sneakers", False),
    ("We adopted two dogs last spring.", "dogs", False),
    ("We saw elephants at the zoo last week.", "elephants", False),  # the object of a past event
    ("I bought new shoes for my trip.", "shoes", False),
    ("I have several cameras at home.", "cameras", False),
    ("The dogs next door bark all night.", "dogs", False),
    ("Tacos are my favourite thing to cook.", "Tacos", False),
])
def test_a_bare_plural_names_a_kind(text, word, kind):
    assert (bare_noun(_candidate(text, word)) == "bare_plural") is kind


def test_a_lower_case_title_written_as_one_in_another_turn_is_refused():
    doc = load_spacy(SPACY)("Write a brief about the content of interesting cats")
    (cats,) = [m for m in mentions(doc) if m.lemma == "cat"]
    row = {"turns": [{"text": doc.text}, {"text": '"Interesting Cats" is a collection of facts about felines.'}]}
    assert titled_elsewhere(row, cats) == "title"
    assert titled_elsewhere({"turns": [{"text": doc.text}, {"text": "Cats are interesting."}]}, cats) is None
