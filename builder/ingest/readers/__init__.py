"""Format readers: a registry, per-file detection, and record iteration with quarantine.

A reader module has ``matches(obj) -> bool`` and ``parse(obj, locator) -> list`` of
:class:`RawDialogue` (or :class:`Quarantined` for records it refuses itself).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from builder.errors import ConfigError
from builder.ingest.readers import chat_export, native, oasst, openai, sharegpt
from builder.ingest.records import Quarantined, RawDialogue, RecordError

READERS = {
    "native": native,
    "openai": openai,
    "sharegpt": sharegpt,
    "oasst": oasst,
    "chat_export": chat_export,
}
# Detection order: the most specific shapes first (chat_export also has "messages").
DETECT_ORDER = ("oasst", "chat_export", "sharegpt", "native", "openai")
LOG_SUFFIXES = (".jsonl", ".json")
DETECT_LINES = 50
EXCERPT = 300


def reader(name: str):
    try:
        return READERS[name]
    except KeyError:
        raise ConfigError(f"unknown format {name!r}; available: auto, {', '.join(READERS)}") from None


def detect(obj) -> str | None:
    if not isinstance(obj, dict):
        return None
    return next((name for name in DETECT_ORDER if READERS[name].matches(obj)), None)


def _decode(raw: bytes, locator: str) -> object | Quarantined:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Quarantined(locator, "invalid_utf8", f"not valid UTF-8 ({exc.reason} at byte {exc.start})",
                           excerpt=raw[:EXCERPT].decode("utf-8", "replace"))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        return Quarantined(locator, "malformed_json", f"invalid JSON: {exc.msg} at column {exc.colno}",
                           excerpt=text[:EXCERPT])


def _records(path: Path) -> Iterator[tuple[str, object]]:
    """(locator, parsed object or Quarantined) for every record of a log file."""
    if path.suffix == ".jsonl":
        with open(path, "rb") as fh:
            for line_no, raw in enumerate(fh, start=1):
                if raw.strip():
                    yield f"line {line_no}", _decode(raw.rstrip(b"\r\n"), f"line {line_no}")
        return
    parsed = _decode(path.read_bytes(), "file")
    if isinstance(parsed, list):
        for i, item in enumerate(parsed):
            yield f"item {i}", item
    else:
        yield "file", parsed


def detect_file(path: Path) -> str | None:
    for seen, (_, obj) in enumerate(_records(path)):
        if seen >= DETECT_LINES:
            break
        name = detect(obj)
        if name:
            return name
    return None


def resolve_format(path: Path, fmt: str = "auto") -> str | None:
    """The reader name for a file: the forced one, or the detected one (None: no match)."""
    return detect_file(path) if fmt == "auto" else fmt


def iter_file(path: Path, name: str | None) -> Iterator[RawDialogue | Quarantined]:
    """Every dialogue (or quarantine) in one log file, in file order, read as format ``name``
    (from :func:`resolve_format`; None quarantines every record as ``unknown_format``)."""
    module = reader(name) if name else None
    for locator, obj in _records(path):
        if isinstance(obj, Quarantined):
            yield obj
            continue
        if module is None:
            yield Quarantined(locator, "unknown_format",
                              "file matches none of the formats; see raw/README.md or force one with --format",
                              excerpt=_excerpt(obj))
            continue
        if not isinstance(obj, dict):
            yield Quarantined(locator, "invalid_record", f"a {name} record must be a JSON object",
                              excerpt=_excerpt(obj))
            continue
        try:
            yield from module.parse(obj, locator)
        except RecordError as exc:
            source_id = obj.get("id", obj.get("source_id"))
            yield Quarantined(locator, exc.reason, str(exc), str(source_id) if source_id is not None else None,
                              _excerpt(obj))


def _excerpt(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)[:EXCERPT]


def log_files(root: Path) -> list[Path]:
    """Log files under ``root`` in a stable order; symlinked files/folders are not followed."""
    out = []
    for path in sorted(root.rglob("*")):
        if path.suffix in LOG_SUFFIXES and path.is_file() and not path.is_symlink():
            rel = path.relative_to(root)
            if any(part.startswith(".") for part in rel.parts):
                continue
            out.append(path)
    return out
