"""The real seed shipped with the project (classifiers/topic/seed_real/dialogues.jsonl): what the
default topic model trains on. Every row is labelled, explained, licensed and traceable to
labels.csv; its shipped vectors are a cache of the same texts."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from builder.records import OTHER, TOPICS
from classifiers.topic.real_seed import DATASETS, LABELS
from classifiers.topic.ship_seed import LICENCES, OUT, VECTORS, VECTORS_META

ROWS = [json.loads(line) for line in OUT.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_row_has_a_label_a_reason_a_source_and_its_licence():
    assert len(ROWS) >= 700
    for row in ROWS:
        assert row["topic"] in (*TOPICS, OTHER)
        assert row["reason"].strip() and "\n" not in row["reason"]
        assert row["dataset"] in DATASETS and row["licence"] == LICENCES[row["dataset"]]
        assert row["turns"] and {t["role"] for t in row["turns"]} <= {"user", "assistant"}
        assert all(t["text"].strip() for t in row["turns"])


def test_rows_are_the_labels_of_labels_csv():
    labels = pl.read_csv(LABELS, infer_schema=False)
    by_key = {f"{d}:{s}": t for d, s, t in zip(labels["dataset"], labels["source_id"], labels["topic"])}
    assert all(by_key[f"{r['dataset']}:{r['source_id']}"] == r["topic"] for r in ROWS)
    # rows missing here were dropped by ingest or clean when the file was built (counted by ship_seed)
    assert len(ROWS) >= 0.95 * labels.height
    assert len({(r["dataset"], r["source_id"]) for r in ROWS}) == len(ROWS)


def test_no_raw_contact_data_in_the_shipped_text():
    email = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
    phone = re.compile(r"\(?\b\d{3}\)?[-. ]\d{3}[-. ]\d{4}\b")
    for row in ROWS:
        for turn in row["turns"]:
            assert not email.search(turn["text"]), (row["source_id"], turn["text"][:200])
            assert not phone.search(turn["text"]), (row["source_id"], turn["text"][:200])


def test_shipped_vectors_cover_the_seed_windows():
    meta = json.loads(VECTORS_META.read_text())
    vectors = np.load(VECTORS, allow_pickle=False)
    assert vectors.shape == (len(meta["keys"]), 768) and vectors.dtype == np.float32
    assert len(meta["keys"]) >= len(ROWS)  # one window per dialogue (TextConfig: one 256-token window)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)


def test_merging_chitchat_rows_without_the_dataset_says_what_is_missing(tmp_path, monkeypatch):
    """A chitchat annotation row with no chitchat-dataset installed: one clear line, not a TypeError
    from indexing None (labels.csv is not touched)."""
    from classifiers.topic import real_seed, ship_seed

    monkeypatch.setattr(real_seed, "chitchat_json", lambda: None)
    before = LABELS.read_bytes()
    annotation = tmp_path / "round.csv"
    annotation.write_text("dataset,source_id,topic,reason\nchitchat,no-such-conversation,travel,a trip\n")
    with pytest.raises(SystemExit, match="MMRC_CHITCHAT_JSON"):
        ship_seed.merge([annotation], log=lambda *a: None)
    assert LABELS.read_bytes() == before
