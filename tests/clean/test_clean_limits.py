"""The PII limits the release card quotes are the bench's numbers (bench/results/pii_heldout.json)."""

from __future__ import annotations

import json
from pathlib import Path

from builder.clean import limits

REPO = Path(__file__).resolve().parents[2]


def test_the_card_figures_are_the_held_out_bench_figures():
    doc = json.loads((REPO / limits.BENCH).read_text())
    assert {k: (v[1], v[2]) for k, v in limits.MEASURED.items()} == limits.bench_figures(doc)
    assert any("chitchat" in s for s in doc["split"]["held_out"]) and "WildChat" in doc["split"]["tuned_on"]


def test_card_lines_give_count_and_share():
    assert limits.card_lines()[0] == ("- private values in real dialogues that a person would redact, removed: "
                                      "77 of 86 (89.5%)")
