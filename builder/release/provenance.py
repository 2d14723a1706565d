"""The stage manifests behind a data folder: which models and thresholds made it.

Each manifest names its input folder, so the chain is followed back to ingest. Config
values that are secrets (salts, tokens) are never copied into a release, and absolute
paths are reduced to their last component so the card does not depend on the machine.
"""

from __future__ import annotations

import json
from pathlib import Path

SECRET_WORDS = ("salt", "token", "secret", "password", "credential")


def _public(value):
    if isinstance(value, dict):
        return {k: _public(v) for k, v in sorted(value.items())
                if not any(word in k.lower() for word in SECRET_WORDS)}
    if isinstance(value, list):
        return [_public(v) for v in value]
    if isinstance(value, str) and value.startswith("/"):
        return Path(value).name
    return value


def _models(models) -> list[dict]:
    return [{"name": m.get("name"), "version": m.get("version")} for m in models or [] if isinstance(m, dict)]


def manifests(data: Path, limit: int = 16) -> list[dict]:
    """The raw stage manifests, from the first stage to ``data``'s (as far as the folders exist)."""
    chain: list[dict] = []
    folder: Path | None = Path(data)
    seen = set()
    while folder is not None and len(chain) < limit and (folder / "manifest.json").exists():
        if folder.resolve() in seen:
            break
        seen.add(folder.resolve())
        manifest = json.loads((folder / "manifest.json").read_text())
        chain.append(manifest)
        source = (manifest.get("input") or {}).get("path")
        folder = Path(source) if source else None
    return chain[::-1]


def stage_chain(data: Path, limit: int = 16) -> list[dict]:
    """``[{stage, config, models}]`` from the first stage to ``data``'s."""
    return [{"stage": m.get("stage"), "config": _public(m.get("config") or {}), "models": _models(m.get("models"))}
            for m in manifests(data, limit)]


def _stage(chain: list[dict], stage: str) -> dict | None:
    """The manifest of ``stage`` in the lineage (the latest, if it ran more than once), or None."""
    return next((m for m in reversed(chain) if m.get("stage") == stage), None)


def toxicity_backend(chain: list[dict]) -> dict | None:
    """The toxicity scorer the clean stage decided with: ``{name, version, lexicon}``; None when the
    lineage has no clean stage or clean ran without toxicity."""
    clean = _stage(chain, "clean")
    if clean is None or not (clean.get("config") or {}).get("toxicity", True):
        return None
    name = (clean.get("decided_by") or {}).get("toxicity")
    model = next((m for m in clean.get("models") or [] if isinstance(m, dict) and m.get("name") == name), {})
    if name is None:
        return None
    return {"name": name, "version": model.get("version"), "lexicon": name == "lexicon"}


IMAGE_SOURCES = {"image-bank": "image bank", "text-to-image": "text-to-image model"}


def topic_model(chain: list[dict]) -> dict | None:
    """The classify stage's topic model figures (classify manifest ``model_quality``), or None."""
    classify = _stage(chain, "classify")
    quality = (classify or {}).get("model_quality")
    return quality if isinstance(quality, dict) else None


def pii(chain: list[dict]) -> dict | None:
    """What clean's PII step did: ``{on, backend, entities, action}``; None without a clean stage."""
    clean = _stage(chain, "clean")
    if clean is None:
        return None
    config = clean.get("config") or {}
    model = next((m for m in clean.get("models") or [] if isinstance(m, dict) and m.get("name") == "presidio+spacy"),
                 None)
    version = (model or {}).get("version")
    backend = (", ".join(f"{k} {v}" for k, v in version.items()) if isinstance(version, dict) else str(version or ""))
    return {"on": bool(config.get("pii", True)), "backend": backend,
            "entities": [str(e) for e in config.get("entities") or []], "action": str(config.get("action") or "")}


def image_source(chain: list[dict]) -> dict | None:
    """Where the swap stage's pictures came from: ``{kind, name}`` (the bank folder's or the
    pipeline folder's name); ``{kind: None, name: None}`` when a swap stage recorded none; None when
    the lineage has no swap stage."""
    swap = _stage(chain, "swap")
    if swap is None:
        return None
    entry = next((m for m in swap.get("models") or [] if isinstance(m, dict) and m.get("name") in IMAGE_SOURCES), None)
    if entry is None:
        return {"kind": None, "name": None}
    return {"kind": IMAGE_SOURCES[entry["name"]], "name": str(entry.get("version") or "")}


def raw_folder_name(chain: list[dict]) -> str | None:
    """The name of the raw folder ingest read (``arena_exports``), or None."""
    ingest = _stage(chain, "ingest")
    path = ((ingest or {}).get("input") or {}).get("path")
    if not path:
        return None
    folder = Path(str(path))
    name = folder.name if folder.name not in ("", ".", "..") else folder.resolve().name
    return name or None


def ingest_files(chain: list[dict]) -> list[dict]:
    """What ingest read: ``[{file, format, records, quarantined}]`` (paths relative to its raw folder)."""
    ingest = _stage(chain, "ingest")
    return [f for f in (ingest or {}).get("files") or [] if isinstance(f, dict) and f.get("file")]
