"""bench/pii_chitchat_canaries.py plants each value where it says it did, with valid card digits,
and never in a conversation the held-out bench holds."""

from __future__ import annotations

import random
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import pii_chitchat_canaries as bench  # noqa: E402

from builder.clean.numbers import luhn_ok  # noqa: E402


def test_luhn_valid_sets_the_check_digit():
    assert bench.luhn_valid("4539 1488 0343 6460") == "4539 1488 0343 6467"  # computed by hand
    assert luhn_ok("4539148803436467")


def test_every_planted_value_stands_at_its_offset_and_held_out_hosts_are_never_used(monkeypatch):
    turns = [{"role": "user", "text": "hi\nhow are you"}, {"role": "assistant", "text": "good, you?"},
             {"role": "user", "text": "fine thanks"}]
    conversations = {f"c{k}": [dict(t) for t in turns] for k in range(60)}
    monkeypatch.setattr(bench.held, "held_out_source_ids", lambda source=None: {f"c{k}" for k in range(30)})
    rows = bench.build(25, 3, "written", conversations)
    assert len(rows) == 25 and not {r["source_id"] for r in rows} & {f"c{k}" for k in range(30)}
    for row in rows:
        for v in row["canaries"]:
            text = row["turns"][v["turn"]]["text"]
            assert row["turns"][v["turn"]]["role"] == "user"
            assert text[v["start"]:v["start"] + len(v["value"])] == v["value"], (row["frame"], v)
    assert {r["family"] for r in rows} == {"C", "D"}


def test_names_come_from_the_faker_pool():
    first, last = bench.name_pool()
    vals = bench.with_names({"first": "x"}, (first, last), random.Random(1))
    assert vals["first"] in first and vals["full"] == f"{vals['first']} {vals['last']}"


def test_topical_chat_hosts_exclude_that_sources_held_out_ids(monkeypatch):
    turns = [{"role": "user", "text": "do you like the nfl?"}, {"role": "assistant", "text": "yes, the patriots"}]
    conversations = {f"t_{k}": [dict(t) for t in turns] for k in range(40)}
    asked = []

    def held_out(source=None):
        asked.append(source)
        return {f"t_{k}" for k in range(20)} if source == "topical_chat" else set()

    monkeypatch.setattr(bench.held, "held_out_source_ids", held_out)
    rows = bench.build(20, 4, "written", conversations, source="topical_chat")
    assert asked == ["topical_chat"] and {r["source"] for r in rows} == {"topical_chat"}
    assert {r["source_id"] for r in rows} == {f"t_{k}" for k in range(20, 40)}
