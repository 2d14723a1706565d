"""Every accepted format reads into canonical rows; images land content-addressed."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.images import ImageStore
from conftest import shared_data
from rawlogs import EXPECTED_KEPT_SOURCE_IDS, build


def ingest(raw: Path, out: Path, *args: str):
    result = CliRunner().invoke(main, ["ingest", str(raw), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def ingested(tmp_path):
    raw = build(tmp_path / "raw")
    result = ingest(raw, tmp_path / "out")
    return tmp_path / "out", result


def test_every_format_is_detected_and_read(ingested):
    out, _ = ingested
    manifest = json.loads((out / "manifest.json").read_text())
    formats = {f["file"]: f["format"] for f in manifest["files"]}
    assert formats["native/logs.jsonl"] == "native"
    assert formats["openai/chats.jsonl"] == "openai"
    assert formats["sharegpt/share.json"] == "sharegpt"
    assert formats["chat_export/conv-0.json"] == "chat_export"
    df = pl.read_parquet(out / "part-00000.parquet")
    assert set(df["source_id"]) == EXPECTED_KEPT_SOURCE_IDS
    assert df["dialogue_id"].to_list() == sorted(df["dialogue_id"].to_list())


def test_images_are_stored_content_addressed(ingested):
    out, _ = ingested
    df = pl.read_parquet(out / "part-00000.parquet")
    store = ImageStore(out)
    row = df.filter(pl.col("source_id") == "o-1").row(0, named=True)
    images = row["turns"][0]["images"]
    assert len(images) == 2  # relative path + data: url
    for im in images:
        assert im["mime"] == "image/png" and (im["width"], im["height"]) == (32, 24)
        assert store.path(im["sha256"], im["mime"]).is_file()
    # the same red square from two dialogues is stored once
    assert len(list((out / "images").rglob("*.png"))) == 3  # red, blue, data: grey; nothing from quarantined records


def test_sharegpt_placeholders_take_images_in_order(ingested):
    out, _ = ingested
    df = pl.read_parquet(out / "part-00000.parquet")
    s2 = df.filter(pl.col("source_id") == "s-2").row(0, named=True)
    first = s2["turns"][0]
    assert "<image>" not in first["text"]
    assert len(first["images"]) == 2
    s1 = df.filter(pl.col("source_id") == "s-1").row(0, named=True)
    assert len(s1["turns"][0]["images"]) == 1 and s1["turns"][0]["text"].startswith("What colour")


def test_metadata_normalised(ingested):
    out, _ = ingested
    df = pl.read_parquet(out / "part-00000.parquet")
    native = df.filter(pl.col("source_id") == "n-ok-1").row(0, named=True)
    assert native["language"] == "en" and native["topic"] == "Travel"
    assert native["created_at"].isoformat() == "2025-03-01T12:00:00+00:00"
    assert native["user_id"] and native["user_id"] != "alice" and len(native["user_id"]) == 32
    export = df.filter(pl.col("source_id") == "c-0").row(0, named=True)
    assert export["created_at"].isoformat() == "2024-05-01T06:00:00+00:00"  # converted to UTC
    assert export["model"] == "vicuna-13b" and export["language"] == "en"  # "English" mapped to ISO 639-1
    assert df.filter(pl.col("source_id") == "o-1")["created_at"].is_not_null().all()  # epoch seconds


def test_remote_image_recorded_not_fetched(ingested):
    out, _ = ingested
    df = pl.read_parquet(out / "part-00000.parquet")
    remote = df.filter(pl.col("source_id") == "n-remote").row(0, named=True)
    im = remote["turns"][0]["images"][0]
    assert im["sha256"] is None and im["url"] == "https://example.com/cat.png"
    ledger = pl.read_parquet(out / "ledger.parquet")
    detail = json.loads(ledger.filter(pl.col("dialogue_id") == remote["dialogue_id"])["detail"][0])
    assert detail["unresolved_images"] == 1


def test_forced_format_quarantines_records_of_another_shape(tmp_path):
    raw = build(tmp_path / "raw")
    result = ingest(raw, tmp_path / "out", "--format", "openai", "--exclude", "native/*",
                    "--exclude", "chat_export/*")
    assert "invalid_record" in result.output  # sharegpt records have no "messages"


def test_same_user_same_hash_and_salt_required(tmp_path, monkeypatch):
    raw = build(tmp_path / "raw")
    monkeypatch.delenv("MMRC_USER_SALT")
    result = CliRunner().invoke(main, ["ingest", str(raw), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "MMRC_USER_SALT is not set" in result.output and "Traceback" not in result.output


def test_user_ids_differ_across_salts(tmp_path, monkeypatch):
    raw = build(tmp_path / "raw")
    ingest(raw, tmp_path / "a")
    monkeypatch.setenv("MMRC_USER_SALT", "another-salt")
    ingest(raw, tmp_path / "b")
    a = pl.read_parquet(tmp_path / "a" / "part-00000.parquet").filter(pl.col("source_id") == "c-0")["user_id"][0]
    b = pl.read_parquet(tmp_path / "b" / "part-00000.parquet").filter(pl.col("source_id") == "c-0")["user_id"][0]
    assert a != b
    for folder in ("a", "b"):  # the salt itself is written nowhere
        for path in (tmp_path / folder).rglob("*"):
            if path.is_file():
                assert b"another-salt" not in path.read_bytes() and b"test-salt" not in path.read_bytes()


def test_oasst_trees_are_flattened(tmp_path):
    src = shared_data("logs/oasst_en_100_tree.jsonl")
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "oasst.jsonl").symlink_to(src)  # symlinked logs are not followed...
    (raw / "oasst.jsonl").unlink()
    (raw / "oasst.jsonl").write_bytes(src.read_bytes())  # ...so copy it
    out = tmp_path / "out"
    ingest(raw, out, "--min-turns", "2")
    manifest = json.loads((out / "manifest.json").read_text())
    trees = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]

    def leaves(node):
        replies = node.get("replies") or []
        return 1 if not replies else sum(leaves(r) for r in replies)

    assert manifest["files"][0]["format"] == "oasst"
    assert manifest["rows"]["in"] == sum(leaves(t["prompt"]) for t in trees)
    df = pl.read_parquet(out / "part-00000.parquet")
    first = df.row(0, named=True)
    roles = [t["role"] for t in first["turns"]]
    assert roles[0] == "user" and all(a != b for a, b in zip(roles, roles[1:]))  # alternating
    assert df["language"].drop_nulls().unique().to_list() == ["en"]


def test_oasst_deleted_paths_are_quarantined(tmp_path):
    def msg(mid, role, text, replies=(), deleted=False):
        return {"message_id": mid, "role": role, "text": text, "lang": "en", "deleted": deleted,
                "replies": list(replies)}

    tree = {"message_tree_id": "t1", "prompt": msg("m0", "prompter", "How do tides work on the coast?", [
        msg("m1", "assistant", "The moon's gravity pulls the oceans.", [
            msg("m2", "prompter", "Why are there two high tides a day?", [
                msg("m3", "assistant", "There is a bulge on both sides of the Earth.")]),
            msg("m4", "prompter", "spam", [msg("m5", "assistant", "...")], deleted=True)])])}
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "trees.jsonl").write_text(json.dumps(tree) + "\n")
    ingest(raw, tmp_path / "out")
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert sorted(ledger["decision"].to_list()) == ["kept", "quarantined"]
    q = pl.read_parquet(tmp_path / "out" / "quarantine.parquet")
    assert q["reason"].to_list() == ["deleted_message"] and q["source_id"].to_list() == ["m5"]
    kept = pl.read_parquet(tmp_path / "out" / "part-00000.parquet").row(0, named=True)
    assert kept["source_id"] == "m3" and [t["role"] for t in kept["turns"]] == ["user", "assistant"] * 2
