"""Real accuracy on Topical-Chat units mapped onto our topics (../shared/data/topics), the
MPNet path (when assembled), and SetFit-style fine-tuning."""

from __future__ import annotations

import collections

import pytest
from conftest import shared_data

from builder.models import MPNET, models_dir
from classifiers.topic.embed import Embedder
from classifiers.topic.model import TopicModel
from classifiers.topic.contrastive import ContrastiveConfig
from classifiers.topic.mlp import MLPConfig
from classifiers.topic.task_traits import TASK_TRAITS, feature_matrix
from classifiers.topic.text import TextConfig, dialogue_text
from classifiers.topic.topical_chat import load_units
from classifiers.topic.train import TrainConfig, cross_validate_methods, fit_model


FIRST_WINDOW = TextConfig(max_chunks=1)  # long Sport units: one window keeps the CPU test fast


def units(per_topic: int):
    found = load_units(shared_data("topics"), per_topic=per_topic)
    return [dialogue_text(u["turns"]) for u in found], [u["topic"] for u in found], [u["turns"] for u in found]


def test_topical_chat_units_map_onto_five_of_our_topics():
    texts, topics, _ = units(per_topic=12)
    counts = collections.Counter(topics)
    assert set(counts) == {"Sport", "Film", "Music", "Computer", "Society"}
    assert counts["Sport"] == counts["Film"] == counts["Music"] == 12 and len(texts) == len(topics)


def test_minilm_mlp_reaches_a_sensible_floor_on_held_out_topical_chat(tmp_path):
    texts, topics, turns = units(per_topic=8)  # 38 units: Sport/Film/Music/Computer 8, Society 6
    emb = Embedder("all-MiniLM-L6-v2", cache_dir=tmp_path)
    config = TrainConfig(embedder="all-MiniLM-L6-v2", folds=3, mlp=MLPConfig(epochs=40), text=FIRST_WINDOW)
    report = cross_validate_methods(texts, topics, emb, config, features=feature_matrix(turns, config.traits))["mlp"]
    # measured ~0.95 (5-fold, 20 per topic, all windows); chance and majority are ~0.2
    assert report["accuracy"] >= 0.75, report
    assert report["macro_f1"] >= 0.7, report
    assert report["accuracy_ci95"][0] > 0.5


def test_mpnet_default_embedder_trains_and_round_trips(tmp_path):
    if not (models_dir() / MPNET / "model.safetensors").exists():
        pytest.skip(f"{MPNET} is not assembled in {models_dir()}; run `make models` and set MMRC_TEST_MODELS")
    texts, topics, turns = units(per_topic=5)
    emb = Embedder(MPNET, cache_dir=tmp_path)
    config = TrainConfig(embedder=MPNET, folds=2, mlp=MLPConfig(epochs=30), text=FIRST_WINDOW)
    features = feature_matrix(turns, config.traits)
    report = cross_validate_methods(texts, topics, emb, config, features=features)["mlp"]
    assert report["accuracy"] >= 0.6, report
    model, _ = fit_model(texts, topics, emb, config, features=features)
    model.save(tmp_path / "model")
    loaded = TopicModel.load(tmp_path / "model")
    assert loaded.embedder["name"] == MPNET and loaded.embedder["hash"] == emb.hash
    assert loaded.traits == config.traits == TASK_TRAITS
    vectors = emb.embed_texts(texts[:4], FIRST_WINDOW).vectors
    assert vectors.shape[1] == 768
    x = loaded.inputs(vectors, turns[:4])
    assert x.shape == (4, 768 + len(TASK_TRAITS))
    assert (model.predict_proba(x) == loaded.predict_proba(x)).all()


def test_setfit_bundles_its_tuned_embedder_and_predicts_through_it(tmp_path):
    texts = ["Boil the pasta for nine minutes.", "A recipe for lentil soup?", "Is rye bread healthy?",
             "Best curry spices?", "Three days in Rome?", "Visa rules for Japan?", "Cheap Paris hotels?",
             "Oslo to Bergen by train?", "Python KeyError help.", "Install Linux on a laptop.",
             "What is a CPU cache?", "Speed up a SQL query."]
    topics = ["Food"] * 4 + ["Travel"] * 4 + ["Computer"] * 4
    emb = Embedder("all-MiniLM-L6-v2", cache_dir=tmp_path / "cache")
    config = TrainConfig(embedder="all-MiniLM-L6-v2", method="setfit", folds=2, mlp=MLPConfig(epochs=20),
                         text=TextConfig(max_chunks=1), traits=(),  # bare texts: the head reads the vector alone
                         contrastive=ContrastiveConfig(pairs_per_item=2, max_seq_length=48))
    model, tuned = fit_model(texts, topics, emb, config, folder=tmp_path / "model")
    model.save(tmp_path / "model")
    bundled = tmp_path / "model" / "embedder"
    assert (bundled / "model.safetensors").exists() and not list(bundled.rglob("*.bin"))
    loaded = TopicModel.load(tmp_path / "model")
    assert loaded.method == "setfit" and loaded.embedder["bundled"] is True
    assert loaded.embedder["hash"] == tuned.hash != emb.hash
    assert loaded.extra["base_embedder"]["hash"] == emb.hash
    again = Embedder(loaded.embedder_location(tmp_path / "model"), cache_dir=tmp_path / "cache")
    assert again.hash == loaded.embedder["hash"]
    probs = loaded.predict_proba(again.embed_texts(texts, FIRST_WINDOW).vectors)
    assert again.cache.misses == 0  # fit_model cached the tuned embeddings under the tuned hash
    assert (probs.argmax(1) == [loaded.labels.index(t) for t in topics]).mean() >= 0.8
