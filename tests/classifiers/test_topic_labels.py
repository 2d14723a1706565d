"""Label files: id resolution (dialogue_id or source_id), topic validation, conflicts."""

from __future__ import annotations

import polars as pl
import pytest
from conftest import dialogue

from builder.errors import ValidationError
from builder.records import TOPICS, dialogues_frame
from classifiers.topic.labels import inline_labels, normalise_topic, read_label_file, resolve_labels


def data():
    rows = [
        dialogue([("user", "Best ramen in Tokyo?")], source_id="a1", source="logs/a.jsonl"),
        dialogue([("user", "How do I fix a segfault?")], source_id="a2", source="logs/a.jsonl"),
        dialogue([("user", "What is inflation?")], source_id="a1", source="logs/b.jsonl"),
    ]
    return rows, dialogues_frame(rows)


def test_topic_spellings_are_normalised():
    assert normalise_topic("job_career") == "Job Career"
    assert normalise_topic(" FOOD ") == "Food"
    assert normalise_topic("") is None and normalise_topic("Sports") is None


def test_unknown_topic_error_lists_the_14_valid_ones(tmp_path):
    rows, df = data()
    path = tmp_path / "labels.csv"
    path.write_text(f"dialogue_id,topic\n{rows[0]['dialogue_id']},Food\n{rows[1]['dialogue_id']},Sports\n")
    with pytest.raises(ValidationError) as exc:
        resolve_labels(read_label_file(path), df, "labels.csv")
    message = str(exc.value)
    assert "'Sports'" in message
    assert all(t in message for t in TOPICS)


def test_dialogue_id_labels_and_skipped_empty_rows(tmp_path):
    rows, df = data()
    path = tmp_path / "labels.csv"
    path.write_text(
        f"dialogue_id,topic\n{rows[0]['dialogue_id']},food\n{rows[1]['dialogue_id']},Computer\n"
        f"{rows[2]['dialogue_id']},\nffffffffffffffffffffffffffffffff,Travel\n"
    )
    labels = resolve_labels(read_label_file(path), df, "labels.csv")
    assert dict(zip(labels.dialogue_ids, labels.topics)) == {rows[0]["dialogue_id"]: "Food",
                                                            rows[1]["dialogue_id"]: "Computer"}
    assert labels.report["unlabelled_rows"] == 1
    assert labels.report["missing"] == 1 and labels.report["missing_examples"] == ["f" * 32]


def test_source_id_labels_need_source_when_ambiguous(tmp_path):
    rows, df = data()
    path = tmp_path / "labels.csv"
    path.write_text("source_id,topic\na2,Computer\n")
    assert resolve_labels(read_label_file(path), df, "x").dialogue_ids == [rows[1]["dialogue_id"]]
    path.write_text("source_id,topic\na1,Food\n")
    with pytest.raises(ValidationError, match="add a `source` column"):
        resolve_labels(read_label_file(path), df, "x")
    jsonl = tmp_path / "labels.jsonl"
    jsonl.write_text('{"source": "logs/b.jsonl", "source_id": "a1", "topic": "Economy"}\n')
    labels = resolve_labels(read_label_file(jsonl), df, "x")
    assert (labels.dialogue_ids, labels.topics) == ([rows[2]["dialogue_id"]], ["Economy"])


def test_conflicting_labels_and_missing_columns_are_errors(tmp_path):
    rows, df = data()
    path = tmp_path / "labels.csv"
    path.write_text(f"dialogue_id,topic\n{rows[0]['dialogue_id']},Food\n{rows[0]['dialogue_id']},Travel\n")
    with pytest.raises(ValidationError, match="conflicting topics"):
        resolve_labels(read_label_file(path), df, "x")
    path.write_text("id,label\n1,Food\n")
    with pytest.raises(ValidationError, match="needs `topic`"):
        read_label_file(path)


def test_inline_labels_come_from_the_records():
    rows, _ = data()
    rows[0]["topic"] = "Food"
    labels = inline_labels(dialogues_frame(rows))
    assert labels.topics == ["Food"]
    with pytest.raises(ValidationError, match="--labels"):
        inline_labels(dialogues_frame(rows[1:]).with_columns(pl.lit(None, pl.String).alias("topic")))


def test_other_rows_are_read_counted_and_learned_as_a_class():
    data = pl.DataFrame({"dialogue_id": ["a", "b", "c"], "source": ["x"] * 3, "source_id": ["1", "2", "3"]})
    labels = pl.DataFrame({"dialogue_id": ["a", "b", "c"], "topic": ["Food", "Other", " other "]})
    resolved = resolve_labels(labels, data, "test")
    assert resolved.dialogue_ids == ["a", "b", "c"] and resolved.topics == ["Food", "Other", "Other"]
    assert resolved.report["other_rows"] == 2 and resolved.report["unlabelled_rows"] == 0
    assert resolved.counts() == {"Food": 1, "Other": 2}
