"""Names no finder found (builder/clean/context_names.py): which words are proposed, and that
clean judges them with the person-context model, end to end through the CLI."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from builder.clean.context_names import candidates
from conftest import dialogue, make_stage_folder


def _words(text, spans=()):
    return [(text[a:b], kind) for a, b, kind in candidates(text, list(spans))]


def test_lower_case_first_names_and_unknown_capitalised_words_are_proposed():
    assert _words("picking up lucas and ana from school") == [("lucas", "census"), ("ana", "census")]
    assert _words("Joy and her husband Emeka just had twins") == [("Emeka", "capital")]


def test_words_that_are_verbs_sentence_openers_or_already_found_are_not():
    assert _words("I will mark the grace period") == []  # first names that are also verbs or adjectives
    assert _words("Chiamaka got the job") == []  # an unknown word opening a sentence may be anything
    text = "dinner with lucas tonight"
    start = text.index("lucas")
    assert _words(text, [{"start": start, "end": start + 5}]) == []


@pytest.mark.models
def test_clean_redacts_the_names_the_model_reads_as_private_and_the_switch_turns_it_off(tmp_path):
    from builder.cli import main

    chat = [("user", "sorry cant talk rn, picking up lucas and ana from school"), ("assistant", "No problem!")]
    src = make_stage_folder(tmp_path / "in", [dialogue(chat, source_id="a")])
    texts, manifests = {}, {}
    for name, extra in (("on", []), ("off", ["--no-person-context"])):
        out = tmp_path / name
        result = CliRunner().invoke(main, ["clean", str(src), "-o", str(out), "--toxicity-backend", "lexicon",
                                           "--quiet", *extra])
        assert result.exit_code == 0, result.output
        texts[name] = pl.read_parquet(sorted(out.glob("part-*.parquet"))[0]).to_dicts()[0]["turns"][0]["text"]
        manifests[name] = json.loads((out / "manifest.json").read_text())
    assert texts["on"] == "sorry cant talk rn, picking up <PERSON> and <PERSON> from school"
    assert texts["off"] == chat[0][1]
    assert manifests["on"]["redacted_by_model"] == {"person_context_unfound": 2}
    assert manifests["off"]["redacted_by_model"] == {}
    report = CliRunner().invoke(main, ["clean", "-o", str(tmp_path / "on"), "--report"])
    assert "redacted on a context model's reading" in report.output and "person_context_unfound 2" in report.output


@pytest.mark.parametrize("text, name", [
    ("magdalena van der linde is here", "magdalena van der linde"),
    ("magdalena van van de de", "magdalena"),  # particles join only with a surname after them
    ("ksenia abernathy's cat", "ksenia abernathy"),
    ("ksenia smith is here", "ksenia smith"),
    ("ksenia abernathy-smith said hi", "ksenia abernathy-smith"),  # "said" is a census surname, and a verb
    ("lucas young is late", "lucas"),
])
def test_a_lower_case_first_name_takes_its_surname_and_no_more(text, name):
    from builder.clean.names import whole_lower_case_name

    first = text.split()[0]
    start, end = whole_lower_case_name(text, 0, len(first))
    assert text[start:end] == name


def _redact(chat, scan=True, **config):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector, TurnScan
    from builder.clean.redact import redact_dialogue

    cfg = CleanConfig(**config)
    turns = [{"index": i, "role": r, "text": t, "images": []} for i, (r, t) in enumerate(chat)]
    scans = (PiiDetector(cfg).scan([t["text"] for t in turns], None, [i > 0 for i in range(len(turns))]) if scan
             else [TurnScan() for _ in turns])
    return redact_dialogue("d", turns, scans, cfg)


@pytest.mark.models
def test_a_story_requests_names_stay_characters_whatever_the_model_reads():
    red = _redact([("user", "write a short story: lucas and his sister emma get lost in the woods"),
                   ("assistant", "Once upon a time...")])
    assert red.turns[0]["text"] == "write a short story: lucas and his sister emma get lost in the woods"
    assert red.by_model == {}


@pytest.mark.models
def test_without_pii_or_without_person_the_model_is_never_loaded(monkeypatch):
    from builder.clean.config import CleanConfig
    from builder.clean.entities import DEFAULT_ENTITIES
    from builder.clean.stage import CleanStage
    from classifiers.person_context import model

    def refuse():
        raise AssertionError("the person-context model was loaded")

    monkeypatch.setattr(model, "load", refuse)
    chat = [("user", "hey! how was your weekend?"), ("assistant", "pretty good lol, my sister visited"),
            ("user", "nice, what did you do?"), ("assistant", "we went hiking with Marisol lol")]
    assert "Marisol" in _redact(chat, scan=False, pii=False).turns[3]["text"]
    no_person = tuple(e for e in DEFAULT_ENTITIES if e != "PERSON")
    assert "Marisol" in _redact(chat, entities=no_person).turns[3]["text"]
    assert CleanStage(CleanConfig(pii=False)).version == "1"


def test_new_weights_rerun_the_stage():
    from builder.clean.config import CleanConfig
    from builder.clean.stage import CleanStage
    from classifiers.lower_case_name.model import weights_sha256 as lower_sha256
    from classifiers.number_context.model import weights_sha256 as number_sha256
    from classifiers.person_context.model import weights_sha256
    from classifiers.street_context.model import weights_sha256 as street_sha256

    person, number = f"person_context.{weights_sha256()[:16]}", f"number_context.{number_sha256()[:16]}"
    lower, street = f"lower_case_name.{lower_sha256()[:16]}", f"street_context.{street_sha256()[:16]}"
    assert CleanStage(CleanConfig()).version == f"1+{person}+{number}+{street}+{lower}"
    assert CleanStage(CleanConfig(person_context=False)).version == f"1+{number}+{street}+{lower}"
    assert CleanStage(CleanConfig(person_context=False, number_context=False, street_context=False,
                                  lower_case_names=False)).version == "1"
    assert CleanStage(CleanConfig(entities=("PERSON",))).version == f"1+{person}+{lower}"  # no number or street model
    assert CleanStage(CleanConfig(entities=("PHONE_NUMBER",))).version == f"1+{number}"  # no name or street model
    assert CleanStage(CleanConfig(entities=("STREET_ADDRESS",))).version == f"1+{street}"


@pytest.mark.models
def test_a_lower_case_name_goes_wherever_it_is_typed_again():
    red = _redact([("user", "sorry cant talk rn, picking up lucas and ana from school"), ("assistant", "ok, good luck!"),
                   ("user", "lucas was mad haha, the van was late")])
    assert red.turns[2]["text"] == "<PERSON> was mad haha, the van was late"


@pytest.mark.parametrize("value, guess", [("marek", True), ("marek's", True), ("Machu Picchu", False), ("Peru", False),
                                          ("the alps", False), ("e2e", False)])
def test_ners_label_on_one_lower_case_word_is_only_a_guess(value, guess):
    from builder.clean.context_names import lower_word_guess

    assert lower_word_guess(value) is guess


@pytest.mark.models
def test_a_lower_case_name_ner_labelled_something_else_is_still_judged():
    text = "Suggest some team names for our pub quiz, the team is me, Lucia, marek and a guy from work."
    red = _redact([("user", text), ("assistant", "Sure!")])  # NER: "marek" an organisation or a place
    assert red.turns[0]["text"] == text.replace("Lucia", "<PERSON>").replace("marek", "<PERSON>")


@pytest.mark.models
def test_a_word_the_model_half_believes_is_read_again_capitalised():
    text = "Do you think tobi would like a book about space for his birthday?"  # the model alone: 0.58 < 0.85
    red = _redact([("user", text), ("assistant", "Sure!")])
    assert red.turns[0]["text"] == text.replace("tobi", "<PERSON>")
    assert red.by_model == {"lower_case_name": 1, "lower_case_name_reread": 1}  # the report tells them apart


@pytest.mark.models
def test_the_second_reading_keeps_what_the_ner_does_not_call_a_person_and_never_shifts_offsets():
    from builder.clean.context_names import read_as_people

    text = "ßtraße and ngozi, then the station"
    words = [(0, 6, 0.6), (11, 16, 0.6), (27, 34, 0.6)]  # "ß": a capital two letters long is left as it is
    assert [text[s:e] for s, e, _ in read_as_people(text, words)] == ["ngozi"]
    assert read_as_people(text, []) == []
    lone = "ask ngozi \ud800 tomorrow"  # a lone surrogate (text that did not come through ingest): read, not raised
    assert [lone[s:e] for s, e, _ in read_as_people(lone, [(4, 9, 0.6)])] in (["ngozi"], [])


@pytest.mark.parametrize("text, word, taken, near", [
    ("a bowl of tom yum goong", "yum", "tom", True),  # after a name the model took
    ("cherry blossom season", "cherry", "blossom", True),  # before one
    ("tom and yum", "yum", "tom", False),
    ("tom,\tyum", "yum", "tom", False),
    ("tom\nyum", "yum", "tom", False),  # another line
    ("tom\u00a0yum", "yum", "tom", True),  # a no-break space is a space
])
def test_a_word_beside_a_name_the_model_took_is_not_read_again(text, word, taken, near):
    from builder.clean.context_names import beside

    s, t = text.index(word), text.index(taken)
    assert beside(text, s, s + len(word), [{"start": t, "end": t + len(taken)}]) is near


@pytest.mark.models
def test_a_word_ner_calls_a_place_or_a_work_is_never_proposed():
    red = _redact([("user", "Just came back from Peru! Here are my pictures: Machu Picchu at sunrise and a llama."),
                   ("assistant", "Lovely!")])
    assert "Machu Picchu at sunrise" in red.turns[0]["text"] and red.by_model == {}
