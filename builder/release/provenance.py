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


def stage_chain(data: Path, limit: int = 16) -> list[dict]:
    """``[{stage, config, models}]`` from the first stage to ``data``'s."""
    chain, folder, seen = [], Path(data), set()
    while folder is not None and len(chain) < limit and (folder / "manifest.json").exists():
        if folder.resolve() in seen:
            break
        seen.add(folder.resolve())
        manifest = json.loads((folder / "manifest.json").read_text())
        chain.append({"stage": manifest.get("stage"), "config": _public(manifest.get("config") or {}),
                      "models": _models(manifest.get("models"))})
        source = (manifest.get("input") or {}).get("path")
        folder = Path(source) if source else None
    return chain[::-1]
