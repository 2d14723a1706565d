"""`mmrc-build swap` on the bundled sample (raw/sample, ingested) with the demo bank, and on a
slice of the shared Flickr8k image bank (../shared/data/image_bank, skipped when absent)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
from click.testing import CliRunner

from builder import io
from builder.cli import main
from builder.images import ImageStore, inspect_image
from conftest import dialogue, make_stage_folder, shared_data

REPO = Path(__file__).resolve().parents[2]


def test_swap_on_the_bundled_sample(tmp_path):
    runner = CliRunner()
    ingested, swapped = tmp_path / "ingested", tmp_path / "swapped"
    result = runner.invoke(main, ["ingest", str(REPO / "raw" / "sample"), "-o", str(ingested)])
    assert result.exit_code == 0, result.output
    # no --image-bank: the demo bank bundled with the package, named in the output
    result = runner.invoke(main, ["swap", str(ingested), "-o", str(swapped), "--device", "cpu"])
    assert result.exit_code == 0, result.output
    df = pl.concat([pl.read_parquet(p) for p in io.parts(swapped)])
    originals = pl.concat([pl.read_parquet(p) for p in io.parts(ingested)])
    variants = df.filter(pl.col("variant_of").is_not_null())
    assert df.height == originals.height + variants.height
    # the bank covers ~30 of the sample's things; 2 more are refused because another user turn names them too
    assert variants.height >= 19, result.output
    assert "pictures from the bundled demo image bank 'image_bank' (44 pictures" in result.output
    # 100 asked (the default), fewer made: one line says what stopped the rest and what would help
    shortfall = next(line for line in result.output.splitlines() if line.startswith("swap: made "))
    assert f"made {variants.height} of the 100 variants asked" in shortfall
    assert "no picturable named thing" in shortfall and "raises the yield" in shortfall
    by_source = dict(zip(originals["dialogue_id"], originals["source_id"]))
    swapped_sources = {by_source[v] for v in variants["variant_of"]}
    assert {"travel-01", "travel-02", "food-01"} <= swapped_sources
    store = ImageStore(swapped)
    for v in variants.to_dicts():
        for s in v["swaps"]:
            text = v["turns"][s["turn"]]["text"]
            core = re.sub(r"^(the|a|an|my|our|these|this) ", "", s["original"], flags=re.I)
            assert not re.search(rf"\b{re.escape(core)}\b", text, re.I), (core, text)
            image = v["turns"][s["turn"]]["images"][-1]
            assert image["sha256"] == s["image_sha256"] and store.has(image["sha256"], image["mime"])
    report = json.loads((swapped / "swap_report.json").read_text())
    assert report["variants"] == variants.height and report["dialogues"] == originals.height
    assert sum(report["reasons"].values()) == originals.height


def test_swap_on_the_shared_flickr_bank(tmp_path):
    bank = shared_data("image_bank")
    # A slice (images symlinked) keeps the caption embedding to a few seconds: up to 15
    # images whose captions mention each thing the dialogues name, plus 30 others.
    rows = (bank / "captions.csv").read_text().splitlines()
    names = sorted({r.split(",", 1)[0] for r in rows[1:]})
    keep = set(names[:30])
    for word in ("dog", "bicycle", "horse"):
        keep |= set(sorted({r.split(",", 1)[0] for r in rows[1:] if word in r.lower()})[:15])
    names = sorted(keep)
    (tmp_path / "bank" / "images").mkdir(parents=True)
    (tmp_path / "bank" / "captions.csv").write_text(
        "\n".join([rows[0], *[r for r in rows[1:] if r.split(",", 1)[0] in keep]]) + "\n")
    for name in names:
        (tmp_path / "bank" / "images" / name).symlink_to(bank / "images" / name)
    dialogues = [
        dialogue([("user", f"{text}"), ("assistant", "Nice."), ("user", "Any tips?"), ("assistant", "Sure.")])
        for text in ("My dog loves running on the beach.", "I rode my bicycle down the street.",
                     "My horse jumped over the fence.", "How do I write a cover letter?")
    ]
    src = make_stage_folder(tmp_path / "in", dialogues, stage="classify")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["swap", str(src), "-o", str(out), "--image-bank", str(tmp_path / "bank"),
                                       "--device", "cpu", "--threshold", "0.45"])
    assert result.exit_code == 0, result.output
    variants = pl.concat([pl.read_parquet(p) for p in io.parts(out)]).filter(pl.col("variant_of").is_not_null())
    assert variants.height == 3, result.output
    captions = (tmp_path / "bank" / "captions.csv").read_text()
    for v in variants.to_dicts():
        (s,) = v["swaps"]
        assert s["score"] >= 0.45
        image = v["turns"][s["turn"]]["images"][-1]
        data = ImageStore(out).read(image["sha256"], image["mime"])
        assert inspect_image(data, 10**8, 10**8).sha256 == s["image_sha256"]
        assert image["mime"] == "image/jpeg"
    ledger = pl.read_parquet(out / "ledger.parquet").filter(pl.col("stage") == "swap")
    assert dict(zip(ledger["reason"], ledger["reason"])).get("no_candidate_span")  # the cover letter
    detail = [json.loads(d) for d in ledger.filter(pl.col("reason") == "variant_created")["detail"]]
    assert all(d["swaps"][0]["image"].split(".")[0] in captions for d in detail)
