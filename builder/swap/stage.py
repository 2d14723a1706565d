"""The swap stage: originals pass through unchanged, each selected one gains a variant row.

The selection is global (see :mod:`builder.swap.planner`), so ``setup`` scans the whole
input once and plans every dialogue; ``process`` then only assembles rows shard by shard,
keeping the engine's contract (one ledger row per input dialogue, atomic parts, resume).
A variant lands in the same part file as its original.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from builder import io
from builder.engine import ShardContext, ShardResult
from builder.records import conform, dialogues_frame, ledger_frame
from builder.swap.config import SwapConfig
from builder.swap.planner import PLAN_COLUMNS, Outcome, Planner
from builder.swap.summary import shortfall
from builder.swap.sources import make_source
from builder.swap.variant import build_variant

if TYPE_CHECKING:
    from classifiers.topic.embed import Embedder

REPORT = "swap_report.json"


class SwapStage:
    name = "swap"
    version = "1.0"
    reads = ("dialogue_id", "turns", "pii", "questions", "variant_of")
    writes = ("variant_of", "swaps")  # plus new variant rows

    def __init__(self, input_dir: Path, config: SwapConfig):
        config.validate()
        self.input_dir = Path(input_dir)
        io.require_finished(self.input_dir)
        self.source = make_source(config)
        self.config = dataclasses.replace(config, source_hash=self.source.fingerprint())
        self.embedder: Embedder | None = None  # loaded by setup()
        self.outcomes: dict[str, Outcome] = {}

    def setup(self, device: str) -> None:
        from builder.nlp import load_spacy
        from classifiers.topic.embed import Embedder

        nlp = load_spacy(self.config.spacy_model)
        self.embedder = Embedder(self.config.embedder, device, cache_dir=False, batch_size=self.config.embedder_batch,
                                 dtype=self.config.embedder_dtype)
        self.source.setup(device, self.embedder)
        frame = io.scan_dialogues(self.input_dir).select(PLAN_COLUMNS).collect()
        self.outcomes = Planner(self.config, nlp, self.embedder, self.source).plan(frame)

    def models(self) -> list[dict]:
        from classifiers.topic.embed import Embedder

        try:
            spacy_version = importlib.metadata.version(self.config.spacy_model)
        except importlib.metadata.PackageNotFoundError:
            spacy_version = "unknown"
        embedder = self.embedder or Embedder(self.config.embedder, "cpu", cache_dir=False,
                                             dtype=self.config.embedder_dtype)
        return [{"name": self.config.spacy_model, "version": spacy_version, "files": {}},
                embedder.describe(), self.source.describe()]

    def process(self, df: pl.DataFrame, ctx: ShardContext) -> ShardResult:
        ledger, variants = [], []
        stats: dict[str, Any] = {"dialogues": df.height, "considered": 0, "with_candidates": 0, "candidates": 0,
                 "variants": 0, "images_added": 0, "reasons": {}}
        wanted = {i for i in df["dialogue_id"] if self.outcomes.get(i, Outcome("")).swaps}
        originals = {r["dialogue_id"]: r for r in df.filter(pl.col("dialogue_id").is_in(wanted)).to_dicts()}
        for did in df["dialogue_id"].to_list():
            outcome = self.outcomes.get(did) or Outcome("not_selected")
            detail = dict(outcome.detail)
            if outcome.swaps:
                variant = build_variant(originals[did], outcome.swaps)
                assert variant["dialogue_id"] == outcome.variant_id, "variant id differs from the plan"
                for swap in outcome.swaps:
                    data, info = self.source.load(swap.image_key)
                    ctx.out_images.put(data, info)
                variants.append(variant)
                detail.update(variant_id=variant["dialogue_id"], swaps=[_swap_detail(s) for s in outcome.swaps])
                stats["variants"] += 1
                stats["images_added"] += len(outcome.swaps)
            if outcome.reason not in ("not_selected", "is_variant", "language_unsupported"):
                stats["considered"] += 1
                stats["candidates"] += outcome.candidates
                stats["with_candidates"] += outcome.candidates > 0
            stats["reasons"][outcome.reason] = stats["reasons"].get(outcome.reason, 0) + 1
            ledger.append({"dialogue_id": did, "stage": self.name, "decision": "kept",
                           "reason": outcome.reason, "detail": detail})
        out = pl.concat([conform(df), dialogues_frame(variants)]) if variants else conform(df)
        return ShardResult(out, ledger_frame(ledger), stats)

    def finalize(self, folder: Path, stats: dict) -> dict:
        report = {"count": self.config.count, "seed": self.config.seed, "threshold": self.config.threshold,
                  **{k: stats.get(k, 0) for k in ("dialogues", "considered", "with_candidates", "candidates",
                                                   "variants", "images_added")},
                  "reasons": dict(sorted(stats.get("reasons", {}).items()))}
        described = self.source.describe()
        report["image_source"] = {k: described.get(k) for k in ("name", "version", "bundled", "path", "images")}
        report["shortfall"] = shortfall(report)
        io.write_text_atomic(Path(folder) / REPORT, json.dumps(report, indent=2, sort_keys=True) + "\n")
        return {"report": report}


def _swap_detail(swap) -> dict:
    edits = [{"start": e.start, "end": e.end, "original": e.original, "replacement": e.replacement}
             for e in swap.rewrite.edits]
    return {"turn": swap.turn, "span": swap.candidate.mention.core, "category": swap.candidate.category,
            "picturability": swap.candidate.picturability, "how": swap.candidate.how,
            "image": swap.image_key, "image_sha256": swap.image.sha256, "score": swap.score, "edits": edits}
