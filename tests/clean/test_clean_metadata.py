"""PII in metadata fields (source_id, model, image URLs) and metadata in image bytes, through the real
`mmrc-build clean` CLI; then `release` refuses an image that still carries metadata."""

from __future__ import annotations

import hashlib
import io
import json

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder, png_bytes
from PIL import Image

from builder.cli import main

EMAIL, PHONE, TOKEN = "anna.berg1984@gmail.com", "(212) 555-0187", "sig=9f8e7d6c5b4a"


def _junk_after_app0_jpeg() -> bytes:
    data = png_bytes(exif_gps=True)
    app0_end = 4 + int.from_bytes(data[4:6], "big")
    return data[:app0_end] + b"\x00" + data[app0_end:]


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory):
    root = tmp_path_factory.mktemp("clean_meta")
    jpg = _junk_after_app0_jpeg()
    sha = hashlib.sha256(jpg).hexdigest()
    local = {"sha256": sha, "mime": "image/jpeg", "width": 32, "height": 24, "url": None}
    remote = {"sha256": None, "mime": None, "width": None, "height": None,
              "url": f"https://anna:hunter2@cdn.example.com/u/{EMAIL}/photo.jpg?{TOKEN}#frag"}
    rows = [dialogue([("user", "What is in this photo I took?"), ("assistant", "A red square.")],
                     images={0: [local, remote]}, source_id=f"{EMAIL}-chat-3", model=f"bot {PHONE}"),
            dialogue([("user", "Tell me about tides."), ("assistant", "The moon pulls the sea.")],
                     source_id="conv-000123", model="gpt-4")]
    make_stage_folder(root / "in", rows, images={sha: jpg})
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("MMRC_MODELS", str(root / "models"))
        result = CliRunner().invoke(main, ["clean", str(root / "in"), "-o", str(root / "out"), "--no-toxicity"])
    assert result.exit_code == 0, result.output
    return root


def _everything(folder) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


def test_metadata_fields_are_scrubbed_and_the_ledger_names_fields_not_values(cleaned):
    out = cleaned / "out"
    blob = _everything(out)
    for secret in (EMAIL.encode(), b"555-0187", TOKEN.encode(), b"hunter2", b"#frag"):
        assert secret not in blob, secret
    df = pl.read_parquet(out / "part-*.parquet")
    row = df.filter(pl.col("model") != "gpt-4").to_dicts()[0]
    assert row["source_id"] == "<EMAIL_ADDRESS>-chat-3" and row["model"] == "bot <PHONE_NUMBER>"
    url = row["turns"][0]["images"][1]["url"]
    assert url.startswith("https://cdn.example.com/u/") and "?" not in url and EMAIL not in url
    other = df.filter(pl.col("model") == "gpt-4").to_dicts()[0]
    assert other["source_id"] == "conv-000123"  # ordinary ids are left alone
    ledger = pl.read_parquet(out / "ledger.parquet").filter(pl.col("stage") == "clean")
    details = [json.loads(d) for d in ledger["detail"]]
    fields = {m["field"] for d in details for m in d.get("metadata", [])}
    assert fields == {"source_id", "model", "image_url"}


def test_a_hostile_jpeg_is_re_encoded_from_pixels(cleaned):
    from builder.exif import metadata_found

    images = list((cleaned / "out" / "images").rglob("*.jpg"))
    assert len(images) == 1
    data = images[0].read_bytes()
    assert metadata_found(data, "image/jpeg") == () and b"SERIAL-12345" not in data
    assert Image.open(io.BytesIO(data)).size == (32, 24)


def test_release_refuses_an_image_with_metadata(tmp_path):
    jpg = png_bytes(exif_gps=True)
    sha = hashlib.sha256(jpg).hexdigest()
    img = {"sha256": sha, "mime": "image/jpeg", "width": 32, "height": 24, "url": None}
    row = dialogue([("user", "Look at this."), ("assistant", "A red square.")], images={0: [img]},
                   source_id="c1", topic="Other", topic_group="other", language="en")
    make_stage_folder(tmp_path / "data", [row], images={sha: jpg}, stage="classify")
    result = CliRunner().invoke(main, ["release", "--data", str(tmp_path / "data"), "--version", "0.1.0",
                                       "--releases-dir", str(tmp_path / "rel"), "--allow-missing-abilities"])
    assert result.exit_code == 3, result.output  # an input problem
    assert "carries metadata (exif/xmp)" in result.output and "Traceback" not in result.output
    assert not list((tmp_path / "rel").glob("mmrc-v0.1.0*"))  # nothing half-made is left
