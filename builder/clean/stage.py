"""The clean stage: languages, toxicity (tag, then decide), PII redaction, image metadata stripping.

Order per shard: identify each turn's language and record the dialogue's (the ``language``
field; with ``--languages`` a dialogue in another language is dropped as
``language_not_selected``); score every turn for toxicity and drop toxic dialogues
(``toxic:<label>``); scan the survivors' turns for PII in one batched pass (English NER on
English turns only) and redact them (``pii_redacted``) or drop them (``pii_coherence``,
``pii_timeout``); scrub ``source_id``, ``model`` and image URLs (``metadata_redacted``, see
metadata.py); re-encode every image that carries metadata from its pixels (``exif_stripped``
when that is the only change; builder/exif.py). Kept dialogues keep their id.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence

import polars as pl

from builder.clean.config import CleanConfig
from builder.clean.metadata import scrub as scrub_metadata
from builder.exif import strip_metadata
from builder.clean.languages import UNDETERMINED, dialogue_languages, english_turns
from builder.clean.pii import NER_MODEL, PiiDetector, TurnScan
from builder.clean import policy
from builder.clean.redact import redact_dialogue
from builder.clean.toxicity import ToxicityStep
from builder.engine import ShardContext, ShardResult
from builder.errors import InputError
from builder.images import ImageInfo
from builder.records import dialogues_frame, ledger_frame
from builder.traits import Traits, tag


class CleanStage:
    name = "clean"
    @property
    def version(self) -> str:
        """"1", and the hash of each context model's weights that judges (names, numbers, streets, lower-case names): new
        weights rerun the stage."""
        out = "1"
        if self.config.judges_person_context:
            from classifiers.person_context.model import weights_sha256

            out += f"+person_context.{weights_sha256()[:16]}"
        if self.config.judges_number_context:
            from classifiers.number_context.model import weights_sha256 as number_sha256

            out += f"+number_context.{number_sha256()[:16]}"
        if self.config.judges_street_context:
            from classifiers.street_context.model import weights_sha256 as street_sha256

            out += f"+street_context.{street_sha256()[:16]}"
        if self.config.judges_lower_case_names:
            from classifiers.lower_case_name.model import weights_sha256 as lower_sha256

            out += f"+lower_case_name.{lower_sha256()[:16]}"
        return out
    reads = ("dialogue_id", "turns", "language")
    writes = ("turns", "pii", "toxicity", "language", "traits")

    def __init__(self, config: CleanConfig):
        self.config = config
        self.pii = PiiDetector(config)
        self.toxicity = ToxicityStep(config)
        self._device = "cpu"
        self._toxicity_model: dict | None = None

    def setup(self, device: str) -> None:
        self._device = device
        if self.config.toxicity:
            self.toxicity.setup(device)
        if self.config.pii:
            self.pii.load()

    def models(self) -> list[dict]:
        out = []
        if self.config.toxicity:
            out.append(self._describe_toxicity())
        if self.config.pii:
            out.append({"name": "presidio+spacy", "version": self.pii.version(), "files": {}})
        return out

    def _describe_toxicity(self) -> dict:
        """The toxicity model's manifest entry. A run resumed after its last shard never called
        setup(), so the scorer is loaded here when needed (finalize and models both ask)."""
        if self._toxicity_model is None:
            self.toxicity.setup(self._device)
            self._toxicity_model = self.toxicity.describe()
        return self._toxicity_model

    def process(self, df: pl.DataFrame, ctx: ShardContext) -> ShardResult:
        rows = df.sort("dialogue_id").to_dicts()
        stats: dict = {"funnel": {"in": len(rows), "dropped": {}}, "seconds": {}, "pii_spans": {},
                       "exif": {"images": 0, "stripped": 0, "reencoded": 0}, "turns": 0,
                       "languages": {}, "turns_without_english_ner": 0}
        ledger: list[dict] = []
        out_rows = []
        stats["suppressed"] = {}
        stats["by_model"] = {}
        stats["traits"] = {}
        rows = self._languages(rows, ledger, stats)
        for row in rows:  # tagged once; the PII policy, swap and the toxicity lexicon read them
            row["_traits"] = tag(row["turns"])
            for name in row["_traits"].found:
                _count(stats["traits"], name)
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
        metadata = scrub_metadata(survivors, self.pii if self.config.pii else None, self.config)
        images: dict[tuple[str, str], tuple[dict, dict | None]] = {}
        t0 = time.perf_counter()
        for row, row_scans, meta in zip(survivors, scans, metadata):
            red = redact_dialogue(row["dialogue_id"], row["turns"], row_scans, self.config, row["_traits"])
            routing = _routing(row, row_scans)
            suppressed = policy.counts(red.suppressed)
            for rule, n in suppressed.items():
                stats["suppressed"][rule] = stats["suppressed"].get(rule, 0) + n
            if suppressed:
                routing["suppressed"] = suppressed
            for key, n in red.by_model.items():
                stats["by_model"][key] = stats["by_model"].get(key, 0) + n
            if red.by_model:
                routing["by_model"] = red.by_model
            if red.reason:
                ledger.append(_row(row, "dropped", red.reason, {"deleted_turns": red.deleted_turns,
                                                                 "redacted_share": _keys(red.shares),
                                                                 "spans": red.evidence, **routing}))
                _count(stats["funnel"]["dropped"], red.reason)
                continue
            row["traits"] = _remap(row["_traits"], len(row["turns"]), red.deleted_turns).to_column()
            row["turns"], row["pii"] = red.turns, red.spans
            exif = self._strip_images(row, ctx, images, stats) if self.config.strip_exif else []
            for span in red.spans:
                _count(stats["pii_spans"], span["entity"])
            detail = {"pii": red.spans, "exif": exif, **routing, **({"metadata": meta} if meta else {})}
            if red.deleted_turns:
                detail["deleted_turns"] = red.deleted_turns
                detail["spans"] = red.evidence
            if red.spans or red.deleted_turns:
                ledger.append(_row(row, "modified", "pii_redacted", detail))
                stats["funnel"]["pii_redacted"] = stats["funnel"].get("pii_redacted", 0) + 1
            elif meta:
                ledger.append(_row(row, "modified", "metadata_redacted", detail))
                _count(stats["funnel"], "metadata_redacted")
            elif exif:
                ledger.append(_row(row, "modified", "exif_stripped", detail))
                stats["funnel"]["exif_only"] = stats["funnel"].get("exif_only", 0) + 1
            else:
                ledger.append(_row(row, "kept", "ok", routing))
            out_rows.append(row)
        stats["seconds"]["redact_exif"] = time.perf_counter() - t0
        stats["funnel"]["out"] = len(out_rows)
        for row in rows:
            row.pop("_turn_languages", None)
            row.pop("_traits", None)
        return ShardResult(dialogues_frame(out_rows), ledger_frame(ledger), stats)

    # -- steps -------------------------------------------------------------------
    def _languages(self, rows: list[dict], ledger: list[dict], stats: dict) -> list[dict]:
        """Detect languages (kept on the rows as ``_turn_languages``); drop unselected ones."""
        t0 = time.perf_counter()
        found = dialogue_languages([row["turns"] for row in rows])
        wanted = set(self.config.languages)
        kept = []
        for row, (language, per_turn) in zip(rows, found):
            row["language"] = row.get("language") or language
            row["_turn_languages"] = per_turn
            code = row["language"] or UNDETERMINED
            _count(stats["languages"], code)
            if wanted and code not in wanted:
                ledger.append(_row(row, "dropped", "language_not_selected", {"language": code}))
                _count(stats["funnel"]["dropped"], "language_not_selected")
            else:
                kept.append(row)
        stats["seconds"]["language"] = time.perf_counter() - t0
        return kept

    def _toxicity(self, rows: list[dict], stats: dict) -> Sequence[dict | None]:
        if not self.config.toxicity:
            return [None] * len(rows)
        t0 = time.perf_counter()
        scorer = self.toxicity.scorer
        before = scorer.cache.stats() if hasattr(scorer, "cache") else None
        tags = self.toxicity.score_dialogues([[t["text"] for t in row["turns"]] for row in rows],
                                             [row["_turn_languages"] for row in rows])
        if before is not None:
            after = scorer.cache.stats()
            stats["toxicity_cache"] = {k: after[k] - before[k] for k in after}
        stats["seconds"]["toxicity"] = time.perf_counter() - t0
        return tags

    def _scan(self, rows: list[dict], stats: dict) -> list[list[TurnScan]]:
        texts = [t["text"] or "" for row in rows for t in row["turns"]]
        english = [e for row in rows for e in english_turns(row["turns"], row["_turn_languages"], row["language"])]
        stats["turns"] = len(texts)
        stats["turns_without_english_ner"] = english.count(False)
        if not self.config.pii:
            return [[TurnScan(english=e) for e in english_turns(row["turns"], row["_turn_languages"], row["language"])]
                    for row in rows]
        t0 = time.perf_counter()
        follows = [k > 0 for row in rows for k in range(len(row["turns"]))]
        flat = iter(self.pii.scan(texts, english, follows))
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
        from builder.clean.recognizers import build_finders, language_independent

        finders = language_independent(build_finders(self.config.entities)) if self.config.pii else []
        return {"funnel": stats.get("funnel", {}), "suppressed_by_rule": stats.get("suppressed", {}),
                "redacted_by_model": stats.get("by_model", {}),
                "traits": stats.get("traits", {}),
                "decided_by": {"toxicity": self._describe_toxicity()["name"] if self.config.toxicity else None,
                               "pii": f"presidio+{NER_MODEL}" if self.config.pii else None},
                "pii_routing": {"english_ner": "turns identified as English (builder/language.py)",
                                "language_independent_finders": finders}}


def _row(row: dict, decision: str, reason: str, detail: dict) -> dict:
    return {"dialogue_id": row["dialogue_id"], "stage": "clean", "decision": decision, "reason": reason,
            "detail": detail}


def _count(counter: dict, key: str) -> None:
    counter[key] = counter.get(key, 0) + 1


def _routing(row: dict, scans: list[TurnScan]) -> dict:
    """Ledger detail: the dialogue's language and the turns that only got the
    language-independent finders (no English NER)."""
    skipped = [i for i, scan in enumerate(scans) if not scan.english]
    out = {"language": row.get("language")}
    if skipped:
        out["language_independent_only_turns"] = skipped
    return out


def _remap(traits: Traits, n_turns: int, deleted: list[int]) -> Traits:
    """The traits with turn indices as they are after ``deleted`` turns went (delete_exchange)."""
    if not deleted:
        return traits
    new_index = {old: new for new, old in enumerate(i for i in range(n_turns) if i not in set(deleted))}
    return Traits({name: tuple(new_index[t] for t in turns if t in new_index) for name, turns in traits.found.items()
                   if not turns or any(t in new_index for t in turns)})


def _keys(shares: dict[int, float]) -> dict[str, float]:
    return {str(k): v for k, v in sorted(shares.items())}
