"""The bundled demo corpus ingests exactly as its answer key (raw/sample/expected.json) says."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from click.testing import CliRunner

from builder.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "raw" / "sample"


def test_sample_matches_answer_key(tmp_path):
    expected = json.loads((SAMPLE / "expected.json").read_text())
    result = CliRunner().invoke(main, ["ingest", str(SAMPLE), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    rows = manifest["rows"]
    assert rows["in"] == expected["records_total"]
    assert rows["kept"] == expected["expected_kept"]
    reasons = rows["reasons"]
    assert {k.split(":", 1)[1]: v for k, v in reasons.items() if k.startswith("quarantined:")} == \
        expected["expected_quarantined"]
    assert {k.split(":", 1)[1]: v for k, v in reasons.items() if k.startswith("dropped:")} == \
        expected["expected_dropped"]
    skipped = {s["file"]: s["reason"] for s in manifest["skipped_files"]}
    assert {f for f, r in skipped.items() if r.startswith("excluded by")} == {"expected.json", "questions.jsonl"}
    assert {f for f, r in skipped.items() if r.startswith("symlink")} == {"images/holiday-snapshot.jpg"}
    labels = pl.read_csv(SAMPLE / "labels" / "topics.csv")
    kept = pl.read_parquet(tmp_path / "out" / "part-00000.parquet")
    assert set(labels["source_id"]) == set(kept["source_id"])


def test_image_paths_fall_back_to_the_raw_folder(tmp_path):
    from conftest import png_bytes
    from rawlogs import native_line

    raw = tmp_path / "raw"
    (raw / "logs").mkdir(parents=True)
    (raw / "pics").mkdir()
    (raw / "pics" / "a.png").write_bytes(png_bytes())
    (raw / "logs" / "l.jsonl").write_text(native_line("x", "y", {0: ["pics/a.png"]}) + "\n")
    result = CliRunner().invoke(main, ["ingest", str(raw), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0 and "kept 1" in result.output, result.output
