"""Names mentioned, not people; sample records; values only a model holds (units)."""

from __future__ import annotations

import pytest

from builder.clean.mentions import (SHOW_TALK, after_article, character_of_a_work, discussed_as_name,
                                    mentioned_not_people, occurrences, public_role, used_as_place)
from builder.clean.names import name_context, trim_lower_case
from builder.clean.numbers import in_code_list
from builder.clean.pii import TurnScan
from builder.clean.samples import record_rows, sample_values, user_sourced_values
from builder.traits import tag
from builder.traits.public_life import about_public_life


@pytest.mark.parametrize("texts,value,expected", [
    (["Is the name Oswin Harrow too unusual for a baby?"], "Oswin Harrow", True),
    (["Имя Oswin Harrow звучит необычно."], "Oswin Harrow", True),
    (["Oswin is a nice name, isn't it?"], "Oswin", True),
    (["Oswin Harrow called me yesterday about the flat."], "Oswin Harrow", False),
])
def test_a_name_discussed_as_a_word(texts, value, expected):
    assert discussed_as_name(occurrences(texts, value)) is expected


@pytest.mark.parametrize("texts,value,expected", [
    (["My date loved my Barney reference from the sitcom."], "Barney", True),
    (["I watch the show every week.", "Ted from Mosby Stories is the funniest."], "Ted", True),
    (["Did she pick Robin because she's your favourite character?"], "Robin", True),
    (["Ted from Accounting sent the invoice."], "Ted", False),
])
def test_a_character_of_a_work(texts, value, expected):
    show_talk = bool(SHOW_TALK.search("\n".join(texts)))
    assert character_of_a_work(occurrences(texts, value), show_talk) is expected


@pytest.mark.parametrize("texts,value,expected", [
    (["The party is at the bowling alley in Tarragindi."], "Tarragindi", True),
    (["We met in Anna's kitchen."], "Anna", False),
    (["I met Anna near the station."], "Anna", False),
    (["A café near Mudgeeraba."], "Mudgeeraba", True),
    (["The office in New Farm."], "New Farm", False),  # one word only: a full name after "in" is ambiguous
])
def test_a_single_word_used_as_a_place(texts, value, expected):
    assert used_as_place(occurrences(texts, value)) is expected


def test_personal_dialogues_only_judge_places():
    texts = ["Please proofread my letter: Oswin is a nice name for our son, and we live in Tarragindi."]
    assert mentioned_not_people(texts, {"Oswin", "Tarragindi"}) == {"Oswin", "Tarragindi"}
    assert mentioned_not_people(texts, {"Oswin", "Tarragindi"}, places_only=True) == {"Tarragindi"}


@pytest.mark.parametrize("text,expected", [
    ("a bakery with lovely bread and coffee", ""),
    ("rewrite this - Whether", "Whether"),
    ("Maria de la Cruz", "Maria de la Cruz"),
    ("Apollo 11", "Apollo 11"),  # digits: left whole for keep_span, never cut down to a name
])
def test_lower_case_words_are_trimmed_from_ner_spans(text, expected):
    start, end = trim_lower_case(text, 0, len(text))
    assert text[start:end] == expected


@pytest.mark.parametrize("text,name,kind", [
    ("Done\nok Reading package lists", "Reading", None),
    ("ok Tom, see you then", "Tom", "greeting"),
    ("Sorry, Anna!", "Anna", "greeting"),
    ("Hi Tom how are you", "Tom", "greeting"),
])
def test_weak_greetings_need_the_name_to_close_the_address(text, name, kind):
    start = text.index(name)
    assert name_context(text, start, start + len(name)) == kind


@pytest.mark.parametrize("text,name,kind", [
    ("my twin brothers, Mateo and Santiago, are visiting", "Mateo", "relation"),  # a plural relation, set off
    ("My coworkers, Priya and Tom, hate me", "Priya", "relation"),
    ("my sisters are Ana and Mia", "Ana", "relation"),
    ("the brothers Grimm wrote it", "Grimm", None),
])
def test_a_plural_relation_names_the_people_after_it(text, name, kind):
    start = text.index(name)
    assert name_context(text, start, start + len(name)) == kind


@pytest.mark.parametrize("text,value,expected", [
    ("bins: 411111、522964、623456789012、434910、622252", "623456789012", True),
    ("codes 1234, 987654321012, 5678", "987654321012", True),
    ("call me on 1234, 987654321012, 5678", "987654321012", False),  # a cue word still wins
    ("my numbers: 0612345678, 0698765432", "0612345678", False),  # neighbours long enough to be phones
])
def test_a_number_among_short_codes_is_no_phone(text, value, expected):
    start = text.index(value)
    assert in_code_list(text, start, start + len(value)) is expected


