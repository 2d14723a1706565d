"""`mmrc-build classify train|predict|sample` end to end through the real CLI (all-MiniLM-L6-v2)."""

from __future__ import annotations

import json
import os

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder.cli import main
from builder.io import read_ledger, scan_dialogues
from builder.records import TOPICS

MINILM = "all-MiniLM-L6-v2"
CORPUS = {
    "Food": ["How long do I boil an egg?", "Give me a recipe for tomato soup.", "Is sourdough bread healthy?",
             "What spices go into a curry?"],
    "Travel": ["Plan three days in Rome for me.", "Which documents do I need to fly to Japan?",
               "Cheap hotels near the Eiffel Tower?", "Is the train from Oslo to Bergen scenic?"],
    "Computer": ["My Python script raises a KeyError.", "How do I install Linux on my laptop?",
                 "Explain what a CPU cache is.", "Why is my SQL query slow?"],
}


def corpus():
    rows = []
    for topic, questions in CORPUS.items():
        for k, q in enumerate(questions):
            rows.append(dialogue([("user", q), ("assistant", "Here is what I would suggest.")],
                                 source_id=f"{topic}-{k}", topic=topic))
    rows.append(dialogue([("user", "")], source_id="empty"))  # nothing to embed
    return rows


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One data folder + one trained model for the whole module (env set like conftest's)."""
    root = tmp_path_factory.mktemp("classify")
    home = tmp_path_factory.getbasetemp() / "home"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("MMRC_MODELS", os.environ.get("MMRC_TEST_MODELS", str(home / "models")))
        rows = corpus()
        make_stage_folder(root / "clean", [{**r, "topic": None} for r in rows], stage="clean")
        labels = root / "labels.csv"
        pl.DataFrame({"source_id": [r["source_id"] for r in rows if r.get("topic")],
                      "topic": [r["topic"] for r in rows if r.get("topic")]}).write_csv(labels)
        result = CliRunner().invoke(main, ["classify", "train", "--data", str(root / "clean"), "--labels",
                                           str(labels), "-o", str(root / "model"), "--embedder", MINILM,
                                           "--folds", "2", "--epochs", "30"])
        assert result.exit_code == 0, result.output
        yield root, result.output


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_every_classify_command_and_option_has_help():
    import click

    group = main.commands["classify"]
    assert group.help
    for name, cmd in group.commands.items():
        assert cmd.help, name
        assert invoke("classify", name, "--help").exit_code == 0
        for param in cmd.params:
            if isinstance(param, click.Option):
                assert param.help, f"classify {name} {param.name}"


def test_train_reports_kfold_metrics_and_saves_json_and_safetensors(trained):
    root, output = trained
    assert "2-fold accuracy" in output and "macro-F1" in output and "confusion" in output
    model = root / "model"
    assert {p.name for p in model.iterdir()} == {"config.json", "labels.json", "model.safetensors",
                                                 "report.json", "train_ids.json"}
    config = json.loads((model / "config.json").read_text())
    assert config["embedder"]["name"] == MINILM and len(config["embedder"]["hash"]) == 64
    assert json.loads((model / "labels.json").read_text()) == ["Travel", "Food", "Computer"]
    report = json.loads((model / "report.json").read_text())
    assert report["n"] == 12 and report["labels"]["missing"] == 0
    assert report["cv"]["mlp"]["accuracy"] >= 0.75


def test_predict_adds_topics_ledger_donut_and_manifest_counts(trained):
    root, _ = trained
    out = root / "classified"
    result = invoke("classify", "predict", root / "clean", "-o", out, "--model", root / "model")
    assert result.exit_code == 0, result.output
    df = scan_dialogues(out).collect()
    by_source = dict(zip(df["source_id"], df["topic"]))
    hits = sum(by_source[f"{t}-{k}"] == t for t in CORPUS for k in range(4))
    assert hits >= 10
    assert by_source["empty"] is None
    assert df["topic_scores"].list.len().unique().to_list() == [14]
    groups = dict(zip(df["topic"], df["topic_group"]))
    assert groups.get("Food") == "daily_life" and groups.get("Computer") == "professional_knowledge"
    ledger = read_ledger(out).filter(pl.col("stage") == "classify")
    assert ledger.height == df.height
    assert set(ledger["reason"]) == {"classified", "no_text"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert sum(manifest["topics"]["counts"].values()) == df.height - 1
    assert set(manifest["topics"]["counts"]) == set(TOPICS) and manifest["topics"]["unlabelled"] == 1
    assert (out / "topics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert {m["name"] for m in manifest["models"]} == {MINILM, "topic-linear"}  # the default head has no hidden layer
    rerun = invoke("classify", "predict", root / "clean", "-o", out, "--model", root / "model")
    assert rerun.exit_code == 0 and "up to date" in rerun.output
    again = invoke("classify", "predict", root / "clean", "-o", root / "again", "--model", root / "model")
    assert again.exit_code == 0, again.output
    assert json.loads((root / "again" / "manifest.json").read_text())["output_hash"] == manifest["output_hash"]


def test_training_twice_with_one_seed_gives_identical_weights(trained, tmp_path):
    root, _ = trained
    result = invoke("classify", "train", "--data", root / "clean", "--labels", root / "labels.csv",
                    "-o", tmp_path / "m2", "--embedder", MINILM, "--folds", "2", "--epochs", "30")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "m2" / "model.safetensors").read_bytes() == (root / "model" / "model.safetensors").read_bytes()
    exists = invoke("classify", "train", "--data", root / "clean", "--labels", root / "labels.csv",
                    "-o", tmp_path / "m2", "--embedder", MINILM)
    assert exists.exit_code == 4 and "--force" in exists.output


def test_abstain_threshold_leaves_topic_empty_with_a_reason(trained):
    root, _ = trained
    everything = invoke("classify", "predict", root / "clean", "-o", root / "all", "--model", root / "model",
                        "--abstain-below", "0")
    assert everything.exit_code == 0, everything.output
    scored = read_ledger(root / "all").filter((pl.col("stage") == "classify") & (pl.col("reason") == "classified"))
    tops = sorted(json.loads(d)["score"] for d in scored["detail"])
    assert tops[0] < tops[-1]
    threshold = round((tops[0] + tops[-1]) / 2, 6)  # the least confident fall below it
    out = root / "abstained"
    result = invoke("classify", "predict", root / "clean", "-o", out, "--model", root / "model",
                    "--abstain-below", str(threshold))
    assert result.exit_code == 0, result.output
    df = scan_dialogues(out).collect()
    ledger = read_ledger(out).filter(pl.col("stage") == "classify")
    low = ledger.filter(pl.col("reason") == "low_confidence")
    assert low.height > 0
    abstained = df.filter(pl.col("dialogue_id").is_in(low["dialogue_id"].to_list()))
    assert abstained["topic"].null_count() == abstained.height
    assert abstained["topic_scores"].list.max().max() < threshold  # scores kept: tag, don't drop
    assert all(json.loads(d)["threshold"] == threshold for d in low["detail"])


def test_predict_refuses_an_embedder_with_another_hash(trained, tmp_path):
    root, _ = trained
    model = tmp_path / "model"
    model.mkdir()
    for f in ("labels.json", "model.safetensors"):
        (model / f).write_bytes((root / "model" / f).read_bytes())
    config = json.loads((root / "model" / "config.json").read_text())
    config["embedder"]["hash"] = "0" * 64
    (model / "config.json").write_text(json.dumps(config))
    result = invoke("classify", "predict", root / "clean", "-o", tmp_path / "out", "--model", model)
    assert result.exit_code == 5
    assert "is not the one" in result.output and "--embedder" in result.output
    assert "Traceback" not in result.output


def test_unknown_topics_in_the_label_file_fail_in_one_line(trained, tmp_path):
    root, _ = trained
    labels = tmp_path / "bad.csv"
    labels.write_text("source_id,topic\nFood-0,Cooking\n")
    result = invoke("classify", "train", "--data", root / "clean", "--labels", labels, "-o", tmp_path / "m",
                    "--embedder", MINILM)
    assert result.exit_code == 6
    assert "'Cooking'" in result.output and "Job Career" in result.output
    assert not (tmp_path / "m").exists()


def test_sample_proposes_csv_for_annotators_that_train_reads_back(trained, tmp_path):
    root, _ = trained
    by_model = tmp_path / "by_model.csv"
    result = invoke("classify", "sample", "--data", root / "clean", "-o", by_model, "--model", root / "model",
                    "--per-topic", "2")
    assert result.exit_code == 0, result.output
    df = pl.read_csv(by_model, infer_schema=False)
    assert df.columns == ["dialogue_id", "source", "source_id", "proposed_topic", "score", "cluster",
                          "distance", "preview", "topic"]
    assert df.height == 6 and df["dialogue_id"].n_unique() == 6
    assert df.group_by("proposed_topic").len()["len"].to_list() == [2, 2, 2]
    by_cluster = tmp_path / "clusters.csv"
    result = invoke("classify", "sample", "--data", root / "clean", "-o", by_cluster, "--embedder", MINILM,
                    "--clusters", "3", "--per-topic", "1", "--exclude", by_model)
    assert result.exit_code == 0, result.output
    clusters = pl.read_csv(by_cluster, infer_schema=False)
    assert clusters.height == 3 and not set(clusters["dialogue_id"]) & set(df["dialogue_id"])


def test_other_languages_get_an_explicit_outcome_and_the_model_abstains_by_default(trained, tmp_path):
    root, _ = trained
    config = json.loads((root / "model" / "config.json").read_text())
    calibration = config["calibration"]
    assert config["languages"] == ["en"] and calibration["temperature"] >= 1.0
    assert 0.0 <= calibration["threshold"] <= 1.0 and config["text"]["max_chunks"] == 1
    rows = [dialogue([("user", "Wie koche ich eine gute Tomatensuppe mit frischem Basilikum?"),
                      ("assistant", "Tomaten anrösten, mit Brühe aufgießen und pürieren.")], language="de"),
            dialogue([("user", "How do I cook a good tomato soup with fresh basil?"),
                      ("assistant", "Roast the tomatoes, add stock and blend.")], language="en")]
    make_stage_folder(tmp_path / "in", [{**r, "topic": None} for r in rows], stage="clean")
    result = invoke("classify", "predict", tmp_path / "in", "-o", tmp_path / "out", "--model", root / "model")
    assert result.exit_code == 0, result.output
    ledger = read_ledger(tmp_path / "out").filter(pl.col("stage") == "classify")
    reasons = dict(zip(ledger["dialogue_id"], ledger["reason"]))
    assert reasons[rows[0]["dialogue_id"]] == "language_unsupported"
    assert reasons[rows[1]["dialogue_id"]] in ("classified", "low_confidence")
    df = scan_dialogues(tmp_path / "out").collect()
    assert df.filter(pl.col("language") == "de")["topic"].to_list() == [None]
    # straight from ingest, with no language recorded: classify reads it from the text
    make_stage_folder(tmp_path / "ingested", [{**r, "topic": None, "language": None} for r in rows], stage="ingest")
    result = invoke("classify", "predict", tmp_path / "ingested", "-o", tmp_path / "out2", "--model", root / "model")
    assert result.exit_code == 0, result.output
    ledger = read_ledger(tmp_path / "out2").filter(pl.col("stage") == "classify")
    by_id = {r["dialogue_id"]: r for r in ledger.to_dicts()}
    assert by_id[rows[0]["dialogue_id"]]["reason"] == "language_unsupported"
    assert json.loads(by_id[rows[0]["dialogue_id"]]["detail"])["language_read_from_text"] is True
    assert by_id[rows[1]["dialogue_id"]]["reason"] in ("classified", "low_confidence")


def test_also_trains_on_another_folder_with_its_own_topics(trained, tmp_path):
    """Real labelled dialogues (a label file) plus the hand-written seed (topics in the records)."""
    root, _ = trained
    labels = tmp_path / "food_only.csv"
    pl.DataFrame({"source_id": [f"Food-{k}" for k in range(4)], "topic": ["Food"] * 4}).write_csv(labels)
    seed = tmp_path / "seed"
    make_stage_folder(seed, [dialogue([("user", q), ("assistant", "Sure.")], source_id=f"seed-{t}-{k}", topic=t)
                             for t in ("Travel", "Computer") for k, q in enumerate(CORPUS[t])], stage="ingest")
    result = invoke("classify", "train", "--data", root / "clean", "--labels", labels, "--also", seed,
                    "-o", tmp_path / "m", "--embedder", MINILM, "--folds", "2", "--epochs", "30")
    assert result.exit_code == 0, result.output
    assert "+8 labelled dialogues from" in result.output
    model = json.loads((tmp_path / "m" / "labels.json").read_text())
    assert set(model if isinstance(model, list) else model["labels"]) == {"Food", "Travel", "Computer"}
    report = json.loads((tmp_path / "m" / "report.json").read_text())
    assert report["label_counts"] == {"Travel": 4, "Food": 4, "Computer": 4}
    assert report["labels"]["also"][str(seed)] == {"dialogues": 8, "added": 8}


def test_predict_in_bfloat16_agrees_with_float32_and_says_so(trained, tmp_path):
    root, _ = trained
    runs = {}
    for dtype in ("float32", "bfloat16"):
        out = tmp_path / dtype
        result = invoke("classify", "predict", root / "clean", "-o", out, "--model", root / "model",
                        "--dtype", dtype, "--abstain-below", "0")
        assert result.exit_code == 0, result.output
        runs[dtype] = (scan_dialogues(out).sort("dialogue_id").collect(), json.loads((out / "manifest.json").read_text()))
    (fp32, m32), (bf16, m16) = runs["float32"], runs["bfloat16"]
    assert fp32["topic"].to_list() == bf16["topic"].to_list()
    scores32, scores16 = fp32["topic_scores"].to_list(), bf16["topic_scores"].to_list()
    assert max(abs(a - b) for r32, r16 in zip(scores32, scores16) for a, b in zip(r32, r16)) < 0.05
    assert m16["config"]["dtype"] == "bfloat16" and m32["config"]["dtype"] == "float32"
    assert m16["config"]["batch_size"] == m32["config"]["batch_size"] == 32  # the CPU default batch
    assert m16["output_hash"] != m32["output_hash"] or scores32 == scores16


def test_predict_without_a_model_and_no_default_one_says_how_to_make_it(tmp_path, monkeypatch):
    """No --model: the default model in $MMRC_MODELS; when `mmrc-build models` has not trained it,
    one line says so (exit 5), never a traceback."""
    monkeypatch.setenv("MMRC_MODELS", str(tmp_path / "empty-models"))
    make_stage_folder(tmp_path / "clean", corpus(), stage="clean")
    result = invoke("classify", "predict", tmp_path / "clean", "-o", tmp_path / "out")
    assert result.exit_code == 5, result.output
    assert result.output.count("\n") == 1 and "no default topic model" in result.output
    assert "mmrc-build models" in result.output and "Traceback" not in result.output


def test_a_learned_other_leaves_the_topic_empty_as_off_taxonomy(tmp_path):
    """Other is a class the model learns: a dialogue it calls Other gets no topic and the ledger
    reason off_taxonomy; the 14 topic scores stay (they sum below 1 by the Other share)."""
    rows = corpus()
    other = {"Other": ["Write a limerick about a sleepy cat.", "What is 17 times 23?",
                       "Tell me a riddle with a twist.", "Let's role-play: you are a pirate captain."]}
    for k, q in enumerate(other["Other"]):
        rows.append(dialogue([("user", q), ("assistant", "Here is what I would suggest.")],
                             source_id=f"Other-{k}", topic="Other"))
    make_stage_folder(tmp_path / "seed", [r for r in rows if r.get("topic")], stage="ingest")
    result = invoke("classify", "train", "--data", tmp_path / "seed", "-o", tmp_path / "model", "--embedder", MINILM,
                    "--folds", "2", "--epochs", "60")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "model" / "labels.json").read_text())[-1] == "Other"
    probe = [dialogue([("user", "Write a limerick about a sleepy cat."), ("assistant", "Sure.")], source_id="p"),
             dialogue([("user", "How long do I boil an egg?"), ("assistant", "Sure.")], source_id="q")]
    make_stage_folder(tmp_path / "probe", probe, stage="clean")
    result = invoke("classify", "predict", tmp_path / "probe", "-o", tmp_path / "out", "--model", tmp_path / "model",
                    "--abstain-below", "0")
    assert result.exit_code == 0, result.output
    ledger = {r["dialogue_id"]: r for r in read_ledger(tmp_path / "out").to_dicts() if r["stage"] == "classify"}
    out = {r["source_id"]: r for r in scan_dialogues(tmp_path / "out").collect().to_dicts()}
    assert out["p"]["topic"] is None and ledger[out["p"]["dialogue_id"]]["reason"] == "off_taxonomy"
    assert out["q"]["topic"] == "Food"
    assert sum(out["p"]["topic_scores"]) < 0.9  # the Other share is not spread over the 14
    assert "off_taxonomy 1" in result.output
