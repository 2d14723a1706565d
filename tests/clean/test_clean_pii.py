"""PII scrubbing through the real `mmrc-build clean` CLI (Presidio + packaged spaCy model)."""

from __future__ import annotations

import hashlib
import io
import json

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder, png_bytes, shared_data

from builder.cli import main

PLANTED = {
    "PERSON": "Margarethe Vollmer",
    "EMAIL_ADDRESS": "m.vollmer1984@gmail.com",
    "PHONE_NUMBER": "(212) 555-0187",
    "CREDIT_CARD": "4111 1111 1111 1111",
    "IBAN_CODE": "DE89 3704 0044 0532 0130 00",
    "IP_ADDRESS": "84.23.117.9",
    "US_SSN": "078-05-1120",  # a well-known test SSN: Presidio invalidates it, the cued recognizer does not
    "STREET_ADDRESS": "42 Willow Lane",
    "URL": "https://www.facebook.com/profile/m.vollmer.1984",
}
PUBLIC = [
    "Albert Einstein developed the theory of relativity while working in Bern, Switzerland.",
    "Paris is the capital of France and the Eiffel Tower is its most visited monument.",
    "Shakespeare wrote Hamlet; see https://en.wikipedia.org/wiki/Hamlet for the plot.",
]


def _pii_rows():
    p = PLANTED
    return [
        dialogue([
            ("user", f"Hello, my name is {p['PERSON']} and I need help writing a formal complaint letter to my bank "
                     f"about a charge on my card {p['CREDIT_CARD']} that I never made last month in the shop."),
            ("assistant", f"Of course, {p['PERSON']}. Could you share how the bank can reach you, so the letter "
                          "includes your contact details at the top of the page?"),
            ("user", f"Sure: write to {p['EMAIL_ADDRESS']} or call {p['PHONE_NUMBER']} in the afternoon. My IBAN is "
                     f"{p['IBAN_CODE']} and my social security number is {p['US_SSN']} if they ask for it."),
            ("assistant", f"Thanks. I will add the email {p['EMAIL_ADDRESS']} and the phone line to the header of "
                          "the letter and keep the account numbers out of the body text."),
            ("user", f"I live at {p['STREET_ADDRESS']} in a small town, my router shows the public IP {p['IP_ADDRESS']} "
                     f"and my profile is at {p['URL']} if the bank wants to check who I am."),
            ("assistant", "Here is the draft letter with your details at the top and the disputed charge described "
                          "in the second paragraph, with a request for a refund within fourteen days."),
        ], source_id="pii"),
        dialogue([("user", PUBLIC[0]), ("assistant", PUBLIC[1]), ("user", PUBLIC[2]),
                  ("assistant", "Yes, Hamlet is one of his best known tragedies.")], source_id="public"),
    ]


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory):
    root = tmp_path_factory.mktemp("clean_pii")
    jpg = png_bytes(exif_gps=True)
    sha = hashlib.sha256(jpg).hexdigest()
    img = {"sha256": sha, "mime": "image/jpeg", "width": 32, "height": 24, "url": None}
    rows = _pii_rows()
    rows.append(dialogue([("user", "What is in this photo I took on holiday?"),
                          ("assistant", "It looks like a plain red square.")], images={0: [img]}, source_id="photo"))
    make_stage_folder(root / "in", rows, images={sha: jpg})
    with pytest.MonkeyPatch.context() as mp:  # module scope: the autouse isolation is not active yet
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("MMRC_MODELS", str(root / "models"))
        result = CliRunner().invoke(main, ["clean", str(root / "in"), "-o", str(root / "out"),
                                           "--no-toxicity", "--report"])
    assert result.exit_code == 0, result.output
    return root / "out", result.output, sha


def _by_source(out):
    return {r["source_id"]: r for r in pl.read_parquet(out / "part-00000.parquet").to_dicts()}


def _ledger(out):
    return {r["dialogue_id"]: r for r in pl.read_parquet(out / "ledger.parquet")
            .filter(pl.col("stage") == "clean").to_dicts()}


def test_planted_pii_of_every_type_is_gone(cleaned):
    out, _, _ = cleaned
    text = "\n".join(t["text"] for t in _by_source(out)["pii"]["turns"])
    for entity, value in PLANTED.items():
        assert value.lower() not in text.lower(), f"{entity} {value!r} survived: {text}"
        assert f"<{entity}>" in text, f"no <{entity}> placeholder in {text}"
    assert "Margarethe" not in text and "Vollmer" not in text  # name parts too, in every turn


