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
    assert "redacted on the person-context model's reading" in report.output and "person_context_unfound 2" in report.output


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
