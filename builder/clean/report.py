"""`mmrc-build clean --report`: the funnel of a finished clean folder and examples per entity.

The examples let a user judge precision by eye before a release: per entity, how many spans
were redacted and a few of them in their context (the cleaned text around the placeholder)
with the value that was removed, read back from the stage's input folder (the output and
the ledger never hold it). Examples are spread over the dialogues (every k-th span, by
dialogue id), so they are the same on every run.
"""

from __future__ import annotations

import json
from pathlib import Path

from builder import io


def funnel_lines(folder: Path) -> list[str]:
    manifest = io.require_finished(Path(folder), what="clean output")
    if manifest.get("stage") != "clean":
        from builder.errors import InputError

        raise InputError(f"{folder} was written by stage {manifest.get('stage')!r}, not clean; "
                         "pass the output folder of `mmrc-build clean`")
    stats = manifest.get("stats", {})
    funnel = stats.get("funnel", {})
    models = {m.get("name"): m for m in manifest.get("models", [])}
    lines = [f"clean funnel for {folder}", f"  {'in':<28}{funnel.get('in', 0):>8}"]
    for reason, n in sorted(funnel.get("dropped", {}).items()):
        lines.append(f"  {'dropped ' + reason:<28}{-n:>8}")
    lines.append(f"  {'redacted (kept, modified)':<28}{funnel.get('pii_redacted', 0):>8}")
    lines.append(f"  {'metadata fields redacted':<28}{funnel.get('metadata_redacted', 0):>8}")
    lines.append(f"  {'only EXIF stripped':<28}{funnel.get('exif_only', 0):>8}")
    lines.append(f"  {'out':<28}{funnel.get('out', 0):>8}")
    spans = stats.get("pii_spans", {})
    if spans:
        lines.append("  pii spans: " + ", ".join(f"{k} {v}" for k, v in sorted(spans.items())))
    suppressed = manifest.get("suppressed_by_rule") or stats.get("suppressed") or {}
    if suppressed:
        lines.append("  found but kept, per rule (builder/clean/policy.py, precision.SPAN_RULES): "
                     + ", ".join(f"{k} {v}" for k, v in sorted(suppressed.items(), key=lambda kv: (-kv[1], kv[0]))))
    by_model = manifest.get("redacted_by_model") or stats.get("by_model") or {}
    if by_model:
        lines.append("  redacted on a context model's reading (classifiers/person_context, number_context, "
                     "street_context, lower_case_name): "
                     + ", ".join(f"{k} {v}" for k, v in sorted(by_model.items())))
    traits = manifest.get("traits") or stats.get("traits") or {}
    if traits:
        lines.append("  dialogue traits (builder/traits): " + ", ".join(f"{k} {v}" for k, v in sorted(traits.items())))
    exif = stats.get("exif", {})
    lines.append(f"  images: {exif.get('images', 0)} seen, {exif.get('stripped', 0)} had metadata and were "
                 "re-encoded from their pixels")
    decided = manifest.get("decided_by", {})
    lines.append(f"  decided by: toxicity={decided.get('toxicity')} pii={decided.get('pii')}")
    for name, model in sorted(models.items()):
        extra = " int8" if model.get("int8") else ""
        lines.append(f"  model {name} {json.dumps(model.get('version'))}{extra} ({model.get('source', 'package')})")
    cache = stats.get("toxicity_cache")
    if cache:
        lines.append(f"  toxicity cache: {cache.get('hits', 0)} hits, {cache.get('misses', 0)} scored")
    languages = stats.get("languages", {})
    if languages:
        top = sorted(languages.items(), key=lambda kv: (-kv[1], kv[0]))[:8]
        lines.append("  languages: " + ", ".join(f"{k} {v}" for k, v in top)
                     + f"; turns without English NER: {stats.get('turns_without_english_ner', 0)}")
    return lines


def example_lines(folder: Path, per_entity: int = 5, width: int = 40) -> list[str]:
    """Per entity: the number of redacted spans and ``per_entity`` examples in context."""
    import polars as pl

    folder = Path(folder)
    manifest = io.require_finished(folder, what="clean output")
    parts = io.parts(folder)
    if not parts or per_entity <= 0:
        return []
    rows = pl.read_parquet(parts, columns=["dialogue_id", "turns", "pii"]).sort("dialogue_id").to_dicts()
    spans: dict[str, list[tuple[dict, dict]]] = {}
    for row in rows:
        for span in row["pii"] or []:
            spans.setdefault(span["entity"], []).append((row, span))
    if not spans:
        return ["  no PII spans redacted"]
    originals = _input_rows(manifest, {row["dialogue_id"] for row, _ in
                                       (x for found in spans.values() for x in _spread(found, per_entity))})
    lines = ["  redacted spans per entity (examples: cleaned context, [removed value]):"]
    for entity, found in sorted(spans.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"  {entity}: {len(found)}")
        for row, span in _spread(found, per_entity):
            text = row["turns"][span["turn"]]["text"]
            before = text[max(0, span["start"] - width):span["start"]]
            after = text[span["end"]:span["end"] + width]
            value = _original_value(originals.get(row["dialogue_id"]), row, span)
            shown = f"…{before}{text[span['start']:span['end']]}{after}…".replace("\n", " ")
            lines.append(f"    {row['dialogue_id'][:8]} t{span['turn']}: {shown}  [{value}]")
    return lines


def _spread(found: list, k: int) -> list:
    step = max(1, len(found) // k)
    return found[::step][:k]


def _input_rows(manifest: dict, ids: set[str]) -> dict[str, dict]:
    import polars as pl

    source = Path(manifest.get("input", {}).get("path", ""))
    if not ids or not (source / io.SUCCESS).exists():
        return {}
    found = pl.read_parquet(io.parts(source), columns=["dialogue_id", "turns"]).filter(
        pl.col("dialogue_id").is_in(sorted(ids)))
    return {r["dialogue_id"]: r for r in found.to_dicts()}


def _original_value(original: dict | None, row: dict, span: dict) -> str:
    """The removed value: align the cleaned turn with the input turn (text between
    placeholders is unchanged)."""
    if original is None:
        return "input folder not available"
    turn = row["turns"][span["turn"]]
    source = next((t for t in original["turns"] if t["index"] == turn["index"] and t["text"] is not None), None)
    if source is None:
        source = _by_text(original["turns"], turn)
    if source is None:
        return "?"
    cleaned, raw = turn["text"], source["text"]
    same_turn = sorted((s for s in row["pii"] if s["turn"] == span["turn"]), key=lambda s: s["start"])
    pos_c = pos_r = 0
    for s in same_turn:
        literal = cleaned[pos_c:s["start"]]
        at = raw.find(literal, pos_r) if literal else pos_r
        if at < 0:
            return "?"
        value_start = at + len(literal)
        nxt = [x for x in same_turn if x["start"] > s["start"]]
        tail = cleaned[s["end"]:nxt[0]["start"] if nxt else len(cleaned)]
        value_end = raw.find(tail, value_start + 1) if tail else len(raw)
        if value_end < 0:
            return "?"
        if s is span:
            return raw[value_start:value_end]
        pos_c, pos_r = s["end"], value_end
    return "?"


def _by_text(turns: list[dict], turn: dict) -> dict | None:
    """A turn re-indexed by delete_exchange: the input turn with the same role whose text
    starts like the cleaned one."""
    head = turn["text"][:20]
    return next((t for t in turns if t["role"] == turn["role"] and (t["text"] or "").startswith(head)), None)
