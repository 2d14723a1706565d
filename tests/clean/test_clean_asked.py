"""Values a speaker gives as their own (builder/clean/asked.py): an answer to "what's your zip
code?" holds one though its cue is in the turn before, and a value a person calls their own in
the second speaker's turns is no model's example. Each outcome is computed by hand."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from builder.clean import asked
from builder.clean.config import CleanConfig
from builder.clean.pii import PiiDetector
from builder.clean.redact import redact_dialogue
from conftest import dialogue, make_stage_folder

pytestmark = pytest.mark.models


@pytest.mark.parametrize("question, cue", asked.ASK_EXAMPLES)
def test_ask_examples(question, cue):
    assert asked.asked_cue(question) == cue


@pytest.mark.parametrize("text, value, own", asked.OWN_EXAMPLES)
def test_own_value_examples(text, value, own):
    assert asked.own_value(text, text.index(value)) is own


def test_a_letter_long_turn_is_no_own_value():
    letter = "Dear hiring manager, " + "I am writing to apply for the role. " * 10 + "Reach me at 555-201-7788."
    assert not asked.own_value(letter, letter.index("555"))


@pytest.fixture(scope="module")
def detector():
    return PiiDetector(CleanConfig())


def _redacted(detector, turns):
    rows = [{"index": i, "role": role, "text": text, "images": []} for i, (role, text) in enumerate(turns)]
    scans = detector.scan([t["text"] for t in rows], None, [i > 0 for i in range(len(rows))])
    return [t["text"] for t in redact_dialogue("d", rows, scans, CleanConfig()).turns]


@pytest.mark.parametrize("turns, gone, kept", [
    # the answer's bare code after the question that names it, on either side of the log
    ([("user", "hey what's your zip code? i'll mail the invite"), ("assistant", "sure, it's 60614"),
      ("user", "cool")], ["60614"], ["sure, it's"]),
    ([("user", "what's your postcode?"), ("assistant", "haha ok, 1017 CT")], ["1017 CT"], ["haha ok"]),
    ([("user", "lol ok"), ("assistant", "can i get your number?"), ("user", "yeah 0803 458 3995")], ["0803 458 3995"],
     []),
    # the same number after a question that asks for no value stays
    ([("user", "how many steps did you walk today?"), ("assistant", "it's 60614 i think")], [], ["60614"]),
    # a second speaker's own values in a chat-sized turn
    ([("user", "i lost my phone again"), ("assistant", "lol my old number was 0781 261 6798, i changed it")],
     ["0781 261 6798"], []),
    ([("user", "we should meet"), ("assistant", "you can text me at 090-8372-9245 whenever")], ["090-8372-9245"], []),
    # a model's example stays
    ([("user", "How do I copy a file to my server?"), ("assistant", "Run scp file.txt root@203.0.113.77:/tmp to copy it.")],
     [], ["203.0.113.77"]),
])
def test_values_given_as_ones_own(detector, turns, gone, kept):
    text = "\n".join(_redacted(detector, turns))
    for value in gone:
        assert value not in text
    for value in kept:
        assert value in text


def test_a_name_in_the_model_translation_of_the_users_record_is_the_users(detector):
    """The user pastes a certificate in Chinese; the model translates it, repeating its id number:
    the name its "Name:" field lists is the user's, though the user wrote it in another script.
    A name the model's answer brings up outside such a record stays public."""
    turns = [("user", "翻译成英文：学分绩点证明\n身份证号：620102199904035324\n姓名：刘书然"),
             ("assistant", "Credit Point Certificate\nID Number: 620102199904035324\nName: Liu Shuran\n"
                           "Issued as in the original, like the ones Marie Curie signed.")]
    text = _redacted(detector, turns)[1]
    assert "Liu" not in text and "Shuran" not in text and "Marie Curie" in text


def test_a_person_to_person_chat_keeps_no_value_of_the_second_side(detector):
    turns = [("user", "hi! how was your weekend?"), ("assistant", "pretty good, my sister visited lol"),
             ("user", "nice, did you buy the bike?"), ("assistant", "yeah they charged card 4607 1338 5443 4719 twice tho")]
    assert "4607" not in "\n".join(_redacted(detector, turns))


def test_the_stage_reads_an_answer_with_the_question_before_it_and_not_across_dialogues(tmp_path):
    from builder.cli import main

    rows = [dialogue([("user", "what's your postcode?"), ("assistant", "it's 2000 i think, why")], source_id="a"),
            dialogue([("user", "hi"), ("assistant", "what's your postcode?")], source_id="b"),
            dialogue([("user", "we drove 2000 km last summer"), ("assistant", "That is a long trip!")], source_id="c")]
    src = make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, ["clean", str(src), "-o", str(tmp_path / "out"), "--toxicity-backend",
                                       "lexicon", "--quiet"])
    assert result.exit_code == 0, result.output
    out = pl.concat([pl.read_parquet(p) for p in sorted((tmp_path / "out").glob("part-*.parquet"))]).to_dicts()
    texts = [[t["text"] for t in r["turns"]] for r in out]
    assert len(texts) == 3
    answer = next(t for t in texts if t[0] == "what's your postcode?")
    assert "2000" not in answer[1] and answer[1].startswith("it's ")
    trip = next(t for t in texts if "drove" in t[0])
    assert trip[0] == "we drove 2000 km last summer"
