"""Numbers no finder found (builder/clean/context_numbers.py), judged by the number-context model,
end to end through the real CLI: what goes, what stays, and the switch."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from builder.clean.context_numbers import in_lists
from classifiers.number_context.features import candidates
from conftest import clean_one_dialogue

CHAT = [("user", "they told me my case is 88-20431, what now"),
        ("assistant", "They told me my case is 31-55120 too, so to speak."),  # judged, it would go (p 0.91)
        ("user", "I scored 30309 points in that game last night lol"),
        ("assistant", "Nice score!"),
        ("user", "why does this fail?\n```python\nmy_case = 31-55120\nprint(my_case)\n```"),
        ("assistant", "It works for me.")]


def _clean(tmp_path, *extra):
    return clean_one_dialogue(tmp_path, CHAT, *extra)


@pytest.mark.models
def test_a_number_given_as_ones_own_goes_and_the_switch_turns_it_off(tmp_path):
    from builder.cli import main

    texts, manifest, out = _clean(tmp_path / "on")
    assert texts[0] == "they told me my case is <ID_NUMBER>, what now"
    assert texts[1] == CHAT[1][1]  # the same words in a model's turn: its numbers are never judged
    assert texts[2] == CHAT[2][1]  # a score
    assert texts[4] == CHAT[4][1]  # code
    assert manifest["redacted_by_model"] == {"number_context": 1}
    assert manifest["config"]["number_context"] is True
    assert "number_context_sha256" in json.dumps(manifest["models"])
    report = CliRunner().invoke(main, ["clean", "-o", str(out), "--report"])
    assert "number_context 1" in report.output
    texts, manifest, _ = _clean(tmp_path / "off", "--no-number-context")
    assert texts[0] == CHAT[0][1]  # no finder takes "my case is 88-20431": only the model did
    assert manifest["config"]["number_context"] is False and manifest["redacted_by_model"] == {}


@pytest.mark.parametrize("text, listed", [
    ("card bins 411111, 522964, 623456789012, 434910.", ["411111", "522964", "623456789012", "434910"]),
    ("rooms 101, 102 and 103 are free", ["101", "102", "103"]),
    ("my zip changed from 60614 to 60647", []),  # two values, not a list
    ("call 0161 496 0000 or 0161 496 0001", []),
    ("a 123, b 456, c 789", []),  # words between them: each stands alone
])
def test_numbers_in_a_list_are_data_and_never_judged(text, listed):
    found = candidates(text)
    assert [text[s:e] for k, (s, e) in enumerate(found) if k in in_lists(text, found)] == listed


@pytest.mark.models
def test_a_number_inside_a_refused_name_is_still_judged(tmp_path):
    # the NER reads the truecased "84102 Tmrw" as a person; the span rules refuse it as a name, which
    # says nothing of the number in it: the model judges the number (it had been left out as "kept")
    texts, manifest, _ = clean_one_dialogue(tmp_path, [("user", "weather for 84102 tmrw? walking to class"),
                                                       ("assistant", "Expect light rain in the morning.")])
    assert texts[0] == "weather for <ZIP_CODE> tmrw? walking to class"
    assert manifest["redacted_by_model"] == {"number_context": 1}


@pytest.mark.parametrize("text, number, counted", [
    ("my salary is 85000 a year", "85000", True), ("lebron passed 40000 career points", "40000", True),
    ("rent is 25000 per month", "25000", True), ("weather in 80290 this weekend?", "80290", False),
    ("im in 60614 chicago", "60614", False), ("is 11101 queens or brooklyn", "11101", False),  # named words only
    ("se mudó a 29401 después de la uni", "29401", False),
])
def test_a_number_that_counts_or_prices_something_is_no_postcode_the_model_may_take(text, number, counted):
    from builder.clean.numbers import amount

    assert amount(text, text.index(number) + len(number)) is counted


def test_the_model_takes_no_postcode_before_an_amount_word(tmp_path):
    texts, manifest, _ = clean_one_dialogue(tmp_path, [
        ("user", "If my salary is 85000 a year, how much will I take home after tax in California?"),
        ("assistant", "It depends on your deductions.")])
    assert "85000" in texts[0]
