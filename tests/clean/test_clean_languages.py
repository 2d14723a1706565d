"""Per-turn language routing, the `language` field, `--languages`, auditable coherence drops."""

from __future__ import annotations

import json

import polars as pl
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder.cli import main
from builder.clean.config import CleanConfig
from builder.clean.pii import PiiDetector
from builder.errors import ConfigError

RUSSIAN = ("Привет! Объясни, пожалуйста, как работает фотосинтез у растений и почему листья зелёные летом, "
           "а осенью становятся жёлтыми и красными.")


def _rows():
    return [
        dialogue([("user", RUSSIAN), ("assistant", "Фотосинтез — это процесс, при котором растения используют свет.")],
                 source_id="ru"),
        dialogue([("user", "Can you explain how photosynthesis works in plants and why leaves are green?"),
                  ("assistant", "Plants use chlorophyll, which absorbs red and blue light.")], source_id="en"),
        dialogue([("user", "Anna Berg anna.berg@gmail.com (212) 555-0187 42 Willow Lane"),
                  ("assistant", "Thanks, noted.")], source_id="mostly_pii"),
        # the same values as a record's fields: with surrogates it reads as the same record, and stays
        dialogue([("user", "Anna Berg, anna.berg@gmail.com, (212) 555-0187, 42 Willow Lane"),
                  ("assistant", "Thanks, noted.")], source_id="record"),
    ]


def _run(tmp_path, *args):
    make_stage_folder(tmp_path / "in", _rows())
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-toxicity",
                                       *args])
    assert result.exit_code == 0, result.output
    rows = {r["source_id"]: r for r in pl.read_parquet(tmp_path / "out" / "part-00000.parquet").to_dicts()}
    ledger = {r["dialogue_id"]: r for r in pl.read_parquet(tmp_path / "out" / "ledger.parquet").to_dicts()
              if r["stage"] == "clean"}
    return rows, ledger


def test_language_is_recorded_and_non_english_turns_get_no_english_ner(tmp_path):
    rows, ledger = _run(tmp_path)
    assert rows["ru"]["language"] == "ru" and rows["en"]["language"] == "en"
    assert rows["ru"]["turns"][0]["text"] == RUSSIAN  # English NER would tag "Привет" and friends
    detail = json.loads(ledger[rows["ru"]["dialogue_id"]]["detail"])
    assert detail["language_independent_only_turns"] == [0, 1]


def test_language_filter_drops_others_with_a_reason(tmp_path):
    rows, ledger = _run(tmp_path, "--languages", "en,und")  # und: too short to tell (the mostly-PII one)
    assert "ru" not in rows and "en" in rows
    dropped = [json.loads(r["detail"]) for r in ledger.values() if r["reason"] == "language_not_selected"]
    assert dropped == [{"language": "ru"}]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["funnel"]["dropped"]["language_not_selected"] == 1
    assert manifest["rows"]["in"] == 4  # every dialogue accounted for


def test_coherence_drop_lists_the_spans_that_made_it(tmp_path):
    rows, ledger = _run(tmp_path)
    dropped = [r for r in ledger.values() if r["reason"] == "pii_coherence"]
    assert len(dropped) == 1
    spans = json.loads(dropped[0]["detail"])["spans"]
    assert {s["entity"] for s in spans} >= {"EMAIL_ADDRESS", "PHONE_NUMBER"}
    assert all({"turn", "start", "end", "entity", "score"} <= set(s) for s in spans)
    assert "anna.berg" not in dropped[0]["detail"]  # offsets, never values
    record = rows["record"]["turns"][0]["text"]
    assert "Anna" not in record and "anna.berg" not in record and "555-0187" not in record and record.count(", ") == 3


def test_language_independent_finders_still_run_on_other_languages():
    scans = PiiDetector(CleanConfig()).scan(["Напишите мне на anna.berg@gmail.com или позвоните +7 916 123-45-67"],
                                            [False])
    assert {s["entity"] for s in scans[0].spans} == {"EMAIL_ADDRESS", "PHONE_NUMBER"}


def test_bad_language_codes_are_refused():
    import pytest

    with pytest.raises(ConfigError, match="ISO 639-1"):
        CleanConfig(languages=("english",))


def test_a_turn_of_an_english_dialogue_gets_english_ner_whatever_lingua_calls_it():
    from builder.clean.languages import english_turns

    french = "Dis-moi quel prompt utiliser dans stable diffusion pour dessiner des images dans un ciel nocturne"
    turns = [{"text": "Send the contract to Hiroshi Sørensen and cc Radhika, she handles billing."}, {"text": RUSSIAN},
             {"text": french}]
    # English words in Latin letters, in an English dialogue: English, whatever lingua called the turn
    assert english_turns(turns, ["la", "ru", "fr"], "en") == [True, False, False]
    assert english_turns(turns, ["la", "ru", "fr"], "fr") == [False, False, False]  # another dialogue language
    assert english_turns(turns, [None, None, None], None) == [True, False, True]  # unknown: the script decides
    # a dialogue lingua cannot tell, a turn it calls Yoruba: English words in Latin letters decide
    chat = [{"text": "Hahaha\nHey\nomg my name is Erika too lol. Erika Beltrán, nice to meet u"}, {"text": french}]
    assert english_turns(chat, ["yo", "fr"], None) == [True, False]
