"""The explicitly chosen offline backend: better-profanity's word list plus insult/threat patterns."""

from __future__ import annotations

import csv

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder, shared_data

from builder.cli import main
from classifiers.toxicity import load_backend
from builder.errors import ConfigError


def test_lexicon_catches_plain_insults_and_threats_not_tech_talk():
    scorer = load_backend("lexicon")
    insult, threat, obscene, tech, mild = scorer.score([
        "You are a worthless idiot", "I'm going to kill you", "this is fucking useless",
        "How do I kill a zombie process and strip whitespace in Python?", "That was a stupid mistake of mine"])
    assert insult["insult"] == 1.0 and threat["threat"] == 1.0 and obscene["obscene"] >= 0.9
    assert max(tech.values()) == 0.0
    assert mild["insult"] == 0.5  # an insult word not aimed at anyone stays under the default 0.8


def test_unknown_backend_lists_the_valid_ones():
    with pytest.raises(ConfigError, match="available: detoxify, lexicon"):
        load_backend("perspective")


def test_cli_records_the_chosen_backend_and_drops_with_the_label(tmp_path):
    import json

    # insult (1.0 vs 0.8) and threat (1.0 vs 0.5): the label furthest over its threshold names the reason
    rows = [dialogue([("user", "You are a pathetic moron and I will hurt you"), ("assistant", "Let's stay civil.")]),
            dialogue([("user", "Kill the process with kill -9"), ("assistant", "Done.")])]
    make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-pii",
                                       "--toxicity-backend", "lexicon"])
    assert result.exit_code == 0, result.output
    reasons = {r["dialogue_id"]: r["reason"] for r in pl.read_parquet(tmp_path / "out" / "ledger.parquet").to_dicts()
               if r["stage"] == "clean"}
    assert reasons == {rows[0]["dialogue_id"]: "toxic:threat", rows[1]["dialogue_id"]: "ok"}
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["decided_by"]["toxicity"] == "lexicon"
    assert manifest["config"]["toxicity_backend"] == "lexicon"


def test_lexicon_on_ethos_hate_speech():
    path = shared_data("toxicity/ethos_binary.csv")
    with open(path, newline="") as fh:
        rows = [(r["comment"], float(r["isHate"]) >= 0.5) for r in csv.DictReader(fh, delimiter=";")]
    scores = load_backend("lexicon").score([c for c, _ in rows])
    flagged = [s["toxicity"] >= 0.8 for s in scores]
    tp = sum(f and h for f, (_, h) in zip(flagged, rows))
    precision = tp / max(1, sum(flagged))
    recall = tp / sum(h for _, h in rows)
    # A word list is a blunt tool: it flags little of the hate speech that uses no swear word.
    assert precision > 0.6 and recall > 0.1, (precision, recall)
