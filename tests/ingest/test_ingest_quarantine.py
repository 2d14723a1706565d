"""Bad records become quarantine rows with reasons; the rest of each file still ingests."""

from __future__ import annotations

import json

import polars as pl
from click.testing import CliRunner
from PIL import Image

from builder.cli import main
from conftest import png_bytes
from rawlogs import EXPECTED_DROPPED, EXPECTED_QUARANTINE, build, native_line


def run(raw, out, *args):
    result = CliRunner().invoke(main, ["ingest", str(raw), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return result


def test_every_reason_is_recorded(tmp_path):
    raw = build(tmp_path / "raw")
    result = run(raw, tmp_path / "out")
    q = pl.read_parquet(tmp_path / "out" / "quarantine.parquet")
    counts = dict(q.group_by("reason").len().iter_rows())
    assert counts == EXPECTED_QUARANTINE
    by_id = {r["source_id"]: r["reason"] for r in q.iter_rows(named=True) if r["source_id"]}
    assert by_id["n-traversal"] == by_id["n-absolute"] == by_id["n-symlink"] == "unsafe_image_path"
    assert by_id["n-missing"] == "missing_image" and by_id["n-corrupt"] == "unreadable_image"
    assert by_id["n-role"] == "unknown_role" and by_id["n-oversized"] == "oversized_message"
    assert by_id["s-bad"] == "invalid_record"
    # the summary table names each reason
    for reason in EXPECTED_QUARANTINE:
        assert f"quarantined:{reason}" in result.output


def test_ledger_balances(tmp_path):
    raw = build(tmp_path / "raw")
    run(raw, tmp_path / "out")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    rows = manifest["rows"]
    assert rows["in"] == rows["kept"] + rows["modified"] + rows["dropped"] + rows["quarantined"]
    assert rows["in"] == sum(f["records"] for f in manifest["files"])
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert ledger.height == rows["in"] and ledger["dialogue_id"].n_unique() == ledger.height
    out_ids = set(pl.read_parquet(tmp_path / "out" / "part-00000.parquet")["dialogue_id"])
    assert out_ids == set(ledger.filter(pl.col("decision") == "kept")["dialogue_id"])
    dropped = dict(ledger.filter(pl.col("decision") == "dropped").group_by("reason").len().iter_rows())
    assert dropped == EXPECTED_DROPPED


def test_no_file_outside_raw_is_read(tmp_path):
    raw = build(tmp_path / "raw")
    run(raw, tmp_path / "out")
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file() and path.suffix != ".parquet":
            assert b"root:x:0:0" not in path.read_bytes()
    q = pl.read_parquet(tmp_path / "out" / "quarantine.parquet")
    assert not q["excerpt"].str.contains("root:x:0").any()


def test_decompression_bomb_is_refused(tmp_path):
    raw = tmp_path / "raw"
    (raw / "img").mkdir(parents=True)
    Image.new("L", (3000, 3000)).save(raw / "img" / "big.png")  # 9 MP, a few KB compressed
    (raw / "log.jsonl").write_text(native_line("bomb", "x", {0: ["img/big.png"]}) + "\n")
    run(raw, tmp_path / "out", "--max-image-pixels", "1000000")
    q = pl.read_parquet(tmp_path / "out" / "quarantine.parquet")
    assert q["reason"].to_list() == ["image_too_large"]


def test_unknown_format_file(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "weird.jsonl").write_text('{"foo": 1}\n{"bar": 2}\n')
    (raw / "ok.jsonl").write_text(native_line("ok", "x") + "\n")
    run(raw, tmp_path / "out")
    q = pl.read_parquet(tmp_path / "out" / "quarantine.parquet")
    assert q["reason"].to_list() == ["unknown_format", "unknown_format"]
    assert pl.read_parquet(tmp_path / "out" / "part-00000.parquet").height == 1


def test_exclude_and_ignore_file(tmp_path):
    raw = build(tmp_path / "raw")
    (raw / ".mmrcignore").write_text("# not logs\nsharegpt/*\n")
    run(raw, tmp_path / "out", "--exclude", "chat_export/*")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    skipped = {s["file"]: s["reason"] for s in manifest["skipped_files"]}
    excluded = {f for f, reason in skipped.items() if reason.startswith("excluded by")}
    assert excluded == {"sharegpt/share.json", "chat_export/conv-0.json", "chat_export/conv-1.json"}
    assert skipped["images/escape.png"].startswith("symlink")  # listed, not followed
    assert "c-0" not in set(pl.read_parquet(tmp_path / "out" / "part-00000.parquet")["source_id"])


def test_image_bytes_are_the_original_bytes(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    data = png_bytes((1, 2, 3))
    (raw / "a.png").write_bytes(data)
    (raw / "log.jsonl").write_text(native_line("x", "y", {0: ["a.png"]}) + "\n")
    run(raw, tmp_path / "out")
    stored = list((tmp_path / "out" / "images").rglob("*.png"))
    assert len(stored) == 1 and stored[0].read_bytes() == data
