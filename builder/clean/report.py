"""`mmrc-build clean --report`: the funnel of a finished clean folder, as text."""

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
    lines.append(f"  {'only EXIF stripped':<28}{funnel.get('exif_only', 0):>8}")
    lines.append(f"  {'out':<28}{funnel.get('out', 0):>8}")
    spans = stats.get("pii_spans", {})
    if spans:
        lines.append("  pii spans: " + ", ".join(f"{k} {v}" for k, v in sorted(spans.items())))
    exif = stats.get("exif", {})
    lines.append(f"  images: {exif.get('images', 0)} seen, {exif.get('stripped', 0)} stripped of metadata "
                 f"({exif.get('reencoded', 0)} re-encoded for orientation)")
    decided = manifest.get("decided_by", {})
    lines.append(f"  decided by: toxicity={decided.get('toxicity')} pii={decided.get('pii')}")
    for name, model in sorted(models.items()):
        extra = " int8" if model.get("int8") else ""
        lines.append(f"  model {name} {json.dumps(model.get('version'))}{extra} ({model.get('source', 'package')})")
    cache = stats.get("toxicity_cache")
    if cache:
        lines.append(f"  toxicity cache: {cache.get('hits', 0)} hits, {cache.get('misses', 0)} scored")
    return lines
