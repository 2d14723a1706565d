"""The held-out PII bench (bench/pii_heldout.py): its alignment and scoring, and the integrity of
its data files. Failures name row ids only, never a labelled text or value (the set is held out)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import pii_heldout as bench

DATA = Path(bench.__file__).resolve().parent / "pii_heldout"
REDACT_KINDS = {"PERSON", "PHONE", "EMAIL", "STREET", "ZIP", "CARD", "ID", "DATE_OF_BIRTH", "OTHER"}
KEEP_KINDS = {"PUBLIC_FIGURE", "FICTIONAL", "PUZZLE", "PRODUCT", "TITLE", "ORG", "PLACE", "NUMBER", "OTHER"}
CANARY_KINDS = {"PERSON", "STREET", "PHONE", "EMAIL", "CARD", "ZIP", "ID"}


def _spans(cleaned: str, *tokens: str) -> list[dict]:
    out, pos = [], 0
    for token in tokens:
        start = cleaned.index(token, pos)
        out.append({"start": start, "end": start + len(token)})
        pos = start + len(token)
    return out


def test_surviving_maps_placeholders_back_to_the_raw_text():
    raw = "hi Ana Lopes, call 555 0101 now"
    cleaned = "hi <PERSON>, call <PHONE_NUMBER> now"
    keep = bench.surviving(raw, cleaned, _spans(cleaned, "<PERSON>", "<PHONE_NUMBER>"))
    assert "".join(c for c, k in zip(raw, keep) if k) == "hi , call  now"
    assert bench.fate(keep, raw.index("Ana"), "Ana Lopes") == (True, True, [True, True])
    assert bench.fate(keep, raw.index("now"), "now") == (False, False, [False])


def test_a_half_redacted_name_is_damaged_and_half():
    raw, cleaned = "my friend Ana Lopes", "my friend Ana <PERSON>"
    keep = bench.surviving(raw, cleaned, _spans(cleaned, "<PERSON>"))
    removed, damaged, words = bench.fate(keep, raw.index("Ana"), "Ana Lopes")
    assert (removed, damaged, words) == (False, True, [False, True])


def test_unaligned_text_is_reported_not_guessed():
    assert bench.surviving("abc", "xyz", []) is None
    assert bench.surviving("abc def", "xyz <X>", [{"start": 4, "end": 7}]) is None
    assert bench.surviving("abc", "abc", []) == [True, True, True]


def test_wilson_interval():
    w = bench.wilson(8, 10)
    assert w["rate"] == 0.8 and w["ci95"][0] < 0.8 < w["ci95"][1]
    assert bench.wilson(0, 0)["rate"] is None


def _rows(name):
    path = DATA / f"{name}.jsonl"
    if not path.exists():
        pytest.skip(f"{path} absent")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_labels_are_substrings_at_their_offsets():
    rows = _rows("labels")
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert {t["role"] for t in row["turns"]} == {"user", "assistant"}, row["id"]
        for side, kinds in (("must_redact", REDACT_KINDS), ("must_keep", KEEP_KINDS)):
            for e in row[side]:
                text = row["turns"][e["turn"]]["text"]
                assert text[e["start"]:e["start"] + len(e["value"])] == e["value"], row["id"]
                assert e["kind"] in kinds and e["reason"], row["id"]


def test_canaries_sit_in_user_turns_and_come_out_again():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pii_heldout_fakes", DATA / "fakes.py")
    fakes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fakes)
    rows, labels = _rows("canaries"), _rows("labels")
    assert not {(r["source"], r["source_id"]) for r in rows} & {(r["source"], r["source_id"]) for r in labels}
    for row in rows:
        assert row["canaries"], row["id"]
        for v in row["canaries"]:
            turn = row["turns"][v["turn"]]
            assert turn["role"] == "user" and v["kind"] in CANARY_KINDS, row["id"]
            assert turn["text"][v["start"]:v["start"] + len(v["value"])] == v["value"], row["id"]
            assert v["kind"] != "CARD" or fakes.luhn_ok(v["value"]), row["id"]
        original = bench.original_turns(row)
        added = sum(len(t["text"]) for t in row["turns"]) - sum(len(t["text"]) for t in original)
        assert added == sum(len(i["text"]) for i in row["inserted"]), row["id"]


def test_source_ids_read_only_the_id_of_the_rows_asked_for(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"source_id": "a", "source": "chitchat", "text": "x"}\n\n{"source_id": "b", "source": "oasst"}\n'
                    '{"source": "chitchat"}\n')
    assert bench.source_ids(path) == {"a", "b"}
    assert bench.source_ids(path, "source", "chitchat") == {"a"}
