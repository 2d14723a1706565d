"""Streets judged by the street-context model (builder/clean/context_streets.py), end to end through
the real CLI: a found street grows to its end, an address no form found goes, numbers in prose and
a model's turns stay, and the switch."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from builder.clean.context_streets import grow
from classifiers.street_context import features
from conftest import clean_one_dialogue

CHAT = [("user", "the courier left it at H.No. 7-2-118, Malkajgiri by mistake"),
        ("assistant", "Couriers often mix up H.No. 3-5-871, Narayanguda with it."),  # a model's turn: never judged
        ("user", "I ran 5 miles on Tuesday and took Route 66 for 40 minutes"),
        ("assistant", "Nice run!")]


@pytest.mark.models
def test_an_address_no_form_found_goes_and_the_switch_turns_it_off(tmp_path):
    from builder.cli import main

    texts, manifest, out = clean_one_dialogue(tmp_path / "on", CHAT)
    assert texts[0] == "the courier left it at <STREET_ADDRESS> by mistake"
    assert texts[1] == CHAT[1][1]
    assert texts[2] == CHAT[2][1]
    assert manifest["redacted_by_model"] == {"street_context": 1}
    assert manifest["config"]["street_context"] is True
    assert "street_context_sha256" in json.dumps(manifest["models"])
    report = CliRunner().invoke(main, ["clean", "-o", str(out), "--report"])
    assert "street_context 1" in report.output
    texts, manifest, _ = clean_one_dialogue(tmp_path / "off", CHAT, "--no-street-context")
    assert texts[0] == "the courier left it at H.No. <ID_NUMBER>, Malkajgiri by mistake"  # half of it, by the rules
    assert manifest["config"]["street_context"] is False and manifest["redacted_by_model"] == {}


def test_a_found_street_grows_over_its_neighbours_the_model_takes():
    text = "vivo en Calle 5 de Mayo #214, centro"
    toks = features.tokens(text)
    prob = {i: p for i, p in zip(range(len(toks)), [0.0, 0.0, 0.9, 0.9, 0.5, 0.5, 0.3, 0.25, 0.0, 0.1])}
    start = text.index("Calle")
    # the rules found "Calle 5"; "de Mayo # 214" reach GROW across the "#", "centro" does not
    assert text[slice(*grow(toks, prob, start, start + len("Calle 5")))] == "Calle 5 de Mayo #214"
    prob[7] = 0.1  # "214" below GROW: the street ends at "Mayo"
    assert text[slice(*grow(toks, prob, start, start + len("Calle 5")))] == "Calle 5 de Mayo"
    assert grow(toks, {}, start, start + 7) == (start, start + 7)


@pytest.mark.parametrize("text, span, grown", [
    ("12 Main St of, the", "12 Main St", "12 Main St"),  # a stop word, then a comma and another: not taken
    ("12 Main St, in", "12 Main St", "12 Main St"),
    ("Go to the ( 12 Main St", "12 Main St", "12 Main St"),  # a bracket alone is no word of the address
    ("12 Main St: bring 2 beers", "12 Main St", "12 Main St"),  # a colon before a lower-case word
    ("Rose Cottage, 2 Church Lane, Upper Slaughter. Sat nav", "2 Church Lane", "Rose Cottage, 2 Church Lane, Upper "
                                                                                "Slaughter"),
    ("our place, 2215 West Fulton Avenue, in March.", "2215 West Fulton Avenue", "2215 West Fulton Avenue"),
    ("at Calle 16 # 93-47 now", "Calle 16 # 93", "Calle 16 # 93-47"),  # the word the form cut, whole
    # a preposition of place introduces the address: whoever stands before it is no part of it
    ("my grandmother Zofia Zielinska at ul. Lipowa 14, Lublin", "ul. Lipowa 14", "ul. Lipowa 14, Lublin"),
])
def test_growth_stops_where_the_address_does_and_never_narrows(text, span, grown):
    toks = features.tokens(text)
    prob = {i: 1.0 for i in range(len(toks))}  # every word as likely as can be: only the limits stop it
    start = text.index(span)
    s, e = grow(toks, prob, start, start + len(span))
    assert text[s:e] == grown and s <= start and e >= start + len(span)


@pytest.mark.models
def test_a_refused_name_with_digits_does_not_hide_an_address(tmp_path):
    # the NER reads part of the address as a person; the span rules refuse it (digits are in no name), which
    # says nothing of a public place: the street-context model still reads the address
    text = "My father lives in Karachi at House No. R-214, Sector 11-A, North Karachi. How do I write it?"
    texts, _, _ = clean_one_dialogue(tmp_path, [("user", text), ("assistant", "Write it on two lines.")])
    assert "R-214" not in texts[0] and "11-A" not in texts[0]
