"""Names typed in lower case (context_names.add_lower_case_names), judged by the lower-case-name model,
end to end through the real CLI: what goes, what stays, and the switch."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import clean_one_dialogue

CHAT = [("user", "Yeah, me and dean kowalski used to work together at the plant"),
        ("assistant", "How long did you and dean kowalski work there?"),  # the same name, wherever it is typed again
        ("user", "I watch netflix and youtube all day lol"),
        ("assistant", "Nice."),
        ("user", "why does this fail?\n```python\njake = load()\nprint(jake)\n```"),
        ("assistant", "It works for me.")]


def _clean(tmp_path, *extra):
    return clean_one_dialogue(tmp_path, CHAT, *extra)


@pytest.mark.models
def test_a_name_typed_in_lower_case_goes_and_the_switch_turns_it_off(tmp_path):
    from builder.cli import main

    texts, manifest, out = _clean(tmp_path / "on")
    assert texts[0] == "Yeah, me and <PERSON> used to work together at the plant"
    assert texts[1] == "How long did you and <PERSON> work there?"
    assert texts[2] == CHAT[2][1]  # brands
    assert manifest["redacted_by_model"] == {"lower_case_name": 1}
    assert manifest["config"]["lower_case_names"] is True
    assert "lower_case_name_sha256" in json.dumps(manifest["models"])
    report = CliRunner().invoke(main, ["clean", "-o", str(out), "--report"])
    assert "lower_case_name 1" in report.output
    texts, manifest, _ = _clean(tmp_path / "off", "--no-lower-case-names")
    assert texts[0] == CHAT[0][1]  # no finder takes "me and dean kowalski": only the model did
    assert manifest["config"]["lower_case_names"] is False and manifest["redacted_by_model"] == {}


@pytest.mark.models
@pytest.mark.parametrize("text, expected", [
    # a possessive is a name's place too
    ("Quick one, does anyone have kowalski's number? He left his jacket here.",
     "Quick one, does anyone have <PERSON>'s number? He left his jacket here."),
    # NER's lower-case "malgorzata", refused by the span rules only for its case, is the model's to judge
    ("Can you ask malgorzata if she still needs a lift?", "Can you ask <PERSON> if she still needs a lift?"),
])
def test_possessives_and_names_refused_only_for_their_case_go(tmp_path, text, expected):
    texts, _, _ = clean_one_dialogue(tmp_path, [("user", text), ("assistant", "Sure, here is a plan.")])
    assert texts[0] == expected



@pytest.mark.models
@pytest.mark.parametrize("word, slip", [("peroid", True), ("hypotehtical", True),
                                        # a census name one letter from a dictionary entry is still a name
                                        ("cheng", False), ("keisha", False), ("javier", False), ("hassan", False)])
def test_a_census_name_is_no_slip_of_the_keyboard(word, slip):
    from builder.clean.context_names import slip_of_a_word
    from builder.clean.truecase import typo_of_english_word

    assert typo_of_english_word(word)  # each is one letter from a dictionary word ("chang", "xavier", "hassam")
    assert slip_of_a_word(word) is slip


@pytest.mark.models
def test_a_name_one_letter_from_a_dictionary_word_goes(tmp_path):
    text = "Meeting moved to 3, cheng is stuck in traffic on the M25."
    texts, _, _ = clean_one_dialogue(tmp_path, [("user", text), ("assistant", "Thanks for letting me know.")])
    assert texts[0] == "Meeting moved to 3, <PERSON> is stuck in traffic on the M25."


@pytest.mark.models
@pytest.mark.parametrize("text, expected", [
    # a census surname that is also an English word joins when the NER, capitalised, reads one name
    ("My sister keisha brown is visiting next week.", "My sister <PERSON> is visiting next week."),
    ("I'm olga ivanovna petrova btw, nice to meet you.", "I'm <PERSON> btw, nice to meet you."),  # a given name before
    ("My name is mary ann smith and I need help.", "My name is <PERSON> and I need help."),  # NER's lower-case span
    ("I went to prom with aisha bello musa", "I went to prom with <PERSON>"),  # "musa": a noun to the dictionary
    ("The puppy keisha has brown eyes and a white tail.", "The puppy <PERSON> has brown eyes and a white tail."),
    # read again with the name words beside it capitalised ("Li Wei Chen"), widened reading by reading
    ("I went to prom with li wei chen", "I went to prom with <PERSON>"),
    ("I went to prom with olga ivanovna petrova", "I went to prom with <PERSON>"),
    ("I went to prom with maria de souza", "I went to prom with <PERSON>"),  # over a particle; NER's "organisation" a guess
    ("My friend mary j. smith is here.", "My friend <PERSON> is here."),  # over a middle initial
    ("I met keisha brown's mom at the game.", "I met <PERSON>'s mom at the game."),  # a possessive ends the name
    ("We flew from rio de janeiro last summer.", "We flew from rio de janeiro last summer."),  # a place stays
    ("How to define button onlick event in vue2", "How to define button onlick event in vue2"),  # no census first name
    ("my daughter sophie is turning 6 next week", "my daughter <PERSON> is turning 6 next week"),  # the relation stays
    # two half-believed census names that are both English words are not read again as a pair (the demo's)
    ("April is cherry blossom season right? Will the torii gates be very crowded?",
     "April is cherry blossom season right? Will the torii gates be very crowded?"),
])
def test_a_lower_case_name_is_completed_by_the_name_words_beside_it(tmp_path, text, expected):
    texts, _, _ = clean_one_dialogue(tmp_path, [("user", text), ("assistant", "Sure, happy to help.")])
    assert texts[0] == expected


@pytest.mark.models
@pytest.mark.parametrize("text, expected", [
    # the dictionary's people (a goddess, a prophet) are English words to it, yet names here: re-read by the NER
    ("I owe lakshmi a coffee for helping me with the spreadsheet, remind me on Monday.",
     "I owe <PERSON> a coffee for helping me with the spreadsheet, remind me on Monday."),
    ("I need more coffee before the meeting, remind me on Monday.",
     "I need more coffee before the meeting, remind me on Monday."),  # a noun whose vectors sit with products
])
def test_a_dictionary_person_typed_in_lower_case_is_read_again(tmp_path, text, expected):
    from builder.clean.context_names import person_like_nouns

    assert [text[s:e] for s, e in person_like_nouns(text)] == (["lakshmi"] if "lakshmi" in text else [])
    texts, _, _ = clean_one_dialogue(tmp_path, [("user", text), ("assistant", "Sure, happy to help.")])
    assert texts[0] == expected


@pytest.mark.parametrize("text, joined", [
    ("Sarah J. Miller", True), ("sarah j miller", True), ("anna mae jenkins", True), ("anna jenkins", True),
    ("sarah n jake", False), ("ana y luis", False), ("sarah and jake", False), ("sarah u jake", False),
])
def test_two_person_spans_joined_only_over_a_middle_name_part(text, joined):
    from builder.clean.context_names import _join_over_middle
    from builder.clean.pii import TurnScan

    first, last = text.split()[0], text.split()[-1]
    spans = [{"start": 0, "end": len(first), "entity": "PERSON"},
             {"start": len(text) - len(last), "end": len(text), "entity": "PERSON"}]
    out = _join_over_middle(text, TurnScan(spans=spans))
    assert [(s["start"], s["end"]) for s in out.spans] == ([(0, len(text))] if joined else [(0, len(first)), (len(text) - len(last), len(text))])


@pytest.mark.parametrize("word, relation", [("sister", True), ("roommate", True), ("bf", True), ("ex-wife", True),
                                            ("brother-in-law", True), ("keisha", False), ("brown", False)])
def test_a_relation_word_is_no_part_of_the_name_beside_it(word, relation):
    from builder.clean.context_names import _beside_word
    from builder.clean.names import relation_word

    assert relation_word(word) is relation
    if relation:
        assert not _beside_word(word)