ROSTER = ("const string data[] = {\n"
          "  \"B1,Milo,Tarrant,milo.t@mailbox.org,21,SECURITY\",\n"
          "  \"B2,Ines,Quarry,ines.q@mailbox.org,22,NETWORK\",\n"
          "  \"B3,Pavel,Osk,pavel@mailbox.org,20,SOFTWARE\",\n"
          "  \"B4,Runa,Voss,runa.voss@unimail.net,23,SOFTWARE\"\n};\n"
          "cout << \"Student ID: 00912345\";\ncout << \"Name: Runa Voss\";\n")


def _scan(text: str, values: list[tuple[str, str]]) -> TurnScan:
    spans = []
    for value, entity in values:
        start = 0
        while (i := text.find(value, start)) >= 0:
            spans.append({"start": i, "end": i + len(value), "entity": entity, "score": 0.85, "basis": "ner"})
            start = i + len(value)
    return TurnScan(spans=spans)


def test_course_sample_records_are_not_personal_but_the_students_own_row_is():
    turns = [{"role": "user", "text": "My assignment prints nothing for invalid emails:\n" + ROSTER},
             {"role": "assistant", "text": "Check how parse() splits each row."}]
    found = [("Milo", "PERSON"), ("Tarrant", "PERSON"), ("milo.t@mailbox.org", "EMAIL_ADDRESS"),
             ("Ines", "PERSON"), ("ines.q@mailbox.org", "EMAIL_ADDRESS"), ("Runa", "PERSON"), ("Voss", "PERSON"),
             ("runa.voss@unimail.net", "EMAIL_ADDRESS"), ("Runa Voss", "PERSON"), ("00912345", "ID_NUMBER")]
    texts = [t["text"] for t in turns]
    samples = sample_values(turns, texts, [_scan(texts[0], found), TurnScan()])
    assert {"Milo", "Tarrant", "milo.t@mailbox.org", "Ines", "ines.q@mailbox.org"} <= samples
    assert not {"Runa", "Voss", "runa.voss@unimail.net", "Runa Voss", "00912345"} & samples


def test_records_outside_coursework_stay_personal():
    turns = [{"role": "user", "text": "Why does my import fail on these customers?\n" + ROSTER.split("cout")[0]}]
    assert not tag(turns).has("coursework")  # the policy's course_sample_record rule does not apply
    assert tag([{"role": "user", "text": "My assignment prints nothing\n" + ROSTER}]).has("coursework")


def test_a_table_needs_three_rows_of_one_shape():
    text = "Name: Ann  Age: 3  City: X\nName: Bo  Age: 4  City: Y\nhello\nName: Cy  Age: 5  City: Z\n"
    assert len(record_rows(text)) == 3
    assert record_rows("a,b,c,d\nplain text\n") == []


def test_values_only_a_model_turn_holds_are_its_own_examples():
    turns = [{"role": "user", "text": "My server 35.201.7.9 refuses ssh. My phone is 0612345678."},
             {"role": "assistant", "text": "Try ssh root@35.201.7.9 or, for example, scp file root@34.67.89.10:/srv. "
                                          "I can't call 06 12 34 56 78; write to admin@yourhost.net."}]
    texts = [t["text"] for t in turns]
    found = [_scan(texts[0], [("35.201.7.9", "IP_ADDRESS"), ("0612345678", "PHONE_NUMBER")]),
             _scan(texts[1], [("35.201.7.9", "IP_ADDRESS"), ("34.67.89.10", "IP_ADDRESS"),
                              ("06 12 34 56 78", "PHONE_NUMBER"), ("admin@yourhost.net", "EMAIL_ADDRESS")])]
    kept = user_sourced_values(turns, texts, found)
    assert [texts[1][s["start"]:s["end"]] for s in kept[1].spans] == ["35.201.7.9", "06 12 34 56 78"]
    assert len(kept[0].spans) == 2


@pytest.mark.parametrize("texts,value,expected", [
    (["I doubt his QB Dario Velk will start on Sunday."], "Dario Velk", True),
    (["Velk, the quarterback from Ohio, was benched."], "Velk", True),
    (["Velk was drafted in the second round."], "Velk", True),
    (["Velk lent me his lawnmower."], "Velk", False),
    (["Oscar is my cousin's name."], "Oscar", False),  # the name itself is no award
])
def test_a_public_role_makes_a_public_figure(texts, value, expected):
    assert public_role(occurrences(texts, value)) is expected


def test_a_chat_about_professional_sport_names_public_figures():
    texts = ["Are you a fan of the NFL?", "Yes! Do you know who Dario Velk is? Best rookie this season."]
    assert about_public_life(texts)
    assert not about_public_life(["My neighbour Dario Velk plays football on Sundays."])


@pytest.mark.parametrize("texts,value,expected", [
    (["I am a fan of the Ravens, are you?"], "Ravens", True),
    (["Did they deserve the Emmy because of it?"], "Emmy", True),
    (["Unlike the Velk novel, this one is short."], "Velk", False),  # an author's name modifying a noun
])
def test_a_word_after_the_is_no_person(texts, value, expected):
    assert after_article(occurrences(texts, value)) is expected
