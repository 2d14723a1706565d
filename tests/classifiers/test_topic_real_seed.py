"""The real-dialogue seed (classifiers/topic/seed_real): label file shape, and a loader that
verifies hashes and reports every row it cannot verify."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import shared_data

from builder.errors import ValidationError
from builder.records import TOPICS
from classifiers.topic.real_seed import COLUMNS, LABELS, OTHER, load_seed, read_labels, turns_sha256


def test_label_file_holds_labels_ids_and_hashes_but_no_dialogue_text():
    df = read_labels(LABELS)
    assert tuple(df.columns) == COLUMNS
    assert set(df["topic"]) <= set(TOPICS) | {OTHER}
    assert all(len(h) == 64 for h in df["text_sha256"])
    # every label has its one-line reason, in the annotator's words (a reason, not a quote of the dialogue)
    assert all(n.strip() and "\n" not in n and len(n) < 300 for n in df["note"])
    assert df.height >= 14 * 4


def _chat(path, conv_id, user, reply):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"id": conv_id, "messages": [{"role": "user", "content": user},
                                                            {"role": "assistant", "content": reply}],
                                "metadata": {"model": "gpt-4", "timestamp": None}}))


def _labels(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(rows)
    return path


def test_loader_verifies_hashes_and_reports_every_row_it_cannot_load(tmp_path):
    root = tmp_path / "data"
    _chat(root / "logs/wildchat/wildchat_a.json", "a", "Best pasta sauce?", "Try a simple tomato sauce.")
    _chat(root / "logs/wildchat/wildchat_b.json", "b", "Cheap flights to Rome?", "Book early.")
    good = turns_sha256([{"role": "user", "text": "Best pasta sauce?"},
                         {"role": "assistant", "text": "Try a simple tomato sauce."}])
    labels = _labels(tmp_path / "labels.csv", [
        ("wildchat", "logs/wildchat/wildchat_a.json", "a", "", good, "Food", ""),
        ("wildchat", "logs/wildchat/wildchat_b.json", "b", "", "0" * 64, "Travel", ""),  # upstream changed
        ("wildchat", "logs/wildchat/wildchat_c.json", "c", "", "0" * 64, "Travel", ""),  # file gone
        ("wildchat", "logs/wildchat/wildchat_a.json", "zz", "", good, "Food", ""),  # id gone
    ])
    seed = load_seed(root, labels)
    assert [(i.source_id, i.topic) for i in seed.items] == [("a", "Food")]
    assert seed.items[0].turns[0]["text"] == "Best pasta sauce?"
    problems = {p["source_id"]: p for p in seed.problems}
    assert problems["b"]["problem"] == "hash_mismatch" and "relabel" in problems["b"]["detail"]
    assert problems["c"]["problem"] == "missing_file"
    assert problems["zz"]["problem"] == "missing_dialogue"
    assert seed.report()["rows"] == 4 == len(seed.items) + len(seed.problems)  # nothing dropped silently
    with pytest.raises(ValidationError, match="3 of 4 seed labels do not verify.*hash_mismatch"):
        load_seed(root, labels, strict=True)


def test_loader_rejects_unknown_topics_and_needs_the_data_folder(tmp_path):
    bad = _labels(tmp_path / "bad.csv", [("wildchat", "x.json", "x", "", "0" * 64, "Cooking", "")])
    with pytest.raises(ValidationError, match="unknown topic.*Cooking"):
        read_labels(bad)
    with pytest.raises(FileNotFoundError, match="shared/data|not present"):
        load_seed(tmp_path / "nowhere", LABELS)


def test_committed_seed_verifies_against_the_shared_data():
    root = shared_data("logs").parent  # skips with a reason when ../shared/data is absent
    shared_data("topics")
    seed = load_seed(root)
    # chitchat-dataset comes from its PyPI wheel ($MMRC_CHITCHAT_JSON): without it, its rows are
    # reported missing (never dropped silently) and every other row must verify
    from classifiers.topic.real_seed import chitchat_json

    absent = chitchat_json() is None or not chitchat_json().is_file()
    problems = [p for p in seed.problems if not (absent and p["source"] == "chitchat_dataset/dataset.json")]
    assert problems == [], problems[:3]
    counts = seed.counts()
    assert set(counts) == set(TOPICS) | {OTHER}
    assert len(seed.items) + len(seed.problems) == read_labels(LABELS).height
