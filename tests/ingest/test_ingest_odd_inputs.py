"""Log files that lie about themselves or sit beside odd things: a `.gz` name on plain text, a corrupt
gzip stream, a byte-order mark, old-Mac line ends, a pipe or a socket in the raw folder, an output
path that is not UTF-8. Each is read correctly or refused in one line; no user id leaks into the
quarantine's excerpts."""

from __future__ import annotations

import gzip
import json
import os
import socket

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from builder.cli import main
from hostile import native

pytestmark = pytest.mark.timeout(120)  # a pipe opened by mistake would block: fail instead of hanging


def _ingest(raw, out, *extra):
    return CliRunner().invoke(main, ["ingest", str(raw), "-o", str(out), "--quiet", *extra])


def _line(i: int, **over) -> bytes:
    return json.dumps(native(i, **over)).encode()


def _ledger(out) -> pl.DataFrame:
    return pl.read_parquet(out / "ledger.parquet").with_columns(
        pl.col("detail").str.json_path_match("$.source").alias("file"))


def test_compression_is_decided_by_the_bytes_not_the_name(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "plain.jsonl.gz").write_bytes(_line(1) + b"\n" + _line(2) + b"\n")  # the .gz name lies
    (raw / "packed.jsonl").write_bytes(gzip.compress(_line(3) + b"\n"))  # so does this one's
    (raw / "cut.jsonl.gz").write_bytes(gzip.compress(_line(4) + b"\n" + _line(5) + b"\n")[:-12])
    result = _ingest(raw, tmp_path / "out")
    assert result.exit_code == 0, (result.output, result.exception)
    assert "plain.jsonl.gz is named .gz but not gzip-compressed" in result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    files = {f["file"]: f for f in manifest["files"]}
    assert files["plain.jsonl.gz"]["records"] == 2 and "not gzip-compressed" in files["plain.jsonl.gz"]["note"]
    assert files["packed.jsonl"]["records"] == 1 and "decompressed" in files["packed.jsonl"]["note"]
    ledger = _ledger(tmp_path / "out")
    assert ledger.filter(pl.col("reason") == "ingested").height == 3
    cut = ledger.filter(pl.col("reason") == "unreadable_file")
    assert cut.height == 1 and "truncated or corrupt" in cut["detail"][0]
    assert ledger.height == manifest["rows"]["in"] == sum(f["records"] for f in manifest["files"])


def test_a_byte_order_mark_and_old_mac_line_ends_are_dialogues(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "bom.jsonl").write_bytes(b"\xef\xbb\xbf" + _line(1, user_id="raw-user-1") + b"\n" + _line(2) + b"\n")
    (raw / "mac.jsonl").write_bytes(_line(3, user_id="raw-user-3") + b"\r" + _line(4, user_id="raw-user-4") + b"\r")
    (raw / "dos.jsonl").write_bytes(_line(5) + b"\r\n" + _line(6) + b"\r\n")
    (raw / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps([native(7)]).encode())
    result = _ingest(raw, tmp_path / "out")
    assert result.exit_code == 0, (result.output, result.exception)
    ledger = _ledger(tmp_path / "out")
    assert ledger["reason"].to_list() == ["ingested"] * 7, ledger
    assert sorted(ledger["file"].to_list()) == ["bom.json", "bom.jsonl", "bom.jsonl", "dos.jsonl", "dos.jsonl",
                                                 "mac.jsonl", "mac.jsonl"]  # two rows for two CR-ended lines
    parts = pl.read_parquet(list((tmp_path / "out").glob("part-*.parquet")))
    assert not any(str(u).startswith("raw-user") for u in parts["user_id"].to_list())


