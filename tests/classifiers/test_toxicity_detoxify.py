"""The Detoxify path, offline: a tiny checkpoint in Detoxify's format, built here, loaded by
Detoxify's own model/tokenizer code (weights_only=True), and the clean stage deciding with it."""

from __future__ import annotations

import json
import pickle

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder.cli import main
from builder.errors import ModelError

TOXIC = "you are a stupid idiot"
THREAT = "I will kill you"
CLEAN = ["the weather is nice today", "can you help me bake bread", "here is the python code",
         "thanks, that was helpful"]
TRAIN = [(TOXIC, [1, 0, 0, 0, 1, 0]), (THREAT, [1, 0, 0, 1, 0, 0]), ("what a moron you are", [1, 0, 0, 0, 1, 0]),
         ("shut up you worthless loser", [1, 0, 1, 0, 1, 0])] + [(c, [0] * 6) for c in CLEAN]


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    from classifiers.toxicity.tiny import build_checkpoint

    return build_checkpoint(tmp_path_factory.mktemp("detoxify"), train=TRAIN)


def test_tiny_checkpoint_loads_offline_and_scores(tiny):
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    checkpoint, hf_dir = tiny
    scorer = DetoxifyScorer.load(checkpoint=checkpoint, hf_dir=hf_dir)
    assert scorer.labels == ["toxicity", "severe_toxicity", "obscene", "threat", "insult", "identity_attack"]
    toxic, threat, *clean = scorer.score([TOXIC, THREAT, *CLEAN])
    assert toxic["insult"] > 0.5 > max(c["insult"] for c in clean)
    assert threat["threat"] > 0.5 > max(c["threat"] for c in clean)
    info = scorer.describe()
    assert info["name"] == "detoxify-original" and info["source"] == "explicit"
    assert "original.ckpt" in info["files"] and "bert-base-uncased/vocab.txt" in info["files"]


def test_scores_are_cached_by_content_and_long_texts_use_every_window(tiny):
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    scorer = DetoxifyScorer.load(checkpoint=tiny[0], hf_dir=tiny[1], max_length=64)
    first = scorer.score([TOXIC, CLEAN[0], TOXIC, TOXIC])
    assert first[0] == first[2] == first[3]
    assert scorer.cache.stats() == {"hits": 0, "misses": 4}  # looked up 4, scored the 2 distinct ones
    scorer.score([TOXIC])
    assert scorer.cache.stats()["hits"] == 1
    padding = " ".join([CLEAN[0]] * 25)  # ~125 tokens, far past the 64-token window
    tail = " ".join([TOXIC] * 14)  # the last window holds only this
    windows, owner = scorer._windows([f"{padding} {tail}"])
    assert len(windows) > 2 and all(len(w) <= 64 for w in windows) and set(owner) == {0}
    late, plain = scorer.score([f"{padding} {tail}", padding])
    assert late["insult"] > 0.5 > plain["insult"]  # max over windows: truncation would have missed it


def test_int8_quantization_stays_close(tiny):
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    fp32 = DetoxifyScorer.load(checkpoint=tiny[0], hf_dir=tiny[1]).score([TOXIC, *CLEAN])
    int8_scorer = DetoxifyScorer.load(checkpoint=tiny[0], hf_dir=tiny[1], quantize=True)
    int8 = int8_scorer.score([TOXIC, *CLEAN])
    assert int8_scorer.describe()["int8"] is True
    diff = max(abs(a[k] - b[k]) for a, b in zip(fp32, int8) for k in a)
    assert diff < 0.05


def test_pickled_objects_in_a_checkpoint_are_refused(tmp_path, tiny):
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    bad = tmp_path / "evil.ckpt"
    import torch

    torch.save({"config": {}, "state_dict": {}, "hook": pickle.PickleError("x")}, bad)
    with pytest.raises(ModelError, match="weights_only=True"):
        DetoxifyScorer.load(checkpoint=bad, hf_dir=tiny[1])


def test_missing_weights_fail_with_a_clear_one_line_error(tmp_path):
    make_stage_folder(tmp_path / "in", [dialogue([("user", "hello"), ("assistant", "hi")])])
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-pii"])
    assert result.exit_code == ModelError.exit_code
    line = result.output.strip()
    assert line.startswith("Error: no Detoxify checkpoint for 'original'") and "\n" not in line
    assert "--toxicity-checkpoint" in line and "--toxicity-backend lexicon" in line
    assert not (tmp_path / "out").exists()


def test_clean_drops_toxic_dialogues_with_the_label_as_reason(tmp_path, tiny):
    rows = [dialogue([("user", CLEAN[1]), ("assistant", TOXIC)], source_id="insult"),
            dialogue([("user", THREAT), ("assistant", CLEAN[3])], source_id="threat"),
            dialogue([("user", CLEAN[1]), ("assistant", CLEAN[2])], source_id="clean")]
    make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, [
        "clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-pii", "--device", "cpu",
        "--toxicity-checkpoint", str(tiny[0]), "--toxicity-config", str(tiny[1]),
        "--toxicity-threshold", "toxicity=0.99", "--toxicity-threshold", "insult=0.5", "--toxicity-threshold", "threat=0.5",
    ])
    assert result.exit_code == 0, result.output
    ledger = {r["dialogue_id"]: r for r in pl.read_parquet(tmp_path / "out" / "ledger.parquet").to_dicts()
              if r["stage"] == "clean"}
    assert ledger[rows[0]["dialogue_id"]]["reason"] == "toxic:insult"
    assert json.loads(ledger[rows[0]["dialogue_id"]]["detail"])["toxicity"]["turn"] == 1
    assert ledger[rows[1]["dialogue_id"]]["reason"] == "toxic:threat"
    assert ledger[rows[2]["dialogue_id"]]["reason"] == "ok"
    kept = pl.read_parquet(tmp_path / "out" / "part-00000.parquet").to_dicts()
    assert [r["source_id"] for r in kept] == ["clean"]
    tox = kept[0]["toxicity"]
    assert tox["model"] == "detoxify-original"
    assert {x["label"] for x in tox["labels"]} >= {"toxicity", "insult", "threat"}
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["decided_by"]["toxicity"] == "detoxify-original"
    assert manifest["models"][0]["files"]["original.ckpt"]
    assert manifest["funnel"]["dropped"] == {"toxic:insult": 1, "toxic:threat": 1}


def test_a_checkpoint_missing_weights_is_refused_not_randomly_filled(tmp_path, tiny):
    import torch

    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    loaded = torch.load(tiny[0], weights_only=True)
    loaded["state_dict"] = {k: v for k, v in loaded["state_dict"].items() if not k.startswith("classifier.")}
    torch.save(loaded, tmp_path / "headless.ckpt")
    with pytest.raises(ModelError, match="no weights for 2 model tensors"):
        DetoxifyScorer.load(checkpoint=tmp_path / "headless.ckpt", hf_dir=tiny[1])


def test_unknown_detoxify_variant_lists_the_valid_ones(tmp_path):
    make_stage_folder(tmp_path / "in", [dialogue([("user", "hello"), ("assistant", "hi")])])
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-pii",
                                       "--toxicity-model", "tiny-toxic"])
    assert result.exit_code == 2
    assert "unknown Detoxify variant 'tiny-toxic'; available: original, unbiased, multilingual" in result.output
