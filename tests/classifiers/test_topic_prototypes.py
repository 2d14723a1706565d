"""The topic descriptions: one per class, embedded like a dialogue, and part of the default recipe."""

from __future__ import annotations

import json

import numpy as np

from builder.classify import default_model
from builder.records import OTHER, TOPICS
from classifiers.topic import prototypes


def test_one_description_per_topic_then_other():
    assert prototypes.CLASSES == (*TOPICS, OTHER)
    assert all(len(text.split()) >= 8 for text in prototypes.DESCRIPTIONS.values())


class _Fake:
    """An embedder stand-in: a text's vector is its letter counts (so the test needs no model)."""

    def embed_texts(self, texts, config):
        vectors = np.array([[t.lower().count(ch) for ch in "abcdefghijklmnopqrstuvwxyz"] for t in texts], float)
        return type("E", (), {"vectors": vectors.astype(np.float32)})


def test_prototype_vectors_are_unit_rows_in_class_order():
    vectors = prototypes.prototype_vectors(_Fake(), None)
    assert vectors.shape == (15, 26) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)
    travel = _Fake().embed_texts([prototypes.DESCRIPTIONS["Travel"]], None).vectors[0]
    np.testing.assert_allclose(vectors[0], travel / np.linalg.norm(travel), rtol=1e-6)


def test_a_changed_description_makes_the_default_model_stale(tmp_path, monkeypatch):
    folder = default_model.location(tmp_path)
    folder.mkdir(parents=True)
    from builder.io import sha256_file

    stamp = {"sha256": sha256_file(default_model.SEED), "recipe": default_model.recipe()}
    (folder / default_model.STAMP).write_text(json.dumps(stamp))
    assert default_model.is_current(tmp_path)
    monkeypatch.setitem(prototypes.DESCRIPTIONS, "Food", "A conversation about soup.")
    assert not default_model.is_current(tmp_path)
    (folder / default_model.STAMP).write_text(json.dumps({"sha256": stamp["sha256"]}))  # a stamp from before
    monkeypatch.undo()
    assert not default_model.is_current(tmp_path)