def test_quarantine_excerpts_never_show_a_user_id(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    lines = [
        b'{"user_id": "raw-id-broken", "turns": [',  # not JSON: only text
        b'{"id": "x", "metadata": {"user": {"email": "raw-id-nested@example.com"}}, "turns": 5}',  # invalid record
        b'{"userId": "raw-id-\xff-bytes", "turns": []}',  # not UTF-8
        b"{'username': 'raw-id-python-repr', 'turns': []}",  # a Python repr, not JSON
        b'{"id": "y", "turns": [{"role": "user", "text": 5, "author": "raw-id-in-a-turn"}]}',  # invalid turn
        b'{"id": "z", "padding": "' + b"p" * 250 + b'", "user_id": "raw-id-cut-off-by-the-excerpt-end"}',
    ]
    (raw / "bad.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    result = _ingest(raw, tmp_path / "out", "--format", "native")
    assert result.exit_code == 0, (result.output, result.exception)
    quarantine = pl.read_parquet(tmp_path / "out" / "quarantine.parquet")
    assert quarantine.height == len(lines)
    assert quarantine["excerpt"].str.contains("<user id withheld>").all(), quarantine["excerpt"].to_list()
    for column in ("excerpt", "message", "source_id"):
        assert not quarantine[column].fill_null("").str.contains("raw-id").any(), quarantine[column].to_list()
    assert not _ledger(tmp_path / "out")["detail"].str.contains("raw-id").any()


def test_pipes_and_sockets_in_the_raw_folder_are_listed_never_opened(tmp_path):
    raw = tmp_path / "raw"
    (raw / "images").mkdir(parents=True)
    os.mkfifo(raw / "pipe.jsonl")
    os.mkfifo(raw / "images" / "photo.png")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(raw / "s.jsonl"))
    turns = [dict(t) for t in native(1)["turns"]]
    turns[0]["images"] = ["images/photo.png"]
    (raw / "log.jsonl").write_bytes(_line(1, turns=turns) + b"\n" + _line(2) + b"\n")
    try:
        result = _ingest(raw, tmp_path / "out")
    finally:
        sock.close()
    assert result.exit_code == 0, (result.output, result.exception)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    skipped = {s["file"]: s["reason"] for s in manifest["skipped_files"]}
    assert skipped["pipe.jsonl"] == "not a regular file (a named pipe): never opened"
    assert skipped["images/photo.png"] == "not a regular file (a named pipe): never opened"
    assert skipped["s.jsonl"] == "not a regular file (a socket): never opened"
    reasons = dict(zip(_ledger(tmp_path / "out")["reason"], _ledger(tmp_path / "out")["detail"]))
    assert "not a regular file" in reasons["unreadable_image"]


@pytest.mark.parametrize("which", ["-o", "RAW"])
def test_a_path_that_is_not_utf8_is_one_line(tmp_path, which):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "a.jsonl").write_bytes(_line(1) + b"\n")
    bad = os.fsdecode(os.fsencode(str(tmp_path)) + b"/out\xff")
    if which == "RAW":
        os.rename(raw, os.fsencode(str(tmp_path)) + b"/raw\xff")
        raw, bad = os.fsdecode(os.fsencode(str(tmp_path)) + b"/raw\xff"), tmp_path / "out"
    result = _ingest(raw, bad)
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ")
    assert "\\xff" in result.output and "not a valid UTF-8 path" in result.output
    assert os.listdir(os.fsencode(str(tmp_path))) == [b"raw\xff" if which == "RAW" else b"raw"]  # no lock file


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=40).map(lambda b: bytes(b"ab\r\n"[x % 4] for x in b)),
       block=st.integers(1, 9), limit=st.sampled_from([3, 100]))
def test_lines_split_at_every_line_end_wherever_the_blocks_break(data, block, limit):
    """The block reader gives the lines of re.split on \\r\\n|\\r|\\n, a \\r\\n cut between two blocks
    included, and None for a line over the limit."""
    import re

    from builder.ingest.readers.lines import _split

    want = re.split(rb"\r\n|\r|\n", data)
    if want[-1] == b"":
        want.pop()
    blocks = [data[i:i + block] for i in range(0, len(data), block)]
    assert list(_split(blocks, limit)) == [(i, w if len(w) <= limit else None) for i, w in enumerate(want, start=1)]
