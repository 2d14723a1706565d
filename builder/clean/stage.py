"""The clean stage: toxicity (tag, then decide), PII redaction, image metadata stripping.

Order per shard: score every turn for toxicity and drop toxic dialogues (``toxic:<label>``);
scan the survivors' turns for PII in one batched pass and redact them (``pii_redacted``)
or drop them (``pii_coherence``, ``pii_timeout``); strip EXIF/XMP from their images
(``exif_stripped`` when that is the only change). Kept dialogues keep their id.
"""

from __future__ import annotations

import hashlib
import time

import polars as pl

from builder.clean.config import CleanConfig
from builder.clean.exif import strip_metadata
from builder.clean.pii import PiiDetector, TurnScan
from builder.clean.redact import redact_dialogue
from builder.clean.toxicity import ToxicityStep
from builder.engine import ShardContext, ShardResult
from builder.errors import InputError
from builder.images import ImageInfo
from builder.records import dialogues_frame, ledger_frame


class CleanStage:
    name = "clean"
    version = "1"
    reads = ("dialogue_id", "turns")
    writes = ("turns", "pii", "toxicity")

    def __init__(self, config: CleanConfig):
        self.config = config
        self.pii = PiiDetector(config)
        self.toxicity = ToxicityStep(config)
        self._device = "cpu"

    def setup(self, device: str) -> None:
        self._device = device
        if self.config.toxicity:
            self.toxicity.setup(device)
        if self.config.pii:
            self.pii.load()

    def models(self) -> list[dict]:
        out = []
        if self.config.toxicity:
            self.toxicity.setup(self._device)  # a fully resumed run never called setup()
            out.append(self.toxicity.describe())
        if self.config.pii:
            out.append({"name": "presidio+spacy", "version": self.pii.version(), "files": {}})
        return out

    def process(self, df: pl.DataFrame, ctx: ShardContext) -> ShardResult:
        rows = df.sort("dialogue_id").to_dicts()
        stats: dict = {"funnel": {"in": len(rows), "dropped": {}}, "seconds": {}, "pii_spans": {},
                       "exif": {"images": 0, "stripped": 0, "reencoded": 0}, "turns": 0}
        ledger, out_rows = [], []
        tox = self._toxicity(rows, stats)
        survivors = []
        for row, tags in zip(rows, tox):
            row["toxicity"] = tags
            reason, detail = self.toxicity.decide(tags) if tags else (None, {})
            if reason:
                ledger.append(_row(row, "dropped", reason, {"toxicity": detail}))
                _count(stats["funnel"]["dropped"], reason)
            else:
                survivors.append(row)
        scans = self._scan(survivors, stats)
        images: dict[tuple[str, str], tuple[dict, dict | None]] = {}
        t0 = time.perf_counter()
        for row, row_scans in zip(survivors, scans):
            red = redact_dialogue(row["dialogue_id"], row["turns"], row_scans, self.config)
            if red.reason:
                ledger.append(_row(row, "dropped", red.reason, {"deleted_turns": red.deleted_turns,
                                                                 "redacted_share": _keys(red.shares)}))
                _count(stats["funnel"]["dropped"], red.reason)
                continue
            row["turns"], row["pii"] = red.turns, red.spans
            exif = self._strip_images(row, ctx, images, stats) if self.config.strip_exif else []
            for span in red.spans:
                _count(stats["pii_spans"], span["entity"])
            detail = {"pii": red.spans, "exif": exif}
            if red.deleted_turns:
                detail["deleted_turns"] = red.deleted_turns
            if red.spans or red.deleted_turns:
                ledger.append(_row(row, "modified", "pii_redacted", detail))
                stats["funnel"]["pii_redacted"] = stats["funnel"].get("pii_redacted", 0) + 1
            elif exif:
                ledger.append(_row(row, "modified", "exif_stripped", detail))
                stats["funnel"]["exif_only"] = stats["funnel"].get("exif_only", 0) + 1
            else:
                ledger.append(_row(row, "kept", "ok", {}))
            out_rows.append(row)
        stats["seconds"]["redact_exif"] = time.perf_counter() - t0
        stats["funnel"]["out"] = len(out_rows)
        return ShardResult(dialogues_frame(out_rows), ledger_frame(ledger), stats)

    # -- steps -------------------------------------------------------------------
    def _toxicity(self, rows: list[dict], stats: dict) -> list[dict | None]:
        if not self.config.toxicity:
            return [None] * len(rows)
        t0 = time.perf_counter()
        scorer = self.toxicity.scorer
        before = scorer.cache.stats() if hasattr(scorer, "cache") else None
        tags = self.toxicity.score_dialogues([[t["text"] for t in row["turns"]] for row in rows])
        if before is not None:
            after = scorer.cache.stats()
            stats["toxicity_cache"] = {k: after[k] - before[k] for k in after}
        stats["seconds"]["toxicity"] = time.perf_counter() - t0
        return tags

    def _scan(self, rows: list[dict], stats: dict) -> list[list[TurnScan]]:
        texts = [t["text"] or "" for row in rows for t in row["turns"]]
        stats["turns"] = len(texts)
        if not self.config.pii:
            return [[TurnScan() for _ in row["turns"]] for row in rows]
        t0 = time.perf_counter()
        flat = iter(self.pii.scan(texts))
        stats["seconds"]["pii"] = time.perf_counter() - t0
        return [[next(flat) for _ in row["turns"]] for row in rows]

    def _strip_images(self, row: dict, ctx: ShardContext, done: dict, stats: dict) -> list[dict]:
        changes = []
        for turn in row["turns"]:
            refs = []
            for ref in turn.get("images") or []:
                if not ref.get("sha256"):
                    refs.append(ref)
                    continue
                key = (ref["sha256"], ref["mime"])
                if key not in done:
                    done[key] = self._strip_one(ref, ctx, stats)
                new_ref, change = done[key]
                refs.append(new_ref)
                if change:
                    changes.append({**change, "turn": turn["index"]})
            turn["images"] = refs
        return changes

    def _strip_one(self, ref: dict, ctx: ShardContext, stats: dict) -> tuple[dict, dict | None]:
        stats["exif"]["images"] += 1
        path = ctx.in_images.path(ref["sha256"], ref["mime"])
        if not path.exists():
            raise InputError(f"image {path} referenced by the input is missing; rerun the previous stage")
        result = strip_metadata(path.read_bytes(), ref["mime"])
        if not result.removed:
            return ref, None
        width, height = ref["width"], ref["height"]
        if result.reencoded:
            from PIL import Image
            import io

            with Image.open(io.BytesIO(result.data)) as img:
                width, height = img.size
        info = ImageInfo(hashlib.sha256(result.data).hexdigest(), ref["mime"], width, height)
        ctx.out_images.put(result.data, info)
        stats["exif"]["stripped"] += 1
        stats["exif"]["reencoded"] += int(result.reencoded)
        new_ref = {**ref, "sha256": info.sha256, "width": width, "height": height}
        return new_ref, {"old": ref["sha256"], "new": info.sha256, "removed": list(result.removed),
                         "reencoded": result.reencoded}

    def finalize(self, folder, stats: dict) -> dict:
        if self.config.toxicity:
            self.toxicity.setup(self._device)  # shards may all have run elsewhere (resume, other executor)
        return {"funnel": stats.get("funnel", {}),
                "decided_by": {"toxicity": self.toxicity.describe()["name"] if self.config.toxicity else None,
                               "pii": "presidio+" + "en_core_web_sm" if self.config.pii else None}}


def _row(row: dict, decision: str, reason: str, detail: dict) -> dict:
    return {"dialogue_id": row["dialogue_id"], "stage": "clean", "decision": decision, "reason": reason,
            "detail": detail}


def _count(counter: dict, key: str) -> None:
    counter[key] = counter.get(key, 0) + 1


def _keys(shares: dict[int, float]) -> dict[str, float]:
    return {str(k): v for k, v in sorted(shares.items())}