def test_pii_field_and_ledger_record_every_span(cleaned):
    out, _, _ = cleaned
    row = _by_source(out)["pii"]
    assert {s["entity"] for s in row["pii"]} >= set(PLANTED)
    for span in row["pii"]:
        turn_text = row["turns"][span["turn"]]["text"]
        assert turn_text[span["start"]:span["end"]] == f"<{span['entity']}>"  # offsets in the cleaned text
        assert span["action"] == "placeholder" and 0 < span["score"] <= 1
    entry = _ledger(out)[row["dialogue_id"]]
    assert (entry["decision"], entry["reason"]) == ("modified", "pii_redacted")
    detail = json.loads(entry["detail"])
    assert len(detail["pii"]) == len(row["pii"])
    assert "Vollmer" not in entry["detail"]  # the ledger never holds the values


def test_public_figures_and_places_are_left_intact(cleaned):
    out, _, _ = cleaned
    row = _by_source(out)["public"]
    assert [t["text"] for t in row["turns"][:3]] == PUBLIC
    assert row["pii"] == []
    assert _ledger(out)[row["dialogue_id"]]["reason"] == "ok"


def test_exif_is_stripped_and_recorded(cleaned):
    from PIL import Image

    from builder.images import ImageStore

    out, _, old_sha = cleaned
    row = _by_source(out)["photo"]
    ref = row["turns"][0]["images"][0]
    assert ref["sha256"] != old_sha
    data = ImageStore(out).read(ref["sha256"], ref["mime"])
    assert hashlib.sha256(data).hexdigest() == ref["sha256"]
    assert b"SERIAL-12345" not in data and not Image.open(io.BytesIO(data)).getexif()
    assert not ImageStore(out).has(old_sha, "image/jpeg")
    entry = _ledger(out)[row["dialogue_id"]]
    assert entry["reason"] == "exif_stripped"
    assert json.loads(entry["detail"])["exif"][0]["old"] == old_sha
    assert row["dialogue_id"] == _by_source(out)["photo"]["dialogue_id"]


def test_report_prints_the_funnel(cleaned):
    out, run_output, _ = cleaned
    assert "clean funnel" in run_output
    result = CliRunner().invoke(main, ["clean", "--report", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "in                                 3" in result.output
    assert "redacted (kept, modified)          1" in result.output
    assert "1 had metadata and were re-encoded from their pixels" in result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["funnel"]["out"] == 3 and manifest["stats"]["pii_spans"]["PERSON"] >= 2


def test_surrogates_are_consistent_within_a_dialogue(tmp_path):
    rows = [dialogue([
        ("user", "Hi, I am Margarethe Vollmer and my colleague Jonathan Pryce will join the trip to the coast "
                 "next week, we want a quiet hotel near the beach."),
        ("assistant", "Nice to meet you, Margarethe. Does Jonathan Pryce need a separate room, or will you share?"),
        ("user", "Jonathan needs his own room, and please write to m.vollmer1984@gmail.com with the options."),
    ])]
    make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-toxicity",
                                       "--action", "surrogate", "--entity-action", "EMAIL_ADDRESS=placeholder"])
    assert result.exit_code == 0, result.output
    row = pl.read_parquet(tmp_path / "out" / "part-00000.parquet").to_dicts()[0]
    texts = [t["text"] for t in row["turns"]]
    joined = " ".join(texts)
    assert "Margarethe" not in joined and "Vollmer" not in joined and "Jonathan" not in joined
    assert "<EMAIL_ADDRESS>" in texts[2]
    fakes = {}
    for span in row["pii"]:
        value = texts[span["turn"]][span["start"]:span["end"]]
        if span["entity"] == "PERSON":
            assert span["action"] == "surrogate"
            fakes.setdefault(span["turn"], []).append(value)
    full = fakes[0]  # turn 0: both full names
    assert len(full) == 2 and full[0] != full[1]
    assert full[1] in texts[1]  # the same fake for "Jonathan Pryce" in turn 1
    assert full[0].split()[0] in texts[1]  # and "Margarethe" alone maps to the same first name
    assert full[1].split()[0] in texts[2]


