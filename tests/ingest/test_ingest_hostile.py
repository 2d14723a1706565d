"""Hostile input to `mmrc-build ingest`: every record ends in one ledger row (kept or quarantined with
a reason), every file is read or listed with a reason, no traceback, nothing un-hashed leaks."""

from __future__ import annotations

import json

import polars as pl
from click.testing import CliRunner

from builder.cli import main
from hostile import EXPECTED, records, write_corpus, write_odd_files


def _ingest(raw, out, *extra):
    return CliRunner().invoke(main, ["ingest", str(raw), "-o", str(out), "--quiet", *extra])


def test_every_hostile_record_is_accounted_for(tmp_path):
    raw = tmp_path / "raw"
    n = write_corpus(raw)
    result = _ingest(raw, tmp_path / "out", "--near-dup-threshold", "1.0")
    assert result.exit_code == 0, (result.output, result.exception)
    out = tmp_path / "out"
    ledger = pl.read_parquet(out / "ledger.parquet")
    assert ledger.height == n, ledger
    # line k of the file is record k: each ends with the reason expected for it
    by_line = {}
    for detail, reason in ledger.select("detail", "reason").iter_rows():
        info = json.loads(detail)
        locator = info.get("locator") or ""
        if locator.startswith("line "):
            by_line[int(locator.split()[1])] = reason
    kept = pl.read_parquet(list(out.glob("part-*.parquet")))
    kept_ids = dict(zip(kept["source_id"], kept["language"]))
    for k, (label, _) in enumerate(records(), start=1):
        want = EXPECTED[label]
        if want == "ingested":
            assert k not in by_line, (label, by_line.get(k))
        else:
            assert by_line.get(k) == want, (label, by_line.get(k))
    assert kept_ids["h-8"] == "en" and kept_ids["h-7"] is None  # "English" mapped; 42 dropped with a note
    details = {json.loads(d).get("source_id"): json.loads(d) for d in
               ledger.filter(pl.col("reason") == "ingested")["detail"]}
    assert details["h-7"]["ignored_fields"] == {"language": "int"}
    assert details["h-4"]["repaired_surrogates"] == 1 and "bad\ufffdid" in kept_ids
    assert details["h-11"]["user_id_type"] == "dict" and details["h-22"]["merged_user_turns"] == 1
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rows"]["in"] == n
    reasons = dict(zip(ledger["dialogue_id"], ledger["reason"]))
    assert list(reasons.values()).count("ingested") >= 1
    # the raw user id never appears anywhere ingest writes
    for path in out.rglob("*.parquet"):
        assert b"alice@example.com" not in path.read_bytes(), path
    assert "alice@example.com" not in (out / "manifest.json").read_text()


def test_odd_files_are_read_or_listed(tmp_path):
    raw = tmp_path / "raw"
    write_corpus(raw)
    odd = write_odd_files(raw)
    result = _ingest(raw, tmp_path / "out")
    assert result.exit_code == 0, (result.output, result.exception)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    where = {"files": {f["file"] for f in manifest["files"]},
             "skipped": {s["file"]: s["reason"] for s in manifest["skipped_files"]},
             "other": manifest["other_files"]}
    for name, kind in odd.items():
        assert name in where[kind], (name, kind, where)
    assert "symlink" in where["skipped"]["link.jsonl"] and "UTF-8" in where["skipped"]["bad-\\xff-name.jsonl"]
    ledger = pl.read_parquet(tmp_path / "out" / "ledger.parquet")
    assert ledger.height == sum(f["records"] for f in manifest["files"])  # the gz and ndjson records too
