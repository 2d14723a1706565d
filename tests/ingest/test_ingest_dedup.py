"""Exact and near-duplicate removal and the turn-range filter, with reasons in the ledger."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
from click.testing import CliRunner

from builder.cli import main
from builder.ingest import dedup

USER = [
    "I am planning a week in Lisbon next spring and want to see the old trams and the castle",
    "Which neighbourhood is best for a first visit if I like walking and small bakeries",
]
ASSISTANT = ["Lisbon in spring is lovely.", "Alfama or Baixa are good choices."]


def dialogue_line(sid, user=USER, assistant=ASSISTANT, n_pairs=2):
    turns = []
    for i in range(n_pairs):
        turns.append({"role": "user", "text": user[i % len(user)]})
        turns.append({"role": "assistant", "text": assistant[i % len(assistant)]})
    return json.dumps({"source_id": sid, "turns": turns})


def run(tmp_path, lines, *args):
    raw = tmp_path / "raw"
    raw.mkdir(exist_ok=True)
    (raw / "a.jsonl").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["ingest", str(raw), "-o", str(tmp_path / "out"), *args])
    assert result.exit_code == 0, result.output
    return pl.read_parquet(tmp_path / "out" / "ledger.parquet")


def test_exact_duplicates_keep_the_first(tmp_path):
    ledger = run(tmp_path, [dialogue_line("first"), dialogue_line("second")])
    kept = ledger.filter(pl.col("decision") == "kept")
    dropped = ledger.filter(pl.col("decision") == "dropped")
    assert kept.height == 1 and json.loads(kept["detail"][0])["source_id"] == "first"
    assert dropped["reason"].to_list() == ["duplicate_exact"]
    detail = json.loads(dropped["detail"][0])
    assert detail["source_id"] == "second" and detail["duplicate_of"]["source_id"] == "first"
    # same content -> same id: both ledger rows carry it
    assert kept["dialogue_id"][0] == dropped["dialogue_id"][0]


def test_near_duplicates_dropped_with_similarity(tmp_path):
    near_user = [USER[0].replace("spring", "summer"), USER[1]]
    other_assistant = ["Summer is hot there.", "Try Alfama."]
    lines = [dialogue_line("a"), dialogue_line("b", near_user, other_assistant),
             dialogue_line("c", ["Tell me about sourdough starters and feeding schedules please",
                                 "How warm should my kitchen be for the dough to rise well"])]
    ledger = run(tmp_path, lines, "--near-dup-threshold", "0.75")
    near = ledger.filter(pl.col("reason") == "duplicate_near")
    assert near.height == 1
    detail = json.loads(near["detail"][0])
    assert detail["similarity"] >= 0.75
    kept_ids = set(ledger.filter(pl.col("decision") == "kept")["dialogue_id"])
    assert detail["near_duplicate_of"] in kept_ids and len(kept_ids) == 2


def test_threshold_one_keeps_near_duplicates(tmp_path):
    near_user = [USER[0].replace("spring", "summer"), USER[1]]
    ledger = run(tmp_path, [dialogue_line("a"), dialogue_line("b", near_user)], "--near-dup-threshold", "1.0")
    assert ledger.filter(pl.col("decision") == "kept").height == 2


def test_turn_range_is_configurable(tmp_path):
    lines = [dialogue_line("two", n_pairs=1),
             dialogue_line("twelve", [f"question {i} about a different thing entirely" for i in range(6)], n_pairs=6)]
    ledger = run(tmp_path, lines, "--min-turns", "4", "--max-turns", "10")
    reasons = ledger.filter(pl.col("decision") == "dropped")["reason"].to_list()
    assert reasons == ["turn_count_out_of_range", "turn_count_out_of_range"]


def test_minhash_estimates_jaccard():
    a, b = dedup.permutations(256)
    x = " ".join(f"w{i}" for i in range(200))
    y = " ".join(f"w{i}" for i in range(40, 240))
    sx, sy = dedup.signature(x, 3, a, b), dedup.signature(y, 3, a, b)
    true = len(dedup.shingles(x, 3) & dedup.shingles(y, 3)) / len(dedup.shingles(x, 3) | dedup.shingles(y, 3))
    assert abs(float(np.mean(sx == sy)) - true) < 0.08


def test_lsh_finds_pairs_in_large_groups():
    a, b = dedup.permutations(64)
    base = "the quick brown fox jumps over the lazy dog near the river bank today"
    sigs = np.stack([dedup.signature(base + (" again" if i % 2 else ""), 3, a, b) for i in range(300)])
    dup_of = dedup.near_duplicates(sigs, 0.8)
    assert 0 not in dup_of and len(dup_of) == 299  # all collapse onto the first