def test_coherence_rule_drops_or_deletes_the_exchange(tmp_path):
    mostly_pii = "Anna Berg anna.berg@gmail.com (212) 555-0187"  # a pile of values (a record line reads fine)
    long_dialogue = [("user", "Can you help me plan a vegetable garden for a small balcony in the city?"),
                     ("assistant", "Yes: tomatoes, herbs and lettuce grow well in pots on a sunny balcony."),
                     ("user", mostly_pii), ("assistant", "Thanks, noted."),
                     ("user", "Which herbs need the least water during the hot summer months?"),
                     ("assistant", "Rosemary, thyme and sage tolerate dry soil best among common herbs."),
                     ("user", "And how deep should the pots be for tomatoes to grow well?"),
                     ("assistant", "At least thirty centimetres, so the roots have room to spread.")]
    rows = [dialogue(long_dialogue, source_id="long"),
            dialogue([("user", mostly_pii), ("assistant", "Thanks, noted.")], source_id="short")]
    make_stage_folder(tmp_path / "in", rows)
    for policy in ("drop", "delete_exchange"):
        out = tmp_path / policy
        result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(out), "--no-toxicity",
                                           "--coherence", policy])
        assert result.exit_code == 0, result.output
        ledger = {r["dialogue_id"]: r for r in pl.read_parquet(out / "ledger.parquet").to_dicts()
                  if r["stage"] == "clean"}
        kept = {r["source_id"]: r for r in pl.read_parquet(out / "part-00000.parquet").to_dicts()}
        assert ledger[rows[1]["dialogue_id"]]["reason"] == "pii_coherence"  # nothing left worth keeping
        if policy == "drop":
            assert ledger[rows[0]["dialogue_id"]]["reason"] == "pii_coherence"
            assert kept == {}
        else:
            assert ledger[rows[0]["dialogue_id"]]["reason"] == "pii_redacted"
            assert json.loads(ledger[rows[0]["dialogue_id"]]["detail"])["deleted_turns"] == [2, 3]
            turns = kept["long"]["turns"]
            assert len(turns) == 6 and [t["index"] for t in turns] == list(range(6))
            assert "Anna" not in " ".join(t["text"] for t in turns)


def test_pathological_turn_times_out_instead_of_hanging(tmp_path):
    import time

    huge = "lorem ipsum dolor sit amet " * 40_000  # ~1 MB in one message
    rows = [dialogue([("user", huge), ("assistant", "That is a lot of text.")], source_id="huge"),
            dialogue([("user", "A normal question about bread."), ("assistant", "A normal answer.")], source_id="ok")]
    make_stage_folder(tmp_path / "in", rows)
    started = time.perf_counter()
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-toxicity",
                                       "--turn-timeout", "0.5", "--chunk-chars", "2000"])
    assert result.exit_code == 0, result.output
    assert time.perf_counter() - started < 30
    ledger = {r["dialogue_id"]: r["reason"] for r in pl.read_parquet(tmp_path / "out" / "ledger.parquet").to_dicts()
              if r["stage"] == "clean"}
    assert ledger == {rows[0]["dialogue_id"]: "pii_timeout", rows[1]["dialogue_id"]: "ok"}


def test_detection_quality_on_presidio_generated_sentences():
    """Span-level P/R on presidio-research's labelled sentences (spaCy sm is weak on names)."""
    path = shared_data("pii/presidio_generated_small.json")
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.pii_eval import score_spans

    records = json.loads(path.read_text())
    config = CleanConfig()
    scans = PiiDetector(config).scan([r["full_text"] for r in records])
    scores = score_spans(records, [s.spans for s in scans], config.entities)
    for entity in ("CREDIT_CARD", "EMAIL_ADDRESS", "IP_ADDRESS", "US_SSN"):
        assert scores[entity]["recall"] == 1.0 and scores[entity]["precision"] == 1.0, (entity, scores[entity])
    assert scores["PHONE_NUMBER"]["recall"] >= 0.6 and scores["PHONE_NUMBER"]["precision"] >= 0.9
    assert scores["PERSON"]["recall"] >= 0.6 and scores["PERSON"]["precision"] >= 0.7
    assert scores["STREET_ADDRESS"]["precision"] >= 0.9


def test_same_input_and_config_give_byte_identical_output(cleaned, tmp_path):
    out, _, _ = cleaned
    again = tmp_path / "again"
    result = CliRunner().invoke(main, ["clean", str(out.parent / "in"), "-o", str(again), "--no-toxicity"])
    assert result.exit_code == 0, result.output
    for name in ("part-00000.parquet", "ledger.parquet"):
        assert (again / name).read_bytes() == (out / name).read_bytes(), name


def test_recall_on_the_small_labelled_sample_through_the_clean_path():
    """Every letter/digit of a labelled value must be gone (bench/clean.py reports the large set)."""
    path = shared_data("pii/presidio_generated_small.json")
    from bench.clean_quality import dev_set

    table = dev_set(path)
    for entity in ("CREDIT_CARD", "EMAIL_ADDRESS", "IP_ADDRESS", "US_SSN", "PHONE_NUMBER", "US_DRIVER_LICENSE"):
        assert table[entity]["recall"] == 1.0, (entity, table[entity])
    # PERSON 46 of 55 (48 before the policy's credited_on_a_work rule): these synthetic sentences put random
    # names where a film's director and star stood ("directed by Tiffany Gábor and starring Sandberg"); in
    # real chat a name credited on a work is a public person's, so those two stay on purpose.
    assert table["PERSON"]["caught"] >= 46 and table["STREET_ADDRESS"]["recall"] >= 0.85, table
