"""run_stage: the stage contract for Parquet->Parquet stages, with a toy stage."""

from __future__ import annotations

import json
from dataclasses import dataclass

import polars as pl
import pytest

from builder import io
from builder.engine import ShardResult, merge_stats, run_stage
from builder.errors import InputError, OutputExistsError
from builder.records import ledger_frame
from conftest import dialogue, make_stage_folder, png_bytes


@dataclass(frozen=True)
class DropShortConfig:
    min_chars: int = 10


class DropShort:
    """Drops dialogues whose first turn is short; tags the rest with a language."""

    name, version, reads, writes = "toy", "1", ("turns",), ("language",)

    def __init__(self, config=DropShortConfig(), lie=False):
        self.config, self.lie, self.setups, self.processed = config, lie, 0, []

    def setup(self, device):
        self.setups += 1

    def models(self):
        return [{"name": "none", "version": "0", "files": {}}]

    def process(self, df, ctx):
        self.processed.append(ctx.index)
        short = df["turns"].list.first().struct.field("text").str.len_chars() < self.config.min_chars
        kept = df.filter(~short).with_columns(pl.lit("en").alias("language"))
        rows = [{"dialogue_id": i, "stage": self.name, "decision": "dropped", "reason": "too_short", "detail": {}}
                for i in df.filter(short)["dialogue_id"]]
        rows += [{"dialogue_id": i, "stage": self.name, "decision": "modified", "reason": "tagged", "detail": {}}
                 for i in kept["dialogue_id"]]
        if self.lie:
            rows = rows[1:]
        return ShardResult(kept, ledger_frame(rows), {"seen": df.height, "by": {"shard": 1}})


def make_input(tmp_path):
    img = png_bytes()
    import hashlib

    sha = hashlib.sha256(img).hexdigest()
    ref = {"sha256": sha, "mime": "image/png", "width": 32, "height": 24, "url": None}
    rows = [dialogue([("user", "a long enough first turn"), ("assistant", "ok")], images={0: [ref]}),
            dialogue([("user", "short"), ("assistant", "ok")]),
            dialogue([("user", "another long first turn"), ("assistant", "fine")])]
    return make_stage_folder(tmp_path / "in", rows, images={sha: img}), sha


def test_stage_output_ledger_and_images(tmp_path):
    src, sha = make_input(tmp_path)
    stage = DropShort()
    manifest = run_stage(stage, src, tmp_path / "out", device="cpu")
    out = tmp_path / "out"
    assert (out / "_SUCCESS").exists() and stage.setups == 1
    df = pl.read_parquet(out / "part-00000.parquet")
    assert df.height == 2 and df["language"].to_list() == ["en", "en"]
    ledger = pl.read_parquet(out / "ledger.parquet")
    assert set(ledger["stage"]) == {"ingest", "toy"}  # earlier stages' rows are carried
    rows = manifest["rows"]
    assert rows == {"in": 3, "kept": 0, "modified": 2, "dropped": 1, "quarantined": 0, "out": 2,
                    "reasons": {"dropped:too_short": 1, "modified:tagged": 2}}
    assert manifest["stats"] == {"seen": 3, "by": {"shard": 1}}
    assert (out / "images" / sha[:2] / f"{sha}.png").exists()
    assert manifest["input"]["content_hash"] == json.loads((src / "manifest.json").read_text())["output_hash"]


def test_unbalanced_ledger_is_a_bug(tmp_path):
    src, _ = make_input(tmp_path)
    with pytest.raises(AssertionError, match="ledger rows do not match"):
        run_stage(DropShort(lie=True), src, tmp_path / "out", device="cpu")
    assert not (tmp_path / "out").exists()


def test_up_to_date_force_and_conflicts(tmp_path):
    src, _ = make_input(tmp_path)
    run_stage(DropShort(), src, tmp_path / "out", device="cpu")
    again = DropShort()
    run_stage(again, src, tmp_path / "out", device="cpu")
    assert again.setups == 0  # nothing to do, models never loaded
    with pytest.raises(OutputExistsError, match="--force"):
        run_stage(DropShort(DropShortConfig(min_chars=3)), src, tmp_path / "out", device="cpu")
    forced = DropShort(DropShortConfig(min_chars=3))
    manifest = run_stage(forced, src, tmp_path / "out", device="cpu", force=True)
    assert manifest["rows"]["dropped"] == 0 and manifest["config"] == {"min_chars": 3}


def test_resume_skips_finished_shards(tmp_path):
    src, _ = make_input(tmp_path)
    # split the input into two parts
    df = pl.read_parquet(src / "part-00000.parquet")
    io.write_dialogues(df[:2], src / "part-00000.parquet")
    io.write_dialogues(df[2:], src / "part-00001.parquet")

    class Crash(DropShort):
        def process(self, df, ctx):
            if ctx.index == 1:
                raise KeyboardInterrupt
            return super().process(df, ctx)

    with pytest.raises(KeyboardInterrupt):
        run_stage(Crash(), src, tmp_path / "out", device="cpu")
    assert not (tmp_path / "out").exists()
    resumed = DropShort()
    run_stage(resumed, src, tmp_path / "out", device="cpu")
    assert resumed.processed == [1]
    fresh = tmp_path / "fresh"
    run_stage(DropShort(), src, fresh, device="cpu")
    for name in ("part-00000.parquet", "part-00001.parquet", "ledger.parquet"):
        assert (tmp_path / "out" / name).read_bytes() == (fresh / name).read_bytes()


def test_unfinished_input_is_refused(tmp_path):
    (tmp_path / "in").mkdir()
    with pytest.raises(InputError, match="_SUCCESS"):
        run_stage(DropShort(), tmp_path / "in", tmp_path / "out", device="cpu")
    with pytest.raises(InputError, match="does not exist"):
        run_stage(DropShort(), tmp_path / "missing", tmp_path / "out", device="cpu")


def test_merge_stats_sums_nested():
    assert merge_stats({"a": 1, "b": {"c": 2}}, {"a": 2, "b": {"c": 1, "d": 1}, "m": "x"}) == \
        {"a": 3, "b": {"c": 3, "d": 1}, "m": "x"}
